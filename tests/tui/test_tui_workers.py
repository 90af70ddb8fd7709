"""Home's lists and the compare screen are read on worker threads: the UI thread never waits
for SQLite (a slow read does not hold up a key), a read asked for later wins over an older one
that comes back after it, and a failed read is one literal line."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Static
from tui_support import HUGE, SHORT, Spy, make_default_app, notices_of

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import StoreError, connect
from kglens_tui.tui.screens import compare as compare_screen
from kglens_tui.tui.screens import home as home_screen
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.dialogs import HelpScreen
from kglens_tui.tui.screens.home import HomeScreen

pytestmark = pytest.mark.tui

HOSTILE = "[bold red]locked[/]\nby [link=x]another[/link]"
"""An error text with markup and a newline: shown literally, on one line."""


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


@pytest.fixture
def home_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(home_screen.read_home)
    monkeypatch.setattr(home_screen, "read_home", spy)
    return spy


@pytest.fixture
def compare_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(compare_screen.read_compare)
    monkeypatch.setattr(compare_screen, "read_compare", spy)
    return spy


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two small stored runs on the Country KG (two simulated models)."""
    db = tmp_path_factory.mktemp("workers") / "w.db"
    conn = connect(db)
    for target in ("sim:3", "sim:7"):
        config = RunConfig(kg="country", subset="paper16", target=target, iterations=2)
        run_blocking(prepare(conn, config=config))
    conn.close()
    return db


async def test_home_reads_off_the_ui_thread_and_a_slow_read_does_not_hold_a_key(
    tmp_path: Path, home_spy: Spy
) -> None:
    app = make_default_app(tmp_path / "w.db")
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        home = app.screen
        assert home_spy.threads
        assert all(t is not threading.main_thread() for t in home_spy.threads)
        gate = threading.Event()
        home_spy.gate = gate
        try:
            await pilot.press("ctrl+r")
            await wait_for(pilot, home_spy.waiting.is_set)
            await pilot.press("question_mark")  # handled while the read waits
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert not gate.is_set() and home._reading == 1
        finally:
            gate.set()
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is home and home._reading == 0)
        assert "Knowledge graphs (1)" in text_of(home, "#kgs-title")


async def test_home_drops_a_read_that_comes_back_after_a_newer_one(
    tmp_path: Path, home_spy: Spy
) -> None:
    app = make_default_app(tmp_path / "w.db")
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        home = app.screen
        gate = threading.Event()
        home_spy.gate = gate
        home_spy.then = lambda read: dataclasses.replace(read, kgs=[])  # what it would show
        try:
            await pilot.press("ctrl+r")  # the older read: slow
            await wait_for(pilot, home_spy.waiting.is_set)
            shown = home._shown
            await pilot.press("ctrl+r")  # the newer: shown first
            await wait_for(pilot, lambda: home._shown > shown and home._reading == 1)
        finally:
            gate.set()
        await wait_for(pilot, lambda: home._reading == 0)
        await pilot.pause()
        assert "Knowledge graphs (1)" in text_of(home, "#kgs-title")
        assert home.query_one("#kgs").row_count == 1


async def test_a_failed_home_read_is_one_literal_line(tmp_path: Path, home_spy: Spy) -> None:
    app = make_default_app(tmp_path / "w.db")
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
        home = app.screen
        home_spy.fail = StoreError(HOSTILE)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "Could not" in text_of(home, "#banner"))
        one_line = HOSTILE.replace("\n", "⏎")
        assert text_of(home, "#banner") == f"Could not read the runs: {one_line}"
        assert not notices_of(app)  # said once, where the banner is (not every 2 s)
        assert app.is_running and home._reading == 0


async def test_compare_reads_off_the_ui_thread_and_the_newest_read_wins(
    two_runs: Path, compare_spy: Spy
) -> None:
    app = make_default_app(two_runs)
    async with app.run_test(size=HUGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        gate = threading.Event()
        compare_spy.gate = gate
        compare_spy.then = lambda read: dataclasses.replace(read, status="STALE")
        screen = CompareScreen(1)
        app.push_screen(screen)
        try:
            await wait_for(pilot, compare_spy.waiting.is_set)
            assert text_of(screen, "#cmp-status") == compare_screen.READING  # shows at once
            await pilot.press("o")  # a newer read (raw rates) while the first waits
            await wait_for(pilot, lambda: screen.loaded)
        finally:
            gate.set()
        assert all(t is not threading.main_thread() for t in compare_spy.threads)
        assert len(compare_spy.threads) == 2
        await wait_for(pilot, lambda: compare_spy.done == 2)  # the older read is back too
        await pilot.pause()
        await pilot.pause()
        assert screen.loaded and not screen.adjusted
        assert "edges examined by both" in text_of(screen, "#cmp-status")
        assert screen.run_b == 2 and screen.query_one("#cmp-grid").row_count == 2


async def test_a_failed_compare_read_is_one_literal_line(two_runs: Path, compare_spy: Spy) -> None:
    app = make_default_app(two_runs)
    async with app.run_test(size=HUGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        compare_spy.fail = StoreError(HOSTILE)
        screen = CompareScreen(1)
        app.push_screen(screen)
        await wait_for(pilot, lambda: app.screen is screen and screen.is_mounted)
        await wait_for(pilot, lambda: "Could not" in text_of(screen, "#cmp-status"))
        one_line = HOSTILE.replace("\n", "⏎")
        assert text_of(screen, "#cmp-status") == f"Could not read the runs to compare: {one_line}"
        assert not notices_of(app) and app.screen is screen
