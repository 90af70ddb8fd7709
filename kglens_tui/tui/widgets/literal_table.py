"""The app's data table: string cells are data, shown literally, never parsed as markup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual._two_way_dict import TwoWayDict
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, ColumnKey, RowDoesNotExist, RowKey

from kglens_tui.core.safetext import literal, visible
from kglens_tui.tui.format import CELL_PADDING, fit_widths


def _cell(value: Any) -> Any:
    return literal(value, one_line=True) if isinstance(value, str) else value


def cell_width(value: Any) -> int:
    """Cells the widest line of a table cell takes, shown as `LiteralDataTable` shows it."""
    value = _cell(value)
    plain = value.plain if isinstance(value, Text) else str(value)
    return max((cell_len(line) for line in plain.splitlines()), default=0)


def cut_cell(value: Any, width: int) -> Any:
    """A cell whose every line is at most ``width`` cells, a cut line ending in "…" (styles
    kept); a cell that fits, or one neither text nor `Text`, is returned as it is."""
    if cell_width(value) <= width:
        return value
    if isinstance(value, str):
        return visible(value, one_line=True, limit=width)
    if not isinstance(value, Text):
        return value
    out = Text(style=value.style, end="")
    for n, line in enumerate(value.split("\n", allow_blank=True)):
        if n:
            out.append("\n")
        if line.cell_len > width:
            line.truncate(width, overflow="ellipsis")
        out.append_text(line)
    return out


def fit_rows(
    columns: Sequence[Any],
    rows: Sequence[Sequence[Any]],
    room: int,
    shrink: Sequence[tuple[int, int]],
) -> list[list[Any]]:
    """The rows with their text cut to fit a table ``room`` cells wide (padding included, as
    `tui.format.fit_widths` for the cells): only the columns of ``shrink`` (index, least width;
    the first is cut first) are cut, each cut line ending in "…"; the others, numbers among
    them, stay whole (the table scrolls sideways when they do not fit)."""
    natural = [
        max([cell_width(label), *(cell_width(row[i]) for row in rows if i < len(row))])
        for i, label in enumerate(columns)
    ]
    shrink = [(i, min(natural[i], least)) for i, least in shrink]
    widths = fit_widths(natural, room - CELL_PADDING * len(columns), shrink)
    return [[cut_cell(cell, max(widths[i], 1)) for i, cell in enumerate(row)] for row in rows]


class LiteralDataTable(DataTable[CellType]):
    """A `DataTable` for untrusted text: pass styled cells as `rich.text.Text`; any `str` cell or
    column label is shown as-is on one line, with control characters made visible."""

    def add_column(self, label: Any = None, **kw: Any) -> ColumnKey:
        return super().add_column(_cell(label), **kw)

    def add_row(self, *cells: CellType, **kw: Any) -> RowKey:
        return super().add_row(*(_cell(c) for c in cells), **kw)

    def fill(
        self,
        columns: Sequence[Any],
        rows: Sequence[Sequence[CellType]],
        keys: Sequence[str] | None = None,
        *,
        height: int = 1,
    ) -> None:
        """The table's columns and rows anew, each column as wide as its widest line now. The
        table's own auto widths come only once it is idle, and after a clear they can stay
        those of the labels alone, which cut numbers mid-digit; callers fit the cells to the
        screen first (numbers whole, text cut with "…": `tui.format.fit_widths`)."""
        self.clear(columns=True)
        for i, label in enumerate(columns):
            widths = [cell_width(row[i]) for row in rows if i < len(row)]
            self.add_column(label, width=max([cell_width(label), *widths]))
        for n, row in enumerate(rows):
            self.add_row(*row, key=None if keys is None else keys[n], height=height)

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

    def sync_rows(self, rows: Mapping[str, Sequence[CellType]], *, height: int = 1) -> None:
        """Make the table show these rows (key: cells), in this order, in place: the cells that
        changed are updated, rows gone are removed and new ones added, so the cursor stays on
        its row (by key; the scroll follows only if the row moved out of view), where
        `clear` would put it back on the first row."""
        selected = self.selected_key()
        for gone in [row_key for row_key in self.rows if row_key.value not in rows]:
            self.remove_row(gone)
        columns = list(self.columns)
        for key, cells in rows.items():
            if key not in self.rows:
                self.add_row(*cells, key=key, height=height)
                continue
            for column, old, new in zip(columns, self.get_row(key), cells, strict=True):
                new = _cell(new)
                if old != new:
                    super().update_cell(key, column, new, update_width=True)
        self._order(list(rows))
        self.select_key(selected)

    def _order(self, keys: list[str]) -> None:
        """Put the rows in this order (as `DataTable.sort` does, by key rather than by value)."""
        by_value = {row_key.value: row_key for row_key in self.rows}
        wanted = {by_value[value]: index for index, value in enumerate(keys)}
        if all(self._row_locations.get(row) == index for row, index in wanted.items()):
            return
        self._row_locations = TwoWayDict(wanted)
        self._update_count += 1
        self.refresh()
