"""Analysis of a run: win / zero-sense / all-sense rates with intervals per predicate, entity
group (region, ...) or fact year, heat-coloured like the paper's Fig. 6-12."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Select, Static, TabbedContent, TabPane

from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.grid import (
    COL_LABEL_LIMIT,
    GRID_FIXED_COLUMNS,
    GRID_METRIC,
    LEGEND,
    ROW_LABEL_LIMIT,
    cell_detail,
    cell_text,
    chance_text,
    row_cell,
    total_text,
)
from kglens_tui.analysis.groups import (
    CrossTable,
    GroupRow,
    cross_table,
    group_table,
    overall,
)
from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.intervals import Proportion
from kglens_tui.core.safetext import literal
from kglens_tui.textfmt import interval, pct, rate_ci
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.screens.run_data_screen import RunDataScreen
from kglens_tui.tui.screens.run_text import run_label
from kglens_tui.tui.widgets.charts import Bar, BarChart
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

ANALYSIS_HELP = """\
## Analysis

| key | action |
| --- | --- |
| `p` / `g` / `y` / `s` | group by predicate / region / year / subject |
| `o` | show the numbers with or without the triage overrides |
| `t` / `f` / `b` | the table / the subjects x predicates grid (paper Fig. 6) / bars |
| `escape` | back |

Each row is a group of edges (its number of edges in `edges`); rates are over the examined
edges (`examined`) with 95% Wilson intervals. **Win**: m > n; **zero-sense**: m = 0;
**all-sense**: n = 0. Cells are coloured by error: red is bad (a low win rate or a high
zero-sense rate), green good. **Chance**, beside each rate: what blind guessing scores on the
questions the run asked about the group, each ask independent (a Yes/No guess right half the
time, a Wh guess the predicate's most common true object; as `kglens report`), with or without
the triage as the rates.

**Grid** (Fig. 6): a row per subject, a column per predicate; a cell's colour is the zero-sense
rate of the subject's edges with that predicate, its dot their share of the subject's edges.
Move the cursor onto a cell for its rates, intervals and n. **Bars**: the zero-sense rate of
each group of the table with its 95% interval (the whisker), n and chance.
"""

GROUPINGS = {
    "predicate": ("predicate", None, "predicate"),
    "region": ("group", "region:", "region (subject)"),
    "group": ("group", None, "any entity group (subject)"),
    "year": ("year", None, "fact year"),
    "subject": ("subject", None, "subject entity"),
}


def heat_cell(p: Proportion, badness: float | None) -> Text:
    """A rate with its interval on a heat background (badness 0 green .. 1 red)."""
    if p.value is None:
        return Text("—")
    label = f" {pct(p.value):>6} {interval(p.low, p.high):<14}"
    return Text(label, style=f"{text_on(badness)} on {heat_hex(badness)}")


def bar_note(row: GroupRow) -> str:
    """What follows a group's zero-sense bar: its n and, once an edge was examined, what chance
    scores on the group's questions ("n=13 · chance 15.4%")."""
    if not row.rates.examined:
        return "n=0"
    return f"n={row.rates.examined} · chance {pct(row.chance.zero_sense)}"


class AnalysisScreen(RunDataScreen):
    """Group-by tables of one run."""

    BINDINGS = [
        Binding("p", "by('predicate')", "Predicate", tooltip="By predicate"),
        Binding("g", "by('region')", "Region", tooltip="By region"),
        Binding("y", "by('year')", "Year", tooltip="By year", show=False),
        Binding("s", "by('subject')", "By subject", show=False),
        Binding("o", "toggle_overrides", "Overrides", tooltip="Overrides on/off"),
        Binding("t", "tab('an-tab-table')", "Table", show=False),
        Binding("f", "tab('an-tab-grid')", "Grid", tooltip="Fig. 6 grid"),
        Binding("b", "tab('an-tab-bars')", "Bars"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = ANALYSIS_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, run_id: int, data: RunData | None = None) -> None:
        super().__init__(run_id, data)
        self.by = "predicate"
        self.adjusted = True

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="an"):
            yield Static("", id="an-title")
            with Horizontal(id="an-controls"):
                yield Select(
                    [(label, key) for key, (_, _, label) in GROUPINGS.items()],
                    id="an-by",
                    allow_blank=False,
                    value="predicate",
                )
                yield Static("", id="an-mode")
            yield Static("", id="an-overall")
            with TabbedContent(id="an-tabs"):
                with TabPane("Table", id="an-tab-table"):
                    yield LiteralDataTable(id="an-table", cursor_type="row", zebra_stripes=False)
                with TabPane("Grid (Fig. 6)", id="an-tab-grid"):
                    yield Static(LEGEND, id="an-grid-legend", markup=False)
                    yield LiteralDataTable(id="an-grid", cursor_type="cell", zebra_stripes=False)
                    yield Static("", id="an-grid-cell", markup=False)
                with TabPane("Bars", id="an-tab-bars"), VerticalScroll(id="an-bars-pane"):
                    yield Static("", id="an-bars")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#an-title", Static).update(run_label(self.data))
        self.query_one("#an-table", DataTable).focus()

    def on_screen_resume(self) -> None:
        self.refresh_view()  # also when first shown

    def refresh_view(self) -> None:
        """Recompute the table for the current grouping and override mode."""
        data = self.data
        by, prefix, label = GROUPINGS[self.by]
        rows = group_table(data, by, adjusted=self.adjusted, prefix=prefix)
        mode = "with triage overrides" if self.adjusted else "raw (triage ignored)"
        self.query_one("#an-mode", Static).update(f"{len(rows)} groups · {mode} · o toggles")
        total = overall(data, adjusted=self.adjusted)
        r, chance = total.rates, total.chance
        self.query_one("#an-overall", Static).update(
            f"[b]All {total.edges:,} edges[/] ({r.examined:,} examined) · win "
            f"{rate_ci(*r.win.bounds)} chance {pct(chance.win_rate)} · zero-sense "
            f"{rate_ci(*r.zero_sense.bounds)} chance {pct(chance.zero_sense)} · all-sense "
            f"{rate_ci(*r.all_sense.bounds)} chance {pct(chance.all_sense)}"
        )
        table = self.query_one("#an-table", DataTable)
        table.clear(columns=True)
        table.add_columns(
            label,
            "edges",
            "examined",
            "win",
            "chance",
            "zero-sense",
            "chance",
            "all-sense",
            "chance",
            "mean P(err), examined",
        )
        for row in rows:
            table.add_row(*self._cells(row), key=row.key)
        self.bars = BarChart(
            [
                Bar(
                    row.label,
                    row.rates.zero_sense.value,
                    row.rates.zero_sense.low,
                    row.rates.zero_sense.high,
                    bar_note(row),
                )
                for row in rows
            ],
            label_width=28,
            title=f"Zero-sense rate per {label}: 95% Wilson interval ├─┤, n examined edges, "
            "what chance scores on the same questions",
        )
        self.query_one("#an-bars", Static).update(self.bars)
        self._grid(cross_table(data, "subject", "predicate", adjusted=self.adjusted))

    def _grid(self, cross: CrossTable) -> None:
        """The Fig. 6 grid: one row per subject, one column per predicate, worst first."""
        self.cross = cross
        grid = self.query_one("#an-grid", DataTable)
        grid.clear(columns=True)
        grid.add_column("subject", key="subject")
        grid.add_column("all", key="all")
        grid.add_column("chance", key="chance")
        for col in cross.cols:
            grid.add_column(literal(col.label, one_line=True, limit=COL_LABEL_LIMIT), key=col.key)
        for row in cross.rows:
            grid.add_row(
                literal(row.label, one_line=True, limit=ROW_LABEL_LIMIT),
                total_text(row.rates.get(GRID_METRIC)),
                Text(chance_text(row.chance).rjust(len("chance"))),
                *(cell_text(cross.cells.get((row.key, col.key))) for col in cross.cols),
                key=row.key,
            )

    @on(DataTable.CellHighlighted, "#an-grid")
    def _grid_cell(self, event: DataTable.CellHighlighted) -> None:
        """The highlighted cell's rates, intervals and n under the grid."""
        cross = self.cross
        r, c = event.coordinate.row, event.coordinate.column
        if not (0 <= r < len(cross.rows)):
            return
        row = cross.rows[r]
        if c < GRID_FIXED_COLUMNS:
            text = cell_detail(row.label, "all predicates", row_cell(row))
        else:
            col = cross.cols[c - GRID_FIXED_COLUMNS]
            text = cell_detail(row.label, col.label, cross.cells.get((row.key, col.key)))
        self.query_one("#an-grid-cell", Static).update(text)

    def action_tab(self, tab: str) -> None:
        self.query_one("#an-tabs", TabbedContent).active = tab
        focus = {"an-tab-table": "#an-table", "an-tab-grid": "#an-grid"}.get(tab)
        self.set_focus(self.query_one(focus) if focus else self.query_one("#an-bars-pane"))

    @staticmethod
    def _cells(row: GroupRow) -> list[str | Text]:
        r, chance = row.rates, row.chance
        win = r.win.value
        mean = row.mean_error
        return [
            row.label,
            f"{row.edges:,}",
            f"{r.examined:,}",
            heat_cell(r.win, None if win is None else 1.0 - win),
            pct(chance.win_rate),
            heat_cell(r.zero_sense, r.zero_sense.value),
            pct(chance.zero_sense),
            rate_ci(*r.all_sense.bounds),
            pct(chance.all_sense),
            Text(pct(mean), style=heat_hex(mean)) if mean is not None else "—",
        ]

    def action_by(self, by: str) -> None:
        self.action_tab("an-tab-table")
        self.query_one("#an-by", Select).value = by

    @on(Select.Changed, "#an-by")
    def _by_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.by:
            self.by = event.value
            self.refresh_view()

    def action_toggle_overrides(self) -> None:
        self.adjusted = not self.adjusted
        self.refresh_view()
