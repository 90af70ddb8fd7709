"""The live screen's parts for a unit mode (`LiveLayout.PANELS`: KONTEST, fact-eval, a plugin's):
progress, the panels the mode declares (`Mode.live_panels`) and the latest questions and
replies. `LiveScreen` composes them and shows what `mode_view` makes on a worker.

Below 130 columns the panes stack: the progress as a few lines, the panels, then the questions
and replies in what is left (at 80x24 the last two or three); `r` gives the whole screen to the
questions and replies, and again back to the panels."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from kglens_tui.core.safetext import LABEL_LIMIT, markup_literal, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import calls_text
from kglens_tui.modes import ModeSnapshot
from kglens_tui.runs.panels import Panel
from kglens_tui.runs.record import GOING
from kglens_tui.runs.registry import find_mode, mode_label
from kglens_tui.textfmt import failed_text
from kglens_tui.tui.format import CELL_PADDING, duration, fit_widths
from kglens_tui.tui.widgets.following_log import FollowingLog
from kglens_tui.tui.widgets.literal_table import LiteralDataTable, cell_width, cut_cell

UNITS_KEYS = """\
| key | action |
| --- | --- |
| `p` | pause / resume |
| `s` | stop (what is answered is kept; `r` on home resumes the rest); `s` again: stop now, without waiting for the tests in flight |
| `r` | below 130 columns: the questions and replies on the whole screen, or back to the metrics |
| `escape` | back to the runs |
"""
"""The keys of a unit mode's live screen (`LiveLayout.PANELS`)."""
UNITS_NOTE = """\
A failed request (a transport error) never counts against the model: its unit is not done
(*with a failed request*), and a resume asks it again. A run another process drives is
*followed*: the screen shows what that process commits, and `p` and `s` reach it through the
workspace.
"""
"""What every unit mode's live screen shows alike, under the mode's own help."""


def units_help(label: str, own: str) -> str:
    """A unit mode's live help: its keys, what its figures mean (``own``, its `Mode.live_help`)
    and what every unit mode's progress means."""
    return f"## {label} run\n\n{UNITS_KEYS}\n" + (f"{own}\n" if own else "") + UNITS_NOTE


LABEL_STYLE = {
    "yes": "green",
    "no": "cyan",
    "correct": "green",
    "incorrect": "red",
    "invalid": "magenta",
    "unparseable": "magenta",
    "abstained": "yellow",
    "error": "dim red",
}

MODE_VIEW_GROUP = "mode-live-view"
"""The worker that makes the figures of a mode other than KGLens (`mode_view`)."""
KEPT_BLOCKS = 200
"""Questions with their replies the feed keeps (to wrap them again when its width changes)."""
NO_REPLIES_LIVE = "No replies yet: each question and its reply shows here as it is answered."
NO_REPLIES_STORED = (
    "No stored replies to show: the questions and replies show here once the run commits them."
)
TABLE_ROOM = 2
"""Cells of the screen's width the panels' tables cannot use (a scrollbar)."""
PROGRESS_WIDTH = 40
"""The progress pane's width beside the panels from 130 columns (app.tcss `#mode-progress`)."""
FOLLOWED = "followed: another process drives it"
"""What a live screen says of a run another process drives (`_whose`)."""


class ReplyLog(FollowingLog):
    """The questions and replies, wrapped again to the log's width whenever that changes: a
    block written while the log was hidden (a narrow screen) or narrower would otherwise keep
    its old line breaks. Says ``empty`` while it has nothing to show."""

    def __init__(self, empty: str, *, id: str | None = None) -> None:
        super().__init__(wrap=True, markup=False, max_lines=400, id=id)
        self.blocks: deque[Text] = deque(maxlen=KEPT_BLOCKS)
        self.empty = empty
        self._width = 0

    def _wrap_width(self) -> int:
        # two columns for the scrollbar the log gets once it fills up
        return max(self.scrollable_content_region.width - 2, 20)

    def add(self, block: Text) -> None:
        """Show ``block`` below the others (the first one replaces the empty line)."""
        if not self.blocks:
            self.clear()
        self.blocks.append(block)
        if self._width:
            self.write(block, width=self._width)

    def on_resize(self, event: events.Resize) -> None:
        if not event.size.width:
            return
        width = self._wrap_width()
        if width == self._width:
            return
        self._width = width
        self.clear()
        for block in self.blocks or [Text(self.empty, style="dim italic")]:
            self.write(block, width=width, scroll_end=True)


def compose_units(waiting: str, live: bool) -> ComposeResult:
    """The parts below the header: title (``waiting`` until the run is read), progress beside
    the panels, then the questions and replies."""
    yield Static(waiting, id="mode-title")
    with Horizontal(id="mode-top"):
        yield Static("", id="mode-progress")
        yield Vertical(id="mode-panels")
    with Vertical(id="mode-feed"):
        yield Static("Questions and replies", classes="section-title")
        yield ReplyLog(NO_REPLIES_LIVE if live else NO_REPLIES_STORED, id="mode-replies")


@dataclass(frozen=True)
class PanelLayout:
    """A panel's table as shown: its columns with their widths, the lines its titles take and
    the rows (key, cells cut to fit)."""

    key: str
    title: str
    columns: tuple[str, ...]
    widths: tuple[int, ...]
    header: int
    rows: tuple[tuple[str, tuple[str, ...]], ...]


class PanelTable(Vertical):
    """One declared panel: its title over its table, whose rows are updated in place by key
    (the cursor stays on its row)."""

    def __init__(self, layout: PanelLayout) -> None:
        super().__init__(id=f"panel-{layout.key}", classes="panel")
        self.panel = layout
        self._shape: tuple[Any, ...] | None = None
        self._composed = False
        self._title = Static(markup_literal(layout.title, one_line=True), classes="panel-title")
        self._table: LiteralDataTable[Any] = LiteralDataTable(
            cursor_type="row", zebra_stripes=True, classes="panel-table"
        )

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._table

    def on_mount(self) -> None:
        self._composed = True
        self.show(self.panel)

    @property
    def drawn(self) -> bool:
        """Whether its table shows its latest layout (it does once mounted)."""
        return self._composed

    def show(self, layout: PanelLayout) -> None:
        """Show ``layout``: the columns anew when they change, their widths in place, the rows
        synced by key (before the panel is mounted: once it is; while it is being removed, whose
        children go first: never)."""
        self.panel = layout
        if not (self._composed and self._title.is_attached and self._table.is_attached):
            return
        self._shape = show_panel(self._title, self._table, layout, self._shape)


def show_panel(
    title: Static, table: LiteralDataTable[Any], layout: PanelLayout, shape: tuple[Any, ...] | None
) -> tuple[Any, ...]:
    """Show a declared panel's ``layout`` in ``title`` and ``table`` (which show ``shape``,
    what this returned the last time; None: nothing yet): the columns anew when they change,
    their widths in place, the rows synced by key (the cursor stays on its row). Every live
    screen's panels are drawn by it: a unit mode's (`PanelTable`) and a probe's blind spots."""
    title.update(markup_literal(layout.title, one_line=True))
    drawn = (layout.columns, layout.header)
    if drawn != shape:
        table.clear(columns=True)
        table.header_height = layout.header
        for label, width in zip(layout.columns, layout.widths, strict=True):
            table.add_column(label, width=width)
    else:
        table.set_widths(layout.widths)
    table.sync_rows(dict(layout.rows))
    return drawn


@dataclass(frozen=True)
class ModeView:
    """What the screen shows for one snapshot, made off the UI thread (`mode_view`)."""

    key: tuple[Any, ...]
    title: str
    progress: str
    panels: tuple[PanelLayout, ...]
    blocks: tuple[Text, ...]
    shown: int


def mode_view(
    snap: ModeSnapshot[object],
    key: tuple[Any, ...],
    lost: str,
    live: bool,
    narrow: bool,
    room: int,
    shown: int,
    console: Console,
) -> ModeView:
    """The title, progress, the mode's panels (fit to ``room`` cells) and the new questions and
    replies (the feed shows ``shown`` requests' so far) of a snapshot."""
    sim = " [reverse yellow] SIMULATED [/]" if snap.simulated else ""
    reason = f" ({markup_literal(snap.stop_reason)})" if snap.stop_reason else ""
    error = lost or snap.error
    title = (
        f"[b]Run {snap.run_id}[/b] · {markup_literal(mode_label(snap.mode))} · target {markup_literal(snap.target_label, limit=LABEL_LIMIT)}{sim} · "
        + (_status(RunStatus.INTERRUPTED) if lost else f"{_status(snap.status)}{reason}")
        + (f"\n[red]{markup_literal(error)}[/]" if error else "")
    )
    mode = find_mode(snap.mode)
    panels = mode.live_panels(snap) if mode is not None else []
    progress = _progress(snap, live, narrow=narrow) + _notes(panels)
    blocks, fed = _feed(snap, shown)
    layouts = tuple(panel_layout(console, p, room) for p in panels)
    return ModeView(key, title, progress, layouts, blocks, fed)


def _notes(panels: Sequence[Panel]) -> str:
    """The panels' notes and warnings, a line each under the progress (markup, text literal)."""
    lines = []
    for panel in panels:
        lines += [markup_literal(note, one_line=True) for note in panel.notes]
        if panel.warning:
            lines.append(f"[b yellow]⚠ {markup_literal(panel.warning, one_line=True)}[/]")
    return "".join(f"\n{line}" for line in lines)


def _feed(snap: ModeSnapshot[object], shown: int) -> tuple[tuple[Text, ...], int]:
    """The questions and replies to add to a feed that shows ``shown`` requests' so far (the
    newest 8, or 20 on the first draw), and the requests it shows then."""
    total = snap.progress.counters.requests
    new = (
        min(max(total - shown, 0), len(snap.progress.recent), 8)
        if shown
        else min(len(snap.progress.recent), 20)
    )
    blocks = []
    for view in snap.progress.recent[len(snap.progress.recent) - new :] if new > 0 else ():
        block = Text()
        label = visible(view.label, one_line=True)
        block.append(f"{label:<11}", style=LABEL_STYLE.get(view.label, ""))
        block.append(
            f" [{visible(view.kind, one_line=True)}] {visible(view.question, one_line=True)}\n",
            style="bold",
        )
        reply = visible(view.reply.strip(), one_line=True, limit=200)
        block.append(f"            → {reply}", style="dim")
        blocks.append(block)
    return tuple(blocks), max(shown, total)


def _progress(snap: ModeSnapshot[object], live: bool, *, narrow: bool) -> str:
    """Units done, requests, tokens and time: one figure a line, or on a narrow screen two
    lines (the panels and the replies under them need the rows)."""
    loading = "[b yellow]loading model…[/]\n" if snap.status == RunStatus.LOADING_MODEL else ""
    done = f"done {snap.units_done:,} of {snap.units_total:,}{_failed_units(snap)}"
    sent = snap.progress.counters
    requests = (
        f"requests {calls_text(sent.requests, snap.helpers)} · "
        f"{failed_text(sent.errors, sent.dropped)} · retries {sent.retries:,}"
    )
    tokens = f"tokens {calls_text(sent.tokens, snap.helpers, 'tokens')}" + (
        f" · {markup_literal(snap.spend)}" if snap.spend else ""
    )
    elapsed = _whose(snap, live)
    if narrow:
        return f"{loading}{done} · {requests}\n{tokens} · {elapsed}"
    return f"{loading}{done}\n{requests}\n{tokens}\n{elapsed}"


def _whose(snap: ModeSnapshot[object], live: bool) -> str:
    """Who drives the run: this session (with its elapsed time), another process (a stored run
    whose status is going, `runs.record.GOING`: the stored status already reads interrupted
    once its owner process is gone, `runs.record.shown_status`), or none (a stored run keeps no
    wall-clock time)."""
    if live:
        return f"elapsed {duration(snap.elapsed_s)} (this session)"
    return FOLLOWED if snap.status in GOING else "stored run"


def _failed_units(snap: ModeSnapshot[object]) -> str:
    """' · 3 with a failed request' (units asked but not done: a resume asks them again)."""
    failed = snap.units_failed
    return f" · {failed:,} with a failed request" if failed else ""


def _status(status: str) -> str:
    """The run's status, marked while the local model loads (no request goes out then)."""
    return (
        "[b yellow]loading model…[/]"
        if status == RunStatus.LOADING_MODEL
        else markup_literal(status)
    )


def panel_layout(console: Console, panel: Panel, room: int | None) -> PanelLayout:
    """A panel's table fit to ``room`` cells (`table_layout`; None: as wide as its cells)."""
    rows = [row.cells for row in panel.rows]
    widths, cut = table_layout(
        console, panel.columns, rows, panel.header, room=room, shrink=panel.shrink
    )
    keyed = tuple((row.key, cells) for row, cells in zip(panel.rows, cut, strict=True))
    return PanelLayout(panel.key, panel.title, panel.columns, widths, panel.header, keyed)


def table_layout(
    console: Console,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    header: int = 1,
    *,
    room: int | None = None,
    shrink: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """The columns' widths and the rows cut to them. Columns are as wide as their widest cell:
    auto-sized columns keep their label's width when the table was drawn between the rows'
    arrival and its re-measuring. With ``header`` lines a label wraps at its words, and its
    column is only as wide as that needs. Where the columns would pass ``room`` cells, those of
    ``shrink`` (index, least width; the first cut first) are cut with "…"; the others (the
    numbers) stay whole."""
    natural = []
    for i, label in enumerate(columns):
        shown = visible(label, one_line=True)
        width = max(
            [cell_len(word) for word in shown.split()] + [cell_width(r[i]) for r in rows] + [1]
        )
        while len(Text(shown).wrap(console, width)) > header:
            width += 1
        natural.append(width)
    widths = natural
    if room is not None:
        least = [(i, max(least, 1)) for i, least in shrink if i < len(columns)]
        widths = fit_widths(natural, room - CELL_PADDING * len(columns), least)
    cut = tuple(tuple(cut_cell(cell, widths[i]) for i, cell in enumerate(row)) for row in rows)
    return tuple(widths), cut
