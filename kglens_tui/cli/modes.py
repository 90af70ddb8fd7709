"""Each mode's own command group (`kglens consistency ...`, `kglens facteval ...`, a plugin's),
as its mode declares it (`Mode.command_group`): `run` and `list` here, its other commands its
own."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable

from kglens_tui.cli.run import add_mode_run_options
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import INTERRUPTED_EXIT, console, print_error
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.llm.base import LLMError
from kglens_tui.runs.commands import Action, CommandGroup
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.record import load_run, mode_runs
from kglens_tui.runs.registry import get_mode, mode_names
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import simulated_mark


def _cmd_list(mode: str) -> Action:
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


def _run(command: Action) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        conn = connect(args.db or default_db_path())
        try:
            return command(args, conn)
        except (ConfigError, ValueError, LookupError, LLMError) as exc:
            print_error(exc)
            return 2
        except KeyboardInterrupt:
            return INTERRUPTED_EXIT
        finally:
            conn.close()

    return run


def add_mode_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add the command group of every mode that declares one (`Mode.command_group`) to the
    top-level parser; a group named as a command already there is left out."""
    for name in mode_names():
        group = get_mode(name).command_group
        if group is not None and group.name not in sub.choices:
            _add_group(sub, name, group)


def _add_group(
    sub: argparse._SubParsersAction[ArgumentParser], mode: str, group: CommandGroup
) -> None:
    parser = sub.add_parser(group.name, help=group.help)
    commands = parser.add_subparsers(
        dest=f"{group.name}_command", metavar=group.name.upper(), required=True
    )
    p = commands.add_parser("run", help=group.run_help)
    add_mode_run_options(p, mode, limit=group.count)
    p.add_argument(f"--{group.count}", help=group.count_help)
    for command in group.commands:
        p = commands.add_parser(command.name, help=command.help)
        command.arguments(p)
        p.set_defaults(func=_run(command.action))
    p = commands.add_parser("list", help=f"every {get_mode(mode).label} run")
    p.set_defaults(func=_run(_cmd_list(mode)))
