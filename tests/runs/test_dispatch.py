"""The harness's one loop (`runs.dispatch`), driven by a hand-made schedule: how much is in
flight, pausing, the failure rule, an abort, and a plan that waits on its commits."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from kglens_tui.core.error_kinds import ErrorKind
from kglens_tui.core.status import RunStatus
from kglens_tui.llm.failures import FailureGuard
from kglens_tui.runs.dispatch import Dispatcher


class Engine:
    """What the loop reads of an engine: control state, the failure rule, holding."""

    def __init__(self) -> None:
        self.guard = FailureGuard()
        self._running = asyncio.Event()
        self._running.set()
        self._stop = asyncio.Event()
        self.status = RunStatus.RUNNING
        self.holds = 0

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    @property
    def held(self) -> bool:
        return not self._running.is_set()

    async def hold(self) -> None:
        self.status = RunStatus.PAUSED
        self.holds += 1
        await self._running.wait()


class Gated:
    """Plans `total` pieces; each waits for its gate, returns its number; commits every piece
    that came in. `batch`: hand out at most this many before a commit (a lookahead)."""

    def __init__(self, total: int, batch: int | None = None) -> None:
        self.total = total
        self.batch = batch
        self.next = 0
        self.gates: dict[int, asyncio.Event] = {}
        self.started: list[int] = []
        self.cancelled: list[int] = []
        self.taken: list[int] = []
        self.committed: list[int] = []
        self.in_flight = 0
        self.peak = 0
        self.plans = 0

    def open(self, *numbers: int) -> None:
        for n in numbers:
            self.gates.setdefault(n, asyncio.Event()).set()

    async def piece(self, n: int) -> int:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        self.started.append(n)
        try:
            await self.gates.setdefault(n, asyncio.Event()).wait()
        except asyncio.CancelledError:
            self.cancelled.append(n)
            raise
        finally:
            self.in_flight -= 1
        return n

    async def plan(self, room: int) -> list[Awaitable[Any]] | None:
        self.plans += 1
        if self.next >= self.total:
            return None
        if self.batch is not None and self.next - len(self.committed) >= self.batch:
            return []
        count = min(room, self.total - self.next)
        if self.batch is not None:
            count = min(count, self.batch - (self.next - len(self.committed)))
        work = [self.piece(n) for n in range(self.next, self.next + count)]
        self.next += count
        return work

    def take(self, result: int) -> None:
        self.taken.append(result)

    def commit(self, idle: bool) -> bool:
        new = [n for n in self.taken if n not in self.committed]
        self.committed += new
        return bool(new)

    def limit(self) -> bool:
        return False


async def until(condition, what: str) -> None:
    """Yield to the loop until ``condition()`` holds (a state, never a clock)."""
    for _ in range(100_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never happened: {what}")


def test_the_loop_keeps_concurrency_pieces_in_flight_and_commits_them_all() -> None:
    async def go() -> Gated:
        schedule = Gated(20)
        dispatcher = Dispatcher(Engine(), schedule, 3)  # type: ignore[arg-type]
        run = asyncio.ensure_future(dispatcher.run())
        for n in range(20):
            await until(lambda n=n: n in schedule.started, f"piece {n} started")
            assert dispatcher.in_flight <= 3
            schedule.open(n)
        await run
        return schedule

    schedule = asyncio.run(go())
    assert schedule.peak == 3
    assert sorted(schedule.committed) == list(range(20))


def test_a_pause_holds_once_what_is_in_flight_came_in_and_resume_goes_on() -> None:
    async def go() -> None:
        engine, schedule = Engine(), Gated(6)
        run = asyncio.ensure_future(Dispatcher(engine, schedule, 2).run())  # type: ignore[arg-type]
        await until(lambda: schedule.started == [0, 1], "two pieces out")
        engine._running.clear()
        engine.status = RunStatus.PAUSING
        schedule.open(0)
        await until(lambda: schedule.taken == [0], "piece 0 in")
        assert engine.holds == 0 and schedule.started == [0, 1], "nothing starts while pausing"
        schedule.open(1)
        await until(lambda: engine.holds == 1, "held once nothing was in flight")
        assert schedule.committed == [0, 1], "what came in is committed before holding"
        engine._running.set()
        schedule.open(*range(2, 6))
        await run
        assert sorted(schedule.committed) == list(range(6))

    asyncio.run(go())


def test_the_failure_rule_commits_what_came_in_and_cancels_the_rest() -> None:
    async def go() -> None:
        engine, schedule = Engine(), Gated(10)
        dispatcher = Dispatcher(engine, schedule, 4)  # type: ignore[arg-type]
        run = asyncio.ensure_future(dispatcher.run())
        await until(lambda: len(schedule.started) == 4, "four pieces out")
        schedule.open(0)
        await until(lambda: schedule.taken == [0], "piece 0 in")
        engine.guard.record(ErrorKind.AUTH, "bad key")  # trips at once
        planned = schedule.next
        await run
        assert schedule.committed == [0] and schedule.taken == [0]
        assert schedule.next == planned, "nothing more was planned"
        assert schedule.in_flight == 0 and {1, 2, 3} <= set(schedule.cancelled)
        assert dispatcher.in_flight == 0

    asyncio.run(go())


def test_an_abort_cancels_what_is_in_flight_and_takes_what_came_in() -> None:
    async def go() -> None:
        engine, schedule = Engine(), Gated(10)
        dispatcher = Dispatcher(engine, schedule, 3)  # type: ignore[arg-type]
        run = asyncio.ensure_future(dispatcher.run())
        await until(lambda: len(schedule.started) == 3, "three pieces out")
        schedule.open(0)
        await until(lambda: 0 in schedule.taken or dispatcher._done, "piece 0 done")
        run.cancel()
        try:
            await run
        except asyncio.CancelledError:
            pass
        else:
            raise AssertionError("the loop swallowed the cancel")
        assert 0 in schedule.taken
        assert sorted(schedule.cancelled) == [1, 2] and schedule.in_flight == 0

    asyncio.run(go())


def test_a_plan_that_waits_on_its_commits_goes_on_after_each_commit() -> None:
    """A plan that hands out nothing until what it handed out is committed (KGLens's lookahead,
    a synchronous batch) is asked again as soon as a commit lets it, never spun on."""

    async def go() -> Gated:
        schedule = Gated(12, batch=4)
        run = asyncio.ensure_future(Dispatcher(Engine(), schedule, 8).run())  # type: ignore[arg-type]
        for start in range(0, 12, 4):
            await until(lambda s=start: len(schedule.started) == s + 4, "a batch out")
            assert schedule.in_flight == 4, "no more than the plan allows"
            schedule.open(*range(start, start + 4))
        await run
        return schedule

    schedule = asyncio.run(go())
    assert sorted(schedule.committed) == list(range(12))
    assert schedule.plans < 40


def test_a_piece_that_raises_ends_the_loop_with_nothing_left_in_flight() -> None:
    class Broken(Gated):
        async def piece(self, n: int) -> int:
            if n == 0:
                raise RuntimeError("a bug in the mode")
            return await super().piece(n)

    async def go() -> None:
        schedule = Broken(6)
        dispatcher = Dispatcher(Engine(), schedule, 3)  # type: ignore[arg-type]
        try:
            await dispatcher.run()
        except RuntimeError as exc:
            assert str(exc) == "a bug in the mode"
        else:
            raise AssertionError("the error was swallowed")
        assert dispatcher.in_flight == 0 and schedule.in_flight == 0
        assert sorted(schedule.cancelled) == sorted(schedule.started)

    asyncio.run(go())


def test_a_signal_cancelling_the_waiter_inside_the_wake_up_is_no_fault() -> None:
    """Ctrl-C / SIGTERM: asyncio.run's handler cancels the run from the signal handler, which
    can fall between Event.set's check of the waiter and its set_result (seen under load: an
    "Exception in callback ... InvalidStateError" traceback on SIGTERM). A finished piece's
    wake-up must take that race in stride, with the piece counted and the flag set."""

    class CancelledMidway(asyncio.Future):  # type: ignore[type-arg]
        def done(self) -> bool:
            return False  # checked before the signal ...

        def set_result(self, result: object) -> None:
            raise asyncio.InvalidStateError("invalid state")  # ... cancelled after

    async def go() -> Dispatcher:
        dispatcher = Dispatcher(Engine(), Gated(1), 1)  # type: ignore[arg-type]
        dispatcher._wake._waiters.append(CancelledMidway())  # type: ignore[attr-defined]
        piece = asyncio.get_running_loop().create_future()
        piece.set_result(None)
        dispatcher._finished(piece)
        return dispatcher

    dispatcher = asyncio.run(go())
    assert dispatcher._wake.is_set() and len(dispatcher._done) == 1
