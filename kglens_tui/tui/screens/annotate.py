"""Annotate screen: one annotator rates their items of a round, keyboard only, blind to the app's
verdict and to everyone else's labels. Labels are stored in order by one writer thread."""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Collapsible,
    Footer,
    Input,
    Label,
    Markdown,
    Static,
)

from kglens_tui.annotate.errors import AnnotationError, item_ref
from kglens_tui.annotate.guidelines import (
    GUIDELINES_MARKDOWN,
    QUESTION_CLEAR_PROMPT,
    RESPONSE_CORRECT_PROMPT,
)
from kglens_tui.annotate.items import AnnotatorItem, items_for_annotator
from kglens_tui.annotate.labels import (
    CLEARED,
    LabelState,
    Revision,
    StaleLabel,
    current_label,
    flag_item,
    new_rev_id,
    note_problem,
    skip_item,
    submit_label,
    undo_label,
)
from kglens_tui.annotate.rounds import get_round
from kglens_tui.core.safetext import literal, squeezed, visible
from kglens_tui.store.connection import StoreError, connect
from kglens_tui.textfmt import counted
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.widgets.share_bar import ShareBar
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

ANNOTATE_HELP = """\
## Annotate

| key | action |
| --- | --- |
| `y` / `n` | the intent of the question is clear: Yes / No |
| `c` / `x` | Wh questions: the AI's response is Correct / Incorrect |
| `u` | undo your last action on this item (repeatable); on an item you have not labelled here, go back to the last one you did and undo that: `u` again steps further back |
| `s` | skip this item (it counts as done and casts no vote) |
| `f` | flag this item with a note (again to edit or remove the flag) |
| `j` / `k` (or `→` / `←`) | next / previous item |
| `g` | show or hide the guidelines (on a narrow terminal they replace the item, and the keys that answer, skip, flag or undo wait until `g` shows it again) |
| `↑` / `↓` | scroll the item (or the guidelines shown in its place); the two questions stay in view below it, and the line above them says how much of the item is below |
| `page up` / `page down` | scroll it by a page |
| `home` / `end` | scroll it to its start / end |
| `escape` | back to the rounds (asks first while an answer is not saved yet) |

A Yes/No item is saved with `y` or `n`; a Wh item once both questions are answered. `y` / `n`
wait until the end of the question has been on screen, `c` / `x` until the end of the AI's
response has (a long one on a small terminal: scroll to it first). After a new label the next
item opens. Every change is saved at once as a new revision; the time you spend on each item
is recorded. "Done" counts the items labelled or skipped: a flag alone does not make an item
done (label or skip it too). You never see the app's verdict or another annotator's labels.

The item line shows your place in your items and the item's number in the workspace ("Item 3 of 6
· #105"): reports and adjudication name items by that number. Open in two windows, an item
shows the label stored last, wherever it was given (a change made in the other window is
told), and `u` undoes only a change this window has seen: else it says what the item is now.
"""

IDLE_CAP_S = 600.0
"""Time on one item counted per action at most: a screen left open is not hours of work."""


@dataclass(frozen=True)
class LabelOp:
    """One action of the annotator, as queued for the writer."""

    kind: str
    """label, skip, flag or undo."""
    item_id: int
    seconds: float
    args: dict[str, Any] = field(default_factory=dict)
    rev_id: str = field(default_factory=new_rev_id)


class LabelStored(Message):
    """The writer stored an action (revision None: nothing to undo) or failed (error; stale:
    an undo refused because another window changed the item since, holding what it is now)."""

    def __init__(
        self,
        op: LabelOp,
        revision: Revision | None,
        error: str = "",
        stale: LabelState | None = None,
    ) -> None:
        super().__init__()
        self.op = op
        self.revision = revision
        self.error = error
        self.stale = stale


WRITES: dict[str, Callable[..., Revision | None]] = {
    "label": submit_label,
    "skip": skip_item,
    "flag": flag_item,
    "undo": undo_label,
}


class LabelWriter:
    """Stores one annotator's actions in order on a thread with its own connection."""

    def __init__(self, db_path: Path, annotator: str, target: MessagePump) -> None:
        self.db_path = db_path
        self.annotator = annotator
        self.target = target
        self._queue: queue.Queue[LabelOp | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name=f"labels:{annotator}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def put(self, op: LabelOp) -> None:
        self._queue.put(op)

    def close(self, timeout: float = 30.0) -> None:
        """Store what is queued, then end the thread."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)

    def _loop(self) -> None:
        try:
            conn = connect(self.db_path)
        except StoreError as exc:
            while (op := self._queue.get()) is not None:
                self.target.post_message(LabelStored(op, None, str(exc)))
            return
        # an op of this writer that stored nothing (an undo with nothing to undo, a refused or
        # failed write) -> the revision its item had before it: what a later undo has seen
        unstored: dict[str, str | None] = {}
        before: dict[int, str | None] = {}  # item -> the latest revision id this writer knows
        try:
            while (op := self._queue.get()) is not None:
                write = WRITES[op.kind]
                args = dict(op.args)
                if "seen" in args and args["seen"] in unstored:
                    args["seen"] = unstored[args["seen"]]
                known = args.get("seen", before.get(op.item_id))
                try:
                    rev = write(
                        conn,
                        op.item_id,
                        self.annotator,
                        seconds=op.seconds,
                        rev_id=op.rev_id,
                        **args,
                    )
                except StaleLabel as exc:
                    unstored[op.rev_id] = known
                    self.target.post_message(LabelStored(op, None, str(exc), exc.now))
                except (AnnotationError, sqlite3.Error) as exc:
                    unstored[op.rev_id] = known
                    self.target.post_message(LabelStored(op, None, str(exc)))
                else:
                    if rev is None:
                        unstored[op.rev_id] = known
                    else:
                        before[op.item_id] = op.rev_id
                    self.target.post_message(LabelStored(op, rev))
        finally:
            conn.close()


@dataclass(frozen=True)
class OpenedRound:
    """What the annotation screen reads when it opens."""

    name: str
    items: list[AnnotatorItem]


def read_items(conn: sqlite3.Connection, round_id: int, annotator: str) -> OpenedRound:
    """The round's name and the annotator's items."""
    return OpenedRound(
        get_round(conn, round_id).name, items_for_annotator(conn, round_id, annotator)
    )


CHIP_META = "kglens-answer"
"""The style meta key of an answer's chip: what a click on it answers (`AnnotateScreen`)."""


def _choice(
    key: str, label: str, chosen: bool, other_chosen: bool, saved: bool, action: str = ""
) -> Text:
    """One option: its key, its label. The chosen one is bold with a check mark, green when
    saved and yellow with "(draft)" while not (told apart without colour too); the options not
    chosen are dimmed beside it. ``action``: what a click on it answers ("clear:yes"; as its
    key, in the terminal and in the browser, `kglens serve`), kept in the style's meta under
    `CHIP_META` (not "@click": Textual would draw the chips as links)."""
    if chosen:
        colour = "green" if saved else "yellow"
        text = Text.assemble(
            (f" {key} ", f"bold reverse {colour}"),
            (f" {label} ✔" + ("" if saved else " (draft)"), f"bold {colour}"),
        )
    elif other_chosen:
        text = Text.assemble((f" {key} ", "reverse dim"), (f" {label}", "dim"))
    else:
        text = Text.assemble((f" {key} ", "bold reverse"), f" {label}")
    if action:
        text.stylize(Style.from_meta({CHIP_META: action}))
    return text


def question_line(
    number: int,
    prompt: str,
    options: tuple[tuple[str, str, str], ...],
    value: str | None,
    saved: bool,
    action: str = "",
) -> Text:
    """'1. prompt' and the options (key, label, value), the chosen one highlighted; each option
    runs the screen's ``action`` with its value when clicked (none without)."""
    text = Text.assemble((f"{number}. {prompt}", "bold"), "\n   ")
    answered = value is not None and any(value == option for _, _, option in options)
    for key, label, option in options:
        chosen = value == option
        click = f"{action}:{option}" if action else ""
        text.append_text(_choice(key, label, chosen, answered and not chosen, saved, click))
        text.append("      ")
    text.rstrip()
    return text


def reply_text(reply: str | None) -> Text:
    """A model's reply as shown to the annotator: literal, each run of blank lines as one blank
    line (a reply of many newlines cannot push the questions away), "(empty reply)" dimmed
    when there is nothing to show."""
    text = squeezed(reply or "")
    return literal(text) if text else Text("(empty reply)", style="dim italic")


def item_name(item: AnnotatorItem, total: int) -> str:
    """ "Item 3 of 6 · #105": the place in the annotator's items and the item's number in the
    workspace (`item_ref`), which reports and adjudication use."""
    return f"Item {item.position} of {total} · {item_ref(item.item_id)}"


PARTS = {"question": "#ann-question", "response": "#ann-response"}
"""What an answer judges, and the widget showing it: y / n the question, c / x the reply."""
PART_NAMES = {"question": "The question", "response": "The AI's response"}

CLEAR_OPTIONS = (("y", "Yes", "yes"), ("n", "No", "no"))
CORRECT_OPTIONS = (("c", "Correct", "correct"), ("x", "Incorrect", "incorrect"))


class FlagScreen(ModalScreen[tuple[bool, str] | None]):
    """A note for a flag: (True, note) flags, (False, '') removes the flag, None cancels."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("ctrl+d", "remove", "Remove flag"),
    ]

    def __init__(self, note: str, flagged: bool) -> None:
        super().__init__()
        self.note = note
        self.flagged = flagged

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Flag this item", classes="dialog-title")
            yield Static(
                "What is wrong with it? The note goes to whoever adjudicates the round.",
                classes="hint",
            )
            yield Input(value=self.note, placeholder="note (optional)", id="flag-note")
            yield Static("", id="flag-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Flag (enter)", id="flag", variant="warning")
                if self.flagged:
                    yield Button("Remove flag (ctrl+d)", id="remove")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#flag")
    def _flag(self) -> None:
        note = self.query_one(Input).value.strip()
        problem = note_problem(note)
        if problem:  # e.g. a pasted escape: refused as in a pack
            self.query_one("#flag-error", Static).update(Text(f"The note {problem}.", "red"))
            return
        self.dismiss((True, note))

    @on(Button.Pressed, "#remove")
    def action_remove(self) -> None:
        if self.flagged:
            self.dismiss((False, ""))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)


WAIT_FOR_ITEMS = frozenset(
    ("clear", "correct", "move", "undo", "skip", "flag", "guidelines", "scroll")
)
"""The actions that do nothing until the items are read and shown (`AnnotateScreen.loaded`)."""


class AnnotateScreen(ReadsOnWorkers, Screen[Any]):
    """One annotator's items of a round, one at a time."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    # y / n and c / x show beside each question of the item, not in the footer, and the arrows
    # stand for j / k there: so at 80 columns every key the footer shows fits
    BINDINGS = [
        Binding("y", "clear('yes')", "Yes", show=False),
        Binding("n", "clear('no')", "No", show=False),
        Binding("c", "correct('correct')", "Correct", show=False),
        Binding("x", "correct('incorrect')", "Incorrect", show=False),
        Binding("left,k", "move(-1)", "Prev", key_display="←", priority=True),
        Binding("right,j", "move(1)", "Next", key_display="→", priority=True),
        Binding("u", "undo", "Undo"),
        Binding("s", "skip", "Skip"),
        Binding("f", "flag", "Flag"),
        Binding("g", "guidelines", "Guidelines"),
        Binding("down", "scroll('down')", "Scroll", key_display="↑/↓", show=False),
        Binding("up", "scroll('up')", "Scroll up", show=False),
        Binding("pagedown", "scroll('page_down')", "Page down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
        Binding("home", "scroll('home')", "Top of the item", show=False),
        Binding("end", "scroll('end')", "End of the item", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "back", "Rounds"),
    ]
    HELP = ANNOTATE_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, round_id: int, annotator: str) -> None:
        super().__init__()
        self.round_id = round_id
        self.annotator = annotator
        self.items: list[AnnotatorItem] = []
        self.index = 0
        self._optimistic: dict[int, LabelState] = {}
        self._draft: dict[int, LabelState] = {}
        self._pending: dict[int, int] = {}
        self._unrecorded: dict[int, float] = {}
        self._shown_at = time.monotonic()
        self._writer: LabelWriter | None = None
        self._bindings_for: bool | None = None
        self._shown: dict[str, Text | str] = {}
        self._shown_item: int | None = None
        self._seen: dict[str, set[int]] = {part: set() for part in PARTS}
        """Items whose question (y / n wait for it) or reply (c / x) was on screen to its end."""
        self._mine: set[str] = set()
        """Revision ids of the actions this window queued."""
        self._history: list[int] = []
        """Items this window labelled, skipped or flagged, one entry per action, the latest
        last: what `u` steps back through once the item shown has nothing of its to undo."""
        self._last_op: dict[int, str] = {}
        """Item id -> revision id of the last action queued for it and not yet stored."""
        self._changes: dict[int, int] = {}
        """Item id -> actions of this window queued or stored on it: a read of its label begun
        before the latest is out of date (`_check_stored`)."""
        self.loaded = False
        """The round's items are read (on a worker, `on_mount`), shown and laid out."""

    @property
    def pending(self) -> int:
        """Actions queued and not yet stored."""
        return sum(self._pending.values())

    @property
    def item(self) -> AnnotatorItem | None:
        return self.items[self.index] if self.items else None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Horizontal(id="ann-top"):
            yield Static("", id="ann-who")
            yield ShareBar(total=1, show_eta=False, id="ann-bar")
            yield Static("", id="ann-count")
        with Horizontal(id="ann-main"):
            with VerticalScroll(id="ann-item", can_focus=False):
                yield Static("", id="ann-meta")
                yield Static("", id="ann-question")
                yield Static("", id="ann-answers")
                yield Static("", id="ann-response")
                with Vertical(id="ann-asks"):  # docked below what scrolls: always in view
                    yield Static("", id="ann-q1", classes="ann-ask")
                    yield Static("", id="ann-q2", classes="ann-ask")
                    yield Static("", id="ann-state")
            side = VerticalScroll(id="ann-side", can_focus=False, classes="-shut")
            box = Collapsible(title="Guidelines (g)", collapsed=True, id="ann-guidelines")
            with side, box:
                yield Markdown(GUIDELINES_MARKDOWN)
        yield Footer()

    def on_mount(self) -> None:
        self._writer = LabelWriter(self.app.db_path, self.annotator, self)
        self._writer.start()
        box = self.query_one("#ann-item")
        for attribute in ("scroll_y", "virtual_size", "size"):  # scrolled, new item, resized
            self.watch(box, attribute, self._scrolled, init=False)
        self.query_one("#ann-question", Static).update(Text("Reading the round…", "dim"))
        round_id, annotator = self.round_id, self.annotator
        read_then(
            self,
            lambda conn: read_items(conn, round_id, annotator),
            self._open,
            "the round's items",
        )

    def _open(self, opened: OpenedRound) -> None:
        """Show the round read on the worker, in one step: the guidelines open for an annotator
        who has labelled nothing yet (so the item is laid out beside them, or on a narrow
        screen under them, from the first), then the first item not done and the progress;
        `loaded` once that is laid out."""
        self.sub_title = visible(f"round '{opened.name}' · annotating as {self.annotator}")
        self.items = opened.items
        undone = [n for n, i in enumerate(self.items) if not i.done]
        self.index = undone[0] if undone else 0
        if not any(i.label is not None for i in self.items):
            self.query_one("#ann-guidelines", Collapsible).collapsed = False
            self._show_guidelines(True)
        self.query_one("#ann-bar", ShareBar).update(total=max(len(self.items), 1))
        self._shown_at = time.monotonic()
        self.show()
        self.call_after_refresh(self._laid_out)

    def _laid_out(self) -> None:
        self.loaded = True
        self.refresh_bindings()

    def on_unmount(self) -> None:
        if self._writer is not None:
            self._writer.close()

    # what is shown
    def _set(self, selector: str, content: Text | str) -> None:
        """Update a Static only when its content changes (each update costs a layout pass)."""
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            self.query_one(selector, Static).update(content)

    def state_of(self, item: AnnotatorItem) -> LabelState:
        """The item's label as it will be once queued actions are stored."""
        if item.item_id in self._optimistic:
            return self._optimistic[item.item_id]
        return item.label.state if item.label is not None else CLEARED

    def done_count(self) -> int:
        return sum(self.state_of(i).done for i in self.items)

    def show(self) -> None:
        """Redraw the current item and the progress line."""
        total = len(self.items)
        done = self.done_count()
        flagged = sum(self.state_of(i).flag for i in self.items)
        self._set(
            "#ann-who", Text.assemble(("Annotator ", "dim"), (visible(self.annotator), "bold"))
        )
        self.query_one("#ann-bar", ShareBar).update(progress=done)
        count = f"{done} of {total} done" + (f" · {flagged} flagged" if flagged else "")
        self._set("#ann-count", count)
        item = self.item
        if item is None:
            self._set("#ann-question", "This annotator has no items.")
            return
        self._show_item(item)
        if item.item_id not in self._last_op:
            self._check_stored(item)
        if item.item_id != self._shown_item:  # another item opens at its top, not scrolled
            self._shown_item = item.item_id
            self.query_one("#ann-item", VerticalScroll).scroll_home(animate=False)
        if item.asks_response != self._bindings_for:  # c / x apply to Wh items only
            self._bindings_for = item.asks_response
            self.refresh_bindings()
        self.call_after_refresh(self._note_view)

    def _scrolled(self) -> None:
        self.call_after_refresh(self._note_view)

    def _lines_below(self) -> int:
        """Lines of the item (question, answers, reply) below what its box shows."""
        box = self.query_one("#ann-item", VerticalScroll)
        return max(0, round(box.max_scroll_y - box.scroll_y))

    def _note_view(self) -> None:
        """After a layout or a scroll: remember that the current question's or reply's end was
        on screen,
        and say above the two questions how much of the item is below (nothing when it all
        shows)."""
        if not self.is_attached or not self.is_current:
            return
        item = self.item
        box = self.query_one("#ann-item", VerticalScroll)
        asks = self.query_one("#ann-asks", Vertical)
        below = self._lines_below() if box.display else 0
        if item is not None and box.display and item.item_id == self._shown_item:
            for part, selector in PARTS.items():
                widget = self.query_one(selector, Static)
                end = widget.region.bottom
                if widget.display and widget.region.height and box.region.y < end <= asks.region.y:
                    self._seen[part].add(item.item_id)
        title = (
            f"↓ {counted(below, 'more line', 'more lines')} below · ↓ / page down" if below else ""
        )
        if asks.border_title != title:
            asks.border_title = title

    def seen(self, item: AnnotatorItem, part: str) -> bool:
        """Whether the end of the item's question or reply (`part`) has been on screen (a
        Yes/No item has no reply)."""
        if part == "response" and not item.asks_response:
            return True
        return item.item_id in self._seen[part]

    def reply_seen(self, item: AnnotatorItem) -> bool:
        """Whether the end of the item's reply has been on screen (c / x wait for it)."""
        return self.seen(item, "response")

    def _check_stored(self, item: AnnotatorItem, tell: bool = True) -> None:
        """Read the item's label stored now on a worker (another window may have changed it):
        held once it is in (`_stored_read`); a later read of the item replaces this one."""
        item_id, annotator = item.item_id, self.annotator
        then = partial(self._stored_read, item_id, self._changes.get(item_id, 0), tell)
        read_then(
            self,
            lambda conn: current_label(conn, item_id, annotator),
            then,
            "reading the item's label",
            group=f"label:{item_id}",
        )

    def _stored_read(self, item_id: int, since: int, tell: bool, stored: Revision | None) -> None:
        """Hold the label read for an item, said in a note when another window stored it
        (`tell`), unless this window acted on the item since the read began."""
        if item_id in self._last_op or self._changes.get(item_id, 0) != since:
            return
        item = next((i for i in self.items if i.item_id == item_id), None)
        if item is not None and self._adopt(item, stored, tell) is not item:
            self.show()

    def _adopt(self, item: AnnotatorItem, stored: Revision | None, tell: bool) -> AnnotatorItem:
        """Hold `stored` as the item's label; with `tell`, a note when another window stored
        it."""
        before = item.label.client_rev if item.label is not None else ""
        now = stored.client_rev if stored is not None else ""
        if now == before:
            return item
        fresh = replace(item, label=stored)
        self.items = [fresh if i.item_id == item.item_id else i for i in self.items]
        if tell and now not in self._mine:
            state = stored.state if stored is not None else CLEARED
            self.notify(
                f"{item_name(item, len(self.items))} changed in another window: now "
                f"{state.summary}.",
                severity="warning",
                timeout=8,
            )
        return fresh

    def _show_item(self, item: AnnotatorItem) -> None:
        state = self.state_of(item)
        draft = self._draft.get(item.item_id, CLEARED)
        kind = "Wh question" if item.asks_response else "Yes/No question"
        meta = f"{item_name(item, len(self.items))} · {kind} · KG {visible(item.kg)}"
        self._set(
            "#ann-meta", Text(meta + (" · calibration" if item.calibration else ""), style="dim")
        )
        self._set("#ann-question", literal(item.question, "bold"))
        for selector in ("#ann-answers", "#ann-response", "#ann-q2"):
            widget = self.query_one(selector, Static)
            if widget.display != item.asks_response:
                widget.display = item.asks_response
        if item.asks_response:
            several = len(item.answers) > 1
            title = (
                "Answers (any one counts; aliases separated by commas)"
                if several
                else "Answer (aliases separated by commas)"
            )
            body = Text(title, style="dim")
            for group in item.answers:
                body.append("\n" + ("• " if several else ""))
                body.append(visible(", ".join(group)), style="bold cyan")
            self._set("#ann-answers", body)
            self._set(
                "#ann-response",
                Text.assemble(("AI's response", "dim"), "\n", reply_text(item.response)),
            )
        clear, clear_saved = state.question_clear, True
        if draft.question_clear is not None:
            clear, clear_saved = draft.question_clear, False
        self._set(
            "#ann-q1",
            question_line(1, QUESTION_CLEAR_PROMPT, CLEAR_OPTIONS, clear, clear_saved, "clear"),
        )
        if item.asks_response:
            correct, correct_saved = state.response_correct, True
            if draft.response_correct is not None:
                correct, correct_saved = draft.response_correct, False
            self._set(
                "#ann-q2",
                question_line(
                    2, RESPONSE_CORRECT_PROMPT, CORRECT_OPTIONS, correct, correct_saved, "correct"
                ),
            )
        self._set("#ann-state", self._state_text(item, state, draft))

    def _state_text(self, item: AnnotatorItem, state: LabelState, draft: LabelState) -> Text:
        text = Text()
        if draft.question_clear is not None or draft.response_correct is not None:
            missing = "y or n" if draft.question_clear is None else "c or x"
            text.append(f"Not saved yet: answer the other question ({missing}).", style="yellow")
        elif state.skipped:
            text.append("Skipped: answer it now, or leave it.", style="yellow")
        elif state.done:
            text.append("Saved.", style="green")
            if item.item_id in self._pending:
                text.append(" (storing…)", style="dim")
        elif state.flag:
            keys = "y / n, then c / x" if item.asks_response else "y / n"
            text.append(
                f"Not rated yet: a flag alone does not make it done; {keys}, or s skips.",
                style="yellow",
            )
        else:
            keys = "y / n, then c / x" if item.asks_response else "y / n"
            text.append(f"Not rated yet: {keys}; s skips, f flags.", style="dim")
        if state.flag:
            text.append("\nFlagged", style="bold magenta")
            text.append(f": {visible(state.note)}" if state.note else " (no note)")
        if self.done_count() == len(self.items):
            text.append(
                f"\nAll {counted(len(self.items), 'item')} done, thank you. You can still go back and "
                "change a label.",
                style="bold green",
            )
        return text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in WAIT_FOR_ITEMS and not self.loaded:
            return None
        if action == "correct":
            item = self.item
            return None if item is None or not item.asks_response else True
        return True

    # time
    def _take_seconds(self, item_id: int) -> float:
        now = time.monotonic()
        spent = min(now - self._shown_at, IDLE_CAP_S) + self._unrecorded.pop(item_id, 0.0)
        self._shown_at = now
        return round(spent, 3)

    def _leave_item(self) -> None:
        item = self.item
        if item is not None:
            now = time.monotonic()
            spent = min(now - self._shown_at, IDLE_CAP_S)
            self._unrecorded[item.item_id] = self._unrecorded.get(item.item_id, 0.0) + spent
            self._shown_at = now

    # actions
    def _queue(self, op: LabelOp, state: LabelState | None) -> None:
        assert self._writer is not None
        if op.kind != "undo":
            self._history.append(op.item_id)
        self._mine.add(op.rev_id)
        self._last_op[op.item_id] = op.rev_id
        self._changes[op.item_id] = self._changes.get(op.item_id, 0) + 1
        self._pending[op.item_id] = self._pending.get(op.item_id, 0) + 1
        if state is not None:
            self._optimistic[op.item_id] = state
        self._writer.put(op)

    def _answer(self, clear: str | None, correct: str | None) -> None:
        item = self.item
        if item is None:
            return
        state = self.state_of(item)
        draft = self._draft.pop(item.item_id, CLEARED)
        new_clear = clear or draft.question_clear
        new_correct = correct or draft.response_correct
        if state.question_clear is not None:  # revising a saved label: keep the other answer
            new_clear = new_clear or state.question_clear
            new_correct = new_correct or state.response_correct
        if new_clear is None or (item.asks_response and new_correct is None):
            self._draft[item.item_id] = LabelState(new_clear, new_correct)
            self.show()
            return
        was_done = state.done and not state.skipped
        if was_done and (new_clear, new_correct) == (state.question_clear, state.response_correct):
            return  # the same answer again: nothing to store
        args = {"question_clear": new_clear, "response_correct": new_correct}
        new = LabelState(new_clear, new_correct, False, state.flag, state.note)
        self._queue(LabelOp("label", item.item_id, self._take_seconds(item.item_id), args), new)
        if not was_done:
            self._advance()
        self.show()

    def _covered(self) -> bool:
        """Whether the guidelines stand in the item's place (a narrow screen shows one of the
        two): an answer, skip, flag or undo then would go to an item the annotator cannot
        see, so it is refused with a note saying how to see the item."""
        if self.query_one("#ann-item").display:
            return False
        self.notify("The guidelines cover the item: g shows it.", severity="warning")
        return True

    def _advance(self) -> None:
        if self.index < len(self.items) - 1:
            self._leave_item()
            self.index += 1

    def on_click(self, event: events.Click) -> None:
        """A click on an answer's chip answers as its key (`CHIP_META`: "clear:yes")."""
        answer = event.style.meta.get(CHIP_META)
        if not isinstance(answer, str):
            return
        event.stop()
        action, _, value = answer.partition(":")
        if action == "clear":
            self.action_clear(value)
        elif action == "correct":
            self.action_correct(value)

    def action_clear(self, value: str) -> None:
        self._judge("question", value)

    def action_correct(self, value: str) -> None:
        item = self.item
        if item is not None and item.asks_response:
            self._judge("response", value)

    def _judge(self, part: str, value: str) -> None:
        """y / n (part "question") or c / x ("response") once the end of what they judge has
        been on screen."""
        item = self.item
        if item is None or self._covered():
            return
        if self.seen(item, part):
            self._answer_part(part, value)
        else:  # the item may just have been laid out: judge it by the next frame
            self.call_after_refresh(self._judge_when_seen, item.item_id, part, value)

    def _judge_when_seen(self, item_id: int, part: str, value: str) -> None:
        """An answer on an item still shown once the end of what it judges is on screen; else a
        note saying where the rest is (the annotator would judge text they have not read)."""
        item = self.item
        if item is None or item.item_id != item_id or not self.query_one("#ann-item").display:
            return
        self._note_view()
        if not self.seen(item, part):
            below = self._lines_below()
            self.notify(
                f"{PART_NAMES[part]} goes on below ({counted(below, 'more line', 'more lines')}):"
                " read it to its end (↓ / page down) before judging it.",
                severity="warning",
            )
            return
        self._answer_part(part, value)

    def _answer_part(self, part: str, value: str) -> None:
        if part == "question":
            self._answer(value, None)
        else:
            self._answer(None, value)

    def action_skip(self) -> None:
        item = self.item
        if item is None or self._covered():
            return
        self._draft.pop(item.item_id, None)
        state = self.state_of(item)
        new = LabelState(None, None, True, state.flag, state.note)
        self._queue(LabelOp("skip", item.item_id, self._take_seconds(item.item_id)), new)
        self._advance()
        self.show()

    def action_undo(self) -> None:
        item = self.item
        if item is None or self._covered():
            return
        if self._draft.pop(item.item_id, None) is not None:
            self.show()
            return
        if item.item_id in self._history:  # the item's own latest action
            del self._history[len(self._history) - 1 - self._history[::-1].index(item.item_id)]
        elif self._history and self.state_of(item) == LabelState():
            # nothing said about this item: step back to this window's latest action
            back = self._history.pop()
            self._leave_item()
            self.index = next(n for n, i in enumerate(self.items) if i.item_id == back)
            item = self.items[self.index]
        seen = self._last_op.get(item.item_id)
        if seen is None:
            seen = item.label.client_rev if item.label is not None else ""
        args = {"seen": seen}  # undo only what this window has seen: not another window's change
        self._queue(LabelOp("undo", item.item_id, self._take_seconds(item.item_id), args), None)
        self.show()

    def action_flag(self) -> None:
        item = self.item
        if item is None or self._covered():
            return
        state = self.state_of(item)

        def done(result: tuple[bool, str] | None) -> None:
            if result is None:
                return
            flagged, note = result
            now = next(self.state_of(i) for i in self.items if i.item_id == item.item_id)
            new = replace(now, flag=flagged, note=note if flagged else "")
            args = {"note": note, "flagged": flagged}
            self._queue(LabelOp("flag", item.item_id, self._take_seconds(item.item_id), args), new)
            self.show()

        self.app.push_screen(FlagScreen(state.note, state.flag), done)

    def action_move(self, step: int) -> None:
        target = self.index + step
        if not 0 <= target < len(self.items):
            self.notify("That was the last item." if step > 0 else "This is the first item.")
            return
        self._leave_item()
        self.index = target
        self.show()

    def action_guidelines(self) -> None:
        box = self.query_one("#ann-guidelines", Collapsible)
        box.collapsed = not box.collapsed

    @on(Collapsible.Expanded)
    @on(Collapsible.Collapsed)
    def _guidelines_toggled(self, event: Collapsible.Toggled) -> None:
        self._show_guidelines(not event.collapsible.collapsed)

    def _show_guidelines(self, shown: bool) -> None:
        """Give the guidelines their room (on a narrow screen, the item's) or take it back."""
        self.query_one("#ann-side").set_class(not shown, "-shut")
        self.query_one("#ann-main").set_class(shown, "-guides")

    def action_scroll(self, how: str) -> None:
        """Scroll the item (or, when a narrow screen shows only them, the guidelines)."""
        item = self.query_one("#ann-item", VerticalScroll)
        pane = item if item.display else self.query_one("#ann-side", VerticalScroll)
        getattr(pane, f"scroll_{how}")()

    def unsaved(self) -> str | None:
        """What leaving now would lose (an answer given while the other question is open), or
        None when every answer is saved."""
        drafts = [i for i in self.items if i.item_id in self._draft]
        if not drafts:
            return None
        names = ", ".join(item_name(i, len(self.items)) for i in drafts[:3])
        more = f" and {len(drafts) - 3} more" if len(drafts) > 3 else ""
        return (
            f"{names}{more}: an answer is not saved yet (the other question is open). "
            "Leave and drop it?"
        )

    def action_back(self) -> None:
        question = self.unsaved()
        if question is None:
            self.app.pop_screen()
            return

        def answer(leave: bool | None) -> None:
            if leave:
                self._draft.clear()
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen(question), answer)  # fixed text: no markup

    # results of the writer
    def on_label_stored(self, event: LabelStored) -> None:
        item_id = event.op.item_id
        left = self._pending.get(item_id, 1) - 1
        if left > 0:
            self._pending[item_id] = left
        else:
            self._pending.pop(item_id, None)
            self._last_op.pop(item_id, None)
        item = next((i for i in self.items if i.item_id == item_id), None)
        if event.stale is not None and item is not None:
            self.notify(
                f"Undo refused: {item_name(item, len(self.items))} changed in another window: "
                f"now {event.stale.summary}.",
                severity="warning",
                timeout=10,
            )
        elif event.error:
            self.notify(f"Not saved: {event.error}", severity="error", timeout=10)
        elif event.revision is None and event.op.kind == "undo":
            self.notify("Nothing to undo on this item.")
        if left > 0 or item is None:
            return
        self._optimistic.pop(item_id, None)
        self._changes[item_id] = self._changes.get(item_id, 0) + 1
        if event.revision is not None:
            self._adopt(item, event.revision, tell=event.stale is None)
        self.show()
        if event.revision is None:  # nothing stored: what is stored now is read (a later read)
            self._check_stored(item, tell=event.stale is None)
