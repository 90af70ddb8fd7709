"""A KONTEST or fact-eval run's live screen makes its figures on a worker: keys are handled
while they are made, and figures that come after the screen closed are dropped."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from runs_support import _stopped_kontest_run
from textual.widgets import Static
from tui_support import SHORT, Spy, make_app, notices_of

from kglens_tui.tui.screens import live_units
from kglens_tui.tui.screens.dialogs import HelpScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen

pytestmark = pytest.mark.tui


@pytest.fixture
def view_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(live_units.mode_view)
    monkeypatch.setattr(live_units, "mode_view", spy)
    return spy


async def _opened(pilot, run_id: int) -> LiveScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
    app.open_run(run_id)
    await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
    screen = app.screen
    assert isinstance(screen, LiveScreen)
    await wait_for(pilot, lambda: screen.latest() is not None, 60)
    return screen


async def test_keys_are_handled_while_the_figures_are_made(tmp_path: Path, view_spy: Spy) -> None:
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        gate = threading.Event()
        view_spy.gate = gate
        try:
            screen = await _opened(pilot, run_id)
            await wait_for(pilot, view_spy.waiting.is_set)
            title = screen.query_one("#mode-title", Static)
            assert str(title.render()) == f"reading run {run_id}…" and not screen.settled
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
        finally:
            gate.set()
        await wait_for(pilot, lambda: screen.settled)
        assert f"Run {run_id}" in str(title.render())
        assert screen.query_one(".panel-table").row_count > 0
    assert view_spy.threads and threading.main_thread() not in view_spy.threads


async def test_figures_made_after_the_screen_closed_are_dropped(
    tmp_path: Path, view_spy: Spy
) -> None:
    db = tmp_path / "w.db"
    run_id, _ = await asyncio.to_thread(_stopped_kontest_run, db)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        gate = threading.Event()
        view_spy.gate = gate
        try:
            screen = await _opened(pilot, run_id)
            await wait_for(pilot, view_spy.waiting.is_set)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        finally:
            gate.set()
        await wait_for(pilot, lambda: view_spy.done == 1)
        await wait_for(pilot, lambda: not any(w.node is screen for w in app.workers))
        assert not screen.settled  # never shown
        assert not any(n.severity == "error" for n in notices_of(app))
