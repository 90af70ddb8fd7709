"""`kglens run MODE --set key=value` and `kglens resume RUN`: any mode, through the same harness
as the TUI (the run in its own process, progress from its snapshots, Ctrl-C stops it)."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sqlite3
import threading
import typing
from collections.abc import Iterable, Mapping
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
from kglens_tui.kg.names_store import STORE_ENV
from kglens_tui.kg.wikidata.cache import CACHE_ENV
from kglens_tui.kg.wikidata.client import CONTACT_ENV
from kglens_tui.llm.failures import EXIT_STATUS
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.control import ask_run, resume_elsewhere
from kglens_tui.runs.fields import field_help
from kglens_tui.runs.lifecycle import INTERRUPTED_IN_CLI
from kglens_tui.runs.messages import Command, Pause, RunSnapshot, Stop
from kglens_tui.runs.one_plan import further_targets, on_one_plan
from kglens_tui.runs.options import apply_assignments, assignment_key
from kglens_tui.runs.record import nothing_to_resume, run_row, set_status
from kglens_tui.runs.registry import get_mode, mode_label, mode_names
from kglens_tui.runs.session import RunSession
from kglens_tui.runs.spend import COST_YES_HELP, ask_on_terminal, confirm_cost, say_cost
from kglens_tui.settings import CONFIG_ENV, NOT_SETTINGS, Settings, SettingsError, load_settings
from kglens_tui.store.connection import DB_ENV, LOCK_WAIT_ENV, connect, default_db_path

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


def settings_config(
    mode_name: str, settings: Settings | None = None, overridden: Iterable[str] = ()
) -> ModeConfig:
    """A new run's settings for a mode: its defaults, then the settings file, then KGLENS_<NAME>
    variables, for every field of the mode's run settings (``settings``: as loaded, default
    the user's). An option of no mode in the file is an error that names the file. The options
    named in ``overridden`` (the command line gives them) are neither applied nor checked."""
    config = get_mode(mode_name).config_type()
    given = {name: (text, where) for name, text, where in given_run_options(mode_name, settings)}
    for name in overridden:
        given.pop(name, None)
    for name, (text, where) in given.items():  # a variable has replaced the file's value
        try:  # checked one by one, so that the error names where the bad value came from
            config = apply_assignments(config, [f"{name}={text}"])
            check_new_run(config)
        except ValueError as exc:
            reason = str(exc).removeprefix(f"{name}: ")
            raise SettingsError(f"{where}: setting '{name}': {reason}") from None
    return config


def run_options(mode_name: str) -> list[str]:
    """The names of a mode's run options: its settings' fields but the mode itself."""
    return [f.name for f in fields(get_mode(mode_name).config_type()) if f.name != "mode"]


def given_run_options(
    mode_name: str, settings: Settings | None = None
) -> list[tuple[str, str, str]]:
    """(name, value as text, where it came from) of each of the mode's run options the settings
    file ("FILE, line N") or a KGLENS_<NAME> variable gives, the file's first (the variable
    overrides it). A name in the file that is no setting of any mode is an error naming the
    file, the line and the nearest name."""
    settings = settings if settings is not None else load_settings()
    check_setting_names(settings)
    own = run_options(mode_name)
    given = [
        (name, _as_text(settings.run[name]), settings.place(name))
        for name in own
        if name in settings.run
    ]
    for name in own:
        variable = f"KGLENS_{name.upper()}"
        if (value := os.environ.get(variable)) is not None:
            given.append((name, value, f"${variable}"))
    return given


def check_setting_names(settings: Settings) -> None:
    """SettingsError, naming the file, the line and the nearest name, for a name in the
    settings file that is neither an app setting nor a run option of any mode (a typo would
    otherwise leave the option it meant at its default without a word)."""
    known = {option for name in mode_names() for option in run_options(name)}
    app = [f.name for f in fields(Settings) if f.name not in NOT_SETTINGS]
    for name in settings.run:
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known | set(app)), n=1)
            hint = f"did you mean {near[0]}? " if near else ""
            raise SettingsError(
                f"{settings.place(name)}: unknown setting '{name}' ({hint}app settings: "
                f"{', '.join(app)}; run options: `kglens run MODE --list-settings`)"
            )


def settings_problems(settings: Settings) -> dict[str, str]:
    """What is wrong with the run options the settings file and KGLENS_* variables give, by the
    mode whose new runs would refuse them: one line each naming where the value came from (a
    mode without a problem is left out). A command that starts a run of a mode refuses its
    problem itself (`settings_config`); any other command can warn of all of them."""
    problems = {}
    for name in mode_names():
        try:
            settings_config(name, settings)
        except SettingsError as exc:
            problems[name] = str(exc)
    return problems


_CREDENTIAL = re.compile("_(?:KEY|TOKEN|SECRET|PASSWORD)$")
"""How the name of a variable holding a credential ends: `--api-key-env` may name any."""


def unread_variables(environ: Mapping[str, str] | None = None) -> list[str]:
    """A warning for each KGLENS_* variable that no setting, run option or command reads (a typo
    would otherwise change nothing without a word), naming the nearest one that is read. A
    name ending like a credential's (`_KEY`, `_TOKEN`, ...) is left alone, `--api-key-env` may
    name it, unless it is one letter from a name that is read (`KGLENS_MAX_TOKEN`). The modes
    (and plugins) are loaded only when some variable is not an app setting's."""
    environ = os.environ if environ is None else environ
    read = {CONFIG_ENV, DB_ENV, LOCK_WAIT_ENV, CONTACT_ENV, CACHE_ENV, STORE_ENV}
    read |= {f"KGLENS_{f.name.upper()}" for f in fields(Settings) if f.name not in NOT_SETTINGS}
    read.discard("KGLENS_KEYS")  # a table: only the settings file gives it
    if not any(v.startswith("KGLENS_") and v not in read for v in environ):
        return []
    read |= {f"KGLENS_{option.upper()}" for name in mode_names() for option in run_options(name)}
    names = sorted(read)
    warnings = []
    for variable in sorted(v for v in environ if v.startswith("KGLENS_") and v not in read):
        if _CREDENTIAL.search(variable) and not difflib.get_close_matches(
            variable, names, n=1, cutoff=0.95
        ):
            continue
        if variable == "KGLENS_KEYS":
            warnings.append("$KGLENS_KEYS changes nothing: [keys] is set in the settings file")
            continue
        near = difflib.get_close_matches(variable, names, n=1)
        hint = f" (did you mean ${near[0]}?)" if near else ""
        warnings.append(f"${variable} is not a kglens setting, so it changes nothing{hint}")
    return warnings


def _as_text(value: object) -> str:
    """A value as `--set` takes it: lists comma-separated, booleans true / false, None as none."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)


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
            markup_literal(_as_text(getattr(defaults, f.name)) or "(empty)"),
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
