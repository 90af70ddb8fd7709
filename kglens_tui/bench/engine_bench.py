"""`kglens bench engine`: the probing engine's own cost per iteration, and request throughput.

Part one imports synthetic KGs (see `import_bench.write_synthetic`) and drives the engine's
synchronous loop step by step, timing sampling, question generation, ask + verify, the PKG update
and the SQLite commit of each iteration, in CPU time of the engine's thread and by wall clock.
Each measure takes two passes over copies of the same workspace, which ask the same questions: a
recording pass against the zero-latency simulated target, which keeps its replies and times its
own work, and the timed pass against a replay of those replies (`measure_engine`), so the thread
runs the engine, its client and SQLite, as it does with a real target, whose model works in its
server (the table says how much CPU time other threads took meanwhile). CPU time is the figure
the targets are judged by: the machines are shared, and wall clock counts the time other
processes hold the cores.

A long run on a small KG then compares the wall and CPU time per iteration at iteration 1,000 with
iteration 10 of the same run (`long_run`).

Part two runs the engine against a loopback OpenAI-compatible server (`latency_server`, in a
child process) with a fixed latency, and compares synchronous with continuous scheduling against
the bound concurrency / latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
from rich.console import Console
from rich.text import Text

from kglens_tui.bench.import_bench import write_synthetic
from kglens_tui.bench.latency_server import latency_server
from kglens_tui.bench.long_run import MIN_LATE, LongRunResult, long_run_table, measure_long_run
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.base import ChatClient, ChatRequest, Completion
from kglens_tui.llm.openai_compat import OpenAICompatClient
from kglens_tui.llm.pacing import PacedClient
from kglens_tui.modes.kglens import engine as engine_module
from kglens_tui.modes.kglens.config import RunConfig, Scheduling
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.samplers import thompson_draws
from kglens_tui.runs.prompts import load_prompt
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

STAGES = ("sampling", "questions", "ask + verify", "update", "commit")
TARGET = "simulated target"
"""The zero-latency simulator's own work (picking and wording its answers), timed in the
recording pass and shown, but not engine time; with a real target that work happens in the
model's server."""
TARGETS_MS = {20_000: 10.0, 1_000_000: 150.0}
"""Engine time per 64-edge iteration that the design aims for, by KG size (CPU time, median)."""
RATIO_TARGETS = {20_000: 3.0}
"""At most this many times the same run's bare Thompson draw (CPU time, medians), by KG size
(within 5% of it)."""
CPU, WALL = "CPU time", "wall clock"
KG_NAME = "synthetic"
LONG_RUN_EDGES = 2_000
"""A small KG for the long run, so its edges are asked again and again (as in a long real run)."""
STEADY_MAX_EDGES = 200_000
"""Sizes up to this are also timed after one epoch (every edge asked once on average): the
iterations of most of a run, where the learned model refits every iteration / 20 and the
posterior has moved everywhere. The first iterations refit after every one, or every
ceil(edges / `learned.EDGES_PER_REFIT_STEP`) on bigger graphs (every 3rd at 20,000 edges)."""
FIRST, STEADY = "first iterations", "after one epoch"


@dataclass(frozen=True)
class ClockResult:
    """One clock's timings of one window, in milliseconds per iteration."""

    stages: dict[str, tuple[float, float]]
    """Stage -> (median, p90)."""
    total_median_ms: float
    total_p90_ms: float
    baseline_ms: float = 0.0
    """Median of the same-run baseline: a bare Thompson draw and its top 64 (numpy only)."""
    with_target_median_ms: float = 0.0
    """Engine and the simulated target's own work together, iteration by iteration (about what
    a zero-latency run takes per iteration)."""

    @property
    def ratio(self) -> float | None:
        """Median engine total over the median baseline of the same run."""
        return self.total_median_ms / self.baseline_ms if self.baseline_ms > 0 else None


@dataclass(frozen=True)
class SizeResult:
    """Engine timings for one KG size and window, by clock."""

    edges: int
    setup_s: float
    cpu: ClockResult
    """CPU time of the engine's thread: the figure the targets are judged by."""
    wall: ClockResult
    questions_per_s: float
    """Questions per second of engine time (CPU time, median)."""
    target_ms: float | None
    target_ratio: float | None = None
    window: str = FIRST
    """FIRST (right after `warmup` iterations) or STEADY (after one epoch)."""
    other_threads_share: float = 0.0
    """CPU time of the process's other threads during the timed iterations, as a share of the
    engine thread's (about 0: the thread's CPU time is all the engine's work)."""

    def clock(self, name: str) -> ClockResult:
        return self.cpu if name == CPU else self.wall


@dataclass(frozen=True)
class EngineTimings:
    """What `measure_engine` took of one KG database: per-iteration stage seconds and baseline
    seconds by clock (CPU, WALL)."""

    edges: int
    setup_s: float
    stages: dict[str, list[dict[str, float]]]
    baseline: dict[str, list[float]]
    other_threads_share: float


@dataclass(frozen=True)
class ThroughputResult:
    """Requests per second against the loopback server, by scheduling."""

    latency_ms: float
    concurrency: int
    requests: dict[str, int]
    """Requests committed by each run (iterations x batch size unless some were lost)."""
    sync_per_s: float
    continuous_per_s: float
    cpu_ms_per_request: float
    """CPU time of this process (engine and HTTP client) per request, both runs together."""
    client_only_per_s: float
    """The HTTP client alone (no engine) at the same concurrency: the same-run baseline."""
    client_only_requests: int

    @property
    def bound_per_s(self) -> float:
        return self.concurrency / (self.latency_ms / 1000.0)


def target_for(edges: int) -> float | None:
    """The per-iteration target for the nearest named size at or above `edges`, if any."""
    for size in sorted(TARGETS_MS):
        if edges <= size * 1.05:
            return TARGETS_MS[size]
    return None


def _now() -> tuple[float, float]:
    """(CPU time of this thread, wall clock) in seconds."""
    return time.thread_time(), time.perf_counter()


def _since(started: tuple[float, float]) -> tuple[float, float]:
    cpu, wall = _now()
    return cpu - started[0], wall - started[1]


def build_kg(root: Path, n_edges: int) -> Path:
    """Write and import a synthetic KG of about `n_edges` triples; returns its database."""
    data = root / f"kg-{n_edges}"
    data.mkdir()
    write_synthetic(data, n_edges, max(n_edges // 10, 100))
    db = root / f"kg-{n_edges}.db"
    conn = connect(db)
    try:
        import_kg(conn, data, KG_NAME)
    finally:
        conn.close()
    return db


@contextlib.contextmanager
def _timed_commits(sink: list[tuple[float, float]]) -> Iterator[None]:
    """Time every `commit_iteration` the engine makes while inside the block (CPU, wall)."""
    original = engine_module.commit_iteration

    def timed(*args: object, **kwargs: object) -> None:
        started = _now()
        try:
            original(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            sink.append(_since(started))

    engine_module.commit_iteration = timed
    try:
        yield
    finally:
        engine_module.commit_iteration = original


class _Recording:
    """The simulated target as the recording pass asks it: each reply kept by its question's
    key, and the CPU and wall seconds spent inside it added to `spent` [CPU, WALL]."""

    def __init__(self, inner: ChatClient) -> None:
        self._inner = inner
        self.replies: dict[str, Completion] = {}
        self.spent = [0.0, 0.0]

    async def complete(self, request: ChatRequest) -> Completion:
        # read inline, each clock's span around the call only (this runs once per question)
        cpu = time.thread_time()
        wall = time.perf_counter()
        reply = await self._inner.complete(request)
        self.spent[1] += time.perf_counter() - wall
        self.spent[0] += time.thread_time() - cpu
        self.replies[_key(request)] = reply
        return reply

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._inner, name)


class _Replay:
    """A target that hands back the recorded replies by question key and does nothing else:
    what a real target costs the engine's thread, whose model works in its own server."""

    def __init__(self, inner: ChatClient, replies: dict[str, Completion]) -> None:
        self._inner = inner
        self._replies = replies

    async def complete(self, request: ChatRequest) -> Completion:
        try:
            return self._replies[_key(request)]
        except KeyError:
            raise RuntimeError(
                f"engine bench: the timed pass asked {_key(request)!r}, which the recording "
                "pass did not (the two passes must ask the same questions)"
            ) from None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._inner, name)


def _key(request: ChatRequest) -> str:
    if request.meta is None:
        raise RuntimeError("engine bench: a request without its question's key")
    return request.meta.key


async def _step(
    engine: ProbeEngine, iteration: int, commits: list[tuple[float, float]]
) -> dict[str, dict[str, float]]:
    """One iteration of the engine's synchronous loop, timed stage by stage in seconds of each
    clock (CPU, WALL)."""
    t0 = _now()
    batch = engine.sample(iteration, engine.config.batch_size)
    t1 = _now()
    questions = await engine.questions_for(batch, iteration)
    t2 = _now()
    outcomes = await engine.ask_all(questions)
    t3 = _now()
    engine.finish_iteration(iteration, outcomes, t3[1] - t0[1])
    t4 = _now()
    commit = commits[-1]
    return {
        clock: {
            "sampling": t1[c] - t0[c],
            "questions": t2[c] - t1[c],
            "ask + verify": t3[c] - t2[c],
            "update": t4[c] - t3[c] - commit[c],
            "commit": commit[c],
        }
        for c, clock in enumerate((CPU, WALL))
    }


def bare_thompson_draw(state: PKGState, k: int, seed: int) -> tuple[float, float]:
    """(CPU, wall) seconds for the irreducible core of a Thompson iteration: the sampler's draw
    over every edge (Beta where the posterior moved, uniform at the prior) and the indexes of
    the k largest, with nothing else (the engine bench's same-run baseline)."""
    started = _now()
    draws = thompson_draws(state, np.random.default_rng(seed))
    np.argpartition(-draws, k - 1)[:k]
    return _since(started)


def _config(iterations: int, batch_size: int) -> RunConfig:
    return RunConfig(
        kg=KG_NAME,
        target="sim",
        batch_size=batch_size,
        iterations=iterations,
        stop_on_convergence=False,
    )


def _copy_workspace(db: Path) -> Path:
    """A copy of the workspace as it is now (SQLite's backup: whatever its WAL holds too)."""
    copy = db.with_name(f"{db.stem}-replay{db.suffix}")
    copy.unlink(missing_ok=True)
    source, target = sqlite3.connect(db), sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return copy


def _record(
    db: Path, iterations: int, warmup: int, batch_size: int
) -> tuple[dict[str, Completion], list[tuple[float, float]]]:
    """The recording pass: the run against the simulated target, whose replies it keeps by
    question key, and the (CPU, wall) seconds the target took in each timed iteration."""
    conn = connect(db)
    try:
        engine = cast(ProbeEngine, prepare(conn, config=_config(warmup + iterations, batch_size)))
        client = cast(PacedClient, engine.target)  # the run's pacing around the simulator
        recording = _Recording(client.inner)
        client.inner = recording
        commits: list[tuple[float, float]] = []
        spent: list[tuple[float, float]] = []

        async def drive() -> None:
            for iteration in range(1, warmup + iterations + 1):
                before = tuple(recording.spent)
                await _step(engine, iteration, commits)
                spent.append((recording.spent[0] - before[0], recording.spent[1] - before[1]))
            await engine.target.aclose()

        with _timed_commits(commits):
            asyncio.run(drive())
        return recording.replies, spent[warmup:]
    finally:
        conn.close()


def measure_engine(db: Path, iterations: int, warmup: int, batch_size: int = 64) -> EngineTimings:
    """Stage timings of `iterations` iterations after `warmup` on one KG database; the baseline
    (`bare_thompson_draw`) is timed after each iteration, on its state.

    Two passes over copies of the same workspace ask the same questions: the first against the
    zero-latency simulated target, keeping its replies and timing its own work (the TARGET
    rows); the timed one against a replay of those replies, so that the engine's thread runs
    the engine, its client (pacing included) and SQLite, as with a real target, whose model
    works in its own server."""
    replay_db = _copy_workspace(db)
    try:
        replies, target_spent = _record(replay_db, iterations, warmup, batch_size)
    finally:
        replay_db.unlink(missing_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(f"{replay_db}{suffix}").unlink(missing_ok=True)
    conn = connect(db)
    try:
        started = time.perf_counter()
        engine = cast(ProbeEngine, prepare(conn, config=_config(warmup + iterations, batch_size)))
        setup_s = time.perf_counter() - started
        client = cast(PacedClient, engine.target)
        client.inner = _Replay(client.inner, replies)
        commits: list[tuple[float, float]] = []
        baseline: list[tuple[float, float]] = []
        spent = [0.0, 0.0]
        """The process's and the thread's CPU seconds over the timed iterations."""

        async def drive() -> list[dict[str, dict[str, float]]]:
            timings = []
            for iteration in range(1, warmup + iterations + 1):
                if iteration == warmup + 1:
                    spent[:] = [-time.process_time(), -time.thread_time()]
                timings.append(await _step(engine, iteration, commits))
                baseline.append(bare_thompson_draw(engine.state, batch_size, iteration))
            spent[0] += time.process_time()
            spent[1] += time.thread_time()
            await engine.target.aclose()
            return timings[warmup:]

        with _timed_commits(commits):
            timings = asyncio.run(drive())
        for timing, own in zip(timings, target_spent, strict=True):
            for c, clock in enumerate((CPU, WALL)):
                timing[clock][TARGET] = own[c]
        return EngineTimings(
            edges=len(engine.run.edge_ids),
            setup_s=setup_s,
            stages={clock: [t[clock] for t in timings] for clock in (CPU, WALL)},
            baseline={
                clock: [b[c] for b in baseline[warmup:]] for c, clock in enumerate((CPU, WALL))
            },
            other_threads_share=max(spent[0] - spent[1], 0.0) / spent[1] if spent[1] > 0 else 0.0,
        )
    finally:
        conn.close()


def _clock_result(timings: list[dict[str, float]], baseline: Sequence[float]) -> ClockResult:
    """Median and p90 per stage and in total, in milliseconds, of one clock's timings."""
    stages = {
        name: (
            float(np.median([t[name] for t in timings]) * 1000),
            float(np.percentile([t[name] for t in timings], 90) * 1000),
        )
        for name in (*STAGES, TARGET)
        if all(name in t for t in timings)
    }
    totals = [sum(t[name] for name in STAGES) * 1000 for t in timings]
    with_target = [sum(t.values()) * 1000 for t in timings]
    return ClockResult(
        stages=stages,
        total_median_ms=float(np.median(totals)),
        total_p90_ms=float(np.percentile(totals, 90)),
        baseline_ms=float(np.median(baseline) * 1000) if len(baseline) else 0.0,
        with_target_median_ms=float(np.median(with_target)),
    )


def summarise(measured: EngineTimings, batch_size: int = 64, window: str = FIRST) -> SizeResult:
    """Median and p90 per stage and in total, in milliseconds, by clock."""
    cpu, wall = (
        _clock_result(measured.stages[clock], measured.baseline[clock]) for clock in (CPU, WALL)
    )
    median = cpu.total_median_ms
    return SizeResult(
        edges=measured.edges,
        setup_s=measured.setup_s,
        cpu=cpu,
        wall=wall,
        questions_per_s=batch_size * 1000.0 / median if median > 0 else float("inf"),
        target_ms=target_for(measured.edges),
        target_ratio=next(
            (t for size, t in RATIO_TARGETS.items() if abs(measured.edges - size) <= 0.05 * size),
            None,
        ),
        window=window,
        other_threads_share=measured.other_threads_share,
    )


@dataclass(frozen=True)
class TimedRun:
    """One probing run against a loopback server: requests, wall seconds and CPU seconds."""

    requests: int
    seconds: float
    cpu_s: float


def time_scheduling(
    conn: sqlite3.Connection,
    kg: str,
    base_url: str,
    scheduling: str,
    *,
    concurrency: int,
    iterations: int,
    batch_size: int,
) -> TimedRun:
    """Run the engine once with a scheduling against an OpenAI-compatible loopback server."""
    config = RunConfig(
        kg=kg,
        target="openai:fake-model",
        base_url=base_url,
        batch_size=batch_size,
        iterations=iterations,
        concurrency=concurrency,
        scheduling=Scheduling(scheduling),
        timeout_s=30.0,
        max_retries=0,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config)
    started, cpu_started = time.perf_counter(), time.process_time()
    snap = run_blocking(engine)
    return TimedRun(
        snap.progress.counters.requests,
        time.perf_counter() - started,
        time.process_time() - cpu_started,
    )


def time_client_only(base_url: str, concurrency: int, requests: int) -> TimedRun:
    """The engine's HTTP client alone: `requests` Yes/No chat requests with the paper's answer
    prompt, `concurrency` in flight, after one warm-up round that opens the connections."""
    messages = load_prompt("answer_yes_no").render(question="Is Paris the capital of France?")
    request = ChatRequest(messages=messages, max_tokens=16)

    async def go() -> TimedRun:
        client = OpenAICompatClient(
            base_url, "fake-model", max_in_flight=concurrency, max_retries=0, timeout_s=30.0
        )
        try:
            await asyncio.gather(*(client.complete(request) for _ in range(concurrency)))
            started, cpu_started = time.perf_counter(), time.process_time()
            await asyncio.gather(*(client.complete(request) for _ in range(requests)))
            return TimedRun(
                requests, time.perf_counter() - started, time.process_time() - cpu_started
            )
        finally:
            await client.aclose()

    return asyncio.run(go())


def measure_throughput(
    db: Path, latency_s: float, concurrency: int, iterations: int, batch_size: int = 64
) -> ThroughputResult:
    """Requests per second of synchronous and continuous scheduling over one loopback server,
    and of the HTTP client alone as the same-run baseline."""
    runs: dict[str, TimedRun] = {}
    with latency_server(latency_s) as base_url:
        baseline = time_client_only(base_url, concurrency, iterations * batch_size)
        for scheduling in ("sync", "continuous"):
            conn = connect(db)
            try:
                runs[scheduling] = time_scheduling(
                    conn,
                    KG_NAME,
                    base_url,
                    scheduling,
                    concurrency=concurrency,
                    iterations=iterations,
                    batch_size=batch_size,
                )
            finally:
                conn.close()
    requests = {k: r.requests for k, r in runs.items()}
    return ThroughputResult(
        latency_ms=latency_s * 1000,
        concurrency=concurrency,
        requests=requests,
        sync_per_s=runs["sync"].requests / runs["sync"].seconds,
        continuous_per_s=runs["continuous"].requests / runs["continuous"].seconds,
        cpu_ms_per_request=sum(r.cpu_s for r in runs.values())
        * 1000
        / max(sum(requests.values()), 1),
        client_only_per_s=baseline.requests / baseline.seconds,
        client_only_requests=baseline.requests,
    )


def _met(met: bool) -> Text:
    return Text("met", "green") if met else Text("missed", "red")


def _target_cell(r: SizeResult) -> Text:
    if r.target_ms is None:
        return Text("—")
    return Text.assemble(f"< {r.target_ms:g} ", _met(r.cpu.total_median_ms < r.target_ms))


def _ratio_cell(r: SizeResult, clock: str) -> Text:
    ratio = r.clock(clock).ratio
    if ratio is None:
        return Text("—")
    if clock != CPU or r.target_ratio is None:
        return Text(f"{ratio:.1f}x")
    return Text.assemble(
        f"{ratio:.2f}x (≤ {r.target_ratio:g}x ", _met(ratio <= r.target_ratio), ")"
    )


def _engine_table(results: Sequence[SizeResult], iterations: int, warmup: int) -> LiteralTable:
    other = max((r.other_threads_share for r in results), default=0.0)
    table = LiteralTable(
        title=f"kglens bench engine: per 64-edge iteration, the simulated zero-latency target's "
        f"replies replayed ({iterations} iterations timed after {warmup} warm-up, and after one "
        f"epoch up to {STEADY_MAX_EDGES:,} edges; median / p90 ms)",
        title_justify="left",
        caption="The engine is timed against a replay of the replies a first pass of the same run "
        "got from the simulated target, so its thread runs the engine, its client (pacing "
        "included) and SQLite, as with a real target, whose model works in its server; the "
        "simulator's own work, timed in the first pass, is shown on its own rows. The targets "
        "are judged in CPU time of the engine's thread (the machines are shared: wall clock "
        f"also counts the time other processes hold the cores); the process's other threads "
        f"used {other:.1%} of that thread's CPU time meanwhile",
    )
    table.add_column("stage")
    for r in results:
        table.add_column(f"{r.edges:,} edges, {r.window}", justify="right")
    table.add_row("setup (load KG, create run)", *(f"{r.setup_s:.1f} s" for r in results))
    for clock in (CPU, WALL):
        bold = "bold" if clock == CPU else ""
        heading = f"{clock} (judged)" if clock == CPU else clock
        table.add_row(Text(heading, "bold underline"), *("" for _ in results))
        for name in STAGES:
            table.add_row(
                name,
                *(
                    f"{r.clock(clock).stages[name][0]:.2f} / {r.clock(clock).stages[name][1]:.2f}"
                    for r in results
                ),
            )
        table.add_row(
            Text("engine total", bold),
            *(
                Text(
                    f"{r.clock(clock).total_median_ms:.2f} / {r.clock(clock).total_p90_ms:.2f}",
                    bold,
                )
                for r in results
            ),
        )
        if clock == CPU:
            table.add_row("performance target (median)", *(_target_cell(r) for r in results))
        if all(TARGET in r.clock(clock).stages for r in results):
            table.add_row(
                Text("simulated target's own work (first pass, not engine)", "dim"),
                *(
                    Text(
                        f"{r.clock(clock).stages[TARGET][0]:.2f} / "
                        f"{r.clock(clock).stages[TARGET][1]:.2f}",
                        "dim",
                    )
                    for r in results
                ),
            )
            table.add_row(
                Text("engine + simulated target's own work", "dim"),
                *(Text(f"{r.clock(clock).with_target_median_ms:.2f}", "dim") for r in results),
            )
        table.add_row(
            Text("baseline: bare Thompson draw + top 64", "dim"),
            *(Text(f"{r.clock(clock).baseline_ms:.2f}", "dim") for r in results),
        )
        table.add_row(
            Text("engine total / baseline (medians)", bold),
            *(_ratio_cell(r, clock) for r in results),
        )
    table.add_row(
        "questions per second of engine CPU time", *(f"{r.questions_per_s:,.0f}" for r in results)
    )
    return table


def _throughput_table(t: ThroughputResult) -> LiteralTable:
    table = LiteralTable(
        title=f"throughput against the loopback server: {t.latency_ms:g} ms latency, "
        f"concurrency {t.concurrency}",
        title_justify="left",
    )
    for col in ("scheduling", "requests", "requests/s", f"of the {t.bound_per_s:,.0f}/s bound"):
        table.add_column(col, justify="left" if col == "scheduling" else "right")
    for name, key, rate in (
        ("synchronous", "sync", t.sync_per_s),
        ("continuous", "continuous", t.continuous_per_s),
    ):
        table.add_row(name, f"{t.requests[key]:,}", f"{rate:,.1f}", f"{rate / t.bound_per_s:.1%}")
    table.add_row(
        *(
            Text(cell, "dim")
            for cell in (
                "HTTP client alone (no engine)",
                f"{t.client_only_requests:,}",
                f"{t.client_only_per_s:,.1f}",
                f"{t.client_only_per_s / t.bound_per_s:.1%}",
            )
        )
    )
    table.caption = Text.assemble(
        "target: continuous ≥ 90% of the bound (",
        _met(t.continuous_per_s >= 0.9 * t.bound_per_s),
        f") · continuous reaches "
        f"{t.continuous_per_s / max(t.client_only_per_s, 1e-9):.0%} of the client alone in "
        f"this run · CPU per request in this process (engine + HTTP client): "
        f"{t.cpu_ms_per_request:.2f} ms",
        style="table.caption",
    )
    return table


def check_counts(iterations: int, throughput_iterations: int, long_iterations: int) -> None:
    """Raise ValueError, naming the option, on an iteration count the bench cannot run: 0 skips
    the throughput part or the long run, as the whole bench's natural "not this part"."""
    if iterations < 1:
        raise ValueError(f"--iterations must be at least 1 (got {iterations})")
    if throughput_iterations < 0:
        raise ValueError(
            f"--throughput-iterations must be 0 (skip) or more (got {throughput_iterations})"
        )
    if long_iterations < 0 or 0 < long_iterations < MIN_LATE:
        raise ValueError(
            f"--long-iterations must be 0 (skip) or at least {MIN_LATE} (got {long_iterations})"
        )


def run_engine_bench(
    console: Console,
    sizes: Sequence[int] = (20_000, 1_000_000),
    iterations: int = 30,
    warmup: int = 2,
    latency_ms: float = 100.0,
    concurrency: int = 32,
    throughput_iterations: int = 20,
    progress: Callable[[str], None] | None = None,
    long_iterations: int = 1_000,
    long_edges: int = LONG_RUN_EDGES,
) -> dict[str, Any]:
    """Run both parts and the long run and print their tables; returns the figures. The long
    run is skipped when long_iterations is 0, the throughput part when throughput_iterations is
    0. Raises ValueError on a count it cannot run, before any work (`check_counts`)."""
    check_counts(iterations, throughput_iterations, long_iterations)
    say = progress or (lambda text: console.print(f"[dim]{text}[/]"))
    results: list[SizeResult] = []
    throughput: ThroughputResult | None = None
    long_run: LongRunResult | None = None
    with tempfile.TemporaryDirectory(prefix="kglens-engine-bench-") as tmp:
        root = Path(tmp)
        dbs = []
        for n in sizes:
            say(f"writing and importing {n:,} synthetic triples…")
            dbs.append(build_kg(root, n))
            say(f"timing {warmup} + {iterations} iterations on {n:,} edges…")
            first = measure_engine(dbs[-1], iterations, warmup)
            results.append(summarise(first))
            if n <= STEADY_MAX_EDGES:
                epoch = -(-first.edges // 64)
                say(f"timing {iterations} iterations on {n:,} edges after one epoch ({epoch:,})…")
                steady = measure_engine(dbs[-1], iterations, max(warmup, epoch))
                results.append(summarise(steady, window=STEADY))
        console.print(_engine_table(results, iterations, warmup))
        if long_iterations:
            say(f"long run: {long_iterations:,} iterations on {long_edges:,} edges…")
            long_db = (
                build_kg(root, long_edges)
                if long_edges not in sizes
                else dbs[sizes.index(long_edges)]
            )
            long_run = measure_long_run(long_db, KG_NAME, long_iterations)
            console.print(long_run_table(long_run))
        if dbs and throughput_iterations:
            say(f"throughput: {throughput_iterations} iterations per scheduling…")
            throughput = measure_throughput(
                dbs[0], latency_ms / 1000.0, concurrency, throughput_iterations
            )
            console.print(_throughput_table(throughput))
    return {"engine": results, "throughput": throughput, "long_run": long_run}


def parse_sizes(text: str) -> list[int]:
    """'20000,1000000' -> [20000, 1000000]."""
    sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    if not sizes or any(n < 100 for n in sizes):
        raise ValueError("sizes must be a comma-separated list of edge counts of at least 100")
    return sizes
