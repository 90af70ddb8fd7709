"""Report of a round: the paper's Table 4 per KG and overall, Krippendorff's alpha and percent
agreement per question, the pairwise Cohen's kappa matrices and the items where the human
majority disagrees with the app. Loads numpy and krippendorff, so it is imported lazily."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from kglens_tui.annotate.agreement import (
    ALPHA_LEGEND,
    KAPPA_LEGEND,
    KAPPA_MIN_ITEMS,
    NO_DISAGREEMENT,
    ItemResult,
    QuestionAgreement,
    RoundResults,
    round_results,
)
from kglens_tui.annotate.errors import item_ref
from kglens_tui.core.safetext import markup_literal, visible
from kglens_tui.textfmt import counted, pct
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen, compact
from kglens_tui.tui.screens.annotate_progress import ProgressScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

REPORT_HELP = f"""\
## Report

The paper's Table 4 from the human majority (at least `majority` votes, no tie; an adjudication
overrides it). **QG**: share of questions whose intent is clear. **QAV**: share of Wh items where
the app's verdict agrees with the humans (refused and unparseable count as incorrect).
**QG+QAV**: clear and, for Wh items, agreed. Each rate is over the items with the final label it
needs (a majority or an adjudication); items still without one are not counted yet, and the notes
under the report say how many. Krippendorff's alpha is nominal; Cohen's kappa is over the items
both annotators labelled, shown with that n, and left out (—) under {KAPPA_MIN_ITEMS} such items.

| key | action |
| --- | --- |
| `enter` | adjudicate the selected disagreement |
| `d` | adjudication screen |
| `p` | progress |
| `ctrl+r` | refresh |
| `escape` | back |
"""

TABLE4_ROWS = (
    ("QG", "qg"),
    ("  Wh-question", "qg_wh"),
    ("  Yes/No-question", "qg_yes_no"),
    ("QAV (Wh)", "qav"),
    ("QG+QAV", "qg_qav"),
)
QUESTION_NAMES = {"question_clear": "question clear", "response_correct": "response correct"}
READ_GROUP = "round-results"
"""The worker that reads the round's results."""


def short(text: str | None, width: int) -> str:
    """One line of at most width characters."""
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def right(value: str) -> Text:
    return Text(value, justify="right")


class ReportScreen(ReadsOnWorkers, Screen[Any]):
    """Table 4, agreement and disagreements of one round."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("d", "adjudicate", "Adjudicate"),
        Binding("p", "progress", "Progress"),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("pagedown", "scroll_report('page_down')", "Page down", show=False, priority=True),
        Binding("pageup", "scroll_report('page_up')", "Page up", show=False, priority=True),
        Binding("home", "scroll_report('home')", "Top", show=False, priority=True),
        Binding("end", "scroll_report('end')", "Bottom", show=False, priority=True),
    ]
    HELP = REPORT_HELP

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, round_id: int) -> None:
        super().__init__()
        self.round_id = round_id
        self.shown: RoundResults | None = None
        """The results last read and drawn (None: being read)."""

    def action_scroll_report(self, how: str) -> None:
        """Page through the whole report (it is taller than a small terminal); the arrow keys
        stay with the disagreements table."""
        report = self.query_one("#ann-report", VerticalScroll)
        moves = {
            "page_down": report.scroll_page_down,
            "page_up": report.scroll_page_up,
            "home": report.scroll_home,
            "end": report.scroll_end,
        }
        moves[how](animate=False)

    @property
    def loaded(self) -> bool:
        """Whether the round's results have been read and drawn."""
        return self.shown is not None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with VerticalScroll(id="ann-report", can_focus=False):
            yield Static(f"reading round {self.round_id}…", id="ann-report-title")
            with Horizontal(classes="ann-report-row"):
                with Vertical(classes="ann-report-cell"):
                    yield Static(
                        "Human assessment (paper Table 4): majority vote", classes="section-title"
                    )
                    yield LiteralDataTable(id="ann-t4", cursor_type="none", classes="ann-static")
                with Vertical(classes="ann-report-cell"):
                    yield Static("Inter-annotator agreement", classes="section-title")
                    yield LiteralDataTable(id="ann-agree", cursor_type="none", classes="ann-static")
            with Horizontal(classes="ann-report-row"):
                for question, name in QUESTION_NAMES.items():
                    with Vertical(classes="ann-report-cell"):
                        yield Static(f"Cohen's κ, {name}", classes="section-title")
                        yield LiteralDataTable(
                            id=f"ann-kappa-{question}", cursor_type="none", classes="ann-static"
                        )
            yield Static(Text(KAPPA_LEGEND, style="dim"), id="ann-kappa-legend")
            yield Static("", id="ann-disagree-title", classes="section-title")
            yield LiteralDataTable(id="ann-disagree", cursor_type="row", zebra_stripes=True)
            yield Static("", id="ann-report-notes")
        yield Footer()

    def on_mount(self) -> None:
        for table in self.query(".ann-static").results(DataTable):
            table.can_focus = False
        self.query_one("#ann-disagree", DataTable).focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()  # also when first shown

    def action_refresh(self) -> None:
        """Read the round's results again, on a worker (`_draw` once they are in)."""
        round_id = self.round_id
        read_then(
            self,
            lambda conn: round_results(conn, round_id),
            self._draw,
            f"reading round {round_id}'s results",
            group=READ_GROUP,
        )

    def _draw(self, res: RoundResults) -> None:
        self.shown = res
        rnd = res.round
        self.sub_title = visible(f"report of round '{rnd.name}'")
        raters = rnd.settings.raters_per_item or len(rnd.annotators)
        self.query_one("#ann-report-title", Static).update(
            f"[b]Round {rnd.id} '{markup_literal(rnd.name)}'[/] · {counted(rnd.items, 'item')} · annotators "
            f"{markup_literal(', '.join(rnd.annotators))} · majority {rnd.settings.majority} of {raters}"
        )
        t4 = self.query_one("#ann-t4", DataTable)
        t4.clear(columns=True)
        t4.add_column("")
        for col in res.table4:
            t4.add_column(right(col.name), key=col.name)
        for label, attr in TABLE4_ROWS:
            t4.add_row(label, *(right(c.cell(attr)) for c in res.table4))
        t4.add_row(
            Text("items (Wh + Yes/No)", style="dim"),
            *(Text(f"{c.wh} + {c.yes_no}", style="dim", justify="right") for c in res.table4),
        )
        agree = self.query_one("#ann-agree", DataTable)
        agree.clear(columns=True)
        agree.add_column("question")
        for heading in ("items", "Krippendorff α", "agreement"):
            agree.add_column(right(heading), key=heading)
        for q in res.agreement.values():
            agree.add_row(
                QUESTION_NAMES[q.question],
                right(f"{q.items:,}"),
                right(q.alpha_cell()),
                right(pct(q.percent)),
            )
        for q in res.agreement.values():
            self._kappa(q)
        self._disagreements(res.disagreements)
        notes = Text()
        if any(q.one_value for q in res.agreement.values()):
            notes.append(f"{ALPHA_LEGEND}\n", style="dim")
        not_counted = res.not_counted_note()
        if not_counted:
            notes.append(f"{not_counted}\n", style="yellow")
        if res.undecided:
            ids = ", ".join(item_ref(i.item_id) for i in res.undecided)
            notes.append(f"All labels in, no majority (adjudicate with d): items {ids}.\n")
        if res.flagged:
            flagged = "; ".join(
                f"{item_ref(item_id)} by {visible(name)}" + (f": {short(note, 40)}" if note else "")
                for item_id, name, note in res.flagged
            )
            notes.append(f"Flagged: {flagged}.\n", style="magenta")
        self.query_one("#ann-report-notes", Static).update(notes)

    def _kappa(self, q: QuestionAgreement) -> None:
        table = self.query_one(f"#ann-kappa-{q.question}", DataTable)
        table.clear(columns=True)
        table.add_column("")
        for name in q.annotators:
            table.add_column(right(name), key=name)
        for a, name in enumerate(q.annotators):
            table.add_row(name, *(right(q.kappa_cell(a, b)) for b in range(len(q.annotators))))

    def _disagreements(self, items: list[ItemResult]) -> None:
        self.query_one("#ann-disagree-title", Static).update(
            f"Majority disagrees with the app ({len(items)}) · enter adjudicates"
            if items
            else NO_DISAGREEMENT
        )
        table = self.query_one("#ann-disagree", LiteralDataTable)
        table.display = bool(items)
        rows = [
            (
                right(item_ref(it.item_id)),
                it.kg,
                short(it.question, 56),
                short("; ".join(", ".join(g) for g in it.answers), 24),
                short(it.response, 30),
                it.app_verdict,
                (it.human_correct or "") + (" (adjudicated)" if it.adjudication else ""),
                compact(it, "response_correct"),
            )
            for it in items
        ]
        # each column as wide as its cells now: a table filled with DataTable's own widths kept
        # its titles' widths when it was laid out before it was next idle (a busy machine)
        table.fill(
            ("item", "KG", "question", "answer", "response", "app", "humans", "votes"),
            rows,
            [str(it.item_id) for it in items],
        )

    def _open_adjudication(self, item_id: int | None) -> None:
        self.app.push_screen(AdjudicationScreen(self.round_id, item_id))

    @on(DataTable.RowSelected, "#ann-disagree")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        self._open_adjudication(int(key) if key is not None else None)

    def action_adjudicate(self) -> None:
        table = self.query_one("#ann-disagree", DataTable)
        item_id = None
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            item_id = int(key) if key is not None else None
        self._open_adjudication(item_id)

    def action_progress(self) -> None:
        self.app.push_screen(ProgressScreen(self.round_id))
