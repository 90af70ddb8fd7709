"""The live screen of a run of any mode, in the layout its mode declares (`Mode.live_layout`).
A probe's (KGLens's): metrics with sparklines, progress, replies as they arrive, the panels its
mode declares (`Mode.live_panels`: the blind spots, drawn by the unit modes' panel code,
`live_units.show_panel`, in the side pane's table of the panel's key) and per-predicate rates;
a unit mode's: its progress, the panels it declares (`live_units`) and its questions and
replies. It polls the session's snapshot a few times a second; it never blocks."""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, RichLog, Sparkline, Static
from textual.worker import Worker, WorkerState

from kglens_tui.analysis.coin_baseline import CoinBaseline
from kglens_tui.analysis.coin_replay import CoinReplay
from kglens_tui.analysis.groups import GroupRow, group_table
from kglens_tui.analysis.kgwide_render import (
    kg_wide_snapshot_line,
    senses_lines,
    senses_snapshot_text,
)
from kglens_tui.analysis.logged import read_logged
from kglens_tui.analysis.report_render import CHANCE_INDEPENDENT, CHANCE_SAMPLER
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.answers.bias import bias_from_counts
from kglens_tui.core.intervals import stored_rate
from kglens_tui.core.safetext import LABEL_LIMIT, literal, markup_literal, squeezed, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.usage import Counters, calls_text
from kglens_tui.modes import ModeSnapshot
from kglens_tui.modes.kglens.engine import (
    RECENT_REPLIES,
    ProbeSnapshot,
    ReplyView,
)
from kglens_tui.modes.kglens.live import BLIND_KEY, BLIND_TITLE, NAME_LIMIT, blind_spot_text
from kglens_tui.runs.messages import RunSnapshot, snapshot_as
from kglens_tui.runs.panels import LiveLayout, Panel
from kglens_tui.runs.registry import default_mode, find_mode, mode_label
from kglens_tui.runs.session import RunSession
from kglens_tui.textfmt import counted, failed_text, interval, pct, rate_ci
from kglens_tui.tui.clipboard import copy_text
from kglens_tui.tui.format import BREAKPOINTS, VERDICT_STYLE, duration
from kglens_tui.tui.reads import read_with
from kglens_tui.tui.screens import live_units, run_controls
from kglens_tui.tui.screens.live_units import (
    MODE_VIEW_GROUP,
    PROGRESS_WIDTH,
    TABLE_ROOM,
    ModeView,
    PanelLayout,
    PanelTable,
    ReplyLog,
    compose_units,
    panel_layout,
    show_panel,
    units_help,
)
from kglens_tui.tui.screens.stored_run import FOLLOW_GROUP, StoredRun, follow
from kglens_tui.tui.screens.workers import ReportsWorkerErrors, on_stack
from kglens_tui.tui.view_workers import made_view, make_in_thread
from kglens_tui.tui.widgets.following_log import FollowingLog
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.live_chart import LiveChart, chart_view
from kglens_tui.tui.widgets.plots import PlotData
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

PROBE_KEYS = """\
## Live probe

| key | action |
| --- | --- |
| `p` | pause / resume (pauses after the current iteration) |
| `enter` | on a blind spot: its drill-down (every question and reply, triage) |
| `t` | below 130 columns: the per-predicate rates in place of the blind spots, and back (the table takes the whole width) |
| `r` | below 130 columns: the questions and replies in place of the table, and back |
| `s` | stop: finish and commit the current iteration, then end the run; `s` again: stop now (the iteration in flight is asked again on resume) |
| `c` | copy the selected blind spot (subject, predicate, object and its figures) |
| `escape` | back to the runs (a running probe keeps going) |
| `q` | quit (asks first while a run is active) |
| `ctrl+p` | command palette |
| `]` / `[` | sort the focused table by the next column / the other way (or click a column's title) |
"""
"""The keys of a probe's live screen (`LiveLayout.PROBE`), above its mode's `live_help`."""

TABLES_EVERY_S = 1.0
"""Metric cards and tables redraw at most this often; a fast run must not make the UI lag."""
REPLIES_PER_REFRESH = 6
"""At full speed only the newest replies of each refresh are written (nobody reads faster)."""

BASELINE_ATTR = {"win": "win_rate", "zero_sense": "zero_sense", "all_sense": "all_sense"}

METRICS = (("win", "Win rate"), ("zero_sense", "Zero-sense rate"), ("all_sense", "All-sense rate"))
EXAMINED = "examined edges"
"""What the paper's three rates are over, as their cards and the narrow box say (the KG-wide
rates are in the title lines above them)."""


TITLE_MARGIN = 2
"""Cells the title line leaves free at the screen's edge."""


class MetricCard(Vertical):
    """A rate now and its sparkline over the iterations."""

    def __init__(self, attr: str, title: str) -> None:
        super().__init__(classes="metric")
        self.attr, self.title = attr, title

    def compose(self) -> ComposeResult:
        yield Static(self.title, classes="metric-title")
        yield Static("—", classes="metric-value")
        yield Static("", classes="metric-detail")
        yield Sparkline([], classes="metric-spark")

    def show(self, card: CardView) -> None:
        """Show figures made by `card_view` (on a worker)."""
        self.border_subtitle = card.subtitle
        self.query_one(".metric-value", Static).update(card.value)
        self.query_one(".metric-detail", Static).update(card.detail)
        self.query_one(Sparkline).data = list(card.spark)


@dataclasses.dataclass(frozen=True)
class CardView:
    """What a `MetricCard` shows: its rate, interval and chance, subtitle and sparkline."""

    value: str
    detail: str
    subtitle: str
    spark: tuple[float, ...]


def card_view(snap: ProbeSnapshot, attr: str, coin: CoinBaseline | None = None) -> CardView:
    """A rate's card: its value, its interval with n and what chance scores, over the
    iterations for the sparkline (the newest 60)."""
    value, low_high, guess = _figures(snap, attr, coin)
    rates = snap.rates
    detail = low_high + (f" n={rates.examined:,}" if low_high and rates is not None else "")
    detail += f"\n{guess}" if guess else ""
    values = [getattr(r, attr) for r in snap.history if getattr(r, attr) is not None]
    return CardView(value, detail, chance_kind(coin), tuple(values[-60:] or [0.0]))


def _figures(
    snap: ProbeSnapshot, attr: str, coin: CoinBaseline | None = None
) -> tuple[str, str, str]:
    """A rate now, its 95% interval ('' before any) and what chance scores ('' unknown): a
    coin-flipping target under the run's sampler once replayed ("chance 52% [49–55]", with the
    answers it was replayed at while the run has more: "at 512 answers"), until then guessing
    on independent asks ("chance 50%"); `chance_kind` says which."""
    value, low_high, chance = _rate_and_chance(snap, attr, coin)
    at = _coin_replayed_at(snap, coin)
    return value, low_high, f"{chance} {at}" if at else chance


def _rate_and_chance(
    snap: ProbeSnapshot, attr: str, coin: CoinBaseline | None
) -> tuple[str, str, str]:
    """`_figures` without saying when the coin band was replayed (`_coin_replayed_at` says it)."""
    latest = snap.rates
    value = getattr(latest, attr) if latest is not None else None
    low_high = ""
    if latest is not None and value is not None:
        p = stored_rate(value, latest.examined)
        low_high = interval(p.low, p.high)
    if coin is not None:
        band = coin.rates[attr]
        return pct(value), low_high, f"chance {pct(band.mean)} {interval(band.low, band.high)}"
    guess = getattr(snap.baseline, BASELINE_ATTR[attr], None) if snap.baseline else None
    return pct(value), low_high, "" if guess is None else f"chance {pct(guess)}"


def chance_kind(coin: CoinBaseline | None) -> str:
    """Which chance the rates are shown beside: the rates box's and cards' subtitle."""
    return CHANCE_SAMPLER if coin is not None else CHANCE_INDEPENDENT


def _coin_replayed_at(snap: ProbeSnapshot, coin: CoinBaseline | None) -> str:
    """ "at 512 answers" when the coin band was replayed at fewer answers than the run has
    now, else ''."""
    if coin is None:
        return ""
    answered = sum(n for category, n in snap.counts.items() if category != "error")
    return f"at {counted(coin.answered, 'answer')}" if answered > coin.answered else ""


RATES_WIDTH = 30
"""Columns inside the narrow rates box at 80x24 (what `_compact_rates` fits by default)."""


def _compact_rates(
    snap: ProbeSnapshot, coin: CoinBaseline | None = None, width: int = RATES_WIDTH
) -> str:
    """The three rates in a narrow box (below 130 columns, in place of the cards): seven lines
    of at most ``width`` columns (its height at 80x24), each rate with its interval and under
    it what chance scores (`chance_kind`: the box's subtitle), then n and, once, the answers
    the coin band was replayed at."""
    lines = []
    for attr, title in METRICS:
        value, low_high, guess = _rate_and_chance(snap, attr, coin)
        name = title.removesuffix(" rate")
        # aligned; unaligned when a long interval ("100.0% [100.0–100.0]") needs the room
        for label in (f"{name:<10}", name, name.split("-")[0]):
            if len(f"{label} {value} {low_high}") <= width:
                break
        lines.append(f"{label} [b]{value}[/] {low_high}")
        lines.append(f"  {guess}")
    examined = snap.rates.examined if snap.rates is not None else 0
    last = f"n={counted(examined, 'edge')} examined"
    at = _coin_replayed_at(snap, coin)
    if at:
        last = f"n={examined:,} · chance {at}"
        if len(last) > width:
            last = last.removesuffix(" answers")
    return "\n".join([*lines, f"[dim]{last}[/]"])


PREDS_TITLE = "Per predicate (paper Fig. 6)"
PREDS_WAIT = 4.0
"""The per-predicate rates are read again no sooner than this many times the last read took."""
SCROLLBAR = 2
"""Columns a table's vertical scrollbar takes."""
FINISHED = (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)
CHANCE_WIDTH = len("chance") + 2
"""The chance column with its padding."""


def _uncommitted(snap: ProbeSnapshot) -> Counters:
    """The replies in whose iteration is not committed yet, as the engine counts them
    (`ProbeSnapshot.uncommitted`): the committed counters hold them only at the commit, so the
    progress adds them to be at the snapshot's moment. Empty once the run has ended: what it
    left uncommitted was dropped and counted as sent then."""
    if RunStatus(snap.status).ended:
        return Counters()
    return snap.uncommitted


def _predicate_rows_worker(
    db_path: Path | str, run_id: int, kg: KGIndex | None
) -> Callable[[], tuple[list[GroupRow], KGIndex, float]]:
    """The work of reading a run's per-predicate rates on a thread (its own connection): the
    rows of `group_table` by predicate over the raw answers (as the live rates: no triage),
    the KG (kept for the next read) and the seconds it took."""

    def read(conn: sqlite3.Connection) -> tuple[list[GroupRow], KGIndex]:
        data = load_run_data(conn, run_id, kg)
        return group_table(data, "predicate", adjusted=False), data.kg

    def work() -> tuple[list[GroupRow], KGIndex, float]:
        started = time.monotonic()
        rows, read_kg = read_with(db_path, read)
        return rows, read_kg, time.monotonic() - started

    return work


def predicate_cells(
    rows: list[GroupRow], width: int
) -> tuple[tuple[str, ...], list[tuple[Text, ...]], int]:
    """The per-predicate table in ``width`` columns: its column labels, its rows and their
    height. Each predicate (literal) comes with its examined of its edges, its zero-sense and
    win rates with their 95% intervals and beside each what chance scores on the same questions
    (`GroupRow.chance`). Wide: a column per rate, the chance under it (two lines a row); narrow
    (80 columns): the rates under the predicate, the chances beside them (three lines)."""
    widest = len("100.0% [99.0–100.0]")
    wide = width >= NAME_LIMIT + 2 * widest + 6
    out = []
    for row in rows:
        r, chance = row.rates, row.chance
        rates = (r.zero_sense, r.win)
        odds = (chance.zero_sense, chance.win_rate)
        examined = f"{r.examined:,}/{row.edges:,}"
        if wide:
            name = literal(row.label, "bold", one_line=True, limit=width - 2 * widest - 6)
            name.append(f"\n{examined}", style="dim")
            out.append(
                (
                    name,
                    *(
                        Text(f"{rate_ci(*p.bounds)}\nchance {pct(c)}")
                        for p, c in zip(rates, odds, strict=True)
                    ),
                )
            )
            continue
        room = max(width - CHANCE_WIDTH - 2, 12)
        names = ("zero-sense", "win") if room >= len("zero-sense ") + widest else ("zero", "win")
        label = max(len(n) for n in names)
        text = literal(row.label, "bold", one_line=True, limit=max(room - len(examined) - 1, 6))
        text.append(f" {examined}", style="dim")
        for title, p in zip(names, rates, strict=True):
            text.append(f"\n{title:<{label}} {rate_ci(*p.bounds)}")
        out.append((text, Text("\n" + "\n".join(pct(c) for c in odds), justify="right")))
    if wide:
        return ("predicate · n", "zero-sense [95%]", "win [95%]"), out, 2
    return ("predicate n · rate [95%]", "chance"), out, 3


def live_layout(mode: str) -> LiveLayout:
    """The parts the live screen of a run of ``mode`` has (`Mode.live_layout`): a mode not
    installed here (a stored run of a plugin) shows its progress and replies (no panels)."""
    found = find_mode(mode)
    return found.live_layout if found is not None else LiveLayout.PANELS


class LiveScreen(ReportsWorkerErrors, Screen[Any]):
    """Shows one run of any mode: live when a session drives it, else as stored. A mode whose
    layout is its panels (class ``-units``) shows the parts of `live_units` in place of a
    probe's (`Mode.live_layout`)."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("p", "toggle_pause", "Pause/resume", id="pause"),
        Binding("s", "stop", "Stop", id="stop"),
        # one of the two shows, below 130 columns only (`check_action`)
        Binding("t", "tables(True)", "Predicates", tooltip="Show the per-predicate rates"),
        Binding("t", "tables(False)", "Blind spots", tooltip="Show the blind spots"),
        Binding("r", "replies(True)", "Replies", tooltip="Show the questions and replies"),
        Binding("r", "replies(False)", "Metrics", tooltip="Show the progress and metrics"),
        Binding("r", "tables_back", "Tables", tooltip="Show the blind spots or predicates"),
        Binding("escape", "back", "Runs"),
        Binding("c", "copy", "Copy", show=False, tooltip="Copy the selected blind spot"),
        Binding("question_mark", "app.help", "Help", id="help"),
        Binding("q", "app.quit_app", "Quit", id="quit"),
    ]

    # Textual declares HELP a ClassVar; this screen's help depends on its run's mode, so it is
    # read per instance (the app's help reads screen.HELP)
    @property
    def HELP(self) -> str:  # type: ignore[override]
        """The layout's keys, then what the mode says of its figures (`Mode.live_help`)."""
        mode = find_mode(self.mode)
        own = mode.live_help if mode is not None else ""
        if self.units:
            return units_help(mode_label(self.mode), own)
        return f"{PROBE_KEYS}\n{own}"

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]
    """The chart pane shows only on wide (BREAKPOINTS) and tall terminals (see app.tcss)."""

    def __init__(
        self,
        run_id: int | None,
        session: RunSession | None = None,
        stored: StoredRun | None = None,
    ) -> None:
        source = session if session is not None else stored
        self.mode = source.mode if source is not None else default_mode().name
        """The run's mode: its `Mode.live_layout` says which parts the screen has."""
        self.units = live_layout(self.mode) is LiveLayout.PANELS
        """Whether the screen has a unit mode's parts (`live_units`), not a probe's."""
        super().__init__(classes="-units" if self.units else None)
        self.run_id = run_id
        self.session = session
        self._stored = stored
        self._unit_shown = 0
        """Requests whose questions and replies the feed shows (another mode's)."""
        self._unit_last: tuple[Any, ...] | None = None
        """The snapshot key whose figures are shown (another mode's; None: none yet)."""
        self._fed: int | None = None
        """The feed count (`_feed_count`) the replies pane shows up to (None: nothing yet)."""
        self._shown: deque[ReplyView] = deque(maxlen=RECENT_REPLIES)
        """The replies the pane shows (the newest of them), kept to wrap again on a resize."""
        self._wrapped_at: int | None = None
        """The width the pane's lines were wrapped at (None: nothing written yet)."""
        self._last_key: tuple[Any, ...] | None = None
        self._tables_at = 0.0
        self._tables_iteration: int | None = None
        """The iteration the cards, tables and chart show (None: not drawn yet)."""
        self.coin: CoinBaseline | None = None
        """The coin target's band, replayed at iteration `_coin_at` (None: not yet)."""
        self._coin_at: int | None = None
        self._coin_job: CoinReplay | None = None
        self._view_worker: Worker[Any] | None = None
        """The worker making the figures to show (`live_view`), while it does."""
        self._generation = 0
        """Counts the screen's `_redraw` calls: figures made before the latest are not final."""
        self.pred_rows: list[GroupRow] | None = None
        """The per-predicate rows shown (`group_table` of the stored run; None: not read yet)."""
        self._preds_for: tuple[Any, ...] | None = None
        self._preds_worker: Worker[Any] | None = None
        self._preds_next_at = 0.0
        self._preds_kg: KGIndex | None = None
        self._preds_layout: tuple[Any, ...] | None = None
        self._preds_width = 0
        """The per-predicate table's width when last drawn (another: drawn again)."""
        self._panel_shapes: dict[str, tuple[Any, ...]] = {}
        """What each declared panel's table shows (`live_units.show_panel`), by its key."""
        self.failures: dict[str, str] = {}
        """The background reads whose last attempt failed ("chance", "predicates") and what
        the user was told (cleared by a later success)."""
        """The per-predicate table's columns and row height (a change draws it again)."""

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        if self.units:
            waiting = "starting the run…"
            if self._stored is not None:
                waiting = f"reading run {self._stored.run_id}…"
            yield from compose_units(waiting, self.session is not None)
            yield Footer()
            return
        yield Static("", id="run-title")
        with Horizontal(id="top"):
            for attr, title in METRICS:
                yield MetricCard(attr, f"{title}, {EXAMINED}")
            rates = Static("", id="rates")
            rates.border_title = EXAMINED
            yield rates
            yield Static("", id="progress")
        with Grid(id="panes"):
            with Vertical(id="replies-pane"):
                yield Static("Questions and replies", classes="section-title")
                yield FollowingLog(id="replies", wrap=True, markup=False, max_lines=500)
            with Vertical(id="side"):
                # the blind-spot panel KGLens declares (`Mode.live_panels`), drawn at each update;
                # its title from the start, as the per-predicate table's
                yield Static(BLIND_TITLE, id=f"{BLIND_KEY}-title", classes="section-title")
                yield LiteralDataTable(
                    id=BLIND_KEY, cursor_type="row", zebra_stripes=True, sortable=True
                )
                yield Static(PREDS_TITLE, id="preds-title", classes="section-title")
                yield LiteralDataTable(
                    id="preds", cursor_type="row", zebra_stripes=True, sortable=True
                )
        yield LiveChart(id="live-chart")
        yield Footer()

    @property
    def _parts_gone(self) -> bool:
        """Whether its widgets are gone (closed as it mounted: the app quitting)."""
        return not self.query("#mode-replies" if self.units else "#replies")

    def on_mount(self) -> None:
        if self._parts_gone:
            return
        if self.units:
            self.query_one("#mode-replies", RichLog).can_focus = False
            self.set_interval(self.app.settings.redraw_seconds(), self.refresh_view)
            self.call_after_refresh(self.refresh_view)
            return
        self.query_one("#replies", RichLog).can_focus = False
        self.call_after_refresh(self.refresh_view)
        self.set_interval(self.app.settings.redraw_seconds(), self.refresh_view)

    def on_resize(self) -> None:
        """The per-predicate rows take another layout at another width, the replies wrap
        again, and the progress (what fits its box) is drawn again. Another mode's: across 130
        columns its progress changes shape and `r` comes or goes, once the screen has its new
        breakpoint class."""
        if self.units:
            self.call_after_refresh(self._reshaped)
            return
        self._redraw()
        self.call_after_refresh(self._draw_predicates)
        self.call_after_refresh(self._rewrap_replies)
        self.call_after_refresh(self.refresh_view)

    @property
    def stored(self) -> StoredRun | None:
        """The stored run shown, followed as it is committed (None: a session's)."""
        return self._stored

    def _reshaped(self) -> None:
        if not on_stack(self):
            return
        self._redraw()  # figures being made now are for the old shape
        self.refresh_view()
        self.refresh_bindings()

    def latest(self) -> RunSnapshot | None:
        """The run's latest snapshot, of its mode's type (None: not read or started yet). A
        session whose process was killed hands over to the stored run (`StoredRun`): what the
        process committed after its last message is in the workspace, not in that message."""
        session = self.session
        if session is not None and self._stored is None:
            snap = session.snapshot()
            if snap is not None:
                self.run_id = snap.run_id
            run_id = session.run_id if session.run_id is not None else self.run_id
            if not (session.crashed and session.finished) or run_id is None:
                return snap
            self._stored = StoredRun(snap, self.mode, db_path=self.app.db_path, run_id=run_id)
        return self._stored.snapshot() if self._stored is not None else None

    def snapshot(self) -> ProbeSnapshot | None:
        """The latest snapshot of a KGLens run (None: another mode's, or none yet)."""
        return snapshot_as(self.latest(), ProbeSnapshot)

    def refresh_view(self) -> None:
        """Redraw from the latest snapshot; cheap when nothing changed. Nothing once the screen
        is closed (a redraw it queued may come after) or its widgets are gone, nor while another
        screen is over it (a dialog over it draws it again, dimmed, at every change)."""
        if not on_stack(self) or self.app.screen is not self or self._parts_gone:
            return
        if self.units:
            self._refresh_units()
            return
        if self.query_one("#preds", DataTable).size.width != self._preds_width:
            self._draw_predicates()  # shown again, or resized: its layout follows its width
        # written before the layout settled (the pane a cell narrower for a moment on a busy
        # machine), the replies wrap again at the pane's width
        self._rewrap_replies()
        self._collect_coin()
        follow(self, self._stored)  # a stored run is read (again) on a worker
        snap = self.snapshot()
        if snap is None:
            self._show_waiting()
            return
        self._read_predicates_if_due(snap)
        lost = run_controls.process_lost(self.session, snap.status)
        key = (
            snap.iteration,
            self._feed_count(snap),
            snap.status,
            int(snap.elapsed_s),
            lost,
        )
        if key == self._last_key or self._view_worker is not None:
            return
        now = time.monotonic()
        # the tables follow the iteration at most every TABLES_EVERY_S, and catch up with it on a
        # later tick (never left an iteration behind the progress beside them)
        structural = (self._last_key is None or self._tables_iteration != snap.iteration) and (
            now - self._tables_at >= TABLES_EVERY_S or snap.status != RunStatus.RUNNING
        )
        title = self.query_one("#run-title", Static)
        wanted = ViewWanted(
            snap=snap,
            mode=self.mode,
            key=key,
            generation=self._generation,
            coin=self.coin,
            lost=lost,
            live=self.session is not None,
            fed=self._fed,
            title_room=title.content_size.width or self.app.size.width,
            progress_width=self.query_one("#progress", Static).content_size.width or None,
            rates_width=self.query_one("#rates", Static).content_size.width or RATES_WIDTH,
            tables_at=now if structural else None,
            chart_due=structural and self.query_one(LiveChart).drawn != snap.iteration,
            db_path=self.app.db_path,
            console=self.app.console,
        )
        self._view_worker = make_in_thread(
            self, lambda: live_view(wanted), VIEW_GROUP, "the live screen's figures"
        )

    def _show_waiting(self) -> None:
        """The title while there is no snapshot: the session's error or notice, else what the
        screen waits for."""
        error = self.session.error if self.session is not None else ""
        notice = self.session.notice if self.session is not None else ""
        waiting = "starting the run…"
        if self._stored is not None:
            waiting = f"reading run {self._stored.run_id}…"
        self.query_one("#mode-title" if self.units else "#run-title", Static).update(
            f"[red]{markup_literal(error)}[/]" if error else (markup_literal(notice) or waiting)
        )

    def _refresh_units(self) -> None:
        """Another mode's `refresh_view`: make the figures of the latest snapshot on a worker
        when it changed (`live_units.mode_view`); they are shown once made."""
        follow(self, self._stored)  # a stored run is read (again) on a worker
        snap = snapshot_as(self.latest(), ModeSnapshot)
        if snap is None:
            self._show_waiting()
            return
        lost = run_controls.process_lost(self.session or self._stored, snap.status)
        key = (
            snap.units_done,
            snap.progress.counters.requests,
            snap.status,
            int(snap.elapsed_s),
            lost,
        )
        if key == self._unit_last or self._view_worker is not None:
            return
        narrow = self.has_class("-narrow")
        room = self.size.width - TABLE_ROOM - (0 if narrow else PROGRESS_WIDTH)
        console, live, shown = self.app.console, self.session is not None, self._unit_shown
        made = (key, self._generation)
        self._view_worker = make_in_thread(
            self,
            lambda: live_units.mode_view(snap, made, lost, live, narrow, room, shown, console),
            MODE_VIEW_GROUP,
            "the run's figures",
        )

    def _apply_units(self, view: ModeView) -> None:
        """Show what `live_units.mode_view` made: widget updates only; the panels' tables keep
        their rows (and cursor) where the mode declares the same panels."""
        key, generation = view.key
        self._unit_last = key if generation == self._generation else None
        self.query_one("#mode-title", Static).update(view.title)
        self.query_one("#mode-progress", Static).update(view.progress)
        box = self.query_one("#mode-panels")
        shown = list(box.query_children(PanelTable))
        if [p.panel.key for p in shown] == [p.key for p in view.panels]:
            for table, layout in zip(shown, view.panels, strict=True):
                table.show(layout)
        else:
            box.remove_children()
            box.mount_all([PanelTable(layout) for layout in view.panels])
        log = self.query_one("#mode-replies", ReplyLog)
        for block in view.blocks:
            log.add(block)
        self._unit_shown = max(self._unit_shown, view.shown)

    def _apply_view(self, view: LiveView) -> None:
        """Show what `live_view` made (widget updates only). Made before the screen was told to
        draw anew (`_redraw`: a resize, the coin band), it is shown but drawn again next tick."""
        snap = view.wanted.snap
        tables = view.tables
        if tables is not None:
            self._tables_at = tables.at
            self._tables_iteration = snap.iteration
        if view.wanted.generation == self._generation:
            self._last_key = view.wanted.key if self._tables_iteration == snap.iteration else None
        self.query_one("#run-title", Static).update(view.title)
        self.query_one("#progress", Static).update(view.progress)
        self._show_replies(view)
        if tables is None:
            return
        for card, shown in zip(self.query(MetricCard), tables.cards, strict=True):
            card.show(shown)
        rates = self.query_one("#rates", Static)
        rates.update(tables.rates)
        rates.border_subtitle = chance_kind(view.wanted.coin)
        self._replay_coin_if_due(snap)
        for layout in tables.panels:
            if layout.key != BLIND_KEY:  # the probe layout has a place for that panel only
                continue
            self._panel_shapes[layout.key] = show_panel(
                self.query_one(f"#{layout.key}-title", Static),
                self.query_one(f"#{layout.key}", LiteralDataTable),
                layout,
                self._panel_shapes.get(layout.key),
            )
        if tables.charts is not None:
            self.query_one(LiveChart).draw(snap.iteration, *tables.charts)

    def _redraw(self) -> None:
        """Draw everything anew at the next tick (also over a view being made now)."""
        self._last_key = self._unit_last = None
        self._generation += 1

    @property
    def settled(self) -> bool:
        """Whether what the screen reads in the background is in and drawn (nothing `pending`).
        Tests wait on it for a picture that does not depend on which finished first."""
        return not self.pending

    @property
    def pending(self) -> list[str]:
        """What the screen still waits for: the run read and drawn, no coin replay or
        per-predicate read under way (the band and rates taken, or their failure told:
        `failures`), the replies wrapped at the pane's width and scrolled to the newest."""
        if not self.is_mounted:  # pushed, not composed yet
            return ["not mounted"]
        if self.units:
            waits = {
                "figures not shown": self._unit_last is None,
                "figures being made": self._view_worker is not None,
                "panels being mounted": not all(p.drawn for p in self.query(PanelTable)),
            }
            return [what for what, waiting in waits.items() if waiting]
        stored = self._stored
        log = self.query_one("#replies", RichLog)
        waits = {
            "tables not drawn": self._tables_iteration is None,
            "coin replay under way": self._coin_job is not None,
            "figures being made": self._view_worker is not None,
            "predicates being read": self._preds_worker is not None,
            "predicates not read": self.pred_rows is None and "predicates" not in self.failures,
            "run being read": stored is not None and stored.reading,
            f"replies wrapped at {self._wrapped_at}, pane {self._reply_width()}": (
                self._wrapped_at not in (None, self._reply_width())
            ),
            f"replies not at the end ({log.scroll_y} of {log.max_scroll_y})": (
                not log.is_vertical_scroll_end
            ),
        }
        return [what for what, waiting in waits.items() if waiting]

    def _replay_coin_if_due(self, snap: ProbeSnapshot) -> None:
        """Replay the coin target in a child process at iterations 1, 2, 4, 8... (the whole
        replays then cost about twice the last one) and once the run has ended."""
        answered = sum(n for category, n in snap.counts.items() if category != "error")
        if self._coin_job is not None or not answered:
            return
        ended = RunStatus(snap.status).ended
        last = self._coin_at
        if last is not None and not (
            snap.iteration >= max(2 * last, last + 1) or (ended and snap.iteration != last)
        ):
            return
        self._coin_at = snap.iteration
        self._coin_job = CoinReplay(self.app.db_path, snap.run_id)

    def _collect_coin(self) -> None:
        """Take a finished replay's band (checked on every refresh tick)."""
        job = self._coin_job
        if job is None or not job.poll():
            return
        self._coin_job = None
        if job.error:
            self.failures["chance"] = f"chance band not replayed: {job.error}"
            self.app.notify(self.failures["chance"], severity="warning")
            return
        self.failures.pop("chance", None)
        self.coin = job.band
        self._redraw()

    def on_unmount(self) -> None:
        if self._coin_job is not None:
            self._coin_job.terminate()

    def _feed_count(self, snap: ProbeSnapshot) -> int:
        return feed_count(snap, self.session is not None)

    def _show_replies(self, view: LiveView) -> None:
        """Write the replies the pane does not show yet (`new_replies`); a feed that started
        again is written again whole."""
        if view.restart:
            self.query_one("#replies", RichLog).clear()
            self._shown.clear()
        self._fed = view.fed
        if view.replies:
            self._shown.extend(view.replies)
            self._write_block(view.block)

    def _reply_width(self) -> int:
        """The width the replies are wrapped at."""
        return max(self.query_one("#replies", RichLog).scrollable_content_region.width - 2, 20)

    def _write_block(self, block: Text) -> None:
        """Add replies (`reply_block`) to the pane, wrapped at its width."""
        self._wrapped_at = self._reply_width()
        self.query_one("#replies", RichLog).write(block, width=self._wrapped_at)

    def _rewrap_replies(self) -> None:
        """Write the replies shown again when the pane's width changed (a terminal resize):
        a line keeps the width it was written at."""
        if self._wrapped_at is None or not on_stack(self):
            return
        if self._reply_width() == self._wrapped_at:
            return
        self.query_one("#replies", RichLog).clear()
        if self._shown:
            self._write_block(reply_block(self._shown))

    def action_copy(self) -> None:
        """The selected blind spot as one line of text, on the clipboard."""
        snap = self.snapshot()
        # a palette command may come while the screen opens or closes, before or after its table
        table = next(iter(self.query(f"#{BLIND_KEY}").results(LiteralDataTable)), None)
        key = table.selected_key() if table is not None else None
        spot = next((b for b in (snap.blind_spots if snap else ()) if str(b.edge_id) == key), None)
        if spot is None:
            self.notify("No blind spot is selected.", severity="warning")
            return
        copy_text(self.app, blind_spot_text(spot), "blind spot")

    @on(DataTable.RowSelected, f"#{BLIND_KEY}")
    def _blind_selected(self, event: DataTable.RowSelected) -> None:
        """enter on a blind spot: its drill-down (every question and reply, triage), once the
        run's data is read on a worker."""
        snap = self.snapshot()
        if snap is None or event.row_key.value is None:
            return
        self.notify(f"Opening edge {event.row_key.value}…", timeout=3)
        self._open_drill(snap.run_id, int(event.row_key.value))

    @work(
        thread=True,
        exclusive=True,
        group="live-drill",
        exit_on_error=False,
        description="opening the drill-down",
    )
    def _open_drill(self, run_id: int, edge_id: int) -> tuple[RunData, int]:
        kg = self._preds_kg
        return read_with(
            self.app.db_path, lambda conn: read_logged(load_run_data(conn, run_id, kg))
        ), edge_id

    def _drill_read(self, event: Worker.StateChanged) -> None:
        """The run's data is read: its drill-down opens while this screen is the one shown."""
        if event.state is not WorkerState.SUCCESS or event.worker.result is None:
            return
        data, edge_id = event.worker.result
        if on_stack(self) and self.app.screen is self:
            from kglens_tui.tui.screens.review_drill import DrillDownScreen

            self.app.push_screen(DrillDownScreen(data, edge_id))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("tables", "copy") and self.units:  # KGLens's tables
            return False
        if action == "tables":  # narrow only, and the one that changes what shows
            return self.has_class("-narrow") and parameters[0] != self.has_class("-preds")
        narrow, replies = self.has_class("-narrow"), self.has_class("-replies")
        if action == "replies":  # narrow only, the one that changes what shows
            if not self.units and parameters[0] is False:
                return False  # KGLens's way back to its table is `tables_back`
            return narrow and parameters[0] != replies
        if action == "tables_back":  # KGLens's, narrow, while its replies are shown
            return not self.units and narrow and replies
        return True

    def action_replies(self, show: bool) -> None:
        """Below 130 columns: the questions and replies in place of the progress and panels
        (another mode's) or of the table (KGLens's: its blind spots or per-predicate rates get
        the whole width), or back."""
        self.set_class(show, "-replies")
        self.refresh_bindings()
        if show and not self.units:
            self.call_after_refresh(self._rewrap_replies)

    def action_tables_back(self) -> None:
        """KGLens's, below 130 columns: the table in place of the questions and replies."""
        self.action_replies(False)

    def action_tables(self, preds: bool) -> None:
        """Below 130 columns: the per-predicate rates in place of the blind spots, or back (in
        place of the questions and replies when they are shown)."""
        self.set_class(preds, "-preds")
        self.set_class(False, "-replies")
        self.refresh_bindings()
        self.call_after_refresh(self._draw_predicates)

    def _read_predicates_if_due(self, snap: ProbeSnapshot) -> None:
        """Read the per-predicate rates of the run as stored, on a worker thread, once the run
        committed an iteration (or ended) since the last read: at most every TABLES_EVERY_S,
        nor more often than PREDS_WAIT times the last read took (a big run's read takes a
        while; it must not take the UI's time)."""
        due = (snap.run_id, snap.iteration, RunStatus(snap.status).ended)
        if due == self._preds_for or self._preds_worker is not None:
            return
        if time.monotonic() < self._preds_next_at:
            return
        self._preds_for = due
        self._preds_worker = self.run_worker(
            _predicate_rows_worker(self.app.db_path, snap.run_id, self._preds_kg),
            thread=True,
            group="live-predicates",
            exit_on_error=False,
            description="per-predicate rates",
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group in (MODE_VIEW_GROUP, VIEW_GROUP):
            event.prevent_default()  # its failure is told once, by `made_view`
            if event.state in FINISHED and worker is self._view_worker:
                self._view_worker = None
            if (made := made_view(self, event, MODE_VIEW_GROUP, ModeView)) is not None:
                self._apply_units(made)
            elif (view := made_view(self, event, VIEW_GROUP, LiveView)) is not None:
                self._apply_view(view)
            return
        if worker.group == FOLLOW_GROUP:
            self._followed(event)
            return
        if worker.group == "live-drill":
            self._drill_read(event)
            return
        # by the event's state: the worker may be further on when an earlier event arrives
        if worker is not self._preds_worker or event.state not in FINISHED:
            return
        event.prevent_default()  # the title says a failure
        self._preds_worker = None
        if not on_stack(self):
            return
        if event.state is WorkerState.CANCELLED:  # the screen closes; or read at the next tick
            self._preds_for = None
            return
        title = self.query_one("#preds-title", Static)
        if event.state is WorkerState.SUCCESS and worker.result is not None:
            rows, kg, seconds = worker.result
            self._preds_kg = kg
            self._preds_next_at = time.monotonic() + max(TABLES_EVERY_S, PREDS_WAIT * seconds)
            self.pred_rows = rows
            self.failures.pop("predicates", None)
            title.update(PREDS_TITLE)
            self._draw_predicates()
        elif event.state is WorkerState.ERROR:
            self.failures["predicates"] = f"{PREDS_TITLE}: not read: {worker.error}"
            title.update(
                f"{PREDS_TITLE}: [red]not read: {markup_literal(worker.error, one_line=True)}[/]"
            )

    def _followed(self, event: Worker.StateChanged) -> None:
        """A read of the stored run ended: shown at once; a first read that fails closes the
        screen with the error (the app tells a later one, `ReportsWorkerErrors`)."""
        if not on_stack(self):
            event.prevent_default()
            return
        if event.state is WorkerState.SUCCESS and event.worker.result:
            self.refresh_view()
        elif event.state is WorkerState.ERROR and self.latest() is None:
            event.prevent_default()
            self.app.notify(str(event.worker.error), severity="error")
            if self.app.screen is self:
                self.app.pop_screen()

    def _draw_predicates(self) -> None:
        """The per-predicate rows in the table's width (`predicate_cells`)."""
        if self.pred_rows is None or not on_stack(self):
            return
        table = self.query_one("#preds", DataTable)
        self._preds_width = table.size.width
        width = table.size.width - SCROLLBAR
        if width <= 0:  # hidden (t shows it below 130 columns): drawn once it has a width
            return
        head, cells, height = predicate_cells(self.pred_rows, width)
        widths = [  # sized now: auto widths come only once it is idle
            max([len(label), *(len(line) for row in cells for line in row[i].plain.splitlines())])
            for i, label in enumerate(head)
        ]
        layout = (head, tuple(widths), height)
        if layout != self._preds_layout:  # another shape: drawn again; else rows in place
            self._preds_layout = layout
            table.clear(columns=True)
            for label, column_width in zip(head, widths, strict=True):
                table.add_column(label, width=column_width)
        keys = [row.key for row in self.pred_rows]
        assert isinstance(table, LiteralDataTable)
        table.sync_rows(dict(zip(keys, cells, strict=True)), height=height)

    def _going(self) -> bool:
        """Whether this screen drives the run and it has not ended (while it starts, a pause or
        a stop waits for it and applies before its first question)."""
        if self.session is None or self.session.error:
            return False
        snap = self.session.snapshot()
        return snap is None or not RunStatus(snap.status).ended

    def action_toggle_pause(self) -> None:
        self._press("pause")

    def action_stop(self) -> None:
        self._press("stop")

    def _press(self, action: str) -> None:
        """p or s: to this app's session while it drives the run, else through the workspace
        to the process that does (`run_controls.press`)."""
        run_controls.press(self, action, self.session if self._going() else None, self.run_id)

    def action_back(self) -> None:
        self.app.pop_screen()


VIEW_GROUP = "live-view"
"""The worker that makes the live screen's figures (`live_view`)."""


@dataclasses.dataclass(frozen=True)
class ViewWanted:
    """What the live screen asks `live_view` for, with what it knows on the UI thread: the
    snapshot, the widths of its boxes, the replies the pane shows up to (``fed``), and, with
    ``tables_at`` (the moment asked), the cards, rates box, blind spots and charts as well."""

    snap: ProbeSnapshot
    mode: str
    key: tuple[Any, ...]
    generation: int
    coin: CoinBaseline | None
    lost: str
    live: bool
    fed: int | None
    title_room: int
    progress_width: int | None
    rates_width: int
    tables_at: float | None
    chart_due: bool
    db_path: Path | str
    console: Console


@dataclasses.dataclass(frozen=True)
class TablesView:
    """The part of the live screen that follows the iterations (at most every TABLES_EVERY_S)."""

    at: float
    cards: tuple[CardView, ...]
    rates: str
    panels: tuple[PanelLayout, ...]
    """The panels the mode declares (`Mode.live_panels`: the blind spots), as wide as their
    cells (the side pane's tables scroll sideways)."""
    charts: tuple[PlotData, PlotData] | None


@dataclasses.dataclass(frozen=True)
class LiveView:
    """What the live screen shows for one `ViewWanted`, made off the UI thread."""

    wanted: ViewWanted
    title: str
    progress: str
    fed: int
    restart: bool
    replies: tuple[ReplyView, ...]
    block: Text
    tables: TablesView | None


def live_view(wanted: ViewWanted) -> LiveView:
    """The live screen's figures for ``wanted`` (markup with data made literal); reads the
    run's throughput for the chart through its own connection."""
    snap = wanted.snap
    count = feed_count(snap, wanted.live)
    restart, replies = new_replies(snap, wanted.fed, count)
    tables = None
    if wanted.tables_at is not None:
        charts = None
        if wanted.chart_due:
            charts = read_with(wanted.db_path, lambda conn: chart_view(snap, conn))
        tables = TablesView(
            wanted.tables_at,
            tuple(card_view(snap, attr, wanted.coin) for attr, _ in METRICS),
            _compact_rates(snap, wanted.coin, wanted.rates_width),
            tuple(panel_layout(wanted.console, p, None) for p in _declared(wanted.mode, snap)),
            charts,
        )
    return LiveView(
        wanted,
        title_text(snap, wanted.lost, wanted.title_room),
        progress_text(snap, wanted.lost, wanted.live, wanted.progress_width),
        count,
        restart,
        replies,
        reply_block(replies),
        tables,
    )


def feed_count(snap: ProbeSnapshot, live: bool) -> int:
    """How many replies the snapshot's feed has had: the replies this session's engine got
    (``live``: it loaded the stored ones into `recent` first), or for a stored run (read again
    as another process commits) every stored reply."""
    return snap.replies_total if live else sum(snap.counts.values())


def new_replies(
    snap: ProbeSnapshot, fed: int | None, count: int
) -> tuple[bool, tuple[ReplyView, ...]]:
    """The replies a pane that shows the feed up to ``fed`` (None: nothing yet) writes when the
    feed has had ``count``: on the first draw all of `recent`, then those the count says are
    new (the newest REPLIES_PER_REFRESH of them); with True first when the feed started again
    (an engine that reloaded the run): the pane is written again whole."""
    if fed is None or count < fed:
        return fed is not None, snap.progress.recent
    if count > fed:
        new = min(count - fed, len(snap.progress.recent), REPLIES_PER_REFRESH)
        return False, snap.progress.recent[len(snap.progress.recent) - new :]
    return False, ()


def reply_block(views: Sequence[ReplyView]) -> Text:
    """Replies as the pane shows them (text from the model is literal)."""
    block = Text()
    for view in views:
        if block:
            block.append("\n")
        block.append(f"{view.category:<11}", style=VERDICT_STYLE.get(view.category, ""))
        question = visible(view.question, one_line=True, limit=LABEL_LIMIT * 3)
        block.append(f" {question}\n", style="bold")
        expected = f" (expected {visible(view.expected, one_line=True)})" if view.expected else ""
        reply = visible(squeezed(view.reply), one_line=True, limit=200)
        block.append(f"            → {reply}{expected}", style="dim")
    return block


def _declared(mode: str, snap: ProbeSnapshot) -> list[Panel]:
    """The panels ``mode`` declares for ``snap`` (`Mode.live_panels`)."""
    found = find_mode(mode)
    return found.live_panels(snap) if found is not None else []


def title_text(snap: ProbeSnapshot, lost: str, room: int) -> str:
    """The title (markup): run, target, status, the KG-wide win rate and the two-ask rates,
    after it where they fit ``room`` cells, else on lines of their own (`senses_lines`);
    ``lost``: why the run's process ended while its last snapshot says it goes on."""
    if lost:  # the last snapshot still says running
        interrupted = dataclasses.replace(snap.progress, status=RunStatus.INTERRUPTED)
        snap = dataclasses.replace(snap, progress=interrupted, stop_reason="", error=lost)
    sim = " [reverse yellow] SIMULATED [/]" if snap.simulated else ""
    colours: dict[str, str] = {
        RunStatus.RUNNING: "green",
        RunStatus.PAUSED: "yellow",
        RunStatus.PAUSING: "yellow",
        RunStatus.FAILED: "red",
    }
    status = colours.get(snap.status, "cyan")
    text = (
        f"[b]Run {snap.run_id}[/] · target {markup_literal(snap.target_label, limit=LABEL_LIMIT)}{sim}"
        f" · [{status}]{snap.status}[/]"
    )
    if snap.stop_reason:
        text += f" ({markup_literal(snap.stop_reason)})"
    # the two-ask rates after the win rate where the line has room for them, else on lines
    # of their own, each kept within the line (wrapped, they would push a panel row off)
    wide = kg_wide_snapshot_line(snap.kg_wide, snap.kg_wide_chance)
    senses = senses_snapshot_text(snap.kg_wide_senses, snap.kg_wide_sense_chance)
    if cell_len(wide + senses) <= room - TITLE_MARGIN:
        wide += senses
    else:
        lines = senses_lines(snap.kg_wide_senses, snap.kg_wide_sense_chance, room - TITLE_MARGIN)
        wide = "\n".join([wide, *lines])
    text += f"\n{markup_literal(wide)}"
    if snap.error:
        text += f"\n[red]{markup_literal(snap.error)}[/]"
    return text


def progress_text(snap: ProbeSnapshot, lost: str, live: bool, width: int | None) -> str:
    """Iteration, requests, failures, tokens, retries, time and convergence (markup), all at
    the moment of the snapshot: the replies in whose iteration is not committed yet count
    (`_uncommitted`), the time left only while the run goes. ``live``: a session drives the
    run (else its time is the committed iterations'); ``width``: the box's (None: not known)."""
    if lost:  # what was in flight is gone
        interrupted = dataclasses.replace(snap.progress, status=RunStatus.INTERRUPTED)
        snap = dataclasses.replace(snap, progress=interrupted)
    back, sent = _uncommitted(snap), snap.progress.counters
    per_it = snap.elapsed_s / snap.iteration if snap.iteration else None
    remaining = snap.iterations_total - snap.iteration
    eta = per_it * remaining if per_it is not None and snap.status == RunStatus.RUNNING else None
    tokens = calls_text(sent.tokens + back.tokens, snap.helpers, "tokens")
    session_requests = snap.session_requests + back.requests
    rate = (
        f" · {session_requests / snap.session_elapsed_s:,.1f}/s"
        if session_requests and snap.session_elapsed_s > 0
        else ""
    )
    iteration = f"iteration [b]{snap.iteration}[/] of {snap.iterations_total}"
    if back.requests:
        iteration += f" · +{back.requests:,} not committed"
    requests = calls_text(sent.requests + back.requests, snap.helpers)
    failed = failed_text(sent.errors + back.errors, sent.dropped)
    # a stored run's time is its committed iterations' (an iteration dropped is not timed)
    elapsed = "elapsed" if live else "committed iterations took"
    lines = [
        iteration,
        "[b yellow]loading model…[/]" if snap.loading else f"requests {requests} · {failed}",
        f"tokens {tokens} · retries {sent.retries + back.retries:,}"
        + (f" · {markup_literal(snap.spend)}" if snap.spend else ""),
        f"{elapsed} {duration(snap.elapsed_s)}{rate}"
        + (f" · ETA {duration(eta)}" if snap.status == RunStatus.RUNNING else ""),
        f"convergence: {_convergence(snap)}",
        *_bias_lines(snap, width),
        *_learned_line(snap, width),
    ]
    return "\n".join(lines)


def _learned_line(snap: ProbeSnapshot, width: int | None = None) -> list[str]:
    """What the answers teach, in one line (markup; names made literal), when known: the worst
    predicates as many as fit in ``width`` columns (None: the two worst)."""
    learned = snap.learned
    if learned is None:
        return []
    line = (
        f"learned: nbrs {learned.neighbour_weight:.0%} · predicates {learned.predicate_share:.0%}"
    )
    worst: list[tuple[str, str]] = []  # (plain, markup)
    for name, error, _ in learned.weakest_predicates[:2]:
        plain = f"{visible(name, one_line=True, limit=NAME_LIMIT)} {error:.0%}"
        shown = ", ".join(w[0] for w in [*worst, (plain, "")])
        if width is not None and len(f"{line} · worst {shown}") > width:
            break
        worst.append(
            (plain, f"{markup_literal(name, one_line=True, limit=NAME_LIMIT)} {error:.0%}")
        )
    return [line + (" · worst " + ", ".join(w[1] for w in worst) if worst else "")]


def _bias_lines(snap: ProbeSnapshot, width: int | None = None) -> list[str]:
    """One line (markup) on the Yes/No replies: the yes-rate (with its interval when the line
    fits ``width``, and n) and balanced accuracy. On strong bias a warning says which answer
    the model leans to, first on the line, and the line keeps what fits of the rest (the
    progress box has no line to spare; the report gives it all)."""
    bias = bias_from_counts(snap.yes_no)
    if not bias.answered:
        return ["yes-rate —"]
    yes = bias.yes_rate
    accuracy = "—" if bias.balanced_accuracy is None else f"{bias.balanced_accuracy:.2f}"
    counts = f" n={bias.answered:,} · bal. acc. {accuracy}"
    rates = (
        f"yes {rate_ci(yes.value, *(yes.interval or (None, None)))}",
        f"yes-rate {pct(yes.value)}",
    )
    if not bias.biased:
        lines = [("", rate + counts) for rate in rates]
    else:
        rate = yes.value
        assert rate is not None  # biased implies a yes-rate (leaning() needs one)
        side, share = ("Yes", rate) if rate > 0.5 else ("No", 1 - rate)
        warnings = (
            f"⚠ answer bias: says {side} to {share:.0%}",
            f"⚠ bias: says {side} to {share:.0%}",
            f"⚠ bias: {side} {share:.0%}",
        )
        tails = (counts, f" · bal. acc. {accuracy}", "")
        lines = [(warnings[0], f" · {rates[0]}{counts}")]
        lines += [(warning, tail) for tail in tails for warning in warnings]
    for warning, rest in lines:  # the first that fits, else the shortest (the last)
        if width is None or cell_len(warning + rest) <= width:
            break
    return [f"[b yellow]{warning}[/]{rest}" if warning else rest]


def _convergence(snap: ProbeSnapshot) -> str:
    """The engine's own convergence state: converged, or how many of its window the rates held."""
    window = snap.convergence_window
    if snap.converged or snap.stable_iterations >= window:
        return "[green]converged[/]" + ("" if snap.stop_on_convergence else " (not stopping)")
    return f"stable {snap.stable_iterations} of {counted(window, 'iteration')}"
