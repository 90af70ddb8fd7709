"""Pause, resume or stop a run that another process drives (a CLI run in another terminal, the
TUI's run seen from a second TUI): any process writes the request into the run's row, and the
owner's engine takes it within `POLL_S` and obeys it as if its own UI had asked.
"""

from __future__ import annotations

import sqlite3

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.status import RunStatus
from kglens_tui.runs.messages import Command, Pause, Resume, Stop
from kglens_tui.runs.record import run_row, shown_status
from kglens_tui.store.connection import retry_busy
from kglens_tui.store.owner import owner_pid

POLL_S = 0.5
"""How often a run's engine looks for a request from another process."""

_WORDS: dict[str, Command] = {
    "pause": Pause(),
    "resume": Resume(),
    "stop": Stop(),
    "stop now": Stop(now=True),
}


class RunNotGoingError(KGLensError):
    """The run has no live process to ask (it ended, or its process died)."""


def word(command: Command) -> str:
    """The stored form of a command another process may send (not an abort)."""
    for text, known in _WORDS.items():
        if known == command:
            return text
    raise ValueError(f"{command!r} cannot be sent through the workspace")


def ask_run(conn: sqlite3.Connection, run_id: int, command: Command) -> str:
    """Leave ``command`` for the process driving run ``run_id``; returns one line for the user.
    A later request replaces one not yet taken. Raises RunNotGoingError when no live process
    drives the run, so nobody would see it."""
    row = run_row(conn, run_id)
    status, _ = shown_status(row["status"], row["stop_reason"], row["owner"])
    if status not in (RunStatus.RUNNING, RunStatus.PAUSED):
        raise RunNotGoingError(f"run {run_id} is {status}: no process is running it")
    text = word(command)
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET control = ? WHERE id = ? AND owner = ?",
            (text, run_id, row["owner"]),
        )
    )
    pid = owner_pid(row["owner"] or "")
    return f"asked process {pid} to {text} run {run_id}"


def take_request(conn: sqlite3.Connection, run_id: int) -> Command | None:
    """The request left for this run, cleared as it is taken (called by the run's owner)."""
    row = conn.execute("SELECT control FROM run WHERE id = ?", (run_id,)).fetchone()
    if row is None or not row[0]:
        return None
    text = row[0]
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET control = '' WHERE id = ? AND control = ?", (run_id, text)
        )
    )
    return _WORDS.get(text)
