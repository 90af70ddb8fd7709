"""KONTEST and fact-eval runs are not lost once their live screen is left: Home reopens them
(as stored, or live while they run) and resumes them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from runs_support import _stopped_kontest_run
from textual.widgets import Static
from tui_support import SHORT, make_app, notices_of

from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen
from kglens_tui.tui.screens.stored_run import StoredRun

pytestmark = pytest.mark.tui


def _units_done(db: Path, run_id: int) -> tuple[int, str]:
    conn = sqlite3.connect(db)
    try:
        done, status = conn.execute(
            "SELECT iterations_done, status FROM run WHERE id = ?", (run_id,)
        ).fetchone()
        return int(done), str(status)
    finally:
        conn.close()


def test_home_reopens_and_resumes_a_kontest_run(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    run_id, total = _stopped_kontest_run(db)
    app = make_app(db)

    async def drive() -> None:
        async with app.run_test(size=SHORT) as pilot:
            await pilot.pause()
            app.open_run(run_id)
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
            screen = app.screen
            assert isinstance(screen.stored, StoredRun)

            def said(text: str) -> bool:
                return any(text in n.message for n in notices_of(app))

            def title() -> str:
                found = screen.query("#mode-title")
                return str(found.first().content) if found else ""

            await wait_for(pilot, lambda: f"Run {run_id}" in title())
            assert "stopped" in title()
            progress = str(screen.query_one("#mode-progress").content)
            assert "stored run" in progress and "elapsed" not in progress  # no made-up 0 s
            await pilot.press("p")  # a stored run has nothing to pause: says so
            await wait_for(
                pilot, lambda: said(f"run {run_id} is stopped: no process is running it")
            )
            assert app.session is None
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, LiveScreen))
            home = app.screen
            home.query_one("#runs").select_key(str(run_id))
            for key in ("v", "A"):  # no empty KGLens review or analysis: the run's report
                await pilot.press(key)
                await wait_for(
                    pilot, lambda: isinstance(app.screen, ModeAnalysisScreen) and app.screen.loaded
                )
                shown = app.screen.query_one("#mode-analysis-title", Static).render()
                assert str(shown) == f"KONTEST run {run_id} (consistency report)"
                await pilot.press("escape")
                await wait_for(pilot, lambda: app.screen is home)
            await pilot.press("c")  # only c compares, and names the mode as lists do
            # a toast expires: wait for this one, not for a count of them
            await wait_for(
                pilot,
                lambda: said(
                    f"no other finished KONTEST run on KG 'country' to compare run {run_id} with"
                ),
            )
            await wait_for(pilot, lambda: app.screen is home)  # the screen that read it closed
            app.resume_run(run_id)
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
            assert app.screen.session is app.session and app.session.live
            await wait_for(pilot, lambda: not app._busy(), timeout=120)
            assert not app.session.error

    asyncio.run(drive())
    assert _units_done(db, run_id) == (total, "finished")
