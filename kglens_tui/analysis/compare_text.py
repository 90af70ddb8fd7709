"""Comparisons in words: a Table 3 cell with the KG-wide rate first, and whether two runs
differ beyond chance (for `kglens compare` and the compare screen)."""

from __future__ import annotations

from kglens_tui.analysis.compare import SIGNIFICANCE, Drift, GridCell
from kglens_tui.analysis.kgwide_render import kg_wide_line
from kglens_tui.core.safetext import visible
from kglens_tui.modes.kglens.estimates import HOW_ESTIMATED
from kglens_tui.textfmt import pct, rate_ci, signed

KG_WIDE_CHANCE_NOTE = (
    f"KG-wide: {HOW_ESTIMATED} (kglens report RUN); "
    "its chance is blind guessing on the same estimand. A column is one KG selection at one "
    "difficulty with the same verifier, generator and prompt order."
)


def grid_cell_text(cell: GridCell, metric: str, chance: float | None) -> str:
    """A Table 3 cell: the KG-wide win rate first where the run has one (metric win), then
    the rate over examined edges with n and chance, and the run; both intervals written alike
    ("58.1% [52.2–63.9]")."""
    examined = (
        f"{rate_ci(*cell.rates.get(metric).bounds)} n={cell.rates.examined:,} · "
        f"chance {pct(chance)}"
    )
    run = f"(run {cell.run_id}{cell.incomplete})"
    if metric == "win" and cell.kg_wide is not None:
        return f"{kg_wide_line(cell.kg_wide)}; examined {examined} {run}"
    return f"{examined} {run}"


def confounded(dr: Drift) -> str:
    """What a test line says when the runs differ in a setting that changes what their rates
    mean (`Drift.differs`): the difference is then not the model's alone ('' when none does)."""
    if not dr.differs:
        return ""
    return f"runs differ in {'; '.join(dr.differs)}, so the difference is not the model's alone"


def drift_test_lines(dr: Drift, a: int, b: int, limit: int = 20) -> list[str]:
    """Whether the two runs differ beyond chance: the KG-wide difference with its interval and
    p-value first (then each run's KG-wide rate), per predicate and per edge with the false
    discovery rate held at 5% (Benjamini-Hochberg). Each line says so when the runs differ in
    difficulty, selection, verifier, generator or prompt order (`confounded`)."""
    caveat = confounded(dr)
    aside = f"; {caveat}" if caveat else ""
    if dr.difference is None:
        return [
            "KG-wide difference: — (a run drawn without the sampling design has no KG-wide "
            "rate; the rates above are over each run's own examined edges and differ with "
            "where each sampler looked)"
        ]
    d = dr.difference
    low, high = d.interval()
    verdict = "significant" if d.p_value < SIGNIFICANCE else "not significant"
    how = (
        f"paired on the {dr.paired:,} questions of one plan both answered"
        if dr.paired
        else "independent runs"
    )
    head = f"KG-wide win rate, run {a} → run {b}" + (f" ({caveat})" if caveat else "")
    lines = [
        f"{head}: difference {signed(-d.value * 100)} points "
        f"[{signed(-high * 100)}, {signed(-low * 100)}], p = {d.p_value:.3g} ({verdict} at "
        f"{SIGNIFICANCE:.0%}; {how}); {kg_wide_line(dr.kg_wide_a)} → "
        f"{kg_wide_line(dr.kg_wide_b)}"
    ]
    found = [t for t in dr.predicate_tests if t.significant]
    lines.append(
        f"Predicates: {len(found)} of {len(dr.predicate_tests)} differ significantly "
        f"(Benjamini-Hochberg, false discovery rate 5%{aside})"
        + (
            ": "
            + "; ".join(
                f"{visible(t.predicate, one_line=True)} win {t.a.rate.win:.1%} → "
                f"{t.b.rate.win:.1%} (q = {t.q_value:.3g})"
                for t in found[:limit]
            )
            if found
            else ""
        )
    )
    if dr.edge_tests is not None:
        sig = dr.edge_tests.significant
        lines.append(
            f"Edges: {len(sig)} of {dr.edge_tests.tested:,} both answered differ significantly "
            f"(Fisher's exact test, Benjamini-Hochberg{aside})"
            + (
                ": "
                + "; ".join(
                    f"{visible(e.subject, one_line=True)} · {visible(e.predicate, one_line=True)}"
                    f" {e.m_a}/{e.n_a} → {e.m_b}/{e.n_b}"
                    for e in sig[:limit]
                )
                if sig
                else ""
            )
        )
    return lines
