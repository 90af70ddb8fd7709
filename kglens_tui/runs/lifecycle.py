"""What every mode's engine shares, headless: the control surface (pause, resume, stop, abort),
the claim on the run, loading a local model, the failure rule, the budgets, the loop that asks
(`kglens_tui.runs.dispatch`) and the final status.

An engine subclasses `RunEngine` and provides `_ask_until_done`: it makes the mode's `Schedule`
(what to ask next, how to score and commit it) and runs it through `_dispatch` (KGLens plans each
iteration from the answers so far; a unit mode works through a plan made when the run was
created, `kglens_tui.runs.units`). `run_to_end` drives it and records how the run ended, the same
way for every mode.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from kglens_tui.core.status import ASK_AGAIN, RunStatus
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient
from kglens_tui.llm.failures import STOP_REASON, FailureGuard
from kglens_tui.llm.pricing import Price, Spend
from kglens_tui.llm.usage import Counters, UsageLedger
from kglens_tui.runs.config import ConfigT
from kglens_tui.runs.control import POLL_S, take_request
from kglens_tui.runs.dispatch import Dispatcher, Dispatching, ResultT, Schedule
from kglens_tui.runs.messages import Abort, Command, Pause, Resume, SnapshotT
from kglens_tui.runs.prices import configured_prices
from kglens_tui.runs.progress import RunProgress
from kglens_tui.runs.record import RunRecord, claim_run, mark_going, set_status
from kglens_tui.runs.spend import run_spend, spend_text

ViewT = TypeVar("ViewT")
BUDGET_REASON = "budget used up"
STOPPED_BY_USER = "stopped by user"
INTERRUPTED = "interrupted"
"""Why a run ended when its task was cancelled from outside (the caller may say more)."""
INTERRUPTED_IN_CLI = "interrupted from the command line"
"""Why a run driven in the command's own process ended on Ctrl-C (resume continues it)."""


class RunEngine(Generic[ConfigT, SnapshotT]):
    """One run's engine; a mode's subclass provides the loop and the snapshot. Generic over
    the mode's settings (``ConfigT``) and snapshot (``SnapshotT``) types."""

    mode = ""
    on_progress: Callable[[SnapshotT], None] | None = None
    """Called with a snapshot after each commit and when a pause holds or ends (a CLI's
    progress line)."""

    def __init__(
        self, conn: sqlite3.Connection, run: RunRecord[ConfigT], kg: KGIndex, target: ChatClient
    ) -> None:
        self.conn = conn
        self.run = run
        self.config: ConfigT = run.config
        self.kg = kg
        self.target = target
        self.counters = Counters()
        """The target's requests, failures, retries, tokens and dropped requests: stored and
        this session's (every mode's engine keeps them here, and its snapshots show them)."""
        self.helpers = UsageLedger()
        self._prices: dict[str, Price] | None = None
        """Calls of the helper clients (generator, judge), stored and since the last commit."""
        self.guard = FailureGuard()
        self.status: str = RunStatus.CREATED
        self.stop_reason = ""
        self.error = ""
        self._stop = asyncio.Event()
        self._running = asyncio.Event()
        self._running.set()
        self._abort_reason = ""
        self._stop_now = False
        self._to_store: RunStatus | None = None
        """A status a pause, resume or stop led to that the workspace does not say yet: stored
        at the next poll (`_take_requests`), never by the control call itself (it must not wait
        on the workspace's write lock)."""
        self._holding = False
        """`hold` waits: the run is paused, and it stores the status a resume leads to."""
        self._body: asyncio.Future[None] | None = None
        self._dispatcher: Dispatching | None = None

    # what a mode's engine provides
    async def _ask_until_done(self) -> None:
        """Plan, ask, score and commit (a `Schedule` run by `_dispatch`) until the plan is
        done, a limit is met or a stop is asked for; the reason goes in `stop_reason`."""
        raise NotImplementedError

    def _reload(self) -> None:
        """Inside the claim: read the run's stored state again (another process may have
        committed since this engine loaded it)."""
        raise NotImplementedError

    def _ended(self, stopped: bool) -> str:
        """The final status when no failure ended the run (``stopped``: by the user); may add to
        `stop_reason`."""
        raise NotImplementedError

    def snapshot(self, insights: bool = True) -> SnapshotT:
        raise NotImplementedError

    def progress_snapshot(self) -> SnapshotT:
        """What a progress display shows after a commit: the snapshot without its costly
        insights, with the cheap figures the mode's progress lines need."""
        return self.snapshot(insights=False)

    def _mostly_unanswered(self) -> str:
        """The cause that fails a run reaching its end with most of what it plans unanswered
        for a failed request (its figures would rest on the rest), else "" (no such rule: a
        KGLens run's is the failure rule's share of requests)."""
        return ""

    def _progress(self, recent: Iterable[ViewT]) -> RunProgress[ViewT]:
        """The header of the engine's snapshot: its status, the target's counters and the
        latest replies (as the mode's live screen shows them)."""
        return RunProgress(self.status, self.counters, tuple(recent))

    def spend(self) -> Spend:
        """What the run has cost so far in US dollars (stored and this session), target and
        helpers, at the prices its manifest kept when it started (else the price table read
        when the engine first priced it)."""
        if self._prices is None:
            self._prices = configured_prices()
        c = self.counters
        return run_spend(
            self.config,
            (c.prompt_tokens, c.completion_tokens),
            self.helpers.totals(),
            self._prices,
            self.run.manifest.get("prices"),
        )

    def spend_shown(self) -> str:
        """`spend_text` of the run so far: "" when it calls only free models and has no
        max_cost."""
        return spend_text(self.spend(), self.config.max_cost)

    def _target_usage(self) -> tuple[int, int]:
        """(requests, tokens) the target has cost, stored and in this session (every engine's
        `counters` count them)."""
        return self.counters.requests, self.counters.tokens

    async def _keep_finished(self) -> None:
        """After `abort`: commit what is whole among the answers in (what is in flight was
        cancelled by then)."""
        if self._dispatcher is not None:
            self._dispatcher.commit(False)

    async def _dispatch(self, schedule: Schedule[ResultT], concurrency: int) -> None:
        """Run ``schedule`` with up to ``concurrency`` pieces of work in flight."""
        dispatcher = Dispatcher(self, schedule, concurrency)
        self._dispatcher = dispatcher
        await dispatcher.run()

    @property
    def in_flight(self) -> int:
        """Pieces of work out now (questions, tests or a batch, as the mode's schedule says)."""
        return 0 if self._dispatcher is None else self._dispatcher.in_flight

    def _stopped_by_user(self) -> bool:
        """Whether the loop ended because a stop was asked for."""
        return self._stop.is_set() and not self.guard.cause

    def _final_snapshot(self) -> SnapshotT:
        return self.snapshot()

    # control, safe to call from the event loop's thread
    def obey(self, command: Command) -> None:
        """Do what the run's UI, or another process through the workspace, asks."""
        if isinstance(command, Abort):
            self.abort(command.reason)
        elif isinstance(command, Pause):
            self.pause()
        elif isinstance(command, Resume):
            self.resume()
        else:
            self.request_stop(now=command.now)

    @property
    def held(self) -> bool:
        """Asked to pause and not resumed since (what is in flight finishes first)."""
        return not self._running.is_set()

    async def _take_requests(self) -> None:
        """Obey what other processes ask of this run through the workspace (`runs.control`),
        and store the status a pause, resume or stop led to (`_to_store`)."""
        while True:
            await asyncio.sleep(POLL_S)
            try:
                command = take_request(self.conn, self.run.id)
                if command is not None:
                    self.obey(command)
                going = self._to_store
                if going is not None and not RunStatus(self.status).ended:
                    mark_going(self.conn, self.run.id, going)
                if self._to_store is going:
                    self._to_store = None
            except sqlite3.OperationalError:  # locked past the busy timeout: at the next poll
                continue

    def request_stop(self, now: bool = False) -> None:
        """Finish and commit what is in flight, then stop; ``now``: cancel what is in flight
        (a resume asks it again), commit what is whole and store the run as stopped."""
        self._stop.set()
        self._running.set()
        self._control_status(RunStatus.STOPPING)
        self._to_store = RunStatus.STOPPING  # lists say so while what is in flight finishes
        if now and not self._abort_reason:
            self._stop_now = True
            self.abort(STOPPED_BY_USER)

    def abort(self, reason: str) -> None:
        """End now (the app quits): cancel the requests in flight (a resume asks them again),
        commit what is whole and store the run as interrupted with this reason."""
        self._abort_reason = reason or INTERRUPTED
        self.request_stop()
        if self._body is not None:
            self._body.cancel()

    def pause(self) -> None:
        """Hold before the next question; what is in flight finishes first ("pausing")."""
        if self.stopping or self.held:  # a second pause leaves a paused run paused
            return
        self._running.clear()
        self._control_status(RunStatus.PAUSING)
        self._to_store = RunStatus.PAUSING

    def resume(self) -> None:
        """Go on after a pause; the status is stored once (by `hold` as it wakes, when paused)."""
        if self.stopping:
            return
        if self.held and not self._holding:  # resumed while pausing
            self._to_store = RunStatus.RUNNING
        self._running.set()
        self._control_status(RunStatus.RUNNING)

    def _control_status(self, status: RunStatus) -> None:
        """The status a control call leads to, unless the model is loading (it says so until
        it is loaded) or the run has ended (a late call changes nothing)."""
        if self.status != RunStatus.LOADING_MODEL and not RunStatus(self.status).ended:
            self.status = status

    async def hold(self) -> None:
        """Wait here while paused, once nothing is in flight (until then the status says
        "pausing"); returns at once otherwise."""
        if self._running.is_set():
            return
        self.status = RunStatus.PAUSED
        self._to_store = None  # this write says it, and what follows the wait
        mark_going(self.conn, self.run.id, RunStatus.PAUSED)  # `kglens runs` and home see it
        self._tell_progress()
        self._holding = True
        try:
            await self._running.wait()
        finally:
            self._holding = False
        self._to_store = None
        going = RunStatus.STOPPING if self.stopping else RunStatus.RUNNING
        mark_going(self.conn, self.run.id, going)
        self._tell_progress()

    def _tell_progress(self) -> None:
        """Give `on_progress` (a command's progress line) the run's state now."""
        if self.on_progress is not None:
            self.on_progress(self.snapshot(insights=False))

    @property
    def stopping(self) -> bool:
        """A stop (or abort) was asked for."""
        return self._stop.is_set()

    # limits
    def _calls_left(self, requests_per_call: int = 1) -> int | None:
        """Calls the budgets still allow, each costing ``requests_per_call`` requests (None: no
        budget). Every call counts, the helpers' with the target's, tokens too."""
        requests, tokens = self._target_usage()
        c = self.config
        if c.max_tokens_total is not None and tokens + self.helpers.tokens >= c.max_tokens_total:
            return 0
        if c.max_cost is not None and self.spend().dollars >= c.max_cost:
            return 0
        if c.max_requests is None:
            return None
        left = int(c.max_requests) - requests - self.helpers.requests
        return max(0, left // requests_per_call)

    def _failed_note(self, failed: str) -> str:
        """What a finished run says of its ``failed`` requests ("3 edges whose last request
        failed"): resumable (`ASK_AGAIN`) while the budgets leave a call to ask them with."""
        if self._calls_left() == 0:
            return f"; {failed} (no budget left to ask them again)"
        return f"; {failed} ({ASK_AGAIN})"

    async def _load_target(self) -> None:
        """Load a local target's model before the first request, as status "loading model" (it
        takes seconds, during which no request goes out)."""
        load = getattr(self.target, "aload", None)
        if load is None:
            return
        self.status = RunStatus.LOADING_MODEL
        try:
            await load()
        finally:
            self.status = (
                RunStatus.STOPPING
                if self.stopping
                else RunStatus.RUNNING
                if self._running.is_set()
                else RunStatus.PAUSING
            )

    # the run
    async def run_to_end(self) -> SnapshotT:
        """Claim the run, run the loop, record how it ended; returns the final snapshot. Never
        leaves a half-written commit."""
        claim_run(self.conn, self.run.id, self._reload)
        self.status = RunStatus.RUNNING if self._running.is_set() else RunStatus.PAUSING
        self._body = asyncio.ensure_future(self._ask_until_done())
        if self._abort_reason:  # asked to end before it started
            self._body.cancel()
        requests = asyncio.ensure_future(self._take_requests())
        try:
            return await self._drive_body(self._body)
        finally:
            requests.cancel()

    async def _drive_body(self, body: asyncio.Future[None]) -> SnapshotT:
        """Await the loop and record how the run ended."""
        try:
            await body
        except asyncio.CancelledError:
            if not body.cancelled():
                raise
            await self._keep_finished()
            ended = RunStatus.STOPPED if self._stop_now else RunStatus.INTERRUPTED
            snapshot = self._end(ended, self._abort_reason or INTERRUPTED)
            if not self._abort_reason:
                raise  # cancelled from outside (Ctrl-C in a command): what is whole is kept
            return snapshot
        except Exception as exc:
            self.request_stop()
            error = f"{type(exc).__name__}: {exc}"
            try:  # what is whole stays, and what was sent counts
                await self._keep_finished()
            except Exception as keeping:  # the run fails with its first error; this one is told
                error += f"; keeping its answers failed too: {type(keeping).__name__}: {keeping}"
            self._end(RunStatus.FAILED, "error", error)
            raise
        stopped = self._stopped_by_user()
        cause = self.guard.cause or ("" if stopped else self.guard.finish())
        cause = cause or ("" if stopped else self._mostly_unanswered())
        if cause:
            return self._end(RunStatus.FAILED, STOP_REASON, cause)
        status = self._ended(stopped)
        return self._end(status, self.stop_reason)

    def _end(self, status: str, reason: str, error: str = "") -> SnapshotT:
        """Record the final status and return the final snapshot."""
        self.status, self.stop_reason, self.error = status, reason, error
        set_status(self.conn, self.run.id, status, reason, error)
        return self._final_snapshot()
