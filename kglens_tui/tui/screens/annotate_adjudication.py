"""Adjudication: every annotator's labels on an item side by side, with the majority and the app's
verdict, and a final decision recorded with a reason (the latest decision per item counts)."""

from __future__ import annotations

import getpass
import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, Select, Static

from kglens_tui.annotate.adjudication import (
    DECISION_LABELS,
    Adjudication,
    adjudicate,
    adjudication_history,
)
from kglens_tui.annotate.agreement import ItemResult, RoundResults, round_results
from kglens_tui.annotate.errors import AnnotationError, item_ref
from kglens_tui.core.question_type import WH
from kglens_tui.core.safetext import literal, visible
from kglens_tui.store.connection import StoreError, connect
from kglens_tui.textfmt import counted
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

ADJUDICATION_HELP = """\
## Adjudication

Left (above, below 130 columns): the items that need a decision (the human majority disagrees
with the app, all labels are in without a majority, or an annotator flagged it) and those already
decided; `t` lists every item. Right (below): the selected item with every annotator's labels
side by side, the majority and the app's verdict.

| key | action |
| --- | --- |
| `d` / `enter` | record a final decision with a reason |
| `t` | all items / items needing a decision |
| `page up` / `page down` | below 130 columns: scroll the selected item's details |
| `ctrl+r` | refresh |
| `escape` | back |

A decision overrides the majority on the questions it decides; the latest one counts, earlier
ones are kept as history.
"""

KEEP = "keep"


STATUS_STYLE = {
    "decided": "green",
    "disagrees": "red",
    "no majority": "yellow",
    "flagged": "magenta",
    "pending": "dim",
    "ok": "",
}


def _votes(item: ItemResult, question: str) -> list[tuple[str, int]]:
    """The current votes on one question, most frequent first."""
    counts = Counter(
        getattr(s, question) for s in item.labels.values() if getattr(s, question) is not None
    )
    return counts.most_common()


def tally(item: ItemResult, question: str) -> str:
    """'4 yes / 1 no' for one question."""
    return " / ".join(f"{n} {v}" for v, n in _votes(item, question)) or "no votes"


def compact(item: ItemResult, question: str) -> str:
    """'4y 1n': the votes on one question in short."""
    return " ".join(f"{n}{v[0]}" for v, n in _votes(item, question)) or "—"


def _default_adjudicator() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return ""


ITEM_COLUMNS = ("item", "KG", "type", "clear", "correct", "app", "status")
"""The items table's columns."""


class DecisionScreen(ModalScreen[Adjudication | None]):
    """The decision form; stores it off the UI thread and dismisses with the stored decision."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
    ]

    def __init__(self, item: ItemResult, adjudicator: str) -> None:
        super().__init__()
        self.item = item
        self.adjudicator = adjudicator

    def compose(self) -> ComposeResult:
        item = self.item
        adj = item.adjudication
        clear_now = (adj.question_clear if adj else None) or KEEP
        correct_now = (adj.response_correct if adj else None) or KEEP
        keep = f"keep the majority ({item.clear_majority or 'none'})"
        with Vertical(classes="dialog ann-decision"):
            yield Label(f"Final decision on item {item_ref(item.item_id)}", classes="dialog-title")
            yield Static(
                "It overrides the human majority on the questions you decide; the latest "
                "decision counts. ctrl+s saves, esc cancels.",
                classes="hint",
            )
            with Grid(classes="ann-decision-grid"):
                yield Label(DECISION_LABELS["question_clear"])
                yield Select(
                    [(keep, KEEP), ("yes", "yes"), ("no", "no")],
                    value=clear_now,
                    allow_blank=False,
                    id="adj-clear",
                )
                if item.qtype == WH:
                    keep_c = f"keep the majority ({item.correct_majority or 'none'})"
                    yield Label(DECISION_LABELS["response_correct"])
                    yield Select(
                        [(keep_c, KEEP), ("correct", "correct"), ("incorrect", "incorrect")],
                        value=correct_now,
                        allow_blank=False,
                        id="adj-correct",
                    )
                yield Label("Reason")
                yield Input(placeholder="why (required)", id="adj-reason")
                yield Label("Adjudicator")
                yield Input(value=self.adjudicator, placeholder="your name", id="adj-name")
            yield Static("", id="adj-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (ctrl+s)", id="save", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#adj-clear", Select).focus()  # the first control, top to bottom

    def _value(self, selector: str) -> str | None:
        found = self.query(selector).results(Select)
        widget = next(iter(found), None)
        if widget is None or widget.value in (KEEP, Select.BLANK):
            return None
        return str(widget.value)

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        self._store(
            self._value("#adj-clear"),
            self._value("#adj-correct"),
            self.query_one("#adj-reason", Input).value,
            self.query_one("#adj-name", Input).value,
        )

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @work(thread=True, exclusive=True, group="adjudicate", exit_on_error=False)
    def _store(self, clear: str | None, correct: str | None, reason: str, name: str) -> None:
        try:
            conn = connect(self.app.db_path)
        except StoreError as exc:
            self.app.call_from_thread(self._error, str(exc))
            return
        try:
            decision = adjudicate(
                conn,
                self.item.item_id,
                reason=reason,
                adjudicator=name,
                question_clear=clear,
                response_correct=correct,
            )
        except AnnotationError as exc:
            self.app.call_from_thread(self._error, str(exc))
            return
        finally:
            conn.close()
        self.app.call_from_thread(self.dismiss, decision)

    def _error(self, message: str) -> None:
        self.query_one("#adj-error", Static).update(Text(message, style="red"))


ROUND_GROUP = "adjudication-round"
"""The worker that reads the round's labels, agreement and decisions."""


@dataclass(frozen=True)
class AdjudicationRead:
    """What the adjudication screen reads: the round's results and each item's decisions."""

    results: RoundResults
    history: dict[int, list[Adjudication]]
    """Item id -> every decision recorded on it, oldest first."""


def read_round(conn: sqlite3.Connection, round_id: int) -> AdjudicationRead:
    """The round's labels and agreement, and the decisions on each of its items."""
    res = round_results(conn, round_id)
    return AdjudicationRead(
        res, {i.item_id: adjudication_history(conn, i.item_id) for i in res.items}
    )


class AdjudicationScreen(ReadsOnWorkers, Screen[Any]):
    """Items needing a decision on the left, the selected one side by side on the right."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("d", "decide", "Decide"),
        Binding("t", "toggle_all", "All / disputed"),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "app.pop_screen", "Back"),
        # below 130 columns the details are under the list, in a few rows (`check_action`)
        Binding(
            "pagedown", "scroll_detail('page_down')", "Details down", show=False, priority=True
        ),
        Binding("pageup", "scroll_detail('page_up')", "Details up", show=False, priority=True),
    ]
    HELP = ADJUDICATION_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, round_id: int, item_id: int | None = None) -> None:
        super().__init__()
        self.round_id = round_id
        self.start_item = item_id
        self.show_all = False
        self.items: dict[int, ItemResult] = {}
        self.majority = 0
        self.adjudicator = _default_adjudicator()
        self._results: RoundResults | None = None
        self._history: dict[int, list[Adjudication]] = {}
        self.loaded = False
        """The round has been read once (on a worker: `action_refresh`)."""

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Horizontal(id="adj"):
            with Vertical(id="adj-left"):
                yield Static("", id="adj-list-title", classes="section-title")
                yield LiteralDataTable(id="adj-items", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="adj-detail", can_focus=False):
                yield Static("", id="adj-head")
                yield Static("", id="adj-body")
                yield Static("Labels side by side", classes="section-title")
                yield LiteralDataTable(id="adj-labels", cursor_type="none")
                yield Static("", id="adj-verdicts")
                yield Static("", id="adj-decision")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#adj-labels", DataTable).can_focus = False
        table = self.query_one("#adj-items", DataTable)
        table.add_columns(*ITEM_COLUMNS)
        labels = self.query_one("#adj-labels", DataTable)
        labels.add_columns("annotator", "intent clear", "response", "flag / note")
        self.action_refresh()
        table.focus()

    def _listed(self, item: ItemResult) -> bool:
        return self.show_all or item.status not in ("ok", "pending")

    def action_refresh(self) -> None:
        """Read the round again, on a worker; shown when it is in (`_read`)."""
        round_id = self.round_id
        read_then(
            self,
            lambda conn: read_round(conn, round_id),
            self._read,
            "reading the round's labels",
            group=ROUND_GROUP,
        )

    def _read(self, read: AdjudicationRead) -> None:
        self._results, self._history = read.results, read.history
        self._show(read.results)
        if not self.loaded:
            self.loaded = True
            self.refresh_bindings()

    def _show(self, res: RoundResults) -> None:
        """The items (those needing a decision, or all), the cursor kept on its item."""
        self.sub_title = visible(f"adjudication of round '{res.round.name}'")
        self.majority = res.round.settings.majority
        self.items = {i.item_id: i for i in res.items}
        table = self.query_one("#adj-items", DataTable)
        keep = self.start_item
        if keep is None and table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            keep = int(key) if key is not None else None
        self.start_item = None
        listed = [i for i in res.items if self._listed(i) or i.item_id == keep]
        assert isinstance(table, LiteralDataTable)
        # sized at once: the table's own auto widths come only once it is idle (a shot or a
        # reader on a busy machine saw the titles' widths alone)
        table.fill(
            ITEM_COLUMNS,
            [
                [
                    Text(item_ref(it.item_id), justify="right"),
                    it.kg,
                    "Wh" if it.qtype == WH else "Yes/No",
                    compact(it, "question_clear"),
                    compact(it, "response_correct") if it.qtype == WH else "",
                    it.app_verdict,
                    Text(it.status, style=STATUS_STYLE[it.status]),
                ]
                for it in listed
            ],
            [str(it.item_id) for it in listed],
        )
        what = "Every item" if self.show_all else "Items needing a decision"
        self.query_one("#adj-list-title", Static).update(
            f"{what} ({len(listed)} of {len(res.items)}) · t shows "
            + ("those needing a decision" if self.show_all else "all")
        )
        ids = [i.item_id for i in listed]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        self._show_selected()

    def selected(self) -> ItemResult | None:
        table = self.query_one("#adj-items", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.items.get(int(key)) if key is not None else None

    @on(DataTable.RowHighlighted, "#adj-items")
    def _highlighted(self) -> None:
        self._show_selected()

    @on(DataTable.RowSelected, "#adj-items")
    def _selected(self) -> None:
        self.action_decide()

    def _show_selected(self) -> None:
        item = self.selected()
        head = self.query_one("#adj-head", Static)
        labels = self.query_one("#adj-labels", DataTable)
        labels.clear()
        if item is None:
            head.update("Nothing needs a decision. Press t to list every item.")
            for sel in ("#adj-body", "#adj-verdicts", "#adj-decision"):
                self.query_one(sel, Static).update("")
            return
        kind = "Wh question" if item.qtype == WH else "Yes/No question"
        head.update(
            Text.assemble(
                (f"Item {item_ref(item.item_id)}", "bold"),
                f" · KG {visible(item.kg)} · {kind} · ",
                _styled(item),
            )
        )
        body = literal(item.question, "bold")
        if item.qtype == WH:
            body.append("\nAnswer (aliases separated by commas): ", style="dim")
            body.append(visible("; ".join(", ".join(g) for g in item.answers)), style="cyan")
            body.append("\nAI's response: ", style="dim")
            body.append(visible(" ".join((item.response or "").split())))
        self.query_one("#adj-body", Static).update(body)
        for name in item.assigned:
            state = item.labels.get(name)
            clear: Text | str
            if state is None or not state.done:
                clear, correct = Text("not yet", style="dim"), ""
            elif state.skipped:
                clear, correct = Text("skipped", style="dim"), ""
            else:
                clear, correct = state.question_clear or "", state.response_correct or ""
            note: Text | str = ""
            if state is not None and state.flag:
                note = literal("⚑ " + (state.note or "(no note)"), "magenta")
            labels.add_row(name, clear, correct if item.qtype == WH else "—", note)
        self.query_one("#adj-verdicts", Static).update(self._verdicts(item))
        self.query_one("#adj-decision", Static).update(self._decision(item))

    def _verdicts(self, item: ItemResult) -> Text:
        text = Text(
            f"Human majority (at least {counted(self.majority, 'vote')}, no tie)", style="bold"
        )
        text.append("\n  intent clear  ", style="dim")
        text.append(f"{item.clear_majority or 'none':<10}")
        text.append(tally(item, "question_clear"), style="dim")
        if item.qtype == WH:
            text.append("\n  response      ", style="dim")
            text.append(f"{item.correct_majority or 'none':<10}")
            text.append(tally(item, "response_correct"), style="dim")
            text.append("\nApp's verdict   ", style="bold")
            text.append(item.app_verdict)
            if item.app_verdict not in ("correct", "incorrect"):
                text.append(f" (counts as {item.app_judgement})", style="dim")
        text.append("\nFinal           ", style="bold")
        text.append(item.clarity)
        if item.qtype == WH:
            text.append(f", response {item.human_correct or 'undecided'}")
            if item.app_agrees is True:
                text.append(": the app agrees", style="green")
            elif item.app_agrees is False:
                text.append(": the app disagrees", style="bold red")
        if item.adjudication is not None:
            text.append(" (adjudicated)", style="dim")
        return text

    def _decision(self, item: ItemResult) -> Text:
        history = self._history.get(item.item_id, [])
        if not history:
            return Text("No decision yet: press d to record one.", style="dim")
        text = Text("Decisions, latest first (the latest counts)", style="bold")
        for adj in reversed(history):
            decided = ", ".join(
                f"{what} {value}"
                for what, value in (
                    ("intent clear", adj.question_clear),
                    ("response", adj.response_correct),
                )
                if value is not None
            )
            text.append(f"\n{visible(adj.adjudicator)}", style="bold")
            text.append(f": {decided}. ")
            text.append(visible(adj.reason), style="italic")
        return text

    def action_decide(self) -> None:
        item = self.selected()
        if item is None:
            self.notify("No item selected.", severity="warning")
            return

        def done(decision: Adjudication | None) -> None:
            if decision is not None:
                self.adjudicator = decision.adjudicator
                self.start_item = decision.item_id
                self.notify(f"Decision on item {item_ref(decision.item_id)} recorded.")
                self.action_refresh()

        self.app.push_screen(DecisionScreen(item, self.adjudicator), done)

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        if self._results is not None:
            self._show(self._results)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide" and not self.loaded:
            return None  # nothing to decide on until the round is read
        # side by side, page up / down stay the list's
        return action != "scroll_detail" or self.has_class("-narrow")

    def action_scroll_detail(self, how: str) -> None:
        getattr(self.query_one("#adj-detail", VerticalScroll), f"scroll_{how}")()


def _styled(item: ItemResult) -> Text:
    st = item.status
    return Text(st, style=STATUS_STYLE[st])
