"""`kglens consistency ...` (KONTEST) and `kglens facteval ...` (LLM-facteval), headless."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable

from kglens_tui.cli.compare import add_compare_commands
from kglens_tui.cli.run import add_mode_run_options
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import INTERRUPTED_EXIT, console, print_error, print_wrote
from kglens_tui.core.figure_files import add_figure_options, figure_folder, write_figure_files
from kglens_tui.core.safetext import LiteralTable, markup_literal
from kglens_tui.core.table_options import add_table_options
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import LLMError
from kglens_tui.modes.config import FACTEVAL, KONTEST
from kglens_tui.modes.facteval.compare import load_per_relation
from kglens_tui.modes.kontest.compare import ensemble_renderables
from kglens_tui.modes.kontest.plan import transitive_candidates
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.panel_rich import panel_renderables
from kglens_tui.runs.record import load_run, mode_runs
from kglens_tui.runs.registry import get_mode
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import simulated_mark

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]


def print_report(conn: sqlite3.Connection, run_id: int, mode: str, latest: int = 15) -> None:
    """A run's report as its mode declares it (`Mode.report_panels`); LookupError for no run
    ``run_id`` of ``mode``."""
    for renderable in panel_renderables(get_mode(mode).report_panels(conn, run_id, latest)):
        console.print(renderable)


def cmd_consistency_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    print_report(conn, args.run, KONTEST, args.findings)
    return 0


def cmd_facteval_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    figures = figure_folder(args)  # refused before any work
    print_report(conn, args.run, FACTEVAL)
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
        except (ConfigError, ValueError, LookupError, LLMError) as exc:
            print_error(exc)
            return 2
        except KeyboardInterrupt:
            return INTERRUPTED_EXIT
        finally:
            conn.close()

    return run


def add_mode_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add `consistency` and `facteval` and their subcommands to the top-level parser."""
    kon = sub.add_parser("consistency", help="KONTEST consistency testing: run, report, ensemble")
    kon_sub = kon.add_subparsers(dest="consistency_command", metavar="CONSISTENCY", required=True)
    p = kon_sub.add_parser(
        "run", help="paraphrase pairs atomic and sequential; transitivity along paths"
    )
    add_mode_run_options(p, KONTEST, limit="relations")
    p.add_argument("--relations", help="KG edges to test (seeded sample) or 'all' (default 100)")
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
    add_mode_run_options(p, FACTEVAL, limit="facts")
    p.add_argument("--facts", help="KG edges to ask about (seeded) or 'all' (default 100)")
    p = fe_sub.add_parser("report", help="precision, recall, F1 per type, format and context")
    p.add_argument("run", type=int)
    add_table_options(p)
    add_figure_options(p, "F1 per relation with its interval and chance")
    p.set_defaults(func=_run(cmd_facteval_report))
    p = fe_sub.add_parser("list", help="every facteval run")
    p.set_defaults(func=_run(_cmd_list(FACTEVAL)))
    add_compare_commands(kon_sub, fe_sub, _run)
