"""Create or resume a KONTEST / facteval run, drive it, or look at it without its target."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable

from kglens_tui.llm.base import ChatClient
from kglens_tui.modes.config import FactevalConfig, KontestConfig
from kglens_tui.runs.record import load_run
from kglens_tui.runs.registry import get_mode
from kglens_tui.runs.unit_mode import UnitMode
from kglens_tui.runs.units import ModeEngine, ModeSnapshot


def _unit_mode(name: str) -> UnitMode:
    mode = get_mode(name)
    assert isinstance(mode, UnitMode)
    return mode


def prepare_mode(
    conn: sqlite3.Connection,
    *,
    config: KontestConfig | FactevalConfig | None = None,
    resume: int | None = None,
    name: str = "",
    target: ChatClient | None = None,
    generator: ChatClient | None = None,
    on_progress: Callable[[ModeSnapshot], None] | None = None,
) -> ModeEngine:
    """An engine for a new run (config: its mode decides which) or a stored one (resume)."""
    mode = config.mode if config is not None else load_run(conn, resume or 0).mode
    return _unit_mode(mode).prepare(
        conn,
        config=config,
        resume=resume,
        name=name,
        target=target,
        generator=generator,
        on_progress=on_progress,
    )


def run_blocking(engine: ModeEngine) -> ModeSnapshot:
    """Run an engine to its end on a fresh event loop (for the CLI and tests)."""
    return asyncio.run(_unit_mode(engine.run.mode).drive(engine))


def open_mode_snapshot(conn: sqlite3.Connection, run_id: int) -> ModeSnapshot:
    """A stored run's progress and metrics, without contacting its target."""
    return _unit_mode(load_run(conn, run_id).mode).open_snapshot(conn, run_id)
