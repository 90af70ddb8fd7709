"""Progress of a round: done of total per annotator and time per item, refreshed as labels come in."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from kglens_tui.annotate.progress import AnnotatorProgress, progress
from kglens_tui.annotate.rounds import Round, get_round
from kglens_tui.core.safetext import literal, markup_literal, visible
from kglens_tui.textfmt import counted
from kglens_tui.tui.format import BREAKPOINTS, duration
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

PROGRESS_HELP = """\
## Progress

Per annotator: items handled (labelled or skipped) of those assigned, flags, the time recorded
over all their revisions and the mean time per handled item (a day at most per item: an
import with more is refused). The bar narrows, and on a narrow screen is left out, so the
figures always fit. Refreshes every few seconds.

| key | action |
| --- | --- |
| `ctrl+r` | refresh now |
| `escape` | back |
"""

REFRESH_S = 3.0
READ_GROUP = "round-progress"
"""The worker that reads the round's progress."""
BAR_WIDTH = 24
MIN_BAR_WIDTH = 8
"""Narrower than this, the bar is left out: the figures beside it say the same."""
SIDE_ROOM = 4
"""Columns the table cannot use: the pane's padding and a vertical scrollbar."""
COLUMNS = ("of total", "%", "labelled", "skipped", "flagged", "time", "per item")
"""The figures' columns, after the annotator and the bar."""


def read_progress(conn: sqlite3.Connection, round_id: int) -> tuple[Round, list[AnnotatorProgress]]:
    """A round and its progress per annotator."""
    rnd = get_round(conn, round_id)
    return rnd, progress(conn, rnd.id)


def bar(share: float, width: int = BAR_WIDTH) -> Text:
    """A text progress bar."""
    full = round(max(0.0, min(share, 1.0)) * width)
    style = "green" if full == width else "cyan"
    return Text.assemble(("━" * full, style), ("━" * (width - full), "grey30"))


class ProgressScreen(ReadsOnWorkers, Screen[Any]):
    """Done of total and time per item, one row per annotator."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "app.pop_screen", "Back"),
    ]
    HELP = PROGRESS_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, round_id: int) -> None:
        super().__init__()
        self.round_id = round_id
        self._shown_bar: int | None = None
        """The bar width the table's columns were made for (None: no columns yet)."""
        self.shown: tuple[Round, list[AnnotatorProgress]] | None = None
        """The progress last read and drawn (None: being read)."""

    @property
    def loaded(self) -> bool:
        """Whether the round's progress has been read and drawn."""
        return self.shown is not None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="ann-progress-pane"):
            yield Static(f"reading round {self.round_id}…", id="ann-progress-title")
            yield LiteralDataTable(id="ann-progress", cursor_type="none", zebra_stripes=True)
            yield Static("", id="ann-progress-total")
        yield Footer()

    def on_mount(self) -> None:
        self.action_refresh()
        self.set_interval(REFRESH_S, self.action_refresh)

    def on_resize(self) -> None:
        if self.shown is not None:
            self._draw(*self.shown)

    def action_refresh(self) -> None:
        """Read the round's progress again, on a worker (`_draw` once it is in)."""
        round_id = self.round_id
        read_then(
            self,
            lambda conn: read_progress(conn, round_id),
            lambda read: self._draw(*read),
            f"reading round {round_id}'s progress",
            group=READ_GROUP,
        )

    def _draw(self, rnd: Round, rows: list[AnnotatorProgress]) -> None:
        self.shown = (rnd, rows)
        self.sub_title = visible(f"progress of round '{rnd.name}'")
        raters = rnd.settings.raters_per_item or len(rnd.annotators)
        self.query_one("#ann-progress-title", Static).update(
            f"[b]Round {rnd.id} '{markup_literal(rnd.name)}'[/] · {counted(rnd.items, 'item')} · "
            f"{counted(len(rnd.annotators), 'annotator')}, {raters} per item · majority {rnd.settings.majority} of {raters}"
        )
        table = self.query_one("#ann-progress", DataTable)
        cells = [self._cells(p) for p in rows]
        bar_width = self._bar_width(cells)
        if bar_width != self._shown_bar:
            table.clear(columns=True)
            table.add_column("annotator")
            if bar_width:
                table.add_column("done", key="bar", width=bar_width)
            for col in COLUMNS:
                heading = "done" if col == "of total" and not bar_width else col
                table.add_column(Text(heading, justify="right"), key=col)
            self._shown_bar = bar_width
        table.clear()
        for p, (name, *right) in zip(rows, cells, strict=True):
            bars = [bar(p.share, bar_width)] if bar_width else []
            table.add_row(name, *bars, *right, key=p.annotator)
        done = sum(p.done for p in rows)
        total = sum(p.total for p in rows)
        seconds = sum(p.seconds for p in rows)
        finished = sum(p.total > 0 and p.done == p.total for p in rows)
        share = done / total if total else 0.0
        self.query_one("#ann-progress-total", Static).update(
            f"All annotators: [b]{done:,} of {total:,}[/] labels ({share:.0%}) · "
            f"{finished} of {counted(len(rows), 'annotator')} finished · {duration(seconds)} recorded"
        )

    def _bar_width(self, cells: list[list[Text]]) -> int:
        """The bar's width: BAR_WIDTH, less where the screen is narrow, 0 (no bar) where even
        MIN_BAR_WIDTH would push the numbers off the screen."""
        headings = ["annotator", *COLUMNS]
        widths = [
            max([len(h), *(row[k].cell_len for row in cells)]) for k, h in enumerate(headings)
        ]
        used = sum(widths) + 2 * len(widths)  # each column has one cell of padding either side
        room = self.size.width - SIDE_ROOM - used - 2
        return min(BAR_WIDTH, room) if room >= MIN_BAR_WIDTH else 0

    @staticmethod
    def _cells(p: AnnotatorProgress) -> list[Text]:
        """The annotator's name and figures (every column but the bar)."""
        per = p.seconds_per_item
        right = [
            f"{p.done:,} of {p.total:,}",
            f"{p.share:.0%}",
            f"{p.labelled:,}",
            f"{p.skipped:,}",
            f"{p.flagged:,}",
            duration(p.seconds),
            per_item(per),
        ]
        return [literal(p.annotator), *(Text(v, justify="right") for v in right)]


def per_item(seconds: float | None) -> str:
    """Mean time per item: "12.5 s" under a minute, else as `duration` ("1m 40s", "24h 00m")."""
    if seconds is None:
        return "—"
    return f"{seconds:.1f} s" if seconds < 60 else duration(seconds)
