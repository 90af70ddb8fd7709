"""A run whose process is killed (`kill -9`) under the TUI: the live screen hands over to the
stored run, so it shows what the process committed after its last message, stored as
interrupted, not the last message it got."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import LARGE, make_default_app

from kglens_tui.core.status import RunStatus
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.tui.screens.live import LiveScreen

pytestmark = pytest.mark.tui


def _committed(db: Path, run_id: int) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT iterations_done FROM run WHERE id = ?", (run_id,)).fetchone()
        return int(row[0])
    finally:
        conn.close()


async def test_a_killed_run_shows_what_it_committed_after_its_last_message(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    config = RunConfig(
        kg="country",
        target="sim",
        iterations=100000,
        batch_size=4,
        stop_on_convergence=False,
        sim_latency_s=0.02,
    )
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(config)
        session = app.session
        assert session is not None
        await wait_for(pilot, lambda: getattr(session.snapshot(), "iteration", 0) >= 1)
        # the messages stop coming here, as when the process commits and dies before telling
        last = session.snapshot()
        assert last is not None
        session.snapshot = lambda: last  # type: ignore[method-assign]
        run_id = int(last.run_id)
        await wait_for(pilot, lambda: _committed(db, run_id) >= last.iteration + 2)
        assert session.pid is not None
        os.kill(session.pid, signal.SIGKILL)
        await wait_for(pilot, lambda: session.finished and session.crashed)
        committed = _committed(db, run_id)
        screen = app.screen
        assert isinstance(screen, LiveScreen)
        await wait_for(
            pilot,
            lambda: (
                (snap := screen.snapshot()) is not None
                and snap.status == RunStatus.INTERRUPTED
                and snap.iteration == committed
            ),
            describe=lambda: screen.snapshot(),
        )
        assert committed > last.iteration
