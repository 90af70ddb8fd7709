"""p and s on a run, the same on every screen that offers them (home, both live screens): for the
run this app drives, through its session; for a run another process drives, through the
workspace (`kglens_tui.runs.control`); for a run nobody drives, one line saying so."""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.status import RunStatus
from kglens_tui.runs.control import ask_run, toggled
from kglens_tui.runs.messages import Command, Stop
from kglens_tui.runs.session import STOP_NOW, RunSession
from kglens_tui.tui.reads import read_then

if TYPE_CHECKING:
    from kglens_tui.tui.app import KGLensApp

PAUSING = "Pausing: what is in flight finishes first (p again: resume)."
STOPPING = "Stopping: what is in flight finishes and is kept (s again: stop now)."


def press(screen: Screen[Any], action: str, session: RunSession | None, run_id: int | None) -> None:
    """p (``action`` "pause") or s ("stop") on run ``run_id``. ``session``: this app's session
    while it drives the run (a command given while it starts waits for it). Otherwise the
    request goes through the workspace (on a worker) to the process that drives the run; the
    app remembers the runs it asked to stop (`asked_to_stop`), and a second s stops now."""
    if session is not None:
        if action == "stop":
            _stop(screen, session)
        else:
            screen.notify(PAUSING if session.toggle_pause() else "Resumed.")
        return
    if run_id is None:
        screen.notify("No run here to pause or stop.", severity="warning")
        return
    app: KGLensApp = screen.app  # type: ignore[assignment]  # every screen here is the app's
    stop = Stop(now=run_id in app.asked_to_stop)
    if action == "stop":  # a second s, even before the first is through, stops now
        app.asked_to_stop.add(run_id)
    read_then(
        app,
        lambda conn: _ask(conn, run_id, action, stop),
        partial(_asked, app, run_id, action, stop),
        f"asking run {run_id} to {action}",
    )


def _ask(conn: sqlite3.Connection, run_id: int, action: str, stop: Stop) -> str | KGLensError:
    """The request through the workspace (on a worker): what it says, or why it was not made."""
    try:
        command: Command = stop if action == "stop" else toggled(conn, run_id)
        return ask_run(conn, run_id, command)
    except KGLensError as exc:
        return exc


def _asked(app: KGLensApp, run_id: int, action: str, stop: Stop, said: str | KGLensError) -> None:
    """What a request through the workspace said, told."""
    if isinstance(said, KGLensError):
        if action == "stop" and not stop.now:
            app.asked_to_stop.discard(run_id)
        app.notify(str(said), severity="warning")
        return
    then = ""
    if action == "stop":
        now = stop.now or said.endswith(" now")  # a run stopping already is stopped now
        then = "" if now else ", then finishes what is in flight (s again: stop now)"
    app.notify(f"{said[0].upper()}{said[1:]}: it takes it within a second{then}.")


def _stop(screen: Screen[Any], session: RunSession) -> None:
    """Stop the session's run; a second stop drops what is in flight."""
    if session.stopping:
        session.stop(now=True)
        screen.notify(STOP_NOW)
    else:
        session.stop()
        screen.notify(STOPPING)


def process_lost(session: object, status: str) -> str:
    """Why a run's process ended before the run did (it died; the last snapshot still says it
    goes on), else ''. ``session``: a screen's RunSession, StoredRun or None."""
    if session is None or RunStatus(status).ended:
        return ""
    return str(getattr(session, "error", ""))
