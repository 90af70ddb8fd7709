"""Helpers the TUI tests share (not a test module): the app as the tests drive it."""

from __future__ import annotations

from pathlib import Path

from kglens_tui.settings import Settings
from kglens_tui.tui.app import KGLensApp

SIZE = (140, 44)
"""The terminal size most TUI tests drive the app at."""


def make_app(db: Path, **kw) -> KGLensApp:
    """The TUI on workspace ``db``, new runs simulated at 30 ms per answer (so a run can be
    watched, paused and stopped like a real one), redrawn 20 times a second."""
    run = {"target": "sim", "iterations": 40, "batch_size": 16, "sim_latency_s": 0.03}
    settings = Settings(ui_refresh_hz=20, run=run)
    return KGLensApp(db, settings, welcome=False, **kw)
