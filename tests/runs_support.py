"""Helpers the run tests share (not a test module): the terminal size they drive the app at, a
KONTEST run stopped after its first commit, a run's status and answers read from the workspace,
and a wait on state."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from kglens_tui.modes import KontestConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


def _answers(db: Path, run_id: int) -> list[tuple[int, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT unit, reply, label FROM unit_answer WHERE run_id = ? ORDER BY unit", (run_id,)
        ).fetchall()
    finally:
        conn.close()


def _status(db: Path, run_id: int) -> str:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT status FROM run WHERE id = ?", (run_id,)).fetchone()[0]
    finally:
        conn.close()


def _wait(predicate, what: str, timeout: float = 60.0) -> None:
    """Wait on state (a generous deadline only so a broken run fails instead of hanging)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached: {what}")
        time.sleep(0.02)


def _stopped_kontest_run(db: Path) -> tuple[int, int]:
    """A KONTEST run stopped after its first commit: (run id, units planned)."""
    conn = connect(db)
    engine = prepare(
        conn, config=KontestConfig(kg="country", relations=40, target="sim:1", concurrency=1)
    )

    def stop_after_first(snap) -> None:
        if snap.units_done >= 1:
            engine.request_stop()

    engine.on_progress = stop_after_first
    snap = run_blocking(engine)
    conn.close()
    assert snap.status == "stopped" and 0 < snap.units_done < snap.units_total
    return snap.run_id, snap.units_total
