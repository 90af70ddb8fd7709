"""The UI thread never waits for the workspace (issue #37): once home is shown, a person going
through the app's main screens (the new-run form, a stored run, a mode run's results, resume,
a pause asked of a run, the annotation rounds) opens no SQLite connection and runs no statement
on the UI thread. Every connection the app makes is traced (`sqlite3.connect` patched) and each
statement is recorded with its thread.

Left out, as the first start needs them before home is shown: the UI's own connection, which
migrates the workspace and says whether it is fresh (the welcome screen), in `KGLensApp.on_mount`.
Recording starts once home has shown its lists."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from kglens_tui.tui.screens.mode_live import ModeLiveScreen
from runs_support import _stopped_kontest_run
from tui_support import SHORT, make_app

from kglens_tui.tui.screens.annotate_home import RoundsScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen
from kglens_tui.tui.screens.new_run import NewRunScreen
from kglens_tui.tui.screens.stored_run import StoredRun

pytestmark = pytest.mark.tui


class UIThreadSQL:
    """What was done with SQLite on the main (UI) thread while ``armed``: "connect", or a
    statement as SQLite traced it."""

    def __init__(self) -> None:
        self.armed = False
        self.seen: list[str] = []
        self.elsewhere = 0
        """Statements traced on other threads while armed (the reads did happen)."""
        self._lock = threading.Lock()

    def record(self, what: str) -> None:
        if not self.armed:
            return
        with self._lock:
            if threading.current_thread() is threading.main_thread():
                self.seen.append(what)
            else:
                self.elsewhere += 1


@pytest.fixture
def ui_sql(monkeypatch: pytest.MonkeyPatch) -> UIThreadSQL:
    trace = UIThreadSQL()
    real = sqlite3.connect

    def connect(*args, **kw) -> sqlite3.Connection:
        trace.record(f"connect {args[0] if args else kw.get('database')}")
        conn = real(*args, **kw)
        conn.set_trace_callback(trace.record)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    return trace


async def _back_home(pilot, home: HomeScreen) -> None:
    await pilot.press("escape")
    await wait_for(pilot, lambda: pilot.app.screen is home)


async def test_no_connection_or_query_on_the_ui_thread_after_the_start(
    tmp_path: Path, ui_sql: UIThreadSQL
) -> None:
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        await wait_for(pilot, lambda: not app.setting_up)
        home = app.screen
        ui_sql.armed = True

        await pilot.press("n")  # the form, then back (nothing changed: nothing asked)
        await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen) and app.screen.loaded)
        await _back_home(pilot, home)

        home.query_one("#runs").select_key(str(run_id))
        await pilot.press("enter")  # the stored run
        await wait_for(pilot, lambda: isinstance(app.screen, ModeLiveScreen))
        stored = app.screen.session
        assert isinstance(stored, StoredRun)
        await wait_for(pilot, lambda: stored.snapshot() is not None)
        await _back_home(pilot, home)

        await pilot.press("A")  # its results
        await wait_for(
            pilot, lambda: isinstance(app.screen, ModeAnalysisScreen) and app.screen.loaded
        )
        await _back_home(pilot, home)

        await pilot.press("r")  # resumed here, to its end
        await wait_for(pilot, lambda: isinstance(app.screen, ModeLiveScreen) and app._busy())
        await wait_for(pilot, lambda: not app._busy())
        await _back_home(pilot, home)

        await pilot.press("p")  # a pause asked through the workspace: none drives the run
        said = f"run {run_id} is finished: no process is running it"
        await wait_for(pilot, lambda: any(said in n.message for n in app._notifications))

        await pilot.press("a")  # the annotation rounds
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await _back_home(pilot, home)
        await wait_for(pilot, lambda: home.loaded and not home._reading)
        ui_sql.armed = False
    assert ui_sql.elsewhere, "the screens read the workspace, on workers"
    assert ui_sql.seen == []
