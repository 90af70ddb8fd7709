"""Review of a run's blind spots: ranked, zero-sense, flipping, confirmed and KG-error edges with
posterior means and credible intervals, a predicate filter, and a drill-down on each edge."""

from __future__ import annotations

import sqlite3
from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Input, Select, Static

from kglens_tui.analysis.blindspots import EdgeRow, blind_spots, review_counts
from kglens_tui.analysis.filters import EdgeFilter
from kglens_tui.analysis.reverify import Reverified, reverify_run
from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.search import SearchError, search
from kglens_tui.analysis.triage import TriageEntry, triage_log
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import literal
from kglens_tui.runs.verdict_rules import stale_verdicts_note
from kglens_tui.textfmt import counted, interval, pct
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.reads import read_then, read_with
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.review_drill import reviewer
from kglens_tui.tui.screens.run_data_screen import RunDataScreen
from kglens_tui.tui.screens.run_text import bias_warning, heat, metrics_text, run_label, short
from kglens_tui.tui.widgets.literal_table import LiteralDataTable, fit_rows
from kglens_tui.tui.widgets.title_header import TitleHeader

REVIEW_HELP = """\
## Review blind spots

| key | action |
| --- | --- |
| `r` / `z` / `f` / `c` / `k` | ranked / zero-sense / flips / confirmed / KG-error edges |
| `enter` | drill down on the selected edge (questions, replies, history, triage) |
| `/` | search the run's questions and replies: the list keeps the edges asked about with all the words (enter an empty search to clear) |
| `A` | analysis: rates per predicate, region, year |
| `V` | re-check the run's stored replies with today's verifier; each verdict it changes is stored as triage (`kglens triage reverify`) |
| `escape` | back |
| `]` / `[` | sort the focused table by the next column / the other way (or click a column's title) |

**Expected error** is the posterior mean alpha / (alpha + beta) with its 95% equal-tailed
credible interval; m counts right answers, n wrong ones. Numbers use the triage overrides;
the run's rates are shown with them and without (raw), each with its 95% interval, n (the
edges examined, in the column's title) and what chance scores on the same questions (blind
guessing, each ask independent, with or without the triage as the rate). A warning above the
list says when the run's Yes/No answers are explained by answer bias (a yes-rate outside 20-80%
and a balanced accuracy below 0.6, as `kglens report`): its blind spots are then the questions
whose answer is the one the model does not give, not what it does not know.
"""

KIND_LABELS = {
    "ranked": "Ranked",
    "zero_sense": "Zero-sense",
    "flips": "Flips",
    "confirmed": "Confirmed",
    "kg_errors": "KG errors",
}
ALL = "__all__"
DATE_FILTERS = {ALL: "dated or not", "dated": "dated facts only", "undated": "undated facts only"}
LIMIT = 200
NARROW_FACT = 110
"""Below this many columns the edge list shows subject, predicate and object as one "fact"."""
FACT_LIMIT = 60
TABLE_ROOM = 4
"""Cells of the screen's width the edge list cannot use (the screen's padding, a scrollbar)."""
"""Characters of that fact shown (the drill-down has it whole)."""


SEARCH_GROUP = "review-search"
"""The worker that searches the run's questions and replies."""


STALE_GROUP = "review-stale"
"""The worker that reads whether the run's verdicts stand under older verifier rules."""


def search_edges(conn: sqlite3.Connection, text: str, run_id: int) -> set[int] | str:
    """The run's edges asked about with all of ``text``'s words, or why the search cannot be
    made (`SearchError`)."""
    try:
        return {h.edge_id for h in search(conn, text, run_id, limit=100_000)}
    except SearchError as exc:
        return str(exc)


def edge_flags(r: EdgeRow) -> str:
    """Short review flags of an edge."""
    flags = (
        ("zero", r.zero_sense),
        ("flip", r.flips),
        ("confirmed", r.confirmed),
        ("kg-error", r.kg_error),
        (f"{r.overridden:,} overridden", r.overridden),
        (counted(r.notes, "note"), r.notes),
    )
    return " ".join(f for f, on_ in flags if on_)


class ReviewScreen(RunDataScreen):
    """Blind spots of one run."""

    BINDINGS = [
        Binding("r", "kind('ranked')", "Ranked"),
        Binding("z", "kind('zero_sense')", "Zero-sense"),
        Binding("f", "kind('flips')", "Flips"),
        Binding("c", "kind('confirmed')", "Confirmed", show=False),
        Binding("k", "kind('kg_errors')", "KG errors", show=False),
        Binding("enter", "drill", "Drill down", show=False),
        Binding("A", "analysis", "Analysis"),
        Binding("slash", "search", "Search"),
        Binding("V", "reverify", "Re-check verdicts", show=False),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = REVIEW_HELP

    def __init__(self, run_id: int, data: RunData | None = None) -> None:
        super().__init__(run_id, data)
        self.kind = "ranked"
        self.predicate = ALL
        self.group = ALL
        self.dates = ALL
        self.query_text = ""
        """The search in force ('' none)."""
        self.matched: set[int] | None = None
        """Edges with a question or reply matching it (None: no search)."""
        self._rows: list[EdgeRow] = []
        """The edges listed, as last read."""
        self.searching: str | None = None
        """A search being made now (`_search`)."""

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="rv"):
            yield Static("", id="rv-title")
            yield Static("", id="rv-metrics")
            yield Static("", id="rv-stale")
            with Horizontal(id="rv-controls"):
                yield Select(
                    [(label, k) for k, label in KIND_LABELS.items()],
                    id="rv-kind",
                    allow_blank=False,
                    value="ranked",
                )
                yield Select([("any predicate", ALL)], id="rv-pred", allow_blank=False, value=ALL)
                yield Select([("any group", ALL)], id="rv-group", allow_blank=False, value=ALL)
                yield Select(
                    [(label, key) for key, label in DATE_FILTERS.items()],
                    id="rv-dates",
                    allow_blank=False,
                    value=ALL,
                )
                yield Static("", id="rv-count")
            yield Input(placeholder="/ search questions and replies", id="rv-search")
            yield Static("", id="rv-bias")
            yield LiteralDataTable(
                id="rv-edges", cursor_type="row", zebra_stripes=True, sortable=True
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rv-title", Static).update(self.reading_text())
        for note in ("#rv-stale", "#rv-bias"):  # shown once the run is read, if any
            self.query_one(note, Static).display = False
        table = self.query_one("#rv-edges", DataTable)
        self._narrow = self._is_narrow()
        table.add_columns(*self._columns())  # the rows come once the run is read
        table.focus()
        self.start_reading()

    def data_ready(self) -> None:
        data = self.data
        self.query_one("#rv-title", Static).update(run_label(data))
        kg = data.kg
        preds = sorted(
            {(kg.pred_labels[int(p)], kg.pred_keys[int(p)]) for p in kg.p[data.kg_pos].tolist()}
        )
        pred_select = self.query_one("#rv-pred", Select)
        pred_select.set_options(
            [("any predicate", ALL), *((literal(label), key) for label, key in preds)]
        )
        pred_select.value = ALL
        subjects = {int(kg.s[int(i)]) for i in data.kg_pos.tolist()}
        groups = sorted({g for node in subjects for g in kg.groups[node]})
        group_select = self.query_one("#rv-group", Select)
        group_select.set_options([("any group", ALL), *((literal(g), g) for g in groups)])
        group_select.value = ALL
        self.refresh_bindings()
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What needs the run waits until it is read."""
        return self.loaded or action not in ("drill", "analysis", "reverify")

    def _is_narrow(self) -> bool:
        return self.size.width < NARROW_FACT

    def _columns(self) -> tuple[str, ...]:
        """Below `NARROW_FACT` columns the fact is one column, so that it stays on screen."""
        fact = ("fact",) if self._narrow else ("subject", "predicate", "object")
        return ("edge", "m", "n", "exp. error", "95% CrI", "flags", *fact)

    def on_resize(self) -> None:
        self._narrow = self._is_narrow()
        if self.loaded:
            self._fill_edges()  # the columns fit the new width

    def _fill_edges(self) -> None:
        """The edge list from the rows last read, fitted to the screen's width: the fact (or
        object, predicate, subject) and the flags cut with "…", numbers whole; the cursor
        stays on its row number."""
        table = self.query_one("#rv-edges", LiteralDataTable)
        row_index = table.cursor_row
        cells = [
            (
                str(r.edge_id),
                str(r.m),
                str(r.n),
                heat(r.mean, pct(r.mean)),
                interval(r.low, r.high),
                edge_flags(r),
                *(
                    (short(f"{r.subject} · {r.predicate} · {r.object}", FACT_LIMIT),)
                    if self._narrow
                    else (short(r.subject, 24), short(r.predicate, 26), short(r.object, 36))
                ),
            )
            for r in self._rows
        ]
        columns = self._columns()
        shrink = [(6, 12), (5, 4)] if self._narrow else [(8, 12), (7, 10), (6, 10), (5, 4)]
        room = self.size.width - TABLE_ROOM
        table.fill(columns, fit_rows(columns, cells, room, shrink), [c[0] for c in cells])
        if cells:
            table.move_cursor(row=min(row_index, len(cells) - 1), animate=False)

    def on_screen_resume(self) -> None:
        self.refresh_view()  # also when first shown, and after a drill-down's triage

    def _filter(self) -> EdgeFilter | None:
        """The filter set by the predicate, entity-group and fact-date selectors."""
        if self.predicate == ALL and self.group == ALL and self.dates == ALL:
            return None
        return EdgeFilter(
            predicates=() if self.predicate == ALL else (self.predicate,),
            groups=() if self.group == ALL else (self.group,),
            dated=None if self.dates == ALL else self.dates == "dated",
        )

    def refresh_view(self) -> None:
        """Recompute counts, metrics and the edge list (after triage or a filter change);
        nothing before the run is in."""
        if not self.loaded:
            return
        data, flt = self.data, self._filter()
        counts = review_counts(data, flt)
        kind_select = self.query_one("#rv-kind", Select)
        with kind_select.prevent(Select.Changed):
            kind_select.set_options(
                [(f"{label} ({counts[k]:,})", k) for k, label in KIND_LABELS.items()]
            )
            kind_select.value = self.kind
        self.query_one("#rv-metrics", Static).update(metrics_text(data, flt))
        run = data.run
        read_then(
            self,
            lambda conn: stale_verdicts_note(conn, run) or "",
            self._stale_read,
            f"reading run {run.id}'s verifier rules",
            group=STALE_GROUP,
        )
        warning = bias_warning(data)
        bias = self.query_one("#rv-bias", Static)
        bias.update(warning)
        bias.display = bool(warning)
        if self.matched is None:
            rows = blind_spots(data, flt, kind=self.kind, limit=LIMIT)
            total = counts[self.kind]
        else:
            every = blind_spots(data, flt, kind=self.kind, limit=None)
            found = [r for r in every if r.edge_id in self.matched]
            rows, total = found[:LIMIT], len(found)
        self._rows = rows
        self._fill_edges()
        shown = f"first {LIMIT} of " if total > LIMIT else ""
        matching = f" matching {self.query_text!r}" if self.matched is not None else ""
        self.query_one("#rv-count", Static).update(
            literal(f"{shown}{counted(total, 'edge')}{matching} · enter drills down")
        )

    def action_search(self) -> None:
        box = self.query_one("#rv-search", Input)
        box.add_class("-shown")
        box.focus()

    @on(Input.Submitted, "#rv-search")
    def _search(self, event: Input.Submitted) -> None:
        """Search the run's questions and replies on a worker (`_searched` once it is in); an
        empty search clears the one in force at once."""
        text = event.value.strip()
        if not text:
            self.query_text, self.matched = "", None
            event.input.remove_class("-shown")
            self.refresh_view()
            self.query_one("#rv-edges", DataTable).focus()
            return
        self.searching = text
        self.query_one("#rv-count", Static).update(literal(f"searching for {text!r}…"))
        run_id = self.run_id
        read_then(
            self,
            lambda conn: search_edges(conn, text, run_id),
            partial(self._searched, text),
            f"searching run {run_id}",
            group=SEARCH_GROUP,
        )

    def _stale_read(self, stale: str) -> None:
        """Whether the verdicts stand under older verifier rules ('' when they are current)."""
        note = self.query_one("#rv-stale", Static)
        note.update(literal(f"{stale} Here: V." if stale else "", "yellow"))
        note.display = bool(stale)

    def _searched(self, text: str, found: set[int] | str) -> None:
        """A search's edges (or why it could not be made: a warning) become the list."""
        self.searching = None
        if isinstance(found, str):
            self.notify(found, severity="warning")
            self.refresh_view()
            return
        self.query_text, self.matched = text, found
        self.refresh_view()
        self.query_one("#rv-edges", DataTable).focus()

    def action_kind(self, kind: str) -> None:
        self.kind = kind
        self.refresh_view()

    @on(Select.Changed, "#rv-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.kind:
            self.action_kind(event.value)

    @on(Select.Changed, "#rv-group")
    def _group_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.group:
            self.group = event.value
            self.refresh_view()

    @on(Select.Changed, "#rv-dates")
    def _dates_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.dates:
            self.dates = event.value
            self.refresh_view()

    @on(Select.Changed, "#rv-pred")
    def _pred_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.predicate:
            self.predicate = event.value
            self.refresh_view()

    def selected_edge(self) -> int | None:
        """The edge id under the cursor."""
        table = self.query_one("#rv-edges", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def action_drill(self) -> None:
        from kglens_tui.tui.screens.review_drill import DrillDownScreen

        edge_id = self.selected_edge()
        if edge_id is None:
            self.notify("No edge in this list.", severity="warning")
            return
        self.app.push_screen(DrillDownScreen(self.data, edge_id))

    @on(DataTable.RowSelected, "#rv-edges")
    def _row_selected(self) -> None:
        self.action_drill()

    def action_analysis(self) -> None:
        from kglens_tui.tui.screens.analysis import AnalysisScreen

        self.app.push_screen(AnalysisScreen(self.run_id, self.data))

    def action_reverify(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.notify("Re-checking the stored replies…")
                self._reverify()

        self.app.push_screen(
            ConfirmScreen(
                f"Re-check run {self.run_id}'s verdicts with today's verifier? Each verdict it "
                "changes is stored as a triage entry."
            ),
            answer,
        )

    @work(thread=True, exclusive=True, group="reverify", exit_on_error=False)
    def _reverify(self) -> None:
        try:
            run_id, author = self.run_id, reviewer()
            found, log = read_with(
                self.app.db_path,
                lambda conn: (
                    reverify_run(conn, run_id, author=author),
                    triage_log(conn, run_id=run_id),
                ),
            )
        except (KGLensError, sqlite3.Error) as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
            return
        except Exception as exc:  # shown, never a silent "Re-checking…" left on screen
            self.app.call_from_thread(self.notify, f"{type(exc).__name__}: {exc}", severity="error")
            return
        self.app.call_from_thread(self._reverified, found, log)

    def _reverified(self, found: Reverified, log: list[TriageEntry]) -> None:
        self.data.take_triage(log)
        self.refresh_view()
        self.notify(
            f"{counted(found.checked, 'reply', 'replies')} re-checked: "
            f"{counted(found.changed, 'verdict changes', 'verdicts change')}"
            + (", stored as triage." if found.changed else ".")
        )
