"""The one loop every mode's run goes through: keep up to `concurrency` pieces of work in flight,
take their results as they come in, commit what is ready, and serve pause, stop, abort and the
failure rule the same way for every mode.

A mode says what to ask through a `Schedule`: `plan` hands out the next pieces of work (a test
of a unit mode, one KGLens question, or a whole synchronous KGLens batch), `take` scores a
result that came in, `commit` writes what is whole, `limit` says when to start nothing more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Generic, Protocol, TypeVar

from kglens_tui.llm.failures import FailureGuard

WAKE_S = 0.25
"""How often the loop looks at pause and stop requests while nothing comes in."""


ResultT = TypeVar("ResultT")
"""What a piece of work gives: a scored test of a unit mode, a KGLens reply..."""


class Schedule(Protocol[ResultT]):
    """What a mode decides; `dispatch` does the rest."""

    async def plan(self, room: int) -> list[Awaitable[ResultT]] | None:
        """Up to `room` pieces of work to start now; [] when none can start until work in
        flight ends or commits; None when nothing more will ever be planned."""
        ...

    def take(self, result: ResultT) -> None:
        """A piece of work's result came in."""
        ...

    def commit(self, idle: bool) -> bool:
        """Commit what is ready (``idle``: nothing is in flight); True when anything was."""
        ...

    def limit(self) -> bool:
        """A limit is met (iterations, convergence, budget): start nothing more."""
        ...


class Controlled(Protocol):
    """What the loop reads of the engine it runs for: the failure rule, pause and stop."""

    guard: FailureGuard

    @property
    def held(self) -> bool: ...
    @property
    def stopping(self) -> bool: ...
    async def hold(self) -> None: ...


class Dispatching(Protocol):
    """A running loop as its engine sees it, whatever its work gives."""

    @property
    def in_flight(self) -> int: ...
    def commit(self, idle: bool) -> bool: ...


class Dispatcher(Generic[ResultT]):
    """Runs one `Schedule` for one engine; `in_flight` is how much work is out."""

    def __init__(self, engine: Controlled, schedule: Schedule[ResultT], concurrency: int) -> None:
        self.engine = engine
        self.schedule = schedule
        self.concurrency = max(1, int(concurrency))
        self.tasks: dict[asyncio.Future[ResultT], None] = {}
        """The work in flight, in the order it started."""
        self._done: list[asyncio.Future[ResultT]] = []
        self._wake = asyncio.Event()

    @property
    def in_flight(self) -> int:
        return len(self.tasks)

    def commit(self, idle: bool) -> bool:
        """Commit what the schedule has ready (`Schedule.commit`)."""
        return self.schedule.commit(idle)

    async def run(self) -> None:
        """Dispatch until the plan is done, a limit is met, a stop is asked for or the failure
        rule trips (whole work is committed, the rest cancelled: a resume asks it again). When
        cancelled (abort) or when a piece of work raises, cancels what is in flight and takes
        what had come in."""
        engine = self.engine
        tripped = asyncio.ensure_future(engine.guard.tripped.wait())
        tripped.add_done_callback(lambda _: self._wake_up())
        try:
            await self._loop()
        except BaseException:  # cancelled (abort), or a piece of work raised: nothing is left
            await self._cancel_in_flight()
            raise
        finally:
            tripped.cancel()

    async def _loop(self) -> None:
        engine, schedule = self.engine, self.schedule
        planned_all = False
        while True:
            if engine.guard.cause:  # commit what is whole, drop the rest
                self._take_done()
                schedule.commit(False)
                await self._cancel_in_flight()
                return
            paused = engine.held
            room = self.concurrency - len(self.tasks)
            if room > 0 and not (paused or planned_all or engine.stopping or schedule.limit()):
                work = await schedule.plan(room)
                if work is None:
                    planned_all = True
                elif work:
                    for piece in work:
                        self._start(piece)
                    # let the new requests go out before a commit holds the event loop
                    await asyncio.sleep(0)
            committed = schedule.commit(not self.tasks)
            if not self.tasks:
                if paused and not engine.stopping:
                    await engine.hold()
                    continue
                if committed:
                    continue  # the commit may let more work start
                return  # the plan is done, a limit is met, or a stop was asked for
            if committed and len(self.tasks) < self.concurrency:
                continue  # the commit may let more work start
            await self._wait()

    def _start(self, piece: Awaitable[ResultT]) -> None:
        task = asyncio.ensure_future(piece)
        self.tasks[task] = None
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[ResultT]) -> None:
        self._done.append(task)
        self._wake_up()

    def _wake_up(self) -> None:
        """Wake the loop. Ctrl-C or SIGTERM: asyncio.run's handler cancels the run's task from
        the signal handler, which Python may run between Event.set's check of the waiter and
        its set_result; the flag is set by then and the run is being cancelled, so the
        InvalidStateError it raises is that race, not a fault."""
        with contextlib.suppress(asyncio.InvalidStateError):
            self._wake.set()

    async def _wait(self) -> None:
        """Wait for a result (or the failure rule); the timeout looks at pause and stop again."""
        if not self._done:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WAKE_S):
                    await self._wake.wait()
        self._wake.clear()
        self._take_done()

    def _take_done(self, unwinding: bool = False) -> None:
        """Take the results that came in (``unwinding``: after a cancel, leave out work that
        raised; otherwise its error ends the run)."""
        finished, self._done[:] = self._done[:], []
        for task in finished:
            self.tasks.pop(task, None)
            if task.cancelled() or (unwinding and task.exception() is not None):
                continue
            self.schedule.take(task.result())

    async def _cancel_in_flight(self) -> None:
        """Cancel what is in flight, wait for it to unwind and take what had come in."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self._done += [task for task in self.tasks if task not in self._done]
        self._take_done(unwinding=True)
