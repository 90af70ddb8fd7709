"""`kglens bench ui`: key-press-to-handled latency while a simulated run goes at full speed.

The app is driven headless with Textual's Pilot. A probe key ("f9", bound only in this harness)
records when its action runs; latency is that moment minus the moment the key was sent. The same
measure without a run gives the baseline in the same process.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from textual.binding import Binding

from kglens_tui.probe.config import RunConfig
from kglens_tui.settings import Settings
from kglens_tui.tui.app import KGLensApp


class _BenchApp(KGLensApp):
    BINDINGS = [*KGLensApp.BINDINGS, Binding("f9", "bench_ping", show=False, priority=True)]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.handled: list[float] = []

    def action_bench_ping(self) -> None:
        self.handled.append(time.perf_counter())


async def _measure(app: _BenchApp, pilot, presses: int) -> list[float]:
    latencies = []
    for _ in range(presses):
        before = len(app.handled)
        sent = time.perf_counter()
        await pilot.press("f9")
        while len(app.handled) == before:
            await asyncio.sleep(0.001)
        latencies.append((app.handled[-1] - sent) * 1000)
        await asyncio.sleep(0.02)
    return latencies


async def _run(db: Path, presses: int) -> tuple[list[float], list[float], int]:
    settings = Settings(ui_refresh_hz=4, run={"target": "sim"})
    app = _BenchApp(db, settings, welcome=False)
    async with app.run_test(size=(140, 44)) as pilot:
        baseline = await _measure(app, pilot, presses)
        app.start_run(
            RunConfig(
                kg="country",
                target="sim",
                iterations=1_000_000,
                batch_size=64,
                stop_on_convergence=False,
            )
        )
        while app.session is None or app.session.snapshot() is None:
            await asyncio.sleep(0.01)
        loaded = await _measure(app, pilot, presses)
        requests = app.session.snapshot().requests
        app.session.stop()
        while app._busy():
            await asyncio.sleep(0.02)
    return baseline, loaded, requests


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def run_ui_bench(presses: int, console: Console) -> dict:
    """Run the benchmark and print a table; returns the figures in milliseconds."""
    with tempfile.TemporaryDirectory(prefix="kglens-bench-ui-") as tmp:
        started = time.perf_counter()
        baseline, loaded, requests = asyncio.run(_run(Path(tmp) / "bench.db", presses))
        seconds = time.perf_counter() - started
    table = Table(title="kglens bench ui: key press to handled", title_justify="left")
    for col in ("", "median ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right" if col else "left")
    for name, values in (("idle (baseline)", baseline), ("simulated run at full speed", loaded)):
        table.add_row(
            name, f"{statistics.median(values):.1f}", f"{_p95(values):.1f}", f"{max(values):.1f}"
        )
    console.print(table)
    ratio = _p95(loaded) / max(_p95(baseline), 1e-6)
    console.print(
        f"{presses} presses each; the run answered {requests:,} questions meanwhile "
        f"({seconds:.0f} s in all). p95 under load / idle = {ratio:.1f}x. Target: p95 < 100 ms."
    )
    return {
        "baseline_p95_ms": _p95(baseline),
        "loaded_p95_ms": _p95(loaded),
        "loaded_median_ms": statistics.median(loaded),
        "requests": requests,
    }
