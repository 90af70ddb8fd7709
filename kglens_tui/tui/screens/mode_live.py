"""Live screen of a KONTEST consistency run or a fact-eval run: progress, the mode's own metrics
(oracle error rates and knowledge gap, or F1 and abstention per context) and the latest
questions and replies. It polls the session's snapshot; it never blocks.

Below 130 columns the panes stack: the progress as a few lines, the metrics, then the questions
and replies in what is left (at 80x24 the last two or three); `r` gives the whole screen to the
questions and replies, and again back to the metrics."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, RichLog, Static
from textual.worker import Worker, WorkerState

from kglens_tui.answers.bias import Rate, leaning
from kglens_tui.core.safetext import LABEL_LIMIT, markup_literal, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import calls_text
from kglens_tui.modes import FactevalMetrics, KontestMetrics, ModeSnapshot
from kglens_tui.modes.chance import COIN, TFQ_WORDS, gap_chance
from kglens_tui.runs.messages import snapshot_as
from kglens_tui.runs.record import GOING
from kglens_tui.runs.registry import mode_label
from kglens_tui.runs.session import RunSession
from kglens_tui.runs.units import MetricsTable
from kglens_tui.textfmt import failed_text, num, pct, rate_ci
from kglens_tui.tui.format import BREAKPOINTS, CELL_PADDING, duration, fit_widths
from kglens_tui.tui.reads import read_in_thread, screen_read
from kglens_tui.tui.screens import run_controls
from kglens_tui.tui.screens.stored_run import FOLLOW_GROUP, StoredRun, follow
from kglens_tui.tui.screens.workers import ReportsWorkerErrors, on_stack
from kglens_tui.tui.widgets.following_log import FollowingLog
from kglens_tui.tui.widgets.literal_table import LiteralDataTable, cell_width, cut_cell

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

MODE_HELP = """\
## Consistency / fact-eval run

| key | action |
| --- | --- |
| `p` | pause / resume |
| `s` | stop (what is answered is kept; `r` on home resumes the rest); `s` again: stop now, without waiting for the tests in flight |
| `r` | below 130 columns: the questions and replies on the whole screen, or back to the metrics |
| `escape` | back to the runs |

**KONTEST**: each fact is asked with two paraphrases, alone (atomic) and in one conversation in
both orders (sequential); answers that disagree are inconsistencies. **Fact-eval**: true/false,
multiple-choice and list questions; F1 (of precision over answered questions and recall over
all) with its 95% interval, beside what the best blind guess scores; `kglens facteval report`
gives precision and recall with theirs.
Transport errors are never counted as inconsistent or wrong. A run another process drives is
*followed*: the screen shows what that process commits, and `p` and `s` reach it through the
workspace.

In the KONTEST table, **incons. / n** is an oracle's inconsistent tests over its valid ones
(knowledge gap: the relations the model affirmed with neither template, over those whose two
atomic requests were answered), **rate [95%]** that share with its 95% interval, and
**invalid · errors** the tests left out for a reply neither yes nor no or for a failed request
(knowledge gap: — and the relations with a failed atomic request). The **coin · at yes-rate**
/ **chance** column is what a guesser that ignores the question scores on the same questions
(KONTEST: a coin, then a coin saying Yes as often as this model; a constant answer makes no
inconsistency and no gap at all, so an error rate means little without a moderate yes-rate);
the box on the left shows the yes-rate (CORRECT-rate of true/false statements) and warns of a
strong answer bias.
"""

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
"""The worker that makes a mode live screen's figures (`mode_view`)."""
FINISHED = (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)

ENDED = frozenset(str(s) for s in RunStatus if s.ended)
"""Statuses of a run that will not go on by itself: nothing to pause or stop."""

KEPT_BLOCKS = 200
"""Questions with their replies the feed keeps (to wrap them again when its width changes)."""
NO_REPLIES_LIVE = "No replies yet: each question and its reply shows here as it is answered."
NO_REPLIES_STORED = (
    "No stored replies to show: the questions and replies show here once the run commits them."
)


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


class ModeLiveScreen(ReportsWorkerErrors, Screen[Any]):
    """Shows one unit mode's run driven by a RunSession (or stored)."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("p", "toggle_pause", "Pause/resume"),
        Binding("s", "stop", "Stop"),
        # one of the two shows, below 130 columns only (`check_action`)
        Binding("r", "replies(True)", "Replies", tooltip="Show the questions and replies"),
        Binding("r", "replies(False)", "Metrics", tooltip="Show the progress and metrics"),
        Binding("escape", "app.pop_screen", "Runs"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit_app", "Quit"),
    ]
    HELP = MODE_HELP

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def __init__(self, session: RunSession | StoredRun) -> None:
        super().__init__()
        self.session = session
        self._live = session.live
        self._shown = 0
        self._last: tuple[Any, ...] | None = None
        self._view_worker: Worker[Any] | None = None
        """The worker making the figures to show (`mode_view`), while it does."""
        self._table: TableLayout | None = None
        """The metrics table as shown (another: filled anew)."""
        self._generation = 0
        """Counts reshapes: figures made before the latest are shown, then made again."""

    def compose(self) -> ComposeResult:
        yield Header()
        waiting = "starting the run…"
        if isinstance(self.session, StoredRun):
            waiting = f"reading run {self.session.run_id}…"
        yield Static(waiting, id="mode-title")
        with Horizontal(id="mode-top"):
            yield Static("", id="mode-progress")
            yield LiteralDataTable(id="mode-metrics", cursor_type="none", zebra_stripes=True)
        with Vertical(id="mode-feed"):
            yield Static("Questions and replies", classes="section-title")
            yield ReplyLog(NO_REPLIES_LIVE if self._live else NO_REPLIES_STORED, id="mode-replies")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mode-replies", RichLog).can_focus = False
        self.set_interval(self.app.settings.redraw_seconds(), self.refresh_view)
        self.call_after_refresh(self.refresh_view)

    def on_resize(self) -> None:
        # across 130 columns the progress changes its shape and `r` comes or goes: once the
        # screen has its new breakpoint class
        self.call_after_refresh(self._reshaped)

    def _reshaped(self) -> None:
        if not on_stack(self):
            return
        self._last = None
        self._generation += 1  # figures being made now are for the old shape
        self.refresh_view()
        self.refresh_bindings()

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replies":  # narrow only, and the one that changes what shows
            return self.narrow and parameters[0] != self.has_class("-replies")
        return True

    def action_replies(self, show: bool) -> None:
        """Below 130 columns: the questions and replies on the whole screen, or the metrics."""
        self.set_class(show, "-replies")
        self.refresh_bindings()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The figures are made (`mode_view`), or a read of the stored run ended
        (`stored_run.follow`): shown at once; a first read that fails closes the screen with
        the error (the app tells a later one)."""
        if event.worker.group == MODE_VIEW_GROUP:
            event.prevent_default()  # its failure is told once, by `screen_read`
            if event.worker is self._view_worker and event.state in FINISHED:
                self._view_worker = None
            view = screen_read(self, event, MODE_VIEW_GROUP, ModeView)
            if view is not None:
                self._apply(view)
            return
        if event.worker.group != FOLLOW_GROUP:
            return
        if not on_stack(self):
            event.prevent_default()
            return
        if event.state is WorkerState.SUCCESS and event.worker.result:
            self.refresh_view()
        elif event.state is WorkerState.ERROR and self.session.snapshot() is None:
            event.prevent_default()
            self.app.notify(str(event.worker.error), severity="error")
            if self.app.screen is self:
                self.app.pop_screen()

    def refresh_view(self) -> None:
        """Make the figures of the latest snapshot on a worker when it changed (`mode_view`);
        they are shown once made, while the screen is open. Nothing while another screen is
        over it (a dialog over it draws it again, dimmed, at every change)."""
        if not on_stack(self) or self.app.screen is not self:  # closed: a redraw may come after
            return
        follow(self, self.session)  # a stored run is read (again) on a worker
        snap = snapshot_as(self.session.snapshot(), ModeSnapshot)
        if snap is None:
            if self.session.error:
                self.query_one("#mode-title", Static).update(
                    f"[red]{markup_literal(self.session.error)}[/]"
                )
            return
        lost = run_controls.process_lost(self.session, snap.status)
        key = (
            snap.units_done,
            snap.progress.counters.requests,
            snap.status,
            int(snap.elapsed_s),
            lost,
        )
        if key == self._last or self._view_worker is not None:
            return
        room = self.size.width - TABLE_ROOM - (0 if self.narrow else PROGRESS_WIDTH)
        console, live, narrow, shown = self.app.console, self._live, self.narrow, self._shown
        made = (key, self._generation)
        self._view_worker = read_in_thread(
            self,
            lambda: mode_view(snap, made, lost, live, narrow, room, shown, console),
            MODE_VIEW_GROUP,
            "the run's figures",
        )

    @property
    def settled(self) -> bool:
        """Whether the latest snapshot's figures are shown (none being made)."""
        return self._last is not None and self._view_worker is None

    def _apply(self, view: ModeView) -> None:
        """Show what `mode_view` made: widget updates only (the table refilled when its rows
        or their layout changed)."""
        key, generation = view.key
        self._last = key if generation == self._generation else None
        self.query_one("#mode-title", Static).update(view.title)
        self.query_one("#mode-progress", Static).update(view.progress)
        if view.table != self._table:
            self._table = view.table
            _show_table(self.query_one("#mode-metrics", LiteralDataTable), view.table)
        log = self.query_one("#mode-replies", ReplyLog)
        for block in view.blocks:
            log.add(block)
        self._shown = max(self._shown, view.shown)

    def _going(self) -> bool:
        """Whether this app's session drives the shown run and it has not ended."""
        snap = self.session.snapshot()
        ended = snap is not None and snap.status in ENDED
        return bool(self.session.live) and not self.session.error and not ended

    def action_toggle_pause(self) -> None:
        self._press("pause")

    def action_stop(self) -> None:
        self._press("stop")

    def _press(self, action: str) -> None:
        """p or s: to this app's session while it drives the run, else through the workspace
        to the process that does (`run_controls.press`)."""
        session = self.session if isinstance(self.session, RunSession) and self._going() else None
        snap = self.session.snapshot()
        run_id = snap.run_id if snap is not None else self.session.run_id
        run_controls.press(self, action, session, run_id)


@dataclass(frozen=True)
class TableLayout:
    """The metrics table as shown: its columns with their widths, the rows cut to fit, and
    the lines its labels take."""

    columns: tuple[str, ...]
    widths: tuple[int, ...]
    rows: tuple[tuple[Any, ...], ...]
    header: int


@dataclass(frozen=True)
class ModeView:
    """What the screen shows for one snapshot, made off the UI thread (`mode_view`)."""

    key: tuple[Any, ...]
    title: str
    progress: str
    table: TableLayout
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
    """The title, progress, metrics table (fit to ``room`` cells) and the new questions and
    replies (the feed shows ``shown`` requests' so far) of a snapshot."""
    sim = " [reverse yellow] SIMULATED [/]" if snap.simulated else ""
    reason = f" ({markup_literal(snap.stop_reason)})" if snap.stop_reason else ""
    error = lost or snap.error
    title = (
        f"[b]Run {snap.run_id}[/b] · {markup_literal(mode_label(snap.mode))} · target {markup_literal(snap.target_label, limit=LABEL_LIMIT)}{sim} · "
        + (_status(RunStatus.INTERRUPTED) if lost else f"{_status(snap.status)}{reason}")
        + (f"\n[red]{markup_literal(error)}[/]" if error else "")
    )
    progress = _progress(snap, live, narrow=narrow) + _bias_lines(snap.metrics)
    blocks, fed = _feed(snap, shown)
    return ModeView(key, title, progress, _metrics(snap, room, console), blocks, fed)


def _metrics(snap: ModeSnapshot[object], room: int, console: Console) -> TableLayout:
    """The mode's metrics table fit to ``room`` cells."""
    metrics = snap.metrics
    rows: list[tuple[str, ...]] = []
    columns: Sequence[str]
    header = 1
    if isinstance(metrics, KontestMetrics):
        columns, rows, header = KONTEST_COLUMNS, _kontest_rows(metrics), KONTEST_HEADER
    elif isinstance(metrics, FactevalMetrics):
        columns = FACTEVAL_COLUMNS
        for s in metrics.scores:
            chance = metrics.chance_of(s.qtype, s.format, s.context)
            best = chance.best if chance is not None else None
            rows.append(
                (
                    "all" if s.qtype == "all" else f"{s.qtype} {s.format}",
                    s.context,
                    rate_ci(s.f1, *s.f1_ci),
                    pct(best.value if best is not None else None),
                    rate_ci(*s.abstention_ci.bounds),
                    f"{s.total:,}",
                )
            )
    elif isinstance(metrics, MetricsTable):
        columns, rows = metrics.table()
    else:
        columns = ()
    shrink = [(0, 8), (1, 8)] if isinstance(metrics, FactevalMetrics) else [(0, 8)]
    return table_layout(console, columns, rows, header, room=room, shrink=shrink)


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
    lines (the metrics and the replies under them need the rows)."""
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


FOLLOWED = "followed: another process drives it"
"""What a live screen says of a run another process drives (`_whose`)."""


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
    m = snap.metrics
    failed = getattr(m, "relations_failed", getattr(m, "questions_failed", 0))
    return f" · {failed:,} with a failed request" if failed else ""


KONTEST_COLUMNS = ("oracle", "incons. / n", "rate [95%]", "coin · at yes-rate", "invalid · errors")
"""The KONTEST table's columns: the inconsistent tests over the rate's n, the rate with its
interval, what a coin and a coin saying Yes at the model's yes-rate score, and the tests an
invalid reply or a failed request left out. Their labels take two lines (`KONTEST_HEADER`) so
that the table fits 80 columns."""
KONTEST_HEADER = 2


def _kontest_rows(metrics: KontestMetrics) -> list[tuple[str, ...]]:
    """Each oracle's inconsistent tests over its valid ones (the gap's relations in the gap
    over those whose two atomic requests were answered, `Coverage.gap_both_rate`, as the
    report), the rate with its interval, the coin's and the coin at the yes-rate, and the
    invalid and failed tests (for the gap: relations with a failed atomic request)."""
    rows: list[tuple[str, ...]] = []
    p_yes = metrics.chance.p_yes
    for o in metrics.oracles:
        rows.append(
            (
                o.oracle,
                f"{o.inconsistent:,}/{o.valid:,}",
                _rate(Rate(o.inconsistent, o.valid)),
                f"{pct(metrics.coin_error_rate(o.oracle))} · "
                f"{pct(metrics.coin_error_rate(o.oracle, at_yes_rate=True))}",
                f"{o.invalid:,} · {o.errors:,}",
            )
        )
    gap = metrics.coverage.gap_both_rate
    rows.append(
        (
            "knowledge gap (both)",
            f"{gap.k:,}/{gap.n:,}",
            _rate(gap),
            f"{pct(gap_chance(COIN))} · {pct(None if p_yes is None else gap_chance(p_yes))}",
            f"— · {metrics.coverage.unknown_both:,}",
        )
    )
    return rows


def _rate(rate: Rate) -> str:
    """A rate with its 95% interval (its k/n is in the row's "incons. / n" column)."""
    interval = rate.interval
    return rate_ci(rate.value, *(interval if interval is not None else (None, None)))


def _status(status: str) -> str:
    """The run's status, marked while the local model loads (no request goes out then)."""
    return (
        "[b yellow]loading model…[/]"
        if status == RunStatus.LOADING_MODEL
        else markup_literal(status)
    )


TABLE_ROOM = 2
"""Cells of the screen's width the metrics table cannot use (a scrollbar)."""
PROGRESS_WIDTH = 40
"""The progress pane's width beside the table from 130 columns (app.tcss `#mode-progress`)."""

FACTEVAL_COLUMNS = ("question", "context", "F1 [95%]", "chance", "abstained [95%]", "n")
"""The fact-eval table's columns: each group's F1 and abstention rate with their intervals,
what the best blind guess scores, and the questions replied to."""


def _fill(
    table: LiteralDataTable[Any],
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    header: int = 1,
    *,
    room: int | None = None,
    shrink: Sequence[tuple[int, int]] = (),
) -> None:
    """Refill the table as `table_layout` fits it."""
    layout = table_layout(table.app.console, columns, rows, header, room=room, shrink=shrink)
    _show_table(table, layout)


def table_layout(
    console: Console,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    header: int = 1,
    *,
    room: int | None = None,
    shrink: Sequence[tuple[int, int]] = (),
) -> TableLayout:
    """Columns as wide as their widest cell: auto-sized columns keep their label's width when
    the table was drawn between the rows' arrival and its re-measuring. With ``header`` lines
    a label wraps at its words, and its column is only as wide as that needs. Where the
    columns would pass ``room`` cells, those of ``shrink`` (index, least width; the first cut
    first) are cut with "…"; the others (the numbers) stay whole."""
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
    return TableLayout(tuple(columns), tuple(widths), cut, header)


def _show_table(table: LiteralDataTable[Any], layout: TableLayout) -> None:
    """Fill the table anew as laid out."""
    table.clear(columns=True)
    table.header_height = layout.header
    for label, width in zip(layout.columns, layout.widths, strict=True):
        table.add_column(label, width=width)
    for row in layout.rows:
        table.add_row(*row)


def _bias_lines(metrics: object) -> str:
    """The yes-rate (the CORRECT-rate of true/false questions) with its interval and n, and a
    warning on a strong answer bias; '' before any answer."""
    if isinstance(metrics, KontestMetrics) and metrics.chance.yes_rate.n:
        c = metrics.chance
        text = f"\nyes-rate {c.yes_rate.text()} · a constant answer is never inconsistent"
        if c.warning():
            leans = leaning(c.yes_rate)
            assert leans is not None  # warning() is '' without a leaning
            side = leans.capitalize()
            text += (
                f"\n[b yellow]⚠ answer bias: always {side} makes no error on these true facts[/]"
            )
        return text
    if isinstance(metrics, FactevalMetrics) and metrics.tfq_bias:
        context, b = next(((c, b) for c, b in metrics.tfq_bias if c == "none"), metrics.tfq_bias[0])
        text = (
            f"\nTFQ {markup_literal(context, limit=20)}: CORRECT-rate {b.yes_rate.text()}"
            f"\nbalanced acc. {num(b.balanced_accuracy)} (chance 0.50)"
        )
        if b.biased:
            leans = leaning(b.yes_rate)
            assert leans is not None  # biased implies a leaning
            side = TFQ_WORDS[leans]
            text += f"\n[b yellow]⚠ answer bias: near what always {side} scores[/]"
        return text
    return ""
