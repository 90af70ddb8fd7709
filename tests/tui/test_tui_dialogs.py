"""Dialogs fit the terminal: at 80x24 and 160x48 the quit confirmation and the error-type
question show their whole text (wrapped), with the dialog inside the screen."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import wait_for
from rich.cells import cell_len
from textual.widgets import Label
from tui_support import notices_of

from kglens_tui.analysis.triage import ERROR_TYPES
from kglens_tui.settings import Settings
from kglens_tui.tui.app import KGLensApp, quit_question
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.review_drill import ReasonScreen

pytestmark = pytest.mark.tui

RUNNING_PROBE: Any = SimpleNamespace(
    mode="kglens", snapshot=lambda: SimpleNamespace(uncommitted=SimpleNamespace(requests=1054))
)
"""A KGLens run's session as the quit question reads it, with 1,054 replies in."""
CHOICES = " · ".join(f"{i} {t.replace('_', ' ')}" for i, t in enumerate(ERROR_TYPES, 1))


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize(
    "dialog",
    [
        lambda: ConfirmScreen(quit_question(RUNNING_PROBE)),
        lambda: ReasonScreen(f"Error type of this reply: {CHOICES}", "1-4 or a name"),
    ],
)
async def test_dialog_text_fits(tmp_path: Path, size: tuple[int, int], dialog) -> None:
    app = KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=size) as pilot:
        screen = dialog()
        app.push_screen(screen)
        await pilot.pause()
        title = screen.query_one(".dialog-title", Label)
        box = screen.query_one(".dialog")
        text = str(title.render())
        assert box.region.right <= size[0] and box.region.bottom <= size[1]
        assert title.region.right <= box.region.right
        # every character of the title is on screen: its lines hold the whole text
        assert title.content_region.width * title.content_region.height >= cell_len(text)
        assert title.content_region.width < cell_len(text) or title.content_region.height == 1


async def test_a_kglens_error_that_reaches_the_app_is_a_notification(tmp_path: Path) -> None:
    from kglens_tui.core.errors import KGLensError
    from kglens_tui.tui.screens.home import HomeScreen

    class Refused(KGLensError):
        pass

    app = KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=(100, 30)) as pilot:
        home = app.screen
        assert isinstance(home, HomeScreen)
        await wait_for(pilot, lambda: not app.setting_up)  # it refreshes home when done

        def refuse() -> None:
            raise Refused("run 3 is held by another process")

        home.action_refresh = refuse  # type: ignore[method-assign]
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: notices_of(app))
        assert app.is_running and app.screen is home
        assert [n.message for n in notices_of(app)] == ["run 3 is held by another process"]
