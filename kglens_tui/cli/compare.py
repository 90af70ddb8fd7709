"""`kglens consistency compare` and `kglens facteval compare`: analyses across runs."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable

from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import console, print_wrote
from kglens_tui.core.figure_files import add_figure_options, figure_folder, write_figure_files
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.core.table_options import add_table_options
from kglens_tui.modes.facteval.compare import facteval_compare_renderables, load_run_scores
from kglens_tui.modes.kontest.compare import load_overlap, overlap_renderables

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]


def cmd_consistency_compare(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    figures = figure_folder(args)  # refused before any work
    runs, overlap = load_overlap(conn, args.runs)
    for table in overlap_renderables(runs, overlap):
        console.print(table)
    if not overlap.relations:
        return 0
    if figures is not None:
        from kglens_tui.modes.kontest.figures import overlap_figure

        made = {"errors": overlap_figure((runs, overlap))}
        prefix = "runs-" + "-".join(str(r.id) for r in runs)
        for path in write_figure_files(made, figures[0], prefix, figures[1]):
            print_wrote(path)
    console.print(
        "An error: one inconsistent metamorphic test (atomic or sequential, five per relation), "
        "of the run's valid tests; only relations every run answered completely are compared."
    )
    return 0


def cmd_facteval_compare(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
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


def add_compare_commands(
    kon_sub: argparse._SubParsersAction[ArgumentParser],
    fe_sub: argparse._SubParsersAction[ArgumentParser],
    wrap: Callable[[Command], Callable[[argparse.Namespace], int]],
) -> None:
    """Add the two `compare` subcommands; ``wrap`` opens the workspace and reports errors."""
    p = kon_sub.add_parser(
        "compare", help="consistency errors shared across runs (Fig. 4); stability of one model"
    )
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    add_table_options(p)
    add_figure_options(p, "Fig. 4 (each run's errors, and errors shared by k runs)")
    p.set_defaults(func=wrap(cmd_consistency_compare))
    p = fe_sub.add_parser("compare", help="F1 per KG x model x question type x context (Table 2)")
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    add_table_options(p)
    p.set_defaults(func=wrap(cmd_facteval_compare))
