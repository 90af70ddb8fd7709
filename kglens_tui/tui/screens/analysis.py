"""Analysis of a run: win / zero-sense / all-sense rates with intervals per predicate, entity
group (region, ...) or fact year, heat-coloured like the paper's Fig. 6-12."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, Select, Static

from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.groups import GroupRow, group_table, overall
from kglens_tui.analysis.intervals import Proportion
from kglens_tui.analysis.rundata import RunData
from kglens_tui.textfmt import pct
from kglens_tui.tui.format import interval
from kglens_tui.tui.screens.review import run_label
from kglens_tui.tui.screens.run_data_screen import RunDataScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

ANALYSIS_HELP = """\
## Analysis

| key | action |
| --- | --- |
| `p` / `g` / `y` / `s` | group by predicate / region / year / subject |
| `o` | show the numbers with or without the triage overrides |
| `escape` | back |

Each row is a group of edges (its number of edges in `edges`); rates are over the examined
edges (`examined`) with 95% Wilson intervals. **Win**: m > n; **zero-sense**: m = 0;
**all-sense**: n = 0. Cells are coloured by error: red is bad (a low win rate or a high
zero-sense rate), green good.
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


def plain_cell(p: Proportion) -> str:
    """A rate with its interval, uncoloured."""
    return "—" if p.value is None else f"{pct(p.value)} {interval(p.low, p.high)}"


class AnalysisScreen(RunDataScreen):
    """Group-by tables of one run."""

    BINDINGS = [
        Binding("p", "by('predicate')", "By predicate"),
        Binding("g", "by('region')", "By region"),
        Binding("y", "by('year')", "By year"),
        Binding("s", "by('subject')", "By subject", show=False),
        Binding("o", "toggle_overrides", "Overrides on/off"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = ANALYSIS_HELP

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
            yield LiteralDataTable(id="an-table", cursor_type="row", zebra_stripes=False)
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
        r = total.rates
        self.query_one("#an-overall", Static).update(
            f"[b]All {total.edges:,} edges[/] ({r.examined:,} examined) · win "
            f"{plain_cell(r.win)} · zero-sense {plain_cell(r.zero_sense)} · all-sense "
            f"{plain_cell(r.all_sense)}"
        )
        table = self.query_one("#an-table", DataTable)
        table.clear(columns=True)
        table.add_columns(
            label, "edges", "examined", "win", "zero-sense", "all-sense", "mean P(err), examined"
        )
        for row in rows:
            table.add_row(*self._cells(row), key=row.key)

    @staticmethod
    def _cells(row: GroupRow) -> list[str | Text]:
        r = row.rates
        win = r.win.value
        mean = row.mean_error
        return [
            row.label,
            f"{row.edges:,}",
            f"{r.examined:,}",
            heat_cell(r.win, None if win is None else 1.0 - win),
            heat_cell(r.zero_sense, r.zero_sense.value),
            plain_cell(r.all_sense),
            Text(pct(mean), style=heat_hex(mean)) if mean is not None else "—",
        ]

    def action_by(self, by: str) -> None:
        self.query_one("#an-by", Select).value = by

    @on(Select.Changed, "#an-by")
    def _by_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.by:
            self.by = event.value
            self.refresh_view()

    def action_toggle_overrides(self) -> None:
        self.adjusted = not self.adjusted
        self.refresh_view()
