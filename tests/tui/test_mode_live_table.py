"""The KONTEST metrics table of the mode live screen fits an 80-column terminal with every
figure: each oracle's inconsistent tests over its n, the rate with its interval, the coin's
and the coin at the yes-rate, the invalid and failed tests; at 160x48 too."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import DataTable
from tui_support import SMALL, make_app

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.modes import KontestConfig
from kglens_tui.modes.kontest.live import COLUMNS as KONTEST_COLUMNS
from kglens_tui.runs.panels import Panel, PanelRow
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.live_units import PanelTable, panel_layout
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui


class Mixed:
    """Answers Yes, No, or neither (an invalid reply) in turn; the 5th request fails."""

    label = "mixed"
    simulated = False

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        if self.calls == 5:
            raise LLMError("server", "HTTP 500", retries=0)
        return Completion(("Yes.", "No.", "Perhaps.", "Yes.")[self.calls % 4], 5, 1, 0.001)

    async def aclose(self) -> None:
        return None


@pytest.fixture(scope="module")
def kontest_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """A stored KONTEST run with invalid replies and a failed request, and its final snapshot."""
    db = tmp_path_factory.mktemp("mode_live_table") / "w.db"
    conn = connect(db)
    try:
        config = KontestConfig(kg="country", relations=40, target="sim", concurrency=1)
        final = run_blocking(prepare(conn, config=config, target=Mixed()))
    finally:
        conn.close()
    return db, final


def _drawn(app) -> str:
    """The screen's text as drawn (the screenshot without its markup)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_the_kontest_table_fits_the_screen_with_every_figure(
    kontest_db: tuple[Path, object], size: tuple[int, int]
) -> None:
    db, final = kontest_db
    metrics = final.metrics
    assert any(o.invalid for o in metrics.oracles) and any(o.errors for o in metrics.oracles)
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.open_run(final.run_id)

        def filled() -> bool:
            screen = app.screen
            tables = screen.query(".panel-table") if isinstance(screen, LiveScreen) else []
            return bool(tables) and tables[0].row_count == len(metrics.oracles) + 1

        await wait_for(pilot, filled)
        await pilot.pause()
        table = app.screen.query_one(".panel-table", DataTable)
        # no sideways scrolling: the columns fit the table's width
        assert table.virtual_size.width <= table.scrollable_content_region.width, (
            table.virtual_size,
            table.scrollable_content_region,
        )
        assert table.max_scroll_x == 0 and table.region.right <= size[0]
        assert table.region.height >= table.row_count + table.header_height  # nothing hidden

        rows = {str(table.get_row_at(i)[0]): table.get_row_at(i) for i in range(table.row_count)}
        for o in metrics.oracles:
            row = [str(c) for c in rows[o.oracle]]
            assert row[1] == f"{o.inconsistent}/{o.valid}"
            assert row[2].startswith(pct(o.inconsistent / o.valid) if o.valid else "—")
            assert row[3] == (
                f"{pct(metrics.coin_error_rate(o.oracle))} · "
                f"{pct(metrics.coin_error_rate(o.oracle, at_yes_rate=True))}"
            )
            assert row[4] == f"{o.invalid} · {o.errors}"
        gap = metrics.coverage.gap_both_rate
        assert [str(c) for c in rows["knowledge gap (both)"]][1] == f"{gap.k}/{gap.n}"

        drawn = _drawn(app)
        lines = drawn.splitlines()
        # every column's label is on the screen, whole (each over at most two lines)
        header = next(i for i, line in enumerate(lines) if "oracle" in line and "incons." in line)
        head = lines[header] + " " + lines[header + 1]
        for label in KONTEST_COLUMNS:
            assert all(word in head for word in label.split()), (label, head)
        # and every cell of every row, on its row's line
        for cells in rows.values():
            assert any(all(str(c) in line for c in cells) for line in lines), (cells, drawn)


async def test_at_80x24_a_long_label_in_the_metrics_table_ends_in_an_ellipsis(
    kontest_db: tuple[Path, object],
) -> None:
    """A mode's row label too long for the screen is cut with "…"; its numbers stay whole."""
    db, final = kontest_db
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.open_run(final.run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        screen = app.screen
        await wait_for(pilot, lambda: bool(screen.query(".panel-table")))
        table = screen.query_one(".panel-table", LiteralDataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        columns = ("predicate", "answers / asked", "rate [95% CI]")
        rows = [("Lorem" + "x" * 90, "1,234,567/2,345,678", "12.3% [10.1–14.6]")]
        panel = Panel("oracles", "long", columns, (PanelRow("x", rows[0]),), shrink=((0, 8),))
        layout = panel_layout(app.console, panel, screen.size.width - 2)
        screen.query_one(PanelTable).show(layout)
        await wait_for(pilot, lambda: table.row_count == 1)
        await pilot.pause()
        label, counts, rate = (str(c) for c in table.get_row_at(0))
        assert label.startswith("Lorem") and label.endswith("…")
        assert (counts, rate) == rows[0][1:]
        assert table.max_scroll_x == 0 and table.region.right <= 80
        widths = [c.width for c in table.columns.values()]
        assert len(label) == widths[0]


async def test_a_panel_being_removed_ignores_a_late_layout(
    kontest_db: tuple[Path, object],
) -> None:
    """A view that arrives while a panel is being removed (its children go first) is dropped,
    not an error: the screen may hand a panel a layout between its children's and its own
    removal (a full run once failed with "No nodes match '.panel-title'")."""
    db, final = kontest_db
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.open_run(final.run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        screen = app.screen
        await wait_for(pilot, lambda: bool(screen.query(".panel-table")))
        panel = screen.query_one(PanelTable)
        await wait_for(pilot, lambda: panel.drawn)
        await panel.remove_children()
        assert not panel.query(".panel-title")
        layout = panel_layout(
            app.console,
            Panel("oracles", "late", ("a", "b"), (PanelRow("x", ("1", "2")),)),
            screen.size.width - 2,
        )
        panel.show(layout)
        assert panel.panel is layout
