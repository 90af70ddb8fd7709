"""`kglens kg rm`, `kglens kg rename` and `kglens runs rm`: delete a KG or runs with everything
that refers to them (after a confirmation), or rename a KG. Names are shown literally."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Callable

from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import console, err_console, print_error
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import markup_literal, visible
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.names import KGNameError
from kglens_tui.runs.record import RunBusyError
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import counted
from kglens_tui.workspace.remove import (
    Deletion,
    DeletionChangedError,
    KGNameTakenError,
    KGRenameRefusedError,
    check_not_live,
    delete,
    plan_kg_deletion,
    plan_runs_deletion,
    rename_kg,
)

REFUSALS = (
    LookupError,
    RunBusyError,
    DeletionChangedError,
    KGNameError,
    KGNameTakenError,
    KGRenameRefusedError,
)
RUNS_SHOWN = 8
"""Runs named one by one in a confirmation; the rest are counted."""


class NotConfirmed(KGLensError):
    """No terminal to ask on and no --yes."""


def _q(name: str) -> str:
    """A name quoted for a markup line, shown literally."""
    return f"'{markup_literal(name, one_line=True)}'"


def describe(plan: Deletion) -> str:
    """What a deletion removes, as one markup line (names escaped)."""
    if plan.kg_id is not None:
        head = (
            f"KG {_q(plan.kg_name)} ({counted(plan.entities, 'entity', 'entities')}, "
            f"{counted(plan.edges, 'edge', 'edges')})"
        )
    else:
        shown = [f"run {r.id} ({r.mode} on KG {_q(r.kg)}, {r.status})" for r in plan.runs]
        if len(shown) > RUNS_SHOWN:
            shown = [*shown[:RUNS_SHOWN], f"{len(shown) - RUNS_SHOWN:,} more runs"]
        head = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
    parts = []
    if plan.kg_id is not None and plan.runs:
        parts.append(counted(len(plan.runs), "run", "runs"))
    parts += [
        counted(n, one, many)
        for n, one, many in (
            (plan.observations, "observation", "observations"),
            (plan.mode_answers, "KONTEST/fact-eval answer", "KONTEST/fact-eval answers"),
            (plan.triage, "triage entry", "triage entries"),
        )
        if n
    ]
    if plan.rounds:
        rounds = ", ".join(
            f"{_q(r.name)}: {counted(r.items, 'item', 'items')}, {counted(r.labels, 'label', 'labels')}"
            for r in plan.rounds
        )
        parts.append(
            f"{counted(len(plan.rounds), 'annotation round', 'annotation rounds')} ({rounds})"
        )
    if not parts:
        return head
    return f"{head} with {', '.join(parts[:-1])}{' and ' if len(parts) > 1 else ''}{parts[-1]}"


def _confirm(what: str, assume_yes: bool) -> bool:
    """True to go ahead: --yes, or 'y' typed at the prompt. NotConfirmed without a terminal."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        raise NotConfirmed(f"not deleting {what}: no terminal to confirm on; pass --yes")
    err_console.print(f"delete {what}? \\[y/N] ", end="", soft_wrap=True)
    return sys.stdin.readline().strip().lower() in ("y", "yes")


def _remove(args: argparse.Namespace, plan_of: Callable[[sqlite3.Connection], Deletion]) -> int:
    conn = connect(args.db or default_db_path())
    try:
        plan = plan_of(conn)
        check_not_live(plan)
        what = describe(plan)
        if not _confirm(what, args.yes):
            err_console.print("nothing deleted")
            return 1
        delete(conn, plan)
    except NotConfirmed as exc:
        err_console.print(f"[red]error:[/] {exc}", soft_wrap=True)
        return 2
    except REFUSALS as exc:
        print_error(visible(exc, one_line=True))
        return 2
    finally:
        conn.close()
    note = ""
    if plan.kg_id is not None and plan.kg_name in bundled_names():
        note = " (a bundled KG: it is imported again when next used)"
    console.print(f"deleted {what}{note}", soft_wrap=True)
    return 0


def cmd_kg_rm(args: argparse.Namespace) -> int:
    return _remove(args, lambda conn: plan_kg_deletion(conn, args.name))


def cmd_runs_rm(args: argparse.Namespace) -> int:
    return _remove(args, lambda conn: plan_runs_deletion(conn, args.runs))


def cmd_kg_rename(args: argparse.Namespace) -> int:
    conn = connect(args.db or default_db_path())
    try:
        rename_kg(conn, args.old, args.new)
    except REFUSALS as exc:
        print_error(visible(exc, one_line=True))
        return 2
    finally:
        conn.close()
    console.print(f"renamed KG {_q(args.old)} to {_q(args.new)}", soft_wrap=True)
    return 0


def _yes(p: argparse.ArgumentParser) -> None:
    p.add_argument("-y", "--yes", action="store_true", help="delete without asking")


def add_kg_commands(kg_sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add `rm` and `rename` to `kglens kg`."""
    p = kg_sub.add_parser(
        "rm", help="delete a KG with its runs, triage and the annotation rounds drawn from it"
    )
    p.add_argument("name")
    _yes(p)
    p.set_defaults(func=cmd_kg_rm)
    p = kg_sub.add_parser("rename", help="rename a KG (its runs and annotations follow)")
    p.add_argument("old")
    p.add_argument("new")
    p.set_defaults(func=cmd_kg_rename)


def add_runs_commands(runs: argparse.ArgumentParser) -> None:
    """Add `rm` under `kglens runs` (which still lists runs on its own)."""
    sub = runs.add_subparsers(dest="runs_command", metavar="RUNS_COMMAND")
    p = sub.add_parser(
        "rm",
        help="delete runs with their results, triage and the annotation rounds drawn from them",
    )
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    _yes(p)
    p.set_defaults(func=cmd_runs_rm)
