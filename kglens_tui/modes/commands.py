"""`kglens consistency ...` (KONTEST) and `kglens facteval ...` (LLM-facteval), headless."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable

from rich.console import RenderableType
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from kglens_tui.answers.bias import Rate
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import (
    INTERRUPTED_EXIT,
    console,
    err_console,
    print_command,
    print_error,
    print_same_questions,
    print_wrote,
    suggested,
)
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.figure_files import add_figure_options, figure_folder, write_figure_files
from kglens_tui.core.safetext import LiteralTable, literal, markup_literal
from kglens_tui.core.status import RunStatus
from kglens_tui.core.table_options import add_table_options
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import LLMError
from kglens_tui.llm.failures import EXIT_STATUS
from kglens_tui.llm.usage import calls_text, helpers_line
from kglens_tui.modes.chance import COIN, gap_chance, metamorphic_chance
from kglens_tui.modes.chance_render import (
    Collected,
    Printer,
    print_facteval_chance,
    print_kontest_chance,
)
from kglens_tui.modes.compare_commands import add_compare_commands
from kglens_tui.modes.config import (
    FACTEVAL,
    KONTEST,
    MODE_COMMANDS,
)
from kglens_tui.modes.facteval import FactevalMetrics
from kglens_tui.modes.facteval_compare import load_per_relation, run_per_relation_table
from kglens_tui.modes.facteval_similarity import diversity_table, similarity_table
from kglens_tui.modes.kontest_compare import ensemble_renderables
from kglens_tui.modes.kontest_metrics import KontestMetrics
from kglens_tui.modes.kontest_plan import transitive_candidates
from kglens_tui.modes.oracles import Coverage
from kglens_tui.runs.commands import settings_config, tell_interrupted
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.fields import (
    RUN_ALIASES,
    RUN_FLAGS,
    add_config_arguments,
    flags_of,
    given_fields,
    named_by_flag,
)
from kglens_tui.runs.messages import RunSnapshot, snapshot_as
from kglens_tui.runs.one_plan import further_targets, on_one_plan
from kglens_tui.runs.record import (
    load_run,
    manifest_count,
    mode_runs,
    nothing_to_resume,
    run_row,
)
from kglens_tui.runs.registry import get_mode, mode_label
from kglens_tui.runs.runner import engine_as, open_snapshot_as, prepare, run_blocking
from kglens_tui.runs.spend import COST_YES_HELP, ask_on_terminal, confirm_cost, say_cost
from kglens_tui.runs.units import ModeEngine, ModeSnapshot
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import pct as _pct
from kglens_tui.textfmt import rate_ci, sent_note, simulated_mark

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]


class ModeCommandError(KGLensError):
    """A user-facing error: printed as one line, exit code 2."""


def _counted_rate(rate: Rate) -> str:
    """A count with its rate, interval and n: '7 · 58.3% [32.0–80.7] (n=12)'."""
    return f"{rate.k:,} · {rate.text()}"


def _limit(text: str) -> int | None:
    if text == "all":
        return None
    try:
        return int(text)
    except ValueError:
        raise ModeCommandError(f"expected a number or 'all' (got {text!r})") from None


def _new_config(args: argparse.Namespace, mode: str, limit: str) -> ModeConfig:
    """A new run's settings: the mode's defaults < the settings file < KGLENS_* variables <
    the flags given (``limit``: the setting of how many facts, given as a number or 'all')."""
    given = given_fields(get_mode(mode).config_type, args)
    if given.get(limit) is not None:  # how many facts: a number or 'all'
        given[limit] = _limit(str(given[limit]))
    config = settings_config(mode, overridden=given).replaced(given)
    try:
        config.validate()
        check_new_run(config)
    except ConfigError as exc:  # named as the command line names it
        raise ConfigError(named_by_flag(str(exc), args.flag_of)) from None
    return config


def _drive(
    args: argparse.Namespace, conn: sqlite3.Connection, config: ModeConfig | None
) -> ModeSnapshot[object]:
    bar = Progress(
        TextColumn("[bold]run {task.fields[run]}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TextColumn("{task.fields[info]}"),
        TimeRemainingColumn(),
        console=err_console,
        disable=args.quiet,
    )
    task = bar.add_task("run", total=None, run="?", info="")

    def on_progress(progress: RunSnapshot) -> None:
        snap = snapshot_as(progress, ModeSnapshot)
        if snap is None:
            return
        sent = snap.progress.counters
        info = f"{calls_text(sent.requests, snap.helpers)} req · {sent.errors:,} failed"
        if snap.status != RunStatus.RUNNING:
            info += f" · {snap.status}"
        bar.update(
            task, completed=snap.units_done, total=snap.units_total, run=snap.run_id, info=info
        )

    if args.resume is not None and (finished := nothing_to_resume(conn, args.resume)):
        group = MODE_COMMANDS.get(run_row(conn, args.resume)["mode"])
        report = suggested(f"{group} report {args.resume}" if group else f"report {args.resume}")
        console.print(
            f"{markup_literal(finished)}; `{markup_literal(report)}` shows it", soft_wrap=True
        )
        done: ModeSnapshot[object] = open_snapshot_as(conn, args.resume, ModeSnapshot)
        return done
    if (
        args.resume is not None
        and (group := MODE_COMMANDS.get(stored := run_row(conn, args.resume)["mode"]))
        != args.command
    ):
        how = f"{group} run --resume {args.resume}" if group else f"resume {args.resume}"
        raise ConfigError(
            f"run {args.resume} is a {mode_label(stored)} run: `{suggested(how)}` continues it"
        )
    engine = engine_as(  # a unit mode's (its command's)
        prepare(
            conn,
            config=config,
            resume=args.resume,
            name=getattr(args, "name", "") or "",
            on_progress=on_progress,
        ),
        ModeEngine,
    )
    mark = simulated_mark(engine.target.label, bool(engine.target.simulated))
    sim = f" [yellow]{mark.strip()}[/]" if mark else ""
    first = engine.snapshot()
    err_console.print(
        f"run {engine.run.id} ({engine.mode}): KG '{markup_literal(engine.kg.name)}', "
        f"{first.units_total:,} units ({first.units_done:,} done), "
        f"target {markup_literal(engine.target.label)}{sim}"
    )
    bar.update(task, completed=first.units_done, total=first.units_total, run=engine.run.id)
    snap: ModeSnapshot[object] | None = None  # None after Ctrl-C
    with bar:
        try:
            snap = snapshot_as(run_blocking(engine), ModeSnapshot)
        except KeyboardInterrupt:
            snap = None
    if snap is None:  # Ctrl-C; told once the display has stopped, nothing redrawn after it
        resume = f"{MODE_COMMANDS[engine.mode]} run --resume {engine.run.id}"
        tell_interrupted(conn, engine.run.id, "committed units are kept", resume)
        raise KeyboardInterrupt
    if snap.status == RunStatus.FAILED:
        err_console.print(
            f"[red]error:[/] run {snap.run_id} failed: {markup_literal(snap.error, one_line=True)}"
            f"; fix that, then "
            f"`{markup_literal(suggested(f'{args.command} run --resume {snap.run_id}'))}` "
            "continues it",
            soft_wrap=True,
        )
        return snap
    sent = snap.progress.counters
    print_command(
        f"run {snap.run_id} {snap.status} ({snap.stop_reason}): {snap.units_done:,}/"
        f"{snap.units_total:,} units, {calls_text(sent.requests, snap.helpers)} requests"
        f"{sent_note(sent.errors, sent.dropped)}; the results:",
        suggested(f"{MODE_COMMANDS[engine.mode]} report {snap.run_id}"),
        to=console,
    )
    return snap


def cmd_consistency_run(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    return _run_targets(args, conn, KONTEST, "relations")


def cmd_facteval_run(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    return _run_targets(args, conn, FACTEVAL, "facts")


def _run_targets(args: argparse.Namespace, conn: sqlite3.Connection, mode: str, limit: str) -> int:
    """Resume a run, or run the settings against each target given (``--target A --target B``:
    one run each, the same plan: the KG, seed and settings decide the questions), every cost
    confirmed before the first starts; a target that fails leaves the others' runs as they
    are."""
    if args.resume is not None:
        if args.more_targets:
            raise ConfigError("--resume continues one run: give no --target")
        return EXIT_STATUS if _drive(args, conn, None).status == RunStatus.FAILED else 0
    config = _new_config(args, mode, limit)
    more = further_targets(args.more_targets, config)
    each = [on_one_plan(config, t, None) for t in [config.target, *more]]
    for one in each:
        confirm_cost(one, args.yes, say_cost, ask_on_terminal(), conn)
    code, runs = 0, []
    for one in each:
        try:
            snap = _drive(args, conn, one)
        except (ConfigError, ValueError, LLMError) as exc:
            if len(each) == 1:
                raise
            print_error(f"target {one.target}: {exc}")
            code = EXIT_STATUS
            continue
        if snap.status == RunStatus.FAILED:
            code = EXIT_STATUS
        else:
            runs.append(snap.run_id)
    print_same_questions(runs, get_mode(mode).compare, "side by side")
    return code


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
    if any(source != "template" for source in sources):
        shown = " · ".join(f"{n:,} {source}" for source, n in sources.items())
        out.print(
            literal(f"{_WRITTEN[mode]} ({sum(sources.values()):,}) by who wrote them: {shown}")
        )


_WRITTEN = {
    KONTEST: "second phrasings",
    FACTEVAL: "questions",
}


def question_sources(conn: sqlite3.Connection, run_id: int, mode: str) -> dict[str, int]:
    """A KONTEST or fact-eval run's questions by who wrote them: "llm:MODEL", "template", or
    "template (why the LLM's was not used)", so rejections are counted by reason as in KGLens's
    report. KONTEST counts each relation's second phrasing (the one a paraphraser writes)."""
    if mode == KONTEST:
        sql = (
            "SELECT generator, COUNT(DISTINCT relation) FROM kontest_query "
            "WHERE run_id = ? AND template = 2 GROUP BY generator ORDER BY 2 DESC, 1"
        )
    else:
        sql = (
            "SELECT generator, COUNT(*) FROM facteval_question WHERE run_id = ? "
            "GROUP BY generator ORDER BY 2 DESC, 1"
        )
    return {str(g): int(n) for g, n in conn.execute(sql, (run_id,)).fetchall()}


def report_renderables(
    conn: sqlite3.Connection, run_id: int, mode: str, findings: int = 15
) -> list[RenderableType]:
    """What `report` prints, as renderables for a screen."""
    out = Collected()
    report(conn, run_id, mode, out, findings)
    return list(out)


def cmd_consistency_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    report(conn, args.run, KONTEST, findings=args.findings)
    return 0


def cmd_facteval_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    figures = figure_folder(args)  # refused before any work
    report(conn, args.run, FACTEVAL)
    if figures is not None:
        from kglens_tui.modes.facteval_figures import relation_figure

        made = {"relations": relation_figure(load_per_relation(conn, args.run))}
        for path in write_figure_files(made, figures[0], f"run-{args.run}", figures[1]):
            print_wrote(path)
    return 0


def cmd_consistency_ensemble(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    for renderable in ensemble_renderables(
        conn, args.runs, args.template3 or [], folds=args.folds, seed=args.seed
    ):
        console.print(renderable)
    return 0


def cmd_consistency_paths(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    ensure_kg(conn, args.kg)
    kg = load_kg(conn, args.kg)
    found = transitive_candidates(kg)
    if not found:
        console.print(
            f"KG '{markup_literal(kg.name)}' has no predicate with a path of two or more edges "
            "(A -> B -> C), so the ontological oracle has nothing to check; use the bundled "
            "'places' KG, or import a deeper hierarchy (e.g. Wikidata P131) and pass "
            "--transitive PREDICATE"
        )
        return 0
    t = LiteralTable(
        title=f"Predicates with paths A -> B -> C in '{kg.name}'", title_justify="left"
    )
    t.add_column("predicate")
    t.add_column("paths", justify="right")
    for key, n in found:
        t.add_row(key, f"{n:,}")
    console.print(t)
    console.print(
        "Chains alone do not make a predicate transitive: pass --transitive only for one whose "
        "meaning is (located in, part of, contains), not e.g. 'gained independence from'."
    )
    return 0


def _cmd_list(mode: str) -> Command:
    def run(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
        t = LiteralTable(title=f"{mode} runs", title_justify="left")
        for col in ("id", "kg", "target", "status", "units done", "created"):
            t.add_column(col, justify="right" if col in ("id", "units done") else "left")
        for run_id in mode_runs(conn, mode):
            run = load_run(conn, run_id, mode)
            (total,) = conn.execute(
                "SELECT units_total FROM run WHERE id = ?", (run_id,)
            ).fetchone()
            t.add_row(
                str(run.id),
                run.kg_name,
                run.target_label + simulated_mark(run.target_label, run.simulated),
                run.shown[0],
                f"{run.iterations_done:,}" + ("" if total is None else f"/{total:,}"),
                run.created_at,
            )
        console.print(t)
        return 0

    return run


def _run(command: Command) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        conn = connect(args.db or default_db_path())
        try:
            return command(args, conn)
        except (ModeCommandError, ConfigError, ValueError, LookupError, LLMError) as exc:
            print_error(exc)
            return 2
        except KeyboardInterrupt:
            return INTERRUPTED_EXIT
        finally:
            conn.close()

    return run


def _add_run_options(p: argparse.ArgumentParser, mode: str, limit: str) -> None:
    """A mode's run command: resume, name and quiet, then one flag per field of the mode's
    settings type (its docstring the help), but ``limit`` (how many facts: a number or 'all')."""
    p.add_argument("--resume", type=int, metavar="RUN", help="ask what is missing or failed")
    p.add_argument("--name", default="", help="a name for the run")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("-y", "--yes", action="store_true", help=COST_YES_HELP)
    add_config_arguments(
        p,
        get_mode(mode).config_type,
        flags=RUN_FLAGS,
        aliases=RUN_ALIASES,
        skip=("mode", limit),
        repeated={
            "target": (
                "more_targets",
                "Give it again for more targets: one run each, on the same questions.",
            )
        },
    )
    p.set_defaults(flag_of=flags_of(p))


def add_mode_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add `consistency` and `facteval` and their subcommands to the top-level parser."""
    kon = sub.add_parser("consistency", help="KONTEST consistency testing: run, report, ensemble")
    kon_sub = kon.add_subparsers(dest="consistency_command", metavar="CONSISTENCY", required=True)
    p = kon_sub.add_parser(
        "run", help="paraphrase pairs atomic and sequential; transitivity along paths"
    )
    _add_run_options(p, KONTEST, "relations")
    p.add_argument("--relations", help="KG edges to test (seeded sample) or 'all' (default 100)")
    p.set_defaults(func=_run(cmd_consistency_run))
    p = kon_sub.add_parser("report", help="oracle errors (Table 3), coverage and gap (Table 4)")
    p.add_argument("run", type=int)
    p.add_argument("--findings", type=int, default=15, help="inconsistencies to list")
    add_table_options(p)
    p.set_defaults(func=_run(cmd_consistency_report))
    p = kon_sub.add_parser(
        "ensemble", help="weighted ensemble vs majority vote over several runs (Table 5)"
    )
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds (1 = none)")
    p.add_argument(
        "--template3",
        type=int,
        nargs="+",
        metavar="RUN",
        help="each model's `run --template3` run, in the order of RUN: the ensemble evaluated "
        "on the unseen template 3 too",
    )
    p.add_argument("--seed", type=int, default=0)
    add_table_options(p)
    p.set_defaults(func=_run(cmd_consistency_ensemble))
    p = kon_sub.add_parser("paths", help="predicates of a KG with paths A -> B -> C")
    p.add_argument("--kg", default="country")
    p.set_defaults(func=_run(cmd_consistency_paths))
    p = kon_sub.add_parser("list", help="every KONTEST run")
    p.set_defaults(func=_run(_cmd_list(KONTEST)))

    fe = sub.add_parser("facteval", help="LLM-facteval TFQ / MCQ / SAQ with abstention")
    fe_sub = fe.add_subparsers(dest="facteval_command", metavar="FACTEVAL", required=True)
    p = fe_sub.add_parser("run", help="ask TFQ / MCQ / SAQ, optionally with injected contexts")
    _add_run_options(p, FACTEVAL, "facts")
    p.add_argument("--facts", help="KG edges to ask about (seeded) or 'all' (default 100)")
    p.set_defaults(func=_run(cmd_facteval_run))
    p = fe_sub.add_parser("report", help="precision, recall, F1 per type, format and context")
    p.add_argument("run", type=int)
    add_table_options(p)
    add_figure_options(p, "F1 per relation with its interval and chance")
    p.set_defaults(func=_run(cmd_facteval_report))
    p = fe_sub.add_parser("list", help="every facteval run")
    p.set_defaults(func=_run(_cmd_list(FACTEVAL)))
    add_compare_commands(kon_sub, fe_sub, _run)
