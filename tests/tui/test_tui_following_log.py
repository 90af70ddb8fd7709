"""`FollowingLog`: a log following its newest line stays at the end when it gets shorter."""

from __future__ import annotations

import pytest
from conftest import wait_for
from textual.app import App, ComposeResult
from textual.widgets import Static

from kglens_tui.tui.widgets.following_log import FollowingLog

pytestmark = pytest.mark.tui


class _Pane(App):
    def compose(self) -> ComposeResult:
        yield Static("title", id="title")
        yield FollowingLog(id="log")


async def test_a_log_made_shorter_after_its_last_write_still_shows_its_newest_line() -> None:
    app = _Pane()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(FollowingLog)
        for i in range(60):
            log.write(f"line {i}")
        await wait_for(pilot, lambda: log.max_scroll_y > 0 and log.is_vertical_scroll_end, 60)
        before = log.max_scroll_y
        app.query_one("#title", Static).styles.height = 4  # the pane loses three lines
        await wait_for(pilot, lambda: log.max_scroll_y > before, 60)
        await wait_for(pilot, lambda: log.is_vertical_scroll_end, 60)
        assert log.scroll_y == log.max_scroll_y == before + 3
