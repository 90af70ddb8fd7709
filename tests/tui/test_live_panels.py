"""The one live screen shows the panels a mode declares (`Mode.live_panels`): the toy mode's,
KONTEST's and fact-eval's, cells literal (markup and escapes as text), a panel's table updated
in place so its cursor stays on its row."""

from __future__ import annotations

import asyncio
import dataclasses
import html
import re
from pathlib import Path

import pytest
from conftest import wait_for
from toy_mode import ToyConfig, ToyMetrics
from tui_support import HUGE, SMALL, make_app

from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.registry import get_mode
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui

HOSTILE = "[bold]x[/] \x1b[2J"
"""A reply with markup and a terminal escape (clears the screen)."""


class Hostile:
    """A target whose every reply is `HOSTILE`."""

    label = "hostile"
    simulated = False

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion(HOSTILE, 5, 1, 0.0)

    async def aclose(self) -> None:
        return None


def _run(db: Path, config: ModeConfig, target: object | None = None):
    """A finished run of ``config`` stored in ``db``, and its final snapshot."""
    conn = connect(db)
    try:
        return run_blocking(prepare(conn, config=config, target=target))
    finally:
        conn.close()


def _drawn(app) -> str:
    """The screen's text as drawn (the screenshot without its markup)."""
    return html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot())).replace("\xa0", " ")


async def _panel(pilot, run_id: int, key: str) -> LiteralDataTable:
    """Open run ``run_id`` and wait for its panel ``key``'s table to be filled."""
    app = pilot.app
    await pilot.pause()
    app.open_run(run_id)
    await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen) and app.screen.settled)
    tables = app.screen.query(f"#panel-{key} LiteralDataTable").results(LiteralDataTable)
    table = next(tables, None)
    assert table is not None and table.row_count > 0
    return table


def _rows(table: LiteralDataTable) -> dict[str, list[str]]:
    return {str(key.value): [str(c) for c in table.get_row(key)] for key in table.rows}


async def test_the_toy_modes_panel_shows_a_hostile_reply_literally(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    final = await asyncio.to_thread(
        _run, db, ToyConfig(kg="country", edges=4, concurrency=1), Hostile()
    )
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        table = await _panel(pilot, final.run_id, "toy")
        rows = _rows(table)
        assert rows["yes"] == ["yes", "0"] and rows["answered"] == ["answered", "4"]
        assert rows["latest"] == ["latest reply", "[bold]x[/] ␛[2J"]
        await pilot.pause()
        drawn = _drawn(app)
        assert "Toy answers" in drawn and "toy notes" in drawn
        assert "[bold]x[/] ␛[2J" in drawn and "\x1b" not in drawn


@pytest.mark.parametrize("mode", ["kontest", "facteval"])
async def test_a_sim_run_shows_its_modes_panels(tmp_path: Path, mode: str) -> None:
    db = tmp_path / "w.db"
    config: ModeConfig = (
        KontestConfig(kg="country", relations=6, target="sim")
        if mode == "kontest"
        else FactevalConfig(kg="country", facts=4, target="sim")
    )
    final = await asyncio.to_thread(_run, db, config)
    (panel,) = get_mode(mode).live_panels(final)
    app = make_app(db)
    async with app.run_test(size=HUGE) as pilot:
        table = await _panel(pilot, final.run_id, panel.key)
        assert [str(c.label) for c in table.columns.values()] == list(panel.columns)
        assert _rows(table) == {row.key: list(row.cells) for row in panel.rows}
        progress = str(app.screen.query_one("#mode-progress").render())
        assert panel.notes and all(note in progress for note in panel.notes)
        await wait_for(pilot, lambda: panel.title in _drawn(app))  # drawn at the next refresh


class Changing:
    """A stored run as a live screen follows it, its snapshot replaced by the test."""

    live, error = False, ""

    def __init__(self, snap) -> None:
        self.snap, self.mode, self.run_id = snap, snap.mode, snap.run_id

    def snapshot(self):
        return self.snap


async def test_a_panels_table_keeps_its_cursor_row_across_refreshes(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    final = await asyncio.to_thread(
        _run, db, ToyConfig(kg="country", edges=4, concurrency=1), Hostile()
    )
    run = Changing(final)
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = LiveScreen(None, stored=run)
        app.push_screen(screen)
        await wait_for(pilot, lambda: screen.settled)
        table = screen.query_one("#panel-toy LiteralDataTable", LiteralDataTable)
        table.focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: table.selected_key() == "answered")
        metrics = ToyMetrics(yes=7, answered=9)
        run.snap = dataclasses.replace(final, units_done=final.units_done + 1, metrics=metrics)
        await wait_for(pilot, lambda: _rows(table).get("answered") == ["answered", "9"])
        assert _rows(table)["yes"] == ["yes", "7"]
        assert table.selected_key() == "answered" and table.cursor_row == 1
