"""The adjudication screen reads its round (labels, agreement) on a worker thread (#37 item 2):
it shows at once, the list fills in when the read is in, and t redraws without reading again."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import _hand_db
from conftest import wait_for
from tui_support import LARGE, Spy, make_default_app

from kglens_tui.tui.screens import annotate_adjudication
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen

pytestmark = pytest.mark.tui


async def test_the_round_is_read_off_the_ui_thread_and_t_needs_no_new_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy = Spy(annotate_adjudication.round_results)
    monkeypatch.setattr(annotate_adjudication, "round_results", spy)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        gate = threading.Event()
        spy.gate = gate
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, AdjudicationScreen))
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        await wait_for(pilot, spy.waiting.is_set)
        assert not screen.loaded and screen.selected() is None
        gate.set()
        await wait_for(pilot, lambda: screen.loaded and screen.selected() is not None)
        assert all(t is not threading.main_thread() for t in spy.threads)
        reads, listed = spy.done, screen.query_one("#adj-items").row_count
        await pilot.press("t")
        await wait_for(pilot, lambda: screen.query_one("#adj-items").row_count != listed)
        assert spy.done == reads
