"""`kglens` entry point: no arguments opens the TUI; subcommands run headless."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from kglens_tui import __version__
from kglens_tui.cli.run import add_mode_run_options, lock_notice
from kglens_tui.core.argparser import ArgumentParser, NamedCommands
from kglens_tui.core.console import (
    INTERRUPTED_EXIT,
    console,
    err_console,
    name_workspace,
    print_error,
    print_warning,
    suggested,
)
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.interrupt import terminate_as_interrupt
from kglens_tui.core.safetext import LiteralTable, literal, markup_literal, visible
from kglens_tui.core.safewrite import ExportError
from kglens_tui.core.table_options import add_table_options
from kglens_tui.kg.bundled import ensure_kg, kg_exists
from kglens_tui.kg.bundled_data import (
    bundled_meta,
    bundled_names,
    bundled_source,
    check_not_bundled,
)
from kglens_tui.kg.importers import import_kg
from kglens_tui.kg.names import check_kg_name
from kglens_tui.kg.stats import entity_view, find_entity, kg_stats, kg_summaries
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.fields import (
    add_config_arguments,
    config_from_args,
    given_fields,
)
from kglens_tui.runs.given_settings import (
    check_setting_names,
    settings_config,
    settings_problems,
    unread_variables,
)
from kglens_tui.runs.record import KGLENS, mode_of
from kglens_tui.runs.registry import (
    find_mode,
    get_mode,
    mode_label,
    mode_names,
    stores_observations,
)
from kglens_tui.settings import Settings, SettingsError, load_settings
from kglens_tui.store.connection import DB_ENV, WorkspaceConnection, connect, default_db_path
from kglens_tui.textfmt import counted, num
from kglens_tui.textfmt import pct as _pct

if TYPE_CHECKING:
    from kglens_tui.analysis.prompt_order import PromptOrderStudy


class CLIError(KGLensError):
    """A user-facing error: printed as one line, exit code 2."""


_opened: list[WorkspaceConnection] = []
"""The connections `_open` gave the command that runs: `main` closes them when it returns (a
connection is in a reference cycle with its statement cache, so only the garbage collector
would close it, and its WAL file stays until then)."""


def _open(args: argparse.Namespace, *, read_only: bool = False) -> WorkspaceConnection:
    """The command's workspace connection; ``read_only`` for a command that only reads it."""
    conn = connect(args.db or default_db_path(), lock_notice=lock_notice, read_only=read_only)
    _opened.append(conn)
    return conn


def _kg_id(conn: sqlite3.Connection, name: str) -> int:
    ensure_kg(conn, name)
    row = conn.execute("SELECT id FROM kg WHERE name = ?", (name,)).fetchone()
    if row is None:
        known = [r[0] for r in conn.execute("SELECT name FROM kg ORDER BY name")]
        names = sorted(set(known) | set(bundled_names()))
        raise CLIError(f"no KG named '{name}' (known: {', '.join(names) or 'none'})")
    return int(row[0])


def cmd_kg_list(args: argparse.Namespace) -> int:
    """The workspace's KGs and the bundled ones; a workspace that does not exist yet is not
    made (a mistyped --db leaves nothing behind): the bundled KGs are listed alone."""
    db = Path(args.db or default_db_path())
    table = LiteralTable(title="Knowledge graphs", title_justify="left")
    for col in ("name", "entities", "edges", "source", "snapshot", "in workspace"):
        table.add_column(col, justify="right" if col in ("entities", "edges") else "left")
    if db.exists():
        summaries = kg_summaries(_open(args, read_only=True))
    else:
        summaries = []
        err_console.print(f"No workspace at {markup_literal(db)} yet.", soft_wrap=True)
    present = {k.name for k in summaries}
    for k in summaries:
        table.add_row(k.name, f"{k.entities:,}", f"{k.edges:,}", k.source, k.snapshot_date, "yes")
    for name in bundled_names():
        if name not in present:
            meta = bundled_meta(name)
            table.add_row(
                name, "", "", bundled_source(name), meta.get("snapshot_date", ""), "on first use"
            )
    console.print(table)
    return 0


def _progress_bar(label: str) -> tuple[Progress, Callable[[int, int], None]]:
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    task = bar.add_task(markup_literal(label, one_line=True), total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


def cmd_kg_import(args: argparse.Namespace) -> int:
    conn = _open(args)
    path = Path(args.path)
    name = check_kg_name(args.name or path.stem)
    check_not_bundled(name, source=str(path))
    if kg_exists(conn, name) and not args.replace:
        raise CLIError(f"a KG named '{name}' already exists (use --replace to overwrite)")
    bar, update = _progress_bar(f"importing {path.name}")
    with bar:
        report = import_kg(
            conn,
            path,
            name,
            entities=Path(args.entities) if args.entities else None,
            replace=args.replace,
            progress=update,
        )
    for warning in report.warnings:
        err_console.print(f"[yellow]warning:[/] {markup_literal(warning)}", soft_wrap=True)
    console.print(markup_literal(report.summary()), soft_wrap=True)
    return 0


def _open_kg(args: argparse.Namespace) -> WorkspaceConnection:
    """The workspace for a command that reads one KG (`kg stats`, `kg show`); where the workspace
    does not exist yet and the KG is a bundled one, the bundled KG in memory (no workspace is
    made: a mistyped --db leaves nothing behind), said in one line."""
    db = Path(args.db or default_db_path())
    if db.exists() or args.name not in bundled_names():
        return _open(args)
    err_console.print(
        f"No workspace at {markup_literal(db)} yet: the bundled KG '{markup_literal(args.name)}' "
        "as a first run would import it.",
        soft_wrap=True,
    )
    return connect(":memory:")


def cmd_kg_stats(args: argparse.Namespace) -> int:
    conn = _open_kg(args)
    st = kg_stats(conn, _kg_id(conn, args.name))
    head = LiteralTable(title=f"KG '{st.name}'", title_justify="left", show_header=False)
    head.add_column("what")
    head.add_column("count", justify="right")
    for what, value in (
        ("entities", st.entities),
        ("nodes (entities in an edge)", st.nodes),
        ("active edges", st.active_edges),
        ("dead edges", st.dead_edges),
        ("predicates (active)", f"{st.predicates} ({st.active_predicates})"),
        ("edges with a date", st.dated_edges),
        ("multi-valued (subject, predicate) pairs", f"{st.multi_valued_share:.1%}"),
    ):
        head.add_row(what, f"{value:,}" if isinstance(value, int) else value)
    for t, n in st.subject_types.items():
        head.add_row(f"subjects of type '{t or '-'}'", f"{n:,}")
    for s, n in st.subsets.items():
        head.add_row(f"subset '{s}'", counted(n, "entity", "entities"))
    console.print(head)
    per = LiteralTable(title="Per predicate", title_justify="left")
    for col in ("predicate", "key", "status", "edges", "subjects", "multi-valued", "objects"):
        per.add_column(col, justify="left" if col in ("predicate", "key", "status") else "right")
    for ps in st.per_predicate:
        share = ps.multi_valued_subjects / ps.subjects if ps.subjects else 0.0
        per.add_row(
            ps.label,
            ps.key,
            "active" if ps.active else Text("dead", "dim"),
            f"{ps.edges:,}",
            f"{ps.subjects:,}",
            f"{share:.0%}",
            f"{ps.objects:,}",
        )
    console.print(per)
    return 0


def cmd_kg_show(args: argparse.Namespace) -> int:
    conn = _open_kg(args)
    kg_id = _kg_id(conn, args.name)
    matches = find_entity(conn, kg_id, args.entity)
    if not matches:
        raise CLIError(
            f"no entity '{args.entity}' in KG '{args.name}' (try its key, label or an alias)"
        )
    if len(matches) > 1:
        keys = ", ".join(m["key"] for m in matches[:10])
        raise CLIError(
            f"'{args.entity}' matches {counted(len(matches), 'entity', 'entities')}: {keys}; use a key"
        )
    view = entity_view(conn, matches[0]["id"])
    console.print(
        f"[bold]{markup_literal(view.label)}[/]  "
        f"[dim]{markup_literal(view.key)} · {markup_literal(view.type)}[/]"
    )
    if view.aliases:
        console.print(f"also known as: {markup_literal(', '.join(view.aliases))}")
    if view.groups:
        console.print(f"groups: {markup_literal(', '.join(view.groups))}")
    if view.description:
        console.print(markup_literal(view.description))
    table = LiteralTable(show_lines=False)
    for col in ("", "predicate", "entity", "key", "dates"):
        table.add_column(col)
    for e in view.edges:
        arrow = "→" if e.direction == "out" else "←"
        pred = e.predicate if e.active else literal(f"{e.predicate} (dead)", "dim", one_line=True)
        table.add_row(
            arrow, pred, e.other_label, literal(e.other_key, "dim", one_line=True), e.dates
        )
    console.print(table)
    return 0


def cmd_kg_build_wikidata(args: argparse.Namespace) -> int:
    from kglens_tui.cli import wikidata as wd
    from kglens_tui.kg.wikidata import WikidataError, build_wikidata

    conn = _open(args)
    check_not_bundled(check_kg_name(args.name), source="")
    if kg_exists(conn, args.name) and not args.replace:
        raise CLIError(f"a KG named '{args.name}' already exists (use --replace to overwrite)")
    try:
        config = wd.walk_config(args)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    cache = wd.cache_dir(args)
    notice = wd.contact_notice(args)
    if notice:
        err_console.print(f"[yellow]note:[/] {markup_literal(notice)}")
    bar, update, on_wait = wd.progress_display()
    client = wd.sparql_client(args, cache, on_wait)
    resume = f"nothing imported; finished queries are cached in {cache}: rerun to resume"
    with bar:
        try:
            report = build_wikidata(
                conn,
                args.name,
                config,
                client,
                replace=args.replace,
                progress=update,
                cache_dir=cache,
            )
        except WikidataError as exc:
            raise CLIError(f"{exc}; {resume}") from exc
        except KeyboardInterrupt:
            err_console.print(f"interrupted: {markup_literal(resume)}")
            return INTERRUPTED_EXIT
    wd.print_report(report)
    return 0


PROBE_TIP = "tip: `kglens probe` always runs headless; `kglens` shows a run live (--no-tui: no tip)"
"""What `kglens probe` says on a terminal, where a live screen might be expected."""


def cmd_probe(args: argparse.Namespace) -> int:
    """`kglens probe`: the run driver for a KGLens run, with a tip on a terminal."""
    from kglens_tui.cli.run import cmd_mode_run

    if not args.no_tui and sys.stdout.isatty() and args.resume is None:
        err_console.print(f"[dim]{PROBE_TIP}[/]", soft_wrap=True)
    return cmd_mode_run(args)


def _runs_layout(
    rows: list[tuple[str, ...]], heads: dict[str, str], headed: str = ""
) -> tuple[list[str], list[tuple[str, ...]]]:
    """`runs_table` of ``rows`` (each starting with its run id) in the console's width, with the
    ``heads`` (`Headline.lines` by run id) of runs whose modes give a headline (KONTEST,
    fact-eval), named ``headed`` ("KONTEST / fact-eval"): in a column of their own after the
    rates when every column fits unwrapped, else in the rates column (under the settings when
    they share it)."""
    from kglens_tui.analysis.report import RUN_COLUMNS, runs_table, table_width

    width = console.width
    if heads:
        at = RUN_COLUMNS.index("all-sense") + 1
        wide = [*RUN_COLUMNS[:at], headed, *RUN_COLUMNS[at:]]
        wide_rows = [(*row[:at], heads.get(row[0], ""), *row[at:]) for row in rows]
        if table_width(wide, wide_rows) <= width:
            return wide, wide_rows
        width = min(width, table_width(list(RUN_COLUMNS), rows) - 1)
    columns, shown = runs_table(rows, width)
    if "rates" in columns:
        at = columns.index("rates")
        return columns, [(*row[:at], heads.get(row[0], row[at]), *row[at + 1 :]) for row in shown]
    if "settings, rates" in columns:  # the settings' line stays over a headline
        at = columns.index("settings, rates")
        return columns, [
            (
                *row[:at],
                _over(row[at].partition("\n")[0], heads.get(row[0])) or row[at],
                *row[at + 1 :],
            )
            for row in shown
        ]
    return columns, shown


def _over(first: str, head: str | None) -> str | None:
    """``head`` under the line ``first`` (None without a head)."""
    return None if head is None else f"{first}\n{head}" if first else head


def cmd_runs(args: argparse.Namespace) -> int:
    from kglens_tui.analysis.report import (
        RATES_NOTE,
        RUN_COLUMNS,
        RUNS_CHANCE_NOTE,
        run_figures,
        run_rows,
        with_chances,
    )
    from kglens_tui.modes.kglens.rate_text import capped_note

    db = Path(args.db or default_db_path())
    if not db.exists():  # a mistyped --db lists nothing and leaves no empty workspace behind
        console.print(f"No runs: no workspace at {markup_literal(db)} yet.", soft_wrap=True)
        return 0
    conn = _open(args, read_only=True)
    listed = run_rows(conn)
    heads: dict[str, str] = {}
    headed_names: set[str] = set()
    for run_id, mode in conn.execute("SELECT id, mode FROM run"):
        declared = find_mode(mode)
        head = declared.headline(conn, run_id) if declared is not None else None
        if head is not None:
            heads[str(run_id)] = head.lines
            headed_names.add(mode)
    headed = [get_mode(name) for name in mode_names() if name in headed_names]
    figures = run_figures(conn, listed, senses=True)
    chances = {run_id: f.chance for run_id, f in figures.items()}
    kg_wide = {run_id: f.kg_wide for run_id, f in figures.items()}
    senses = {run_id: f.senses for run_id, f in figures.items()}
    columns, rows = _runs_layout(
        with_chances(listed, chances, kg_wide, senses),
        heads,
        " / ".join(m.label for m in headed),
    )
    table = LiteralTable(title="Runs", title_justify="left")
    for col in columns:
        table.add_column(
            col,
            justify="right" if col in ("run", "iterations", "requests", "examined") else "left",
            no_wrap=col not in ("KG", "status", "target", "settings"),
            overflow="fold" if col == "KG" else "ellipsis",
        )
    for row in rows:
        table.add_row(*(literal(cell) for cell in row))
    console.print(table)
    if any(row[RUN_COLUMNS.index("win")] != "—" for row in listed):
        console.print(f"{RATES_NOTE} {RUNS_CHANCE_NOTE}", style="dim", markup=False)
    capped = capped_note(
        [w.rate for w in kg_wide.values() if w is not None]
        + [two.rate for by in senses.values() for two in by.values() if two is not None]
    )
    if capped:
        console.print(f"{capped}.", style="dim", markup=False)
    notes = [m.headline_note for m in headed if m.headline_note]
    if notes:
        console.print("; ".join(notes) + ".", style="dim", markup=False)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from kglens_tui.analysis.report_render import render_report

    conn = _open(args, read_only=True)
    mode = mode_of(conn, args.run)
    declared = find_mode(mode) if mode is not None else None
    try:
        if declared is not None and not declared.observations:
            from kglens_tui.runs.panel_rich import print_panels

            print_panels(declared.report_panels(conn, args.run))
            return 0
        render_report(conn, args.run, console)
    except LookupError as exc:
        raise CLIError(str(exc)) from exc
    return 0


SEARCH_TEXT_LIMIT = 400
"""Characters of a question or reply `kglens search` shows (a reply of a megabyte would fill
the terminal; `kglens review RUN --edge E` shows the edge's replies)."""


def cmd_search(args: argparse.Namespace) -> int:
    from kglens_tui.analysis.search import SearchError, search

    conn = _open(args, read_only=True)
    if args.run is not None:
        mode = mode_of(conn, args.run)
        if mode is None:
            raise CLIError(f"no run {args.run} (`{suggested('runs')}` lists them)")
        if not stores_observations(mode):
            raise CLIError(
                f"run {args.run} is a {mode_label(mode)} run: search covers the questions and "
                "replies of KGLens runs (its report lists what it asked)"
            )
    try:
        hits = search(conn, args.query, args.run, args.limit)
    except SearchError as exc:
        raise CLIError(str(exc)) from exc
    where = f" in run {args.run}" if args.run is not None else ""
    if not hits:
        console.print(literal(f"no question or reply{where} contains {args.query!r}"))
        return 0
    table = LiteralTable(
        title=f"{len(hits):,} questions and replies{where} matching {args.query!r}, best first"
        + (f" (the first {args.limit}; --limit shows more)" if len(hits) == args.limit else ""),
        title_justify="left",
    )
    table.add_column("run", justify="right", no_wrap=True)
    table.add_column("it.", justify="right", no_wrap=True)
    # the fact on three lines (subject, predicate, object), so the subject keeps its whole
    # name at 80 columns; words too long for a column break rather than end in "…"
    table.add_column("fact", overflow="fold", ratio=3)
    table.add_column("verdict", no_wrap=True, min_width=max(len(h.category) for h in hits))
    table.add_column("question", overflow="fold", ratio=4)
    table.add_column("reply", overflow="fold", ratio=3)
    for h in hits:
        fact = Text("\n").join(
            [
                literal(h.subject, "bold", one_line=True),
                literal(h.predicate, one_line=True),
                literal(f"→ {h.object}", one_line=True),
            ]
        )
        question = literal(visible(h.question, one_line=True, limit=SEARCH_TEXT_LIMIT))
        reply = literal(visible(h.reply, one_line=True, limit=SEARCH_TEXT_LIMIT))
        table.add_row(str(h.run_id), str(h.iteration), fact, h.category, question, reply)
    console.print(table)
    return 0


def cmd_study_prompt_order(args: argparse.Namespace) -> int:
    import asyncio

    from kglens_tui.analysis.prompt_order import (
        order_test,
        run_prompt_order_study,
        study_questions,
    )
    from kglens_tui.kg.graph import load_kg
    from kglens_tui.runs.clients import target_client

    conn = _open(args)
    # the run options it shares with a run: flags, else the settings file and KGLENS_* variables
    config = config_from_args(
        settings_config("kglens", overridden=given_fields(RunConfig, args)), args
    ).validate()
    ensure_kg(conn, config.kg)
    kg = load_kg(conn, config.kg)
    questions = study_questions(conn, kg, config.subset, args.questions, config.seed)
    client = target_client(config, kg, [q.edge_id for q in questions])
    err_console.print(
        f"asking {len(questions)} Yes/No questions three times ({markup_literal(client.label)})…"
    )

    async def go() -> PromptOrderStudy:
        try:
            return await run_prompt_order_study(client, questions, config.seed)
        finally:
            await client.aclose()

    study = asyncio.run(go())
    table = LiteralTable(
        title="Few-shot example order: how much the scores move", title_justify="left"
    )
    for col in ("order", "accuracy", "yes-rate", "balanced acc.", "kappa", "errors"):
        table.add_column(col, justify="left" if col == "order" else "right")
    for r in study.results:
        b = r.bias
        table.add_row(
            r.order,
            b.accuracy.text(),
            _pct(b.yes_rate.value),
            num(b.balanced_accuracy),
            num(b.kappa),
            str(r.errors),
        )
    console.print(table)
    test = order_test(study, config.seed)
    if test is None:
        console.print("no question answered under every order: nothing to compare")
        return 0

    def verdict(p: float) -> str:
        return "the order matters" if p < 0.05 else "no significant effect of the order"

    console.print(
        f"On the {test.paired:,} questions every order answered: accuracy spread "
        f"{test.spread * 100:.1f} points [95% bootstrap interval {test.spread_low * 100:.1f}–"
        f"{test.spread_high * 100:.1f}]; Cochran's Q of accuracy = {test.q:.2f}, p = "
        f"{test.p_value:.3g} ({verdict(test.p_value)} at 5%); of the yes-rate = "
        f"{test.yes_q:.2f}, p = {test.yes_p_value:.3g} ({verdict(test.yes_p_value)}). The "
        "spread of three accuracies is above 0 even when the order does not matter; the tests "
        "say whether it does.",
        soft_wrap=True,
        markup=False,
    )
    return 0


def cmd_bench_ui(args: argparse.Namespace) -> int:
    from kglens_tui.tui.bench_ui import run_ui_bench

    if args.load < 0:
        raise CLIError("--load must be 0 or more")
    run_ui_bench(args.presses, console, load=args.load)
    return 0


def cmd_bench_curves(args: argparse.Namespace) -> int:
    from kglens_tui.bench.sampling_csv import CurvesFileError, read_curves

    try:
        study = read_curves(Path(args.file))
    except CurvesFileError as exc:
        raise CLIError(str(exc)) from exc
    from kglens_tui.tui.curves_ui import CurvesApp

    CurvesApp(study).run()
    return 0


def cmd_bench_import(args: argparse.Namespace) -> int:
    from kglens_tui.bench.import_bench import run_import_bench

    run_import_bench(args.triples, args.entities, console)
    return 0


def cmd_bench_engine(args: argparse.Namespace) -> int:
    from kglens_tui.bench.engine_bench import check_counts, parse_sizes, run_engine_bench

    try:
        sizes = parse_sizes(args.sizes)
        check_counts(args.iterations, args.throughput_iterations, args.long_iterations)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    run_engine_bench(
        console,
        sizes=sizes,
        iterations=args.iterations,
        warmup=args.warmup,
        latency_ms=args.latency_ms,
        concurrency=args.concurrency,
        throughput_iterations=args.throughput_iterations,
        long_iterations=args.long_iterations,
    )
    return 0


def cmd_bench_verifier(args: argparse.Namespace) -> int:
    from kglens_tui.bench.verifier_bench import DEFAULT_DATA, BenchDataError, run_verifier_bench

    try:
        run_verifier_bench(
            console, Path(args.data) if args.data else DEFAULT_DATA, show_misses=args.misses
        )
    except BenchDataError as exc:
        raise CLIError(str(exc)) from exc
    return 0


def cmd_bench_sampling(args: argparse.Namespace) -> int:
    from kglens_tui.bench.sampling_bench import run_sampling_bench

    try:
        run_sampling_bench(
            _open(args),
            kg=args.kg,
            subset=args.subset,
            ground_truth=args.ground_truth,
            predicates=args.predicates,
            settings=args.settings,
            continuous="" if args.no_continuous else args.continuous,
            shuffle=args.shuffle_truth,
            methods=args.methods,
            budget_epochs=args.budget_epochs,
            reference_epochs=args.reference_epochs,
            batch_size=args.batch_size,
            seeds=args.seeds,
            ks=args.k,
            csv_path=Path(args.csv) if args.csv else None,
            plot_path=Path(args.plot) if args.plot else None,
            throughput=not args.no_throughput,
            throughput_iterations=args.throughput_iterations,
            force=args.force,
        )
    except (ValueError, LookupError, ExportError) as exc:
        raise CLIError(str(exc)) from exc
    return 0


def _add_rates_bench(bench_sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    from kglens_tui.bench.rates_defaults import FRONTIER, METHODS, SETTINGS
    from kglens_tui.modes.kglens.design import DEFAULT_FLOOR

    p = bench_sub.add_parser(
        "rates",
        help="KG-wide rates under adaptive sampling: bias, coverage and width against a known "
        "truth, per sampler, and the rolling floor's frontier",
    )
    p.add_argument("--kg", default="country")
    p.add_argument(
        "--subset", default="paper16", help="named subset of subjects ('' for the whole KG)"
    )
    p.add_argument(
        "--ground-truth", default="sim", help="sim[:SEED], run:ID (a brute-force run) or csv:PATH"
    )
    p.add_argument("--predicates", metavar="P1,P2,...", help="keep these predicates' edges only")
    p.add_argument("--settings", default=SETTINGS, help="truth settings, as in bench sampling")
    p.add_argument("--methods", default=METHODS, help="comma list of method names, or all")
    p.add_argument(
        "--floor",
        type=float,
        default=DEFAULT_FLOOR,
        help="the rolling-census floor of every method",
    )
    p.add_argument("--floors", default=FRONTIER, help="floors of the default method's frontier")
    p.add_argument("--replays", type=int, default=200, help="replayed runs per method and truth")
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--k", type=int, default=25, help="blind spots the G@k share looks for")
    p.set_defaults(func=cmd_bench_rates)


def cmd_bench_rates(args: argparse.Namespace) -> int:
    from kglens_tui.bench.rates_bench import run_rates_bench

    try:
        run_rates_bench(
            _open(args),
            console,
            kg=args.kg,
            subset=args.subset or None,
            ground_truth=args.ground_truth,
            predicates=args.predicates,
            settings=args.settings,
            methods=args.methods,
            floor=args.floor,
            floors=args.floors,
            replays=args.replays,
            batch_size=args.batch_size,
            k=args.k,
        )
    except (ValueError, LookupError) as exc:
        raise CLIError(str(exc)) from exc
    return 0


def _check_round(args: argparse.Namespace, annotator: str | None = None) -> Any:
    """Fail early, with the known names, on an unknown round or annotator; the round (None when
    none was given)."""
    from kglens_tui.annotate.errors import AnnotationError
    from kglens_tui.annotate.rounds import get_round

    conn = _open(args)
    try:
        rnd = get_round(conn, args.round) if args.round else None
    except AnnotationError as exc:
        raise CLIError(str(exc)) from exc
    finally:
        conn.close()
    if rnd is not None and annotator is not None and annotator not in rnd.annotators:
        raise CLIError(
            f"no annotator '{annotator}' in round '{rnd.name}' "
            f"(annotators: {', '.join(rnd.annotators)})"
        )
    return rnd


def cmd_annotate_tui(args: argparse.Namespace) -> int:
    from kglens_tui.tui.app import run_annotation

    if args.annotator and not args.round:
        raise CLIError("--annotator needs the ROUND too")
    if args.bound and not args.annotator:
        raise CLIError("--bound needs the ROUND and --annotator")
    _check_round(args, args.annotator)
    return run_annotation(args.db, args.round, args.annotator, bound=args.bound)


SERVE_MAX_SESSIONS = 8
"""`kglens serve --max-sessions`' default (serve.DEFAULT_MAX_SESSIONS: the cli does not load
aiohttp to read it)."""


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from kglens_tui.serve import (
            BIND_ERRNOS,
            access_note,
            bind_problem,
            is_loopback,
            make_server,
            public_url_problem,
            serve_error,
        )
    except ImportError as exc:
        raise CLIError(
            f"kglens serve needs textual-serve ({exc}): pip install textual-serve"
        ) from exc

    if args.per_annotator and not args.round:
        raise CLIError("--per-annotator needs --round (whose annotators get a link each)")
    rnd = _check_round(args)
    if args.max_sessions < 1:
        raise CLIError(f"--max-sessions must be at least 1 (got {args.max_sessions})")
    unreachable = public_url_problem(args.host, args.port, args.public_url)
    if unreachable:
        raise CLIError(unreachable)
    db = Path(args.db or default_db_path())
    server = make_server(
        db,
        host=args.host,
        port=args.port,
        round_ref=args.round,
        public_url=args.public_url,
        password="" if args.per_annotator else load_settings().serve_password,
        max_sessions=args.max_sessions,
        annotators=rnd.annotators if args.per_annotator else None,
    )
    problem = bind_problem(args.host, args.port)  # before saying it serves
    if problem:
        raise CLIError(problem)
    if args.per_annotator:
        console.print(
            f"[b]Serving the annotation app[/] of {markup_literal(db)}, round "
            f"{markup_literal(rnd.name)}: one link per annotator, each opening that annotator's "
            "items only (send each their own):",
            soft_wrap=True,
        )
        for who in rnd.annotators:
            console.print(
                f"  {markup_literal(who)}: {markup_literal(server.url_for(who))}", soft_wrap=True
            )
    else:
        console.print(
            f"[b]Serving the annotation app[/] of {markup_literal(db)} at "
            f"{markup_literal(server.url)}",
            soft_wrap=True,
        )
    err_console.print(f"[yellow]note:[/] {markup_literal(access_note(server))}", soft_wrap=True)
    if not is_loopback(args.host):
        err_console.print(
            f"[bold red]warning:[/] --host {markup_literal(args.host)} lets other machines reach "
            "the page: only the link's token (or the password) keeps them out, and it travels "
            "unencrypted over plain http.",
            soft_wrap=True,
        )
    try:
        server.serve()
    except OSError as exc:  # taken between the check and the bind
        if exc.errno not in BIND_ERRNOS:
            raise
        raise CLIError(serve_error(args.host, args.port, exc)) from exc
    return 0


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[ArgumentParser]:
    """The subcommands of a parser built elsewhere."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of `kglens`; given the arguments it will parse, only the commands they name
    are built (`NamedCommands`: the rest are listed with their help)."""
    parser = ArgumentParser(
        prog="kglens",
        description="Probe what an LLM knows with a parameterized knowledge graph (KGLens). "
        "With no command, opens the terminal UI.",
    )
    parser.add_argument("--version", action="version", version=f"kglens {__version__}")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"workspace database (default: ${DB_ENV}, else {default_db_path()})",
    )
    sub = cast(
        NamedCommands,
        parser.add_subparsers(dest="command", metavar="COMMAND", action=NamedCommands),
    )
    sub.named = None if argv is None else set(argv)

    kg = sub.add_parser("kg", help="knowledge graphs: list, import, stats, show, rename, rm")
    kg_sub = kg.add_subparsers(dest="kg_command", metavar="KG_COMMAND", required=True)
    p = kg_sub.add_parser("list", help="KGs in the workspace and bundled with the package")
    p.set_defaults(func=cmd_kg_list)
    p = kg_sub.add_parser("import", help="import a KG directory (JSONL) or a CSV/TSV triples file")
    p.add_argument(
        "path", help="directory with entities.jsonl + triples.jsonl, a .jsonl, .csv or .tsv"
    )
    p.add_argument("--name", help="name in the workspace (default: the file name)")
    p.add_argument("--entities", help="entities JSONL for a triples .jsonl file")
    p.add_argument("--replace", action="store_true", help="overwrite a KG of the same name")
    p.set_defaults(func=cmd_kg_import)
    p = kg_sub.add_parser("stats", help="counts per KG and per predicate (paper Table 2)")
    p.add_argument("name")
    p.set_defaults(func=cmd_kg_stats)
    p = kg_sub.add_parser("show", help="an entity's edges, with aliases")
    p.add_argument("name")
    p.add_argument("entity", help="entity key, label or alias")
    p.set_defaults(func=cmd_kg_show)
    p = kg_sub.add_parser(
        "build-wikidata", help="build a KG by random walks over Wikidata (needs network access)"
    )
    from kglens_tui.cli.wikidata import add_arguments as add_wikidata_arguments
    from kglens_tui.cli.workspace import add_kg_commands, add_runs_commands

    add_wikidata_arguments(p)
    p.set_defaults(func=cmd_kg_build_wikidata)
    add_kg_commands(kg_sub)

    p = sub.add_parser(
        "probe", help="probe a target LLM over a KG, headless (the live screen: `kglens`, `n`)"
    )
    p.add_argument(
        "--no-tui",
        action="store_true",
        help="leave out the tip a terminal gets that `kglens` has the live screen (the probe "
        "always runs here, headless, with a progress display)",
    )
    # one flag per RunConfig field, its help the field's docstring; a flag not given falls back
    # to the settings file and KGLENS_* variables, then the field's default
    add_mode_run_options(
        p,
        KGLENS,
        negated={"stop_on_convergence": "--no-convergence-stop"},
        resume_help="continue a run from its last iteration",
    )
    p.set_defaults(func=cmd_probe)
    p = sub.add_parser("runs", help="every run with status and rates; `runs rm RUN` deletes")
    add_table_options(p)
    p.set_defaults(func=cmd_runs)
    add_runs_commands(p)
    p = sub.add_parser(
        "report",
        help="a run's metrics, categories and per-predicate breakdown (another mode's run: the "
        "report its mode declares)",
    )
    p.add_argument("run", type=int)
    add_table_options(p)
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("search", help="full-text search over the questions and replies of runs")
    p.add_argument("query", help="words that must all appear (FTS syntax is read as words)")
    p.add_argument("--run", type=int, metavar="RUN", help="only this run")
    p.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    p.set_defaults(func=cmd_search)

    study = sub.add_parser("study", help="small studies of how trustworthy the numbers are")
    study_sub = study.add_subparsers(dest="study_command", metavar="STUDY", required=True)
    p = study_sub.add_parser(
        "prompt-order", help="ask the same Yes/No questions with each few-shot example order"
    )
    shared = ("target", "base_url", "api_key_env", "kg", "subset", "concurrency", "seed")
    add_config_arguments(
        p, RunConfig, skip=[f.name for f in dataclasses.fields(RunConfig) if f.name not in shared]
    )
    p.add_argument("--questions", type=int, default=64, help="Yes/No questions (default 64)")
    p.set_defaults(func=cmd_study_prompt_order)

    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="bench_command", metavar="BENCH", required=True)
    p = bench_sub.add_parser("ui", help="key-press latency while a simulated run goes full speed")
    p.add_argument("--presses", type=int, default=100)
    p.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="also measure beside N CPU-bound neighbour processes (quiet and loaded side by side)",
    )
    p.set_defaults(func=cmd_bench_ui)
    p = bench_sub.add_parser(
        "curves", help="draw the efficiency study's curves (a `bench sampling --csv` file)"
    )
    p.add_argument("file", help="the CSV that `kglens bench sampling --csv` wrote")
    p.set_defaults(func=cmd_bench_curves)
    p = bench_sub.add_parser("import", help="import synthetic triples: triples/s and peak memory")
    p.add_argument("--triples", type=int, default=1_000_000)
    p.add_argument("--entities", type=int, default=100_000)
    p.set_defaults(func=cmd_bench_import)
    p = bench_sub.add_parser("engine", help="engine time per iteration and requests/s")
    p.add_argument("--sizes", default="20000,1000000", help="synthetic KG sizes in edges")
    p.add_argument("--iterations", type=int, default=30, help="timed iterations per size")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--latency-ms", type=float, default=100.0, help="fake server latency")
    p.add_argument("--concurrency", type=int, default=32)
    p.add_argument(
        "--throughput-iterations",
        type=int,
        default=20,
        help="iterations per scheduling in the throughput part (0: skip it)",
    )
    p.add_argument(
        "--long-iterations", type=int, default=1_000, help="long-run mark (0: skip the long run)"
    )
    p.set_defaults(func=cmd_bench_engine)
    p = bench_sub.add_parser(
        "verifier", help="verdicts against human labels on real and hard replies, with a baseline"
    )
    p.add_argument("--data", metavar="PATH", help="labelled JSONL (default: the bundled set)")
    p.add_argument("--misses", action="store_true", help="list the replies it gets wrong")
    p.set_defaults(func=cmd_bench_verifier)
    p = bench_sub.add_parser(
        "sampling", help="efficiency study (paper Fig. 3): samplers against brute force"
    )
    p.add_argument("--kg", default="country")
    p.add_argument("--subset", help="named subset of subjects, e.g. paper16")
    p.add_argument(
        "--ground-truth",
        default="sim",
        help="sim[:SEED] (simulated rates), run:ID (a brute-force run) or csv:PATH (subject, "
        "predicate, object, error_rate)",
    )
    p.add_argument(
        "--predicates",
        metavar="P1,P2,...",
        help="keep the truth's edges of these predicates only (keys or labels, comma-separated; "
        "e.g. the ones a model mostly knows: a real truth at a low base rate)",
    )
    p.add_argument(
        "--settings",
        default="auto",
        help="truth settings, comma-separated: as-is, shuffled, corr=X (neighbour correlation), "
        "base=X (mean error rate), blind=X (random blind spots), joined by + "
        "(auto: a suite for sim, as-is,shuffled for run/csv)",
    )
    p.add_argument(
        "--shuffle-truth", action="store_true", help="deal the true rates to edges at random"
    )
    p.add_argument("--methods", default="all", help="all | paper | comma list of method names")
    p.add_argument("--budget-epochs", type=float, default=6.0, help="request budget in epochs")
    p.add_argument("--reference-epochs", type=float, default=4.5, help="brute-force reference")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--k", default="100,200", help="top-k sizes, comma-separated")
    p.add_argument("--csv", metavar="PATH", help="write every curve as CSV")
    p.add_argument(
        "--plot",
        metavar="PATH",
        help="write the chart (Fig. 3) as .svg, .png or .pdf, by its suffix",
    )
    p.add_argument("--force", action="store_true", help="replace existing --csv / --plot files")
    p.add_argument("--no-throughput", action="store_true", help="skip sync vs continuous")
    p.add_argument(
        "--continuous",
        help="methods whose G@k under continuous scheduling is compared with synchronous "
        "(default: the paper's default, thompson, and the learned methods)",
    )
    p.add_argument(
        "--no-continuous", action="store_true", help="skip the continuous scheduling cost"
    )
    p.add_argument(
        "--throughput-iterations",
        type=int,
        default=10,
        help="iterations per scheduling in the throughput part (0: skip it, as --no-throughput)",
    )
    p.set_defaults(func=cmd_bench_sampling)
    _add_rates_bench(bench_sub)

    from kglens_tui.cli.analysis import add_analysis_commands
    from kglens_tui.cli.annotate import add_annotate_commands
    from kglens_tui.cli.modes import add_mode_commands
    from kglens_tui.cli.run import add_run_commands

    add_annotate_commands(sub)
    add_mode_commands(sub)
    add_run_commands(sub)
    add_analysis_commands(sub)
    if sub.builds("annotate"):
        p = _subcommands(sub.choices["annotate"]).add_parser(
            "tui", help="annotate in the terminal UI (annotators only: no runs or results)"
        )
        p.add_argument("round", nargs="?", help="round id or name (default: choose)")
        p.add_argument("--annotator", help="your name in the round (default: choose)")
        p.add_argument(
            "--bound",
            action="store_true",
            help="with ROUND and --annotator: no other round or annotator can be chosen (the "
            "sessions of `kglens serve --per-annotator`)",
        )
        p.set_defaults(func=cmd_annotate_tui)
    p = sub.add_parser(
        "serve",
        help="serve the annotation app in a browser (textual-serve) to whoever has the link "
        "it prints (a random token) or the serve_password setting",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost only)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--round", help="open this round (id or name) for every annotator")
    p.add_argument(
        "--public-url",
        help="URL browsers use, behind a proxy or with --host 0.0.0.0 / :: (needed then; "
        "default: http://HOST:PORT)",
    )
    p.add_argument(
        "--per-annotator",
        action="store_true",
        help="with --round: a link per annotator, each bound to that annotator's items (a page "
        "cannot label as anyone else)",
    )
    p.add_argument(
        "--max-sessions",
        type=int,
        default=SERVE_MAX_SESSIONS,
        help=f"browser tabs served at once, each its own process (default: {SERVE_MAX_SESSIONS})",
    )
    p.set_defaults(func=cmd_serve)
    return parser


def _run_writing_tables(args: argparse.Namespace) -> int:
    """The command, with every table it prints also written as files (`--tables DIR`)."""
    from kglens_tui.analysis.table_files import collecting_tables, parse_formats, write_tables

    try:
        formats = parse_formats(args.table_format)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    folder = Path(args.tables).expanduser()
    if folder.exists() and not folder.is_dir():
        raise CLIError(f"--tables {folder}: a file is in the way (give a folder)")
    with collecting_tables(console) as tables:
        code = int(args.func(args) or 0)
    if code == 0:
        written = write_tables(tables, folder, formats)
        err_console.print(
            f"wrote {counted(len(tables), 'table')} as {', '.join(formats)} "
            f"({counted(len(written), 'file')}) to "
            f"{markup_literal(folder)}",
            soft_wrap=True,
        )
    return code


READS_A_WORKSPACE = {
    ("kg", "stats"),
    ("kg", "show"),
    ("kg", "rm"),
    ("kg", "rename"),
    ("search", None),
    ("annotate", "rounds"),
    ("annotate", "progress"),
    ("annotate", "report"),
    ("annotate", "export"),
}
"""Commands that read or change what a workspace holds: on a workspace named by --db or
$KGLENS_DB that does not exist they say so (a typo), instead of making an empty one."""


def _check_workspace_exists(args: argparse.Namespace, origin: str) -> None:
    """A command about stored runs (it names run ids), or one of `READS_A_WORKSPACE` given a
    workspace path, needs a workspace that exists: a mistyped path is one line naming where it
    came from (``origin``: `workspace_origin`), not a new empty workspace."""
    db = Path(args.db or default_db_path())
    if db.exists():
        return
    named = f"named by {origin}" if origin else "the default one; --db names another"
    runs = getattr(args, "runs", None) or [getattr(args, "run", None)]
    if isinstance(runs[0], int):
        raise KGLensError(f"no workspace at {db}, so no run {runs[0]} ({named})")
    sub = getattr(args, "kg_command", None) or getattr(args, "annotate_command", None)
    if sub in ("stats", "show") and getattr(args, "name", None) in bundled_names():
        return  # a bundled KG is read without a workspace (`_open_kg`)
    if origin and (args.command, sub) in READS_A_WORKSPACE:
        raise KGLensError(f"no workspace at {db} ({named})")


def workspace_origin(settings: Settings) -> str:
    """Where the settings' workspace path came from: "$KGLENS_DB", "db in FILE", or "" (the
    default path)."""
    where = settings.origins.get("db", "") if settings.db else ""  # empty: the default path
    return where if where.startswith("$") or not where else f"db in {where}"


def _started_mode(args: argparse.Namespace) -> str | None:
    """The mode whose new run the command starts from the settings (None: it starts none)."""
    if getattr(args, "resume", None) is not None:
        return None
    if args.command == "study":
        return KGLENS
    if args.command == "run":
        return str(args.mode)
    return getattr(args, "run_mode", None)  # a mode's own run command (`add_mode_run_options`)


def settings_warnings(args: argparse.Namespace, settings: Settings) -> list[str]:
    """What is wrong in the settings that this command does not use, one line each: the run
    options a new run of some mode would refuse (a command that starts a run of a mode refuses
    that mode's problem itself, as an error) and a theme Textual does not have (the TUI refuses
    it when it starts)."""
    problems = settings_problems(settings)
    refused = problems.pop(_started_mode(args) or "", None)
    warnings = [p for p in dict.fromkeys(problems.values()) if p != refused]
    opens_tui = getattr(args, "func", None) is cmd_annotate_tui  # it refuses the theme itself
    if "theme" in settings.given and not opens_tui:  # textual loaded only to check a theme set
        from textual.theme import BUILTIN_THEMES

        from kglens_tui.tui.settings_check import check_theme

        try:
            check_theme(settings, BUILTIN_THEMES)
        except SettingsError as exc:
            warnings.append(f"{exc} (the terminal UI will not start with it)")
    return warnings


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(arguments).parse_args(arguments)
    name_workspace(args.db)
    try:
        return _main(args)
    finally:
        while _opened:
            _opened.pop().close()


def _main(args: argparse.Namespace) -> int:
    """`main` once the arguments are parsed."""
    try:
        if args.command is None:  # the TUI tells of the settings and variables itself
            from kglens_tui.tui.app import run_app

            return run_app(args.db)
        for warning in unread_variables():
            print_warning(warning)
        # a settings file that cannot be read, or sets a name nothing reads, stops every
        # command: it may hide the workspace (db) or any setting meant for the command; a
        # value only another command uses is a warning (settings_warnings)
        settings = load_settings()
        check_setting_names(settings)
        for warning in settings_warnings(args, settings):
            print_warning(warning)
        # the workspace: --db, else $KGLENS_DB, else the settings file's db, else the default
        if args.db:
            args.db, origin = os.path.expanduser(args.db), "--db"
        else:
            args.db, origin = settings.db or None, workspace_origin(settings)
        _check_workspace_exists(args, origin)
        if args.func is not cmd_annotate_tui:  # the annotator's UI quits on SIGTERM itself
            terminate_as_interrupt()  # `kill PID` stops a run as Ctrl-C does, said and stored
        if getattr(args, "tables", None):
            return _run_writing_tables(args)
        return int(args.func(args) or 0)
    except KGLensError as exc:
        print_error(exc)
        return 2
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc):
            raise
        db = getattr(args, "db", None) or default_db_path()
        print_error(
            f"{db}: the workspace is read-only ({exc}); commands that only read it (runs, "
            "report, search, export...) still can"
        )
        return 2
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return INTERRUPTED_EXIT
