"""`kglens bench curves FILE`: the efficiency study's curves (the CSV `kglens bench sampling
--csv` writes) drawn in the terminal as a braille plot with real axes: one metric of one truth
setting, a line per method (seed mean) with its min-max spread as a band, picked with two
selectors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Footer, Select, Static

from kglens_tui.bench.sampling_csv import StudyCurves
from kglens_tui.core.safetext import literal
from kglens_tui.tui.widgets.plots import Line, PlotChart, PlotData
from kglens_tui.tui.widgets.title_header import TitleHeader

COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78",
)  # fmt: skip


def metric_title(metric: str) -> str:
    """g_top100 -> G@100, mse_top200 -> MSE@200, recall_failed_top100 -> failed@100..."""
    for prefix, title in (
        ("g_top", "G@"),
        ("mse_top", "MSE@"),
        ("recall_failed_top", "failed@"),
        ("recall_top", "recall@"),
    ):
        if metric.startswith(prefix):
            return title + metric.removeprefix(prefix)
    return "MSE over examined edges" if metric == "mse_examined" else metric


def _values(array: np.ndarray) -> list[float | None]:
    return [None if math.isnan(v) else float(v) for v in array.tolist()]


def chart(study: StudyCurves, truth: str, metric: str) -> PlotData:
    """Every method's curve of one metric under one truth setting."""
    curves = study.curves[truth][metric]
    top = max((v for c in curves for v in _values(c.high) if v is not None), default=1.0)
    lines = []
    for i, c in enumerate(curves):
        last = next((v for v in reversed(_values(c.mean)) if v is not None), None)
        legend = f"{last:.3f}" if last is not None else "—"
        lines.append(
            Line(c.method, COLOURS[i % len(COLOURS)], tuple(_values(c.mean)),
                 tuple(_values(c.low)), tuple(_values(c.high)), legend)
        )  # fmt: skip
    xs = tuple(float(x) for x in curves[0].requests.tolist())
    return PlotData(xs, tuple(lines), top if top > 0 else 1.0, x_label="requests")


class CurvesApp(App[Any]):
    """Pick a truth setting and a metric; the chart follows."""

    TITLE = "KGLens — efficiency study"
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("escape", "quit", "Quit", show=False)]
    CSS = """
    #controls { height: 3; }
    #controls Select { width: 40; margin-right: 1; }
    #chart { height: 1fr; }
    """

    def __init__(self, study: StudyCurves) -> None:
        super().__init__()
        self.study = study
        self.truth = study.truths[0]
        self.metric = study.metrics[0]

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Horizontal(id="controls"):
            yield Select(
                [(literal(t), t) for t in self.study.truths],
                value=self.truth,
                allow_blank=False,
                id="truth",
            )
            yield Select(
                [(literal(metric_title(m)), m) for m in self.study.metrics],
                value=self.metric,
                allow_blank=False,
                id="metric",
            )
        yield Static("", id="caption")
        yield PlotChart(id="chart")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.query_one("#caption", Static).update(
            literal(
                f"{self.study.path.name} · truth {self.truth} · {metric_title(self.metric)} · "
                "seed mean per method, band: min-max over the seeds"
            )
        )
        self.query_one("#chart", PlotChart).show(chart(self.study, self.truth, self.metric))

    @on(Select.Changed, "#truth")
    def _truth(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.truth = event.value
            self.redraw()

    @on(Select.Changed, "#metric")
    def _metric(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.metric = event.value
            self.redraw()
