"""The replies of iterations not committed yet, counted as each comes in (`ProbeStats.uncommitted`):
one definition for both schedules, split into answered and failed, never bounded by the feed,
taken back at each commit and dropped with an iteration a stop or the failure rule drops."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.usage import Counters
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import RECENT_REPLIES, ProbeEngine
from kglens_tui.runs.runner import prepare, run_blocking


class HoldsTheLast:
    """Fails every third request (an API error, after 2 retries), answers the others "Yes.",
    and holds request number ``hold_at`` until ``release`` is set."""

    label = "holds-the-last"
    simulated = False

    def __init__(self, hold_at: int) -> None:
        self.hold_at = hold_at
        self.calls = 0
        self.release = asyncio.Event()

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        if self.calls == self.hold_at:
            await self.release.wait()
        elif self.calls % 3 == 0:
            raise LLMError("server", "503 from the test target", retries=2)
        return Completion("Yes.", 7, 1, 0.0, retries=1)

    async def aclose(self) -> None:
        return None


class FailsThenHangs:
    """Fails the first ``fail`` requests (an API error), then never answers."""

    label = "fails-then-hangs"
    simulated = False

    def __init__(self, fail: int) -> None:
        self.fail = fail
        self.calls = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        if self.calls > self.fail:
            await asyncio.Event().wait()
        raise LLMError("server", "503 from the test target")

    async def aclose(self) -> None:
        return None


async def _until(predicate, what: str) -> None:
    """Yield to the event loop until ``predicate`` holds (the run's own progress decides)."""
    for _ in range(100_000):
        if predicate():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"not reached: {what}")


def test_a_batch_larger_than_the_feed_is_counted_whole_before_its_commit(
    conn: sqlite3.Connection,
) -> None:
    """Mid-iteration the counter holds every reply in, answered and failed, with their retries
    and tokens, however many the bounded feed dropped; the commit moves them to the committed
    counters at once."""
    size = RECENT_REPLIES + 50
    target = HoldsTheLast(hold_at=size)
    config = RunConfig(kg="country", batch_size=size, iterations=1, stop_on_convergence=False)
    engine = prepare(conn, config=config, target=target)

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await _until(lambda: engine.stats.replies_total == size - 1, "all but the last in")
        mid = engine.snapshot(insights=False)
        failed = (size - 1) // 3
        answered = size - 1 - failed
        assert len(mid.progress.recent) == RECENT_REPLIES < size - 1, "the feed dropped replies"
        assert mid.uncommitted == Counters(
            size - 1, failed, size - 1 + failed, 7 * answered, answered
        )
        assert mid.uncommitted.answered == answered
        assert (
            mid.progress.counters.requests,
            mid.progress.counters.errors,
            mid.progress.counters.retries,
            mid.progress.counters.prompt_tokens,
        ) == (0, 0, 0, 0)
        target.release.set()
        final = await task
        assert final.uncommitted == Counters()
        assert (final.progress.counters.requests, final.progress.counters.errors) == (size, failed)
        assert (final.progress.counters.retries, final.progress.counters.prompt_tokens) == (
            size + failed,
            7 * (answered + 1),
        )
        assert final.counts.get("error") == failed, "a failed request is an error"
        answers = sum(n for verdict, n in final.counts.items() if verdict != "error")
        assert answers == answered + 1, "never an answer, right or wrong"

    asyncio.run(go())


class HoldsTheEighth:
    """Answers "Yes."; holds the eighth request (the last of iteration 1 at batch size 8) until
    ``go_on()`` says so."""

    label = "holds-the-eighth"
    simulated = False

    def __init__(self) -> None:
        self.calls = 0
        self.go_on = lambda: True

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        if self.calls == 8:
            await _until(self.go_on, "the eighth request let through")
        return Completion("Yes.", 7, 1, 0.0)

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize("scheduling", ["sync", "continuous"])
def test_each_commit_takes_back_its_own_replies_only(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, scheduling: str
) -> None:
    """After every commit the counter holds exactly the replies in whose iteration is not
    committed: in continuous scheduling, iteration 2's replies that came in while the last
    request of iteration 1 was out stay counted when iteration 1 commits."""
    config = RunConfig(
        kg="country",
        batch_size=8,
        iterations=4,
        concurrency=4,
        scheduling=scheduling,
        stop_on_convergence=False,
    )
    target = HoldsTheEighth()
    engine: ProbeEngine = prepare(conn, config=config, target=target)
    if scheduling == "continuous":
        target.go_on = lambda: engine.stats.replies_total >= 10
    finish = engine.finish_iteration
    after: list[Counters] = []

    def checked(iteration: int, outcomes: list, seconds: float) -> None:
        finish(iteration, outcomes, seconds)
        s = engine.stats
        assert s.uncommitted.requests == s.replies_total - engine.counters.requests, iteration
        after.append(s.uncommitted)

    monkeypatch.setattr(engine, "finish_iteration", checked)
    final = run_blocking(engine)
    assert final.progress.counters.requests == 32 and final.uncommitted == Counters()
    if scheduling == "continuous":
        assert after[0].requests >= 2 and after[0].answered == after[0].requests, after
    else:
        assert all(tally == Counters() for tally in after), after


@pytest.mark.parametrize("scheduling", ["sync", "continuous"])
def test_the_failure_rule_drops_the_uncommitted_replies_and_fails_the_run(
    conn: sqlite3.Connection, scheduling: str
) -> None:
    """Twenty-four failures trip the failure rule in the middle of the third iteration: its
    replies are dropped (counted as sent, the failures as failed), none stays counted as not
    committed, no failure counts as a wrong answer, and the run fails, never finished."""
    config = RunConfig(
        kg="country",
        batch_size=10,
        iterations=20,
        concurrency=10,
        scheduling=scheduling,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=FailsThenHangs(fail=24))
    final = run_blocking(engine)
    assert final.status == "failed" and final.stop_reason == "the target failed"
    assert final.uncommitted == Counters()
    assert (
        final.progress.counters.errors == 24
        and final.progress.counters.requests
        == final.progress.counters.errors + final.progress.counters.dropped
    )
    assert final.progress.counters.dropped > 0, "the iteration in flight was dropped"
    assert set(final.counts) <= {"error"}, "a failed request is never a wrong answer"
    assert final.rates is None or final.rates.examined == 0
    stored = conn.execute("SELECT requests, errors, dropped FROM target_usage").fetchone()
    assert tuple(stored) == (
        final.progress.counters.requests,
        final.progress.counters.errors,
        final.progress.counters.dropped,
    )
