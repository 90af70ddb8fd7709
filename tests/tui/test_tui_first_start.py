"""A workspace's first start imports the default bundled KG on a worker thread (#37 item 2):
home shows at once and lists the KG when the import is in; a KG imported meanwhile by another
connection is no error."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import LARGE, make_app

from kglens_tui.kg import bundled
from kglens_tui.kg.bundled import ensure_kg, kg_exists
from kglens_tui.store.connection import connect
from kglens_tui.tui import app as app_module
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.new_run import NewRunScreen

pytestmark = pytest.mark.tui


async def test_home_shows_before_the_bundled_kg_is_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, importing = threading.Event(), threading.Event()
    real = app_module.ensure_kg

    def held(conn, name):  # type: ignore[no-untyped-def]
        importing.set()
        release.wait(60)
        return real(conn, name)

    monkeypatch.setattr(app_module, "ensure_kg", held)
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and importing.is_set())
        home = app.screen
        assert isinstance(home, HomeScreen)
        await wait_for(pilot, lambda: home.loaded)
        assert "country" not in home._kgs and app.setting_up
        await pilot.press("n")  # the form reads the KG's subsets: it opens once the KG is in
        await pilot.pause()
        assert app.screen is home
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen))
        await wait_for(pilot, lambda: "country" in home._kgs)
        assert not app.setting_up


def test_a_kg_imported_meanwhile_by_another_connection_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = connect(tmp_path / "w.db"), connect(tmp_path / "w.db")
    assert ensure_kg(first, "country") is not None
    monkeypatch.setattr(bundled, "kg_exists", lambda conn, name: False)  # checked before
    assert ensure_kg(second, "country") is None
    assert kg_exists(second, "country")
    first.close()
    second.close()
