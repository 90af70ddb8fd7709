"""The app's header (`TitleHeader`) lets its title change after its title widget is gone, where
Textual's own `Header` raises NoMatches (a screen mounted as the app quits ended it with a
traceback)."""

from __future__ import annotations

import pytest
from conftest import wait_for
from textual.app import App, ComposeResult
from textual.widgets import Header
from textual.widgets._header import HeaderTitle

from kglens_tui.tui.widgets.title_header import TitleHeader

pytestmark = pytest.mark.tui


class _Titled(App[None]):
    def __init__(self, header: type[Header]) -> None:
        super().__init__()
        self.header = header

    def compose(self) -> ComposeResult:
        yield self.header()


@pytest.mark.parametrize("header", [TitleHeader, Header])
async def test_a_title_set_after_the_headers_title_is_gone(header: type[Header]) -> None:
    app = _Titled(header)
    failed: list[BaseException] = []
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(app.query(HeaderTitle)))
        app.query_one(header).query_one(HeaderTitle).update("shown")
        await app.query_one(HeaderTitle).remove()
        app._handle_exception = failed.append  # type: ignore[method-assign]
        app.title = "a new title"
        if header is Header:  # Textual's own: wait for its failure
            await wait_for(pilot, lambda: bool(failed))
        else:  # ours: nothing happens to wait for; let the watcher run
            await pilot.pause()
            await pilot.pause()
    assert bool(failed) == (header is Header)  # Textual's own raises; the app's does not
    assert all("HeaderTitle" in str(e) for e in failed)
