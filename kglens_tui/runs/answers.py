"""One stored answer per unit, for unit modes without a table of their own (db/0011)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kglens_tui.llm.usage import Usage

TOTALS_SQL = (
    "SELECT COUNT(*), SUM(error != ''), SUM(retries), SUM(prompt_tokens), "
    "SUM(completion_tokens) FROM unit_answer WHERE run_id = ?"
)
"""The five sums `ModeEngine.load_totals` wants, over these answers."""


@dataclass(frozen=True)
class UnitAnswer:
    """A unit's question, the reply and the mode's label for it, or the API failure."""

    unit: int
    question: str
    reply: str = ""
    label: str = ""
    usage: Usage = Usage()

    @property
    def failed(self) -> bool:
        return self.usage.failed


def write_answers(conn: sqlite3.Connection, run_id: int, answers: list[UnitAnswer]) -> None:
    """Store answers inside the caller's transaction, replacing a unit's earlier failed one."""
    conn.executemany(
        "INSERT OR REPLACE INTO unit_answer(run_id, unit, question, reply, label, "
        "prompt_tokens, completion_tokens, latency_ms, retries, error) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (
                run_id,
                a.unit,
                a.question,
                a.reply,
                a.label,
                *a.usage.values(),
            )
            for a in answers
        ],
    )


ANSWER_COLUMNS = (
    "unit, question, reply, label, prompt_tokens, completion_tokens, latency_ms, retries, error"
)
"""`unit_answer`'s columns in `UnitAnswer`'s order (its usage's in `Usage.COLUMNS` order)."""


def load_answers(conn: sqlite3.Connection, run_id: int) -> dict[int, UnitAnswer]:
    """The run's stored answers by unit."""
    rows = conn.execute(
        f"SELECT {ANSWER_COLUMNS} FROM unit_answer WHERE run_id = ? ORDER BY unit", (run_id,)
    ).fetchall()
    return {int(r[0]): _answer(r) for r in rows}


def load_latest_answers(conn: sqlite3.Connection, run_id: int, limit: int) -> list[UnitAnswer]:
    """The run's stored answers to its last ``limit`` units that have one, in plan order
    (oldest first): one walk back along the primary key, not a read of the whole run."""
    rows = conn.execute(
        f"SELECT {ANSWER_COLUMNS} FROM unit_answer WHERE run_id = ? ORDER BY unit DESC LIMIT ?",
        (run_id, limit),
    ).fetchall()
    return [_answer(r) for r in reversed(rows)]


StoredAnswer = tuple[int, str, str, str, int, int, float | None, int, str]
"""A `unit_answer` row as ANSWER_COLUMNS reads it."""


def _answer(row: StoredAnswer) -> UnitAnswer:
    """A `unit_answer` row as a `UnitAnswer`."""
    unit, question, reply, label, prompt, completion, latency, retries, error = row
    return UnitAnswer(
        unit, question, reply, label, Usage(prompt, completion, latency, retries, error)
    )
