"""Progress of a round: done of total per annotator, and time spent per item."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kglens_tui.annotate.rounds import get_round


@dataclass(frozen=True)
class AnnotatorProgress:
    annotator: str
    total: int
    """Items assigned."""
    labelled: int
    skipped: int
    flagged: int
    seconds: float
    """Time recorded over all revisions."""

    @property
    def done(self) -> int:
        """Labelled or skipped."""
        return self.labelled + self.skipped

    @property
    def share(self) -> float:
        return self.done / self.total if self.total else 0.0

    @property
    def seconds_per_item(self) -> float | None:
        """Mean time per handled item."""
        return self.seconds / self.done if self.done else None


def progress(conn: sqlite3.Connection, round_ref: int | str) -> list[AnnotatorProgress]:
    """One row per annotator of the round, in the round's annotator order."""
    rnd = get_round(conn, round_ref)
    rows = conn.execute(
        "SELECT a.name, "
        "(SELECT COUNT(*) FROM annotation_assignment s WHERE s.annotator_id = a.id), "
        "(SELECT COUNT(*) FROM annotation_current c WHERE c.annotator_id = a.id "
        " AND c.question_clear IS NOT NULL), "
        "(SELECT COUNT(*) FROM annotation_current c WHERE c.annotator_id = a.id AND c.skipped), "
        "(SELECT COUNT(*) FROM annotation_current c WHERE c.annotator_id = a.id AND c.flag), "
        "(SELECT COALESCE(SUM(l.seconds), 0) FROM annotation_label l WHERE l.annotator_id = a.id) "
        "FROM annotator a WHERE a.round_id = ? ORDER BY a.position",
        (rnd.id,),
    ).fetchall()
    return [
        AnnotatorProgress(
            annotator=r[0],
            total=r[1],
            labelled=r[2],
            skipped=r[3],
            flagged=r[4],
            seconds=float(r[5]),
        )
        for r in rows
    ]


def item_seconds(conn: sqlite3.Connection, item_id: int, annotator: str) -> float:
    """Total time the annotator spent on one item, over all revisions."""
    row = conn.execute(
        "SELECT COALESCE(SUM(l.seconds), 0) FROM annotation_label l "
        "JOIN annotator a ON a.id = l.annotator_id WHERE l.item_id = ? AND a.name = ?",
        (item_id, annotator),
    ).fetchone()
    return float(row[0])
