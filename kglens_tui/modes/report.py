"""A KONTEST or fact-eval run's report: its header, figures with intervals and chance, coverage
and findings, printed or collected as renderables for a screen."""

from __future__ import annotations

import sqlite3
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from kglens_tui.answers.bias import Rate
from kglens_tui.core.console import (
    console,
)
from kglens_tui.core.safetext import LiteralTable, literal, markup_literal
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import helpers_line
from kglens_tui.modes.chance import COIN, gap_chance, metamorphic_chance
from kglens_tui.modes.chance_render import (
    Collected,
    Printer,
    print_facteval_chance,
    print_kontest_chance,
)
from kglens_tui.modes.facteval.compare import run_per_relation_table
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.facteval.similarity import diversity_table, similarity_table
from kglens_tui.modes.kontest.metrics import KontestMetrics
from kglens_tui.modes.kontest.oracles import Coverage
from kglens_tui.runs.record import (
    load_run,
    manifest_count,
)
from kglens_tui.runs.registry import find_mode, mode_label
from kglens_tui.runs.runner import open_snapshot_as
from kglens_tui.runs.unit_mode import UnitMode
from kglens_tui.runs.units import ModeSnapshot
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.textfmt import pct as _pct
from kglens_tui.textfmt import rate_ci


def _counted_rate(rate: Rate) -> str:
    """A count with its rate, interval and n: '7 · 58.3% [32.0–80.7] (n=12)'."""
    return f"{rate.k:,} · {rate.text()}"


def _header(
    conn: sqlite3.Connection, run_id: int, mode: str, out: Printer = console
) -> ModeSnapshot[object]:
    """The run's settings, status and progress; its snapshot."""
    run = load_run(conn, run_id, mode)
    snap: ModeSnapshot[object] = open_snapshot_as(conn, run_id, ModeSnapshot)
    sim = " [yellow bold]SIMULATED TARGET[/]" if run.simulated else ""
    cfg = run.config
    subset = "/" + cfg.subset if cfg.subset else ""
    status, stop_reason = run.shown
    reason = ": " + markup_literal(stop_reason) if stop_reason else ""
    out.print(
        f"[bold]Run {run.id}[/] · {mode_label(mode)} · KG {markup_literal(run.kg_name + subset)}"
        f" · target {markup_literal(run.target_label)}{sim} · generator "
        f"{markup_literal(cfg.generator)} · seed {cfg.seed} · status {status}{reason}"
    )
    if status == RunStatus.FAILED and run.error:
        out.print(f"[red]cause:[/] {markup_literal(run.error)}", soft_wrap=True)
    sent = snap.progress.counters
    out.print(
        f"{snap.units_done:,}/{snap.units_total:,} units answered · {sent.requests:,} requests "
        f"({sent.errors:,} failed, never counted as model answers"
        + (f"; {sent.dropped:,} dropped with a stopped unit" if sent.dropped else "")
        + ") · tokens "
        f"{sent.prompt_tokens:,} in / {sent.completion_tokens:,} out"
    )
    if snap.helpers:
        out.print(helpers_line(snap.helpers))
    return snap


def _coverage_table(c: Coverage) -> LiteralTable:
    t = LiteralTable(
        title="Knowledge coverage (KONTEST Table 4) [95%] (n)",
        title_justify="left",
        caption="Each figure is over the relations whose atomic request(s) it needs were "
        "answered (n): failed requests are left out, never counted as a gap.",
        caption_justify="left",
    )
    for col in ("relations", "gap template 1", "gap template 2", "gap both", "coverage"):
        t.add_column(col, justify="right")
    t.add_row(
        f"{c.relations:,}",
        _counted_rate(c.gap1_rate),
        _counted_rate(c.gap2_rate),
        _counted_rate(c.gap_both_rate),
        _counted_rate(c.coverage_rate),
    )
    return t


def answered_line(done: int, total: int, failed: int, noun: str) -> str:
    """'12/20 relations answered (8 with a failed request: a resume asks them again)'."""
    note = f" ({failed:,} with a failed request: a resume asks them again)" if failed else ""
    return f"{done:,}/{total:,} {noun} answered{note}"


def print_kontest(m: KontestMetrics, findings: int, out: Printer = console) -> None:
    """The bias and chance head, Tables 3 and 4, per-predicate errors and some inconsistencies."""
    print_kontest_chance(m, out)
    t = LiteralTable(
        title="Consistency (KONTEST Table 3)",
        title_justify="left",
        caption="valid: executions with a yes or no to every question; errors: with a failed "
        "request (never counted as inconsistent); inconsistent: of the valid tests; chance: what "
        "a coin scores, and a coin saying Yes as often as the model.",
        caption_justify="left",
    )
    t.add_column("oracle", no_wrap=True, min_width=len("sequential-intra"))
    for col in (
        "valid",
        "invalid",
        "errors",
        "inconsistent [95%] (n)",
        "chance: coin · at yes-rate",
    ):
        t.add_column(col, justify="right", min_width=len("inconsistent") if "[" in col else None)
    for o in m.oracles:
        name = Text(o.oracle, "bold") if o.oracle in ("metamorphic", "all") else o.oracle
        t.add_row(
            name,
            f"{o.valid:,} · {o.valid_rate:.0%}" if o.valid_rate is not None else f"{o.valid:,}",
            f"{o.invalid:,}",
            f"{o.errors:,}",
            _counted_rate(Rate(o.inconsistent, o.valid)),
            f"{_pct(m.coin_error_rate(o.oracle))} · "
            f"{_pct(m.coin_error_rate(o.oracle, at_yes_rate=True))}",
        )
    out.print(t)
    out.print(
        Text(
            answered_line(m.relations_done, m.relations, m.relations_failed, "relations")
            + f"; ontological oracle over {m.paths_done:,}/{m.paths:,} paths"
        )
    )
    out.print(_coverage_table(m.coverage))
    p_yes = m.chance.p_yes
    at_rate = (
        ""
        if p_yes is None
        else f"; at the model's yes-rate ({_pct(p_yes)}) {_pct(metamorphic_chance(p_yes))} "
        f"and {_pct(gap_chance(p_yes))}"
    )
    per = LiteralTable(
        title="Per predicate (metamorphic)",
        title_justify="left",
        caption=f"chance, on every predicate: a coin is inconsistent on "
        f"{_pct(metamorphic_chance(COIN))} of the tests and leaves "
        f"{_pct(gap_chance(COIN))} of the relations in the gap of both templates"
        f"{at_rate}.",
        caption_justify="left",
    )
    for col in ("predicate", "relations", "inconsistent [95%] (n)", "gap both [95%] (n)"):
        per.add_column(col, justify="left" if col == "predicate" else "right")
    for p in m.per_predicate:
        per.add_row(
            p.predicate,
            f"{p.relations:,}",
            _counted_rate(Rate(p.inconsistent, p.valid)),
            _counted_rate(p.coverage.gap_both_rate),
        )
    out.print(per)
    if findings and m.findings:
        f = LiteralTable(title="Inconsistencies (latest)", title_justify="left")
        for col in ("oracle", "fact", "answers"):
            f.add_column(col)
        for x in m.findings[-findings:]:
            f.add_row(x.oracle, x.fact, x.detail)
        out.print(f)


def print_facteval(m: FactevalMetrics, out: Printer = console) -> None:
    """The bias and chance head, then precision, recall and F1 with contexts side by side."""
    print_facteval_chance(m, out)
    t = LiteralTable(
        title="LLM-facteval: precision · recall · abstention rate per context",
        title_justify="left",
        caption="Wilson 95% intervals; chance: the best blind guess's accuracy, which is its "
        "precision and recall (it never abstains).",
        caption_justify="left",
    )
    several = len({s.context for s in m.scores}) > 1
    for col in ("question · context" if several else "question", "precision", "recall"):
        t.add_column(col, justify="left" if col.startswith("question") else "right", min_width=11)
    for col in ("chance", "abstained", "n"):
        t.add_column(col, justify="right", min_width=11 if col == "abstained" else None)
    for s in m.scores:
        g = m.chance_of(s.qtype, s.format, s.context)
        best = g.best if g is not None else None
        name = "all" if s.qtype == "all" else f"{s.qtype.upper()} {s.format}"
        context = s.context if s.context != "none" else "no context"
        t.add_row(
            Text(f"{name} · {context}" if several else name, "bold" if s.qtype == "all" else ""),
            rate_ci(*s.precision_ci.bounds),
            rate_ci(*s.recall_ci.bounds),
            _pct(best.value if best else None),
            rate_ci(*s.abstention_ci.bounds),
            f"{s.total:,}",
        )
    out.print(t)
    counts = LiteralTable(title="Answers by category", title_justify="left")
    for col in (
        "question",
        "context",
        "correct",
        "incorrect",
        "unparseable",
        "abstained",
        "failed",
    ):
        counts.add_column(col, justify="left" if col in ("question", "context") else "right")
    for s in m.scores:
        counts.add_row(
            "all" if s.qtype == "all" else f"{s.qtype.upper()} {s.format}",
            s.context,
            *(f"{v:,}" for v in (s.correct, s.incorrect, s.unparseable, s.abstained, s.errors)),
        )
    out.print(counts)
    out.print(
        Text(
            answered_line(
                m.questions_done, m.questions, m.questions_failed, "questions (every context)"
            )
        )
    )
    for n in m.saq_named:
        out.print(
            Text(
                f"SAQ, {n.context}: the replies name {n.named:,} of {n.total:,} correct answers "
                f"({_pct(n.rate)})"
            )
        )
    out.print(
        Text(
            "Precision is over non-abstained answers, recall over all answered questions; "
            "failed requests are left out of both."
        )
    )


def report(
    conn: sqlite3.Connection, run_id: int, mode: str, out: Printer = console, findings: int = 15
) -> None:
    """`consistency report` or `facteval report` of a run (by ``mode``)."""
    snap = _header(conn, run_id, mode, out)
    run = load_run(conn, run_id, mode)
    stale = stale_verdicts_note(conn, run)
    if stale:
        out.print(literal(stale, "yellow"))
    metrics = snap.metrics
    if isinstance(metrics, KontestMetrics):
        print_kontest(metrics, findings, out)
        left_out = manifest_count(run, "gives_away_left_out")
        if left_out:
            out.print(
                literal(
                    f"{left_out:,} relations and paths left out: a question about them names its "
                    "own answer (the object is part of the subject's name)"
                )
            )
    elif isinstance(metrics, FactevalMetrics):
        print_facteval(metrics, out)
        out.print(run_per_relation_table(conn, run_id))
        for table in (similarity_table(conn, run_id), diversity_table(conn, run_id)):
            if table is not None:
                out.print(table)
    sources = question_sources(conn, run_id, mode)
    unit_mode = _unit_mode(mode)
    written = unit_mode.written if unit_mode is not None else "questions"
    if any(source != "template" for source in sources):
        shown = " · ".join(f"{n:,} {source}" for source, n in sources.items())
        out.print(literal(f"{written} ({sum(sources.values()):,}) by who wrote them: {shown}"))


def _unit_mode(mode: str) -> UnitMode[Any, Any, Any, Any] | None:
    declared = find_mode(mode)
    return declared if isinstance(declared, UnitMode) else None


def question_sources(conn: sqlite3.Connection, run_id: int, mode: str) -> dict[str, int]:
    """A KONTEST or fact-eval run's questions by who wrote them, as its mode counts them
    (`UnitMode.question_sources`), so rejections are counted by reason as in KGLens's report."""
    unit_mode = _unit_mode(mode)
    return unit_mode.question_sources(conn, run_id) if unit_mode is not None else {}


def report_renderables(
    conn: sqlite3.Connection, run_id: int, mode: str, findings: int = 15
) -> list[RenderableType]:
    """What `report` prints, as renderables for a screen."""
    out = Collected()
    report(conn, run_id, mode, out, findings)
    return list(out)
