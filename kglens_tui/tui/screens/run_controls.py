"""p and s on a run, the same on every screen that offers them: for the run this app drives,
through its session; for a run another process drives, through the workspace
(`kglens_tui.runs.control`)."""

from __future__ import annotations

import sqlite3

from textual.screen import Screen

from kglens_tui.core.errors import KGLensError
from kglens_tui.runs.control import ask_run
from kglens_tui.runs.messages import Command, Pause, Resume, Stop
from kglens_tui.runs.record import run_row
from kglens_tui.runs.session import STOP_NOW, RunSession

PAUSING = "Pausing: what is in flight finishes first (p again: resume)."
STOPPING = "Stopping: what is in flight finishes and is kept (s again: stop now)."


def toggle_pause(screen: Screen, session: RunSession) -> None:
    """Pause the session's run, or resume it when the engine is held."""
    screen.notify(PAUSING if session.toggle_pause() else "Resumed.")


def stop(screen: Screen, session: RunSession) -> None:
    """Stop the session's run; a second stop drops what is in flight."""
    if session.stopping:
        session.stop(now=True)
        screen.notify(STOP_NOW)
    else:
        session.stop()
        screen.notify(STOPPING)


def ask_other(
    screen: Screen, conn: sqlite3.Connection, run_id: int, action: str, again: bool = False
) -> None:
    """p or s (``action``) on a run another process drives: leave the request for it (``again``:
    a second s, which stops it now)."""
    command: Command
    if action == "stop":
        command = Stop(now=again)
    else:
        command = Resume() if run_row(conn, run_id)["status"] == "paused" else Pause()
    try:
        said = ask_run(conn, run_id, command)
    except KGLensError as exc:
        screen.notify(str(exc), severity="warning")
        return
    screen.notify(f"{said[0].upper()}{said[1:]}: it takes it within a second.")
