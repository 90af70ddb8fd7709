"""Throughput under heavy-tailed latency: the paper's synchronous batches against continuous
scheduling, over the loopback server of `kglens bench engine` (in a child process) whose answer
delay is lognormal (median 200 ms, p99 2 s by default).

A synchronous iteration waits for its slowest request, so one slow answer in 64 idles every
other slot; continuous scheduling refills a slot as soon as it frees."""

from __future__ import annotations

import contextlib
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from kglens_tui.bench.engine_bench import time_scheduling
from kglens_tui.bench.latency_server import latency_server
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.store.connection import connect

Z99 = 2.3263478740408408
"""The standard normal's 99th percentile."""


def lognormal_params(median_s: float, p99_s: float) -> tuple[float, float]:
    """(mu, sigma) of a lognormal with the given median and 99th percentile."""
    if not 0 < median_s < p99_s:
        raise ValueError("need 0 < median < p99")
    return math.log(median_s), math.log(p99_s / median_s) / Z99


def heavy_tailed_server(median_s: float, p99_s: float) -> contextlib.AbstractContextManager[str]:
    """The loopback server with lognormal latency in a child process; yields its base URL."""
    return latency_server(lognormal=lognormal_params(median_s, p99_s))


@dataclass(frozen=True)
class ThroughputFigures:
    """Requests per second by scheduling under one latency distribution."""

    median_ms: float
    p99_ms: float
    concurrency: int
    batch_size: int
    requests: int
    per_s: dict[str, float]
    seconds: dict[str, float]

    @property
    def mean_latency_s(self) -> float:
        mu, sigma = lognormal_params(self.median_ms / 1000, self.p99_ms / 1000)
        return math.exp(mu + sigma * sigma / 2)

    @property
    def bound_per_s(self) -> float:
        """Concurrency over the mean latency: what a perfectly full pipeline achieves."""
        return self.concurrency / self.mean_latency_s


def measure(
    median_ms: float = 200.0,
    p99_ms: float = 2000.0,
    concurrency: int = 32,
    batch_size: int = 64,
    iterations: int = 10,
) -> ThroughputFigures:
    """Run the engine on the bundled Country KG with each scheduling against one server."""
    per_s: dict[str, float] = {}
    seconds: dict[str, float] = {}
    requests = 0
    with (
        tempfile.TemporaryDirectory(prefix="kglens-sampling-throughput-") as tmp,
        heavy_tailed_server(median_ms / 1000, p99_ms / 1000) as base_url,
    ):
        conn = connect(Path(tmp) / "bench.db")
        try:
            ensure_kg(conn, "country")
            for scheduling in ("sync", "continuous"):
                run = time_scheduling(
                    conn,
                    "country",
                    base_url,
                    scheduling,
                    concurrency=concurrency,
                    iterations=iterations,
                    batch_size=batch_size,
                )
                seconds[scheduling] = run.seconds
                per_s[scheduling] = run.requests / run.seconds
                requests = run.requests
        finally:
            conn.close()
    return ThroughputFigures(median_ms, p99_ms, concurrency, batch_size, requests, per_s, seconds)


def throughput_table(f: ThroughputFigures) -> LiteralTable:
    speedup = f.per_s["continuous"] / f.per_s["sync"]
    table = LiteralTable(
        title=f"Throughput, lognormal latency (median {f.median_ms:g} ms, p99 {f.p99_ms:g} ms, "
        f"mean {f.mean_latency_s * 1000:.0f} ms), concurrency {f.concurrency}, batch "
        f"{f.batch_size}, {f.requests:,} requests per run",
        title_justify="left",
        caption=f"continuous / synchronous: {speedup:.2f}x",
    )
    for col in ("scheduling", "requests/s", "seconds", f"of the {f.bound_per_s:,.0f}/s bound"):
        table.add_column(col, justify="left" if col == "scheduling" else "right")
    for name, key in (("synchronous batches", "sync"), ("continuous", "continuous")):
        rate = f.per_s[key]
        table.add_row(name, f"{rate:,.1f}", f"{f.seconds[key]:.1f}", f"{rate / f.bound_per_s:.0%}")
    return table


def run_throughput(console: Console, iterations: int = 10, **options: float) -> dict[str, Any]:
    """Measure and print; returns the figures."""
    figures = measure(iterations=iterations, **options)  # type: ignore[arg-type]
    console.print(throughput_table(figures))
    return {"per_s": figures.per_s, "bound_per_s": figures.bound_per_s}
