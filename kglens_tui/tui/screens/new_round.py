"""New annotation round: what `kglens annotate round create` takes (a name, the KGLens runs to
sample from, items per KG, the annotators, a seed) as a form, every error at once, the round
stored on a worker thread."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.rounds import (
    DEFAULT_ANNOTATORS,
    Round,
    SourceRun,
    annotator_names,
    check_annotators,
    check_name,
    create_round,
    round_mix,
    source_runs,
)
from kglens_tui.core.safetext import literal, visible
from kglens_tui.store.connection import StoreError
from kglens_tui.textfmt import counted
from kglens_tui.tui.reads import read_with
from kglens_tui.tui.screens.dialogs import ConfirmScreen

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

LABELS = {
    "name": "Name",
    "runs": "Runs",
    "per_kg": "Items per KG",
    "annotators": "Annotators",
    "seed": "Seed",
}
"""Each field's label on the form, by the field's id: what its errors name."""

SETTING_LABELS = {"per_kg": LABELS["per_kg"]}
"""How `create_round`'s errors name the settings the form sets (the others keep their names)."""

DEFAULT_PER_KG = 100


@dataclass(frozen=True)
class RoundRequest:
    """A round the form asks for, its fields parsed and checked."""

    name: str
    runs: tuple[int, ...]
    per_kg: int | None
    """None: every answered observation (the form's 0)."""
    annotators: tuple[str, ...]
    seed: int


@dataclass(frozen=True)
class CreatedRound:
    """A round stored by the form, with its items per KG and question type (`round_mix`)."""

    round: Round
    mix: str

    @property
    def summary(self) -> str:
        """What the form stored, as plain text (never markup): round N 'name': X items
        (country: 50 Yes/No + 50 Wh)."""
        rnd = self.round
        return f"round {rnd.id} '{visible(rnd.name, one_line=True)}': {counted(rnd.items, 'item')} ({self.mix})"


def run_prompt(run: SourceRun) -> Text:
    """A run as the runs list shows it: id, name or target, KG, answered observations."""
    return literal(
        f"run {run.id} · {run.label} · {run.kg} · {run.answered:,} answered", one_line=True
    )


def _whole(
    raw: str, label: str, least: int | None, errors: list[str], hint: str = ""
) -> int | None:
    """``raw`` as a whole number of at least ``least``; else None, the error in ``errors``."""
    try:
        value = int(raw.strip())
    except ValueError:
        errors.append(f"{label} must be a whole number{hint} (got '{raw.strip()}')")
        return None
    if least is not None and value < least:
        errors.append(f"{label} must be at least {least}{hint} (got {value})")
        return None
    return value


def parse_form(
    name: str, runs: list[int], per_kg: str, annotators: str, seed: str
) -> tuple[RoundRequest | None, list[str]]:
    """The form's fields as a request and no error, or None and every error at once, each
    naming its field's label as `kglens annotate round create` would check it."""
    errors: list[str] = []
    name = name.strip()
    if not name:
        errors.append(f"{LABELS['name']} is required")
    else:
        try:
            check_name(name, LABELS["name"])
        except AnnotationError as exc:
            errors.append(str(exc))
    if not runs:
        errors.append(f"{LABELS['runs']}: choose at least one run to sample from")
    items = _whole(per_kg, LABELS["per_kg"], 0, errors, " (0 = all)")
    names: list[str] = []
    try:
        names = annotator_names(annotators, LABELS["annotators"])
        check_annotators(names)
    except AnnotationError as exc:
        text = str(exc)
        errors.append(
            text if text.startswith(LABELS["annotators"]) else f"{LABELS['annotators']}: {text}"
        )
    seed_value = _whole(seed, LABELS["seed"], None, errors)
    if errors or items is None or seed_value is None:
        return None, errors
    request = RoundRequest(
        name=name,
        runs=tuple(runs),
        per_kg=items or None,  # 0 = all, as the CLI's --per-kg
        annotators=tuple(names),
        seed=seed_value,
    )
    return request, []


def _create_round(request: RoundRequest, conn: sqlite3.Connection) -> CreatedRound:
    """Store the round ``request`` asks for (as `kglens annotate round create` does)."""
    rnd = create_round(
        conn,
        request.name,
        runs=request.runs,
        per_kg=request.per_kg,
        seed=request.seed,
        annotators=request.annotators,
        setting_names=SETTING_LABELS,
    )
    return CreatedRound(rnd, round_mix(conn, rnd.id))


class NewRoundScreen(ModalScreen[CreatedRound | None]):
    """A new annotation round sampled from the workspace's KGLens runs; dismisses with the round
    stored, or None."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._opened: tuple[object, ...] | None = None
        """The form's values as it opened (what a changed form is told from)."""
        self.writing = False
        """A round is being stored (a second Create waits for it)."""
        self._errors_shown = False
        """The status line shows the last attempt's errors (an edit clears them)."""
        self._done: CreatedRound | None = None
        """A round stored while another dialog was on top of the form."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog new-round"):
            yield Label("New annotation round", classes="dialog-title")
            with Grid(classes="new-round-grid"):
                yield Label(LABELS["name"])
                yield Input(placeholder="required", id="round-name")
                yield Label(LABELS["per_kg"])
                yield Input(str(DEFAULT_PER_KG), placeholder="0 = all", id="round-per-kg")
                yield Label(LABELS["annotators"])
                yield Input(", ".join(DEFAULT_ANNOTATORS), id="round-annotators")
                yield Label(LABELS["seed"])
                yield Input("0", id="round-seed")
            yield Label(f"{LABELS['runs']} (KGLens runs with answers; space picks)", classes="hint")
            yield SelectionList[int](id="round-runs")
            yield Static("reading the runs…", id="round-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create (ctrl+s)", id="create", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self._opened = self.values()
        self.query_one("#round-name", Input).focus()
        self._read_runs()

    def values(self) -> tuple[object, ...]:
        """What the form holds, raw."""
        inputs = [
            self.query_one(f"#{i}", Input).value
            for i in ("round-name", "round-seed", "round-per-kg", "round-annotators")
        ]
        return (*inputs, tuple(self.query_one("#round-runs", SelectionList).selected))

    def changed(self) -> bool:
        return self._opened is not None and self.values() != self._opened

    @work(thread=True, exclusive=True, group="round-runs", exit_on_error=False)
    def _read_runs(self) -> None:
        """The runs a round can be sampled from, read off the UI thread."""
        try:
            runs = read_with(self.app.db_path, source_runs)
        except Exception as exc:  # shown in the form (a screen's failed worker says nothing)
            known = isinstance(exc, (StoreError, sqlite3.Error))
            why = str(exc) if known else f"{type(exc).__name__}: {exc}"
            self.app.call_from_thread(self._status, f"Could not read the runs: {why}", "red")
            return
        self.app.call_from_thread(self._show_runs, runs)

    def _show_runs(self, runs: list[SourceRun]) -> None:
        if not self.is_attached:
            return
        listed = self.query_one("#round-runs", SelectionList)
        listed.add_options([Selection(run_prompt(run), run.id) for run in runs])
        if runs:
            listed.highlighted = 0  # space picks the newest run at once
            self._status("")
        else:
            self._status(
                "No KGLens run with answers in this workspace yet: run one first (n on home).",
                "yellow",
            )

    def _status(self, text: str, style: str = "") -> None:
        """The form's status line, the text shown literally (it may quote a field's value)."""
        self.query_one("#round-status", Static).update(Text(visible(text), style=style))

    @on(Input.Changed)
    @on(SelectionList.SelectedChanged)
    def _edited(self) -> None:
        """An edited form no longer shows the last attempt's errors."""
        if self._errors_shown and not self.writing:
            self._errors_shown = False
            self._status("")

    def request(self) -> tuple[RoundRequest | None, list[str]]:
        """The form as a request, or every error at once."""
        return parse_form(
            self.query_one("#round-name", Input).value,
            list(self.query_one("#round-runs", SelectionList).selected),
            self.query_one("#round-per-kg", Input).value,
            self.query_one("#round-annotators", Input).value,
            self.query_one("#round-seed", Input).value,
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        if self.writing:
            return
        self._errors_shown = False
        request, errors = self.request()
        if request is None:
            self._status("\n".join(errors), "red")
            self._errors_shown = True
            return
        self.writing = True
        self._status("creating the round…")
        self._create(request)

    @work(thread=True, exclusive=True, group="new-round", exit_on_error=False)
    def _create(self, request: RoundRequest) -> None:
        """Store the round on its own connection (as `kglens annotate round create` does)."""
        try:
            created = read_with(self.app.db_path, partial(_create_round, request))
        except (AnnotationError, StoreError, sqlite3.Error) as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        except Exception as exc:  # shown in the form, so the user can change it and retry
            self.app.call_from_thread(self._failed, f"{type(exc).__name__}: {exc}")
            return
        self.app.call_from_thread(self._created, created)

    def _failed(self, message: str) -> None:
        self.writing = False
        if self.is_attached:
            self._status(message, "red")
            self._errors_shown = True

    def _created(self, created: CreatedRound) -> None:
        self.writing = False
        if not self.is_attached:
            return
        if self.app.screen is self:
            self.dismiss(created)
        else:  # under another dialog: dismissed when it is back on top
            self._done = created

    def on_screen_resume(self) -> None:
        if self._done is not None:
            self.dismiss(self._done)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close the form; a changed one asks first."""
        if self.writing:
            self._status("creating the round… (it is stored whatever you press)")
            return
        if not self.changed():
            self.dismiss(None)
            return

        def answer(discard: bool | None) -> None:
            if discard and self.app.screen is self:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("Discard this new round?"), answer)
