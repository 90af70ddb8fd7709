"""p and s on a run, the same on every screen that offers them (home, both live screens): for the
run this app drives, through its session; for a run another process drives, through the
workspace (`kglens_tui.runs.control`); for a run nobody drives, one line saying so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.status import RunStatus
from kglens_tui.runs.control import ask_run, toggled
from kglens_tui.runs.messages import Command, Stop
from kglens_tui.runs.session import STOP_NOW, RunSession

if TYPE_CHECKING:
    from kglens_tui.tui.app import KGLensApp

PAUSING = "Pausing: what is in flight finishes first (p again: resume)."
STOPPING = "Stopping: what is in flight finishes and is kept (s again: stop now)."


def press(screen: Screen[Any], action: str, session: RunSession | None, run_id: int | None) -> None:
    """p (``action`` "pause") or s ("stop") on run ``run_id``. ``session``: this app's session
    while it drives the run (a command given while it starts waits for it). Otherwise the
    request goes through the workspace to the process that drives the run; the app remembers
    the runs it asked to stop (`asked_to_stop`), and a second s stops now."""
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
    conn, asked_to_stop = app.db(), app.asked_to_stop
    try:
        stop = Stop(now=run_id in asked_to_stop)
        command: Command = stop if action == "stop" else toggled(conn, run_id)
        said = ask_run(conn, run_id, command)
    except KGLensError as exc:
        screen.notify(str(exc), severity="warning")
        return
    then = ""
    if action == "stop":
        now = stop.now or said.endswith(" now")  # a run stopping already is stopped now
        then = "" if now else ", then finishes what is in flight (s again: stop now)"
        asked_to_stop.add(run_id)
    screen.notify(f"{said[0].upper()}{said[1:]}: it takes it within a second{then}.")


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
