"""The review list: run edges ranked by posterior mean error rate with credible intervals,
zero-sense edges, edges whose verdicts flip between phrasings, confirmed blind spots."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.errortypes import flip_mask
from kglens_tui.analysis.filters import EdgeFilter, filter_mask
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.intervals import LEVEL, beta_interval

KINDS = ("ranked", "zero_sense", "flips", "confirmed", "kg_errors")
SORTS = ("mean", "low", "high", "failures")


@dataclass(frozen=True)
class EdgeRow:
    """One run edge with its counts, posterior and review flags.

    mean = alpha / (alpha + beta); [low, high] is the equal-tailed credible interval of
    Beta(alpha, beta) (None when not computed). examined: m + n > 0 and not a KG error.
    """

    pos: int
    edge_id: int
    subject_key: str
    subject: str
    predicate_key: str
    predicate: str
    object_key: str
    object: str
    start: str | None
    end: str | None
    point_in_time: str | None
    m: int
    n: int
    alpha: float
    beta: float
    mean: float
    low: float | None
    high: float | None
    examined: bool
    win: bool
    zero_sense: bool
    all_sense: bool
    flips: bool
    confirmed: bool
    kg_error: bool
    overridden: int
    error_type: str | None
    notes: int


def edge_rows(
    data: RunData,
    positions: np.ndarray,
    *,
    adjusted: bool = True,
    intervals: bool = True,
    level: float = LEVEL,
) -> list[EdgeRow]:
    """Rows for the given run positions, in that order."""
    positions = np.asarray(positions, dtype=np.int64)
    state = data.state(adjusted)
    m, n = data.counts(adjusted)
    bad = data.kg_error_mask(adjusted)
    flips = flip_mask(data, adjusted)
    alpha, beta = state.alpha[positions], state.beta[positions]
    if intervals and len(positions):
        low, high = beta_interval(alpha, beta, level)
    else:
        low = high = np.full(len(positions), np.nan)
    ov = data.overrides
    overridden = np.zeros(data.n_edges, dtype=np.int64)
    for i, oid in enumerate(data.obs.id.tolist()):
        if oid in ov.verdicts:
            overridden[int(data.obs.pos[i])] += 1
    kg = data.kg
    rows = []
    for k, p in enumerate(positions.tolist()):
        i = int(data.kg_pos[p])
        s, o, pi = int(kg.s[i]), int(kg.o[i]), int(kg.p[i])
        edge_id = int(data.run.edge_ids[p])
        mp, np_ = int(m[p]), int(n[p])
        examined = (mp + np_) > 0 and not bad[p]
        rows.append(
            EdgeRow(
                pos=p,
                edge_id=edge_id,
                subject_key=kg.entity_keys[s],
                subject=kg.labels[s],
                predicate_key=kg.pred_keys[pi],
                predicate=kg.pred_labels[pi],
                object_key=kg.entity_keys[o],
                object=kg.labels[o],
                start=kg.start[i],
                end=kg.end[i],
                point_in_time=kg.point_in_time[i],
                m=mp,
                n=np_,
                alpha=float(alpha[k]),
                beta=float(beta[k]),
                mean=float(alpha[k] / (alpha[k] + beta[k])),
                low=None if np.isnan(low[k]) else float(low[k]),
                high=None if np.isnan(high[k]) else float(high[k]),
                examined=examined,
                win=examined and mp > np_,
                zero_sense=examined and mp == 0,
                all_sense=examined and np_ == 0,
                flips=bool(flips[p]) and not bad[p],
                confirmed=edge_id in ov.confirmed,
                kg_error=bool(bad[p]),
                overridden=int(overridden[p]),
                error_type=ov.edge_tags.get(edge_id),
                notes=len(ov.notes.get(edge_id, ())),
            )
        )
    return rows


def _candidates(
    data: RunData, passing: np.ndarray, kind: str, adjusted: bool, examined_only: bool
) -> np.ndarray:
    """Run positions of one review list among those `passing` the filter (not modified)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)} (got {kind!r})")
    if kind == "kg_errors":
        return np.flatnonzero(passing & data.kg_error_mask(True))
    m, n = data.counts(adjusted)
    keep = passing & ~data.kg_error_mask(adjusted)
    if examined_only or kind == "zero_sense":
        keep &= (m + n) > 0
    if kind == "zero_sense":
        keep &= m == 0
    elif kind == "flips":
        keep &= flip_mask(data, adjusted)
    elif kind == "confirmed":
        confirmed = np.array(
            [int(e) in data.overrides.confirmed for e in data.run.edge_ids.tolist()], dtype=bool
        )
        keep &= confirmed
    return np.flatnonzero(keep)


def blind_spots(
    data: RunData,
    flt: EdgeFilter | None = None,
    *,
    kind: str = "ranked",
    adjusted: bool = True,
    examined_only: bool = True,
    sort: str = "mean",
    limit: int | None = 100,
    offset: int = 0,
    level: float = LEVEL,
) -> list[EdgeRow]:
    """Edges to review, worst first.

    kind: ranked (every edge), zero_sense (examined, m = 0), flips (correct to one question,
    incorrect to another), confirmed, kg_errors (edges marked as KG errors). KG-error edges are
    left out of the other kinds when adjusted. sort: mean (posterior mean), low / high (bounds of
    the credible interval), failures (n); ties by more failures, fewer successes, edge id.
    `offset` and `limit` page through the list.
    """
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)} (got {sort!r})")
    passing = filter_mask(data.kg, data.kg_pos, flt)
    cand = _candidates(data, passing, kind, adjusted, examined_only)
    state = data.state(adjusted)
    m, n = data.counts(adjusted)
    a, b = state.alpha[cand], state.beta[cand]
    mean = a / (a + b)
    if sort in ("low", "high"):
        low, high = beta_interval(a, b, level)
        primary = low if sort == "low" else high
    elif sort == "failures":
        primary = n[cand].astype(np.float64)
    else:
        primary = mean
    order = np.lexsort((data.run.edge_ids[cand], m[cand], -n[cand], -mean, -primary))
    chosen = cand[order][offset : None if limit is None else offset + limit]
    return edge_rows(data, chosen, adjusted=adjusted, level=level)


def review_counts(
    data: RunData, flt: EdgeFilter | None = None, *, adjusted: bool = True
) -> dict[str, int]:
    """How many edges each review list holds (examined edges; for tabs and headers)."""
    passing = filter_mask(data.kg, data.kg_pos, flt)
    return {kind: len(_candidates(data, passing, kind, adjusted, True)) for kind in KINDS}
