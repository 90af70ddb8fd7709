"""Worker failures reach the user one way: a notification from the app, never a traceback."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.worker import Worker, WorkerState


class ReportsWorkerErrors:
    """A screen mixin: a worker of the screen that fails is told by the app's one handler
    (`KGLensApp.worker_failed`: a notification with the error as literal text). A screen that
    says a failure its own way handles the event first and calls ``event.prevent_default()``."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR:
            self.app.worker_failed(event.worker)  # type: ignore[attr-defined]


def on_stack(screen: Screen[Any]) -> bool:
    """Whether a screen is still open (on the app's screen stack, maybe under a dialog): a
    redraw or a worker's result that comes after it was closed is dropped. `is_attached` alone
    says True while a popped screen's widgets are being removed."""
    return screen.is_attached and screen in screen.app.screen_stack
