"""Screens opened from home read on worker threads: a KONTEST or fact-eval run's analysis shows
at once, says it is reading, handles keys meanwhile and fills in with the same tables; a run
opens once its mode is read."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import wait_for
from rich.console import Console
from runs_support import _stopped_kontest_run
from textual.widgets import Static
from tui_support import SHORT, Spy, make_app, notices_of

from kglens_tui.store.connection import connect
from kglens_tui.tui import app as app_module
from kglens_tui.tui.screens import mode_analysis, run_controls
from kglens_tui.tui.screens.dialogs import HelpScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen, analysis_renderables

pytestmark = pytest.mark.tui


def _text(renderables) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    for r in renderables:
        console.print(r)
    return console.file.getvalue()


@pytest.fixture
def analysis_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(mode_analysis.analysis_renderables)
    monkeypatch.setattr(mode_analysis, "analysis_renderables", spy)
    return spy


async def _home_on(pilot: Any, app: Any, run_id: int) -> HomeScreen:
    """Home once its list is read, with run ``run_id`` selected."""
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
    home: HomeScreen = app.screen
    home.query_one("#runs").select_key(str(run_id))
    return home


async def test_a_mode_runs_report_is_read_on_a_worker_and_shows_the_same_tables(
    tmp_path: Path, analysis_spy: Spy
) -> None:
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    conn = connect(db)
    title, tables = analysis_renderables(conn, run_id, False)  # as read on the UI thread
    conn.close()
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await _home_on(pilot, app, run_id)
        gate = threading.Event()
        analysis_spy.gate = gate
        try:
            await pilot.press("A")
            await wait_for(pilot, lambda: isinstance(app.screen, ModeAnalysisScreen))
            screen = app.screen
            await wait_for(pilot, analysis_spy.waiting.is_set)
            shown = screen.query_one("#mode-analysis-title", Static)
            assert str(shown.render()) == f"reading run {run_id}…" and not screen.loaded
            await pilot.press("question_mark")  # handled while the run is read
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
        finally:
            gate.set()
        await wait_for(pilot, lambda: screen.loaded)
        assert str(shown.render()) == title == f"KONTEST run {run_id} (consistency report)"
        assert len(screen.query("#mode-analysis Static")) == len(tables)
        assert _text(screen.renderables) == _text(tables)
    assert analysis_spy.threads and threading.main_thread() not in analysis_spy.threads


async def test_a_mode_runs_analysis_closed_before_its_read_drops_it(
    tmp_path: Path, analysis_spy: Spy
) -> None:
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        home = await _home_on(pilot, app, run_id)
        gate = threading.Event()
        analysis_spy.gate = gate
        try:
            await pilot.press("v")
            await wait_for(pilot, analysis_spy.waiting.is_set)
            screen = app.screen
            assert isinstance(screen, ModeAnalysisScreen)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is home)
        finally:
            gate.set()
        await wait_for(pilot, lambda: analysis_spy.done == 1)
        await wait_for(pilot, lambda: not any(w.node is screen for w in app.workers))
        assert app.screen is home and not screen.loaded
        assert not any(n.severity == "error" for n in notices_of(app))


def _opened(app: object) -> bool:
    return isinstance(app.screen, LiveScreen)  # type: ignore[attr-defined]


def _results(app: object) -> bool:
    screen = app.screen  # type: ignore[attr-defined]
    return isinstance(screen, ModeAnalysisScreen) and screen.loaded


async def test_a_mode_runs_results_open_by_the_mode_home_lists(tmp_path: Path) -> None:
    """A or v on a KONTEST run opens its results screen by the mode home's list holds (no read
    of the run's mode first)."""
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        home = await _home_on(pilot, app, run_id)
        for key in ("A", "v"):
            await pilot.press(key)
            await wait_for(pilot, lambda: _results(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is home)


@pytest.mark.parametrize(
    ("module", "key", "shown"),
    [(app_module, "enter", _opened)],
    ids=["enter opens the run"],
)
async def test_a_run_opens_once_its_mode_is_read_on_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Any, key: str, shown: Any
) -> None:
    """Enter on a run reads its mode off the UI thread: home handles keys meanwhile, the run's
    screen opens once it is in; a screen opened meanwhile is left as it is."""
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    spy = Spy(module.mode_of)
    monkeypatch.setattr(module, "mode_of", spy)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        home = await _home_on(pilot, app, run_id)
        gate = spy.gate = threading.Event()
        try:
            await pilot.press(key)
            await wait_for(pilot, spy.waiting.is_set)
            await pilot.press("question_mark")  # handled while the mode is read
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        finally:
            gate.set()
        await wait_for(pilot, lambda: spy.done == 1)
        await wait_for(pilot, lambda: not any(w.group == module.OPEN_GROUP for w in app.workers))
        assert isinstance(app.screen, HelpScreen)  # nothing opened over the help
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is home)
        await pilot.press(key)  # again, not held
        await wait_for(pilot, lambda: shown(app))
    assert spy.threads and threading.main_thread() not in spy.threads


async def test_resume_reads_the_run_on_a_worker_then_resumes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """r on a run reads whether it can be resumed off the UI thread (`resume_check`): home
    handles keys meanwhile, and a screen opened meanwhile is left as it is; pressed again (not
    held) the run resumes here."""
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    spy = Spy(app_module.resume_check)
    monkeypatch.setattr(app_module, "resume_check", spy)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        home = await _home_on(pilot, app, run_id)
        gate = spy.gate = threading.Event()
        try:
            await pilot.press("r")
            await wait_for(pilot, spy.waiting.is_set)
            await pilot.press("question_mark")  # handled while the run is read
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        finally:
            gate.set()
        await wait_for(pilot, lambda: spy.done == 1)
        await wait_for(
            pilot, lambda: not any(w.group == app_module.RESUME_GROUP for w in app.workers)
        )
        assert isinstance(app.screen, HelpScreen) and app.session is None
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is home)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: app.session.run_id == run_id)  # set once it has started
        await wait_for(pilot, lambda: not app._busy())
    assert spy.threads and threading.main_thread() not in spy.threads


async def test_resuming_a_finished_run_is_refused_once_it_is_read(tmp_path: Path) -> None:
    """What `resume_check` refuses is told, with its severity, once the worker read it."""
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    conn = connect(db)
    conn.execute("UPDATE run SET status = 'finished', stop_reason = '' WHERE id = ?", (run_id,))
    conn.close()
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await _home_on(pilot, app, run_id)
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: any("nothing to resume" in n.message for n in notices_of(app)),
        )
        assert [n.severity for n in notices_of(app) if "resume" in n.message] == ["warning"]
        assert isinstance(app.screen, HomeScreen) and app.session is None


async def test_p_on_a_run_no_process_drives_asks_through_the_workspace_on_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """p on a run this app does not drive asks through the workspace off the UI thread: home
    handles keys meanwhile, and what the request said is told once it is back."""
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    spy = Spy(run_controls._ask)
    monkeypatch.setattr(run_controls, "_ask", spy)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await _home_on(pilot, app, run_id)
        said = f"run {run_id} is stopped: no process is running it"
        gate = spy.gate = threading.Event()
        try:
            await pilot.press("p")
            await wait_for(pilot, spy.waiting.is_set)
            await pilot.press("question_mark")  # handled while the request is made
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert not any(said in n.message for n in notices_of(app))
        finally:
            gate.set()
        await wait_for(pilot, lambda: any(said in n.message for n in notices_of(app)))
    assert spy.threads and threading.main_thread() not in spy.threads
