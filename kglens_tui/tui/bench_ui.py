"""`kglens bench ui`: key-press-to-handled latency while a simulated run goes at full speed.

The app is driven headless with Textual's Pilot. A probe key ("f9", bound only in this harness)
records when its action runs; latency is that moment minus the moment the key was sent. The same
measure without a run gives the baseline in the same process. With ``load``, each measure is
also taken while that many CPU-bound neighbour processes spin (`cpu_neighbours`), in blocks
alternating with the quiet ones, so the quiet and loaded figures come from the same run.
"""

from __future__ import annotations

import asyncio
import math
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from textual.binding import Binding

from kglens_tui.bench.neighbours import cpu_neighbours
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.session import RunSession
from kglens_tui.settings import Settings
from kglens_tui.textfmt import counted
from kglens_tui.tui.app import QUIT_GRACE_S, KGLensApp

if TYPE_CHECKING:
    from textual.pilot import Pilot

BLOCKS = 2
"""Quiet and loaded blocks alternate this many times per measure (drift shows in both)."""
NEIGHBOUR_LIMIT_S = 120.0
"""A neighbour ends on its own after this long, whatever becomes of the benchmark."""
QUIET_TARGET_MS = 100.0
LOADED_TARGET_MS = 250.0
BENCH_ENDED = "kglens bench ui ended before its simulated run"


class _BenchApp(KGLensApp):
    BINDINGS = [*KGLensApp.BINDINGS, Binding("f9", "bench_ping", show=False, priority=True)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handled: list[float] = []

    def action_bench_ping(self) -> None:
        self.handled.append(time.perf_counter())


async def _measure(app: _BenchApp, pilot: Pilot[Any], presses: int) -> list[float]:
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


async def _measure_both(
    app: _BenchApp, pilot: Pilot[Any], presses: int, load: int
) -> tuple[list[float], list[float]]:
    """``presses`` key presses on a quiet machine and as many beside ``load`` neighbours."""
    quiet: list[float] = []
    loaded: list[float] = []
    share = math.ceil(presses / BLOCKS) if load else presses
    for _ in range(BLOCKS if load else 1):
        quiet += await _measure(app, pilot, share)
        if load:
            with cpu_neighbours(load, NEIGHBOUR_LIMIT_S):
                loaded += await _measure(app, pilot, share)
    return quiet, loaded


Figures = dict[str, tuple[list[float], list[float]]]


async def _measure_all(
    app: _BenchApp, pilot: Pilot[Any], presses: int, load: int
) -> tuple[Figures, int]:
    """Both measures (idle app, then beside a full-speed simulated run); the questions the run
    answered meanwhile."""
    figures: Figures = {"idle app": await _measure_both(app, pilot, presses, load)}
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
    figures["simulated run, full speed"] = await _measure_both(app, pilot, presses, load)
    snap = app.session.snapshot()
    requests = snap.progress.counters.requests if snap is not None else 0
    app.session.stop()
    while app._busy():
        await asyncio.sleep(0.02)
    return figures, requests


async def _run(db: Path, presses: int, load: int) -> tuple[Figures, int]:
    """The measures in a headless app. Ctrl-C or SIGTERM cancel them: the simulated run the
    benchmark started is then ended (`_end_run`) and waited for before the app closes, and the
    cancellation goes on (the command says "interrupted")."""
    settings = Settings(ui_refresh_hz=4, run={"target": "sim"})
    app = _BenchApp(db, settings, welcome=False)
    cancelled: asyncio.CancelledError | None = None
    async with app.run_test(size=(140, 44)) as pilot:
        try:
            return await _measure_all(app, pilot, presses, load)
        except asyncio.CancelledError as exc:
            cancelled = exc
            session = app.session
            _end_run(session)
            # the run's own end, not the app's worker state: a cancellation that comes as the
            # event loop shuts down (SIGTERM to a background job) can leave that state unchanged
            give_up = time.monotonic() + QUIT_GRACE_S + 5.0  # the kill (`_end_run`) came first
            while (
                session is not None
                and not session.finished
                and app._busy_worker()
                and time.monotonic() < give_up
            ):
                await asyncio.sleep(0.02)
    raise cancelled


def _end_run(session: RunSession | None) -> None:
    """End the simulated run the benchmark started (its own quit never runs when the benchmark
    is cancelled): abort it, and kill its process if it has not gone within QUIT_GRACE_S.
    Without this the event loop's shutdown waits forever on the worker thread that waits on the
    run's process."""
    if session is None:
        return
    session.abort(BENCH_ENDED)
    deadline = threading.Timer(QUIT_GRACE_S, session.kill)
    deadline.daemon = True
    deadline.start()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _cells(values: list[float]) -> list[str]:
    return [f"{statistics.median(values):.1f}", f"{_p95(values):.1f}", f"{max(values):.1f}"]


def run_ui_bench(presses: int, console: Console, load: int = 0) -> dict[str, Any]:
    """Run the benchmark and print a table; returns the figures in milliseconds. ``load``: the
    CPU-bound neighbours beside which each measure is taken again (0: none)."""
    with tempfile.TemporaryDirectory(prefix="kglens-bench-ui-") as tmp:
        started = time.perf_counter()
        figures, requests = asyncio.run(_run(Path(tmp) / "bench.db", presses, load))
        seconds = time.perf_counter() - started
    table = Table(title="kglens bench ui: key press to handled", title_justify="left")
    busy = f"{counted(load, 'CPU-bound neighbour')}"
    table.add_column("machine")
    table.add_column("app")
    for stat in ("median ms", "p95 ms", "max ms"):
        table.add_column(stat, justify="right")
    for where, side in (("quiet", 0), (busy, 1)) if load else (("quiet", 0),):
        for name, measured in figures.items():
            table.add_row(where, name, *_cells(measured[side]))
    console.print(table)
    base_quiet, run_quiet = figures["idle app"][0], figures["simulated run, full speed"][0]
    run_loaded = figures["simulated run, full speed"][1]
    lines = [
        f"{presses} presses each; the run answered {requests:,} questions meanwhile "
        f"({seconds:.0f} s in all). p95 during the run / idle app = "
        f"{_p95(run_quiet) / max(_p95(base_quiet), 1e-6):.1f}x."
    ]
    if load:
        lines.append(
            f"p95 during the run beside {busy} / quiet = "
            f"{_p95(run_loaded) / max(_p95(run_quiet), 1e-6):.1f}x."
        )
    lines.append(
        f"Target: p95 < {QUIET_TARGET_MS:.0f} ms quiet"
        + (f", < {LOADED_TARGET_MS:.0f} ms beside the neighbours." if load else ".")
    )
    console.print(" ".join(lines))
    result = {
        "baseline_p95_ms": _p95(base_quiet),
        "loaded_p95_ms": _p95(run_quiet),
        "loaded_median_ms": statistics.median(run_quiet),
        "requests": requests,
    }
    if load:
        result["neighbours_p95_ms"] = _p95(run_loaded)
        result["neighbours_median_ms"] = statistics.median(run_loaded)
    return result
