"""Drill-down on one edge of a run: every question and reply with its verdict and the verifier's
reasoning, the alpha / beta / m / n history, the triage trail; triage keys."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, Static

from kglens_tui.analysis.blindspots import edge_rows
from kglens_tui.analysis.drilldown import EdgeDetail, ReplyView, edge_detail
from kglens_tui.analysis.groups import chance_of
from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.triage import (
    ERROR_TYPES,
    TriageEntry,
    TriageError,
    add_note,
    confirm_blind_spot,
    mark_kg_error,
    mark_verifier_error,
    tag_error_type,
    triage_log,
)
from kglens_tui.core.safetext import LABEL_LIMIT, TEXT_LIMIT, markup_literal
from kglens_tui.textfmt import interval, pct
from kglens_tui.tui.clipboard import copy_text
from kglens_tui.tui.format import BREAKPOINTS, VERDICT_STYLE
from kglens_tui.tui.reads import read_with
from kglens_tui.tui.screens.run_text import bias_warning, heat, metrics_text, short
from kglens_tui.tui.screens.workers import on_stack
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

DRILL_HELP = """\
## Edge drill-down

| key | action |
| --- | --- |
| `b` | confirm the edge as a blind spot of this model |
| `k` | mark a KG error: the model was right, the KG is wrong (the edge leaves the metrics) |
| `v` | mark a verifier error on the selected reply (its verdict flips) |
| `t` | tag the error type of the selected reply (factual error, obsolete knowledge, ...) |
| `n` | add a note to the edge |
| `g` | ego graph around the edge's subject, coloured by expected error |
| `c` | copy the selected question, reply and verdict |
| `escape` | back to the review |

Every mark asks for a reason and is stored, append-only, with your name ($USER). The edge and
run numbers are shown with the overrides and without them (raw). **Chance**, beside the edge's
expected error: how often blind guessing errs on the edge's questions (a Yes/No guess wrong half
the time, a Wh guess the predicate's most common true object); beside the run's rates: what it
scores on the run's questions (as the review), and under them the answer-bias warning when the
run's Yes/No answers are explained by its lean to one answer (as `kglens report`).
"""


def reviewer() -> str:
    """The author recorded on triage entries."""
    return os.environ.get("USER") or "reviewer"


class ReasonScreen(ModalScreen[str | None]):
    """Asks for the reason of a triage entry; dismisses with the text or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, placeholder: str = "a reason") -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(placeholder=self.placeholder, id="reason")
            yield Static("enter saves · escape cancels", classes="hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#reason", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._save()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self._save()
        else:
            self.dismiss(None)

    def _save(self) -> None:
        text = self.query_one("#reason", Input).value.strip()
        if not text:
            self.notify(f"Give {self.placeholder}.", severity="warning")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


def edge_chance(data: RunData, pos: int, adjusted: bool) -> str:
    """How often blind guessing errs on the questions asked about run position ``pos``, for
    beside its expected error ("chance 50.0%"; `groups.chance_of`, with or without the
    triage)."""
    right = chance_of(data, np.array([pos]), adjusted).per_question
    return f"chance {pct(None if right is None else 1.0 - right)}"


def verdict_text(r: ReplyView) -> Text:
    """The logged verdict, and the effective one when triage changed it."""
    text = Text(r.category, style=VERDICT_STYLE.get(r.category, ""))
    if r.effective != r.category:
        text.append(" → ")
        text.append(r.effective, style=f"bold {VERDICT_STYLE.get(r.effective, '')}")
    return text


TRIAGE_ACTIONS = ("confirm", "kg_error", "verifier_error", "tag", "note", "ego", "copy")
"""The drill-down's actions on the run's data, dropped while a triage entry is stored."""


class DrillDownScreen(Screen[Any]):
    """One edge of a run, with triage."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        # short labels, so the triage keys fit the footer at 80 columns; the tooltip is the
        # command's name in the palette (`palette.screen_commands`), which also has n and g
        Binding("b", "confirm", "Confirm", tooltip="Confirm blind spot"),
        Binding("k", "kg_error", "KG error"),
        Binding("v", "verifier_error", "Verifier", tooltip="Verifier error"),
        Binding("t", "tag", "Type", tooltip="Tag error type"),
        Binding("n", "note", "Note"),
        Binding("g", "ego", "Ego", tooltip="Ego graph"),
        Binding("c", "copy", "Copy", show=False, tooltip="Copy the selected question and reply"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = DRILL_HELP

    def __init__(self, data: RunData, edge_id: int) -> None:
        super().__init__()
        self.data = data
        self.edge_id = edge_id
        self.detail: EdgeDetail | None = None
        self.storing = 0
        """Triage entries being stored now (`_store`)."""

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key acts on the run while a triage entry is being stored (its numbers are about
        to change)."""
        return not self.storing or action not in TRIAGE_ACTIONS

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="dd"):
            yield Static("", id="dd-head")
            yield Static("", id="dd-run")
            yield LiteralDataTable(id="dd-replies", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="dd-reply-box"):
                yield Static("", id="dd-reply")
            with Horizontal(id="dd-bottom"):
                yield LiteralDataTable(id="dd-history", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="dd-triage-box"):
                    yield Static("", id="dd-triage")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#dd-replies", DataTable).add_columns(
            "reply", "it", "type", "question", "expected", "reply text", "verdict", "error type"
        )
        self.query_one("#dd-history", DataTable).add_columns(
            "iteration", "asked", "alpha", "beta", "m", "n", "mean"
        )
        self.refresh_view()
        self.query_one("#dd-replies", DataTable).focus()

    def refresh_view(self) -> None:
        """Reload the edge (after triage) and redraw everything."""
        data = self.data
        d = self.detail = edge_detail(data, self.edge_id)
        e = d.edge
        raw = edge_rows(data, np.array([e.pos]), adjusted=False)[0]
        self.query_one("#dd-head", Static).update(
            f"[b]Edge {e.edge_id}[/]: {markup_literal(e.subject, limit=LABEL_LIMIT)} · [b]{markup_literal(e.predicate, limit=LABEL_LIMIT)}[/] · "
            f"{markup_literal(e.object, limit=LABEL_LIMIT)}   (true objects: {markup_literal(', '.join(d.true_objects), limit=LABEL_LIMIT)}; "
            f"{d.neighbours_text})\n"
            f"edge with overrides: m {e.m} n {e.n} · expected error {pct(e.mean)} "
            f"{interval(e.low, e.high)} {edge_chance(data, e.pos, True)}"
            f"{' · KG error' if e.kg_error else ''}{' · confirmed' if e.confirmed else ''}"
            f" · raw: m {raw.m} n {raw.n} · expected error {pct(raw.mean)} "
            f"{interval(raw.low, raw.high)} {edge_chance(data, raw.pos, False)}"
        )
        run_block = metrics_text(data)
        warning = bias_warning(data)
        if warning:
            run_block.append("\n").append_text(warning)
        self.query_one("#dd-run", Static).update(run_block)
        table = self.query_one("#dd-replies", DataTable)
        row_index = table.cursor_row
        table.clear()
        for r in d.replies:
            expected = r.expected or "; ".join(a[0] for a in r.expected_answers if a)
            table.add_row(
                str(r.observation_id),
                str(r.iteration),
                r.qtype,
                short(r.question, 56),
                short(expected, 20),
                short(r.reply, 36),
                verdict_text(r),
                r.error_type or "",
                key=str(r.observation_id),
            )
        if d.replies:
            table.move_cursor(row=min(row_index, len(d.replies) - 1))
        hist = self.query_one("#dd-history", DataTable)
        hist.clear()
        for h in d.history:
            if h.asked or h is d.history[-1]:
                hist.add_row(
                    str(h.iteration),
                    str(h.asked),
                    f"{h.alpha:.3g}",
                    f"{h.beta:.3g}",
                    str(h.m),
                    str(h.n),
                    heat(h.mean, pct(h.mean)),
                )
        lines = ["[b]Triage[/]"] + [
            f"#{t.id} {t.action}{' ' + markup_literal(t.value) if t.value else ''} by {markup_literal(t.author)}"
            f"{' (retracted)' if t.id in d.retracted else ''}: {markup_literal(t.reason)}"
            for t in d.triage
        ]
        if not d.triage:
            lines.append(
                "[dim]none yet: b confirm · k KG error · v verifier error · n note · t error type[/]"
            )
        self.query_one("#dd-triage", Static).update("\n".join(lines))
        self._show_reply()

    def selected_reply(self) -> ReplyView | None:
        """The reply under the cursor."""
        table = self.query_one("#dd-replies", DataTable)
        if self.detail is None or table.row_count == 0:
            return None
        return self.detail.replies[min(table.cursor_row, len(self.detail.replies) - 1)]

    def _show_reply(self) -> None:
        r = self.selected_reply()
        box = self.query_one("#dd-reply", Static)
        if r is None:
            box.update("[dim]No question was asked about this edge yet.[/]")
            return
        detected = f" · detected: {markup_literal(', '.join(r.detected))}" if r.detected else ""
        box.update(
            f"[b]Q[/] ({r.qtype}, {markup_literal(r.generator)}): {markup_literal(r.question, limit=TEXT_LIMIT)}\n"
            f"[b]Reply[/]: {markup_literal(r.reply, limit=TEXT_LIMIT)}\n"
            f"[b]Verdict[/]: {verdict_text(r).markup}{detected}"
            f"{' · error: ' + markup_literal(r.error, limit=TEXT_LIMIT) if r.error else ''}\n"
            f"[b]Verifier[/]: {markup_literal(r.verifier, limit=TEXT_LIMIT) or '—'}"
        )

    def action_copy(self) -> None:
        """The selected question, reply and verdict, on the clipboard."""
        r = self.selected_reply()
        if r is None:
            self.notify("No reply is selected.", severity="warning")
            return
        text = f"Q: {r.question}\nReply: {r.reply}\nVerdict: {verdict_text(r).plain}"
        copy_text(self.app, text, "question and reply")

    @on(DataTable.RowHighlighted, "#dd-replies")
    def _highlighted(self) -> None:
        self._show_reply()

    def action_ego(self) -> None:
        from kglens_tui.tui.screens.analysis_ego import EgoScreen

        if self.detail is not None:
            self.app.push_screen(EgoScreen(self.data, self.detail.edge.subject_key))

    def _triage(
        self,
        title: str,
        store: Callable[[sqlite3.Connection, str], object],
        done: str,
        placeholder: str = "a reason",
    ) -> None:
        """Ask for a reason, then store the entry on a worker (`_store`)."""

        def answer(reason: str | None) -> None:
            if reason is not None:
                self.storing += 1
                self.refresh_bindings()
                self._store(store, reason, done)

        self.app.push_screen(ReasonScreen(title, placeholder), answer)

    @work(thread=True, group="triage", exit_on_error=False, description="storing a triage entry")
    def _store(
        self, store: Callable[[sqlite3.Connection, str], object], reason: str, done: str
    ) -> None:
        """Store a triage entry off the UI thread, through a connection of its own (a run
        writing to the workspace may hold it a while), and read the run's trail again there;
        then `_stored` on the UI thread."""
        run_id = self.data.run.id

        def write(conn: sqlite3.Connection) -> list[TriageEntry]:
            store(conn, reason)
            return triage_log(conn, run_id=run_id)

        error, log = "", None
        try:
            log = read_with(self.app.db_path, write)
        except (TriageError, sqlite3.Error) as exc:
            error = str(exc)
        except Exception as exc:  # shown, never a triage silently not stored
            error = f"{type(exc).__name__}: {exc}"
        self.app.call_from_thread(self._stored, error, done, log)

    def _stored(self, error: str, done: str, log: list[TriageEntry] | None) -> None:
        """A triage entry stored (or not: ``error``): the run's numbers follow its trail
        ``log``, on this screen while it is open, else on the screen now shown when it shows
        this run."""
        self.storing -= 1
        self.refresh_bindings()
        if error or log is None:
            self.notify(error, severity="error")
            return
        self.data.take_triage(log)
        shown = self if on_stack(self) else self.app.screen
        if shown is self or getattr(shown, "_data", None) is self.data:
            shown.refresh_view()  # type: ignore[union-attr]
        self.notify(done)

    def action_confirm(self) -> None:
        run_id, edge_id = self.data.run.id, self.edge_id
        self._triage(
            f"Confirm edge {edge_id} as a blind spot: why?",
            lambda conn, reason: confirm_blind_spot(
                conn, run_id, edge_id, author=reviewer(), reason=reason
            ),
            "Blind spot confirmed.",
        )

    def action_kg_error(self) -> None:
        edge_id = self.edge_id
        self._triage(
            f"Mark edge {edge_id} as a KG error (the model was right): why?",
            lambda conn, reason: mark_kg_error(
                conn,
                author=reviewer(),
                reason=reason,
                edge_id=edge_id,
                seen_in_run=self.data.run.id,
            ),
            "KG error marked: the edge leaves the metrics.",
        )

    def action_verifier_error(self) -> None:
        reply = self.selected_reply()
        if reply is None:
            self.notify("Select a reply first.", severity="warning")
            return
        oid = reply.observation_id
        self._triage(
            f"Verifier error on reply {oid} ({reply.category}): its verdict flips. Why?",
            lambda conn, reason: mark_verifier_error(conn, oid, author=reviewer(), reason=reason),
            "Verdict overridden; metrics recomputed.",
        )

    def action_tag(self) -> None:
        reply = self.selected_reply()
        if reply is None:
            self.notify("Select a reply first.", severity="warning")
            return
        oid, run_id = reply.observation_id, self.data.run.id
        choices = " · ".join(f"{i} {t.replace('_', ' ')}" for i, t in enumerate(ERROR_TYPES, 1))

        def store(conn: sqlite3.Connection, answer: str) -> object:
            text = answer.strip().lower().replace(" ", "_")
            kind = ERROR_TYPES[int(text) - 1] if text in {"1", "2", "3", "4"} else text
            return tag_error_type(
                conn,
                kind,
                author=reviewer(),
                reason="tagged in the review screen",
                run_id=run_id,
                observation_id=oid,
            )

        self._triage(
            f"Error type of reply {oid}: {choices}",
            store,
            "Error type tagged.",
            placeholder=f"1-{len(ERROR_TYPES)}, or the type's name",
        )

    def action_note(self) -> None:
        run_id, edge_id = self.data.run.id, self.edge_id
        self._triage(
            f"Note on edge {edge_id}",
            lambda conn, text: add_note(
                conn, text, author=reviewer(), run_id=run_id, edge_id=edge_id
            ),
            "Note saved.",
        )
