"""The app's data table: string cells are data, shown literally, never parsed as markup."""

from __future__ import annotations

from typing import Any

from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, ColumnKey, RowDoesNotExist, RowKey

from kglens_tui.core.safetext import literal


def _cell(value: Any) -> Any:
    return literal(value, one_line=True) if isinstance(value, str) else value


class LiteralDataTable(DataTable[CellType]):
    """A `DataTable` for untrusted text: pass styled cells as `rich.text.Text`; any `str` cell or
    column label is shown as-is on one line, with control characters made visible."""

    def add_column(self, label: Any = None, **kw: Any) -> ColumnKey:
        return super().add_column(_cell(label), **kw)

    def add_row(self, *cells: CellType, **kw: Any) -> RowKey:
        return super().add_row(*(_cell(c) for c in cells), **kw)

    def selected_key(self) -> str | None:
        """The key of the row under the cursor, or None in an empty table."""
        if self.row_count == 0:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value

    def select_key(self, key: str | None) -> None:
        """Put the cursor back on the row with this key (after a refill), if it is still there;
        a refill keeps the cursor on the same run or round, not on the same row number."""
        if key is None:
            return
        try:
            row = self.get_row_index(key)
        except RowDoesNotExist:
            return
        self.move_cursor(row=row, animate=False, scroll=True)

    def update_cell(
        self, row_key: RowKey | str, column_key: ColumnKey | str, value: CellType, **kw: Any
    ) -> None:
        super().update_cell(row_key, column_key, _cell(value), **kw)

    def update_cell_at(self, coordinate: Coordinate, value: CellType, **kw: Any) -> None:
        super().update_cell_at(coordinate, _cell(value), **kw)
