"""The live screen's chart pane: win, zero-sense and all-sense rates over the iterations with
their 95% Wilson bands, and requests/s per iteration, as braille plots with real axes. The
`PlotData` of both is made on the screen's worker (`chart_view`); the pane only draws it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal

from kglens_tui.core.intervals import stored_rate
from kglens_tui.modes.kglens.engine import ProbeSnapshot
from kglens_tui.textfmt import counted, interval, pct
from kglens_tui.tui.widgets.plots import Line, PlotChart, PlotData

RATE_SERIES = (
    ("win", "win", "$success"),
    ("zero_sense", "zero-sense", "$error"),
    ("all_sense", "all-sense", "$primary"),
)
SPEED_COLOUR = "$warning"


def rate_chart(snap: ProbeSnapshot) -> PlotData:
    """The three rates after each iteration in the snapshot's history, each with its interval
    over the examined edges of that iteration."""
    hist = list(snap.history)
    first = snap.iteration - len(hist) + 1
    xs = tuple(float(x) for x in range(first, first + len(hist)))
    lines = []
    for attr, name, colour in RATE_SERIES:
        values, lows, highs = [], [], []
        for r in hist:
            v = getattr(r, attr)
            p = stored_rate(v, r.examined) if v is not None else None
            values.append(v)
            lows.append(p.low if p else None)
            highs.append(p.high if p else None)
        legend = "—"
        if hist and values[-1] is not None:
            legend = f"{pct(values[-1])} {interval(lows[-1], highs[-1])} n={hist[-1].examined:,}"
        lines.append(Line(name, colour, tuple(values), tuple(lows), tuple(highs), legend))
    return PlotData(xs, tuple(lines), 1.0, "percent")


@dataclass(frozen=True)
class Throughput:
    """Requests and seconds of each committed iteration."""

    iterations: list[int]
    requests: list[int]
    seconds: list[float]

    @property
    def per_second(self) -> list[float | None]:
        """Requests per second of each iteration (None when it took no measurable time)."""
        return [r / s if s > 0 else None for r, s in zip(self.requests, self.seconds, strict=True)]


def throughput(conn: sqlite3.Connection, run_id: int, last: int) -> Throughput:
    """The latest `last` iterations of a run as stored (oldest first)."""
    rows = conn.execute(
        "SELECT iteration, requests, seconds FROM iteration WHERE run_id = ? "
        "ORDER BY iteration DESC LIMIT ?",
        (run_id, last),
    ).fetchall()[::-1]
    return Throughput([r[0] for r in rows], [r[1] for r in rows], [float(r[2]) for r in rows])


def speed_label(value: float) -> str:
    """Requests/s with the digits its size needs, never "0" for a rate above it: "12", "3.4",
    "0.42", "<0.01"."""
    if value >= 10:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 0.01 else "<0.01"


def speed_chart(t: Throughput) -> PlotData:
    """Requests/s per iteration as an area; the legend gives the newest value with its requests
    and time. The axis rises to the fastest iteration (ticks such as 0.2, 0.4 below 1/s)."""
    values = t.per_second
    legend = "—"
    if values and values[-1] is not None:
        total = sum(t.requests) / sum(t.seconds) if sum(t.seconds) > 0 else None
        legend = f"{speed_label(values[-1])}/s (n={counted(t.requests[-1], 'request')} in {t.seconds[-1]:.1f} s)"
        if total is not None:
            legend += f" · {speed_label(total)}/s over {counted(len(values), 'iteration')}"
    known = [v for v in values if v is not None]
    top = max(known) if known and max(known) > 0 else 1.0
    line = Line("requests/s", SPEED_COLOUR, tuple(values), legend=legend, fill=True)
    return PlotData(tuple(float(x) for x in t.iterations), (line,), top)


class LiveChart(Horizontal):
    """Rates with bands (left) and requests/s (right), redrawn on each new iteration."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._drawn: int | None = None

    def on_mount(self) -> None:
        self.border_title = "Rates with 95% Wilson bands · requests/s per iteration"

    def compose(self) -> ComposeResult:
        yield PlotChart(id="chart-rates")
        yield PlotChart(id="chart-speed")

    @property
    def drawn(self) -> int | None:
        """The iteration the charts show (None: none yet)."""
        return self._drawn

    @property
    def rates(self) -> PlotData | None:
        """The rates plot's data (None: none yet, or its plot not mounted yet)."""
        return self._data("#chart-rates")

    @property
    def speed(self) -> PlotData | None:
        """The requests/s plot's data (None: none yet, or its plot not mounted yet)."""
        return self._data("#chart-speed")

    def _data(self, plot: str) -> PlotData | None:
        """A plot's data; None while the chart's own widgets are still being mounted (the
        screen may be asked before they are)."""
        found = self.query(plot).results(PlotChart)
        chart = next(found, None)
        return chart.data if chart is not None else None

    def draw(self, iteration: int, rates: PlotData, speed: PlotData) -> None:
        """Show the charts of an iteration (`chart_view`); a plot whose data did not change is
        not drawn again."""
        self._drawn = iteration
        self.query_one("#chart-rates", PlotChart).show(rates)
        self.query_one("#chart-speed", PlotChart).show(speed)


def chart_view(snap: ProbeSnapshot, conn: sqlite3.Connection) -> tuple[PlotData, PlotData]:
    """The two charts of a snapshot: its rates, and requests/s of its iterations as stored."""
    return rate_chart(snap), speed_chart(throughput(conn, snap.run_id, max(len(snap.history), 1)))
