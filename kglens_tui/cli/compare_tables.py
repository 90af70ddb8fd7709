"""`kglens compare --tables`: Table 3 with one run a row and each value in a column of its own,
and the differences of two runs with their intervals and tests, as tables the table files turn
into numeric columns (`analysis.table_files.split_intervals`)."""

from __future__ import annotations

from kglens_tui.analysis.compare import SIGNIFICANCE, Drift, PredicateTest, RunGrid
from kglens_tui.analysis.compare_text import confounded
from kglens_tui.analysis.groups import CHANCE_FIELD
from kglens_tui.analysis.kgwide import KGWide
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.modes.kglens.estimates import Difference
from kglens_tui.modes.kglens.rate_text import noted, win_text
from kglens_tui.textfmt import pct, rate_ci, short_target, signed


def table3_values(grid: RunGrid, metric: str) -> LiteralTable:
    """Table 3 in long form: a row per cell (model, KG selection, difficulty, run), its KG-wide
    win rate with interval, chance and answers (metric win), then its rate over the examined
    edges with interval, n and chance, each in a column of its own."""
    name = metric.replace("_", "-")
    wide = metric == "win"
    estimates = [c.kg_wide.rate for c in grid.cells.values() if c.kg_wide is not None]
    table = LiteralTable(
        title=f"Table 3 values: {name} rate, one row per run",
        title_justify="left",
        caption=noted(
            "KG-wide: every edge of the column's selection asked once (kglens report RUN), "
            "chance on the same estimand; examined: over the run's examined edges, 95% Wilson "
            "interval, chance with each ask independent.",
            estimates if wide else [],
        ),
    )
    headers = ["model", "KG selection", "difficulty", "run", "status"]
    if wide:
        headers += ["KG-wide win [95% interval]", "KG-wide chance", "KG-wide answers"]
    headers += [f"examined {name} [95% interval]", "examined n", "examined chance"]
    for header in headers:
        table.add_column(header)
    for model in grid.models:
        for kg, difficulty in grid.columns:
            cell = grid.cell(model, kg, difficulty)
            if cell is None:
                continue
            row = [short_target(model), kg, difficulty.upper(), str(cell.run_id), cell.status]
            if wide:
                row += _kg_wide_cells(cell.kg_wide)
            chance = getattr(cell.chance, CHANCE_FIELD[metric])
            row += [rate_ci(*cell.rates.get(metric).bounds), str(cell.rates.examined), pct(chance)]
            table.add_row(*row)
    return table


def _kg_wide_cells(kw: KGWide | None) -> list[str]:
    """KG-wide win [interval], chance and answers ("" each for a run without the design)."""
    if kw is None:
        return ["", "", ""]
    return [win_text(kw.rate), pct(kw.chance_win), str(kw.rate.answers)]


def difference_table(dr: Drift, a: int, b: int) -> LiteralTable | None:
    """Run b's KG-wide win rate minus run a's, overall and per predicate (Benjamini-Hochberg q),
    each with both rates, the difference in points with its 95% interval, p, whether it is
    significant at 5% and the settings the runs differ in (`Drift.differs`: then the difference
    is not the model's alone, as the caption says); None when a run has no KG-wide rate."""
    if dr.difference is None or dr.kg_wide_a is None or dr.kg_wide_b is None:
        return None
    how = (
        f"paired on the {dr.paired:,} questions of one plan both answered"
        if dr.paired
        else "independent runs"
    )
    caveat = confounded(dr)
    table = LiteralTable(
        title=f"KG-wide win rate differences, run {a} → run {b}",
        title_justify="left",
        caption=noted(
            f"Difference: run {b} minus run {a} in points, 95% interval, two-sided test of no "
            f"difference ({how}); q: p adjusted over the predicates (Benjamini-Hochberg, false "
            "discovery rate 5%)." + (f" The {caveat}." if caveat else ""),
            [dr.kg_wide_a.rate, dr.kg_wide_b.rate]
            + [kw.rate for t in dr.predicate_tests for kw in (t.a, t.b)],
        ),
    )
    for header in (
        "predicate",
        f"run {a} win [95% interval]",
        f"run {a} answers",
        f"run {b} win [95% interval]",
        f"run {b} answers",
        "difference (points)",
        "difference low",
        "difference high",
        "p",
        "q",
        f"significant at {SIGNIFICANCE:.0%}",
        "runs differ in",
    ):
        table.add_column(header)
    differ = "; ".join(dr.differs)
    rows = [_difference_row("all (KG-wide)", dr.kg_wide_a, dr.kg_wide_b, dr.difference, None)]
    rows += [_predicate_row(t) for t in dr.predicate_tests]
    for row in rows:
        table.add_row(*row, differ)
    return table


def _predicate_row(t: PredicateTest) -> list[str]:
    """A predicate's row, its test adjusted over the predicates (q)."""
    return _difference_row(t.predicate, t.a, t.b, t.difference, t.q_value)


def _difference_row(name: str, wa: KGWide, wb: KGWide, d: Difference, q: float | None) -> list[str]:
    """One row: the win difference is minus the error difference (`Drift.difference`)."""
    low, high = d.interval()
    tested = d.p_value if q is None else q
    return [
        name,
        win_text(wa.rate),
        str(wa.rate.answers),
        win_text(wb.rate),
        str(wb.rate.answers),
        signed(-d.value * 100),
        signed(-high * 100),
        signed(-low * 100),
        f"{d.p_value:.3g}",
        "" if q is None else f"{q:.3g}",
        str(tested < SIGNIFICANCE).lower(),
    ]
