"""Adjudication: a final decision on a disputed item, with a reason; the latest per item wins."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kglens_tui.annotate.atomic import atomic
from kglens_tui.annotate.errors import AnnotationError, item_ref
from kglens_tui.annotate.guidelines import QUESTION_CLEAR_VALUES, RESPONSE_CORRECT_VALUES
from kglens_tui.core.question_type import YES_NO

DECISION_LABELS = {
    "question_clear": "Intent of the question clear?",
    "response_correct": "AI's response correct?",
}
"""The two questions a decision answers, as the adjudication screen and the report show them."""


@dataclass(frozen=True)
class Adjudication:
    id: int
    item_id: int
    question_clear: str | None
    """Overrides the human majority on question clarity when set."""
    response_correct: str | None
    """Overrides the human majority on the response (Wh items) when set."""
    reason: str
    adjudicator: str
    created_at: str


def _adjudication(row: sqlite3.Row) -> Adjudication:
    return Adjudication(
        id=row["id"],
        item_id=row["item_id"],
        question_clear=row["question_clear"],
        response_correct=row["response_correct"],
        reason=row["reason"],
        adjudicator=row["adjudicator"],
        created_at=row["created_at"],
    )


def adjudicate(
    conn: sqlite3.Connection,
    item_id: int,
    *,
    reason: str,
    adjudicator: str,
    question_clear: str | None = None,
    response_correct: str | None = None,
) -> Adjudication:
    """Record a final decision on an item (at least one of the two answers) and why."""
    clear_label, correct_label = (
        DECISION_LABELS["question_clear"],
        DECISION_LABELS["response_correct"],
    )
    if question_clear is not None and question_clear not in QUESTION_CLEAR_VALUES:
        raise AnnotationError(f"{clear_label} must be 'yes' or 'no' (got {question_clear!r})")
    if response_correct is not None and response_correct not in RESPONSE_CORRECT_VALUES:
        raise AnnotationError(
            f"{correct_label} must be 'correct' or 'incorrect' (got {response_correct!r})"
        )
    if not reason.strip():
        raise AnnotationError("an adjudication needs a reason")
    if not adjudicator.strip():
        raise AnnotationError("an adjudication needs the adjudicator's name")

    def write(c: sqlite3.Connection) -> int:
        item = c.execute("SELECT qtype FROM annotation_item WHERE id = ?", (item_id,)).fetchone()
        if item is None:
            raise AnnotationError(f"no annotation item {item_ref(item_id)}")
        if item[0] == YES_NO and response_correct is not None:
            raise AnnotationError(
                f"item {item_ref(item_id)} is a Yes/No item: its response is not judged"
            )
        if question_clear is None and response_correct is None:
            decide = (
                f"'{clear_label}'"
                if item[0] == YES_NO
                else f"'{clear_label}', '{correct_label}' or both"
            )
            raise AnnotationError(
                f"nothing decided: choose an answer to {decide} (not 'keep the majority')"
            )
        cur = c.execute(
            "INSERT INTO annotation_adjudication(item_id, question_clear, response_correct, "
            "reason, adjudicator) VALUES (?,?,?,?,?)",
            (item_id, question_clear, response_correct, reason.strip(), adjudicator.strip()),
        )
        assert cur.lastrowid is not None  # set by the INSERT just run
        return cur.lastrowid

    new_id = atomic(conn, write)
    row = conn.execute("SELECT * FROM annotation_adjudication WHERE id = ?", (new_id,)).fetchone()
    return _adjudication(row)


def latest_adjudications(conn: sqlite3.Connection, round_id: int) -> dict[int, Adjudication]:
    """item id -> its latest adjudication, for a round's adjudicated items."""
    rows = conn.execute(
        "SELECT d.* FROM annotation_adjudication d JOIN annotation_item i ON i.id = d.item_id "
        "WHERE i.round_id = ? ORDER BY d.id",
        (round_id,),
    ).fetchall()
    return {r["item_id"]: _adjudication(r) for r in rows}


def adjudication_history(conn: sqlite3.Connection, item_id: int) -> list[Adjudication]:
    """Every decision recorded for an item, oldest first."""
    rows = conn.execute(
        "SELECT * FROM annotation_adjudication WHERE item_id = ? ORDER BY id", (item_id,)
    ).fetchall()
    return [_adjudication(r) for r in rows]
