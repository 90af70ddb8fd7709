"""Sortable tables: a click on a column's title or `]` / `[` orders the rows by that column
(numbers as numbers, cells without a value last), the cursor stays on its row, and the order
holds when the rows are filled or synced anew."""

from __future__ import annotations

import pytest
from conftest import wait_for
from rich.text import Text
from textual.app import App, ComposeResult

from kglens_tui.tui.widgets.literal_table import LiteralDataTable, sort_value

pytestmark = pytest.mark.tui

COLUMNS = ("predicate", "win rate", "n")
ROWS = {
    "capital": ["capital", "62.3% [58.1, 66.2]", "1,234"],
    "currency": ["currency", "9.5% [4.0, 15.0]", "87"],
    "language": ["language", "—", "0"],
    "anthem": ["anthem", "100.0% [90, 100]", "12"],
}


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiteralDataTable(id="t", cursor_type="row", sortable=True)

    def on_mount(self) -> None:
        table = self.query_one(LiteralDataTable)
        table.fill(COLUMNS, list(ROWS.values()), list(ROWS))
        table.focus()


def order(table: LiteralDataTable) -> list[str]:
    return [str(row.key.value) for row in table.ordered_rows]


def test_cells_sort_by_their_first_number_then_text_and_no_value_last() -> None:
    assert sort_value("87 of 90") < sort_value("1,234 of 2,000")
    assert sort_value("87") < sort_value("1,234")
    assert sort_value("9.5% [4.0, 15.0]") < sort_value("62.3% [58.1, 66.2]")
    assert sort_value(Text("-3")) < sort_value("0")
    assert sort_value("12") < sort_value("anthem") < sort_value("Zebra") < sort_value("—")


async def test_keys_sort_by_the_next_column_and_flip_and_the_cursor_stays() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(LiteralDataTable)
        await wait_for(pilot, lambda: table.row_count == 4)
        table.select_key("currency")
        await pilot.press("right_square_bracket")  # by predicate
        assert order(table) == ["anthem", "capital", "currency", "language"]
        await pilot.press("right_square_bracket")  # by win rate, the value-less last
        assert order(table) == ["currency", "capital", "anthem", "language"]
        assert table.selected_key() == "currency"
        assert str(list(table.columns.values())[1].label).endswith("▲")
        await pilot.press("left_square_bracket")
        assert order(table) == ["anthem", "capital", "currency", "language"]
        assert str(list(table.columns.values())[1].label).endswith("▼")
        await pilot.press("right_square_bracket", "right_square_bracket")  # n, then as given
        assert order(table) == list(ROWS)
        assert not any(str(c.label).endswith(("▲", "▼")) for c in table.columns.values())


async def test_a_click_on_a_title_sorts_then_reverses_then_restores() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(LiteralDataTable)
        await wait_for(pilot, lambda: table.row_count == 4)
        n_at = sum(c.get_render_width(table) for c in list(table.columns.values())[:2]) + 1
        await pilot.click(LiteralDataTable, offset=(n_at, 0))
        await wait_for(pilot, lambda: table.sorted_by == (2, False))
        assert order(table) == ["language", "anthem", "currency", "capital"]
        await pilot.click(LiteralDataTable, offset=(n_at, 0))
        await wait_for(pilot, lambda: table.sorted_by == (2, True))
        assert order(table) == ["capital", "currency", "anthem", "language"]
        await pilot.click(LiteralDataTable, offset=(n_at, 0))
        await wait_for(pilot, lambda: table.sorted_by is None)
        assert order(table) == list(ROWS)


async def test_the_order_holds_when_the_rows_are_filled_or_synced_anew() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(LiteralDataTable)
        await wait_for(pilot, lambda: table.row_count == 4)
        table.sort_by(2, descending=True)
        rows = {**ROWS, "capital": ["capital", "1.0%", "5"], "flag": ["flag", "50%", "400"]}
        table.fill(COLUMNS, list(rows.values()), list(rows))
        assert order(table) == ["flag", "currency", "anthem", "capital", "language"]
        table.select_key("anthem")
        del rows["currency"]
        rows["flag"] = ["flag", "50%", "2"]
        table.sync_rows(rows)
        assert order(table) == ["anthem", "capital", "flag", "language"]
        assert table.selected_key() == "anthem"


async def test_new_widths_keep_the_sorted_columns_mark_whole() -> None:
    """A declared panel's table takes new widths as its rows change (`set_widths`): the sorted
    column's title keeps room for its mark."""
    app = TableApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(LiteralDataTable)
        await wait_for(pilot, lambda: table.row_count == 4)
        table.sort_by(0)
        table.set_widths([9, 20, 5])
        predicate, rate, n = table.columns.values()
        assert str(predicate.label) == "predicate ▲" and predicate.width == 9 + 2
        assert (rate.width, n.width) == (20, 5)
        table.sort_by(None)
        assert str(predicate.label) == "predicate" and predicate.width == 9
