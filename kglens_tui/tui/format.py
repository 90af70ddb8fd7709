"""Small text formatters shared by the screens."""

from __future__ import annotations

from collections.abc import Sequence

VERDICT_STYLE = {
    "correct": "green",
    "incorrect": "red",
    "refused": "yellow",
    "unparseable": "magenta",
    "error": "dim red",
}


def duration(seconds: float | None) -> str:
    """12s, 3m 04s, 1h 02m."""
    if seconds is None or seconds != seconds or seconds < 0:
        return "—"
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"


CELL_PADDING = 2
"""Cells a DataTable column adds to its text (a cell is padded by one on either side)."""

BREAKPOINTS = [(0, "-narrow"), (130, "-wide")]
"""Screens below 130 columns (80x24, 100x30) reflow to one column or hide secondary panes."""

SHORT_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
"""Screens below 32 rows (80x24, 100x30) give their tables the rows their controls would take:
a one-line control row, no blank lines between panels."""


def fit_widths(natural: Sequence[int], room: int, shrink: Sequence[tuple[int, int]]) -> list[int]:
    """Widths of a table's columns (their cells, padding aside) that fit ``room`` cells where
    they can: each column's ``natural`` width, then the columns of ``shrink`` (index, least
    width; the first is cut first) cut in turn, each to no less than its least width. Cut cells
    end in "…" (`safetext.visible(limit=...)`); the whole text is shown elsewhere."""
    widths = list(natural)
    over = sum(widths) - room
    for index, least in shrink:
        if over <= 0:
            break
        cut = min(over, max(0, widths[index] - least))
        widths[index] -= cut
        over -= cut
    return widths
