"""The loop every unit mode shares (KONTEST, fact-eval, a plugin's), headless: take planned test
units, ask, commit, repeat.

Like `ProbeEngine`, it counts in `RunEngine.counters` and hands out immutable `ModeSnapshot`s,
each headed by a `RunProgress`; a UI polls `snapshot()`, a CLI passes `on_progress`. Units are
committed in small batches, each in one transaction, so a stopped or crashed run resumes from
its last commit. A unit with a failed request is asked again on resume; a failed request is
never counted as a model answer. When the target keeps failing,
`kglens_tui.llm.failures.FailureGuard` stops the run as failed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from kglens_tui.core.status import ASK_AGAIN, RunStatus
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError, QuestionMeta
from kglens_tui.llm.failures import MOSTLY_FAILED
from kglens_tui.llm.pacing import complete_counted
from kglens_tui.llm.usage import Counters, CountingClient, HelperRole, Usage, counted
from kglens_tui.runs.config import ConfigT
from kglens_tui.runs.lifecycle import BUDGET_REASON, STOPPED_BY_USER, RunEngine
from kglens_tui.runs.progress import RunProgress, WithProgress
from kglens_tui.runs.record import RunRecord, set_units_done
from kglens_tui.store.connection import retry_busy, transaction
from kglens_tui.store.helper_usage import add_usage, load_usage
from kglens_tui.store.target_usage import COLUMNS as USAGE_COLUMNS
from kglens_tui.store.target_usage import (
    add_target_usage,
    load_target_usage,
    start_target_usage,
)

T = TypeVar("T")
MetricsT = TypeVar("MetricsT")
"""A unit mode's metrics (`KontestMetrics`, `FactevalMetrics`, a plugin's)."""
MetricsT_co = TypeVar("MetricsT_co", covariant=True)
RowT = TypeVar("RowT")
"""What a unit mode stores of one answered test."""
RECENT = 200
COMMIT_EVERY = 16
"""Units per commit (at most); a commit also happens every COMMIT_S seconds."""
COMMIT_S = 0.5


@dataclass(frozen=True)
class Reply:
    """The outcome of one request: the reply text, or the API failure (in its usage)."""

    text: str = ""
    usage: Usage = Usage()
    kind: str = ""
    """The LLMError kind of a failed request."""

    @property
    def failed(self) -> bool:
        return self.usage.failed


SENT: ContextVar[list[int] | None] = ContextVar("kglens_unit_sent", default=None)
"""The requests the unit being asked has sent (`ask` adds to each that went out): a unit
cancelled in the middle (a stop now, the app quitting, the failure rule) still counts them."""


async def ask(
    client: ChatClient,
    messages: tuple[dict[str, str], ...],
    *,
    max_tokens: int,
    temperature: float,
    meta: QuestionMeta | None = None,
) -> Reply:
    """Send one request; an LLMError becomes a failed Reply, never a model answer."""
    request = ChatRequest(messages, max_tokens=max_tokens, temperature=temperature, meta=meta)
    sent = SENT.get()
    try:
        if sent is None or isinstance(client, CountingClient):  # helpers count themselves
            done = await client.complete(request)
        else:
            done = await complete_counted(client, request, sent)
    except LLMError as exc:
        return Reply(usage=Usage.failure(exc), kind=exc.kind)
    return Reply(done.text, Usage.of(done))


@dataclass(frozen=True)
class QueryView:
    """One question and reply as a live screen shows it."""

    unit: int
    kind: str
    """KONTEST: the conversation (atomic1, seq12...); facteval: qtype/format/context."""
    question: str
    reply: str
    label: str
    """KONTEST: yes, no, invalid or error; facteval: the category."""


@dataclass(frozen=True)
class ModeSnapshot(WithProgress, Generic[MetricsT_co]):
    """An immutable copy of a mode run's progress, safe to hand to another thread; ``metrics``
    are of its mode's type (`KontestMetrics`, `FactevalMetrics`, a plugin's)."""

    run_id: int
    mode: str
    progress: RunProgress[QueryView]
    """Status, the target's counters (every request sent, those of units not committed yet
    too) and the latest replies."""
    units_done: int
    """Units whose every request was answered (`ModeEngine.units_done`)."""
    units_total: int
    elapsed_s: float
    """Seconds since this engine started (this session of the run)."""
    target_label: str
    simulated: bool
    stop_reason: str
    error: str
    metrics: MetricsT_co
    session_requests: int = 0
    """Requests sent since this engine started (``progress.counters`` counts every stored
    one)."""
    helpers: dict[str, Counters] = field(default_factory=dict)
    """Calls of the generator or paraphraser, apart from the target's
    (``progress.counters``)."""
    spend: str = ""
    """What the run has cost so far (`runs.spend.spend_text`; "" for free models)."""
    units_failed: int = 0
    """Units asked whose replies are all in but one failed (not done: a resume asks them
    again), as the mode counts them (`ModeEngine.units_failed`)."""

    @property
    def done_share(self) -> float:
        """Share of planned units done (0 to 1)."""
        return self.units_done / self.units_total if self.units_total else 1.0

    @property
    def requests_per_s(self) -> float:
        """Requests per second since this engine started."""
        return self.session_requests / self.elapsed_s if self.elapsed_s > 0 else 0.0


@dataclass
class UnitResult(Generic[RowT]):
    """What one unit produced: rows for the database and replies for the stats."""

    unit: int
    rows: list[RowT]
    replies: list[Reply]
    views: list[QueryView] = field(default_factory=list)


class ModeEngine(RunEngine[ConfigT, ModeSnapshot[MetricsT]], Generic[ConfigT, MetricsT, RowT]):
    """Runs one mode run's pending units to the end (or a stop). Subclasses plan the units,
    ask them, store them and compute their metrics. Generic over the mode's settings, metrics
    and stored rows."""

    helper_role = HelperRole.GENERATOR
    """What the `generator` client does in this mode."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[ConfigT],
        kg: KGIndex,
        target: ChatClient,
        *,
        generator: ChatClient | None = None,
        on_progress: Callable[[ModeSnapshot[MetricsT]], None] | None = None,
    ) -> None:
        super().__init__(conn, run, kg, target)
        self.generator = counted(generator, self.helper_role, self.helpers)
        self.on_progress = on_progress
        self._session_requests = 0
        """Requests this engine sent (counted as their replies come in)."""
        self.recent: deque[QueryView] = deque(maxlen=RECENT)
        self._queue: deque[int] = deque()
        self._units_session = 0
        """Units this engine asked (answered, failed or cancelled)."""
        self._dropped = 0
        """Requests of units cancelled in the middle, not stored yet."""
        self._slots = asyncio.Semaphore(max(1, int(self.config.concurrency)))
        self._buffer: list[UnitResult[RowT]] = []
        self._last_commit = time.monotonic()
        self._started = time.monotonic()
        self._metrics: MetricsT | None = None
        self._totals_sql = ""

    def load_totals(self, sql: str | None = None) -> None:
        """Counters of the requests the run has sent (requests, failed, retries, tokens,
        dropped), as stored with its answers. ``sql`` selects those five sums over the answers the run keeps
        for its id: what a run stored before every request was counted shows."""
        if sql is not None:
            self._totals_sql = sql
        stored = load_target_usage(self.conn, self.run.id)
        counts = stored if stored is not None else self._answer_sums()
        self.helpers.stored = load_usage(self.conn, self.run.id)
        self.counters = Counters(*counts)

    def _answer_sums(self) -> tuple[int, ...]:
        """The counts summed over the answers the run keeps (its latest attempts; none
        dropped)."""
        if not self._totals_sql:
            return (0,) * len(USAGE_COLUMNS)
        row = self.conn.execute(self._totals_sql, (self.run.id,)).fetchone()
        return (*(int(v or 0) for v in row), 0)

    # what a mode provides
    def units_total(self) -> int:
        raise NotImplementedError

    def units_done(self) -> int:
        """Units whose every request was answered: the planned units not `pending` (a unit with
        a failed request is not done; a resume asks it again)."""
        return self.units_total() - len(self.pending())

    def load_stored(self) -> None:
        """Read what the run has stored (its answers, and the questions a generator wrote) into
        the state `pending` and the metrics come from."""
        raise NotImplementedError

    def pending(self) -> Sequence[int]:
        """Units not answered yet, or with a failed request."""
        raise NotImplementedError

    async def run_unit(self, unit: int) -> UnitResult[RowT]:
        raise NotImplementedError

    def store(self, results: list[UnitResult[RowT]]) -> None:
        """Write results inside the caller's transaction."""
        raise NotImplementedError

    def absorb(self, result: UnitResult[RowT]) -> None:
        """Take a committed result into the in-memory state the metrics come from."""
        raise NotImplementedError

    def compute_metrics(self) -> MetricsT:
        raise NotImplementedError

    def units_failed(self, metrics: MetricsT) -> int:
        """Units asked whose replies are all in but one failed, by the metrics (0: a mode that
        does not count them)."""
        return 0

    def stored_views(self, limit: int) -> list[QueryView]:
        """The run's last ``limit`` stored questions and replies, oldest first, as `recent`
        holds them (one indexed query, never the whole run). The order is the plan's: the order
        in which concurrent units were answered is not stored. Empty for a mode that keeps no
        replies it can show."""
        return []

    def load_recent(self) -> None:
        """Fill `recent` with what the run has stored: a stored or resumed run's feed."""
        self.recent.clear()
        self.recent.extend(self.stored_views(RECENT))

    def snapshot(self, insights: bool = True) -> ModeSnapshot[MetricsT]:
        """The run's progress and metrics (``insights`` is for the harness: a unit mode's
        metrics are kept current at each commit)."""
        metrics = self._metrics
        if metrics is None:
            metrics = self._metrics = self.compute_metrics()
        return ModeSnapshot(
            run_id=self.run.id,
            mode=self.mode,
            progress=self._progress(self.recent),
            units_done=self.units_done(),
            units_total=self.units_total(),
            elapsed_s=time.monotonic() - self._started,
            target_label=self.target.label,
            simulated=bool(self.target.simulated),
            stop_reason=self.stop_reason,
            error=self.error,
            metrics=metrics,
            session_requests=self._session_requests,
            helpers=self.helpers.totals(),
            spend=self.spend_shown(),
            units_failed=self.units_failed(metrics),
        )

    async def limited(self, coro_fn: Callable[[], Awaitable[T]]) -> T:
        """Run one request under the concurrency limit."""
        async with self._slots:
            return await coro_fn()

    # the loop: work through the planned units, committing in small batches
    async def _ask_until_done(self) -> None:
        """Ask every pending unit, `concurrency` at a time. The failure rule cancels the units
        in flight (a resume asks them again)."""
        self._queue = deque(self.pending())
        set_units_done(self.conn, self.run.id, self.units_done(), self.units_total())
        if self._queue:
            await self._load_target()
        await self._dispatch(_Units(self), self.config.concurrency)
        self._flush()

    async def _keep_finished(self) -> None:
        self._flush()

    def _mostly_unanswered(self) -> str:
        failed = len(self.pending()) - len(self._queue)
        total = self.units_total()
        if failed <= MOSTLY_FAILED * total:
            return ""
        return (
            f"{failed:,} of the {total:,} tests have a failed request, so the figures would "
            f"rest on the {total - len(self.pending()):,} answered ({ASK_AGAIN}); latest: "
            f"{self.guard.latest or 'none'}"
        )

    def _ended(self, stopped: bool) -> str:
        if self.stop_reason == BUDGET_REASON:  # a resume would stop on the same budget
            unasked = len(self._queue)
            failed = len(self.pending()) - unasked
            self.stop_reason += f"; {unasked:,} of {self.units_total():,} tests not asked" + (
                f", {failed:,} with a failed request" if failed > 0 else ""
            )
            return RunStatus.FINISHED
        if self._queue:
            self.stop_reason = self.stop_reason or STOPPED_BY_USER
            return RunStatus.STOPPED
        failed = len(self.pending())
        self.stop_reason = "all tests asked" + (
            self._failed_note(f"{failed} with a failed request") if failed else ""
        )
        return RunStatus.FINISHED

    def _final_snapshot(self) -> ModeSnapshot[MetricsT]:
        snap = self.snapshot()
        if self.on_progress is not None:
            self.on_progress(snap)
        return snap

    def _reload(self) -> None:
        """Inside the claim: read the stored results again, so units another process answered
        since this engine loaded the run are not asked twice."""
        self.load_stored()
        start_target_usage(self.conn, self.run.id, self._answer_sums())
        self.load_totals()
        self._metrics = self.compute_metrics()

    async def _ask_unit(self, unit: int) -> UnitResult[RowT]:
        """Ask one unit, counting the requests it sends (those of a unit cancelled or failed
        midway are stored as sent and dropped)."""
        unit_sent = [0]
        SENT.set(unit_sent)
        try:
            return await self.run_unit(unit)
        except BaseException:  # cancelled, or the mode failed: what it sent still counts
            self._dropped += unit_sent[0]
            raise
        finally:
            self._units_session += 1

    def _budget_fits(self, in_flight: int) -> bool | None:
        """Whether the budgets leave room for one more unit besides ``in_flight`` ones, each
        expected to cost what this session's units cost on average (the first unit runs alone,
        to show what a unit costs); None: unclear until a unit in flight ends."""
        left = self._calls_left()
        if left is None:
            return True
        if left == 0:
            return False
        if self._units_session == 0:
            return True if in_flight == 0 else None
        per_unit = max(self._session_requests / self._units_session, 1.0)
        if left >= (in_flight + 1) * per_unit:
            return True
        return False if in_flight == 0 else None

    def _account(self, result: UnitResult[RowT]) -> None:
        """Count replies not committed yet (a commit reloads the stored totals)."""
        for r in result.replies:
            self.counters = self.counters.plus_one(r.usage, r.failed)
            self._session_requests += 1
            self.guard.record((r.kind or "error") if r.failed else None, r.usage.error)
        self.recent.extend(result.views)

    def _flush(self) -> None:
        """Commit the buffered units (and the count of requests that cancelled units had sent)
        in one transaction and refresh the metrics."""
        if not self._buffer and not self._dropped:
            return
        results, self._buffer = self._buffer, []
        dropped, self._dropped = self._dropped, 0
        helpers = self.helpers.take()
        replies = (r for result in results for r in result.replies)
        sent = Counters.of((r.usage, r.failed) for r in replies)
        sent += Counters(requests=dropped, dropped=dropped)

        def write() -> None:
            with transaction(self.conn):
                self.store(results)
                add_usage(self.conn, self.run.id, helpers)
                add_target_usage(self.conn, self.run.id, sent.values())

        retry_busy(write)
        for r in results:
            self.absorb(r)
        set_units_done(self.conn, self.run.id, self.units_done(), self.units_total())
        self.load_totals()
        self._last_commit = time.monotonic()
        self._metrics = self.compute_metrics()
        if self.on_progress is not None:
            self.on_progress(self.snapshot())


class _Units(Generic[ConfigT, MetricsT, RowT]):
    """A unit mode's schedule: the planned units in order, as many at once as the budgets
    allow; finished units are committed every COMMIT_EVERY units or COMMIT_S seconds, and
    whenever nothing is in flight (a pause)."""

    def __init__(self, engine: ModeEngine[ConfigT, MetricsT, RowT]) -> None:
        self.engine = engine

    def limit(self) -> bool:
        return False  # a unit mode's budget is looked at unit by unit, in `plan`

    async def plan(self, room: int) -> list[Awaitable[UnitResult[RowT]]] | None:
        engine, queue = self.engine, self.engine._queue
        work: list[Awaitable[UnitResult[RowT]]] = []
        while len(work) < room and queue:
            fits = engine._budget_fits(engine.in_flight + len(work))
            if fits is None:
                break
            if not fits:
                engine.stop_reason = BUDGET_REASON
                return None
            work.append(engine._ask_unit(queue.popleft()))
        return work if work or queue else None

    def take(self, result: UnitResult[RowT]) -> None:
        self.engine._account(result)
        self.engine._buffer.append(result)

    def commit(self, idle: bool) -> bool:
        engine = self.engine
        due = (
            idle
            or len(engine._buffer) >= COMMIT_EVERY
            or time.monotonic() - engine._last_commit >= COMMIT_S
        )
        if not due or not (engine._buffer or engine._dropped):
            return False
        engine._flush()
        return True
