"""What one annotator sees: their items in their order, blind to the app's verdict and to
everyone else's labels."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.labels import Revision, revision_from_row
from kglens_tui.core.question_type import WH


@dataclass(frozen=True)
class AnnotatorItem:
    """One item as shown to an annotator (never the app's verdict)."""

    item_id: int
    position: int
    """1-based place in this annotator's order."""
    kg: str
    qtype: str
    question: str
    answers: list[list[str]]
    """Wh only: each correct answer with its aliases; empty for Yes/No items."""
    response: str | None
    """Wh only: the model's reply."""
    calibration: bool
    label: Revision | None
    """This annotator's current label, if any."""

    @property
    def asks_response(self) -> bool:
        """Whether the second question (is the response correct?) applies."""
        return self.qtype == WH

    @property
    def answers_text(self) -> str:
        """The answers as the paper shows them: aliases separated by commas, answers by '; '."""
        return "; ".join(", ".join(group) for group in self.answers)

    @property
    def done(self) -> bool:
        return self.label is not None and self.label.state.done


def annotator_id(conn: sqlite3.Connection, round_id: int, annotator: str) -> int:
    """The id of a round's annotator, or a clear error naming the known ones."""
    row = conn.execute(
        "SELECT id FROM annotator WHERE round_id = ? AND name = ?", (round_id, annotator)
    ).fetchone()
    if row is None:
        known = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM annotator WHERE round_id = ? ORDER BY position", (round_id,)
            )
        ]
        raise AnnotationError(
            f"no annotator '{annotator}' in round {round_id} (annotators: {', '.join(known) or 'none'})"
        )
    return int(row[0])


def items_for_annotator(
    conn: sqlite3.Connection, round_id: int, annotator: str
) -> list[AnnotatorItem]:
    """The annotator's assigned items in their order, each with their own current label."""
    aid = annotator_id(conn, round_id, annotator)
    rows = conn.execute(
        "SELECT i.id, s.position, i.kg, i.qtype, i.question, i.answers, i.response, i.calibration, "
        "c.item_id AS c_item, c.revision, c.action, c.question_clear, c.response_correct, "
        "c.skipped, c.flag, c.note, c.seconds, c.client_rev, c.created_at, c.undoes "
        "FROM annotation_assignment s JOIN annotation_item i ON i.id = s.item_id "
        "LEFT JOIN annotation_current c ON c.item_id = s.item_id AND c.annotator_id = s.annotator_id "
        "WHERE s.annotator_id = ? ORDER BY s.position",
        (aid,),
    ).fetchall()
    items = []
    for n, r in enumerate(rows, start=1):
        label = None
        if r["c_item"] is not None:
            label = revision_from_row({**dict(r), "item_id": r["c_item"]}, annotator)
        wh = r["qtype"] == WH
        items.append(
            AnnotatorItem(
                item_id=r["id"],
                position=n,
                kg=r["kg"],
                qtype=r["qtype"],
                question=r["question"],
                answers=json.loads(r["answers"]) if wh else [],
                response=r["response"] if wh else None,
                calibration=bool(r["calibration"]),
                label=label,
            )
        )
    return items
