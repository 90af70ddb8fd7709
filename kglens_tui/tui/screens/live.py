"""Live probe screen: metrics with sparklines, progress, replies as they arrive, blind spots and
per-predicate rates. It polls the session's snapshot a few times a second; it never blocks."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, RichLog, Sparkline, Static

from kglens_tui.analysis.coin_baseline import CoinBaseline
from kglens_tui.analysis.coin_replay import CoinReplay
from kglens_tui.core.intervals import stored_rate
from kglens_tui.core.safetext import LABEL_LIMIT, markup_literal, squeezed, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.usage import calls_text
from kglens_tui.probe.bias import bias_from_counts
from kglens_tui.probe.engine import ProbeSnapshot
from kglens_tui.runs.session import RunSession
from kglens_tui.textfmt import failed_text, interval, pct
from kglens_tui.tui.format import BREAKPOINTS, VERDICT_STYLE, duration
from kglens_tui.tui.screens import run_controls
from kglens_tui.tui.screens.stored_run import StoredRun
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.live_chart import LiveChart

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

LIVE_HELP = """\
## Live probe

| key | action |
| --- | --- |
| `p` | pause / resume (pauses after the current iteration) |
| `s` | stop: finish and commit the current iteration, then end the run; `s` again: stop now (the iteration in flight is asked again on resume) |
| `escape` | back to the runs (a running probe keeps going) |
| `q` | quit (asks first while a run is active) |
| `ctrl+p` | command palette |

**Win rate**: share of examined edges the model answers right more often than wrong (m > n).
**Zero-sense**: never right (m = 0). **All-sense**: never wrong (n = 0). Refused and
unparseable replies count as wrong; transport errors never do (the edge is asked again).
**Blind spots**: examined edges with the highest posterior error rate P(err) under a model
learned from the run's answers (predicate and entity effects): m right and n wrong answers of
the edge itself, and *nbrs*, the share of P(err) that comes from its predicate and neighbours
rather than its own answers. **learned** (under the progress): how much of the variation of
error rates neighbours and predicates explain, and the predicates the model fails most.
"""

TABLES_EVERY_S = 1.0
"""Metric cards and tables redraw at most this often; a fast run must not make the UI lag."""
REPLIES_PER_REFRESH = 6
"""At full speed only the newest replies of each refresh are written (nobody reads faster)."""

NAME_LIMIT = 18
"""Characters of a subject, predicate or object in the live tables (the numbers come first)."""

BASELINE_ATTR = {"win": "win_rate", "zero_sense": "zero_sense", "all_sense": "all_sense"}

METRICS = (("win", "Win rate"), ("zero_sense", "Zero-sense rate"), ("all_sense", "All-sense rate"))


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

    def show(self, snap: ProbeSnapshot, coin: CoinBaseline | None = None) -> None:
        value, low_high, guess = _figures(snap, self.attr, coin)
        rates = snap.rates
        detail = low_high + (f" n={rates.examined:,}" if low_high and rates is not None else "")
        detail += f"\n{guess}" if guess else ""
        self.query_one(".metric-value", Static).update(value)
        self.query_one(".metric-detail", Static).update(detail)
        values = [getattr(r, self.attr) for r in snap.history if getattr(r, self.attr) is not None]
        self.query_one(Sparkline).data = values[-60:] or [0.0]


def _figures(
    snap: ProbeSnapshot, attr: str, coin: CoinBaseline | None = None
) -> tuple[str, str, str]:
    """A rate now, its 95% interval ('' before any) and what chance scores ('' unknown): a
    coin-flipping target under the run's sampler once replayed ("coin 52% [49–55]", with the
    answers it was replayed at while the run has more: "at 512 answers"), until then guessing
    on independent asks ("guess 50%")."""
    latest = snap.rates
    value = getattr(latest, attr) if latest is not None else None
    low_high = ""
    if latest is not None and value is not None:
        p = stored_rate(value, latest.examined)
        low_high = interval(p.low, p.high)
    if coin is not None:
        band = coin.rates[attr]
        answered = sum(n for category, n in snap.counts.items() if category != "error")
        at = f" at {coin.answered:,} answers" if answered > coin.answered else ""
        return pct(value), low_high, f"coin {pct(band.mean)} {interval(band.low, band.high)}{at}"
    guess = getattr(snap.baseline, BASELINE_ATTR[attr], None) if snap.baseline else None
    return pct(value), low_high, "" if guess is None else f"guess {pct(guess)}"


def _compact_rates(snap: ProbeSnapshot, coin: CoinBaseline | None = None) -> str:
    """The three rates in a narrow box (below 130 columns, in place of the cards)."""
    lines = []
    for attr, title in METRICS:
        value, low_high, guess = _figures(snap, attr, coin)
        lines.append(f"{title.removesuffix(' rate'):<10} [b]{value}[/] {low_high}")
        lines.append(f"  {guess}")
    examined = snap.rates.examined if snap.rates is not None else 0
    return "\n".join([*lines, f"[dim]n={examined:,} edges examined[/]"])


class LiveScreen(Screen):
    """Shows one run: live when a session drives it, else as stored."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("p", "toggle_pause", "Pause/resume", id="pause"),
        Binding("s", "stop", "Stop", id="stop"),
        Binding("escape", "back", "Runs"),
        Binding("question_mark", "app.help", "Help", id="help"),
        Binding("q", "app.quit_app", "Quit", id="quit"),
    ]
    HELP = LIVE_HELP
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]
    """The chart pane shows only on wide (BREAKPOINTS) and tall terminals (see app.tcss)."""

    def __init__(
        self,
        run_id: int | None,
        session: RunSession | None = None,
        stored: StoredRun | None = None,
    ) -> None:
        super().__init__()
        self.run_id = run_id
        self.session = session
        self._stored = stored
        self._shown_replies = 0
        self._last_key: tuple | None = None
        self._tables_at = 0.0
        self.coin: CoinBaseline | None = None
        """The coin target's band, replayed at iteration `_coin_at` (None: not yet)."""
        self._coin_at: int | None = None
        self._coin_job: CoinReplay | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="run-title")
        with Horizontal(id="top"):
            for attr, title in METRICS:
                yield MetricCard(attr, title)
            yield Static("", id="rates")
            yield Static("", id="progress")
        with Grid(id="panes"):
            with Vertical(id="replies-pane"):
                yield Static("Questions and replies", classes="section-title")
                yield RichLog(id="replies", wrap=True, markup=False, max_lines=500)
            with Vertical(id="side"):
                yield Static(
                    "Blind spots (nbrs: share from its predicate and neighbours)",
                    classes="section-title",
                )
                yield LiteralDataTable(id="blind", cursor_type="row", zebra_stripes=True)
                yield Static("Per predicate (paper Fig. 6)", classes="section-title")
                yield LiteralDataTable(id="preds", cursor_type="row", zebra_stripes=True)
        yield LiveChart(id="live-chart")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replies", RichLog).can_focus = False
        blind = self.query_one("#blind", DataTable)
        blind.add_columns("P(err)", "m", "n", "nbrs", "subject", "predicate", "object")
        preds = self.query_one("#preds", DataTable)
        preds.add_columns("examined", "zero-sense", "win", "predicate")
        self.call_after_refresh(self.refresh_view)
        self.set_interval(self.app.settings.redraw_seconds(), self.refresh_view)

    def snapshot(self) -> ProbeSnapshot | None:
        if self.session is not None:
            snap = self.session.snapshot()
            if snap is not None:
                self.run_id = snap.run_id
            return snap
        return self._stored.snapshot() if self._stored is not None else None

    def refresh_view(self) -> None:
        """Redraw from the latest snapshot; cheap when nothing changed."""
        self._collect_coin()
        snap = self.snapshot()
        if snap is None:
            error = self.session.error if self.session is not None else ""
            notice = self.session.notice if self.session is not None else ""
            self.query_one("#run-title", Static).update(
                f"[red]{markup_literal(error)}[/]"
                if error
                else (markup_literal(notice) or "starting the run…")
            )
            return
        lost = run_controls.process_lost(self.session, snap.status)
        key = (snap.iteration, snap.replies_total, snap.status, int(snap.elapsed_s), lost)
        if key == self._last_key:
            return
        now = time.monotonic()
        structural = (self._last_key is None or self._last_key[0] != snap.iteration) and (
            now - self._tables_at >= TABLES_EVERY_S or snap.status != RunStatus.RUNNING
        )
        self._last_key = key
        self._title(snap)
        self._progress(snap)
        self._replies(snap)
        if structural:
            self._tables_at = now
            for card in self.query(MetricCard):
                card.show(snap, self.coin)
            self.query_one("#rates", Static).update(_compact_rates(snap, self.coin))
            self._replay_coin_if_due(snap)
            self._tables(snap)
            self.query_one(LiveChart).show(snap, self.app.db())

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
            self.app.notify(f"chance band not replayed: {job.error}", severity="warning")
            return
        self.coin, self._last_key = job.band, None

    def on_unmount(self) -> None:
        if self._coin_job is not None:
            self._coin_job.terminate()

    def _title(self, snap: ProbeSnapshot) -> None:
        lost = run_controls.process_lost(self.session, snap.status)
        if lost:  # the last snapshot still says running
            snap = dataclasses.replace(
                snap, status=RunStatus.INTERRUPTED, stop_reason="", error=lost
            )
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
        if snap.error:
            text += f"\n[red]{markup_literal(snap.error)}[/]"
        self.query_one("#run-title", Static).update(text)

    def _progress(self, snap: ProbeSnapshot) -> None:
        if run_controls.process_lost(self.session, snap.status):  # what was in flight is gone
            snap = dataclasses.replace(snap, status=RunStatus.INTERRUPTED, answered_in_iteration=0)
        per_it = snap.elapsed_s / snap.iteration if snap.iteration else None
        remaining = snap.iterations_total - snap.iteration
        eta = (
            per_it * remaining if per_it is not None and snap.status == RunStatus.RUNNING else None
        )
        tokens = calls_text(snap.prompt_tokens + snap.completion_tokens, snap.helpers, "tokens")
        rate = f" · {snap.requests_per_s:,.1f}/s" if snap.session_requests else ""
        lines = [
            f"iteration [b]{snap.iteration}[/] of {snap.iterations_total}"
            + (f"  (+{snap.answered_in_iteration} answered)" if snap.answered_in_iteration else ""),
            "[b yellow]loading model…[/]"
            if snap.loading
            else f"requests {calls_text(snap.requests, snap.helpers)}{rate}",
            f"tokens {tokens} · {failed_text(snap.errors, snap.dropped)} · "
            f"retries {snap.retries:,}",
            f"elapsed {duration(snap.elapsed_s)} · ETA {duration(eta)}",
            f"convergence: {_convergence(snap)}",
            *_bias_lines(snap),
            *_learned_line(snap),
        ]
        self.query_one("#progress", Static).update("\n".join(lines))

    def _replies(self, snap: ProbeSnapshot) -> None:
        log = self.query_one("#replies", RichLog)
        new = min(snap.replies_total - self._shown_replies, len(snap.recent), REPLIES_PER_REFRESH)
        if self._shown_replies == 0 and snap.replies_total == 0:
            new = len(snap.recent)
        if new > 0:
            block = Text()
            for view in snap.recent[len(snap.recent) - new :]:
                if block:
                    block.append("\n")
                block.append(f"{view.category:<11}", style=VERDICT_STYLE.get(view.category, ""))
                question = visible(view.question, one_line=True, limit=LABEL_LIMIT * 3)
                block.append(f" {question}\n", style="bold")
                expected = (
                    f" (expected {visible(view.expected, one_line=True)})" if view.expected else ""
                )
                reply = visible(squeezed(view.reply), one_line=True, limit=200)
                block.append(f"            → {reply}{expected}", style="dim")
            log.write(block, width=max(log.scrollable_content_region.width - 2, 20))
        self._shown_replies = max(snap.replies_total, self._shown_replies)

    def _tables(self, snap: ProbeSnapshot) -> None:
        blind = self.query_one("#blind", DataTable)
        blind.clear()
        for b in snap.blind_spots:
            blind.add_row(
                f"{b.mean_error:.2f}",
                str(b.m),
                str(b.n),
                f"{b.from_neighbours:.0%}",
                visible(b.subject, one_line=True, limit=NAME_LIMIT),
                visible(b.predicate, one_line=True, limit=NAME_LIMIT),
                visible(b.object, one_line=True, limit=NAME_LIMIT),
            )
        preds = self.query_one("#preds", DataTable)
        preds.clear()
        for p in snap.per_predicate:
            preds.add_row(
                f"{p.examined}/{p.edges}",
                pct(p.zero_sense),
                pct(p.win),
                visible(p.predicate, one_line=True, limit=2 * NAME_LIMIT),
            )

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


def _learned_line(snap: ProbeSnapshot) -> list[str]:
    """What the answers teach, in one line (markup; names made literal), when known."""
    learned = snap.learned
    if learned is None:
        return []
    worst = ", ".join(
        f"{markup_literal(name, limit=NAME_LIMIT)} {error:.0%}"
        for name, error, _ in learned.weakest_predicates[:2]
    )
    return [
        f"learned: nbrs {learned.neighbour_weight:.0%} · predicates "
        f"{learned.predicate_share:.0%}{' · worst ' + worst if worst else ''}"
    ]


def _bias_lines(snap: ProbeSnapshot) -> list[str]:
    """Yes-rate and balanced accuracy of the Yes/No replies, and a warning line on strong bias."""
    bias = bias_from_counts(snap.yes_no)
    if not bias.answered:
        return ["yes-rate —"]
    text = f"yes-rate {pct(bias.yes_rate.value)} (n={bias.answered:,}) · bal. acc. "
    text += "—" if bias.balanced_accuracy is None else f"{bias.balanced_accuracy:.2f}"
    if not bias.biased:
        return [text]
    rate = bias.yes_rate.value
    assert rate is not None  # biased implies a yes-rate (leaning() needs one)
    side, share = ("Yes", rate) if rate > 0.5 else ("No", 1 - rate)
    return [text, f"[b yellow]⚠ answer bias: says {side} to {share:.0%}[/]"]


def _convergence(snap: ProbeSnapshot) -> str:
    """The engine's own convergence state: converged, or how many of its window the rates held."""
    window = snap.convergence_window
    if snap.converged or snap.stable_iterations >= window:
        return "[green]converged[/]" + ("" if snap.stop_on_convergence else " (not stopping)")
    return f"stable {snap.stable_iterations} of {window} iterations"
