"""The long-run row of `kglens bench engine`: time per iteration late in a long simulated run
against early in it. Work that grows with the run's length (over the observation log, the history,
the asks per edge) shows up as a ratio above 1.

On a busy machine the load can change between iteration 10 and iteration 1,000 of one run, so the
run is also replayed (same configuration and seed, so the same work) and its early iterations are
timed turn about with the late ones of the long run: that ratio compares like with like."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
from rich.text import Text

from kglens_tui.core.safetext import LiteralTable
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.runs.runner import prepare
from kglens_tui.store.connection import connect

EARLY_ITERATION = 10
WINDOW = 5
"""Each figure is the median over the iterations this far either side of its mark."""
MIN_LATE = EARLY_ITERATION + 2 * WINDOW + 1
"""The smallest late mark whose window does not overlap the early one."""
TARGET_RATIO = 1.5


@dataclass(frozen=True)
class Timing:
    """Median milliseconds per iteration: wall time, and CPU time of this process."""

    wall_ms: float
    cpu_ms: float


@dataclass(frozen=True)
class LongRunResult:
    """Per-iteration timings of one long simulated run and of its replay."""

    edges: int
    batch_size: int
    early_iteration: int
    late_iteration: int
    early: Timing
    """The run's own early iterations."""
    replayed: Timing
    """The same early iterations of the replay, timed turn about with the late ones."""
    late: Timing

    @property
    def ratio(self) -> float:
        """Late against the replayed early iterations (wall time)."""
        return _ratio(self.late.wall_ms, self.replayed.wall_ms)

    @property
    def cpu_ratio(self) -> float:
        return _ratio(self.late.cpu_ms, self.replayed.cpu_ms)


def _ratio(late: float, early: float) -> float:
    return late / early if early > 0 else float("inf")


async def _timed_iteration(engine: ProbeEngine, iteration: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one iteration of the engine's synchronous loop, followed by a full
    snapshot (blind spots, per-predicate rates, random baseline: what a watched run shows, and
    more often than any screen asks for it)."""
    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(0)
    batch = engine.sample(iteration, engine.config.batch_size)
    questions = await engine.questions_for(batch, iteration)
    outcomes = await engine.ask_all(questions)
    engine.finish_iteration(iteration, outcomes, time.perf_counter() - wall)
    engine.snapshot()
    return time.perf_counter() - wall, time.process_time() - cpu


def _median(samples: list[tuple[float, float]]) -> Timing:
    walls, cpus = zip(*samples, strict=True)
    return Timing(float(np.median(walls) * 1000), float(np.median(cpus) * 1000))


def measure_long_run(db: Path, kg: str, late: int = 1_000, batch_size: int = 64) -> LongRunResult:
    """Run the engine against the zero-latency simulated target up to `late` + WINDOW iterations,
    and a replay of it up to EARLY_ITERATION + WINDOW alongside the last 2 * WINDOW + 1."""
    if late < MIN_LATE:
        raise ValueError(f"the long run needs at least {MIN_LATE} iterations")
    config = RunConfig(
        kg=kg,
        target="sim",
        batch_size=batch_size,
        iterations=late + WINDOW,
        stop_on_convergence=False,
    )
    early_marks = range(EARLY_ITERATION - WINDOW, EARLY_ITERATION + WINDOW + 1)
    late_marks = range(late - WINDOW, late + WINDOW + 1)

    async def drive(long: ProbeEngine, replay: ProbeEngine) -> LongRunResult:
        try:
            own = {}
            for it in range(1, late_marks[0]):
                timing = await _timed_iteration(long, it)
                if it in early_marks:
                    own[it] = timing
            for it in range(1, early_marks[0]):
                await _timed_iteration(replay, it)
            replayed, last = [], []
            for early_it, late_it in zip(early_marks, late_marks, strict=True):
                replayed.append(await _timed_iteration(replay, early_it))
                last.append(await _timed_iteration(long, late_it))
        finally:
            for engine in (long, replay):
                await engine.target.aclose()
        return LongRunResult(
            edges=len(long.run.edge_ids),
            batch_size=batch_size,
            early_iteration=EARLY_ITERATION,
            late_iteration=late,
            early=_median(list(own.values())),
            replayed=_median(replayed),
            late=_median(last),
        )

    conn = connect(db)
    try:
        # a KGLens config: KGLens engines
        long = cast(ProbeEngine, prepare(conn, config=config))
        replay = cast(ProbeEngine, prepare(conn, config=config))
        return asyncio.run(drive(long, replay))
    finally:
        conn.close()


def long_run_table(r: LongRunResult) -> LiteralTable:
    """Per-iteration time early and late in the run, and the late / early ratio."""
    table = LiteralTable(
        title=f"long run: {r.late_iteration + WINDOW:,} iterations of {r.batch_size} edges on "
        f"{r.edges:,} edges, "
        "simulated zero-latency target, full snapshot after every iteration "
        f"(median of {2 * WINDOW + 1} iterations around each mark)",
        title_justify="left",
    )
    for col in ("per iteration", "wall time", "CPU time (this process)"):
        table.add_column(col, justify="left" if col == "per iteration" else "right")
    rows = (
        (f"iteration {r.early_iteration:,}", r.early),
        (f"iteration {r.early_iteration:,} replayed alongside the late ones", r.replayed),
        (f"iteration {r.late_iteration:,}", r.late),
    )
    for name, t in rows:
        table.add_row(name, f"{t.wall_ms:.2f} ms", f"{t.cpu_ms:.2f} ms")
    met = Text("met", "green") if r.ratio <= TARGET_RATIO else Text("missed", "red")
    table.add_row(
        Text(f"ratio {r.late_iteration:,} / {r.early_iteration:,} (replayed)", "bold"),
        Text(f"{r.ratio:.2f}x", "bold"),
        f"{r.cpu_ratio:.2f}x",
    )
    table.caption = Text.assemble(
        f"target: ratio ≤ {TARGET_RATIO:g}x (",
        met,
        f") · against the run's own iteration {r.early_iteration:,}: "
        f"{_ratio(r.late.wall_ms, r.early.wall_ms):.2f}x wall, "
        f"{_ratio(r.late.cpu_ms, r.early.cpu_ms):.2f}x CPU",
        style="table.caption",
    )
    return table
