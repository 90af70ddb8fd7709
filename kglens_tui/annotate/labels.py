"""Labels as append-only revisions: submit, skip, flag and undo. Each call is one BEGIN IMMEDIATE
transaction retried on busy, and idempotent by a client-supplied revision id."""

from __future__ import annotations

import math
import sqlite3
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kglens_tui.annotate.atomic import atomic
from kglens_tui.annotate.errors import AnnotationError, item_ref
from kglens_tui.annotate.guidelines import QUESTION_CLEAR_VALUES, RESPONSE_CORRECT_VALUES
from kglens_tui.core.question_type import YES_NO
from kglens_tui.core.safetext import unshown_char

ACTIONS = ("label", "skip", "flag", "undo", "import")

MAX_ITEM_SECONDS = 86_400.0
"""The most time one item can have taken an annotator: a day. More (or a negative, NaN or
infinite time) is refused: it would swamp every time total and mean shown."""


def seconds_problem(seconds: object) -> str | None:
    """Why `seconds` is not a possible time spent on one item, or None when it is: a number
    (not true/false) from 0 to MAX_ITEM_SECONDS."""
    try:
        value = float(seconds) if isinstance(seconds, int | float) else math.nan
    except OverflowError:  # an integer beyond any float
        value = math.inf
    if isinstance(seconds, bool) or not (math.isfinite(value) and 0 <= value <= MAX_ITEM_SECONDS):
        return (
            f"must be a finite number of seconds from 0 to {MAX_ITEM_SECONDS:,.0f}, a day per "
            f"item (got {seconds!r:.40})"
        )
    return None


def note_problem(note: object) -> str | None:
    """Why `note` cannot be a flag's note, or None when it can: text on one line without
    control characters (no escape, newline, tab or bidi control), the rule round and annotator
    names follow. Checked where notes come in (a pack, the flag dialog); like names, the
    Python API stores what it is given (older workspaces may hold such notes: every view shows
    them literally)."""
    if not isinstance(note, str):
        return "must be text"
    bad = unshown_char(note)
    if bad is not None:
        return (
            f"holds the control character U+{ord(bad):04X}; a note may not hold escapes, NUL, "
            "newlines, tabs or bidi controls"
        )
    return None


# A stored annotation_label row: a sqlite3.Row, or a mapping with its columns.
LabelRow = sqlite3.Row | Mapping[str, Any]


@dataclass(frozen=True)
class LabelState:
    """What an annotator has said about one item."""

    question_clear: str | None = None
    response_correct: str | None = None
    skipped: bool = False
    flag: bool = False
    note: str = ""

    @property
    def done(self) -> bool:
        """Labelled or skipped."""
        return self.question_clear is not None or self.skipped

    @property
    def empty(self) -> bool:
        return not self.done and not self.flag and not self.note

    @property
    def summary(self) -> str:
        """The label in words, as the annotator's screen shows it: "No", "Yes, Correct",
        "skipped" or "not rated", and ", flagged"."""
        if self.skipped:
            words = "skipped"
        elif self.question_clear is None:
            words = "not rated"
        else:
            words = self.question_clear.capitalize()
            if self.response_correct is not None:
                words += f", {self.response_correct.capitalize()}"
        return words + (", flagged" if self.flag else "")


CLEARED = LabelState()


@dataclass(frozen=True)
class Revision:
    """One stored revision: the state after an action, and when and how long it took."""

    item_id: int
    annotator: str
    revision: int
    action: str
    state: LabelState
    seconds: float
    client_rev: str
    created_at: str
    undoes: int | None = None


def new_rev_id() -> str:
    """A fresh client revision id; reuse it when retrying the same action."""
    return uuid.uuid4().hex


def label_problem(
    qtype: str, question_clear: object, response_correct: object, skipped: bool = False
) -> tuple[str, str] | None:
    """(field, message) for the first invalid part of a label, or None when it is valid."""
    if skipped:
        if question_clear is not None:
            return "question_clear", "must be empty for a skipped item"
        if response_correct is not None:
            return "response_correct", "must be empty for a skipped item"
        return None
    if question_clear not in QUESTION_CLEAR_VALUES:
        return "question_clear", f"must be 'yes' or 'no' (got {question_clear!r})"
    if qtype == YES_NO:
        if response_correct is not None:
            return (
                "response_correct",
                "must be empty for a Yes/No item (only Wh answers are judged)",
            )
    elif response_correct not in RESPONSE_CORRECT_VALUES:
        return "response_correct", f"must be 'correct' or 'incorrect' (got {response_correct!r})"
    return None


def revision_from_row(row: LabelRow, annotator: str) -> Revision:
    """A Revision from a stored annotation_label row (or a mapping with its columns)."""
    return Revision(
        item_id=row["item_id"],
        annotator=annotator,
        revision=row["revision"],
        action=row["action"],
        state=state_from_row(row),
        seconds=row["seconds"],
        client_rev=row["client_rev"],
        created_at=row["created_at"],
        undoes=row["undoes"],
    )


def _target(conn: sqlite3.Connection, item_id: int, annotator: str) -> tuple[int, str]:
    """(annotator id, item qtype) when the annotator is assigned the item, else a clear error."""
    row = conn.execute(
        "SELECT a.id, i.qtype FROM annotation_item i "
        "JOIN annotator a ON a.round_id = i.round_id AND a.name = ? "
        "JOIN annotation_assignment s ON s.item_id = i.id AND s.annotator_id = a.id "
        "WHERE i.id = ?",
        (annotator, item_id),
    ).fetchone()
    if row is not None:
        return int(row[0]), row[1]
    item = conn.execute(
        "SELECT i.round_id, r.name FROM annotation_item i "
        "JOIN annotation_round r ON r.id = i.round_id WHERE i.id = ?",
        (item_id,),
    ).fetchone()
    if item is None:
        raise AnnotationError(f"no annotation item {item_ref(item_id)}")
    known = conn.execute(
        "SELECT 1 FROM annotator WHERE round_id = ? AND name = ?", (item[0], annotator)
    ).fetchone()
    if known is None:
        raise AnnotationError(f"no annotator '{annotator}' in round '{item[1]}'")
    raise AnnotationError(f"item {item_ref(item_id)} is not assigned to annotator '{annotator}'")


def _history(conn: sqlite3.Connection, item_id: int, annotator_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM annotation_label WHERE item_id = ? AND annotator_id = ? ORDER BY revision",
        (item_id, annotator_id),
    ).fetchall()


def state_from_row(row: LabelRow | None) -> LabelState:
    """The label state held by a stored revision row (CLEARED for None)."""
    if row is None:
        return CLEARED
    return LabelState(
        question_clear=row["question_clear"],
        response_correct=row["response_correct"],
        skipped=bool(row["skipped"]),
        flag=bool(row["flag"]),
        note=row["note"],
    )


Planner = Callable[[str, list[sqlite3.Row]], tuple[LabelState, int | None] | None]
"""(item qtype, revisions so far) -> (new state, revision undone) or None for no change."""


def append_revision(
    conn: sqlite3.Connection,
    item_id: int,
    annotator: str,
    action: str,
    plan: Planner,
    *,
    seconds: float = 0.0,
    rev_id: str | None = None,
) -> Revision | None:
    """Append one revision in its own transaction (low level: prefer the functions below)."""
    if action not in ACTIONS:
        raise AnnotationError(f"unknown label action {action!r}")
    problem = seconds_problem(seconds)
    if problem:
        raise AnnotationError(f"seconds {problem}")
    client_rev = rev_id or new_rev_id()

    def write(c: sqlite3.Connection) -> Revision | None:
        done = c.execute(
            "SELECT l.*, a.name FROM annotation_label l JOIN annotator a ON a.id = l.annotator_id "
            "WHERE l.client_rev = ?",
            (client_rev,),
        ).fetchone()
        if done is not None:
            if done["item_id"] != item_id or done["name"] != annotator:
                raise AnnotationError(
                    f"revision id {client_rev} was already used for another item or annotator"
                )
            return revision_from_row(done, annotator)
        annotator_id, qtype = _target(c, item_id, annotator)
        history = _history(c, item_id, annotator_id)
        planned = plan(qtype, history)
        if planned is None:
            return None
        state, undoes = planned
        c.execute(
            "INSERT INTO annotation_label(item_id, annotator_id, revision, client_rev, action, "
            "undoes, question_clear, response_correct, skipped, flag, note, seconds) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                item_id,
                annotator_id,
                (history[-1]["revision"] if history else 0) + 1,
                client_rev,
                action,
                undoes,
                state.question_clear,
                state.response_correct,
                int(state.skipped),
                int(state.flag),
                state.note,
                float(seconds),
            ),
        )
        row = c.execute(
            "SELECT * FROM annotation_label WHERE client_rev = ?", (client_rev,)
        ).fetchone()
        return revision_from_row(row, annotator)

    return atomic(conn, write)


def submit_label(
    conn: sqlite3.Connection,
    item_id: int,
    annotator: str,
    *,
    question_clear: str,
    response_correct: str | None = None,
    seconds: float = 0.0,
    rev_id: str | None = None,
) -> Revision:
    """Record the annotator's answers (response_correct for Wh items only); keeps any flag."""

    def plan(qtype: str, history: list[sqlite3.Row]) -> tuple[LabelState, None]:
        problem = label_problem(qtype, question_clear, response_correct)
        if problem:
            raise AnnotationError(f"item {item_ref(item_id)}: {problem[0]} {problem[1]}")
        now = state_from_row(history[-1] if history else None)
        return LabelState(question_clear, response_correct, False, now.flag, now.note), None

    rev = append_revision(conn, item_id, annotator, "label", plan, seconds=seconds, rev_id=rev_id)
    assert rev is not None
    return rev


def skip_item(
    conn: sqlite3.Connection,
    item_id: int,
    annotator: str,
    *,
    seconds: float = 0.0,
    rev_id: str | None = None,
) -> Revision:
    """Pass on an item: it counts as handled, casts no vote and keeps any flag."""

    def plan(qtype: str, history: list[sqlite3.Row]) -> tuple[LabelState, None]:
        now = state_from_row(history[-1] if history else None)
        return LabelState(None, None, True, now.flag, now.note), None

    rev = append_revision(conn, item_id, annotator, "skip", plan, seconds=seconds, rev_id=rev_id)
    assert rev is not None
    return rev


def flag_item(
    conn: sqlite3.Connection,
    item_id: int,
    annotator: str,
    note: str = "",
    *,
    flagged: bool = True,
    seconds: float = 0.0,
    rev_id: str | None = None,
) -> Revision:
    """Flag an item with a note (or clear the flag with flagged=False); keeps the answers."""

    text = note.strip() if flagged else ""

    def plan(qtype: str, history: list[sqlite3.Row]) -> tuple[LabelState, None]:
        now = state_from_row(history[-1] if history else None)
        return LabelState(
            now.question_clear, now.response_correct, now.skipped, flagged, text
        ), None

    rev = append_revision(conn, item_id, annotator, "flag", plan, seconds=seconds, rev_id=rev_id)
    assert rev is not None
    return rev


def undo_label(
    conn: sqlite3.Connection,
    item_id: int,
    annotator: str,
    *,
    seconds: float = 0.0,
    rev_id: str | None = None,
    seen: str | None = None,
) -> Revision | None:
    """Revert the annotator's last action on the item (repeatable); None if nothing to undo.
    With `seen` (the client revision id of the latest revision the caller knows of; "" for
    none) it reverts only that revision: when another window or process has stored one since,
    it raises StaleLabel naming the label now stored, and stores nothing."""

    def plan(qtype: str, history: list[sqlite3.Row]) -> tuple[LabelState, int] | None:
        latest = history[-1]["client_rev"] if history else ""
        if seen is not None and latest != seen:
            now = state_from_row(history[-1] if history else None)
            raise StaleLabel(item_id, now)
        stack: list[sqlite3.Row] = []
        for row in history:
            if row["action"] == "undo":
                if stack:
                    stack.pop()
            else:
                stack.append(row)
        if not stack:
            return None
        undone = stack.pop()
        return state_from_row(stack[-1] if stack else None), int(undone["revision"])

    return append_revision(conn, item_id, annotator, "undo", plan, seconds=seconds, rev_id=rev_id)


class StaleLabel(AnnotationError):
    """The stored label is not the one the caller saw: another window changed it."""

    def __init__(self, item_id: int, now: LabelState) -> None:
        super().__init__(f"item {item_ref(item_id)} changed in another window: now {now.summary}")
        self.item_id = item_id
        self.now = now


def current_label(conn: sqlite3.Connection, item_id: int, annotator: str) -> Revision | None:
    """The annotator's latest revision for the item, or None before the first."""
    row = conn.execute(
        "SELECT c.* FROM annotation_current c JOIN annotator a ON a.id = c.annotator_id "
        "WHERE c.item_id = ? AND a.name = ?",
        (item_id, annotator),
    ).fetchone()
    return None if row is None else revision_from_row(row, annotator)


def label_history(conn: sqlite3.Connection, item_id: int, annotator: str) -> list[Revision]:
    """Every revision the annotator stored for the item, oldest first."""
    annotator_id, _ = _target(conn, item_id, annotator)
    return [revision_from_row(r, annotator) for r in _history(conn, item_id, annotator_id)]
