"""A run as stored, shown on a live screen: followed from the workspace while another process
drives it."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from kglens_tui.runs.registry import get_mode
from kglens_tui.store.owner import is_alive

FOLLOW_S = 1.0
"""How often a screen looks for what another process committed to the run it shows."""

_MARK_SQL = (
    "SELECT r.status, r.owner, r.iterations_done, "
    "(SELECT u.requests FROM target_usage u WHERE u.run_id = r.id) FROM run r WHERE r.id = ?"
)


class StoredRun:
    """A stored run's snapshot for a live screen (nothing to pause here: p and s go through the
    workspace). With ``conn``, read again (as ``mode`` reads it) when the run's row or its
    request count changed, or its owner process died (it then shows as interrupted), at most
    every `FOLLOW_S`."""

    error = ""
    live = False

    def __init__(self, snapshot: Any, mode: str, conn: sqlite3.Connection | None = None) -> None:
        self._snapshot = snapshot
        self._mode = mode
        self._conn = conn
        self._read_at = time.monotonic()
        self._mark = self._read_mark()

    @property
    def run_id(self) -> int:
        return int(self._snapshot.run_id)

    def _read_mark(self) -> tuple | None:
        if self._conn is None:
            return None
        row = self._conn.execute(_MARK_SQL, (self.run_id,)).fetchone()
        return (*row, is_alive(row[1])) if row is not None else None

    def snapshot(self) -> Any:
        """The latest stored snapshot (the run deleted meanwhile: the last one read)."""
        if self._conn is not None and time.monotonic() - self._read_at >= FOLLOW_S:
            self._read_at = time.monotonic()
            mark = self._read_mark()
            if mark is not None and mark != self._mark:
                self._mark = mark
                self._snapshot = get_mode(self._mode).open_snapshot(self._conn, self.run_id)
        return self._snapshot
