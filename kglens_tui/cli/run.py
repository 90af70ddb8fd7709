"""One run driver for every mode, in this process: `kglens run MODE`, `kglens resume RUN` and
the mode's own names for it (`probe`, `consistency run`, `facteval run`, from `Mode.command`),
each a thin name whose flags the mode's settings type generates. It starts a run (one per
target) or resumes one, shows the mode's progress, stores a Ctrl-C as an interrupted run that
`--resume` continues, and ends every mode's run with the same final line and exit code."""

from __future__ import annotations

import argparse
import sqlite3
from dataclasses import dataclass, field, fields

from rich.table import Table

from kglens_tui.cli.progress import RunProgressDisplay
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import (
    INTERRUPTED_EXIT,
    console,
    err_console,
    print_command,
    print_error,
    print_same_questions,
    suggested,
)
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import markup_literal
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.base import LLMError
from kglens_tui.llm.failures import EXIT_STATUS
from kglens_tui.llm.usage import calls_text
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.control import ask_run, resume_elsewhere
from kglens_tui.runs.fields import (
    RUN_ALIASES,
    RUN_FLAGS,
    add_config_arguments,
    field_help,
    flags_of,
    given_fields,
    named_by_flag,
)
from kglens_tui.runs.given_settings import as_text, settings_config
from kglens_tui.runs.lifecycle import INTERRUPTED_IN_CLI
from kglens_tui.runs.messages import Command, Pause, RunSnapshot, Stop
from kglens_tui.runs.one_plan import further_targets, on_one_plan
from kglens_tui.runs.options import apply_assignments, assignment_key, field_types
from kglens_tui.runs.record import nothing_to_resume, run_row, set_status
from kglens_tui.runs.registry import AnyMode, Engine, find_mode, get_mode, mode_label, mode_names
from kglens_tui.runs.runner import run_blocking
from kglens_tui.runs.spend import COST_YES_HELP, ask_on_terminal, confirm_cost, say_cost
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import counted, selection, sent_note, simulated_mark


class RunCommandError(KGLensError):
    """The run could not start or resume: one line, exit 2."""


@dataclass
class RunStart:
    """What a run command asks of the driver: a new run of ``mode`` with ``config`` (and one
    more run per further target, on the first one's questions), or to resume run ``resume``
    (``mode`` None: whatever its mode is; else it must be a run of that mode)."""

    mode: AnyMode | None
    config: ModeConfig | None = None
    more: list[str] = field(default_factory=list)
    resume: int | None = None
    name: str = ""
    quiet: bool = False
    yes: bool = False


def resume_command(mode: AnyMode, run_id: int) -> str:
    """The words after ``kglens`` that continue run ``run_id`` of ``mode``."""
    return f"{mode.command} --resume {run_id}"


def results_command(mode: AnyMode, run_id: int) -> str:
    """The words after ``kglens`` that show run ``run_id``'s results (the runs list for a mode
    without a report)."""
    return f"{mode.report} {run_id}" if mode.report else "runs"


def lock_notice(message: str) -> None:
    """A command's note that its write waits for another process's write lock."""
    err_console.print(f"[yellow]note:[/] {markup_literal(message)}", soft_wrap=True)


def drive(db: str | None, start: RunStart) -> int:
    """Start or resume the runs ``start`` asks for and drive each to its end here; the exit
    code (0: finished or stopped, `EXIT_STATUS`: failed, `INTERRUPTED_EXIT`: Ctrl-C)."""
    conn = connect(db or default_db_path(), lock_notice=lock_notice)
    try:
        if start.resume is not None:
            return _resume(conn, start, start.resume)
        return _start(conn, start)
    finally:
        conn.close()


def _resume(conn: sqlite3.Connection, start: RunStart, run_id: int) -> int:
    """Resume run ``run_id`` (of ``start.mode`` when given: another mode's run is one error
    line naming the command that continues it, and nothing is stored)."""
    stored = run_row(conn, run_id)["mode"]
    mode = find_mode(stored)
    if mode is None:
        raise RunCommandError(f"run {run_id} is a run of mode '{stored}', not installed here")
    finished = nothing_to_resume(conn, run_id)
    if start.mode is not None and mode.name != start.mode.name:
        way = (
            f"`{suggested(results_command(mode, run_id))}` shows it"
            if finished
            else f"`{suggested(resume_command(mode, run_id))}` continues it"
        )
        raise RunCommandError(
            f"run {run_id} is a {mode.label} run, not a {start.mode.label} one: {way}"
        )
    elsewhere = resume_elsewhere(conn, run_id)  # another process drives it
    if elsewhere is not None:
        console.print(markup_literal(elsewhere), soft_wrap=True)
        return 0
    if finished is not None:
        shows = suggested(results_command(mode, run_id))
        console.print(markup_literal(f"{finished}; `{shows}` shows it"), soft_wrap=True)
        return 0
    code, _ = _drive_one(conn, mode, start, None, run_id)
    return code


def _start(conn: sqlite3.Connection, start: RunStart) -> int:
    """A run of ``start.config`` per target, every cost confirmed before the first starts; each
    further target asks the first one's questions, and one that cannot start leaves the
    others' runs as they are."""
    mode, config = start.mode, start.config
    assert mode is not None and config is not None
    for target in [config.target, *start.more]:
        confirm_cost(
            on_one_plan(config, target, None), start.yes, say_cost, ask_on_terminal(), conn
        )
    code, leader = _drive_one(conn, mode, start, config, None)
    if leader is None and start.more and code != INTERRUPTED_EXIT:
        targets = ", ".join(start.more)
        print_error(f"the first target's run did not finish, so {targets} did not start")
    if leader is None or not start.more:
        return code
    runs = [leader]
    for target in start.more:
        try:
            ended, run_id = _drive_one(conn, mode, start, on_one_plan(config, target, leader), None)
        except RunCommandError as exc:
            print_error(f"target {target}: {exc}")
            code = max(code, EXIT_STATUS)
            continue
        if ended == INTERRUPTED_EXIT:
            return ended
        code = max(code, ended)
        if run_id is not None:
            runs.append(run_id)
    print_same_questions(runs, mode.compare, "side by side")
    return code


def _progress_fields(mode: AnyMode, snap: RunSnapshot) -> dict[str, object]:
    """The display's fields for a snapshot: where the run is, its requests and errors, the
    mode's figures and whether the run goes (its time left is shown only then)."""
    where = mode.advance(snap)
    sent = snap.progress.counters
    info = f"{where} · {calls_text(sent.requests, snap.helpers)} req · {sent.errors:,} err"
    if snap.status != RunStatus.RUNNING:
        info += f" · {snap.status}"
    return {
        "completed": where.done,
        "total": where.total,
        "run": snap.run_id,
        "info": info,
        "items": mode.progress_lines(snap),
        "going": snap.status == RunStatus.RUNNING,
    }


def _drive_one(
    conn: sqlite3.Connection,
    mode: AnyMode,
    start: RunStart,
    config: ModeConfig | None,
    resume: int | None,
) -> tuple[int, int | None]:
    """Start (``config``) or resume one run and drive it to its end with the progress display:
    (exit code, the run's id when it finished or stopped)."""
    display = RunProgressDisplay(console=err_console, transient=False, disable=start.quiet)
    task = display.add_task("run", total=None, run="?", info=None, items=[])

    made: list[Engine[RunSnapshot]] = []

    def on_progress(snap: RunSnapshot) -> None:
        if made:  # after a commit: the engine's figures for a progress display
            snap = made[0].progress_snapshot()
        display.update(task, **_progress_fields(mode, snap))  # type: ignore[arg-type]

    try:
        engine = mode.prepare(
            conn,
            config=config,
            resume=resume,
            name=start.name,
            on_progress=None if start.quiet else on_progress,
        )
    except (ConfigError, ValueError, LLMError) as exc:
        raise RunCommandError(str(exc)) from exc
    made.append(engine)
    run = engine.run
    first = engine.progress_snapshot()
    mark = simulated_mark(run.target_label, run.simulated)
    cfg = run.config
    note = mode.start_note(cfg)
    err_console.print(
        markup_literal(
            f"run {run.id} ({mode.label}): KG '{selection(run.kg_name, cfg.subset, cfg.predicates)}', "
            f"{counted(len(run.edge_ids), 'edge')}, target {run.target_label}{mark}"
            f"{f', {note}' if note else ''}, {mode.advance(first)}"
        )  # wrapped at the terminal's width, as every line of the display
    )
    if not start.quiet:
        on_progress(first)
    final: RunSnapshot | None = None  # None: read back as stored
    failure: LLMError | None = None
    with display:
        try:
            final = run_blocking(engine)
        except KeyboardInterrupt:  # what is committed is kept; told once the display stopped
            set_status(conn, run.id, RunStatus.INTERRUPTED, INTERRUPTED_IN_CLI)
        except LLMError as exc:  # stored as failed with its error: the final line tells it
            failure = exc
        if final is not None and not start.quiet:
            display.update(task, **_progress_fields(mode, final))  # type: ignore[arg-type]
    if final is None:
        final = mode.open_snapshot(conn, run.id)
        if failure is not None and final.status != RunStatus.FAILED:
            raise failure  # not stored with the run (raised outside its loop): told as it is
    return tell_end(mode, final)


def tell_end(mode: AnyMode, snap: RunSnapshot) -> tuple[int, int | None]:
    """The one final line of every mode's run: its status and why (a failed run's error, as an
    `error:` line), how far it got and its requests, then the command to copy on a line of its
    own (the results of a finished or stopped run, else the mode's command that continues it);
    (exit code, the run's id when it finished or stopped)."""
    where = mode.advance(snap)
    sent = snap.progress.counters
    requests = calls_text(sent.requests, snap.helpers)
    plural = "" if sent.requests == 1 and not snap.helpers else "s"
    why = snap.error if snap.status == RunStatus.FAILED and snap.error else snap.stop_reason
    lead = (
        f"run {snap.run_id} {snap.status}{f' ({why})' if why else ''}: {where}, "
        f"{requests} request{plural}{sent_note(sent.errors, sent.dropped)}"
    )
    if snap.status == RunStatus.FAILED:
        print_command(
            f"error: {lead}; fix that, then continue with:",
            suggested(resume_command(mode, snap.run_id)),
        )
        return EXIT_STATUS, None
    if snap.status == RunStatus.INTERRUPTED:
        print_command(f"{lead}; continue with:", suggested(resume_command(mode, snap.run_id)))
        return INTERRUPTED_EXIT, None
    print_command(
        f"{lead}; the results:", suggested(results_command(mode, snap.run_id)), to=console
    )
    return 0, snap.run_id


def new_config(args: argparse.Namespace, mode: AnyMode, limit: str = "") -> ModeConfig:
    """A new run's settings from a run command's generated flags: the mode's defaults < the
    settings file < KGLENS_* variables < the flags given (``limit``: a setting of how many,
    given as a number or 'all'); a problem is named by the flag that sets it."""
    given = given_fields(mode.config_type, args)
    if limit and given.get(limit) is not None:
        given[limit] = _limit(str(given[limit]))
    config = settings_config(mode.name, overridden=given).replaced(given)
    try:
        config.validate()
        check_new_run(config)
    except ConfigError as exc:
        raise ConfigError(named_by_flag(str(exc), args.flag_of)) from None
    return config


def _limit(text: str) -> int | None:
    if text == "all":
        return None
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"expected a number or 'all' (got {text!r})") from None


def refuse_settings_on_resume(run_id: int, given: list[str]) -> None:
    """RunCommandError naming the settings ``given`` with `--resume` (a run keeps its own)."""
    if given:
        raise RunCommandError(
            f"--resume continues run {run_id} with its own settings, but these were given too: "
            f"{', '.join(given)} (drop them, or start a new run)"
        )


def cmd_mode_run(args: argparse.Namespace) -> int:
    """A mode's own run command (`probe`, `consistency run`, ...): its flags to a `RunStart`."""
    mode = get_mode(args.run_mode)
    if args.resume is not None:
        given = given_fields(mode.config_type, args)
        names = sorted(args.flag_of.get(name, name) for name in given)
        refuse_settings_on_resume(args.resume, names or (["--target"] if args.more_targets else []))
        start = RunStart(mode, resume=args.resume, quiet=args.quiet)
        return drive(args.db, start)
    config = new_config(args, mode, args.limit)
    more = further_targets(args.more_targets, config)
    start = RunStart(mode, config, more, name=args.name, quiet=args.quiet, yes=args.yes)
    return drive(args.db, start)


def add_mode_run_options(
    p: ArgumentParser,
    mode_name: str,
    *,
    limit: str = "",
    negated: dict[str, str] | None = None,
    resume_help: str = "continue a stored run (what is missing or failed)",
) -> None:
    """A mode's run command (`cmd_mode_run`): resume, name, quiet and yes, then one flag per
    field of the mode's settings type (its help the field's), but ``limit`` (a setting of how
    many: the command adds it, as a number or 'all')."""
    p.add_argument("--resume", type=int, metavar="RUN", help=resume_help)
    p.add_argument("--name", default="", help="a name for the run")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("-y", "--yes", action="store_true", help=COST_YES_HELP)
    add_config_arguments(
        p,
        get_mode(mode_name).config_type,
        flags=RUN_FLAGS,
        aliases=RUN_ALIASES,
        negated=negated,
        skip=("mode", limit) if limit else ("mode",),
        repeated={
            "target": (
                "more_targets",
                "Give it again for more targets: each is then asked the first one's questions, "
                "in a run of its own.",
            )
        },
    )
    p.set_defaults(func=cmd_mode_run, run_mode=mode_name, limit=limit)
    p.set_defaults(flag_of=flags_of(p))


def print_settings(mode_name: str) -> None:
    """Every setting of a mode: name, type, default and help (its `setting`'s)."""
    config_type: type = type(get_mode(mode_name).config_type())
    docs = field_help(config_type)
    hints = field_types(config_type)
    table = Table(
        title=f"{mode_label(mode_name)} settings (--set NAME=VALUE)", title_justify="left"
    )
    for column in ("name", "type", "default", "help"):
        table.add_column(column, overflow="fold")
    defaults = config_type()
    for f in fields(config_type):
        if f.name == "mode":
            continue
        hint = hints[f.name]
        kind = hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")
        table.add_row(
            f.name,
            kind,
            markup_literal(as_text(getattr(defaults, f.name)) or "(empty)"),
            markup_literal(docs.get(f.name, "")),
        )
    console.print(table)


def cmd_run(args: argparse.Namespace) -> int:
    if args.list_settings:
        print_settings(args.mode)
        return 0
    mode = get_mode(args.mode)
    named = [assignment_key(item) for item in args.set]
    if args.resume is not None:
        given = [f"--set {name}" for name in named] + (["--target"] if args.target else [])
        refuse_settings_on_resume(args.resume, given)
        return drive(args.db, RunStart(mode, resume=args.resume, quiet=args.quiet))
    if args.target and "target" in named:
        raise ConfigError("give the target once: --target or --set target=..., not both")
    if args.target:
        args.set = [*args.set, f"target={args.target[0]}"]
        named.append("target")
    config = apply_assignments(settings_config(mode.name, overridden=named), args.set)
    more = further_targets(args.target[1:], config)
    start = RunStart(mode, config, more, name=args.name, quiet=args.quiet, yes=args.yes)
    return drive(args.db, start)


def _ask(args: argparse.Namespace, command: Command) -> int:
    """Leave ``command`` for the process that drives run ``args.run``."""
    conn = connect(args.db or default_db_path())
    try:
        console.print(markup_literal(ask_run(conn, args.run, command)), soft_wrap=True)
    finally:
        conn.close()
    return 0


def cmd_stop(args: argparse.Namespace) -> int:
    return _ask(args, Stop(now=args.now))


def cmd_pause(args: argparse.Namespace) -> int:
    return _ask(args, Pause())


def cmd_resume(args: argparse.Namespace) -> int:
    return drive(args.db, RunStart(None, resume=args.run, quiet=args.quiet))


def add_run_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add `run` and `resume` to the top-level parser."""
    p = sub.add_parser(
        "run",
        help="start a run of any probing mode (its settings as --set key=value)",
        description="Modes: "
        + ", ".join(mode_names())
        + ". Every field of the mode's settings can be set, e.g. --set kg=country "
        "--set target=sim --set relations=20.",
    )
    p.add_argument("mode", help="the probing mode, e.g. kglens, kontest, facteval")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="one setting (repeatable); lists are comma-separated",
    )
    p.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="SPEC",
        help="the target (as --set target=SPEC); give it again for more targets: each is then "
        "asked the first one's questions, in a run of its own",
    )
    p.add_argument("--resume", type=int, metavar="RUN", help="continue a stored run of the mode")
    p.add_argument("--name", default="", help="a name for the run")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("-y", "--yes", action="store_true", help=COST_YES_HELP)
    p.add_argument("--list-settings", action="store_true", help="list the mode's settings and exit")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser(
        "resume",
        help="resume a stopped or interrupted run of any mode (a paused one goes on where it runs)",
    )
    p.add_argument("run", type=int, help="the run's id (`kglens runs` lists them)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.set_defaults(func=cmd_resume)
    p = sub.add_parser(
        "stop",
        help="stop a run that goes on in another process (what is in flight finishes; a second "
        "stop drops it)",
    )
    p.add_argument("run", type=int, help="the run's id (`kglens runs` lists them)")
    p.add_argument(
        "--now", action="store_true", help="drop what is in flight instead (a resume asks it again)"
    )
    p.set_defaults(func=cmd_stop)
    p = sub.add_parser(
        "pause", help="pause a run that goes on in another process (`kglens resume RUN` goes on)"
    )
    p.add_argument("run", type=int, help="the run's id (`kglens runs` lists them)")
    p.set_defaults(func=cmd_pause)
