"""Small text formatters shared by the screens."""

from __future__ import annotations

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


BREAKPOINTS = [(0, "-narrow"), (130, "-wide")]
"""Screens below 130 columns (80x24, 100x30) reflow to one column or hide secondary panes."""
