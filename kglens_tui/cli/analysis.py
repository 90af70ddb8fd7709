"""`kglens review | analyze | compare | triage | export | ego`: headless review of blind spots,
group-by tables, model comparison, triage and exports."""

from __future__ import annotations

import argparse
import getpass
import json
import sqlite3
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from kglens_tui.analysis.filters import SIDES, EdgeFilter
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import console, print_error, print_wrote, suggested
from kglens_tui.core.figure_files import add_figure_options, figure_folder
from kglens_tui.core.intervals import Proportion
from kglens_tui.core.safetext import LABEL_LIMIT, LiteralTable, literal, markup_literal, visible
from kglens_tui.core.safewrite import (
    ExportError,
    check_destination,
    check_destinations,
    write_text,
)
from kglens_tui.core.table_options import add_table_options
from kglens_tui.core.verdict import ANSWERED
from kglens_tui.modes.kglens.estimates import HOW_ESTIMATED
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.textfmt import counted, rate_ci, short_target, signed
from kglens_tui.textfmt import pct as _pct

if TYPE_CHECKING:
    from kglens_tui.analysis.compare import Drift, RunGrid
    from kglens_tui.analysis.groups import ComparisonRow, GroupRow
    from kglens_tui.analysis.rundata import RunData
    from kglens_tui.analysis.triage import TriageEntry

Command = Callable[[argparse.Namespace, sqlite3.Connection], int]
FORCE_HELP = "replace an existing output file (never a symbolic link)"


def _ci(p: Proportion) -> str:
    return "—" if p.value is None else f"{_pct(p.value)} [{_pct(p.low)}–{_pct(p.high)}]"


NARROW_REPLIES = 110
"""Below this many columns a drill-down's replies go under their questions and the verifier and
error type are left out (`kglens review RUN --edge E`)."""


def _short(text: str | None, width: int = 70) -> str:
    return visible(text, one_line=True, limit=width)


def _filter(args: argparse.Namespace) -> EdgeFilter:
    dated = {"dated": True, "undated": False}.get(args.dates) if args.dates else None
    return EdgeFilter(
        predicates=tuple(args.predicate or ()),
        groups=tuple(args.group or ()),
        side=args.side,
        subjects=tuple(args.subject or ()),
        date_from=args.date_from,
        date_to=args.date_to,
        dated=dated,
    )


def _add_filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--predicate", action="append", help="predicate key or label (repeatable)")
    p.add_argument("--group", action="append", help="entity group, e.g. region:Europe")
    p.add_argument("--side", default="subject", choices=SIDES, help="entity the group applies to")
    p.add_argument("--subject", action="append", help="subject entity key (repeatable)")
    p.add_argument("--from", dest="date_from", metavar="DATE", help="facts dated on or after")
    p.add_argument("--to", dest="date_to", metavar="DATE", help="facts dated on or before")
    p.add_argument("--dates", choices=["dated", "undated"], help="dated or undated facts only")
    p.add_argument("--raw", action="store_true", help="ignore triage (as logged)")


def cmd_review(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis.blindspots import blind_spots, review_counts
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.answers.bias import run_bias_warning

    if args.json and args.edge is not None:  # refused before any work
        check_destination(args.json, args.force)
    data = load_run_data(conn, args.run)
    adjusted = not args.raw
    if args.edge is not None:
        return _drilldown(data, args.edge, adjusted, args.json, args.force)
    flt = _filter(args)
    kind = args.kind.replace("-", "_")
    rows = blind_spots(data, flt, kind=kind, adjusted=adjusted, sort=args.sort, limit=args.limit)
    counts = review_counts(data, flt, adjusted=adjusted)
    warning = run_bias_warning(conn, data.run.id)
    if warning:  # above the blind spots, which a biased model's lean alone can make
        console.print(literal(f"⚠ {warning}", "bold yellow"))
    table = LiteralTable(
        title=f"Run {data.run.id} · {kind.replace('_', '-')} · {counts['ranked']:,} examined, "
        f"{counts['zero_sense']:,} zero-sense, {counted(counts['flips'], 'flip')}, "
        f"{counts['confirmed']:,} confirmed, {counted(counts['kg_errors'], 'KG error')}",
        title_justify="left",
    )
    from kglens_tui.analysis.report import table_width

    wide_columns = ["edge", "subject", "predicate", "object", "m", "n", "expected error [95% CrI]"]
    # below the width every cell needs, the fact is one column and the interval goes under the
    # value, so that it is never cut
    wide: list[tuple[str | Text, ...]] = []
    narrow: list[tuple[str | Text, ...]] = []
    for r in rows:
        flags = " ".join(
            f
            for f, on in (
                ("zero", r.zero_sense),
                ("flip", r.flips),
                ("confirmed", r.confirmed),
                ("kg-error", r.kg_error),
                (f"{r.overridden:,} overridden", r.overridden),
            )
            if on
        )
        mean, bounds = _pct(r.mean), f"[{_pct(r.low)}–{_pct(r.high)}]"
        obj = _short(r.object, 40)
        wide.append(
            (
                str(r.edge_id),
                r.subject,
                r.predicate,
                obj,
                str(r.m),
                str(r.n),
                f"{mean} {bounds}",
                flags,
            )
        )
        fact = f"{r.subject} · {r.predicate} · {obj}"
        narrow.append((str(r.edge_id), fact, str(r.m), str(r.n), Text(f"{mean}\n{bounds}"), flags))
    fits = (
        table_width(
            [*wide_columns, ""],
            [tuple(visible(str(c), one_line=True) for c in row) for row in wide],
        )
        <= console.width
    )
    columns = (
        [*wide_columns, ""] if fits else ["edge", "fact", "m", "n", "expected error [95% CrI]", ""]
    )
    for col in columns:
        table.add_column(col, justify="right" if col in ("edge", "m", "n") else "left")
    for row in wide if fits else narrow:
        table.add_row(*row)
    console.print(table)
    return 0


def _wrote(path: Path | str) -> None:
    print_wrote(path)


def _drilldown(
    data: RunData, edge_id: int, adjusted: bool, json_path: str | None, force: bool
) -> int:
    from kglens_tui.analysis.drilldown import edge_detail
    from kglens_tui.analysis.exports import write_edge_detail_json

    if json_path:
        _wrote(
            write_edge_detail_json(data, edge_id, Path(json_path), adjusted=adjusted, force=force)
        )
        return 0
    d = edge_detail(data, edge_id, adjusted=adjusted)
    e = d.edge
    console.print(
        f"[bold]Edge {e.edge_id}[/]: {markup_literal(e.subject, limit=LABEL_LIMIT)} · {markup_literal(e.predicate, limit=LABEL_LIMIT)} · "
        f"{markup_literal(e.object, limit=LABEL_LIMIT)} · m {e.m} n {e.n} · expected error {_pct(e.mean)} "
        f"[{_pct(e.low)}–{_pct(e.high)}] · {d.neighbours_text} · true objects: "
        f"{markup_literal(', '.join(d.true_objects), limit=LABEL_LIMIT)}"
    )
    replies = LiteralTable(title="Questions and replies", title_justify="left")
    narrow = console.width < NARROW_REPLIES  # the question gets the room, the reply under it
    columns = (
        ("reply id", "it", "question → reply", "expected", "verdict")
        if narrow
        else ("reply id", "it", "question", "expected", "reply", "verdict", "verifier", "type")
    )
    for col in columns:
        replies.add_column(col, justify="right" if col in ("reply id", "it") else "left")
    for r in d.replies:
        verdict = r.category if r.effective == r.category else f"{r.category} → {r.effective}"
        expected = r.expected or "; ".join(a[0] for a in r.expected_answers if a)
        head = (str(r.observation_id), str(r.iteration))
        if narrow:
            asked = Text.assemble(
                literal(_short(r.question, 120)), "\n→ ", literal(_short(r.reply, 80), "dim")
            )
            replies.add_row(*head, asked, _short(expected, 24), verdict)
            continue
        replies.add_row(
            *head,
            _short(r.question, 60),
            _short(expected, 24),
            _short(r.reply, 50),
            verdict,
            _short(r.verifier, 24),
            r.error_type or "",
        )
    console.print(replies)
    hist = LiteralTable(title="PKG history", title_justify="left")
    for col in ("iteration", "asked", "alpha", "beta", "m", "n", "mean"):
        hist.add_column(col, justify="right")
    for h in d.history:
        if h.asked or h is d.history[-1]:
            hist.add_row(
                str(h.iteration),
                str(h.asked),
                f"{h.alpha:g}",
                f"{h.beta:g}",
                str(h.m),
                str(h.n),
                _pct(h.mean),
            )
    console.print(hist)
    if d.triage:
        console.print(
            literal(
                "Triage: "
                + "; ".join(
                    f"#{t.id} {t.action}{' ' + t.value if t.value else ''} by {t.author} "
                    f"({t.created_at}){' [retracted]' if t.id in d.retracted else ''}: {t.reason}"
                    for t in d.triage
                )
            )
        )
    return 0


ANALYZE_NOTE = (
    "Rates over each group's examined edges with 95% Wilson intervals; chance: what blind "
    "guessing scores on the questions the run asked about the group, each ask independent (as "
    "the per-predicate table of kglens report RUN); P(err): the mean posterior error of the "
    "examined edges."
)
"""The caption of `kglens analyze`'s table."""

YES_NO_NOTE = (
    " Yes/No: the yes-rate of the group's Yes/No replies with its interval and n, and their "
    "balanced accuracy (chance 0.50)."
)
"""The rest of the caption when the run has Yes/No replies."""


Layout = tuple[list[str], list[tuple[Text, ...]]]
"""A table's column headers and rows."""


def analyze_layouts(rows: list[GroupRow], total: GroupRow) -> list[Layout]:
    """`kglens analyze`'s table in each of its layouts, widest first: one line a group with a
    chance column beside each rate; each rate's chance under it; then one rate a line with its
    chance beside it (the report's per-predicate layout, within 80 columns). The last row is
    the whole (filtered) run; the Yes/No columns (`GroupRow.yes_no`) only when the run has
    Yes/No replies."""
    from kglens_tui.analysis.groups import CHANCE_FIELD, RATES, yes_no_text
    from kglens_tui.analysis.report import rate_line

    yes_no = bool(total.yes_no.answered)
    wide: list[tuple[Text, ...]] = []
    medium: list[tuple[Text, ...]] = []
    narrow: list[tuple[Text, ...]] = []
    for r in [*rows, total]:
        label = Text("all", "bold") if r is total else Text(visible(r.label, one_line=True))
        rate = {f: rate_ci(*r.rates.get(f).bounds) for _, f, _ in RATES}
        chance = {f: _pct(getattr(r.chance, CHANCE_FIELD[f])) for _, f, _ in RATES}
        yes, yes_ci, balanced = yes_no_text(r.yes_no)
        head = (label, Text(f"{r.edges:,}"), Text(f"{r.rates.examined:,}"))
        mean = Text(_pct(r.mean_error))
        wide.append(
            (
                *head,
                *(Text(x) for _, f, _ in RATES for x in (rate[f], chance[f])),
                mean,
                *((Text(f"{yes} {yes_ci}".rstrip()), Text(balanced)) if yes_no else ()),
            )
        )
        medium.append(
            (
                *head,
                *(Text(f"{rate[f]}\nchance {chance[f]}") for _, f, _ in RATES),
                mean,
                *((Text(f"{yes}\n{yes_ci}".rstrip()), Text(balanced)) if yes_no else ()),
            )
        )
        about = f"\nn={r.rates.examined:,} of {r.edges:,}\nP(err) {_pct(r.mean_error)}"
        narrow.append(
            (
                Text.assemble(label, about),
                Text("\n".join(rate_line(n, r.rates.get(f)) for n, f, _ in RATES)),
                Text("\n".join(chance[f] for _, f, _ in RATES)),
                *(
                    [Text("—" if yes == "—" else f"yes-rate {yes}\n{yes_ci}\nbal. acc. {balanced}")]
                    if yes_no
                    else []
                ),
            )
        )
    names = [n for n, _, _ in RATES]
    counts = ["group", "edges", "examined"]
    after = ["mean P(err)", *(["yes-rate", "bal. acc."] if yes_no else [])]
    return [
        ([*counts, *(x for n in names for x in (n, "chance")), *after], wide),
        ([*counts, *names, *after], medium),
        (["group", "rate [95% interval]", "chance", *(["Yes/No"] if yes_no else [])], narrow),
    ]


def _layout_for(layouts: list[Layout], width: int) -> Layout:
    """The first (widest) layout whose table fits ``width`` cells unwrapped, else the last."""
    from kglens_tui.analysis.report import table_width

    for columns, rows in layouts:
        if table_width(columns, [tuple(c.plain for c in row) for row in rows]) <= width:
            return columns, rows
    return layouts[-1]


def cmd_analyze(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis.errortypes import error_type_summary
    from kglens_tui.analysis.exports import write_groups_csv
    from kglens_tui.analysis.groups import group_table, overall
    from kglens_tui.analysis.kgwide_render import kg_wide_table_of
    from kglens_tui.analysis.rundata import load_run_data

    if args.csv:  # refused before anything is computed or printed
        check_destination(args.csv, args.force)
    data = load_run_data(conn, args.run)
    adjusted = not args.raw
    flt = _filter(args)
    if args.grid:
        return _print_grid(data, flt, adjusted)
    rows = group_table(
        data, args.by, flt, adjusted=adjusted, prefix=args.prefix, side=args.side, sort=args.sort
    )
    total = overall(data, flt, adjusted=adjusted)
    everyone = total.yes_no
    examined = [r for r in rows if r.rates.examined]
    wide = kg_wide_table_of(
        {visible(r.label, one_line=True): r.kg_wide for r in rows if r.kg_wide is not None},
        f"Run {data.run.id}: KG-wide win rate per {args.by}{_logged(adjusted)} (each of the "
        "group's edges asked once), surely worst first",
        f"KG-wide: {HOW_ESTIMATED}; as kglens report. The rates over the examined edges follow.",
    )
    if wide is not None:
        console.print(wide)
    columns, cells = _layout_for(analyze_layouts(examined, total), console.width)
    table = LiteralTable(
        title=f"Run {data.run.id} per {args.by}{' (' + args.prefix + ')' if args.prefix else ''}"
        f"{_logged(adjusted)}: rates over the examined edges with 95% Wilson "
        f"intervals and chance, mean posterior error{', Yes/No bias' if everyone.answered else ''}",
        title_justify="left",
        caption=ANALYZE_NOTE + (YES_NO_NOTE if everyone.answered else ""),
        caption_justify="left",
    )
    for i, col in enumerate(columns):  # a narrow table wraps only the group's name
        left = col in ("group", "rate [95% interval]", "Yes/No")
        table.add_column(col, justify="left" if left else "right", no_wrap=i > 0)
    for i, row in enumerate(cells):
        table.add_row(*row, end_section=i == len(cells) - 2)
    console.print(table)
    unexamined = [r for r in rows if not r.rates.examined]
    if unexamined:
        shown = ", ".join(f"{visible(r.label, one_line=True)} ({r.edges:,})" for r in unexamined)
        console.print(
            f"{counted(len(unexamined), args.by)} with no edge examined (edges): {shown}",
            markup=False,
        )
    if everyone.warning():
        console.print(f"[bold yellow]⚠ {everyone.warning()}[/]")
    if args.csv:  # the whole filtered run last, as the table shows it
        _wrote(write_groups_csv([*rows, total], Path(args.csv), force=args.force))
    if args.error_types:
        s = error_type_summary(data, adjusted)
        t5 = LiteralTable(
            title="Error types (paper Table 5) of incorrect replies", title_justify="left"
        )
        for col in ("type", "replies", "edges", "detected", "tagged", "examples (reply ids)"):
            t5.add_column(
                col, justify="left" if col in ("type", "examples (reply ids)") else "right"
            )
        for t in s.types:
            t5.add_row(
                t.label,
                str(t.replies),
                str(t.edges),
                str(t.detected),
                str(t.tagged),
                ", ".join(map(str, t.examples)),
            )
        console.print(t5)
        console.print(
            f"{s.incorrect} incorrect, {s.refused} refused, {s.unparseable} unparseable replies"
        )
    return 0


def _print_grid(data: RunData, flt: EdgeFilter, adjusted: bool) -> int:
    """`analyze --grid`: the paper's Fig. 6 subjects x predicates grid."""
    from kglens_tui.analysis.grid import GRID_METRIC, grid_tables
    from kglens_tui.analysis.groups import cross_table, overall

    cross = cross_table(data, "subject", "predicate", flt, adjusted=adjusted)
    title = (
        f"Run {data.run.id}: zero-sense rate per subject x predicate (paper Fig. 6)"
        f"{_logged(adjusted)}; n: examined edges of the subject"
    )
    for table in grid_tables(cross, console.width, title=title):
        console.print(table)
    whole = overall(data, flt, adjusted=adjusted)
    rate = whole.rates.get(GRID_METRIC)
    console.print(
        f"All subjects: zero-sense {rate_ci(rate.value, rate.low, rate.high)} of "
        f"{rate.n:,} examined edges; chance {_pct(whole.chance.zero_sense)}. Each subject's "
        f"interval: {suggested(f'analyze {data.run.id} --by subject')}.",
        markup=False,
    )
    return 0


CHANCE_NOTE = (
    "chance: what blind guessing scores on the questions the run asked, each ask independent "
    "(as kglens report RUN, which also gives it under the run's own sampler), with triage "
    "unless --raw"
)
"""How `kglens compare` words the chance it shows beside each rate."""


def _grid_notes(grid: RunGrid, metric: str) -> list[str]:
    """What Table 3 leaves out and why: runs sharing a shown run's cell, runs left out of an
    average, and the averages not given."""
    from kglens_tui.analysis.compare import CELL_RULE

    notes = []
    for run_id, shown in grid.hidden:
        mine, theirs = grid.samplers.get(run_id), grid.samplers.get(shown)
        samplers = (
            f" (its sampler is {mine}, run {shown}'s {theirs}: the cell's KG-wide rate is one "
            "estimand whatever the sampler)"
            if mine != theirs
            else ""
        )
        notes.append(
            f"Run {run_id} is not in the table: run {shown} has the same model, KG selection, "
            f"settings and difficulty{samplers}, and {CELL_RULE}."
        )
    if metric != "win":
        return notes
    for (model, difficulty), avg in grid.averages.items():
        if avg.left_out and grid.kgs_per_difficulty(difficulty) > 1:
            gone = ", ".join(f"run {r} ({why})" for r, why in avg.left_out)
            notes.append(
                f"Left out of the {difficulty.upper()} average of {model}: {gone}; "
                "an average holds finished runs only."
            )
    single = [d.upper() for d in grid.difficulties() if grid.kgs_per_difficulty(d) < 2]
    if single:
        notes.append(
            f"No average for {', '.join(single)}: one KG there, so the cell is its own average. "
            "Rates of different difficulties are never averaged together: what chance scores "
            "differs with the questions asked (see each cell's chance)."
        )
    return notes


GROUP_CHANCE_NOTE = (
    "chance: what blind guessing scores on the questions the run asked about the group, each "
    "ask independent (as the per-predicate table of kglens report RUN), with triage unless --raw"
)
"""How `kglens compare --by` words the chance it shows beside each group's rate."""


def _group_cells(row: ComparisonRow, metric: str, sep: str = " ") -> list[str]:
    """A group's cell per run: rate [interval], then after ``sep`` n and chance ("— n=0" when
    none of its edges was examined, "" when the run has none)."""
    from kglens_tui.analysis.groups import CHANCE_FIELD

    cells = []
    for cell, chance in zip(row.cells, row.chances, strict=True):
        if cell is None:
            cells.append("")
        elif not cell.rates.examined or chance is None:
            cells.append("— n=0")
        else:
            cells.append(
                f"{_ci(cell.rates.get(metric))}{sep}n={cell.rates.examined:,} · chance "
                f"{_pct(getattr(chance, CHANCE_FIELD[metric]))}"
            )
    return cells


def _print_differences(dr: Drift, a: int, b: int, limit: int) -> None:
    """How run ``b`` differs from run ``a``: the KG-wide difference with its interval and p
    first, then the paper's rates over the edges each run examined (drift only for the same
    model asked the same kind of questions), then per predicate and per edge."""
    from kglens_tui.analysis.compare_text import drift_test_lines

    tests = drift_test_lines(dr, a, b, limit)
    if dr.is_drift:
        head = f"Drift run {a} → {b} (same model, same kind of questions)"
    else:
        why = dr.not_drift_because
        head = f"Drift not measured ({'; '.join(why)}): run {a} → {b} is a comparison, not one model's drift"
    shift = "—" if dr.mean_shift is None else f"{signed(dr.mean_shift * 100)} points"
    examined = (
        f"{head}; over the edges each run examined: {_rates_change(dr)}; "
        f"{counted(len(dr.changed), 'edge')} changed status; mean expected-error shift {shift}"
    )
    for line in (tests[0], examined, *tests[1:]):
        console.print(line, markup=False, soft_wrap=True)


def _rates_change(dr: Drift) -> str:
    """Run a's rates → run b's, each with interval, n and chance."""
    from kglens_tui.analysis.groups import CHANCE_FIELD, RATES

    parts = []
    for name, metric, _ in RATES:
        ends = []
        for rs, chance in ((dr.rates_a, dr.chance_a), (dr.rates_b, dr.chance_b)):
            ends.append(
                f"{_ci(rs.get(metric))} n={rs.examined:,} "
                f"(chance {_pct(getattr(chance, CHANCE_FIELD[metric]))})"
            )
        parts.append(f"{name} {ends[0]} → {ends[1]}")
    return "; ".join(parts)


def _logged(adjusted: bool) -> str:
    """How a title says its figures ignore triage (`--raw`)."""
    return "" if adjusted else " (as logged)"


def cmd_compare(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis.compare import drift, grid_of_runs, load_runs, run_grid
    from kglens_tui.analysis.compare_text import (
        KG_WIDE_CHANCE_NOTE,
        grid_cell_text,
    )
    from kglens_tui.analysis.groups import CHANCE_FIELD, group_comparison
    from kglens_tui.analysis.report import table_width
    from kglens_tui.cli.compare_tables import difference_table, table3_values

    adjusted = not args.raw
    runs = load_runs(conn, args.runs) if args.runs else []
    grid = grid_of_runs(runs, adjusted=adjusted) if runs else run_grid(conn, adjusted=adjusted)
    metric = args.metric.replace("-", "_")
    averaged = [d for d in grid.difficulties() if grid.kgs_per_difficulty(d) > 1]
    t3 = LiteralTable(
        title=f"{metric.replace('_', '-')} rate (paper Table 3 layout){_logged(adjusted)}: "
        + (
            "KG-wide (every edge of the column's selection asked once) with its 95% interval, "
            "chance and answers, then over the run's examined edges"
            if metric == "win"
            else "over the run's examined edges, 95% Wilson interval"
        ),
        title_justify="left",
        caption=(KG_WIDE_CHANCE_NOTE + " " if metric == "win" else "") + CHANCE_NOTE,
    )
    t3.add_column("model")
    for kg, difficulty in grid.columns:
        t3.add_column(f"{kg} {difficulty.upper()}", justify="right")
    if metric == "win":
        for difficulty in averaged:
            t3.add_column(f"average {difficulty.upper()}", justify="right")
    for model in grid.models:
        cells = []
        for kg, difficulty in grid.columns:
            c = grid.cell(model, kg, difficulty)
            chance = None if c is None else getattr(c.chance, CHANCE_FIELD[metric])
            cells.append("" if c is None else grid_cell_text(c, metric, chance))
        if metric == "win":
            cells.extend(
                "" if (avg := grid.average(model, d)) is None else avg.text(False) for d in averaged
            )
        t3.add_row(short_target(model), *cells)
    console.print(t3)
    for note in _grid_notes(grid, metric):
        console.print(literal(note), soft_wrap=True)
    if args.tables:  # each value in a column of its own, for the table files
        console.print(table3_values(grid, metric))
    if runs and args.by:
        comp = group_comparison(runs, args.by, adjusted=adjusted, prefix=args.prefix)
        table = LiteralTable(
            title=f"{metric.replace('_', '-')} per {args.by}{_logged(adjusted)}, 95% Wilson "
            "interval; n: examined edges of the group",
            title_justify="left",
            caption=GROUP_CHANCE_NOTE,
        )
        columns = [
            args.by,
            *(f"{c.label} (run {c.run_id}, {c.difficulty.upper()})" for c in comp.runs),
        ]
        rows = [
            (visible(row.label, one_line=True), *_group_cells(row, metric)) for row in comp.rows
        ]
        if table_width(columns, rows) > console.width:  # n and chance under the rate
            rows = [
                (visible(row.label, one_line=True), *_group_cells(row, metric, "\n"))
                for row in comp.rows
            ]
        table.add_column(columns[0])
        for column in columns[1:]:
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(*(literal(cell) for cell in row))
        console.print(table)
    if len(runs) == 2:
        a, b = runs
        dr = drift(a, b, adjusted=adjusted)
        _print_differences(dr, a.run.id, b.run.id, args.limit)
        if args.tables and (dt := difference_table(dr, a.run.id, b.run.id)) is not None:
            console.print(dt)
        diff = dr.diff
        ct = LiteralTable(
            title=f"Edges both examined ({diff.common:,}): run {a.run.id} rows, run {b.run.id} "
            "columns",
            title_justify="left",
        )
        ct.add_column("")
        statuses = ("knows", "partial", "unknown")
        for s in statuses:
            ct.add_column(s, justify="right")
        for s in statuses:
            ct.add_row(s, *(str(diff.table[(s, t)]) for t in statuses))
        console.print(ct)
        for title, pairs in (
            (f"Run {a.run.id} knows, run {b.run.id} does not", diff.a_only),
            (f"Run {b.run.id} knows, run {a.run.id} does not", diff.b_only),
        ):
            t = LiteralTable(title=f"{title} ({len(pairs)})", title_justify="left")
            for col in ("edge", "subject", "predicate", "object", "a right/wrong", "b right/wrong"):
                t.add_column(col)
            for p in pairs[: args.limit]:
                t.add_row(
                    str(p.edge_id),
                    p.subject,
                    p.predicate,
                    _short(p.object, 40),
                    f"{p.m_a}/{p.n_a}",
                    f"{p.m_b}/{p.n_b}",
                )
            console.print(t)
    return 0


def _author(args: argparse.Namespace) -> str:
    return args.author or getpass.getuser()


def cmd_triage(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis import triage as tr

    action = args.triage_command
    author = _author(args) if hasattr(args, "author") else ""
    if action == "confirm":
        entry = tr.confirm_blind_spot(conn, args.run, args.edge, author=author, reason=args.reason)
    elif action == "kg-error":
        entry = tr.mark_kg_error(
            conn,
            author=author,
            reason=args.reason,
            edge_id=args.edge,
            observation_id=args.reply,
            seen_in_run=args.run,
        )
    elif action == "verifier-error":
        entry = tr.mark_verifier_error(
            conn, args.reply, author=author, reason=args.reason, category=args.category
        )
    elif action == "note":
        entry = tr.add_note(
            conn,
            args.text,
            author=author,
            run_id=args.run,
            edge_id=args.edge,
            observation_id=args.reply,
        )
    elif action == "tag":
        entry = tr.tag_error_type(
            conn,
            args.type.replace("-", "_"),
            author=author,
            reason=args.reason or "",
            run_id=args.run,
            edge_id=args.edge,
            observation_id=args.reply,
        )
    elif action == "retract":
        entry = tr.retract(conn, args.entry, author=author, reason=args.reason)
    elif action == "log":
        return _triage_log(conn, args)
    elif action == "reverify":
        return _reverify(conn, args, author)
    else:
        return _corrections(conn, args)
    console.print(f"triage entry {entry} stored")
    return 0


def _reverify(conn: sqlite3.Connection, args: argparse.Namespace, author: str) -> int:
    from kglens_tui.analysis.reverify import reverify_run

    found = reverify_run(conn, args.run, author=author, store=not args.dry_run)
    changes = ", ".join(f"{a} → {b} {n:,}" for (a, b), n in found.changes.most_common())
    console.print(
        f"run {found.run_id}: {counted(found.checked, 'reply', 'replies')} re-checked by "
        f"today's verifier; {counted(found.changed, 'verdict changes', 'verdicts change')}"
        + (f" ({changes})" if changes else ""),
        markup=False,
    )
    left = [
        (found.judged, "for the run's LLM judge"),
        (found.by_person, "set by a person in triage"),
        (found.moved, "given another verdict while this ran"),
    ]
    if any(n for n, _ in left):
        console.print(
            "left alone: " + ", ".join(f"{n:,} {what}" for n, what in left if n), markup=False
        )
    for c in found.examples:
        head = f"  reply {c.observation_id}: {c.before} → {c.after}: "
        room = max(console.width - len(head), 20)
        console.print(head + visible(c.reply, one_line=True, limit=room), markup=False)
    if args.dry_run or not found.entries:
        if args.dry_run and found.changed:
            console.print("nothing stored (--dry-run)", markup=False)
        return 0
    console.print(
        f"stored as triage entries {found.entries[0]}–{found.entries[-1]}: "
        f"{suggested(f'review {found.run_id}')} and the report apply them; "
        f"{suggested('triage retract ENTRY --reason ...')} withdraws one",
        markup=False,
    )
    return 0


def _triage_log(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    from kglens_tui.analysis.report import table_width
    from kglens_tui.analysis.triage import triage_log

    kg_id = None
    if args.kg:
        row = conn.execute("SELECT id FROM kg WHERE name = ?", (args.kg,)).fetchone()
        if row is None:
            raise LookupError(f"no KG named '{args.kg}'")
        kg_id = row[0]
    log = triage_log(conn, kg_id=kg_id, run_id=args.run, edge_id=args.edge)
    force = _in_force(log)
    columns = ["id", "when", "who", "action", "run", "edge", "reply", "value", "why", "in force"]
    rows = [
        (
            str(e.id),
            e.created_at,
            e.author,
            e.action,
            "KG-wide" if e.run_id is None else str(e.run_id),
            str(e.edge_id),
            "" if e.observation_id is None else str(e.observation_id),
            e.value or (f"#{e.retracts}" if e.retracts else ""),
            e.reason,
            force[e.id],
        )
        for e in log
    ]
    if table_width(columns, [tuple(visible(c, one_line=True) for c in r) for r in rows]) > (
        console.width
    ):
        console.print("Triage audit trail", markup=False)
        for e, r in zip(log, rows, strict=True):
            on = ", ".join(
                f"{name} {value}"
                for name, value in (("run", r[4]), ("edge", r[5]), ("reply", r[6]))
            )
            head = f"#{e.id} {e.created_at[:10]} {e.author} · {e.action}"
            value = f" {r[7]}" if r[7] else ""
            state = r[9] or ("" if e.action == "retract" else "not in force")
            console.print(literal(f"{head}{value} · {on}" + (f" · {state}" if state else "")))
            if e.reason:
                console.print(literal(f"    {visible(e.reason, one_line=True)}"))
        return 0
    table = LiteralTable(title="Triage audit trail", title_justify="left")
    for col in columns:
        table.add_column(col, justify="right" if col in ("id", "run", "edge", "reply") else "left")
    for r in rows:
        table.add_row(*r)
    console.print(table)
    return 0


def _in_force(log: list[TriageEntry]) -> dict[int, str]:
    """Per entry: "yes" when in force, "replaced by #N" for a reply's verdict a later one
    overrides, "" when retracted or a retraction (the latest verdict of a reply wins)."""
    from kglens_tui.analysis.triage import current_entries

    live = current_entries(log)
    out = {e.id: "" for e in log}
    latest: dict[int, int] = {}
    for e in live:
        out[e.id] = "yes"
        if e.action == "verifier_error" and e.observation_id is not None:
            earlier = latest.get(e.observation_id)
            if earlier is not None:
                out[earlier] = f"replaced by #{e.id}"
            latest[e.observation_id] = e.id
    return out


def _corrections(conn: sqlite3.Connection, args: argparse.Namespace) -> int:
    from kglens_tui.analysis.exports import kg_corrections, write_corrections

    if args.out:  # refused before any work
        check_destination(args.out, args.force)
    row = conn.execute("SELECT id FROM kg WHERE name = ?", (args.kg,)).fetchone()
    if row is None:
        raise LookupError(f"no KG named '{args.kg}'")
    if args.out:
        _wrote(write_corrections(conn, row[0], Path(args.out), force=args.force))
        return 0
    table = LiteralTable(title=f"KG corrections for {args.kg}", title_justify="left")
    for col in ("entry", "kind", "edge", "fact", "candidate / reply", "why", "who"):
        table.add_column(col)
    for c in kg_corrections(conn, row[0]):
        table.add_row(
            str(c.entry_id),
            c.kind,
            str(c.edge_id),
            f"{c.subject} · {c.predicate} · {c.object}",
            _short(c.candidate or c.reply, 40),
            _short(c.reason, 40),
            c.author,
        )
    console.print(table)
    return 0


def _export_declared_report(
    conn: sqlite3.Connection, args: argparse.Namespace, outputs: dict[str, str], figures: bool
) -> bool:
    """Write the HTML report of a run whose mode stores no observations (the report its mode
    declares, `Mode.report_panels`) and say True; False for a KGLens run (or no such run).
    ValueError for what such a run cannot give (graphs, edge tables, figures)."""
    from kglens_tui.core.safewrite import write_text
    from kglens_tui.runs.panel_html import panels_page
    from kglens_tui.runs.record import mode_of
    from kglens_tui.runs.registry import find_mode

    name = mode_of(conn, args.run)
    mode = find_mode(name) if name is not None else None
    if mode is None or mode.observations:
        return False
    if figures or set(outputs) != {"--html"}:
        raise ValueError(
            f"run {args.run} is a {mode.label} run: export gives its --html report only"
        )
    page = panels_page(f"{mode.label} run {args.run}", mode.report_panels(conn, args.run))
    _wrote(write_text(Path(args.html), page, force=args.force))
    return True


def cmd_export(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis import exports
    from kglens_tui.analysis.groups import group_table, overall
    from kglens_tui.analysis.htmlreport import write_html_report
    from kglens_tui.analysis.rundata import load_run_data

    flags = ("gexf", "graphml", "csv", "jsonl", "replies", "groups", "html")
    outputs = {f"--{flag}": getattr(args, flag) for flag in flags if getattr(args, flag)}
    if not outputs and not args.figures:
        raise ValueError(
            "nothing to export: give --gexf, --graphml, --csv, --jsonl, --replies, "
            "--groups, --html or --figures"
        )
    figures = figure_folder(args)
    force = args.force
    check_destinations(outputs, force)  # refuse before any work, so no output is half done
    if _export_declared_report(conn, args, outputs, figures is not None):
        return 0
    data = load_run_data(conn, args.run)
    adjusted = not args.raw
    graph_opts = {"adjusted": adjusted, "include_unprobed": args.unprobed}
    if args.gexf:
        _wrote(exports.write_gexf(data, Path(args.gexf), force=force, **graph_opts))
    if args.graphml:
        _wrote(exports.write_graphml(data, Path(args.graphml), force=force, **graph_opts))
    if args.csv:
        _wrote(exports.write_edges_csv(data, Path(args.csv), adjusted=adjusted, force=force))
    if args.jsonl:
        _wrote(exports.write_edges_jsonl(data, Path(args.jsonl), adjusted=adjusted, force=force))
    if args.replies:
        path = Path(args.replies)
        writer = (
            exports.write_replies_jsonl if path.suffix == ".jsonl" else exports.write_replies_csv
        )
        _wrote(writer(data, path, adjusted=adjusted, force=force))
    if args.groups:
        rows = group_table(data, args.by, adjusted=adjusted, prefix=args.prefix)
        rows.append(overall(data, adjusted=adjusted))  # the whole run last
        _wrote(exports.write_groups_csv(rows, Path(args.groups), force=force))
    if args.html:
        _wrote(write_html_report(data, Path(args.html), force=force))
    if figures is not None:
        from kglens_tui.analysis.figures import write_figures

        for path in write_figures(data, *figures):
            _wrote(path)
    return 0


def cmd_ego(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    from kglens_tui.analysis.ego import ego_graph
    from kglens_tui.analysis.rundata import load_run_data

    if args.json:  # refused before any work
        check_destination(args.json, args.force)
    data = load_run_data(conn, args.run)
    ego = ego_graph(
        data, args.entity, radius=args.radius, max_edges=args.max_edges, adjusted=not args.raw
    )
    if args.json:
        payload = json.dumps(asdict(ego), ensure_ascii=False, indent=2)
        _wrote(write_text(args.json, payload, force=args.force))
        return 0
    labels = {n.key: n.label for n in ego.nodes}
    table = LiteralTable(
        title=f"Ego graph of {labels[ego.center]} (radius {ego.radius}): "
        f"{counted(len(ego.nodes), 'node')}, {counted(len(ego.edges), 'edge')}{' (truncated)' if ego.truncated else ''}",
        title_justify="left",
    )
    for col in ("edge", "source", "predicate", "target", "right/wrong", "expected error"):
        table.add_column(col)
    for e in sorted(ego.edges, key=lambda e: (e.mean is None, -(e.mean or 0.0))):
        table.add_row(
            str(e.edge_id),
            labels[e.source],
            e.predicate,
            _short(labels[e.target], 40),
            f"{e.m}/{e.n}" if e.in_run else "not probed",
            "" if e.mean is None else f"{_pct(e.mean)} [{_pct(e.low)}–{_pct(e.high)}]",
        )
    console.print(table)
    return 0


def _run(command: Command, *, read_only: bool = False) -> Callable[[argparse.Namespace], int]:
    """The subcommand's function: ``command`` on the workspace (opened read-only for a command
    that only reads it)."""

    def run(args: argparse.Namespace) -> int:
        conn = connect(args.db or default_db_path(), read_only=read_only)
        try:
            return command(args, conn)
        except (LookupError, ValueError, sqlite3.IntegrityError, ExportError) as exc:
            print_error(exc)
            return 2
        finally:
            conn.close()

    return run


def _add_triage_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    tri = sub.add_parser(
        "triage", help="triage results: confirm, KG / verifier errors, notes, tags"
    )
    tri_sub = tri.add_subparsers(dest="triage_command", metavar="TRIAGE", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p = tri_sub.add_parser(name, help=help_text)
        p.add_argument("--author", help="who (default: the login name)")
        p.set_defaults(func=_run(cmd_triage))
        return p

    p = add("confirm", "confirm an edge as a blind spot of a run's model")
    p.add_argument("run", type=int)
    p.add_argument("edge", type=int)
    p.add_argument("--reason", default="")
    p = add("kg-error", "the model was right, the KG wrong: an edge (KG-wide) or one reply")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--edge", type=int)
    target.add_argument("--reply", type=int, help="observation id")
    p.add_argument("--run", type=int, help="the run being reviewed (recorded)")
    p.add_argument("--reason", required=True)
    p = add("verifier-error", "override a reply's verdict (default: flip it)")
    p.add_argument("reply", type=int, help="observation id")
    p.add_argument("--category", choices=[str(v) for v in ANSWERED])
    p.add_argument("--reason", required=True)
    p = add("note", "a note on a reply, an edge in a run, or an edge KG-wide")
    p.add_argument("text")
    p.add_argument("--reply", type=int)
    p.add_argument("--run", type=int)
    p.add_argument("--edge", type=int)
    p = add("tag", "tag a reply (or an edge in a run) with a Table 5 error type")
    p.add_argument(
        "type",
        choices=[
            "factual-error",
            "obsolete-knowledge",
            "self-contradiction",
            "inconsistent-response",
        ],
    )
    p.add_argument("--reply", type=int)
    p.add_argument("--run", type=int)
    p.add_argument("--edge", type=int)
    p.add_argument("--reason")
    p = add("retract", "withdraw an earlier entry")
    p.add_argument("entry", type=int)
    p.add_argument("--reason", required=True)
    p = add("reverify", "re-check a run's stored replies with today's verifier (as triage)")
    p.add_argument("run", type=int)
    p.add_argument(
        "--dry-run", action="store_true", help="count and show the changes, store nothing"
    )
    p = tri_sub.add_parser("log", help="the audit trail")
    p.add_argument("--run", type=int)
    p.add_argument("--kg")
    p.add_argument("--edge", type=int)
    p.set_defaults(func=_run(cmd_triage))
    p = tri_sub.add_parser("corrections", help="the KG-corrections list (kg_error entries)")
    p.add_argument("kg")
    p.add_argument("--out", metavar="PATH", help="write CSV (or JSONL for .jsonl)")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.set_defaults(func=_run(cmd_triage))


def add_analysis_commands(sub: argparse._SubParsersAction[ArgumentParser]) -> None:
    """Add review, analyze, compare, triage, export and ego to the top-level subcommands."""
    p = sub.add_parser("review", help="blind spots of a run, or one edge's drill-down (--edge)")
    p.add_argument("run", type=int)
    p.add_argument(
        "--kind",
        default="ranked",
        choices=["ranked", "zero-sense", "flips", "confirmed", "kg-errors"],
    )
    p.add_argument("--sort", default="mean", choices=["mean", "low", "high", "failures"])
    p.add_argument("--limit", type=int, default=30)
    p.add_argument("--edge", type=int, help="drill down on one edge id")
    p.add_argument("--json", metavar="PATH", help="with --edge: write the drill-down as JSON")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    _add_filters(p)
    p.set_defaults(func=_run(cmd_review, read_only=True))

    p = sub.add_parser("analyze", help="rates per predicate, subject, entity group or year")
    p.add_argument("run", type=int)
    p.add_argument(
        "--by", default="predicate", choices=["predicate", "subject", "object", "group", "year"]
    )
    p.add_argument("--prefix", help="with --by group: only tags starting with this, e.g. region:")
    p.add_argument("--sort", choices=["zero_sense", "win", "all_sense", "edges", "name"])
    p.add_argument("--csv", metavar="PATH", help="also write the table as CSV")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--error-types", action="store_true", help="also the Table 5 error types")
    p.add_argument(
        "--grid",
        action="store_true",
        help="instead: the subjects x predicates grid of zero-sense rates (paper Fig. 6)",
    )
    _add_filters(p)
    add_table_options(p)
    p.set_defaults(func=_run(cmd_analyze, read_only=True))

    p = sub.add_parser("compare", help="runs side by side (Table 3), knows / does not, drift")
    p.add_argument("runs", type=int, nargs="*", help="run ids (default: every KGLens run)")
    p.add_argument("--metric", default="win", choices=["win", "zero-sense", "all-sense"])
    p.add_argument(
        "--by",
        choices=["predicate", "subject", "object", "group", "year"],
        help="also a group-by with the runs as columns (Fig. 7-12)",
    )
    p.add_argument("--prefix", help="with --by group: tag prefix, e.g. region:")
    p.add_argument("--limit", type=int, default=15, help="edges listed per direction")
    p.add_argument("--raw", action="store_true", help="ignore triage")
    add_table_options(p)
    p.set_defaults(func=_run(cmd_compare, read_only=True))

    _add_triage_commands(sub)

    p = sub.add_parser("export", help="PKG as GEXF / GraphML, results as CSV / JSONL, HTML report")
    p.add_argument("run", type=int)
    p.add_argument("--gexf", metavar="PATH")
    p.add_argument("--graphml", metavar="PATH")
    p.add_argument("--csv", metavar="PATH", help="one row per edge")
    p.add_argument("--jsonl", metavar="PATH", help="one object per edge")
    p.add_argument("--replies", metavar="PATH", help="every reply, .csv or .jsonl")
    p.add_argument("--groups", metavar="PATH", help="a group table as CSV (see --by)")
    p.add_argument(
        "--by", default="predicate", choices=["predicate", "subject", "object", "group", "year"]
    )
    p.add_argument("--prefix")
    p.add_argument(
        "--html",
        metavar="PATH",
        help="self-contained report with plots (another mode's run: the report its mode declares)",
    )
    add_figure_options(p, "the run's figures (rates over the run, per predicate, the Fig. 6 grid)")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--unprobed", action="store_true", help="graphs: also edges not probed")
    p.add_argument("--raw", action="store_true", help="ignore triage")
    p.set_defaults(func=_run(cmd_export, read_only=True))

    p = sub.add_parser("ego", help="the PKG around an entity (edges with expected error rates)")
    p.add_argument("run", type=int)
    p.add_argument("entity", help="entity key, label or alias")
    p.add_argument("--radius", type=int, default=1)
    p.add_argument("--max-edges", type=int, default=150)
    p.add_argument("--json", metavar="PATH", help="write nodes and edges (with layout) as JSON")
    p.add_argument("--force", action="store_true", help=FORCE_HELP)
    p.add_argument("--raw", action="store_true", help="ignore triage")
    p.set_defaults(func=_run(cmd_ego, read_only=True))
