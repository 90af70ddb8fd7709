"""A run as stored, shown on a live screen: followed from the workspace while another process
drives it."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from textual.screen import Screen

from kglens_tui.runs.messages import RunSnapshot
from kglens_tui.runs.registry import get_mode
from kglens_tui.store.connection import connect
from kglens_tui.store.owner import is_alive

FOLLOW_S = 1.0
"""How often a screen looks for what another process committed to the run it shows."""
FOLLOW_GROUP = "follow-run"
"""The worker that reads a shown run again (`follow`)."""

_MARK_SQL = (
    "SELECT r.status, r.owner, r.iterations_done, "
    "(SELECT u.requests FROM target_usage u WHERE u.run_id = r.id) FROM run r WHERE r.id = ?"
)


def _mark(conn: sqlite3.Connection, run_id: int) -> tuple[Any, ...] | None:
    row = conn.execute(_MARK_SQL, (run_id,)).fetchone()
    return (*row, is_alive(row[1])) if row is not None else None


class StoredRun:
    """A stored run's snapshot for a live screen (nothing to pause here: p and s go through the
    workspace), read again (as ``mode`` reads it) when the run's row or its request count
    changed, or its owner process died (it then shows as interrupted), at most every
    `FOLLOW_S`.

    With ``conn``, `snapshot` reads it again itself, on the calling thread. With ``db_path``
    (`opening`), `snapshot` never reads: it gives the last snapshot read (None until the first
    read) and the screen reads on a worker thread, through its own connection (`follow`), so a
    big run that takes seconds to read never holds the UI."""

    error = ""
    live = False

    def __init__(
        self,
        snapshot: RunSnapshot | None,
        mode: str,
        conn: sqlite3.Connection | None = None,
        *,
        db_path: Path | str | None = None,
        run_id: int | None = None,
    ) -> None:
        self._snapshot = snapshot
        self._mode = mode
        self._conn = conn
        self._db_path = db_path
        self._run_id = run_id if snapshot is None else int(snapshot.run_id)
        self._read_at = time.monotonic()
        self._mark = _mark(conn, self.run_id) if conn is not None else None
        self._lock = threading.Lock()
        self.reading = False
        """A worker reads the run now (`follow`)."""
        self.failed = ""
        """Why the last read failed ('' none): the screen stops following then."""

    @classmethod
    def opening(cls, mode: str, run_id: int, db_path: Path | str) -> StoredRun:
        """A run not read yet: its screen shows at once and reads it on a worker (`follow`)."""
        return cls(None, mode, db_path=db_path, run_id=run_id)

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def run_id(self) -> int:
        if self._snapshot is not None:
            return int(self._snapshot.run_id)
        assert self._run_id is not None
        return self._run_id

    def snapshot(self) -> RunSnapshot | None:
        """The latest stored snapshot (the run deleted meanwhile: the last one read; None while
        the first read of `opening` is under way)."""
        if self._conn is not None and time.monotonic() - self._read_at >= FOLLOW_S:
            self._read_at = time.monotonic()
            mark = _mark(self._conn, self.run_id)
            if mark is not None and mark != self._mark:
                self._mark = mark
                self._snapshot = get_mode(self._mode).open_snapshot(self._conn, self.run_id)
        return self._snapshot

    def due(self) -> bool:
        """Whether a worker should read the run now: never read yet, or `FOLLOW_S` since the
        last read (one read at a time; none after a failed one)."""
        if self._db_path is None or self.reading or self.failed:
            return False
        return self._snapshot is None or time.monotonic() - self._read_at >= FOLLOW_S

    def read(self) -> bool:
        """Read the run again if it changed (run on a worker thread, with its own connection):
        whether the snapshot changed. The first read raises LookupError or ValueError when the
        run cannot be shown."""
        assert self._db_path is not None
        try:
            conn = connect(self._db_path, migrate_schema=False)
            try:
                mark = _mark(conn, self.run_id)
                if self._snapshot is not None and (mark is None or mark == self._mark):
                    return False
                if mark is None:
                    raise LookupError(f"no run {self.run_id} in this workspace")
                snapshot = get_mode(self._mode).open_snapshot(conn, self.run_id)
            finally:
                conn.close()
        except Exception as error:
            self.failed = str(error) or type(error).__name__
            raise
        finally:
            self._read_at = time.monotonic()
            self.reading = False
        with self._lock:
            self._mark, self._snapshot = mark, snapshot
        return True


def follow(screen: Screen[Any], session: object) -> None:
    """Read a `StoredRun` that a screen shows again on a worker thread when it is due (the
    screen's next redraw shows what it read). Its failure reaches the app's worker handler
    (a notification), or the screen's own when it handles it."""
    if not isinstance(session, StoredRun) or not session.due():
        return
    session.reading = True
    screen.run_worker(
        session.read,
        thread=True,
        group=FOLLOW_GROUP,
        exclusive=True,
        exit_on_error=False,
        description=f"reading run {session.run_id}",
    )
