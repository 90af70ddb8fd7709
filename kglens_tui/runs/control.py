"""Pause, resume or stop a run that another process drives (a CLI run in another terminal, the
TUI's run seen from a second TUI): any process writes the request into the run's row, and the
owner's engine takes it within `POLL_S` and obeys it as if its own UI had asked.
"""

from __future__ import annotations

import sqlite3

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.status import RunStatus
from kglens_tui.runs.messages import Command, Pause, Resume, Stop
from kglens_tui.runs.record import GOING, run_row, shown_status
from kglens_tui.store.connection import retry_busy
from kglens_tui.store.owner import owner_pid

POLL_S = 0.1
"""How often a run's engine looks for a request from another process."""

HELD = (RunStatus.PAUSED, RunStatus.PAUSING)
"""Stored statuses of a run asked to pause: the pause key resumes it."""

_WORDS: dict[str, Command] = {
    "pause": Pause(),
    "resume": Resume(),
    "stop": Stop(),
    "stop now": Stop(now=True),
}


class RunControlError(KGLensError):
    """The request cannot go to the run: no live process drives it (it ended, or its process
    died), or it is in that state already."""


def word(command: Command) -> str:
    """The stored form of a command another process may send (not an abort)."""
    for text, known in _WORDS.items():
        if known == command:
            return text
    raise ValueError(f"{command!r} cannot be sent through the workspace")


def toggled(conn: sqlite3.Connection, run_id: int) -> Command:
    """What a pause key asks of a run another process drives: resume when it is paused (or a
    pause is on its way to it), else pause."""
    row = run_row(conn, run_id)
    pending = row["control"]
    if pending in ("pause", "resume"):
        return Resume() if pending == "pause" else Pause()
    return Resume() if row["status"] in HELD else Pause()


def ask_run(conn: sqlite3.Connection, run_id: int, command: Command) -> str:
    """Leave ``command`` for the process driving run ``run_id``; returns one line for the user.
    A later request replaces one not yet taken; a stop to a run that is stopping stops it now.
    Raises RunControlError when no live process drives the run (nobody would see it), or when
    it is paused (or pausing) already."""
    row = run_row(conn, run_id)
    status, _ = shown_status(row["status"], row["stop_reason"], row["owner"])
    if status not in GOING:
        raise RunControlError(f"run {run_id} is {status}: no process is running it")
    if not row["owner"]:  # stored as going, held by no process (resume continues it)
        raise RunControlError(f"run {run_id} is stored as {status} but no process holds it")
    text = word(command)
    if status == RunStatus.STOPPING:  # a second stop stops now, as a second s or Ctrl-C does
        if not text.startswith("stop"):
            raise RunControlError(
                f"run {run_id} is stopping (stop it again to drop what is in flight)"
            )
        text = "stop now"
    if text == "pause" and status in HELD and row["control"] != "resume":
        raise RunControlError(f"run {run_id} is {status} already (resume it to go on)")
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET control = ? WHERE id = ? AND owner = ?",
            (text, run_id, row["owner"]),
        )
    )
    pid = owner_pid(row["owner"])
    verb, _, now = text.partition(" ")
    return f"asked process {pid} to {verb} run {run_id}{' ' + now if now else ''}"


def resume_elsewhere(conn: sqlite3.Connection, run_id: int) -> str | None:
    """What resuming run ``run_id`` means when a live process drives it: a paused run is asked
    to go on there (the line says so), a running one is left alone; None when none drives it
    (then resuming it here is the way)."""
    row = run_row(conn, run_id)
    status, _ = shown_status(row["status"], row["stop_reason"], row["owner"])
    if status in HELD:
        return ask_run(conn, run_id, Resume())
    pid = owner_pid(row["owner"] or "")
    if status == RunStatus.RUNNING:
        return f"run {run_id} goes on in process {pid} (pause: `kglens pause {run_id}`)"
    if status == RunStatus.STOPPING:
        return f"run {run_id} is stopping in process {pid}: resume it once it has stopped"
    return None


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
