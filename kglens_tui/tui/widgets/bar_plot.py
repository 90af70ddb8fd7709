"""Horizontal bars with interval whiskers as a plot with a real x axis (textual-plotext): one
row per group, its name at the left, the bar in the heat colour of its rate (red is bad), its
95% interval as a whisker ├──┤ (over the bar only its ends, inverted), and its numbers at the right.

Group names are data: they go through `core.safetext.visible` (plotext's output is read back as
ANSI text, so a control character in a label would steer it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from kglens_tui.analysis.colours import heat_rgb
from kglens_tui.core.safetext import visible
from kglens_tui.tui.widgets.plots import tick_label, y_ticks

LABEL_WIDTH = 28
"""Cells of a group's name at most (a fifth of the terminal's width on a narrow one)."""
AXIS_ROWS = 3
"""Rows under the bars: the axis line, its ticks and its label."""


@dataclass(frozen=True)
class Bar:
    """One group's rate with its interval; `note` follows the numbers (e.g. "n=45")."""

    label: str
    value: float | None
    low: float | None
    high: float | None
    note: str = ""


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{v * 100:.0f}%"


def numbers(bar: Bar) -> str:
    """The text after a bar: value, interval and note."""
    if bar.value is None:
        return f" —  {bar.note}".rstrip()
    return f" {_pct(bar.value):>4} [{_pct(bar.low)}, {_pct(bar.high)}] {bar.note}".rstrip()


def _run(start: float, end: float, width: int) -> list[float]:
    """Points from `start` to `end` at least one per cell of a `width`-cell axis over [0, 1]."""
    count = max(int((end - start) * width), 0)
    return [start + i / width for i in range(count + 1)] + [end]


def draw_bars(plt: Plot, bars: Sequence[Bar], width: int, x_label: str, label_w: int) -> None:
    """Put `bars` on plotext's figure, first at the top, for a plot `width` cells wide with a
    row per bar and names of at most `label_w` cells."""
    plt.clear_figure()
    n = len(bars)
    plt.plotsize(width, n + AXIS_ROWS)
    for i, bar in enumerate(bars):
        y = float(n - i)
        colour = heat_rgb(bar.value)
        if bar.value is not None and bar.value > 0:
            xs = _run(0.0, bar.value, width)
            plt.scatter(xs, [y] * len(xs), marker="█", color=colour)
        if bar.low is None or bar.high is None:
            continue
        inside = bar.value if bar.value is not None else 0.0
        # the whisker's line only beyond the bar: over it, a line would read as the bar's end
        # wherever colour is not shown (NO_COLOR, a copied screen)
        beside = [x for x in _run(bar.low, bar.high, width) if x >= inside]
        if beside:
            plt.scatter(beside, [y] * len(beside), marker="─", color="default")
        for x, mark in ((bar.low, "├"), (bar.high, "┤")):
            if x < inside:
                plt.scatter([x], [y], marker=mark, color=colour, style="inverted")
            else:
                plt.scatter([x], [y], marker=mark, color="default")
    plt.xlim(0.0, 1.0)
    if n > 1:
        plt.ylim(1.0, float(n))
    else:
        plt.ylim(0.5, 1.5)
    plt.yticks(
        [float(n - i) for i in range(n)],
        [visible(b.label, one_line=True, limit=label_w) for b in bars],
    )
    ticks = y_ticks(1.0, max(width // 12, 1))
    plt.xticks(ticks, [tick_label(t, ticks[1] - ticks[0], "percent") for t in ticks])
    plt.xlabel(visible(x_label, one_line=True))
    plt.xaxes(True, False)
    plt.yaxes(True, False)


class BarCanvas(PlotextPlot):
    """The bars and their axes, a row per bar."""

    DEFAULT_CSS = "BarCanvas { height: auto; width: 1fr; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.set_reactive(PlotextPlot.theme, "clear")
        self.bars: tuple[Bar, ...] = ()
        self.x_label = ""

    def render(self) -> RenderResult:
        if not self.bars or self.size.width < 12:
            return Text("no groups", style="dim")
        label_w = min(LABEL_WIDTH, max(self.app.size.width // 5, 6))
        draw_bars(self.plt, self.bars, self.size.width, self.x_label, label_w)
        return super().render()


class BarPlot(Vertical):
    """A title, then the bars with their numbers at the right."""

    DEFAULT_CSS = """
    BarPlot { height: auto; }
    BarPlot > .bars-title { text-style: bold; }
    BarPlot > Horizontal { height: auto; }
    BarPlot .bars-numbers { width: auto; height: auto; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._shown: tuple[tuple[Bar, ...], str, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", classes="bars-title", markup=False)
        with Horizontal():
            yield BarCanvas()
            yield Static("", classes="bars-numbers", markup=False)

    @property
    def bars(self) -> tuple[Bar, ...]:
        """The bars shown, first at the top."""
        return self._shown[0] if self._shown else ()

    def show(self, bars: Sequence[Bar], title: str, x_label: str) -> bool:
        """Show `bars`; False (and nothing drawn) when they are what the plot shows already."""
        shown = (tuple(bars), title, x_label)
        if shown == self._shown:
            return False
        self._shown = shown
        canvas = self.query_one(BarCanvas)
        canvas.bars, canvas.x_label = shown[0], x_label
        canvas.styles.height = len(bars) + AXIS_ROWS if bars else 1
        canvas.refresh(layout=True)
        self.query_one(".bars-title", Static).update(title)
        self.query_one(".bars-numbers", Static).update("\n".join(numbers(b) for b in bars))
        return True
