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
from runs_support import _stopped_kontest_run
from textual.widgets import DataTable, Input
from tui_support import LARGE, SHORT, make_app, make_default_app, notices_of

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.tui.app import QUIT_REASON
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen
from kglens_tui.tui.screens.dialogs import ConfirmScreen, QuittingScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen
from kglens_tui.tui.screens.new_run import NewRunScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.screens.review_drill import DrillDownScreen, ReasonScreen
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
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        stored = app.screen.stored
        assert isinstance(stored, StoredRun)
        await wait_for(pilot, lambda: stored.snapshot() is not None)
        await _back_home(pilot, home)

        await pilot.press("A")  # its results
        await wait_for(
            pilot, lambda: isinstance(app.screen, ModeAnalysisScreen) and app.screen.loaded
        )
        await _back_home(pilot, home)

        await pilot.press("r")  # resumed here, to its end (it may end before a look at it)
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, LiveScreen)
                and app.session is not None
                and app.session.run_id == run_id
            ),
        )
        await wait_for(pilot, lambda: not app._busy())
        await _back_home(pilot, home)

        await pilot.press("p")  # a pause asked through the workspace: none drives the run
        said = f"run {run_id} is finished: no process is running it"
        await wait_for(pilot, lambda: any(said in n.message for n in notices_of(app)))

        await pilot.press("a")  # the annotation rounds
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await _back_home(pilot, home)
        await wait_for(pilot, lambda: home.loaded and not home._reading)
        ui_sql.armed = False
    assert ui_sql.elsewhere, "the screens read the workspace, on workers"
    assert ui_sql.seen == []


async def test_no_query_on_the_ui_thread_through_review_drill_down_triage_and_analysis(
    stored_db: Path, ui_sql: UIThreadSQL
) -> None:
    """A finished KGLens run reviewed, an edge drilled into and triaged (the entry written, the
    run's numbers following it), its analysis opened from the review and from home, a blind
    spot of its stored run drilled into and noted: all of it through workers."""
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        await wait_for(pilot, lambda: not app.setting_up)
        home = app.screen
        ui_sql.armed = True

        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.loaded)
        review = app.screen
        await wait_for(pilot, lambda: review.query_one("#rv-edges", DataTable).row_count > 0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen))
        drill = app.screen
        reply = drill.selected_reply()
        assert reply is not None
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ReasonScreen))
        app.screen.query_one("#reason", Input).value = "2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("tagged" in n.message for n in notices_of(app)))
        oid = reply.observation_id

        def tagged() -> bool:
            """The reply's trail, read again on a worker, holds the tag (the replies table
            shows an error type on incorrect replies only, and this one may be a refusal)."""
            detail = drill.detail
            return detail is not None and any(
                t.value == "obsolete_knowledge"
                for r in detail.replies
                if r.observation_id == oid
                for t in r.triage
            )

        await wait_for(pilot, tagged, describe=lambda: drill.detail)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is review)

        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.loaded)
        for key in ("f", "b", "o", "t"):
            await pilot.press(key)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is review)
        await _back_home(pilot, home)

        await pilot.press("A")  # the analysis read afresh from home
        await wait_for(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.loaded)
        await _back_home(pilot, home)

        await pilot.press("enter")  # the stored run, a blind spot's drill-down, a note there
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        blind = live.query_one("#blind", DataTable)
        await wait_for(pilot, lambda: blind.row_count > 0)
        blind.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen))
        drill = app.screen
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ReasonScreen))
        app.screen.query_one("#reason", Input).value = "seen live"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("Note saved" in n.message for n in notices_of(app)))
        assert "seen live" in str(drill.query_one("#dd-triage").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is live)
        await _back_home(pilot, home)
        await wait_for(pilot, lambda: home.loaded and not home._reading)
        ui_sql.armed = False
    assert ui_sql.elsewhere, "the screens read the workspace, on workers"
    assert ui_sql.seen == []


async def test_a_quit_with_a_run_going_stores_it_interrupted_off_the_ui_thread(
    tmp_path: Path, ui_sql: UIThreadSQL
) -> None:
    db = tmp_path / "w.db"
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        await wait_for(pilot, lambda: not app.setting_up)
        app.start_run(
            RunConfig(
                kg="country",
                target="sim",
                iterations=100000,
                batch_size=4,
                stop_on_convergence=False,
                sim_latency_s=0.3,
            )
        )
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        ui_sql.armed = True
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert isinstance(app.screen, QuittingScreen)
        await wait_for(pilot, lambda: app.return_code is not None)
        ui_sql.armed = False
    assert ui_sql.seen == []
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status, stop_reason FROM run").fetchone() == (
        "interrupted",
        QUIT_REASON,
    )
    conn.close()
