"""Reads of the workspace on thread workers, so the UI thread never waits for SQLite: how a
screen starts one and takes its outcome. A write goes the same way: `read_with` on a worker
does it, then reads on the same connection what follows from it (a triage entry, then the run's
trail: `review_drill.DrillDownScreen._store`; the status of a run the app quit: `KGLensApp`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.workers import ReportsWorkerErrors, on_stack

T = TypeVar("T")


def read_with(db_path: Path | str, read: Callable[[sqlite3.Connection], T]) -> T:
    """``read(conn)`` through a connection of the calling thread (a worker's), closed after; the
    app's own connection has migrated the workspace already. ``read`` may write first (the
    connection is in autocommit mode), then read what the screen shows of it."""
    conn = connect(db_path, migrate_schema=False)
    try:
        return read(conn)
    finally:
        conn.close()


def failed_read(event: Worker.StateChanged, what: str) -> str | None:
    """A read of ``what`` that failed, as one line ("Could not read the runs: ...") for the
    screen to show where its data goes instead of the app's notification (the event's default
    is prevented); None for a read that did not fail."""
    if event.state is not WorkerState.ERROR:
        return None
    event.prevent_default()
    return f"Could not read {what}: {event.worker.error}"


@dataclass(frozen=True)
class ReadResult(Generic[T]):
    """What a `read_then` worker returns: the read's value and what takes it."""

    value: T
    then: Callable[[T], None]


def read_then(
    node: DOMNode,
    read: Callable[[sqlite3.Connection], T],
    then: Callable[[T], None],
    description: str,
    *,
    group: str = "",
    exclusive: bool = True,
) -> Worker[ReadResult[T]]:
    """``read(conn)`` on a thread worker of ``node`` (a `ReadsOnWorkers` screen, or the app)
    through a connection of its own (`read_with`), then ``then(value)`` on the UI thread once
    it is back, while the screen is still open. A read of a ``group`` replaces that group's
    read still going, whose value is dropped (not ``exclusive``: each value is handed over).
    A failure is told by the app (a notification)."""
    db_path = node.app.db_path  # type: ignore[attr-defined]
    return node.run_worker(
        lambda: ReadResult(read_with(db_path, read), then),
        thread=True,
        exclusive=bool(group) and exclusive,
        group=group or "read",
        exit_on_error=False,
        description=description,
    )


class ReadsOnWorkers(ReportsWorkerErrors):
    """A screen mixin: hands each `read_then` value to its ``then`` on the UI thread while the
    screen is open (a value read for a screen closed since, or as the app quits, is dropped)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        done = event.worker.result if event.state is WorkerState.SUCCESS else None
        if not isinstance(done, ReadResult) or not isinstance(self, Screen):
            return
        if self.app.is_running and on_stack(self):
            done.then(done.value)
