"""What a KONTEST run's report shows of its metrics (`KontestMode.report_figures`): the answer
bias and the error rates beside guessers that ignore the question, first, so that a bias is
never read as knowledge; then Tables 3 and 4, errors per predicate and the latest
inconsistencies, as panels of literal text."""

from __future__ import annotations

from kglens_tui.answers.bias import Rate
from kglens_tui.modes.chance import COIN, coverage_chance, gap_chance, metamorphic_chance
from kglens_tui.modes.kontest.metrics import METAMORPHIC, KontestMetrics
from kglens_tui.modes.kontest.oracles import ONTOLOGICAL, Coverage
from kglens_tui.runs.panels import Panel, numbered_rows
from kglens_tui.runs.unit_report import answered_line
from kglens_tui.textfmt import num, pct


def counted_rate(rate: Rate) -> str:
    """A count with its rate, interval and n: '7 · 58.3% [32.0–80.7] (n=12)'."""
    return f"{rate.k:,} · {rate.text()}"


def kontest_panels(m: KontestMetrics, findings: int, gives_away: int = 0) -> list[Panel]:
    """The chance head, Table 3, coverage (Table 4), per predicate, the ``findings`` latest
    inconsistencies, and the ``gives_away`` relations and paths left out of the plan."""
    left_out = (
        f"{gives_away:,} relations and paths left out: a question about them names its own "
        "answer (the object is part of the subject's name)"
    )
    return [
        *chance_panels(m),
        consistency_panel(m),
        coverage_panel(m.coverage),
        per_predicate_panel(m),
        *([findings_panel(m, findings)] if findings and m.findings else []),
        *([Panel("left-out", "", notes=(left_out,))] if gives_away else []),
    ]


def chance_panels(m: KontestMetrics) -> list[Panel]:
    """Yes-rate, template agreement, the bias warning and the error rates against chance."""
    c = m.chance
    answers = Panel(
        "answers",
        "",
        notes=(
            f"Answers: yes-rate {c.yes_rate.text()} · {c.invalid:,} invalid (neither yes nor "
            "no) · agreement of the two templates beyond chance (Cohen's kappa, atomic) "
            f"{num(c.template_kappa)} (chance = 0)",
        ),
        warning=c.warning(),
    )
    p = c.p_yes
    meta, onto, cov = m.oracle(METAMORPHIC), m.oracle(ONTOLOGICAL), m.coverage
    measures = [("metamorphic errors", meta)] + ([("ontological errors", onto)] if m.paths else [])
    rows = [
        (
            "this model [95%] (n)",
            *(Rate(o.inconsistent, o.valid).text() for _, o in measures),
            cov.coverage_rate.text(),
        )
    ]
    guessers = [
        ("always Yes", 1.0, 0.0, 0.0),
        ("always No", 0.0, 0.0, 0.0),
        ("coin", COIN, metamorphic_chance(COIN), c.ontological_random),
    ]
    if p is not None:
        guessers.append(
            (f"coin at its yes-rate ({pct(p)})", p, metamorphic_chance(p), c.ontological_at_rate)
        )
    for name, p_yes, meta_chance, onto_chance in guessers:
        values = [meta_chance, onto_chance][: len(measures)]
        rows.append((name, *(pct(v) for v in values), pct(coverage_chance(p_yes))))
    pairs = (
        "Ontological tests: each non-adjacent pair of a path (a node between its ends) once per "
        f"template (KONTEST 3.2, Table 3). Per pair: {m.ontological_pairs.text()} of the "
        "non-adjacent pairs are inconsistent under at least one template."
    )
    columns = ("who answers", *(name for name, _ in measures), "coverage")
    against = Panel(
        "chance",
        "Against chance: guessers that ignore the question, on the same tests",
        columns,
        numbered_rows(rows),
        caption="Error rates are over valid tests; coverage is the share of facts affirmed by a "
        "template; a coin says Yes half the time whatever the question. Every KONTEST question "
        "states a true fact, so a constant answer makes no consistency error: an error rate "
        "means little without a moderate yes-rate.",
        align="l" + "r" * (len(columns) - 1),
        notes=(pairs,) if m.paths else (),
    )
    return [answers, against]


def consistency_panel(m: KontestMetrics) -> Panel:
    """Table 3: each oracle's valid, invalid and failed tests, its inconsistent ones with their
    interval and n, and what a coin scores; under it the relations and paths answered."""
    rows = [
        (
            o.oracle,
            f"{o.valid:,} · {o.valid_rate:.0%}" if o.valid_rate is not None else f"{o.valid:,}",
            f"{o.invalid:,}",
            f"{o.errors:,}",
            counted_rate(Rate(o.inconsistent, o.valid)),
            f"{pct(m.coin_error_rate(o.oracle))} · "
            f"{pct(m.coin_error_rate(o.oracle, at_yes_rate=True))}",
        )
        for o in m.oracles
    ]
    answered = (
        answered_line(m.relations_done, m.relations, m.relations_failed, "relations")
        + f"; ontological oracle over {m.paths_done:,}/{m.paths:,} paths"
    )
    return Panel(
        "consistency",
        "Consistency (KONTEST Table 3)",
        (
            "oracle",
            "valid",
            "invalid",
            "errors",
            "inconsistent [95%] (n)",
            "chance: coin · at yes-rate",
        ),
        numbered_rows(rows),
        caption="valid: executions with a yes or no to every question; errors: with a failed "
        "request (never counted as inconsistent); inconsistent: of the valid tests; chance: what "
        "a coin scores, and a coin saying Yes as often as the model.",
        align="Lrrrrr",
        notes=(answered,),
    )


def coverage_panel(c: Coverage) -> Panel:
    """Table 4: the relations in each template's gap and in both, and the coverage."""
    row = (
        f"{c.relations:,}",
        counted_rate(c.gap1_rate),
        counted_rate(c.gap2_rate),
        counted_rate(c.gap_both_rate),
        counted_rate(c.coverage_rate),
    )
    return Panel(
        "coverage",
        "Knowledge coverage (KONTEST Table 4) [95%] (n)",
        ("relations", "gap template 1", "gap template 2", "gap both", "coverage"),
        numbered_rows([row]),
        caption="Each figure is over the relations whose atomic request(s) it needs were "
        "answered (n): failed requests are left out, never counted as a gap.",
        align="rrrrr",
    )


def per_predicate_panel(m: KontestMetrics) -> Panel:
    """The metamorphic inconsistency and the gap of both templates per predicate, with what a
    coin (and a coin at the model's yes-rate) scores on every predicate."""
    p_yes = m.chance.p_yes
    at_rate = (
        ""
        if p_yes is None
        else f"; at the model's yes-rate ({pct(p_yes)}) {pct(metamorphic_chance(p_yes))} "
        f"and {pct(gap_chance(p_yes))}"
    )
    rows = [
        (
            p.predicate,
            f"{p.relations:,}",
            counted_rate(Rate(p.inconsistent, p.valid)),
            counted_rate(p.coverage.gap_both_rate),
        )
        for p in m.per_predicate
    ]
    return Panel(
        "per-predicate",
        "Per predicate (metamorphic)",
        ("predicate", "relations", "inconsistent [95%] (n)", "gap both [95%] (n)"),
        numbered_rows(rows),
        caption=f"chance, on every predicate: a coin is inconsistent on "
        f"{pct(metamorphic_chance(COIN))} of the tests and leaves "
        f"{pct(gap_chance(COIN))} of the relations in the gap of both templates{at_rate}.",
        align="lrrr",
    )


def findings_panel(m: KontestMetrics, findings: int) -> Panel:
    """The ``findings`` latest inconsistencies: oracle, fact and the answers given."""
    rows = [(x.oracle, x.fact, x.detail) for x in m.findings[-findings:]]
    return Panel(
        "findings", "Inconsistencies (latest)", ("oracle", "fact", "answers"), numbered_rows(rows)
    )
