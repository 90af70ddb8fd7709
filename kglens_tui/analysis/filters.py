"""Which run edges a review or a table looks at: by predicate, entity group, subject and fact date.

Dates are ISO strings as imported ("1973", "1955-12-14"); a fact's interval runs from its
point_in_time or start to its point_in_time or end (open when missing). A year-only bound
covers the whole year.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kglens_tui.kg.graph import KGIndex

SIDES = ("subject", "object", "either")


@dataclass(frozen=True)
class EdgeFilter:
    """Every set criterion must hold; an empty tuple or None means no restriction.

    predicates: predicate keys or labels. groups: entity-group tags ("region:Europe"); the edge's
    entity on `side` must carry one of them. subjects: entity keys. date_from / date_to: the fact's
    interval must overlap [date_from, date_to]; undated facts are then left out. dated: True keeps
    dated facts only, False undated only.
    """

    predicates: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    side: str = "subject"
    subjects: tuple[str, ...] = ()
    date_from: str | None = None
    date_to: str | None = None
    dated: bool | None = None

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)} (got {self.side!r})")

    @property
    def empty(self) -> bool:
        """Whether the filter keeps every edge."""
        return self == EdgeFilter(side=self.side)


def _pad(date: str, upper: bool) -> str:
    """A partial ISO date padded to a full day: the first day, or with upper the last."""
    text = date.strip()
    parts = text.split("-")
    if text.startswith("-") or not parts[0].isdigit():
        return text
    year = parts[0].zfill(4)
    month = parts[1] if len(parts) > 1 and parts[1] else ("12" if upper else "01")
    day = parts[2][:2] if len(parts) > 2 and parts[2] else ("31" if upper else "01")
    return f"{year}-{month.zfill(2)}-{day.zfill(2)}"


def fact_interval(start: str | None, end: str | None, point: str | None) -> tuple[str, str] | None:
    """(first day, last day) of a fact as padded ISO strings ("" / "9999-12-31" when open), or
    None for an undated fact."""
    lo_raw = point or start
    hi_raw = point or end
    if not lo_raw and not hi_raw:
        return None
    lo = _pad(lo_raw, upper=False) if lo_raw else ""
    hi = _pad(hi_raw, upper=True) if hi_raw else "9999-12-31"
    return lo, hi


def fact_year(start: str | None, end: str | None, point: str | None) -> int | None:
    """The year a fact is dated by: its point_in_time, else its start, else its end."""
    for value in (point, start, end):
        if value:
            head = value.strip().split("-")[0]
            if head.isdigit():
                return int(head)
    return None


def _entity_nodes(kg: KGIndex, positions: np.ndarray, side: str) -> list[np.ndarray]:
    if side == "subject":
        return [kg.s[positions]]
    if side == "object":
        return [kg.o[positions]]
    return [kg.s[positions], kg.o[positions]]


def _date_mask(kg: KGIndex, positions: np.ndarray, flt: EdgeFilter) -> np.ndarray:
    lo_q = _pad(flt.date_from, upper=False) if flt.date_from else ""
    hi_q = _pad(flt.date_to, upper=True) if flt.date_to else "9999-12-31"
    ranged = bool(flt.date_from or flt.date_to)
    keep = np.ones(len(positions), dtype=bool)
    for i, pos in enumerate(positions.tolist()):
        span = fact_interval(kg.start[pos], kg.end[pos], kg.point_in_time[pos])
        wrong_kind = flt.dated is not None and (span is not None) != flt.dated
        outside = span is None or span[0] > hi_q or span[1] < lo_q
        keep[i] = not (wrong_kind or (ranged and outside))
    return keep


def filter_mask(kg: KGIndex, positions: np.ndarray, flt: EdgeFilter | None) -> np.ndarray:
    """For each KG position in `positions`, whether its edge passes the filter."""
    positions = np.asarray(positions, dtype=np.int64)
    keep = np.ones(len(positions), dtype=bool)
    if flt is None or flt.empty:
        return keep
    if flt.predicates:
        wanted = set(flt.predicates)
        preds = np.array(
            [
                k in wanted or lab in wanted
                for k, lab in zip(kg.pred_keys, kg.pred_labels, strict=True)
            ],
            dtype=bool,
        )
        keep &= preds[kg.p[positions]]
    if flt.groups:
        wanted = set(flt.groups)
        in_group = np.array([bool(wanted.intersection(g)) for g in kg.groups], dtype=bool)
        hit = np.zeros(len(positions), dtype=bool)
        for nodes in _entity_nodes(kg, positions, flt.side):
            hit |= in_group[nodes]
        keep &= hit
    if flt.subjects:
        wanted = set(flt.subjects)
        subj = np.array([k in wanted for k in kg.entity_keys], dtype=bool)
        keep &= subj[kg.s[positions]]
    if flt.dated is not None or flt.date_from or flt.date_to:
        keep &= _date_mask(kg, positions, flt)
    return keep
