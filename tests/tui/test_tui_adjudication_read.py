"""The adjudication screen reads its round (labels, agreement, each item's decisions) on a
worker thread (#37 item 2): it shows at once, d waits for the read, the list fills in when it is
in, and t and the cursor redraw without reading again."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import _hand_db
from conftest import wait_for
from tui_support import LARGE, Spy, make_default_app, notices_of

from kglens_tui.tui.screens import annotate_adjudication
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen, DecisionScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen

pytestmark = pytest.mark.tui


async def test_the_round_is_read_off_the_ui_thread_and_t_needs_no_new_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy = Spy(annotate_adjudication.round_results)
    monkeypatch.setattr(annotate_adjudication, "round_results", spy)
    history = Spy(annotate_adjudication.adjudication_history)
    monkeypatch.setattr(annotate_adjudication, "adjudication_history", history)
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
        await pilot.press("d", "enter")  # nothing to decide on yet
        await pilot.pause()
        assert app.screen is screen and not notices_of(app)
        gate.set()
        await wait_for(pilot, lambda: screen.loaded and screen.selected() is not None)
        reads, listed = spy.done, screen.query_one("#adj-items").row_count
        histories = history.done
        await pilot.press("t")
        await wait_for(pilot, lambda: screen.query_one("#adj-items").row_count != listed)
        seen = set()  # the cursor through every item: the decided one shows its decision
        for _ in range(screen.query_one("#adj-items").row_count):
            seen.add(str(screen.query_one("#adj-decision").render()).split("\n")[0])
            await pilot.press("down")
        assert "Decisions, latest first (the latest counts)" in seen
        assert spy.done == reads and history.done == histories  # read with the round, once
        assert all(t is not threading.main_thread() for t in spy.threads + history.threads)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DecisionScreen))
