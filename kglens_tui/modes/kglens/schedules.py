"""How a KGLens run hands its questions to the harness's loop (`kglens_tui.runs.dispatch`):
the paper's synchronous iterations (`Batches`), or continuous dispatch that keeps requests in
flight and samples again as replies arrive (`Continuous`). Either way an iteration is committed
whole, with the posterior's update, in order."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from kglens_tui.modes.kglens.engine import Outcome, ProbeEngine

LOOKAHEAD = 2
"""Continuous scheduling dispatches at most this many iterations past the last commit."""

Pick = Callable[[int, int], np.ndarray]
"""(iteration, k) -> the positions of up to k edges to ask in that iteration."""


class Batches:
    """The paper's synchronous iterations: one batch picked from the posterior after the last
    commit, asked as one piece of work and committed whole before the next is picked."""

    def __init__(self, engine: ProbeEngine, pick: Pick, limit: Callable[[], bool]) -> None:
        self.engine = engine
        self.pick = pick
        self._limit = limit
        self._asking = 0
        """The iteration out now (0: none)."""
        self._started = 0.0
        self._ready: list[Outcome] | None = None

    def limit(self) -> bool:
        return self._limit()

    async def plan(self, room: int) -> list[Awaitable[Any]] | None:
        if self._asking:
            return []
        engine = self.engine
        k = engine.config.batch_size
        left = engine.budget_left()
        if left is not None:
            k = min(k, left)
        iteration = engine.stats.iteration + 1
        batch = self.pick(iteration, k)
        if len(batch) == 0:
            return None
        self._asking, self._started = iteration, time.perf_counter()
        questions = await engine.questions_for(batch, iteration)
        return [engine.ask_all(questions)]

    def take(self, result: list[Outcome]) -> None:
        self._ready = result

    def commit(self, idle: bool) -> bool:
        if self._ready is None:
            return False
        outcomes, self._ready = self._ready, None
        self.engine.finish_iteration(self._asking, outcomes, time.perf_counter() - self._started)
        self._asking = 0
        return True


def in_order(edges: np.ndarray, batch_size: int) -> Pick:
    """Hand out ``edges`` in order, up to a batch at a time (a resumed run asking the edges
    whose requests failed)."""
    cursor = 0

    def pick(iteration: int, k: int) -> np.ndarray:
        nonlocal cursor
        batch = edges[cursor : cursor + min(k, batch_size)]
        cursor += len(batch)
        return batch

    return pick


class Continuous:
    """Keep requests in flight and sample again as replies arrive. Every `batch_size` questions
    handed out form one iteration, committed (and applied to the PKG) in order as soon as all its
    replies are in. Dispatch runs at most LOOKAHEAD iterations ahead of the last commit, so
    sampling never drifts far from the posterior."""

    def __init__(self, engine: ProbeEngine) -> None:
        self.engine = engine
        self.flying: dict[int, int] = {}
        """Edge position -> questions about it in flight."""
        self.pending: dict[int, list[Outcome]] = {}
        """Replies in, by iteration, not committed yet."""
        self.dispatched: dict[int, int] = {}
        self.closed: set[int] = set()
        self.started: dict[int, float] = {}
        self.iteration, self.slot = engine.stats.iteration + 1, 0
        self.draws = DrawCache(engine)

    def limit(self) -> bool:
        return self.engine.should_stop()

    async def plan(self, room: int) -> list[Awaitable[Any]] | None:
        engine, config = self.engine, self.engine.config
        if self.iteration > config.iterations or self.iteration > (
            engine.stats.iteration + LOOKAHEAD
        ):
            return []
        waiting = [o.question.pos for outs in self.pending.values() for o in outs]
        free = room
        left = engine.budget_left()
        if left is not None:
            free = min(free, left - sum(self.flying.values()) - len(waiting))
        if free <= 0:
            return []
        k = min(free, config.batch_size - self.slot)
        busy = np.array([*self.flying, *waiting], dtype=np.int64)
        batch = self.draws.take(self.iteration, k, busy, self.slot)
        work: list[Awaitable[Any]] = []
        if len(batch):
            self.started.setdefault(self.iteration, time.perf_counter())
            for q in await engine.questions_for(batch, self.iteration, first_slot=self.slot):
                self.flying[q.pos] = self.flying.get(q.pos, 0) + 1
                work.append(engine.ask(q))
            self.dispatched[self.iteration] = self.dispatched.get(self.iteration, 0) + len(batch)
            self.slot += len(batch)
        if self.slot >= config.batch_size or (len(batch) == 0 and self.slot):
            self._close()
        if not work and not self.flying and not self.dispatched:
            return None  # no edge left to ask
        return work

    def take(self, result: Outcome) -> None:
        pos = result.question.pos
        self.flying[pos] -= 1
        if not self.flying[pos]:
            del self.flying[pos]
        self.pending.setdefault(result.question.iteration, []).append(result)

    def _close(self) -> None:
        self.closed.add(self.iteration)
        self.iteration, self.slot = self.iteration + 1, 0

    def commit(self, idle: bool) -> bool:
        """Commit, in order, every closed iteration whose replies are all in; True if any.
        ``idle`` (nothing in flight, nothing more to hand out now) closes the iteration being
        handed out, unless the run is pausing: a resume goes on filling it, so a pause never
        changes what the run asks."""
        if idle and self.slot and not self.engine.held:
            self._close()
        committed = False
        engine = self.engine
        while True:
            it = engine.stats.iteration + 1
            done = self.pending.get(it, [])
            if it not in self.closed or len(done) < self.dispatched.get(it, 0) or not done:
                return committed
            committed = True
            done.sort(key=lambda o: o.question.slot)
            engine.finish_iteration(it, done, time.perf_counter() - self.started.get(it, 0.0))
            self.pending.pop(it, None)
            self.dispatched.pop(it, None)
            self.closed.discard(it)


class DrawCache:
    """Continuous dispatch hands out one sampler draw per iteration and posterior, a few edges at
    a time as slots free up, instead of drawing over every edge for each freed slot. A commit
    (new posterior) or a new iteration starts a fresh draw; edges that failed go first, then the
    floor's share of the slots, taken from the rolling census as they are handed out
    (`ProbeEngine.take_floor`: a visit is never queued, so a fresh draw never drops one)."""

    def __init__(self, engine: ProbeEngine) -> None:
        self.engine = engine
        self.key: tuple[int, int] | None = None
        self.queue: list[int] = []

    def take(self, iteration: int, k: int, busy: np.ndarray, slot: int) -> np.ndarray:
        """Up to k edges for `iteration` starting at `slot`, none of them `busy`."""
        engine = self.engine
        retry = np.setdiff1d(engine.retry_edges(), busy)[:k]
        key = (iteration, engine.stats.iteration)
        if key != self.key:
            self.key, self.queue = key, []
        floor = engine.take_floor(iteration, slot + len(retry), k - len(retry))
        blocked = set(busy.tolist()) | set(retry.tolist()) | set(floor.tolist())
        self.queue = [pos for pos in self.queue if pos not in blocked]
        want = k - len(retry) - len(floor)
        if len(self.queue) < want:
            room = engine.config.batch_size - slot
            fresh = engine.sample(
                iteration,
                max(room, want),
                np.array(sorted(blocked), np.int64),
                slot,
                with_floor=False,
            )
            queued = set(self.queue)
            self.queue += [pos for pos in fresh.tolist() if pos not in queued]
        picked, self.queue = self.queue[:want], self.queue[want:]
        return np.concatenate((retry, floor, np.array(picked, dtype=np.int64))).astype(np.int64)
