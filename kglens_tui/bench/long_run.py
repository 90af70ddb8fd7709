"""The long-run row of `kglens bench engine`: wall time per iteration late in a long simulated run
against early in the same run. Work that grows with the run's length (over the observation log,
the history, the asks per edge) shows up as a ratio above 1."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.table import Table

from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.engine import ProbeEngine, ProbeSnapshot
from kglens_tui.probe.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

EARLY_ITERATION = 10
WINDOW = 5
"""Each figure is the median over the iterations this far either side of its mark."""
TARGET_RATIO = 1.5
MIN_LATE = EARLY_ITERATION + 2 * WINDOW + 1
"""The smallest late mark whose window does not overlap the early one."""


@dataclass(frozen=True)
class LongRunResult:
    """Milliseconds per iteration (median around each mark) of one long simulated run."""

    edges: int
    early_iteration: int
    late_iteration: int
    early_ms: float
    late_ms: float

    @property
    def ratio(self) -> float:
        return self.late_ms / self.early_ms if self.early_ms > 0 else float("inf")


def measure_long_run(db: Path, kg: str, late: int = 1_000, batch_size: int = 64) -> LongRunResult:
    """Run the engine against the zero-latency simulated target for `late` + WINDOW iterations,
    with an iteration callback that takes a full snapshot (blind spots, per-predicate rates,
    random baseline: what a watched run shows, and more often than any screen asks), and time
    each iteration from one callback to the next."""
    if late < MIN_LATE:
        raise ValueError(f"the long run needs at least {MIN_LATE} iterations")
    stamps: dict[int, float] = {}
    holder: list[ProbeEngine] = []

    def on_iteration(snap: ProbeSnapshot) -> None:
        stamps[snap.iteration] = time.perf_counter()
        holder[0].snapshot()

    conn = connect(db)
    try:
        config = RunConfig(
            kg=kg,
            target="sim",
            batch_size=batch_size,
            iterations=late + WINDOW,
            stop_on_convergence=False,
        )
        engine = prepare(conn, config=config, on_iteration=on_iteration)
        holder.append(engine)
        run_blocking(engine)
    finally:
        conn.close()

    def around(mark: int) -> float:
        spans = [stamps[i] - stamps[i - 1] for i in range(mark - WINDOW, mark + WINDOW + 1)]
        return float(np.median(spans) * 1000)

    return LongRunResult(
        edges=len(engine.run.edge_ids),
        early_iteration=EARLY_ITERATION,
        late_iteration=late,
        early_ms=around(EARLY_ITERATION),
        late_ms=around(late),
    )


def long_run_table(r: LongRunResult) -> Table:
    """One row: per-iteration time early and late, and their ratio against the target."""
    table = Table(
        title=f"long run: {r.late_iteration + WINDOW:,} iterations of 64 edges on {r.edges:,} "
        "edges, simulated zero-latency target, full snapshot after every iteration "
        f"(median of {2 * WINDOW + 1} iterations around each mark)",
        title_justify="left",
    )
    for col in (
        "per iteration",
        f"at iteration {r.early_iteration:,}",
        f"at iteration {r.late_iteration:,}",
        "ratio",
    ):
        table.add_column(col, justify="left" if col == "per iteration" else "right")
    met = "[green]met[/]" if r.ratio <= TARGET_RATIO else "[red]missed[/]"
    table.add_row(
        "wall time (engine, target, snapshot)",
        f"{r.early_ms:.2f} ms",
        f"{r.late_ms:.2f} ms",
        f"{r.ratio:.2f}x (target ≤ {TARGET_RATIO:g}x: {met})",
    )
    return table
