"""Requests a run (of any mode) has sent its target, stored per run (table target_usage)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

COLUMNS = ("requests", "errors", "retries", "prompt_tokens", "completion_tokens", "dropped")
"""The counts, in the order every function here takes and returns them: ``errors`` are the
requests the target failed, ``dropped`` those whose replies went with an iteration or unit
dropped whole (a stop now, quitting, the failure rule); both are in ``requests``."""
_VALUES = ", ".join("?" * (len(COLUMNS) + 1))


def load_target_usage(conn: sqlite3.Connection, run_id: int) -> tuple[int, ...] | None:
    """The run's stored counts (COLUMNS), None for a run stored before the table existed."""
    row = conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM target_usage WHERE run_id = ?", (run_id,)
    ).fetchone()
    return None if row is None else tuple(int(v) for v in row)


def start_target_usage(conn: sqlite3.Connection, run_id: int, counts: Sequence[int]) -> None:
    """Give the run its counts row, holding ``counts`` (what its answers show), unless it has one
    (inside the caller's transaction)."""
    conn.execute(
        f"INSERT OR IGNORE INTO target_usage(run_id, {', '.join(COLUMNS)}) VALUES ({_VALUES})",
        (run_id, *counts),
    )


def add_target_usage(conn: sqlite3.Connection, run_id: int, counts: Sequence[int]) -> None:
    """Add ``counts`` (COLUMNS) to the run's row, made if it has none (inside the caller's
    transaction)."""
    conn.execute(
        f"INSERT INTO target_usage(run_id, {', '.join(COLUMNS)}) VALUES ({_VALUES}) "
        "ON CONFLICT(run_id) DO UPDATE SET "
        + ", ".join(f"{c} = {c} + excluded.{c}" for c in COLUMNS),
        (run_id, *counts),
    )
