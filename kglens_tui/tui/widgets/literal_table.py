"""The app's data table: string cells are data, shown literally, never parsed as markup."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual._two_way_dict import TwoWayDict
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.geometry import Size
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


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
NO_VALUE = ("", "—", "-", "?", "n/a")
"""Cells that hold no value: sorted last whichever way a column is sorted."""
ARROWS = {False: " ▲", True: " ▼"}
"""Marks the sorted column's title: ascending, descending."""


def sort_value(cell: Any) -> tuple[int, float, str]:
    """How a cell sorts: by its first number where it starts with one ("62.3% [58, 66]",
    "1,234 of 2,000"), else by its text, case aside; a cell without a value after both."""
    plain = (cell.plain if isinstance(cell, Text) else str(cell)).strip()
    if plain.casefold() in NO_VALUE:
        return (2, 0.0, "")
    found = _NUMBER.match(plain)
    if found:
        return (0, float(found.group().replace(",", "")), plain.casefold())
    return (1, 0.0, plain.casefold())


class LiteralDataTable(DataTable[CellType]):
    """A `DataTable` for untrusted text: pass styled cells as `rich.text.Text`; any `str` cell or
    column label is shown as-is on one line, with control characters made visible.

    A sortable table (``sortable=True``) sorts by a column when its title is clicked (again:
    the other way; a third time: the table's own order), or with ``]`` (the next column) and
    ``[`` (the other way); the order holds as the rows are filled or synced anew."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "sort_next", "Sort", show=False),
        Binding("left_square_bracket", "sort_flip", "Reverse", show=False),
    ]

    def __init__(self, *args: Any, sortable: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.sortable = sortable
        self.sorted_by: tuple[int, bool] | None = None
        """(column index, descending) of the order shown; None: the rows as given."""
        self._given: list[str] = []
        """Row keys in the order the caller gave them (the natural order)."""
        self._titles: dict[ColumnKey, tuple[Text, int]] = {}
        """Each column's title and width without the sort mark."""
        self._marked: tuple[int, bool] | None = None
        """The `sorted_by` the titles show."""

    def watch_virtual_size(self, old: Size, new: Size) -> None:
        """Lay the table out again once its rows are measured (when it is next idle), for a
        table as high as its rows: the measure's own layout request is lost when one is still
        pending, and the screen keeps the height it laid out before, no height at all for rows
        added since (the annotation report's disagreements on a busy machine)."""
        if old.height != new.height and self.styles.height and self.styles.height.is_auto:
            self.call_after_refresh(self.refresh, layout=True)

    def clear(self, columns: bool = False) -> LiteralDataTable[CellType]:
        if columns:
            self._titles.clear()
        super().clear(columns)
        return self

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
        self._given = [row_key.value for row_key in self.rows if row_key.value is not None]
        self._apply_sort()

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
        columns = list(self.columns.values())
        for key, cells in rows.items():
            if key not in self.rows:
                self.add_row(*cells, key=key, height=height)
                continue
            for column, old, new in zip(columns, self.get_row(key), cells, strict=True):
                new = _cell(new)
                if old != new:
                    # a column widens for a wider cell but never narrows here: narrowing
                    # measures the whole column again, for every cell changed
                    wider = cell_width(new) > column.content_width
                    super().update_cell(key, column.key, new, update_width=wider)
        self._given = list(rows)
        self._order(self._sorted(self._given))
        self._show_sort()
        self.select_key(selected)

    def set_widths(self, widths: Sequence[int]) -> None:
        """Give the columns these widths, in order, the rows and cursor kept (`clear` would
        put the cursor back on the first row)."""
        changed = False
        for index, ((key, column), width) in enumerate(
            zip(self.columns.items(), widths, strict=True)
        ):
            if key in self._titles:  # a sortable table's: its title's own width, then its mark
                self._titles[key] = (self._titles[key][0], width)
                width += len(self._mark(index, self._marked))
            if column.width != width or column.auto_width:
                column.width, column.auto_width, changed = width, False, True
        if changed:
            self._require_update_dimensions = True
            self._update_count += 1
            self.refresh()

    def sort_by(self, column: int | None, descending: bool = False) -> None:
        """Show the rows ordered by this column (None: as given), the cursor on its row."""
        self.sorted_by = None if column is None else (column, descending)
        self._apply_sort()

    def action_sort_next(self) -> None:
        """Sort by the next column, ascending; past the last, the rows as given."""
        if not self.sortable or not self.columns:
            return
        column = 0 if self.sorted_by is None else self.sorted_by[0] + 1
        self.sort_by(column if column < len(self.columns) else None)

    def action_sort_flip(self) -> None:
        """Sort the other way by the sorted column (by the first when none is)."""
        if not self.sortable or not self.columns:
            return
        column, descending = self.sorted_by or (0, True)
        self.sort_by(column, not descending)

    @on(DataTable.HeaderSelected)
    def _header_clicked(self, event: DataTable.HeaderSelected) -> None:
        """A click on a title: sort by it; again, the other way; a third time, as given."""
        if not self.sortable:
            return
        event.stop()
        column = event.column_index
        if self.sorted_by is None or self.sorted_by[0] != column:
            self.sort_by(column)
        elif not self.sorted_by[1]:
            self.sort_by(column, True)
        else:
            self.sort_by(None)

    def _sorted(self, keys: list[str]) -> list[str]:
        if self.sorted_by is None or not keys:
            return keys
        column, descending = self.sorted_by
        if column >= len(self.columns):
            return keys
        column_key = list(self.columns)[column]
        values = {key: sort_value(self.get_cell(key, column_key)) for key in keys}
        have = sorted((k for k in keys if values[k][0] < 2), key=values.__getitem__)
        if descending:
            have.reverse()
        return have + [k for k in keys if values[k][0] == 2]  # no value: last either way

    def _apply_sort(self) -> None:
        selected = self.selected_key()
        keys = [row_key.value for row_key in self.rows if row_key.value is not None]
        if len(keys) == self.row_count:  # rows added without keys keep their order
            present = set(keys)
            given = [k for k in self._given if k in present] or keys
            self._order(self._sorted(given))
        self._show_sort()
        self.select_key(selected)

    def _show_sort(self) -> None:
        """Mark the sorted column's title with its direction (nothing to do when the titles
        already show the order: a live table syncs its rows every refresh)."""
        if not self.sortable or (
            self._marked == self.sorted_by and self._titles.keys() == self.columns.keys()
        ):
            return
        for index, (key, column) in enumerate(self.columns.items()):
            title, base = self._titles.setdefault(key, (column.label.copy(), column.width))
            mark = self._mark(index, self.sorted_by)
            column.label = title.copy()
            column.label.append(mark)
            if not column.auto_width:
                column.width = base + len(mark)  # the mark never cuts the title
        self._marked = self.sorted_by
        self._require_update_dimensions = True
        self._update_count += 1
        self.refresh()

    @staticmethod
    def _mark(index: int, order: tuple[int, bool] | None) -> str:
        """The mark of column ``index``'s title under ``order`` (`sorted_by`): its direction
        if it is the sorted column, else ''."""
        return ARROWS[order[1]] if order is not None and order[0] == index else ""

    def _order(self, keys: list[str]) -> None:
        """Put the rows in this order (as `DataTable.sort` does, by key rather than by value)."""
        by_value = {row_key.value: row_key for row_key in self.rows}
        wanted = {by_value[value]: index for index, value in enumerate(keys)}
        if all(self._row_locations.get(row) == index for row, index in wanted.items()):
            return
        self._row_locations = TwoWayDict(wanted)
        self._update_count += 1
        self.refresh()
