"""Model comparison: the paper's Table 3 grid (models by KG and difficulty) and, for two runs on
the same KG, the edges one model knows and the other does not."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Select, Static
from textual.worker import Worker

from kglens_tui.analysis.compare import (
    STATUSES,
    Drift,
    EdgePair,
    GridAverage,
    compare_partners,
    drift,
    load_runs,
    run_grid,
)
from kglens_tui.analysis.compare_text import drift_test_lines
from kglens_tui.analysis.groups import run_column
from kglens_tui.answers.bias import run_bias_warning
from kglens_tui.core.safetext import LABEL_LIMIT, literal, markup_literal, visible
from kglens_tui.modes.kglens.rate_text import win_text
from kglens_tui.textfmt import counted, pct, short_target, signed
from kglens_tui.tui.format import CELL_PADDING
from kglens_tui.tui.reads import ReadsOnWorkers, failed_read, read_then
from kglens_tui.tui.screens.analysis import heat_cell
from kglens_tui.tui.screens.run_text import WARNING_STYLE, heat, short
from kglens_tui.tui.screens.workers import on_stack
from kglens_tui.tui.widgets.literal_table import LiteralDataTable, cell_width, fit_rows
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

COMPARE_HELP = """\
## Compare runs

| key | action |
| --- | --- |
| `o` | with or without the triage overrides |
| `escape` | back |
| `]` / `[` | sort the focused table by the next column / the other way (or click a column's title) |

**Top**: Table 3, one row per model, one column per KG and difficulty: the KG-wide win rate
(95% interval, chance on the same estimand, n answers) of the run that stands for that cell
(one that examined edges, did not fail and finished before others, then the most edges
examined, then the latest; its sampler does not matter: the KG-wide rate is one estimand
whatever it is), then its win rate over the edges it examined (95% Wilson interval, n examined
edges, chance: blind guessing on the questions the run asked, each ask independent, as
`kglens report`; like the rates, over the replies left after triage unless `o` shows them as
logged). An average column per difficulty with two or more KGs: the mean of a model's finished
runs there, its n the answers of their KG-wide rates; rates of different difficulties are never
averaged (what chance scores differs with the questions asked).
**Bottom**: run A against run B (choose B above; the KGLens runs on A's KG, in the same order,
the first by default): first the KG-wide difference of their win rates with its 95% interval and
p-value (saying on that line when the runs differ in difficulty, KG selection, verifier, question
generator or prompt order: the difference is then not the model's alone), then the change of the
paper's rates over the edges each run examined, then per predicate and per edge; the screen
scrolls to what does not fit. Then, on the edges both examined: how many edges each
model knows (m > n), partly knows or does not know (m = 0), and the edges one knows and the other
does not, largest difference in expected error first (m/n err: right / wrong answers
and expected error in each run). The change B−A is drift only for the same model asked the same
kind of questions (difficulty, KG selection, verifier, question generator and prompt order alike)
by the same sampler (the rates over the examined edges move with where a sampler looked);
otherwise it says what differs.
**⚠ bias**: a run whose Yes/No answers are explained by answer bias (a yes-rate outside 20-80%
and a balanced accuracy below 0.6, as `kglens report`); under the table, each such run of the
table, A or B with its warning.
"""

LIMIT = 100
TABLE_ROOM = 6
"""Cells of the screen's width a table cannot use (the screen's padding, the screen's
scrollbar, always kept, and a table's own)."""
PAIR_COLUMNS = ("edge", "subject", "predicate", "object", "A m/n err", "B m/n err")
PAIR_SHRINK = ((3, 10), (2, 8), (1, 10))
"""The pair tables' text columns, cut in this order, each to no less than this."""
READ_GROUP = "compare-read"
"""The worker that reads the runs the screen compares."""
READING = "reading the runs…"


def _grid_text(cell: str | list[Text], one_line: bool) -> str | Text:
    """A Table 3 cell from its lines: on one line (the lines joined by " · ") or on several."""
    if isinstance(cell, str):
        return cell
    return Text(" · " if one_line else "\n").join(cell)


def pair_row(p: EdgePair) -> tuple[str | Text, ...]:
    """One edge known by one run and not the other."""
    return (
        str(p.edge_id),
        short(p.subject, 24),
        short(p.predicate, 26),
        short(p.object, 30),
        heat(p.mean_a, f"{p.m_a}/{p.n_a} {pct(p.mean_a)}"),
        heat(p.mean_b, f"{p.m_b}/{p.n_b} {pct(p.mean_b)}"),
    )


Grid = tuple[list[str], list[list[str | list[Text]]]]
"""Table 3's columns and rows (a cell's lines)."""


@dataclass
class CompareRead:
    """What the compare screen shows, read and worked out off the UI thread (`read_compare`):
    A's partners, Table 3 (when asked for), the diff of A and B and the bias warnings."""

    generation: int
    run_b: int | None
    partners: list[tuple[int, str]]
    labels: dict[int, str]
    warnings: dict[int, str]
    grid: Grid | None = None
    grid_runs: list[int] = field(default_factory=list)
    a_line: str = ""
    """A's run, label, KG and difficulty (markup, its data escaped)."""
    status: str = ""
    """The diff's summary (markup, its data escaped); a line when there is no B."""
    titles: tuple[str, str] = ("", "")
    pairs: tuple[list[EdgePair], list[EdgePair]] = ([], [])


def read_compare(
    conn: sqlite3.Connection,
    run_a: int,
    run_b: int | None,
    *,
    adjusted: bool,
    with_grid: bool,
    warnings: dict[int, str],
    generation: int = 0,
) -> CompareRead:
    """Everything the compare screen shows: B defaults to A's first partner; ``warnings``: the
    bias warnings already read (not read again)."""
    labels = dict(conn.execute("SELECT id, target_label FROM run"))
    partners = [(rid, labels[rid]) for rid in compare_partners(conn, run_a)]
    if run_b is None and partners:
        run_b = int(partners[0][0])
    out = CompareRead(generation, run_b, partners, labels, dict(warnings))
    if with_grid:
        out.grid, out.grid_runs = _read_grid(conn, out, adjusted)
    _read_diff(conn, out, run_a, adjusted)
    for run_id in [run_a, *([run_b] if run_b is not None else [])]:
        _warning(conn, out, run_id)
    return out


def _warning(conn: sqlite3.Connection, out: CompareRead, run_id: int) -> str:
    """A run's answer-bias warning (`answers.bias.run_bias_warning`), read once."""
    if run_id not in out.warnings:
        out.warnings[run_id] = run_bias_warning(conn, run_id)
    return out.warnings[run_id]


def _read_grid(
    conn: sqlite3.Connection, out: CompareRead, adjusted: bool
) -> tuple[Grid, list[int]]:
    """Table 3 (`run_grid`) as cells of lines, and the runs standing for its cells."""
    grid = run_grid(conn, adjusted=adjusted)
    averaged = [d for d in grid.difficulties() if grid.kgs_per_difficulty(d) > 1]
    grid_runs: list[int] = []
    columns = [
        "model",
        *(f"{kg} {diff.upper()}" for kg, diff in grid.columns),
        *(f"Avg {diff.upper()}" for diff in averaged),
    ]
    rows: list[list[str | list[Text]]] = []
    for model in grid.models:
        cells: list[str | list[Text]] = [short_target(model)]
        for kg, diff in grid.columns:
            cell = grid.cell(model, kg, diff)
            if cell is None:
                cells.append("")
                continue
            win = cell.rates.win
            examined_chance = f"chance {pct(cell.chance.win_rate)}"
            if cell.kg_wide is not None:
                wide = cell.kg_wide.rate
                lines = [
                    heat(wide.error, f"KG-wide {win_text(wide)}"),
                    Text(f"chance {pct(cell.kg_wide.chance_win)} · n={wide.answers:,}"),
                    Text(
                        f"examined {pct(win.value)} n={cell.rates.examined:,} · {examined_chance}"
                    ),
                    Text(f"run {cell.run_id}{cell.incomplete}"),
                ]
            else:
                lines = [
                    heat_cell(win, None if win.value is None else 1.0 - win.value),
                    Text(f"n={cell.rates.examined:,}"),
                    Text(f"{examined_chance} · run {cell.run_id}{cell.incomplete}"),
                ]
            if _warning(conn, out, cell.run_id):
                lines.append(Text("⚠ bias", WARNING_STYLE))
            grid_runs.append(cell.run_id)
            cells.append(lines)
        cells.extend(_average(grid.average(model, diff)) for diff in averaged)
        rows.append(cells)
    return (columns, rows), grid_runs


def _read_diff(conn: sqlite3.Connection, out: CompareRead, run_a: int, adjusted: bool) -> None:
    """A's line and, with a B, the diff of A and B (`drift`)."""
    run_ids = [run_a] + ([out.run_b] if out.run_b is not None else [])
    runs = load_runs(conn, run_ids)
    col_a = run_column(runs[0])
    out.a_line = (
        f"[b]A[/]: run {col_a.run_id} · {markup_literal(col_a.label, limit=LABEL_LIMIT)} · "
        f"{markup_literal(col_a.kg, limit=LABEL_LIMIT)} "
        f"{col_a.difficulty} · [b]B[/]:"
    )
    if len(runs) < 2:
        out.status = "No other run on this KG to compare with."
        return
    moved = drift(runs[0], runs[1], adjusted=adjusted)
    diff = moved.diff
    head = "A \\ B".ljust(10) + "".join(s.rjust(10) for s in STATUSES)
    tests = [markup_literal(line) for line in drift_test_lines(moved, run_a, runs[1].run.id)]
    lines = [
        tests[0],  # the KG-wide difference with its interval and p first
        drift_line(moved),
        *tests[1:],
        f"[b]{counted(diff.common, 'edge')} examined by both[/]",
        head,
    ]
    for x in STATUSES:
        lines.append(x.ljust(10) + "".join(str(diff.table[(x, y)]).rjust(10) for y in STATUSES))
    out.status = "\n".join(lines)
    out.titles = (
        f"A knows, B does not ({len(diff.a_only)})",
        f"B knows, A does not ({len(diff.b_only)})",
    )
    out.pairs = (diff.a_only[:LIMIT], diff.b_only[:LIMIT])


class CompareScreen(ReadsOnWorkers, Screen[Any]):
    """Table 3 and a knowledge diff of two runs, read on a worker thread (`read_compare`):
    the screen shows at once and fills in; a read asked for later (B chosen, `o`) supersedes
    one still going, whose result is then dropped; a failed read is one literal line."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("o", "toggle_overrides", "Overrides on/off"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = COMPARE_HELP

    def __init__(self, run_a: int, run_b: int | None = None) -> None:
        super().__init__()
        self.run_a = run_a
        self.run_b = run_b
        self.adjusted = True
        self._warnings: dict[int, str] = {}
        """Each run's answer-bias warning ('' none), as read once."""
        self._labels: dict[int, str] = {}
        self._grid_runs: list[int] = []
        """The runs standing for the table's cells."""
        self._grid: Grid = ([], [])
        """Table 3's columns and rows (a cell's lines), as last read."""
        self._pairs: tuple[list[EdgePair], list[EdgePair]] = ([], [])
        """The edges A knows and B does not, and those B knows and A does not."""
        self._asked = 0
        """The newest read asked for (a result of an older one is dropped)."""
        self._shown = 0
        """The read the screen shows (0: none yet)."""
        self._grid_due = True
        """Whether Table 3 is to be read again (first, and after `o`)."""
        self._partners_shown = False

    @property
    def loaded(self) -> bool:
        """Whether the newest read asked for is shown."""
        return self._shown == self._asked and self._shown > 0

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with VerticalScroll(id="cmp"):
            yield Static("Table 3 · win rate per model, KG and difficulty", classes="section-title")
            yield LiteralDataTable(id="cmp-grid", cursor_type="row", zebra_stripes=True)
            yield Static("", id="cmp-bias")
            with Horizontal(id="cmp-controls"):
                yield Static("", id="cmp-a")
                yield Select([], id="cmp-b", prompt="run B")
            yield Static(READING, id="cmp-status")
            with Horizontal(id="cmp-diff"):
                with Vertical(classes="cmp-side"):
                    yield Static("", id="cmp-a-title", classes="section-title")
                    yield LiteralDataTable(
                        id="cmp-a-only", cursor_type="row", zebra_stripes=True, sortable=True
                    )
                with Vertical(classes="cmp-side"):
                    yield Static("", id="cmp-b-title", classes="section-title")
                    yield LiteralDataTable(
                        id="cmp-b-only", cursor_type="row", zebra_stripes=True, sortable=True
                    )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#cmp-bias", Static).display = False
        self.refresh_view()

    def refresh_view(self) -> None:
        """Read the grid, the diff and the warnings again (on a worker)."""
        self._grid_due = True
        self._read()

    def _read(self) -> None:
        """Ask for a read of what the screen shows; it supersedes any read still going."""
        self._asked += 1
        run_a, run_b, adjusted = self.run_a, self.run_b, self.adjusted
        generation, with_grid, warnings = self._asked, self._grid_due, dict(self._warnings)
        if self._shown:
            self.query_one("#cmp-status", Static).update(READING)
        read_then(
            self,
            lambda conn: read_compare(
                conn,
                run_a,
                run_b,
                adjusted=adjusted,
                with_grid=with_grid,
                warnings=warnings,
                generation=generation,
            ),
            self._read_done,
            f"reading run {run_a} to compare",
            group=READ_GROUP,
        )

    def _read_done(self, read: CompareRead) -> None:
        """A read, shown when it is the newest asked for."""
        if read.generation == self._asked:
            self._apply(read)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed read as one literal line where the diff goes (not as a notification)."""
        failed = (
            failed_read(event, "the runs to compare") if event.worker.group == READ_GROUP else None
        )
        if failed is not None and on_stack(self):
            self.query_one("#cmp-status", Static).update(literal(failed, one_line=True))

    def _apply(self, read: CompareRead) -> None:
        """Show a read."""
        self._shown = read.generation
        self._warnings.update(read.warnings)
        self._labels = read.labels
        if read.grid is not None:
            self._grid, self._grid_runs = read.grid, read.grid_runs
            self._grid_due = False
        if not self._partners_shown:
            self._partners_shown = True
            select = self.query_one("#cmp-b", Select)
            select.set_options(
                [(literal(f"run {rid} · {label}"), rid) for rid, label in read.partners]
            )
            if read.run_b is not None:
                with select.prevent(Select.Changed):
                    select.value = read.run_b
        self.run_b = read.run_b
        self.query_one("#cmp-a", Static).update(read.a_line)
        self.query_one("#cmp-status", Static).update(read.status)
        self.query_one("#cmp-a-title", Static).update(read.titles[0])
        self.query_one("#cmp-b-title", Static).update(read.titles[1])
        self._pairs = read.pairs
        self._fill_grid()
        self._fill_diff()
        self._show_bias()

    def _show_bias(self) -> None:
        """Under the table, a line for each run of the table, A or B whose Yes/No answers are
        explained by answer bias; hidden when there is none."""
        shown = [self.run_a, *([self.run_b] if self.run_b is not None else [])]
        run_ids = list(dict.fromkeys([*shown, *self._grid_runs]))
        text = Text()
        for run_id in run_ids:
            warning = self._warnings.get(run_id, "")
            if warning:
                label = visible(self._labels.get(run_id, ""), one_line=True, limit=LABEL_LIMIT)
                text.append("\n" if text else "")
                text.append(f"⚠ run {run_id} ({label}): {warning}", WARNING_STYLE)
        bias = self.query_one("#cmp-bias", Static)
        bias.update(text)
        bias.display = bool(text)

    def _room(self) -> int:
        return self.size.width - TABLE_ROOM

    def _fill_grid(self) -> None:
        """Table 3 fitted to the screen: each cell on one line where the table fits so, else a
        line each for the rate, the edges examined and chance (never cut); the model cut with
        "…" where it must be."""
        columns, rows = self._grid
        table = self.query_one("#cmp-grid", LiteralDataTable)
        for one_line in (True, False):
            cells = [[_grid_text(cell, one_line) for cell in row] for row in rows]
            natural = [
                max([cell_width(label), *(cell_width(row[i]) for row in cells)])
                for i, label in enumerate(columns)
            ]
            if sum(natural) + CELL_PADDING * len(columns) <= self._room():
                break
        height = max([1, *(len(c) for row in rows for c in row if isinstance(c, list))])
        table.fill(
            columns,
            fit_rows(columns, cells, self._room(), [(0, 12)]),
            height=1 if one_line else height,
        )

    def _fill_diff(self) -> None:
        """The edges one run knows and the other does not, fitted to the screen: object,
        predicate and subject cut with "…", the edge and the counts whole."""
        for table_id, pairs in zip(("#cmp-a-only", "#cmp-b-only"), self._pairs, strict=True):
            rows = [pair_row(p) for p in pairs]
            self.query_one(table_id, LiteralDataTable).fill(
                PAIR_COLUMNS, fit_rows(PAIR_COLUMNS, rows, self._room(), PAIR_SHRINK)
            )

    def on_resize(self) -> None:
        if self._grid[0]:  # shown once read
            self._fill_grid()
            self._fill_diff()

    @on(Select.Changed, "#cmp-b")
    def _b_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self.run_b:
            self.run_b = event.value
            self._read()

    def action_toggle_overrides(self) -> None:
        self.adjusted = not self.adjusted
        self.refresh_view()
        self.notify("With triage overrides." if self.adjusted else "Raw: triage ignored.")


def _average(avg: GridAverage | None) -> str:
    """An average cell, with the runs it leaves out ("" where there is no average)."""
    return "" if avg is None else avg.text()


def drift_line(moved: Drift) -> str:
    """B minus A for the three rates over the edges each run examined and the mean posterior
    error (markup), labelled so: the drift between runs when the same model was asked the same
    kind of questions, else what differs (the KG-wide difference, with its interval, goes
    before it: `drift_test_lines`)."""
    parts = []
    for metric, label in (("win", "win"), ("zero_sense", "zero-sense"), ("all_sense", "all-sense")):
        d = moved.delta.get(metric)
        parts.append(f"{label} {'—' if d is None else signed(d * 100)}")
    shift = "—" if moved.mean_shift is None else signed(moved.mean_shift * 100)
    if moved.is_drift:
        head = "examined edges: drift B−A (same model, same kind of questions; points)"
    else:
        why = moved.not_drift_because
        head = f"examined edges: B−A, not drift ({markup_literal('; '.join(why))}; points)"
    chance = (
        f"chance win A {pct(moved.chance_a.win_rate)}, B {pct(moved.chance_b.win_rate)} · "
        f"n A {moved.rates_a.examined:,}, B {moved.rates_b.examined:,}"
    )
    return (
        f"{head}: " + " · ".join(parts) + f" · mean error {shift}"
        f" · {counted(len(moved.changed), 'edge')} changed status\n{chance}"
    )
