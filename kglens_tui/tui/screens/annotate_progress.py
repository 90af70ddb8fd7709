"""Progress of a round: done of total per annotator and time per item, refreshed as labels come in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from kglens_tui.annotate.progress import AnnotatorProgress, progress
from kglens_tui.annotate.rounds import get_round
from kglens_tui.core.safetext import literal, markup_literal, visible
from kglens_tui.tui.format import duration
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

PROGRESS_HELP = """\
## Progress

Per annotator: items handled (labelled or skipped) of those assigned, flags, the time recorded
over all their revisions and the mean time per handled item. Refreshes every few seconds.

| key | action |
| --- | --- |
| `ctrl+r` | refresh now |
| `escape` | back |
"""

REFRESH_S = 3.0
BAR_WIDTH = 24


def bar(share: float, width: int = BAR_WIDTH) -> Text:
    """A text progress bar."""
    full = round(max(0.0, min(share, 1.0)) * width)
    style = "green" if full == width else "cyan"
    return Text.assemble(("━" * full, style), ("━" * (width - full), "grey30"))


class ProgressScreen(Screen):
    """Done of total and time per item, one row per annotator."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "app.pop_screen", "Back"),
    ]
    HELP = PROGRESS_HELP

    def __init__(self, round_id: int) -> None:
        super().__init__()
        self.round_id = round_id

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="ann-progress-pane"):
            yield Static("", id="ann-progress-title")
            yield LiteralDataTable(id="ann-progress", cursor_type="none", zebra_stripes=True)
            yield Static("", id="ann-progress-total")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#ann-progress", DataTable)
        table.add_column("annotator")
        table.add_column("done", width=BAR_WIDTH)
        for col in ("of total", "%", "labelled", "skipped", "flagged", "time", "per item"):
            table.add_column(Text(col, justify="right"), key=col)
        self.action_refresh()
        self.set_interval(REFRESH_S, self.action_refresh)

    def action_refresh(self) -> None:
        conn = self.app.db()
        rnd = get_round(conn, self.round_id)
        rows = progress(conn, rnd.id)
        self.sub_title = visible(f"progress of round '{rnd.name}'")
        raters = rnd.settings.raters_per_item or len(rnd.annotators)
        self.query_one("#ann-progress-title", Static).update(
            f"[b]Round {rnd.id} '{markup_literal(rnd.name)}'[/] · {rnd.items:,} items · {len(rnd.annotators)} "
            f"annotators, {raters} per item · majority {rnd.settings.majority} of {raters}"
        )
        table = self.query_one("#ann-progress", DataTable)
        table.clear()
        for p in rows:
            table.add_row(*self._cells(p), key=p.annotator)
        done = sum(p.done for p in rows)
        total = sum(p.total for p in rows)
        seconds = sum(p.seconds for p in rows)
        finished = sum(p.total > 0 and p.done == p.total for p in rows)
        share = done / total if total else 0.0
        self.query_one("#ann-progress-total", Static).update(
            f"All annotators: [b]{done:,} of {total:,}[/] labels ({share:.0%}) · "
            f"{finished} of {len(rows)} annotators finished · {duration(seconds)} recorded"
        )

    @staticmethod
    def _cells(p: AnnotatorProgress) -> list[Text | str]:
        per = p.seconds_per_item
        right = [
            f"{p.done:,} of {p.total:,}",
            f"{p.share:.0%}",
            f"{p.labelled:,}",
            f"{p.skipped:,}",
            f"{p.flagged:,}",
            duration(p.seconds),
            "—" if per is None else f"{per:.1f} s",
        ]
        return [literal(p.annotator), bar(p.share), *(Text(v, justify="right") for v in right)]
