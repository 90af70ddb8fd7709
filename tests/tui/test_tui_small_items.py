"""Small things a person meets: the palette names screens in words, the drill-down footer shows
n and g, counts agree with their nouns, the error-type dialog asks for what it wants, and a
screenshot is saved where there is no downloads folder."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from conftest import wait_for
from layout_support import app_for_screen
from textual.screen import Screen
from textual.widgets import Input
from tui_support import SMALL, notices_of

import kglens_tui.tui.screens as screens
from kglens_tui.textfmt import counted
from kglens_tui.tui.palette import screen_name
from kglens_tui.tui.screens.review_drill import DrillDownScreen, ReasonScreen

pytestmark = pytest.mark.tui


def test_counted() -> None:
    assert counted(1, "edge") == "1 edge"
    assert counted(0, "edge") == "0 edges"
    assert counted(1024, "edge") == "1,024 edges"
    assert counted(1, "entity", "entities") == "1 entity"
    assert counted(2, "entity", "entities") == "2 entities"


def _screen_classes() -> list[type[Screen]]:
    for info in pkgutil.iter_modules(screens.__path__):
        importlib.import_module(f"{screens.__name__}.{info.name}")
    found, todo = [], list(Screen.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("kglens_tui."):
            found.append(cls)
    return found


def test_the_palette_names_every_screen_in_words() -> None:
    classes = _screen_classes()
    assert DrillDownScreen in classes
    for cls in classes:
        name = screen_name(cls.__new__(cls))
        assert not re.search(r"[a-z][A-Z]", name), (cls.__name__, name)  # no "DrillDown"
    assert screen_name(DrillDownScreen.__new__(DrillDownScreen)) == "Edge drill-down"


async def test_the_drill_down_footer_shows_n_and_g_and_t_asks_for_a_number(
    templates: dict,
    tmp_path: Path,
) -> None:
    app, run_before = app_for_screen(templates, "drill_down", tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await run_before(pilot)
        assert isinstance(app.screen, DrillDownScreen)
        shown = {key for key, b in app.screen.active_bindings.items() if b.binding.show}
        assert {"n", "g"} <= shown, shown
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ReasonScreen))
        field = app.screen.query_one("#reason", Input)
        assert str(field.placeholder).startswith("1-4"), field.placeholder
        assert "1 factual" in app.screen.title_text
    assert app._exception is None


async def test_the_palettes_screenshot_is_saved_where_there_is_no_downloads_folder(
    tmp_path: Path, monkeypatch
) -> None:
    """Textual saves screenshots in ~/Downloads only, and fails where it is missing: here the
    current directory takes it, and the notification says where."""
    import kglens_tui.tui.app as app_module
    from kglens_tui.settings import Settings
    from kglens_tui.tui.app import KGLensApp

    monkeypatch.setattr(app_module, "user_downloads_path", lambda: tmp_path / "missing")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    app = KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.screen.is_mounted)
        app.deliver_screenshot()
        await wait_for(pilot, lambda: any(here.glob("*.svg")))
        await wait_for(
            pilot, lambda: any("Saved screenshot" in str(n.message) for n in notices_of(app))
        )
    assert not (tmp_path / "missing").exists()
    assert "</svg>" in next(here.glob("*.svg")).read_text(encoding="utf-8")


def _width(cell) -> int:
    from rich.cells import cell_len

    return cell_len(str(cell.render()))


async def test_every_help_keeps_its_keys_on_one_line_at_80_columns(tmp_path: Path) -> None:
    """The key column of each screen's help is as wide as its widest key: "r / z / f / c / k"
    was wrapped over three lines at 80x24."""
    from kglens_tui.settings import Settings
    from kglens_tui.tui.app import KGLensApp
    from kglens_tui.tui.screens.dialogs import HelpScreen

    helps = {
        cls.__name__: text
        for cls in _screen_classes()
        if isinstance(text := getattr(cls, "HELP", None), str) and "| --- |" in text
    }  # each screen's table of keys (a help given by a property is the screen's own)
    assert "ReviewScreen" in helps and "AnnotateScreen" in helps
    app = KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: app.screen.is_mounted)
        for name, text in helps.items():
            dialog = HelpScreen(text)
            app.push_screen(dialog)
            await wait_for(pilot, lambda d=dialog: d.is_mounted and bool(d.query(".cell")))
            await pilot.pause()
            keys = [c for c in dialog.query(".cell") if (c.name or "").endswith(".1")]
            assert keys, name
            # a row is as tall as its action: a key is whole on one line when its cell is as
            # wide as its text
            wrapped = [str(c.render()) for c in keys if c.content_size.width < _width(c)]
            assert not wrapped, (name, wrapped)
            app.pop_screen()
            await wait_for(pilot, lambda d=dialog: app.screen is not d)
