"""What a mode shows of a run, declared as data and headless: its live screen's panels beside the
progress (`Mode.live_panels`; the screen lays them out and updates their tables in place) and
its stored run's report (`Mode.report_panels`; one renderer per medium shows them: a rich table
for the command line and the results screen, an HTML table for the HTML report)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum


class LiveLayout(StrEnum):
    """Which parts a mode's live screen is made of (`Mode.live_layout`)."""

    PANELS = "panels"
    """Its progress, the panels it declares (`Mode.live_panels`) and its questions and
    replies: a unit mode's."""
    PROBE = "probe"
    """A probe's parts, iteration by iteration: rate cards with sparklines, the panels it
    declares (the blind spots), the per-predicate rates and a chart (its snapshots are
    KGLens's `ProbeSnapshot`)."""


@dataclass(frozen=True)
class PanelRow:
    """One row of a panel's table: literal text cells, and a key that stays the row's across
    snapshots (the screen updates the row in place, its cursor on it)."""

    key: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Panel:
    """A titled table of literal text (never markup) with a few lines beside it."""

    key: str
    """Stays the panel's across snapshots (the screen keeps its table)."""
    title: str
    columns: tuple[str, ...] = ()
    rows: tuple[PanelRow, ...] = ()
    header: int = 1
    """The lines the column titles may wrap to (their columns are only as wide as that needs)."""
    shrink: tuple[tuple[int, int], ...] = ()
    """Columns whose text may be cut to fit (index, least width; the first cut first); the
    others (the numbers) stay whole."""
    notes: tuple[str, ...] = ()
    """Short lines shown beside the tables (the live screen: under the progress)."""
    warning: str = ""
    """A line shown as a warning under the notes ('' none)."""
    caption: str = ""
    """A report's line under the table saying what its figures are ('' none)."""
    align: str = ""
    """A report's alignment of each column, a letter a column: "l" left, "r" right (the
    figures), in capitals ("L", "R") for a column kept on one line, never wrapped or cut (a
    name the table is read by); a column past its end is left-aligned."""


def numbered_rows(rows: Iterable[Sequence[str]]) -> tuple[PanelRow, ...]:
    """A report's rows, each keyed by its position (a report is drawn once, not updated)."""
    return tuple(PanelRow(str(i), tuple(cells)) for i, cells in enumerate(rows))
