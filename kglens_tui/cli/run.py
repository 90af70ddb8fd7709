"""`kglens run MODE --set key=value` and `kglens resume RUN`: any mode, through the same harness
as the TUI (the run in its own process, progress from its snapshots, Ctrl-C stops it)."""

from __future__ import annotations

import argparse
import sqlite3
import threading
import typing
from dataclasses import fields

from rich.table import Table

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
from kglens_tui.llm.failures import EXIT_STATUS
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.control import ask_run, resume_elsewhere
from kglens_tui.runs.fields import field_help
from kglens_tui.runs.given_settings import (
    as_text,
    settings_config,
)
from kglens_tui.runs.lifecycle import INTERRUPTED_IN_CLI
from kglens_tui.runs.messages import Command, Pause, RunSnapshot, Stop
from kglens_tui.runs.one_plan import further_targets, on_one_plan
from kglens_tui.runs.options import apply_assignments, assignment_key
from kglens_tui.runs.record import nothing_to_resume, run_row, set_status
from kglens_tui.runs.registry import get_mode, mode_label, mode_names
from kglens_tui.runs.session import RunSession
from kglens_tui.runs.spend import COST_YES_HELP, ask_on_terminal, confirm_cost, say_cost
from kglens_tui.store.connection import connect, default_db_path

PROGRESS_EVERY_S = 1.0


class RunCommandError(KGLensError):
    """The run could not start or failed to set up: one line, exit 2."""


def tell_interrupted(conn: sqlite3.Connection, run_id: int, kept: str, resume: str) -> None:
    """A run stopped by Ctrl-C on the command line: store it as interrupted, then say what is
    kept and, on a line of its own, the command (`suggested` words) that continues it."""
    set_status(conn, run_id, RunStatus.INTERRUPTED, INTERRUPTED_IN_CLI)
    print_command(f"interrupted: {kept}; continue with:", suggested(resume))


def _progress_line(snap: RunSnapshot) -> str:
    done, total = getattr(snap, "units_done", None), getattr(snap, "units_total", None)
    where = (
        f"{done:,} of {total:,} units"
        if done is not None and total is not None
        else f"iteration {getattr(snap, 'iteration', 0):,}"
    )
    progress = snap.progress
    return (
        f"run {snap.run_id}: {where} · {progress.counters.requests:,} requests · {progress.status}"
    )


def drive_session(session: RunSession, quiet: bool) -> int:
    """Drive a session from a thread until it ends, printing progress; Ctrl-C stops the run
    (what is in flight is committed), a second Ctrl-C ends it at once as interrupted."""
    ended = threading.Event()

    def run() -> None:
        try:
            session.run()
        finally:
            ended.set()

    worker = threading.Thread(target=run, name="kglens-run", daemon=True)
    worker.start()
    interrupts = 0
    last = ""
    while not ended.is_set():
        # an Event, not Thread.join (a Ctrl-C inside join() can make the thread look ended);
        # a Ctrl-C may also land while a progress line is printed
        try:
            ended.wait(PROGRESS_EVERY_S)
            snap = session.snapshot()
            line = _progress_line(snap) if snap is not None else ""
            if not quiet and line and line != last:
                err_console.print(markup_literal(line), soft_wrap=True)
                last = line
        except KeyboardInterrupt:
            interrupts += 1
            if interrupts == 1:
                err_console.print("stopping: what is answered is kept (Ctrl-C again: at once)")
                session.stop()
            else:
                session.abort(INTERRUPTED_IN_CLI)
    worker.join()
    final = session.snapshot()
    hint = f"; `{suggested(f'resume {session.run_id}')}` continues it" if session.run_id else ""
    if session.crashed:
        print_error(f"run {session.run_id}: {session.error}{hint}")
        return EXIT_STATUS
    if session.error:
        raise RunCommandError(session.error)
    if final is None:
        raise RunCommandError("the run ended before it started")
    reason = f" ({markup_literal(final.stop_reason)})" if final.stop_reason else ""
    console.print(
        f"run {final.run_id} {markup_literal(final.status)}{reason} after "
        f"{final.progress.counters.requests:,} requests",
        soft_wrap=True,
    )
    if final.status == RunStatus.FAILED:
        cause = getattr(final, "error", "") or final.stop_reason
        print_error(f"run {final.run_id} failed: {cause}{hint}")
        return EXIT_STATUS
    if final.status == RunStatus.INTERRUPTED:
        if session.run_id:
            print_command("interrupted; continue with:", suggested(f"resume {session.run_id}"))
        else:
            err_console.print("interrupted")
        return INTERRUPTED_EXIT
    return 0


def print_settings(mode_name: str) -> None:
    """Every setting of a mode: name, type, default and help (its `setting`'s)."""
    config_type: type = type(get_mode(mode_name).config_type())
    docs = field_help(config_type)
    hints = typing.get_type_hints(config_type)
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
    if args.target and "target" in named:
        raise ConfigError("give the target once: --target or --set target=..., not both")
    if args.target:
        args.set = [*args.set, f"target={args.target[0]}"]
        named.append("target")
    config = apply_assignments(settings_config(mode.name, overridden=named), args.set)
    more = further_targets(args.target[1:], config)
    conn = connect(args.db or default_db_path())
    try:  # a unit mode's plan says how many requests it makes (read only)
        for target in [config.target, *more]:
            confirm_cost(
                on_one_plan(config, target, None), args.yes, say_cost, ask_on_terminal(), conn
            )
    finally:
        conn.close()
    session = RunSession(args.db or default_db_path(), mode.name, config=config)
    code = drive_session(session, args.quiet)
    leader = session.run_id
    if more and (code != 0 or leader is None):  # no plan for the others to ask
        print_error(f"the first target's run did not finish, so {', '.join(more)} did not start")
    if not more or code != 0 or leader is None:
        return code
    runs = [leader]
    for target in more:  # each further target asks the first one's questions
        session = RunSession(
            args.db or default_db_path(), mode.name, config=on_one_plan(config, target, leader)
        )
        try:
            ended = drive_session(session, args.quiet)
        except RunCommandError as exc:
            print_error(f"target {target}: {exc}")
            ended = EXIT_STATUS
        if ended == INTERRUPTED_EXIT:
            return ended
        code = max(code, ended)
        if ended == 0 and session.run_id is not None:
            runs.append(session.run_id)
    print_same_questions(runs, mode.compare, "side by side")
    return code


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
    db = args.db or default_db_path()
    conn = connect(db)
    try:
        row = run_row(conn, args.run)
        elsewhere = resume_elsewhere(conn, args.run)  # another process drives it
        if elsewhere is not None:
            console.print(markup_literal(elsewhere), soft_wrap=True)
            return 0
        finished = nothing_to_resume(conn, args.run)
    finally:
        conn.close()
    if finished is not None:
        console.print(markup_literal(finished), soft_wrap=True)
        return 0
    mode = get_mode(row["mode"])
    return drive_session(RunSession(db, mode.name, resume=args.run), args.quiet)


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
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("-y", "--yes", action="store_true", help=COST_YES_HELP)
    p.add_argument("--list-settings", action="store_true", help="list the mode's settings and exit")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser(
        "resume",
        help="resume a stopped or interrupted run of any mode (a paused one goes on where it runs)",
    )
    p.add_argument("run", type=int, help="the run's id (`kglens runs` lists them)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
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
