"""The probing engine against a loopback fake OpenAI server that injects transport faults.

The fake target always answers "Yes.", so every verdict is known from the question alone:
correct exactly when the expected answer is yes. Whatever the faults, a failed request must end
as category 'error', never as a model failure, and the counters must agree everywhere.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest
from fake_openai_server import FAULTS, FakeOpenAIServer, Message
from rich.console import Console

from kglens_tui.bench.engine_bench import STAGES, TARGET, run_engine_bench
from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.openai_compat import OpenAICompatClient
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import MAX_CONSECUTIVE_ERRORS, ProbeEngine, ProbeSnapshot
from kglens_tui.modes.kglens.runstore import observed_counts
from kglens_tui.runs.runner import prepare, run_blocking

BATCH = 16
ITERATIONS = 4
MAX_RETRIES = 2
ATTEMPTS = MAX_RETRIES + 1
ALL_FAULTS = sorted(FAULTS)


def always_yes(messages: Sequence[Message]) -> str:
    """A deterministic target that answers every question with "Yes."."""
    return "Yes."


def make_server(**kwargs: object) -> FakeOpenAIServer:
    """A fake server with small delays: a 'timeout' fault answers after 1 s, Retry-After 20 ms."""
    options: dict[str, object] = {
        "answer_fn": always_yes,
        "timeout_delay_s": 1.0,
        "retry_after": "0.02",
    }
    options.update(kwargs)
    return FakeOpenAIServer(**options)  # type: ignore[arg-type]


class CountingClient(OpenAICompatClient):
    """The engine's client, counting what its HTTP attempts met: a reply it accepted, or a
    failure (a timeout of its own among them: the server cannot tell a reply it sent from one
    the client received)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.accepted = 0
        self.failed = 0
        self.timeouts = 0

    async def _attempt(self, request: ChatRequest) -> tuple[str, int, int]:
        try:
            reply = await super()._attempt(request)
        except LLMError as err:
            self.failed += 1
            self.timeouts += err.kind == "timeout"
            raise
        self.accepted += 1
        return reply


def run_engine(
    conn: sqlite3.Connection,
    srv: FakeOpenAIServer,
    *,
    scheduling: str = "sync",
    max_retries: int = MAX_RETRIES,
) -> tuple[ProbeEngine, ProbeSnapshot]:
    """Probe the bundled country KG through the fake server to the iteration limit."""
    client = CountingClient(
        srv.base_url,
        "fake-model",
        timeout_s=0.3,
        max_retries=max_retries,
        max_in_flight=BATCH,
        backoff_base_s=0.01,
        backoff_cap_s=0.05,
        seed=0,
    )
    config = RunConfig(
        kg="country",
        target="openai:fake-model",
        base_url=srv.base_url,
        batch_size=BATCH,
        iterations=ITERATIONS,
        concurrency=BATCH,
        scheduling=scheduling,
        timeout_s=0.3,
        max_retries=max_retries,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=client)
    return engine, run_blocking(engine)


def observations(conn: sqlite3.Connection, run_id: int) -> list[dict]:
    cur = conn.execute(
        "SELECT iteration, slot, pos, qtype, expected, reply, category, retries, error "
        "FROM observation WHERE run_id = ? ORDER BY iteration, slot",
        (run_id,),
    )
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def positions_by_iteration(obs: list[dict]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for o in obs:
        out.setdefault(o["iteration"], []).append(o["pos"])
    return out


def check_invariants(
    conn: sqlite3.Connection,
    engine: ProbeEngine,
    snap: ProbeSnapshot,
    srv: FakeOpenAIServer,
    max_retries: int = MAX_RETRIES,
) -> list[dict]:
    """Assert what must hold after any faulty run; returns the observations."""
    run_id = engine.run.id
    assert snap.status == "finished", snap.error
    pending = int((engine.state.err > 0).sum())
    edges = "edge" if pending == 1 else "edges"
    note = f"; {pending} {edges} whose last request failed (resume the run to ask them again)"
    assert snap.stop_reason == "iteration limit" + (note if pending else "")
    assert snap.iteration == ITERATIONS
    obs = observations(conn, run_id)
    iterations = conn.execute(
        "SELECT iteration, requests, errors, retries, counts FROM iteration "
        "WHERE run_id = ? ORDER BY iteration",
        (run_id,),
    ).fetchall()
    assert [r[0] for r in iterations] == list(range(1, ITERATIONS + 1))

    total_requests = sum(r[1] for r in iterations)
    assert (
        sum(snap.counts.values()) == len(obs) == total_requests == snap.progress.counters.requests
    )
    assert snap.counts == dict(Counter(o["category"] for o in obs))
    for it, requests, errors, retries, counts in iterations:
        rows = [o for o in obs if o["iteration"] == it]
        assert requests == len(rows) == BATCH
        assert sorted(o["slot"] for o in rows) == list(range(BATCH))
        assert errors == sum(o["category"] == "error" for o in rows)
        assert retries == sum(o["retries"] for o in rows)
        assert json.loads(counts) == dict(Counter(o["category"] for o in rows))
    assert snap.progress.counters.errors == sum(o["category"] == "error" for o in obs)
    assert snap.progress.counters.retries == sum(o["retries"] for o in obs)

    for o in obs:
        assert o["qtype"] == "yes_no"
        if o["category"] == "error":
            assert o["reply"] == "" and o["error"], o
            assert o["retries"] == max_retries, o
        else:
            assert o["reply"] == "Yes." and o["error"] == "", o
            expected = "correct" if o["expected"] == "yes" else "incorrect"
            assert o["category"] == expected, o

    m, n = observed_counts(conn, run_id, len(engine.run.edge_ids))
    assert np.array_equal(engine.state.m, m)
    assert np.array_equal(engine.state.n, n)
    assert int(n.sum()) == sum(o["category"] == "incorrect" for o in obs)

    # every attempt is stored (as retries or the last try); on a loaded machine an attempt can
    # time out before the server has read it, and the server closes with it unread: the server
    # saw at most the stored attempts, and at least every reply the client accepted
    attempts = sum(o["retries"] + 1 for o in obs)
    assert srv.requests <= attempts
    # every answer stored is a reply the client accepted, and every attempt ended accepted or
    # failed; no fault's reply was ever accepted (at most the proper ones were), and any reply,
    # proper or not, may come after timeout_s on a loaded machine: a failure, never an answer
    client = engine.target
    assert isinstance(client, CountingClient)
    assert client.accepted == sum(o["category"] != "error" for o in obs)
    assert client.accepted + client.failed == attempts
    assert client.accepted <= srv.requests
    assert attempts - srv.requests <= client.timeouts  # only a timed-out attempt goes unseen
    proper = srv.requests - sum(srv.fault_counts.values())
    assert client.accepted <= proper
    assert srv.completed <= proper
    return obs


def error_streaks(obs: list[dict]) -> dict[tuple[int, int], int]:
    """(iteration, pos) of every error observation -> consecutive errors of that edge so far."""
    streak: dict[int, int] = {}
    out: dict[tuple[int, int], int] = {}
    for o in obs:
        pos = o["pos"]
        streak[pos] = streak.get(pos, 0) + 1 if o["category"] == "error" else 0
        if o["category"] == "error":
            out[(o["iteration"], pos)] = streak[pos]
    return out


def check_sync_retries(obs: list[dict]) -> None:
    """Sync: an edge whose request failed is asked first in the next iteration, until it has
    failed MAX_CONSECUTIVE_ERRORS times in a row."""
    by_it = positions_by_iteration(obs)
    for positions in by_it.values():
        assert len(set(positions)) == len(positions)
    streaks = error_streaks(obs)
    for it in range(1, ITERATIONS):
        retried = sorted(
            pos for (i, pos), n in streaks.items() if i == it and n < MAX_CONSECUTIVE_ERRORS
        )
        assert by_it[it + 1][: len(retried)] == retried, f"iteration {it + 1}"


def test_sync_faults_never_count_as_model_failures(conn: sqlite3.Connection) -> None:
    # iteration 1 (16 questions x 3 attempts) meets only faults, every kind of them; then the
    # first attempts of iteration 2 fault every other time; then faults at random
    first = [ALL_FAULTS[i % len(ALL_FAULTS)] for i in range(BATCH * ATTEMPTS)]
    second = [ALL_FAULTS[i % len(ALL_FAULTS)] if i % 2 else None for i in range(BATCH)]
    rates = {"429": 0.06, "500": 0.06, "malformed": 0.04, "empty_choices": 0.04}
    with make_server(faults=first + second, fault_rates=rates, seed=1) as srv:
        engine, snap = run_engine(conn, srv)
    obs = check_invariants(conn, engine, snap, srv)
    check_sync_retries(obs)
    assert set(srv.fault_counts) == set(FAULTS)
    first_it = [o for o in obs if o["iteration"] == 1]
    assert all(o["category"] == "error" for o in first_it)
    kinds = {o["error"].split(":", 1)[0] for o in first_it}
    assert kinds <= {
        "rate_limit",
        "server",
        "timeout",
        "malformed",
        "connection",
    }  # cut: connection
    assert positions_by_iteration(obs)[2] == sorted(o["pos"] for o in first_it)
    assert any(o["retries"] > 0 and o["category"] != "error" for o in obs)
    assert {"correct", "incorrect"} <= set(snap.counts)


def test_a_proper_reply_later_than_the_timeout_is_a_failure_not_an_answer(
    conn: sqlite3.Connection,
) -> None:
    """What a loaded machine does to any reply: every 7th comes after the client's timeout, so
    the server completes it but the client has given up (a timeout, retried): it is never an
    answer, and the accounting holds without assuming that proper replies are fast."""
    order = itertools.count()
    lock = threading.Lock()

    def latency(_rng: object) -> float:
        with lock:
            return 0.6 if next(order) % 7 == 6 else 0.0

    with make_server(latency_fn=latency) as srv:
        engine, snap = run_engine(conn, srv)
    check_invariants(conn, engine, snap, srv)
    client = engine.target
    assert isinstance(client, CountingClient) and client.timeouts > 0


class FailingEdgesClient:
    """Answers "Yes.", except that the edges asked in the first `failing` slots of iteration 1
    fail with a server error whenever they are asked (half a batch: the run goes on)."""

    label = "failing edges"
    simulated = False

    def __init__(self, failing: int) -> None:
        self.failing = failing
        self.edges: set[int] = set()

    async def complete(self, request: ChatRequest) -> Completion:
        assert request.meta is not None
        iteration, slot = request.meta.key.split(":")[:2]
        if iteration == "it1" and int(slot[1:]) < self.failing:
            self.edges.add(request.meta.edge_id)
        await asyncio.sleep(0)
        if request.meta.edge_id in self.edges:
            raise LLMError("server", "HTTP 500 server error", retries=MAX_RETRIES)
        return Completion("Yes.", 1, 1, 0.0)

    async def aclose(self) -> None:
        """Nothing to release."""


def test_sync_gives_up_on_an_edge_after_consecutive_errors(conn: sqlite3.Connection) -> None:
    assert ITERATIONS > MAX_CONSECUTIVE_ERRORS
    client = FailingEdgesClient(failing=BATCH // 2)
    config = RunConfig(
        kg="country",
        target="openai:failing",
        batch_size=BATCH,
        iterations=ITERATIONS,
        concurrency=BATCH,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=client)
    snap = run_blocking(engine)
    assert snap.status == "finished", snap.error
    obs = observations(conn, engine.run.id)
    check_sync_retries(obs)
    by_it = positions_by_iteration(obs)
    failing = {o["pos"] for o in obs if o["category"] == "error"}
    assert len(failing) == BATCH // 2
    for it in range(1, MAX_CONSECUTIVE_ERRORS + 1):
        assert set(by_it[it][: BATCH // 2]) == failing
    assert not failing & set(by_it[MAX_CONSECUTIVE_ERRORS + 1])
    assert all(engine.state.err[p] == MAX_CONSECUTIVE_ERRORS for p in failing)
    assert snap.progress.counters.errors == len(failing) * MAX_CONSECUTIVE_ERRORS
    # the given-up edges are pending: the stop reason says so, and the model was never blamed
    assert snap.stop_reason == (
        f"iteration limit; {BATCH // 2} edges whose last request failed "
        "(resume the run to ask them again)"
    )
    assert int(engine.state.n[sorted(failing)].sum()) == 0


def test_continuous_faults_never_count_as_model_failures(conn: sqlite3.Connection) -> None:
    rates = {
        "429": 0.08,
        "500": 0.08,
        "503": 0.04,
        "timeout": 0.04,
        "malformed": 0.06,
        "empty_choices": 0.05,
        "missing_choices": 0.03,
        "null_content": 0.02,
    }
    with make_server(fault_rates=rates, seed=3) as srv:
        engine, snap = run_engine(conn, srv, scheduling="continuous", max_retries=1)
    obs = check_invariants(conn, engine, snap, srv, max_retries=1)
    assert sum(srv.fault_counts.values()) > 0
    assert snap.progress.counters.errors > 0
    assert srv.peak_in_flight <= BATCH
    assert all(len(set(p)) == len(p) for p in positions_by_iteration(obs).values())


class ScriptedClient:
    """Answers "Yes." at once, except that one question of iteration 1 is slow and another one
    fails with a transport error; logs each ask by question key."""

    label = "scripted"
    simulated = False

    def __init__(self, slow_s: float) -> None:
        self.slow_s = slow_s
        self.log: list[str] = []

    async def complete(self, request: ChatRequest) -> Completion:
        assert request.meta is not None
        key = request.meta.key
        self.log.append(key)
        if key.startswith("it1:s0:"):
            await asyncio.sleep(self.slow_s)
            self.log.append("slow reply in")
        if key.startswith("it1:s1:"):
            raise LLMError("server", "scripted failure")
        await asyncio.sleep(0)
        return Completion("Yes.", 1, 1, 0.0)

    async def aclose(self) -> None:
        """Nothing to release."""


def test_continuous_retries_an_edge_whose_request_failed(conn: sqlite3.Connection) -> None:
    config = RunConfig(
        kg="country",
        target="openai:scripted",
        batch_size=4,
        iterations=150,
        concurrency=4,
        scheduling="continuous",
        stop_on_convergence=False,
    )
    client = ScriptedClient(slow_s=0.1)
    snap = run_blocking(prepare(conn, config=config, target=client))
    assert snap.status == "finished"
    failed = next(k for k in client.log if k.startswith("it1:s1:"))
    edge = failed.rsplit(":", 1)[1]
    # iteration 1 commits as soon as its slow reply is in; the failed edge goes out next
    after = client.log[client.log.index("slow reply in") + 1 :]
    assert len(after) > 2 * config.concurrency
    assert any(k.endswith(f":{edge}") for k in after[: 2 * config.concurrency])


def test_continuous_iterations_hold_batch_size_questions(conn: sqlite3.Connection) -> None:
    config = RunConfig(
        kg="country",
        target="sim",
        batch_size=64,
        iterations=3,
        concurrency=16,
        scheduling="continuous",
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config)
    snap = run_blocking(engine)
    sizes = conn.execute(
        "SELECT COUNT(*) FROM observation WHERE run_id = ? GROUP BY iteration", (engine.run.id,)
    ).fetchall()
    assert [r[0] for r in sizes] == [64, 64, 64]
    assert snap.progress.counters.requests == 3 * 64


def test_engine_bench_smoke() -> None:
    console = Console(file=io.StringIO(), width=120)
    figures = run_engine_bench(
        console,
        sizes=[2_000],
        iterations=3,
        warmup=1,
        latency_ms=20.0,
        concurrency=8,
        throughput_iterations=2,
        long_iterations=21,
    )
    result, steady = figures["engine"]
    assert (result.window, steady.window) == ("first iterations", "after one epoch")
    assert steady.edges == result.edges and steady.cpu.total_median_ms > 0
    assert result.edges > 1_900
    for clock in (result.cpu, result.wall):
        assert set(clock.stages) == {*STAGES, TARGET}
        # the simulated target's own time is shown but not engine time
        assert clock.stages[TARGET][0] > 0
        assert clock.with_target_median_ms > clock.total_median_ms > 0
        # the baseline is part of an iteration's work (its sampling), so never more than it
        assert 0 < clock.baseline_ms < clock.total_median_ms
        assert clock.ratio == clock.total_median_ms / clock.baseline_ms
    assert result.questions_per_s > 0
    throughput = figures["throughput"]
    assert throughput.requests["sync"] == 2 * 64
    assert 0 < throughput.requests["continuous"] <= 2 * 64
    assert throughput.cpu_ms_per_request > 0
    assert throughput.sync_per_s > 0 and throughput.continuous_per_s > 0
    assert throughput.bound_per_s == pytest.approx(400.0)
    assert throughput.client_only_requests == 2 * 64
    # no client beats the bound: each request waits the server's 20 ms at 8 in flight
    assert 0 < throughput.client_only_per_s <= throughput.bound_per_s * 1.02
    text = console.file.getvalue()
    assert "engine total" in text and "continuous" in text
    flat = " ".join(text.split())
    assert "CPU time (judged)" in flat and "wall clock" in flat
    assert result.target_ratio is None  # the 3x target is for 20,000 edges
    assert f"{result.cpu.ratio:.1f}x" in flat and f"{result.wall.ratio:.1f}x" in flat
    assert "HTTP client alone" in flat and "of the client alone" in flat
    assert figures["long_run"].late_iteration == 21
    assert "iteration 21" in flat and f"{figures['long_run'].ratio:.2f}x" in flat
