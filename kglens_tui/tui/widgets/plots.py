"""Braille plots with real axes (textual-plotext): lines over shared x positions, each with an
optional interval band, or one filled area (requests/s); y ticks at round steps that stay
distinct below 1 ("0.2", "0.4"), integer x ticks, and a legend with the numbers under the plot.

What a plot shows is a `PlotData`, made off the UI thread; the widget only draws it, and only
when it changed or its size or theme did. Names shown are data: they go through
`core.safetext.visible` (plotext's output is read back as ANSI text, so a control character in a
label would steer it)."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.color import Color
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from kglens_tui.core.safetext import visible

NAME_LIMIT = 40
"""Characters of a series name in a legend."""
BAND_TINT = 0.45
"""How far a band's colour is blended toward the background (0: the line's colour)."""
NICE_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
MOST_Y_TICKS = 8
"""Steps on a y axis at most (on a short plot, at most one per two rows)."""

Unit = Literal["percent", "plain"]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Line:
    """One series: y values (None: not known) at the plot's xs, with an optional interval band,
    its colour ("$success": the app theme's variable, or "#rrggbb") and its legend numbers."""

    name: str
    colour: str
    values: tuple[float | None, ...]
    low: tuple[float | None, ...] | None = None
    high: tuple[float | None, ...] | None = None
    legend: str = ""
    fill: bool = False
    """Filled down to 0 (an area, for one series such as requests/s)."""


@dataclass(frozen=True)
class PlotData:
    """What one plot shows; equal data draws nothing anew."""

    xs: tuple[float, ...]
    lines: tuple[Line, ...]
    top: float
    """The y axis runs from 0 up to at least this (rounded up to the next tick)."""
    unit: Unit = "plain"
    x_label: str = "iteration"

    @property
    def empty(self) -> bool:
        """Whether there is no known value to plot."""
        return not any(v is not None for line in self.lines for v in line.values)


def nice_step(span: float, most: int) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that cuts `span` in at most `most`
    steps (1 for a span of 0)."""
    if span <= 0 or most < 1:
        return 1.0
    raw = span / most
    power = 10.0 ** math.floor(math.log10(raw))
    return next(s * power for s in NICE_STEPS if s * power >= raw * (1 - 1e-9))


def y_ticks(top: float, most: int) -> list[float]:
    """Ticks from 0 at a round step up to the first at or above `top` (at most `most` steps)."""
    step = nice_step(top if top > 0 else 1.0, most)
    count = max(math.ceil(top / step - 1e-9), 1)
    return [round(i * step, 12) for i in range(count + 1)]


def x_ticks(first: float, last: float, most: int) -> list[float]:
    """Whole-number ticks at a round step (at least 1) between `first` and `last`."""
    step = max(nice_step(last - first, most), 1.0)
    start = math.ceil(first / step - 1e-9) * step
    ticks = []
    t = start
    while t <= last + 1e-9:
        ticks.append(t)
        t += step
    return ticks or [first]


def tick_label(value: float, step: float, unit: Unit) -> str:
    """A tick's text with as many decimals as its step needs, so neighbours never read alike:
    0.2 and 0.4 below 1, "25%" for a share, "1,000" for a count."""
    if unit == "percent":
        value, step = value * 100, step * 100
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    if step * 10**decimals % 1 > 1e-6:  # 2.5, 0.25: one more decimal
        decimals += 1
    text = f"{value:,.{decimals}f}"
    return text + "%" if unit == "percent" else text


def band_colour(colour: RGB, background: RGB, factor: float = BAND_TINT) -> RGB:
    """A line's colour blended `factor` of the way toward the background: its band's."""
    return (
        round(colour[0] + (background[0] - colour[0]) * factor),
        round(colour[1] + (background[1] - colour[1]) * factor),
        round(colour[2] + (background[2] - colour[2]) * factor),
    )


def _at(values: Sequence[float | None], xs: Sequence[float], x: float) -> float | None:
    """`values` at `x` (xs ascending), linear between its two neighbours (None beside an
    unknown value or outside xs)."""
    if len(xs) == 1:
        return values[0]
    i = min(max(bisect_right(xs, x) - 1, 0), len(xs) - 2)
    if not xs[i] <= x <= xs[i + 1]:
        return None
    a, b = values[i], values[i + 1]
    if a is None or b is None:
        return a if x == xs[i] else b if x == xs[i + 1] else None
    f = (x - xs[i]) / (xs[i + 1] - xs[i]) if xs[i + 1] > xs[i] else 0.0
    return a + (b - a) * f


def sampled(count: int, most: int) -> list[int]:
    """Indexes of `count` points, at most `most` of them evenly spread with the first and the
    last kept (a plot shows no more than two braille dots per cell)."""
    if count <= most or most < 2:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def band_points(
    xs: Sequence[float],
    low: Sequence[float | None],
    high: Sequence[float | None],
    *,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    dots: tuple[int, int],
) -> tuple[list[float], list[float]]:
    """Points on every other braille dot (a stipple, lighter than a line) between `low` and
    `high`, on a plot area of `dots` (columns, rows) over the plot's ranges."""
    (x0, x1), (y0, y1), (cols, rows) = x_range, y_range, dots
    px: list[float] = []
    py: list[float] = []
    for c in range(cols):
        x = x0 + (x1 - x0) * c / max(cols - 1, 1)
        lo, hi = _at(low, xs, x), _at(high, xs, x)
        if lo is None or hi is None:
            continue
        for r in range(c % 2, rows, 2):
            y = y0 + (y1 - y0) * r / max(rows - 1, 1)
            if lo <= y <= hi:
                px.append(x)
                py.append(y)
    return px, py


def draw(
    plt: Plot, data: PlotData, width: int, height: int, colour: Callable[[str], RGB], bg: RGB
) -> None:
    """Put `data` on plotext's figure for a plot `width` x `height` cells: bands first, then
    the lines over them, the first line drawn last (on top where two meet)."""
    plt.clear_figure()
    plt.plotsize(width, height)
    xs = list(data.xs)
    first, last = (xs[0], xs[-1]) if xs else (0.0, 1.0)
    x_range = (first, last) if last > first else (first - 0.5, first + 0.5)
    ticks = y_ticks(data.top, min(max((height - 4) // 2, 1), MOST_Y_TICKS))
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    labels = [tick_label(t, step, data.unit) for t in ticks]
    y_range = (0.0, ticks[-1])
    # the plot area: right of the tick labels and their "┤", above the x axis, ticks and title
    area = (max(width - max(map(len, labels)) - 1, 1), max(height - 3, 1))
    for line in reversed(data.lines):
        if line.low is None or line.high is None:
            continue
        px, py = band_points(
            xs, line.low, line.high, x_range=x_range, y_range=y_range,
            dots=(2 * area[0], 4 * area[1]),
        )  # fmt: skip
        if px:
            plt.scatter(px, py, marker="braille", color=band_colour(colour(line.colour), bg))
    shown = sampled(len(xs), 2 * width)
    for line in reversed(data.lines):
        known = [(xs[i], v) for i in shown if (v := line.values[i]) is not None]
        if not known:
            continue
        kx, ky = [k[0] for k in known], [k[1] for k in known]
        if len(known) == 1:  # one point: a short level line (a block when filled)
            kx, ky = [kx[0] - 0.25, kx[0] + 0.25], ky * 2
        plt.plot(kx, ky, marker="braille", color=colour(line.colour), fillx=line.fill or None)
    plt.xlim(*x_range)
    plt.ylim(*y_range)
    plt.yticks(ticks, labels)
    xt = x_ticks(first, last, max(width // 10, 1))
    x_step = xt[1] - xt[0] if len(xt) > 1 else 1.0
    plt.xticks(xt, [tick_label(t, x_step, "plain") for t in xt])
    plt.xlabel(visible(data.x_label, one_line=True))
    plt.xaxes(True, False)
    plt.yaxes(True, False)


class PlotCanvas(PlotextPlot):
    """The plot area: draws its `PlotData` in the app theme's colours on the widget's own
    background (plotext's "clear" theme)."""

    DEFAULT_CSS = "PlotCanvas { height: 1fr; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.set_reactive(PlotextPlot.theme, "clear")
        self.data: PlotData | None = None

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def colour(self, spec: str) -> RGB:
        """A line's colour: "$name" from the app theme's variables, else parsed as given."""
        if spec.startswith("$"):
            spec = self.app.theme_variables.get(spec[1:], "white")
        return Color.parse(spec).rgb

    def render(self) -> RenderResult:
        data = self.data
        if data is None or data.empty or self.size.width < 8 or self.size.height < 4:
            return Text("nothing to plot yet", style="dim")
        bg = self.background_colors[1].rgb
        draw(self.plt, data, self.size.width, self.size.height, self.colour, bg)
        return super().render()


class PlotChart(Vertical):
    """A plot over its legend (each line's name in its colour and its numbers)."""

    DEFAULT_CSS = """
    PlotChart { height: 1fr; }
    PlotChart > .plot-legend { height: auto; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._data: PlotData | None = None

    def compose(self) -> ComposeResult:
        yield PlotCanvas()
        yield Static("", classes="plot-legend")

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show_legend())

    @property
    def data(self) -> PlotData | None:
        """What the chart shows (None: nothing yet)."""
        return self._data

    def show(self, data: PlotData) -> bool:
        """Show `data`; False (and nothing drawn) when it is what the chart shows already."""
        if data == self._data:
            return False
        self._data = data
        canvas = self.query_one(PlotCanvas)
        canvas.data = data
        canvas.refresh()
        self._show_legend()
        return True

    def _show_legend(self) -> None:
        if self._data is not None:
            legend = self.legend(self._data, self.query_one(PlotCanvas).colour)
            self.query_one(".plot-legend", Static).update(legend)

    @staticmethod
    def legend(data: PlotData, colour: Callable[[str], RGB]) -> Text:
        """Each line's name (literal) in its colour, then its numbers."""
        out = Text()
        for line in data.lines:
            if out:
                out.append("  ")
            r, g, b = colour(line.colour)
            out.append(
                f"━ {visible(line.name, one_line=True, limit=NAME_LIMIT)}",
                style=f"bold #{r:02x}{g:02x}{b:02x}",
            )
            if line.legend:
                out.append(f" {visible(line.legend, one_line=True)}")
        return out
