"""Terminal charts as Rich renderables that fit the width they are given: a line chart with
interval bands (rates over iterations), a column chart (requests/s) and horizontal bars with
interval whiskers (a rate per group). Every chart carries a legend with the numbers it shows.

Names shown in a chart are data: they go through `core.safetext.visible` and are truncated."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.core.safetext import visible

LINE_GLYPHS = "▁─▔"
"""A value in the lower, middle or upper third of a character cell."""
COLUMN_GLYPHS = " ▁▂▃▄▅▆▇█"
AXIS_WIDTH = 6


@dataclass(frozen=True)
class Series:
    """One line of a chart: y values (None: not known yet) and optional interval bounds at the
    shared x positions, with a legend text (the newest value with its interval and n)."""

    name: str
    colour: str
    values: Sequence[float | None]
    low: Sequence[float | None] | None = None
    high: Sequence[float | None] | None = None
    legend: str = ""


def columns_for(n_points: int, width: int) -> list[int]:
    """For each of `width` plot columns, the index of the point it shows (stretched when there
    are fewer points than columns, evenly sampled with the first and last kept when more)."""
    if n_points <= 0 or width <= 0:
        return []
    if width == 1:
        return [n_points - 1]
    return [round(c * (n_points - 1) / (width - 1)) for c in range(width)]


def _dim(colour: str, factor: float = 0.35) -> str:
    c = Style.parse(colour).color
    r, g, b = c.get_truecolor() if c is not None else (128, 128, 128)
    return f"#{int(r * factor):02x}{int(g * factor):02x}{int(b * factor):02x}"


def _level(value: float, top: float, steps: int) -> int:
    """Which of `steps` equal slices of [0, top] a value falls in (clipped)."""
    if top <= 0:
        return 0
    return min(max(int(value / top * steps), 0), steps - 1)


class _Canvas:
    def __init__(self, height: int, width: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.fg: list[list[str | None]] = [[None] * width for _ in range(height)]
        self.bg: list[list[str | None]] = [[None] * width for _ in range(height)]

    def lines(self) -> list[Text]:
        """Each row as text, one span per run of cells of the same colours (a span a cell
        makes the chart slow to draw)."""
        out = []
        for chars, fgs, bgs in zip(self.chars, self.fg, self.bg, strict=True):
            line = Text()
            start = 0
            for end in range(1, len(chars) + 1):
                if end < len(chars) and (fgs[end], bgs[end]) == (fgs[start], bgs[start]):
                    continue
                fg, bg = fgs[start], bgs[start]
                style = Style(color=fg, bgcolor=bg) if fg or bg else Style()
                line.append("".join(chars[start:end]), style)
                start = end
            out.append(line)
        return out


def _with_axis(
    rows: list[Text], labels: dict[int, str], first: str, last: str, x_label: str
) -> list[Text]:
    width = rows[0].cell_len if rows else 0
    out = []
    for r, row in enumerate(rows):
        line = Text()
        line.append(f"{labels.get(r, ''):>{AXIS_WIDTH - 1}}", style="dim")
        line.append("┤" if r in labels else "│", style="dim")
        line.append_text(row)
        out.append(line)
    out.append(Text(" " * (AXIS_WIDTH - 1) + "└" + "─" * width, style="dim"))
    gap = max(width - len(first) - len(last) - len(x_label), 2)
    left, right = gap // 2, gap - gap // 2
    out.append(
        Text(" " * AXIS_WIDTH + first + " " * left + x_label + " " * right + last, style="dim")
    )
    return out


def _legend(series: Sequence[Series], glyph: str) -> Text:
    legend = Text()
    for s in series:
        if legend:
            legend.append("  ")
        legend.append(f"{glyph} {s.name}", style=f"bold {s.colour}")
        if s.legend:
            legend.append(f" {s.legend}")
    return legend


class LineChart:
    """Lines over shared x positions, each with its interval drawn as a tinted band behind it."""

    def __init__(
        self,
        xs: Sequence[int],
        series: Sequence[Series],
        *,
        height: int = 8,
        top: float = 1.0,
        y_format: Callable[[float], str] = lambda v: f"{v * 100:.0f}%",
        x_label: str = "iteration",
    ) -> None:
        self.xs, self.series, self.height = list(xs), list(series), height
        self.top, self.y_format, self.x_label = top, y_format, x_label

    def plot_columns(self, width: int) -> list[int]:
        """The point index shown in each plot column for a chart `width` cells wide."""
        return columns_for(len(self.xs), max(width - AXIS_WIDTH, 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cols = self.plot_columns(options.max_width)
        h = self.height
        canvas = _Canvas(h, len(cols))
        for s in self.series:
            if s.low is None or s.high is None:
                continue
            band = _dim(s.colour)
            for c, i in enumerate(cols):
                lo, hi = s.low[i], s.high[i]
                if lo is None or hi is None:
                    continue
                for level in range(_level(lo, self.top, h), _level(hi, self.top, h) + 1):
                    canvas.bg[h - 1 - level][c] = band
        for s in self.series:
            for c, i in enumerate(cols):
                v = s.values[i]
                if v is None:
                    continue
                level = _level(v, self.top, 3 * h)
                row = h - 1 - level // 3
                canvas.chars[row][c] = LINE_GLYPHS[level % 3]
                canvas.fg[row][c] = s.colour
        labels = {0: self.y_format(self.top), h // 2: self.y_format(self.top / 2), h - 1: "0"}
        first, last = (str(self.xs[0]), str(self.xs[-1])) if self.xs else ("", "")
        yield from _with_axis(canvas.lines(), labels, first, last, self.x_label)
        yield _legend(self.series, "━")


class ColumnChart:
    """One value per x as a column of block characters (eighths of a cell)."""

    def __init__(
        self,
        xs: Sequence[int],
        series: Series,
        *,
        height: int = 3,
        y_format: Callable[[float], str] = lambda v: f"{v:.0f}",
        x_label: str = "iteration",
    ) -> None:
        self.xs, self.series, self.height = list(xs), series, height
        self.y_format, self.x_label = y_format, x_label

    @property
    def top(self) -> float:
        """The y value of the chart's top edge: the largest value (1 when there is none)."""
        known = [v for v in self.series.values if v is not None]
        return max(known) if known and max(known) > 0 else 1.0

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cols = columns_for(len(self.xs), max(options.max_width - AXIS_WIDTH, 1))
        h, top = self.height, self.top
        canvas = _Canvas(h, len(cols))
        for c, i in enumerate(cols):
            v = self.series.values[i]
            if v is None:
                continue
            eighths = round(min(max(v / top, 0.0), 1.0) * 8 * h)
            for r in range(h):
                fill = min(max(eighths - 8 * r, 0), 8)
                if fill:
                    canvas.chars[h - 1 - r][c] = COLUMN_GLYPHS[fill]
                    canvas.fg[h - 1 - r][c] = self.series.colour
        labels = {0: self.y_format(top), h - 1: "0"}
        first, last = (str(self.xs[0]), str(self.xs[-1])) if self.xs else ("", "")
        yield from _with_axis(canvas.lines(), labels, first, last, self.x_label)
        yield _legend([self.series], "█")


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


class BarChart:
    """Horizontal bars coloured by the heat scale (the value is the error: red is bad), each with
    its interval as a whisker ├──┤ and its numbers at the right."""

    def __init__(self, bars: Sequence[Bar], *, label_width: int = 18, title: str = "") -> None:
        self.bars, self.label_width, self.title = list(bars), label_width, title

    @staticmethod
    def numbers(bar: Bar) -> str:
        """The text after a bar: value, interval and note."""
        if bar.value is None:
            return f" —  {bar.note}".rstrip()
        return f" {_pct(bar.value):>4} [{_pct(bar.low)}, {_pct(bar.high)}] {bar.note}".rstrip()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text_w = max((len(self.numbers(b)) for b in self.bars), default=0)
        label_w = min(self.label_width, max(options.max_width // 4, 6))
        track = max(options.max_width - label_w - 1 - text_w - 2, 4)
        if self.title:
            yield Text(self.title, style="bold")
        for bar in self.bars:
            line = Text(f"{visible(bar.label, one_line=True, limit=label_w):<{label_w}} ")
            line.append("▕", style="dim")
            line.append_text(self.track(bar, track))
            line.append("▏", style="dim")
            line.append(self.numbers(bar))
            yield line

    @staticmethod
    def track(bar: Bar, width: int) -> Text:
        """The bar and its whisker in `width` cells."""

        def cell(v: float | None) -> int | None:
            return None if v is None else min(max(round(v * width), 0), width)

        filled, lo, hi = cell(bar.value), cell(bar.low), cell(bar.high)
        colour = heat_hex(bar.value)
        out = Text()
        for c in range(width):
            inside = filled is not None and c < filled
            ch = "█" if inside else " "
            style = Style(color=colour)
            if lo is not None and hi is not None and lo <= c <= max(hi - 1, lo):
                ch = "├" if c == lo else "┤" if c == max(hi - 1, lo) else "─"
                style = (
                    Style(color=text_on(bar.value), bgcolor=colour)
                    if inside
                    else Style(color="bright_white")
                )
            out.append(ch, style)
        return out
