"""`--concurrency` and `--requests-per-minute` hold for every target kind: the OpenAI-compatible
client paces itself, every other kind is wrapped in a PacedClient."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable

import pytest

from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import ChatRequest, Completion, user_messages
from kglens_tui.llm.openai_compat import OpenAICompatClient
from kglens_tui.llm.pacing import PacedClient, Pacer, complete_counted
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.clients import target_client
from kglens_tui.store.connection import connect


class Gate:
    """A target that holds every request until released, counting those in flight."""

    label = "gate"
    simulated = True

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.in_flight = 0
        self.most = 0
        self.started: list[float] = []
        self.release = asyncio.Event()

    async def complete(self, request: ChatRequest) -> Completion:
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        self.started.append(self.clock())
        await self.release.wait()
        self.in_flight -= 1
        return Completion("yes", 1, 1, 0.0)

    async def aclose(self) -> None:
        return None


REQUEST = ChatRequest(user_messages(None, "Is Vienna the capital of Austria?"))


def test_a_paced_client_keeps_at_most_max_in_flight_requests_open() -> None:
    async def go() -> tuple[int, int]:
        gate = Gate()
        client = PacedClient(gate, Pacer(2))
        tasks = [asyncio.ensure_future(client.complete(REQUEST)) for _ in range(7)]
        while gate.in_flight < 2:
            await asyncio.sleep(0)
        for _ in range(20):  # give the others every chance to start
            await asyncio.sleep(0)
        held = gate.most
        gate.release.set()
        await asyncio.gather(*tasks)
        return held, gate.most

    held, most = asyncio.run(go())
    assert held == 2 and most == 2


class Clock:
    """A clock that moves only when the pacer sleeps, to the end of the sleep (no wall clock: a
    loaded machine cannot shift the starts)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)


def test_a_paced_client_spaces_starts_for_the_rpm_limit() -> None:
    clock = Clock()

    async def go() -> list[float]:
        gate = Gate(clock)
        gate.release.set()
        pacer = Pacer(8, requests_per_minute=1200, clock=clock, sleep=clock.sleep)  # 50 ms
        await asyncio.gather(*(PacedClient(gate, pacer).complete(REQUEST) for _ in range(4)))
        return gate.started

    started = asyncio.run(go())
    gaps = [b - a for a, b in zip(started, started[1:], strict=False)]
    assert len(gaps) == 3 and min(gaps) >= 0.05 - 1e-9


class StallingClock:
    """A clock whose sleepers wake together, as on a busy machine: its first wake-up comes
    `stall_s` late, and wakes every sleeper due by then at once (no wall clock)."""

    def __init__(self, stall_s: float) -> None:
        self.now = 100.0
        self.stall_s = stall_s
        self.sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self.order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        heapq.heappush(self.sleepers, (self.now + seconds, next(self.order), woken))
        await woken

    async def run(self, done: Callable[[], bool]) -> None:
        """Move time on whenever every task waits on this clock, until done()."""
        while not done():
            for _ in range(50):  # let every task run until it waits
                await asyncio.sleep(0)
            if not self.sleepers:
                continue
            self.now = max(self.now, self.sleepers[0][0]) + self.stall_s
            self.stall_s = 0.0
            while self.sleepers and self.sleepers[0][0] <= self.now:
                heapq.heappop(self.sleepers)[2].set_result(None)


def test_starts_are_spaced_from_when_each_went_out_not_when_it_was_planned() -> None:
    """A sleep that overruns (the event loop busy for 0.15 s) must not bunch the starts that
    were planned behind it: each start comes one interval after the previous real one, on the
    pacer's own clock."""
    clock = StallingClock(stall_s=0.15)

    async def go() -> list[float]:
        gate = Gate(clock)
        gate.release.set()
        pacer = Pacer(8, requests_per_minute=600, clock=clock, sleep=clock.sleep)  # 100 ms
        asks = asyncio.gather(*(PacedClient(gate, pacer).complete(REQUEST) for _ in range(4)))
        await clock.run(asks.done)
        await asks
        return gate.started

    started = asyncio.run(go())
    gaps = [b - a for a, b in zip(started, started[1:], strict=False)]
    assert len(gaps) == 3 and min(gaps) >= 0.1 - 1e-9, gaps
    assert started[1] - started[0] == pytest.approx(0.25)  # the stalled one: late, not early


def test_every_target_kind_gets_the_runs_concurrency() -> None:
    config = RunConfig(target="sim:3", concurrency=3, requests_per_minute=600.0)
    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    sim = target_client(config, kg, kg.edge_ids[:5])
    assert isinstance(sim, PacedClient)
    assert (sim.pacer.max_in_flight, sim.pacer.requests_per_minute) == (3, 600.0)
    assert sim.simulated and sim.label == sim.inner.label
    remote = target_client(
        RunConfig(target="openai:m", base_url="http://127.0.0.1:9/v1", concurrency=3),
        kg,
        kg.edge_ids[:5],
    )
    assert isinstance(remote, OpenAICompatClient)  # paces itself
    asyncio.run(remote.aclose())


@pytest.mark.parametrize(
    "bad", [{"max_in_flight": 0}, {"max_in_flight": 1, "requests_per_minute": 0}]
)
def test_a_pacer_refuses_impossible_limits(bad) -> None:
    with pytest.raises(ValueError):
        Pacer(**bad)


def test_a_pause_that_begins_while_a_request_waits_still_holds_it_back() -> None:
    """A server's Retry-After pause is read once the request holds its slot, not before it
    queued for one."""

    async def go() -> tuple[float, float]:
        gate = Gate()
        pause = {"until": 0.0}
        pacer = Pacer(1)

        async def ask() -> None:
            async with pacer.turn(not_before=lambda: pause["until"]):
                await gate.complete(REQUEST)

        first = asyncio.ensure_future(ask())
        while gate.in_flight < 1:
            await asyncio.sleep(0)
        second = asyncio.ensure_future(ask())  # queues for the one slot
        await asyncio.sleep(0)
        pause["until"] = time.monotonic() + 0.05  # the first request was told to back off
        gate.release.set()
        await asyncio.gather(first, second)
        return pause["until"], gate.started[1]

    until, second_started = asyncio.run(go())
    assert second_started >= until


def test_a_request_counts_as_sent_once_its_pacer_lets_it_start() -> None:
    """Cancelled requests that waited for a slot never went out: only those the pacer started
    count (a client that does not pace counts each request at once)."""

    async def go(client, gate: Gate) -> tuple[int, int]:
        sent = [0]
        tasks = [asyncio.ensure_future(complete_counted(client, REQUEST, sent)) for _ in range(5)]
        want = 2 if isinstance(client, PacedClient) else 5
        while gate.in_flight < want:
            await asyncio.sleep(0)
        for _ in range(20):  # give the others every chance to start
            await asyncio.sleep(0)
        out = gate.in_flight
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return out, sent[0]

    gate = Gate()
    assert asyncio.run(go(PacedClient(gate, Pacer(2)), gate)) == (2, 2)
    gate = Gate()
    assert asyncio.run(go(gate, gate)) == (5, 5)

    async def answered() -> int:
        gate, sent = Gate(), [0]
        gate.release.set()
        await complete_counted(PacedClient(gate, Pacer(1)), REQUEST, sent)
        return sent[0]

    assert asyncio.run(answered()) == 1
