"""`kglens consistency ...` (KONTEST) and `kglens facteval ...` (LLM-facteval), headless."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from kglens_tui.cli.compare import add_compare_commands
from kglens_tui.cli.run import tell_interrupted
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
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.core.status import RunStatus
from kglens_tui.core.table_options import add_table_options
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import LLMError
from kglens_tui.llm.failures import EXIT_STATUS
from kglens_tui.llm.usage import calls_text
from kglens_tui.modes.config import (
    FACTEVAL,
    KONTEST,
    MODE_COMMANDS,
)
from kglens_tui.modes.facteval.compare import load_per_relation
from kglens_tui.modes.kontest.compare import ensemble_renderables
from kglens_tui.modes.kontest.plan import transitive_candidates
from kglens_tui.modes.report import (
    report,
)
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.fields import (
    RUN_ALIASES,
    RUN_FLAGS,
    add_config_arguments,
    flags_of,
    given_fields,
    named_by_flag,
)
from kglens_tui.runs.given_settings import settings_config
from kglens_tui.runs.messages import RunSnapshot, snapshot_as
from kglens_tui.runs.one_plan import further_targets, on_one_plan
from kglens_tui.runs.record import (
    load_run,
    mode_runs,
    nothing_to_resume,
    run_row,
)
from kglens_tui.runs.registry import get_mode, mode_label
from kglens_tui.runs.runner import engine_as, open_snapshot_as, prepare, run_blocking
from kglens_tui.runs.spend import COST_YES_HELP, ask_on_terminal, confirm_cost, say_cost
from kglens_tui.runs.units import ModeEngine, ModeSnapshot
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import sent_note, simulated_mark

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]


class ModeCommandError(KGLensError):
    """A user-facing error: printed as one line, exit code 2."""


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


def cmd_consistency_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    report(conn, args.run, KONTEST, findings=args.findings)
    return 0


def cmd_facteval_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    figures = figure_folder(args)  # refused before any work
    report(conn, args.run, FACTEVAL)
    if figures is not None:
        from kglens_tui.modes.facteval.figures import relation_figure

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
