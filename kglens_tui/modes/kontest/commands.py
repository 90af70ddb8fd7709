"""`kglens consistency ...`: KONTEST's commands (`KontestMode.command_group`): its report, the
errors its runs share (Fig. 4), the weighted ensemble (Table 5) and the predicates with paths
its ontological oracle checks."""

from __future__ import annotations

import argparse
import sqlite3

from kglens_tui.core.console import console, print_wrote
from kglens_tui.core.figure_files import add_figure_options, figure_folder, write_figure_files
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.core.table_options import add_table_options
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.modes.config import KONTEST
from kglens_tui.modes.kontest.compare import ensemble_renderables, load_overlap, overlap_renderables
from kglens_tui.modes.kontest.plan import transitive_candidates
from kglens_tui.runs.commands import CommandGroup, ModeCommand
from kglens_tui.runs.panel_rich import print_panels
from kglens_tui.runs.registry import get_mode


def _report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    print_panels(get_mode(KONTEST).report_panels(conn, args.run, args.findings))
    return 0


def _report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", type=int)
    p.add_argument("--findings", type=int, default=15, help="inconsistencies to list")
    add_table_options(p)


def _compare(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
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


def _compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=int, nargs="+", metavar="RUN")
    add_table_options(p)
    add_figure_options(p, "Fig. 4 (each run's errors, and errors shared by k runs)")


def _ensemble(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    for renderable in ensemble_renderables(
        conn, args.runs, args.template3 or [], folds=args.folds, seed=args.seed
    ):
        console.print(renderable)
    return 0


def _ensemble_arguments(p: argparse.ArgumentParser) -> None:
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


def _paths(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
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


def _paths_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kg", default="country")


GROUP = CommandGroup(
    "consistency",
    "KONTEST consistency testing: run, report, ensemble",
    "paraphrase pairs atomic and sequential; transitivity along paths",
    "relations",
    "KG edges to test (seeded sample) or 'all' (default 100)",
    (
        ModeCommand(
            "report",
            "oracle errors (Table 3), coverage and gap (Table 4)",
            _report,
            _report_arguments,
        ),
        ModeCommand(
            "ensemble",
            "weighted ensemble vs majority vote over several runs (Table 5)",
            _ensemble,
            _ensemble_arguments,
        ),
        ModeCommand("paths", "predicates of a KG with paths A -> B -> C", _paths, _paths_arguments),
        ModeCommand(
            "compare",
            "consistency errors shared across runs (Fig. 4); stability of one model",
            _compare,
            _compare_arguments,
        ),
    ),
)
"""`kglens consistency ...`."""
