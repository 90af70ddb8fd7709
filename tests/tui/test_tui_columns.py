"""Numbers are never cut: a table's columns fit its width (text cells end in "…"), and the
tables lay out again when the terminal is resized."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for
from layout_support import app_for_screen
from textual.widgets import DataTable

from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.widgets.literal_table import cell_width

pytestmark = pytest.mark.tui


def _fits(table: DataTable) -> bool:
    """Whether every column shows whole in the table's width (nothing to scroll sideways)."""
    return table.virtual_size.width <= table.scrollable_content_region.width


@pytest.mark.parametrize(("first", "then"), [((160, 48), (80, 24)), ((80, 24), (160, 48))])
async def test_home_lays_its_lists_out_again_after_a_resize(
    templates: dict,
    tmp_path: Path,
    first: tuple[int, int],
    then: tuple[int, int],
) -> None:
    app, run_before = app_for_screen(templates, "home", tmp_path)
    async with app.run_test(size=first) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen._mark)
        await pilot.pause()
        tables = [app.screen.query_one(f"#{name}", DataTable) for name in ("kgs", "runs")]
        assert all(_fits(t) for t in tables), [(t.virtual_size, t.size) for t in tables]
        await pilot.resize_terminal(*then)
        await wait_for(pilot, lambda: app.screen.size.width == then[0])
        await pilot.pause()
        assert all(_fits(t) for t in tables), [(t.virtual_size, t.size) for t in tables]
        for table in tables:
            _whole(table)
        app.screen._draw()  # as a resize draws them: whole at once, not once the table is idle
        for table in tables:
            _whole(table)


def _whole(table: DataTable) -> None:
    """Every cell shows whole in its column (a cut one was cut by the screen, with "…")."""
    for i, column in enumerate(table.columns.values()):
        for row in range(table.row_count):
            cell = table.get_row_at(row)[i]
            assert column.get_render_width(table) >= cell_width(cell) + 2, (column.label, cell)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_analysis_table_shows_every_cell_whole(
    templates: dict,
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    """The group table's columns are sized as it is filled (the Yes/No column's "n=96" was
    seen cut at 80x24) and its layout fits the room the table has."""
    from kglens_tui.tui.screens.analysis import AnalysisScreen

    app, run_before = app_for_screen(templates, "analysis", tmp_path)
    async with app.run_test(size=size) as pilot:
        await run_before(pilot)
        assert isinstance(app.screen, AnalysisScreen)
        table = app.screen.query_one("#an-table", DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        await pilot.pause()
        assert _fits(table), (table.virtual_size, table.scrollable_content_region)
        _whole(table)
