"""Model comparison: the paper's Table 3 grid (models by KG and difficulty) and, for two runs on
the same KG, the edges one model knows and the other does not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Select, Static

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
from kglens_tui.analysis.kgwide_render import win_text
from kglens_tui.core.safetext import LABEL_LIMIT, literal, markup_literal, visible
from kglens_tui.probe.bias import run_bias_warning
from kglens_tui.textfmt import pct
from kglens_tui.tui.format import CELL_PADDING
from kglens_tui.tui.screens.analysis import heat_cell
from kglens_tui.tui.screens.run_text import WARNING_STYLE, heat, short
from kglens_tui.tui.widgets.literal_table import LiteralDataTable, cell_width, fit_rows

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

COMPARE_HELP = """\
## Compare runs

| key | action |
| --- | --- |
| `o` | with or without the triage overrides |
| `escape` | back |

**Top**: Table 3, one row per model, one column per KG and difficulty: the win rate (95% Wilson
interval) of the run that stands for that cell (one that examined edges, did not fail and
finished before others, then the most edges examined, then the latest), n (examined edges) and
chance (blind guessing
on the questions the run asked, each ask independent, as `kglens report`; like the rates, over
the replies left after triage unless `o` shows them as logged). An average column per
difficulty with two or more KGs: the mean of a model's finished runs there; rates of different
difficulties are never averaged (what chance scores differs with the questions asked).
**Bottom**: run A against run B (choose B above; the KGLens runs on A's KG, in the same order,
the first by default) on the edges both examined: how many edges each
model knows (m > n), partly knows or does not know (m = 0), and the edges one knows and the other
does not, largest difference in expected error first (m/n err: right / wrong answers
and expected error in each run). The change B−A is drift only for the same model asked the same
kind of questions (difficulty, question generator); otherwise it says what differs.
**⚠ bias**: a run whose Yes/No answers are explained by answer bias (a yes-rate outside 20-80%
and a balanced accuracy below 0.6, as `kglens report`); under the table, each such run of the
table, A or B with its warning.
"""

LIMIT = 100
TABLE_ROOM = 4
"""Cells of the screen's width a table cannot use (the screen's padding, a scrollbar)."""
PAIR_COLUMNS = ("edge", "subject", "predicate", "object", "A m/n err", "B m/n err")
PAIR_SHRINK = ((3, 10), (2, 8), (1, 10))
"""The pair tables' text columns, cut in this order, each to no less than this."""


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


class CompareScreen(Screen):
    """Table 3 and a knowledge diff of two runs."""

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
        self._grid_runs: list[int] = []
        """The runs standing for the table's cells."""
        self._grid: tuple[list[str], list[list[str | list[Text]]]] = ([], [])
        """Table 3's columns and rows (a cell's lines), as last read."""
        self._pairs: tuple[list[EdgePair], list[EdgePair]] = ([], [])
        """The edges A knows and B does not, and those B knows and A does not."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="cmp"):
            yield Static("Table 3 · win rate per model, KG and difficulty", classes="section-title")
            yield LiteralDataTable(id="cmp-grid", cursor_type="row", zebra_stripes=True)
            yield Static("", id="cmp-bias")
            with Horizontal(id="cmp-controls"):
                yield Static("", id="cmp-a")
                yield Select([], id="cmp-b", prompt="run B")
            yield Static("", id="cmp-status")
            with Horizontal(id="cmp-diff"):
                with Vertical(classes="cmp-side"):
                    yield Static("", id="cmp-a-title", classes="section-title")
                    yield LiteralDataTable(id="cmp-a-only", cursor_type="row", zebra_stripes=True)
                with Vertical(classes="cmp-side"):
                    yield Static("", id="cmp-b-title", classes="section-title")
                    yield LiteralDataTable(id="cmp-b-only", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        conn = self.app.db()
        labels = dict(conn.execute("SELECT id, target_label FROM run"))
        others = [(rid, labels[rid]) for rid in compare_partners(conn, self.run_a)]
        select = self.query_one("#cmp-b", Select)
        select.set_options([(literal(f"run {rid} · {label}"), rid) for rid, label in others])
        if self.run_b is None and others:
            self.run_b = int(others[0][0])
        if self.run_b is not None:
            with select.prevent(Select.Changed):
                select.value = self.run_b
        self.refresh_view()

    def refresh_view(self) -> None:
        """Recompute the grid and the diff."""
        self._show_grid()
        self._show_diff()
        self._show_bias()

    def _warning(self, run_id: int) -> str:
        """A run's answer-bias warning (`probe.bias.run_bias_warning`), read once."""
        if run_id not in self._warnings:
            self._warnings[run_id] = run_bias_warning(self.app.db(), run_id)
        return self._warnings[run_id]

    def _show_bias(self) -> None:
        """Under the table, a line for each run of the table, A or B whose Yes/No answers are
        explained by answer bias; hidden when there is none."""
        shown = [self.run_a, *([self.run_b] if self.run_b is not None else [])]
        run_ids = list(dict.fromkeys([*shown, *self._grid_runs]))
        labels = dict(self.app.db().execute("SELECT id, target_label FROM run"))
        text = Text()
        for run_id in run_ids:
            warning = self._warning(run_id)
            if warning:
                label = visible(labels.get(run_id, ""), one_line=True, limit=LABEL_LIMIT)
                text.append("\n" if text else "")
                text.append(f"⚠ run {run_id} ({label}): {warning}", WARNING_STYLE)
        bias = self.query_one("#cmp-bias", Static)
        bias.update(text)
        bias.display = bool(text)

    def _show_grid(self) -> None:
        grid = run_grid(self.app.db(), adjusted=self.adjusted)
        averaged = [d for d in grid.difficulties() if grid.kgs_per_difficulty(d) > 1]
        self._grid_runs = []
        columns = [
            "model",
            *(f"{kg} {diff.upper()}" for kg, diff in grid.columns),
            *(f"Avg {diff.upper()}" for diff in averaged),
        ]
        rows: list[list[str | list[Text]]] = []
        for model in grid.models:
            cells: list[str | list[Text]] = [model]
            for kg, diff in grid.columns:
                cell = grid.cell(model, kg, diff)
                if cell is None:
                    cells.append("")
                    continue
                win = cell.rates.win
                if cell.kg_wide is not None:
                    wide = cell.kg_wide.rate
                    lines = [
                        heat(wide.error, f"KG-wide {win_text(wide)}"),
                        Text(f"examined {pct(win.value)} n={cell.rates.examined:,}"),
                    ]
                else:
                    lines = [
                        heat_cell(win, None if win.value is None else 1.0 - win.value),
                        Text(f"n={cell.rates.examined:,}"),
                    ]
                lines.append(
                    Text(f"chance {pct(cell.chance.win_rate)} · run {cell.run_id}{cell.incomplete}")
                )
                if self._warning(cell.run_id):
                    lines.append(Text("⚠ bias", WARNING_STYLE))
                self._grid_runs.append(cell.run_id)
                cells.append(lines)
            cells.extend(_average(grid.average(model, diff)) for diff in averaged)
            rows.append(cells)
        self._grid = (columns, rows)
        self._fill_grid()

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
            fit_rows(columns, cells, self._room(), [(0, 10)]),
            height=1 if one_line else height,
        )

    def _show_diff(self) -> None:
        status = self.query_one("#cmp-status", Static)
        self._pairs = ([], [])
        self._fill_diff()
        run_ids = [self.run_a] + ([self.run_b] if self.run_b is not None else [])
        runs = load_runs(self.app.db(), run_ids)
        col_a = run_column(runs[0])
        self.query_one("#cmp-a", Static).update(
            f"[b]A[/]: run {col_a.run_id} · {markup_literal(col_a.label, limit=LABEL_LIMIT)} · "
            f"{markup_literal(col_a.kg, limit=LABEL_LIMIT)} "
            f"{col_a.difficulty} · [b]B[/]:"
        )
        if len(runs) < 2:
            status.update("No other run on this KG to compare with.")
            return
        moved = drift(runs[0], runs[1], adjusted=self.adjusted)
        diff = moved.diff
        head = "A \\ B".ljust(10) + "".join(s.rjust(10) for s in STATUSES)
        tests = [
            markup_literal(line) for line in drift_test_lines(moved, self.run_a, runs[1].run.id)
        ]
        lines = [f"[b]{diff.common:,} edges examined by both[/]", drift_line(moved), *tests, head]
        for x in STATUSES:
            lines.append(x.ljust(10) + "".join(str(diff.table[(x, y)]).rjust(10) for y in STATUSES))
        status.update("\n".join(lines))
        self.query_one("#cmp-a-title", Static).update(f"A knows, B does not ({len(diff.a_only)})")
        self.query_one("#cmp-b-title", Static).update(f"B knows, A does not ({len(diff.b_only)})")
        self._pairs = (diff.a_only[:LIMIT], diff.b_only[:LIMIT])
        self._fill_diff()

    def _fill_diff(self) -> None:
        """The edges one run knows and the other does not, fitted to the screen: object,
        predicate and subject cut with "…", the edge and the counts whole."""
        for table_id, pairs in zip(("#cmp-a-only", "#cmp-b-only"), self._pairs, strict=True):
            rows = [pair_row(p) for p in pairs]
            self.query_one(table_id, LiteralDataTable).fill(
                PAIR_COLUMNS, fit_rows(PAIR_COLUMNS, rows, self._room(), PAIR_SHRINK)
            )

    def on_resize(self) -> None:
        if self._grid[0]:  # shown once mounted
            self._fill_grid()
            self._fill_diff()

    @on(Select.Changed, "#cmp-b")
    def _b_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self.run_b:
            self.run_b = event.value
            self._show_diff()
            self._show_bias()

    def action_toggle_overrides(self) -> None:
        self.adjusted = not self.adjusted
        self.refresh_view()
        self.notify("With triage overrides." if self.adjusted else "Raw: triage ignored.")


def _average(avg: GridAverage | None) -> str:
    """An average cell, with the runs it leaves out ("" where there is no average)."""
    return "" if avg is None else avg.text()


def drift_line(moved: Drift) -> str:
    """B minus A for the three rates and the mean posterior error (markup): the drift between
    runs when the same model was asked the same kind of questions, else what differs."""
    parts = []
    for metric, label in (("win", "win"), ("zero_sense", "zero-sense"), ("all_sense", "all-sense")):
        d = moved.delta.get(metric)
        parts.append(f"{label} {'—' if d is None else f'{d * 100:+.1f}'}")
    shift = "—" if moved.mean_shift is None else f"{moved.mean_shift * 100:+.1f}"
    if moved.is_drift:
        head = "drift B−A (same model, same kind of questions; points)"
    else:
        why = moved.not_drift_because
        head = f"B−A, not drift ({markup_literal('; '.join(why))}; points)"
    chance = (
        f"chance win A {pct(moved.chance_a.win_rate)}, B {pct(moved.chance_b.win_rate)} · "
        f"n A {moved.rates_a.examined:,}, B {moved.rates_b.examined:,}"
    )
    return (
        f"{head}: " + " · ".join(parts) + f" · mean error {shift}"
        f" · {len(moved.changed):,} edges changed status\n{chance}"
    )
