"""Analysis of a run: win / zero-sense / all-sense rates with intervals per predicate, entity
group (region, ...) or fact year, heat-coloured like the paper's Fig. 6-12."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Select, Static, TabbedContent, TabPane

from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.grid import (
    COL_LABEL_LIMIT,
    GRID_METRIC,
    LEGEND,
    ROW_LABEL_LIMIT,
    SMALL_STYLE,
    cell_detail,
    cell_text,
    chance_text,
    row_cell,
    total_text,
    well_measured,
)
from kglens_tui.analysis.groups import (
    CHANCE_FIELD,
    RATES,
    ROW_SORTS,
    CrossTable,
    GroupRow,
    cross_table,
    group_table,
    overall,
    sort_rows,
    yes_no_text,
)
from kglens_tui.analysis.kgwide import KGWide, kg_wide, kg_wide_sense
from kglens_tui.analysis.kgwide_render import senses_lines, senses_snapshot_text
from kglens_tui.analysis.rundata import RunData
from kglens_tui.answers.bias import BLIND_GUESS
from kglens_tui.core.intervals import Proportion
from kglens_tui.core.safetext import literal, visible
from kglens_tui.modes.kglens.estimates import HOW_ESTIMATED
from kglens_tui.modes.kglens.rate_text import CAPPED, capped_note, n_text, win_text
from kglens_tui.modes.kglens.sense_rates import SENSES
from kglens_tui.textfmt import counted, interval, pct, rate_ci
from kglens_tui.tui.format import BREAKPOINTS, CELL_PADDING, SHORT_BREAKPOINTS
from kglens_tui.tui.screens.run_data_screen import RunDataScreen
from kglens_tui.tui.screens.run_text import bias_warning, run_label
from kglens_tui.tui.widgets.bar_plot import Bar, BarPlot
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

ANALYSIS_HELP = f"""\
## Analysis

| key | action |
| --- | --- |
| `p` / `g` / `y` / `s` | group by predicate / region / year / subject |
| `o` | show the numbers with or without the triage overrides |
| `t` / `f` / `b` | the table / the subjects x predicates grid (paper Fig. 6) / bars |
| `S` | order the groups by the next of zero-sense, win, all-sense, edges, name |
| click a title | order by that column (a rate, edges or the group's name; again: reversed) |
| `escape` | back |

Each row is a group of edges (its number of edges in `edges`), the surely worst zero-sense first
(by the end of its interval nearest good; years in order): "▼" marks the order's column ("▲"
reversed; in the narrowest layout the rates' column names it). **KG-wide win** leads: the win
rate if every edge of the group were asked once as the run asks, {HOW_ESTIMATED}, with its 95%
interval, what blind guessing scores on the same estimand, and n (the group's answers; as `kglens analyze` and `kglens report`). Then
the paper's rates over the examined edges (`examined`) with 95% Wilson intervals. **Win**: m > n; **zero-sense**: m = 0;
**all-sense**: n = 0. Cells are coloured by error: red is bad (a low win rate or a high
zero-sense rate), green good. **Chance**, beside each rate: what blind guessing scores on the
questions the run asked about the group, each ask independent ({BLIND_GUESS}; as `kglens
report`), with or without
the triage as the rates. **Yes-rate** (with its 95% interval and n) and **bal. acc.** (balanced
accuracy, chance 0.50), when the run asked Yes/No questions: how the group's Yes/No replies lean,
as `kglens analyze`; a warning under the run's rates says when its Yes/No answers are explained
by that lean (as `kglens report`).

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


def heat_style(badness: float | None, p: Proportion) -> str:
    """Text on the heat background of an error rate (badness 0 green .. 1 red); muted, without
    a colour, over fewer than `SMALL_N` examined edges (as the grid's cells)."""
    return f"{text_on(badness)} on {heat_hex(badness)}" if well_measured(p) else SMALL_STYLE


def heat_cell(p: Proportion, badness: float | None) -> Text:
    """A rate with its interval on a heat background (badness 0 green .. 1 red)."""
    if p.value is None:
        return Text("—")
    label = f" {pct(p.value):>6} {interval(p.low, p.high):<14}"
    return Text(label, style=heat_style(badness, p))


def heat_rate(p: Proportion, badness: float | None) -> Text:
    """`heat_cell` one cell narrower (for the analysis table: its colour blocks as wide as
    the widest interval, "[100.0–100.0]")."""
    if p.value is None:
        return Text("—")
    return Text(f" {pct(p.value):>6} {interval(p.low, p.high):<13}", style=heat_style(badness, p))


def badness(row: GroupRow, field: str) -> float | None:
    """How bad a group's rate is for its heat colour: a low win rate, a high zero-sense rate;
    None (no colour) for all-sense, as in the paper's figures."""
    value = row.rates.get(field).value
    if value is None or field == "all_sense":
        return None
    return 1.0 - value if field == "win" else value


LABEL_MOST = 40
"""Most characters of a group's label in the table (cut with "…"; the grid's detail line gives
a subject's or a predicate's label whole)."""
NARROW_LABEL_LEAST = 12
"""Fewest characters of a group's label in the narrowest layout."""
SCROLLBAR = 2
"""Cells the table's vertical scrollbar takes."""


Layout = tuple[list[str], list[list[str | Text]], int]
"""A table's column titles, rows and row height."""


RATE_SORTS = ("zero_sense", "win", "all_sense")
"""The orders by a rate (`groups.ROW_SORTS`), as the narrowest layout's rates column cycles them."""
SORT_WORDS = {"zero_sense": "zero-sense", "win": "win", "all_sense": "all-sense", "edges": "edges"}
"""Each order's column title (name: the group's)."""
RATES_TITLE = "rate [95% interval]"
"""The narrowest layout's rates column."""


def default_sort(by: str) -> str:
    """The analysis table's order when none is chosen (`groups.sort_rows`): years in order,
    else the surely worst zero-sense first."""
    return "name" if GROUPINGS[by][0] == "year" else "zero_sense"


def column_sort(title: str, label: str) -> str | None:
    """The order a column's title stands for (its "▼" mark aside): the group's name, edges or
    a rate; None for the others (chance, n, P(err), ...)."""
    base = re.split(" [▼▲]", title)[0]
    if base == label:
        return "name"
    return next((sort for sort, words in SORT_WORDS.items() if words == base), None)


def marked(titles: list[str], label: str, order: tuple[str, bool]) -> list[str]:
    """The titles with the ordered column's marked "▼" ("▲" reversed); in the narrowest
    layout, which has no column of its own for a rate or edges, its rates column names the
    order ("rate [95% interval] ▼win")."""
    sort, reverse = order
    arrow = "▲" if reverse else "▼"
    out = list(titles)
    if RATES_TITLE in titles:
        i = titles.index(RATES_TITLE)
        out[i] = f"{RATES_TITLE} {arrow}{SORT_WORDS.get(sort, 'name')}"
        return out
    for i, title in enumerate(titles):
        if column_sort(title, label) == sort:
            out[i] = f"{title} {arrow}"
            return out
    out[0] = f"{titles[0]} {arrow}{SORT_WORDS.get(sort, 'name')}"  # edges, in the medium one
    return out


def table_layouts(
    rows: list[GroupRow], label: str, width: int, order: tuple[str, bool] = ("zero_sense", False)
) -> list[Layout]:
    """The analysis table in each of its layouts, widest first (`kglens analyze`'s three), each
    leading with the group's KG-wide win rate (`GroupRow.kg_wide`: interval, chance, answers)
    before the paper's rates over the examined edges: one line a group with a chance column
    after each rate; two, each rate's chance under it (the KG-wide one's answers too, and the
    group's edges under its examined ones); four, the rates one a line (KG-wide first) with
    their chance beside them and the group's n, answers and mean posterior error under its
    label (within 80 columns). Win and zero-sense on their heat colours. In the last, the label is cut to what
    ``width`` cells leave it. When a group has Yes/No replies, each layout ends with their
    yes-rate (interval, n) and balanced accuracy (`GroupRow.yes_no`, as `kglens analyze`).
    ``order``: the rows' order (a `ROW_SORTS` name, reversed), marked in the titles (`marked`)."""
    names = [(name, field) for name, field, _ in RATES]
    yes_no = any(row.yes_no.answered for row in rows)
    wide: list[list[str | Text]] = []
    medium: list[list[str | Text]] = []
    narrow: list[list[str | Text]] = []
    for row in rows:
        r, chance = row.rates, row.chance
        yes, yes_ci, balanced = yes_no_text(row.yes_no)
        wide_rate, wide_chance, wide_n = kg_wide_cells(row.kg_wide)
        mean = row.mean_error
        mean_text = Text(pct(mean), style=heat_hex(mean)) if mean is not None else Text("—")
        head: list[str | Text] = [
            visible(row.label, one_line=True, limit=LABEL_MOST),
            f"{row.edges:,}",
            f"{r.examined:,}",
        ]
        wide.append(
            [
                head[0],
                head[1],
                wide_rate,
                wide_chance,
                wide_n,
                head[2],
                *(
                    x
                    for name, field in names
                    for x in (_rate_cell(row, field), pct(getattr(chance, CHANCE_FIELD[field])))
                ),
                mean_text,
                *((f"{yes} {yes_ci}".rstrip(), balanced) if yes_no else ()),
            ]
        )
        medium.append(
            [
                head[0],
                Text.assemble(wide_rate, "\n", (f"chance {wide_chance} n={wide_n}", "dim")),
                Text.assemble(head[2], "\n", (f"of {head[1]}", "dim")),
                *(
                    Text.assemble(
                        _rate_cell(row, field),
                        "\n",
                        (f"chance {pct(getattr(chance, CHANCE_FIELD[field]))}", "dim"),
                    )
                    for _, field in names
                ),
                mean_text,
                *((Text.assemble(yes, "\n", (yes_ci, "dim")), balanced) if yes_no else ()),
            ]
        )
        lines = Text(f"{'KG-wide':<10} {_narrow_kg_wide(row.kg_wide)}")
        for name, field in names:
            p = r.get(field)
            lines.append("\n")
            lines.append(f"{name:<10} ")
            lines.append(
                f"{pct(p.value):>6} {interval(p.low, p.high):<13}",
                heat_style(badness(row, field), p)
                if field != "all_sense" and p.value is not None
                else "",
            )
        narrow.append(
            [
                row.label,
                lines,
                Text(
                    "\n".join(
                        [
                            wide_chance.rjust(6),
                            *(pct(getattr(chance, CHANCE_FIELD[f])).rjust(6) for _, f in names),
                        ]
                    )
                ),
                *([_narrow_yes_no(yes, yes_ci, balanced)] if yes_no else []),
            ]
        )
    rate_titles = [name for name, _ in names]
    after_rates = [x for name in rate_titles for x in (name, "chance")]
    yes_no_titles = ["yes-rate", "bal. acc."] if yes_no else []
    wide_titles = ["KG-wide win", "chance", "answers", "examined"]
    wide_columns = [label, "edges", *wide_titles, *after_rates, "mean P(err)", *yes_no_titles]
    layouts: list[Layout] = [
        (marked(wide_columns, label, order), wide, 1),
        # n: the examined edges over the group's edges; P(err): their mean posterior error; bal.:
        # the balanced accuracy
        (
            marked(
                [
                    label,
                    "KG-wide win",
                    "n",
                    *rate_titles,
                    "P(err)",
                    *yes_no_titles[:1],
                    *(["bal."] if yes_no else []),
                ],
                label,
                order,
            ),
            medium,
            2,
        ),
    ]
    narrow_columns = marked(
        [label, RATES_TITLE, "chance", *(["Yes/No"] if yes_no else [])], label, order
    )
    # the narrowest: the label gets what the rates and chance columns leave
    room = (
        width
        - SCROLLBAR
        - 3 * CELL_PADDING
        - max([len(narrow_columns[1]), *(_widest(cells[1]) for cells in narrow)])
        - len("chance")
        - (CELL_PADDING + max(_widest(cells[3]) for cells in narrow) if yes_no else 0)
    )
    limit = max(NARROW_LABEL_LEAST, min(room, LABEL_MOST))
    for cells, row in zip(narrow, rows, strict=True):
        about = f"n={row.rates.examined:,} of {row.edges:,}"
        answers = kg_wide_cells(row.kg_wide)[2]
        mean = row.mean_error
        cells[0] = Text.assemble(
            visible(row.label, one_line=True, limit=limit),
            f"\n{about}\n",
            (f"{answers} answers\n", "dim"),
            ("P(err) ", "dim"),
            (pct(mean), heat_hex(mean) if mean is not None else ""),
        )
    layouts.append((narrow_columns, narrow, 4))
    return layouts


def kg_wide_cells(wide: KGWide | None) -> tuple[str, str, str]:
    """A group's KG-wide win rate for the table: (rate with interval, chance, n answers);
    dashes for a group without one (no answer of the sampling design)."""
    if wide is None:
        return "—", "—", "—"
    chance = wide.chance_win
    return win_text(wide.rate), pct(chance), f"{wide.rate.answers:,}"


def _narrow_kg_wide(wide: KGWide | None) -> str:
    """A KG-wide win rate aligned with the rates under it in the narrowest layout."""
    if wide is None:
        return "—"
    mark = CAPPED if wide.rate.capped else ""
    return f"{pct(wide.rate.win):>6} {interval(*wide.rate.win_interval()) + mark:<13}"


def kg_wide_overall(
    wide: KGWide | None, width: int = 0, senses: Mapping[str, KGWide | None] | None = None
) -> str:
    """The run's KG-wide win rate, the analysis screen's headline (markup: a literal line),
    with n and what the answers are worth (`n_text`), said shorter when ``width`` cells (0: any)
    cannot hold it on one line; the two-ask zero-sense and all-sense (``senses``) follow where
    the line has room for them, else on lines of their own (`senses_lines`)."""
    if wide is None:
        return "[b]KG-wide win[/] — (no answer of the sampling design: the rates over the examined edges follow)"
    value, chance, _ = kg_wide_cells(wide)
    head = f"KG-wide win {value} chance {chance} · "
    n = n_text(wide.rate)
    if width and len(head) + len(n) > width:
        n = n.replace(" independent asks)", ")")
    rates = {k: None if v is None else v.rate for k, v in (senses or {}).items()}
    chances = {k: v.chance_error for k, v in (senses or {}).items() if v is not None}
    two = senses_snapshot_text(rates, chances)
    if two and width and len(head) + len(n) + len(two) > width:
        two = "".join(f"\n{line}" for line in senses_lines(rates, chances, width))
    return f"[b]{head.partition(' chance')[0]}[/] chance {chance} · {n}{two}"


def _narrow_yes_no(yes: str, yes_ci: str, balanced: str) -> Text:
    """The narrowest layout's Yes/No cell: yes-rate, interval with n, balanced accuracy."""
    if yes == "—":
        return Text("—")
    return Text.assemble(f"yes {yes}\n", (yes_ci, "dim"), f"\nbal. {balanced}")


def _rate_cell(row: GroupRow, field: str) -> Text:
    """A rate with its interval, on its heat colour but for all-sense (as the paper)."""
    p = row.rates.get(field)
    if field == "all_sense":
        return Text(rate_ci(*p.bounds))
    return heat_rate(p, badness(row, field))


def _widest(cell: str | Text) -> int:
    """Cells the widest line of a table cell takes."""
    plain = cell.plain if isinstance(cell, Text) else cell
    return max(cell_len(line) for line in plain.split("\n"))


def layout_width(layout: Layout) -> int:
    """Cells a DataTable takes to show a layout whole: each column's widest line (title
    included) and its padding, and the scrollbar."""
    columns, rows, _ = layout
    return SCROLLBAR + sum(
        CELL_PADDING + max([cell_len(title), *(_widest(row[i]) for row in rows)])
        for i, title in enumerate(columns)
    )


def pick_layout(layouts: list[Layout], width: int) -> Layout:
    """The first (widest) layout that fits ``width`` cells, else the last."""
    return next((lay for lay in layouts if layout_width(lay) <= width), layouts[-1])


def bar_note(row: GroupRow) -> str:
    """What follows a group's zero-sense bar: its n and, once an edge was examined, what chance
    scores on the group's questions ("n=13 · chance 15.4%")."""
    if not row.rates.examined:
        return "n=0"
    return f"n={row.rates.examined:,} · chance {pct(row.chance.zero_sense)}"


GRID_FIXED = ("subject", "all", "chance")
"""The grid's columns before the predicates: a cell there describes the subject's whole row."""


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
        Binding("S", "sort", "Sort", tooltip="Order by the next rate, edges, name", show=False),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = ANALYSIS_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = SHORT_BREAKPOINTS

    def __init__(self, run_id: int, data: RunData | None = None) -> None:
        super().__init__(run_id, data)
        self.by = "predicate"
        self.adjusted = True
        self.sort: str | None = None
        """The table's order (a `ROW_SORTS` name; None: `default_sort`)."""
        self.reverse = False
        self._rows: list[GroupRow] = []
        self._label = "predicate"
        self._layout_height = 0
        self._columns: list[str] = []
        """The table's column titles as drawn."""

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="an"):
            yield Static("", id="an-title")
            with Horizontal(id="an-controls"):
                yield Select(
                    [(label, key) for key, (_, _, label) in GROUPINGS.items()],
                    id="an-by",
                    allow_blank=False,
                    value="predicate",
                )
                yield Static("", id="an-by-text")
                yield Static("", id="an-mode")
            yield Static("", id="an-overall")
            yield Static("", id="an-bias")
            with TabbedContent(id="an-tabs"):
                with TabPane("Table", id="an-tab-table"):
                    yield LiteralDataTable(id="an-table", cursor_type="row", zebra_stripes=False)
                    yield Static("", id="an-table-note", markup=False)
                with TabPane("Grid (Fig. 6)", id="an-tab-grid"):
                    yield Static(LEGEND, id="an-grid-legend", markup=False)
                    yield LiteralDataTable(id="an-grid", cursor_type="cell", zebra_stripes=False)
                    yield Static("", id="an-grid-cell", markup=False)
                with TabPane("Bars", id="an-tab-bars"), VerticalScroll(id="an-bars-pane"):
                    yield BarPlot(id="an-bars")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#an-title", Static).update(self.reading_text())
        self.query_one("#an-table", DataTable).focus()
        self.start_reading()

    def data_ready(self) -> None:
        self.query_one("#an-title", Static).update(run_label(self.data))
        self.refresh_view()

    def on_screen_resume(self) -> None:
        self.refresh_view()  # also when first shown

    def refresh_view(self) -> None:
        """Recompute the table for the current grouping and override mode (nothing before the
        run is in)."""
        if not self.loaded:
            return
        data = self.data
        by, prefix, label = GROUPINGS[self.by]
        rows = group_table(data, by, adjusted=self.adjusted, prefix=prefix, sort=self.sort)
        if self.reverse:
            rows.reverse()
        mode = "with triage overrides" if self.adjusted else "raw (triage ignored)"
        self.query_one("#an-mode", Static).update(
            f"{counted(len(rows), 'group')} · {mode} · o toggles"
        )
        # on a short screen, in place of the grouping's Select (p g y s choose it)
        self.query_one("#an-by-text", Static).update(f"by {label} ·")
        total = overall(data, adjusted=self.adjusted)
        r, chance = total.rates, total.chance
        yes, yes_ci, balanced = yes_no_text(total.yes_no)
        self.query_one("#an-overall", Static).update(
            kg_wide_overall(
                kg_wide(data, self.adjusted),
                self._table_width(),
                {sense: kg_wide_sense(data, sense, self.adjusted) for sense in SENSES},
            )
            + f"\nOver the {r.examined:,} examined of all {counted(total.edges, 'edge')}: win "
            f"{rate_ci(*r.win.bounds)} chance {pct(chance.win_rate)} · zero-sense "
            f"{rate_ci(*r.zero_sense.bounds)} chance {pct(chance.zero_sense)} · all-sense "
            f"{rate_ci(*r.all_sense.bounds)} chance {pct(chance.all_sense)}"
            + (f" · yes-rate {yes} {yes_ci} · bal. acc. {balanced}" if yes != "—" else "")
        )
        warning = bias_warning(data)
        bias = self.query_one("#an-bias", Static)
        bias.update(warning)
        bias.display = bool(warning)
        self._label = label
        self._show_rows(rows)
        self._grid(cross_table(data, "subject", "predicate", adjusted=self.adjusted))

    @property
    def order(self) -> tuple[str, bool]:
        """The table's order: a `ROW_SORTS` name, and whether reversed."""
        return self.sort or default_sort(self.by), self.reverse

    def _show_rows(self, rows: list[GroupRow]) -> None:
        """The groups, in the table and the bars, in this order."""
        label = self._label
        self._rows = rows
        self._draw_table()
        self.query_one("#an-bars", BarPlot).show(
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
            f"Zero-sense rate per {label}: 95% Wilson interval ├─┤, n examined edges, "
            "what chance scores on the same questions",
            "zero-sense rate",
        )

    def _grid(self, cross: CrossTable) -> None:
        """The Fig. 6 grid: one row per subject, one column per predicate, worst first."""
        self.cross = cross
        grid = self.query_one("#an-grid", DataTable)
        grid.clear(columns=True)
        for name in GRID_FIXED:
            grid.add_column(name, key=name)
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
        if c < len(GRID_FIXED):
            text = cell_detail(row.label, "all predicates", row_cell(row))
        else:
            col = cross.cols[c - len(GRID_FIXED)]
            text = cell_detail(row.label, col.label, cross.cells.get((row.key, col.key)))
        self.query_one("#an-grid-cell", Static).update(text)

    def action_tab(self, tab: str) -> None:
        self.query_one("#an-tabs", TabbedContent).active = tab
        focus = {"an-tab-table": "#an-table", "an-tab-grid": "#an-grid"}.get(tab)
        self.set_focus(self.query_one(focus) if focus else self.query_one("#an-bars-pane"))

    def _table_width(self) -> int:
        """Cells the table has: the screen's width but the screen's padding."""
        return self.size.width - 2

    def _draw_table(self) -> None:
        """The group table in the widest layout that fits the screen (`table_layouts`)."""
        width = self._table_width()
        columns, cells, height = pick_layout(
            table_layouts(self._rows, self._label, width, self.order), width
        )
        self._layout_height = height
        self._columns = columns
        table = self.query_one("#an-table", DataTable)
        row_key = (
            table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            if table.row_count
            else None
        )
        assert isinstance(table, LiteralDataTable)
        # sized at once (auto widths come only once the table is idle: numbers cut till then)
        table.fill(columns, cells, [row.key for row in self._rows], height=height)
        note = capped_note(row.kg_wide.rate for row in self._rows if row.kg_wide)
        legend = self.query_one("#an-table-note", Static)
        legend.update(note)
        legend.display = bool(note)
        if row_key is not None and row_key in table.rows:
            table.move_cursor(row=table.get_row_index(row_key), animate=False)

    def on_resize(self) -> None:
        if self._layout_height:  # drawn once
            width = self._table_width()
            layout = pick_layout(table_layouts(self._rows, self._label, width, self.order), width)
            if layout[2] != self._layout_height or layout[2] == 4:
                self._draw_table()

    def action_sort(self) -> None:
        """Order the groups by the next of `ROW_SORTS` (zero-sense, win, all-sense, edges,
        name)."""
        current = self.order[0]
        self._order(ROW_SORTS[(ROW_SORTS.index(current) + 1) % len(ROW_SORTS)], False)

    @on(DataTable.HeaderSelected, "#an-table")
    def _header_clicked(self, event: DataTable.HeaderSelected) -> None:
        """A click on a title orders by its column (again: reversed); on the narrowest
        layout's rates, by the next rate."""
        title = self._columns[event.column_index]
        sort, reverse = self.order
        if title.startswith(RATES_TITLE):
            following = RATE_SORTS.index(sort) + 1 if sort in RATE_SORTS else 0
            self._order(RATE_SORTS[following % len(RATE_SORTS)], False)
            return
        chosen = column_sort(title, self._label)
        if chosen is None:
            self.notify("Order by a rate, edges or the name: click its title, or press S.")
        else:
            self._order(chosen, not reverse if chosen == sort else False)

    def _order(self, sort: str, reverse: bool) -> None:
        """Show the groups in this order (the table's cursor stays on its group)."""
        self.sort, self.reverse = sort, reverse
        if not self._rows:
            return
        rows = sort_rows(self._rows, GROUPINGS[self.by][0], sort)
        if reverse:
            rows.reverse()
        self._show_rows(rows)

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
