"""Helpers the TUI tests share (not a test module): the app as the tests drive it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual.notifications import Notification

from kglens_tui.settings import Settings
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.annotate_home import AnnotationEntry

# The terminal sizes the tests drive the app at (columns, rows); a test that needs another size
# for what it checks (one row, a narrow pane) says so where it uses it.
SMALL = (80, 24)
"""The classic terminal, the smallest the app is laid out for."""
SHORT = (120, 36)
MEDIUM = (120, 40)
LARGE = (140, 44)
"""Most TUI tests: every pane at its full size."""
HUGE = (160, 48)


def make_app(db: Path, **kw) -> KGLensApp:
    """The TUI on workspace ``db``, new runs simulated at 30 ms per answer (so a run can be
    watched, paused and stopped like a real one), redrawn 20 times a second."""
    run = {"target": "sim", "iterations": 40, "batch_size": 16, "sim_latency_s": 0.03}
    settings = Settings(ui_refresh_hz=20, run=run)
    return KGLensApp(db, settings, welcome=False, **kw)


def make_default_app(
    db: Path, annotation: AnnotationEntry | None = None, **settings: Any
) -> KGLensApp:
    """The TUI on workspace ``db`` with the default settings (``settings`` overrides some) but
    new runs simulated at the default pace; ``annotation`` opens it as an annotator."""
    return KGLensApp(
        db, Settings(run={"target": "sim"}, **settings), welcome=False, annotation=annotation
    )


def notices_of(app: KGLensApp) -> list[Notification]:
    """Every notice told to ``app`` so far, in order, expired ones too (kept by conftest's
    `_keep_notices`): what a test reads instead of the notices on screen. Fails where they
    are not kept, so that "no notice" is never read from an app that keeps none."""
    assert getattr(type(app)._on_notify, "keeps_notices", False), "notices are not kept"
    return list(app.__dict__.get("_told", ()))


class Spy:
    """Wraps a read function: records the thread of each call; while ``gate`` is set, a call
    waits for it to be released (a slow read), and ``then`` may change its result."""

    def __init__(self, read) -> None:
        self.read = read
        self.threads: list[threading.Thread] = []
        self.gate: threading.Event | None = None
        self.waiting = threading.Event()
        self.then: Any = None
        self.fail: Exception | None = None
        self.done = 0
        """Calls returned."""

    def __call__(self, *args, **kw):
        self.threads.append(threading.current_thread())
        if self.fail is not None:
            raise self.fail
        out = self.read(*args, **kw)
        gate, then = self.gate, self.then
        if gate is not None:
            self.gate = self.then = None  # only this call is slow
            self.waiting.set()
            assert gate.wait(60)
            if then is not None:
                out = then(out)
        self.done += 1
        return out


async def open_form(pilot) -> Any:
    """From home, the new-run form, once it has read its choices (`NewRunScreen`)."""
    from conftest import wait_for

    from kglens_tui.tui.screens.home import HomeScreen
    from kglens_tui.tui.screens.new_run import NewRunScreen

    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen))
    form = app.screen
    await wait_for(pilot, lambda: form.loaded and form._opened is not None)
    return form
