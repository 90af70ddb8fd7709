"""Home and the rounds list keep their cursor on the same run / round (by id, not by row number)
when the list is refilled: on return from another screen and on a refresh that adds rows."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import LARGE, make_default_app

from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen
from kglens_tui.tui.screens.annotate_progress import ProgressScreen
from kglens_tui.tui.screens.annotate_report import ReportScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui


def cursor_key(table: LiteralDataTable) -> str | None:
    """The key of the row under the table's cursor."""
    return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value


def _add_run(db: Path) -> None:
    conn = connect(db)
    config = RunConfig(kg="country", subset="paper16", target="sim", iterations=1, batch_size=4)
    run_blocking(prepare(conn, config=config))
    conn.close()


def _add_round(db: Path, name: str) -> None:
    conn = connect(db)
    spec = ItemSpec(
        kg="country", qtype="yes_no", question="Is Vienna in Austria?", app_verdict="correct"
    )
    create_round_from_items(conn, name, [spec], annotators=("ann1", "ann2", "ann3"))
    conn.close()


async def test_home_keeps_the_selected_run_on_return_and_refresh(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    for _ in range(4):
        await asyncio.to_thread(_add_run, db)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        runs = app.screen.query_one("#runs", LiteralDataTable)
        await wait_for(pilot, lambda: runs.row_count == 4)
        while cursor_key(runs) != "1":
            await pilot.press("down")
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        assert app.screen.run_id == 1
        await asyncio.to_thread(
            _add_run, db
        )  # a new run appears while the review is open: run 1 moves down a row
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and runs.row_count == 5)
        assert cursor_key(runs) == "1"
        await pilot.press("A")
        await wait_for(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        assert app.screen.run_id == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await asyncio.to_thread(_add_run, db)
        await pilot.press("ctrl+r")
        # the refresh reads the workspace on a worker: wait for it (it failed under load)
        await wait_for(pilot, lambda: runs.row_count == 6)
        assert cursor_key(runs) == "1"


async def test_rounds_list_keeps_the_selected_round(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    for name in ("r1", "r2", "r3"):
        _add_round(db, name)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        table = app.screen.query_one("#ann-rounds-table", LiteralDataTable)
        first = cursor_key(table)
        await pilot.press("down")
        chosen = cursor_key(table)
        assert chosen != first
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ProgressScreen))
        _add_round(db, "r4")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and table.row_count == 4)
        assert cursor_key(table) == chosen
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        assert app.screen.round_id == int(chosen)
