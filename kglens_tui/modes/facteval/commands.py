"""`kglens facteval ...`: LLM-facteval's commands (`FactevalMode.command_group`): its report
(with F1 per relation as figure files) and F1 per model side by side (Table 2)."""

from __future__ import annotations

import argparse
import sqlite3

from kglens_tui.core.console import console, print_wrote
from kglens_tui.core.figure_files import add_figure_options, figure_folder, write_figure_files
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.core.table_options import add_table_options
from kglens_tui.modes.config import FACTEVAL
from kglens_tui.modes.facteval.compare import (
    facteval_compare_renderables,
    load_per_relation,
    load_run_scores,
)
from kglens_tui.runs.commands import CommandGroup, ModeCommand
from kglens_tui.runs.panel_rich import print_panels
from kglens_tui.runs.record import load_run
from kglens_tui.runs.registry import get_mode


def _report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    figures = figure_folder(args)  # refused before any work
    print_panels(get_mode(FACTEVAL).report_panels(conn, args.run))
    if figures is not None:
        from kglens_tui.modes.facteval.figures import relation_figure

        run = load_run(conn, args.run, FACTEVAL)
        made = {"relations": relation_figure((run, load_per_relation(conn, args.run)))}
        for path in write_figure_files(made, figures[0], f"run-{args.run}", figures[1]):
            print_wrote(path)
    return 0


def _report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", type=int)
    add_table_options(p)
    add_figure_options(p, "F1 per relation with its interval and chance")


def _compare(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    if len(set(args.runs)) != len(args.runs):
        raise ValueError("each run may be named once")
    shown = facteval_compare_renderables(load_run_scores(conn, args.runs))
    for renderable in shown:
        console.print(renderable)
    if not any(isinstance(r, LiteralTable) for r in shown):
        return 0
    console.print(
        "Precision is over non-abstained answers, recall over all answered questions; failed "
        "requests are left out."
    )
    return 0


def _compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    add_table_options(p)


GROUP = CommandGroup(
    "facteval",
    "LLM-facteval TFQ / MCQ / SAQ with abstention",
    "ask TFQ / MCQ / SAQ, optionally with injected contexts",
    "facts",
    "KG edges to ask about (seeded) or 'all' (default 100)",
    (
        ModeCommand(
            "report",
            "precision, recall, F1 per type, format and context",
            _report,
            _report_arguments,
        ),
        ModeCommand(
            "compare",
            "F1 per KG x model x question type x context (Table 2)",
            _compare,
            _compare_arguments,
        ),
    ),
)
"""`kglens facteval ...`."""
