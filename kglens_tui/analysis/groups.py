"""Group-by tables like the paper's Fig. 6-12: rates per predicate, per entity (country), per
entity group ("region:Europe") and per year of dated facts, each cell with its number of edges.

A cell's edges are the run edges in the group (after the filter; KG-error edges left out when
adjusted); its rates are over the examined ones (m + n > 0), each with a 95% Wilson score
interval over edges; what chance scores on the same questions is `chance_of`, over the replies
those rates count (each row carries it, and each run's column of a comparison shows it). An edge
whose entity has several group tags counts in each of them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from kglens_tui.analysis.filters import SIDES, EdgeFilter, fact_year, filter_mask
from kglens_tui.analysis.kgwide import KGWide, kg_wide
from kglens_tui.analysis.rundata import RunData
from kglens_tui.answers.bias import RATES as RATES  # where the screens and commands read it
from kglens_tui.answers.bias import (
    Baseline,
    YesNoBias,
    baseline_from_counts,
    bias_from_counts,
    constant_right,
)
from kglens_tui.answers.verify import first_word_answer
from kglens_tui.core.intervals import LEVEL, Proportion, wilson, worst_first
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.textfmt import interval, num, pct, selection, simulated_mark

GROUP_BY = ("predicate", "subject", "object", "group", "year")

CHANCE_FIELD = {field: chance for _, field, chance in RATES}
"""A rate's `RateSet` field -> its chance's `Baseline` field."""
ROW_SORTS = ("zero_sense", "win", "all_sense", "edges", "name")
METRICS = ("win", "zero_sense", "all_sense")


@dataclass(frozen=True)
class RateSet:
    """The paper's three rates over `examined` edges, each a Proportion with its interval."""

    examined: int
    win: Proportion
    zero_sense: Proportion
    all_sense: Proportion

    def get(self, metric: str) -> Proportion:
        """The Proportion of one metric (win, zero_sense, all_sense)."""
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)} (got {metric!r})")
        value: Proportion = getattr(self, metric)
        return value


def rate_set(m: np.ndarray, n: np.ndarray, level: float = LEVEL) -> RateSet:
    """Win (m > n), zero-sense (m = 0) and all-sense (n = 0) over edges with m + n > 0."""
    m, n = np.asarray(m), np.asarray(n)
    seen = (m + n) > 0
    k = int(seen.sum())
    ms, ns = m[seen], n[seen]
    return RateSet(
        examined=k,
        win=wilson(int((ms > ns).sum()), k, level),
        zero_sense=wilson(int((ms == 0).sum()), k, level),
        all_sense=wilson(int((ns == 0).sum()), k, level),
    )


@dataclass(frozen=True)
class GroupRow:
    """One group: its edges, rates with intervals, the mean posterior error over the same
    examined edges (m + n > 0) the rates are over (None when none was examined), and what
    blind guessing scores on the questions asked about its edges (`chance_of`, over the replies
    the rates count; its fields None when none was examined), and the answer bias of the
    group's Yes/No replies among those (`yes_no_of`; none answered by default)."""

    key: str
    label: str
    edges: int
    rates: RateSet
    mean_error: float | None
    chance: Baseline
    yes_no: YesNoBias = field(default_factory=lambda: bias_from_counts({}))
    kg_wide: KGWide | None = None
    """The group's KG-wide error rate (`analysis.kgwide`: the whole run's or a whole
    predicate's estimate where the group is one, else the Hájek ratio); None without one."""


def memberships(
    data: RunData, by: str, *, prefix: str | None = None, side: str = "subject"
) -> list[list[tuple[str, str]]]:
    """For each run position, the (key, label) of every group it belongs to under `by`."""
    if by not in GROUP_BY:
        raise ValueError(f"group by one of {', '.join(GROUP_BY)} (got {by!r})")
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)} (got {side!r})")
    kg = data.kg
    out: list[list[tuple[str, str]]] = []
    for i in data.kg_pos.tolist():
        s, o, p = int(kg.s[i]), int(kg.o[i]), int(kg.p[i])
        if by == "predicate":
            out.append([(kg.pred_keys[p], kg.pred_labels[p])])
        elif by == "subject":
            out.append([(kg.entity_keys[s], kg.labels[s])])
        elif by == "object":
            out.append([(kg.entity_keys[o], kg.labels[o])])
        elif by == "year":
            year = fact_year(kg.start[i], kg.end[i], kg.point_in_time[i])
            out.append([] if year is None else [(str(year), str(year))])
        else:
            nodes = {"subject": (s,), "object": (o,), "either": (s, o)}[side]
            tags = sorted({g for node in nodes for g in kg.groups[node]})
            if prefix:
                tags = [t for t in tags if t.startswith(prefix)]
            out.append([(t, _tag_label(t, prefix)) for t in tags])
    return out


def _tag_label(tag: str, prefix: str | None) -> str:
    """A group tag as a row names it: without ``prefix`` and the ":" after it ("region" and
    "region:" both name "region:Europe" "Europe")."""
    if not prefix:
        return tag
    rest = tag[len(prefix) :]
    return rest[1:] if rest.startswith(":") and not prefix.endswith(":") else rest


def sort_rows(rows: list[GroupRow], by: str, sort: str | None) -> list[GroupRow]:
    """Groups in a `ROW_SORTS` order: a rate's surely worst first (`worst_first`), most
    edges first, or by name (years in order); None: by year, else zero-sense."""
    sort = sort or ("name" if by == "year" else "zero_sense")
    if sort not in ROW_SORTS:
        raise ValueError(f"sort must be one of {', '.join(ROW_SORTS)} (got {sort!r})")
    if sort == "name":
        if by == "year":
            return sorted(rows, key=lambda r: int(r.key))
        return sorted(rows, key=lambda r: (r.label.casefold(), r.key))
    if sort == "edges":
        return sorted(rows, key=lambda r: (-r.edges, r.label.casefold()))

    return sorted(
        rows,
        key=lambda r: (*worst_first(r.rates.get(sort), sort == "zero_sense"), r.label.casefold()),
    )


def _rows_for(
    data: RunData,
    groups: list[list[tuple[str, str]]],
    positions: np.ndarray,
    adjusted: bool,
    level: float,
) -> list[GroupRow]:
    m, n = data.counts(adjusted)
    mean = data.mean_error(adjusted)
    members: dict[tuple[str, str], list[int]] = defaultdict(list)
    for p in positions.tolist():
        for kl in groups[p]:
            members[kl].append(p)
    rows = []
    edge_pred = data.kg.p[data.kg_pos]
    for (key, label), ps in members.items():
        idx = np.array(ps, dtype=np.int64)
        examined = idx[(m[idx] + n[idx]) > 0]
        rows.append(
            GroupRow(
                key=key,
                label=label,
                edges=len(idx),
                rates=rate_set(m[idx], n[idx], level),
                mean_error=float(mean[examined].mean()) if len(examined) else None,
                chance=chance_of(data, idx, adjusted),
                yes_no=yes_no_of(data, idx, adjusted),
                kg_wide=_group_kg_wide(data, idx, edge_pred, adjusted),
            )
        )
    return rows


def _group_kg_wide(
    data: RunData, idx: np.ndarray, edge_pred: np.ndarray, adjusted: bool
) -> KGWide | None:
    """A group's KG-wide estimate: the run's own when the group is every run edge, a
    predicate's when it is every edge of one predicate, else its edges' own (`kgwide.kg_wide`
    with a mask)."""
    if len(idx) == data.n_edges:
        return kg_wide(data, adjusted)
    preds = np.unique(edge_pred[idx])
    if len(preds) == 1 and len(idx) == int((edge_pred == preds[0]).sum()):
        return kg_wide(data, adjusted, predicate=int(preds[0]))
    mask = np.zeros(data.n_edges, dtype=bool)
    mask[idx] = True
    return kg_wide(data, adjusted, mask=mask)


def asks(data: RunData, adjusted: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(Yes/No, Wh) asks per run position, of the replies its m and n count (raw: every reply
    but transport errors, as `answers.bias.run_trust` counts them; adjusted: also not those a
    KG-error mark drops)."""

    def count() -> tuple[np.ndarray, np.ndarray]:
        _, failed, succeeded = data.outcomes(adjusted)
        counted = failed | succeeded
        qtype = np.asarray(data.obs.qtype, dtype=object)

        def of(kind: str) -> np.ndarray:
            picked = data.obs.pos[counted & (qtype == kind)]
            return np.bincount(picked, minlength=data.n_edges).astype(np.int64)

        return of(YES_NO), of(WH)

    return data.memo(("asks", adjusted), count)


def chance_of(data: RunData, positions: np.ndarray, adjusted: bool = True) -> Baseline:
    """What blind guessing scores on the questions asked about the given run positions, each
    ask independent: the baseline of `kglens report` and of `kglens compare`'s cells
    (`answers.bias.baseline_from_counts`: a Yes/No guess right half the time, always where the
    edge has no false object to ask about; a Wh guess, the predicate's most common true object,
    right where it is true of the subject), over the replies their rates count (`asks`)."""
    yes_no, wh = asks(data, adjusted)
    idx = np.asarray(positions, dtype=np.int64)
    right = yes_only = None
    if wh[idx].any():
        right = data.memo(("wh_right",), lambda: constant_right(data.kg, data.kg_pos))[idx]
    if yes_no[idx].any():
        yes_only = data.memo(("yes_only",), lambda: ~data.kg.has_false_object(data.kg_pos))[idx]
    return baseline_from_counts(yes_no[idx], wh[idx], right, yes_only)


YES_NO_CELLS = (("yes", "yes"), ("yes", "no"), ("no", "yes"), ("no", "no"))
"""(expected, given) answers of a Yes/No reply, as `answers.bias.bias_from_counts` counts them."""


def yes_no_counts(data: RunData, adjusted: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Per run position: how many Yes/No replies fall in each `YES_NO_CELLS` cell (one column a
    cell) and how many open with neither yes nor no, over the replies the rates count but
    transport errors (without those a KG-error mark drops when ``adjusted``)."""

    def count() -> tuple[np.ndarray, np.ndarray]:
        obs = data.obs
        kept = data.outcomes(adjusted)[0]
        cells = np.zeros((data.n_edges, len(YES_NO_CELLS)), dtype=np.int64)
        unparsed = np.zeros(data.n_edges, dtype=np.int64)
        index = {cell: i for i, cell in enumerate(YES_NO_CELLS)}
        for i in np.flatnonzero(kept & (obs.category != "error")).tolist():
            if obs.qtype[i] != YES_NO:
                continue
            given = first_word_answer(obs.reply[i] or "")
            pos = int(obs.pos[i])
            if given is None:
                unparsed[pos] += 1
            elif (obs.expected[i], given) in index:
                cells[pos, index[(obs.expected[i], given)]] += 1
        return cells, unparsed

    return data.memo(("yes_no_counts", adjusted), count)


def yes_no_of(data: RunData, positions: np.ndarray, adjusted: bool = True) -> YesNoBias:
    """The answer bias (yes-rate, balanced accuracy, ...) of the Yes/No replies about the given
    run positions, over the replies `yes_no_counts` counts."""
    cells, unparsed = yes_no_counts(data, adjusted)
    idx = np.asarray(positions, dtype=np.int64)
    sums = cells[idx].sum(axis=0).tolist()
    return bias_from_counts(dict(zip(YES_NO_CELLS, sums, strict=True)), int(unparsed[idx].sum()))


def yes_no_text(bias: YesNoBias) -> tuple[str, str, str]:
    """A group's yes-rate, its 95% interval with n, and balanced accuracy, for a table ("—"
    without Yes/No replies)."""
    if not bias.answered:
        return "—", "", "—"
    rate = bias.yes_rate
    low, high = rate.interval or (None, None)
    return pct(rate.value), f"{interval(low, high)} n={rate.n:,}", num(bias.balanced_accuracy)


def scope(data: RunData, flt: EdgeFilter | None, adjusted: bool) -> np.ndarray:
    """Run positions in the analysis: passing the filter, not KG errors when adjusted."""
    return np.flatnonzero(filter_mask(data.kg, data.kg_pos, flt) & data.included(adjusted))


def group_table(
    data: RunData,
    by: str = "predicate",
    flt: EdgeFilter | None = None,
    *,
    adjusted: bool = True,
    prefix: str | None = None,
    side: str = "subject",
    sort: str | None = None,
    level: float = LEVEL,
) -> list[GroupRow]:
    """Rates per group. by: predicate, subject, object, group (entity-group tags of the edge's
    `side`, optionally only those starting with `prefix` such as "region:"), or year (of dated
    facts; undated facts are in no row). Default order: by year, else surely worst zero-sense
    first (`worst_first`)."""
    groups = memberships(data, by, prefix=prefix, side=side)
    rows = _rows_for(data, groups, scope(data, flt, adjusted), adjusted, level)
    return sort_rows(rows, by, sort)


def overall(
    data: RunData, flt: EdgeFilter | None = None, *, adjusted: bool = True, level: float = LEVEL
) -> GroupRow:
    """The whole (filtered) run as one row."""
    pos = scope(data, flt, adjusted)
    groups = [[("all", "all")]] * data.n_edges
    rows = _rows_for(data, groups, pos, adjusted, level)
    if rows:
        return rows[0]
    none = np.zeros(0, np.int64)
    return GroupRow(
        "all",
        "all",
        0,
        rate_set(none, none, level),
        None,
        chance_of(data, none, adjusted),
        yes_no_of(data, none, adjusted),
    )


@dataclass(frozen=True)
class CrossCell:
    """One (row group, column group) cell; share is its edges over the row's edges (the dot
    size of Fig. 6); chance is what blind guessing scores on its questions (`chance_of`)."""

    edges: int
    share: float
    rates: RateSet
    chance: Baseline


@dataclass(frozen=True)
class CrossTable:
    """A two-way table (Fig. 6: countries x predicates), with row and column totals."""

    row_by: str
    col_by: str
    rows: list[GroupRow]
    cols: list[GroupRow]
    cells: dict[tuple[str, str], CrossCell]


def cross_table(
    data: RunData,
    rows: str = "subject",
    cols: str = "predicate",
    flt: EdgeFilter | None = None,
    *,
    adjusted: bool = True,
    prefix: str | None = None,
    side: str = "subject",
    level: float = LEVEL,
) -> CrossTable:
    """Rates per pair of groups; rows and columns in their group_table default order."""
    pos = scope(data, flt, adjusted)
    row_groups = memberships(data, rows, prefix=prefix, side=side)
    col_groups = memberships(data, cols, prefix=prefix, side=side)
    m, n = data.counts(adjusted)
    row_rows = sort_rows(_rows_for(data, row_groups, pos, adjusted, level), rows, None)
    col_rows = sort_rows(_rows_for(data, col_groups, pos, adjusted, level), cols, None)
    row_edges = {r.key: r.edges for r in row_rows}
    members: dict[tuple[str, str], list[int]] = defaultdict(list)
    for p in pos.tolist():
        for rk, _ in row_groups[p]:
            for ck, _ in col_groups[p]:
                members[(rk, ck)].append(p)
    cells = {}
    for (rk, ck), ps in members.items():
        idx = np.array(ps, dtype=np.int64)
        cells[(rk, ck)] = CrossCell(
            edges=len(idx),
            share=len(idx) / row_edges[rk],
            rates=rate_set(m[idx], n[idx], level),
            chance=chance_of(data, idx, adjusted),
        )
    return CrossTable(rows, cols, row_rows, col_rows, cells)


@dataclass(frozen=True)
class RunColumn:
    """A run as a column of a comparison."""

    run_id: int
    label: str
    kg: str
    difficulty: str


@dataclass(frozen=True)
class ComparisonRow:
    """One group across runs; a cell is None when the run has no edge in the group, and
    `chances` holds, parallel to the cells, what chance scores on the questions each run asked
    about the group (`chance_of`)."""

    key: str
    label: str
    cells: list[GroupRow | None]
    chances: list[Baseline | None]


@dataclass(frozen=True)
class GroupComparison:
    """Fig. 7-12: groups as rows, runs (models) as columns."""

    by: str
    runs: list[RunColumn]
    rows: list[ComparisonRow]


def run_column(data: RunData) -> RunColumn:
    """A run's column header: its target label, KG selection (subset and predicates, as
    `textfmt.selection` names them) and difficulty."""
    label = data.run.target_label + simulated_mark(data.run.target_label, data.run.simulated)
    cfg = data.run.config
    asked = selection(data.run.kg_name, cfg.subset, cfg.predicates, full=False)
    return RunColumn(data.run.id, label, asked, str(cfg.difficulty))


def group_comparison(
    runs: list[RunData],
    by: str = "subject",
    flt: EdgeFilter | None = None,
    *,
    adjusted: bool = True,
    prefix: str | None = None,
    side: str = "subject",
    level: float = LEVEL,
) -> GroupComparison:
    """The same group-by for several runs side by side, rows in name (or year) order, each
    cell with its chance (the row's `chance`)."""
    tables = [
        {
            r.key: r
            for r in group_table(
                d, by, flt, adjusted=adjusted, prefix=prefix, side=side, level=level
            )
        }
        for d in runs
    ]
    labels: dict[str, str] = {}
    for t in tables:
        labels.update({k: r.label for k, r in t.items()})
    if by == "year":
        keys = sorted(labels, key=int)
    else:
        keys = sorted(labels, key=lambda k: (labels[k].casefold(), k))
    rows = []
    for k in keys:
        cells = [t.get(k) for t in tables]
        rows.append(
            ComparisonRow(k, labels[k], cells, [None if c is None else c.chance for c in cells])
        )
    return GroupComparison(by, [run_column(d) for d in runs], rows)
