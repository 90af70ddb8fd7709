"""Small hand-written SVG charts for the HTML report: horizontal bars with interval whiskers,
lines over iterations, and a histogram. Every function returns one <svg> element as a string."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kglens_tui.analysis.colours import heat_hex
from kglens_tui.core.safetext import html_text

FONT = "font-family='sans-serif' font-size='11'"
SERIES_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")


@dataclass(frozen=True)
class Bar:
    """One bar: a label, a value in [0, 1] and an optional interval."""

    label: str
    value: float | None
    low: float | None = None
    high: float | None = None
    note: str = ""


def _open(width: int, height: int, title: str) -> list[str]:
    return [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}' role='img' aria-label='{html_text(title, quote=True)}'>",
        f"<title>{html_text(title)}</title>",
        f"<text x='4' y='14' {FONT} font-weight='bold'>{html_text(title)}</text>",
    ]


def bar_chart(bars: Sequence[Bar], title: str, *, width: int = 640, label_width: int = 200) -> str:
    """Horizontal bars on a 0-100% axis coloured by the heat scale, with whiskers for
    [low, high]; missing values are left blank."""
    row, top = 18, 28
    height = top + row * len(bars) + 24
    plot = width - label_width - 70
    out = _open(width, height, title)
    for tick in (0, 25, 50, 75, 100):
        x = label_width + plot * tick / 100
        out.append(
            f"<line x1='{x:.1f}' y1='{top - 4}' x2='{x:.1f}' y2='{height - 20}' stroke='#ddd'/>"
            f"<text x='{x:.1f}' y='{height - 6}' {FONT} text-anchor='middle'>{tick}%</text>"
        )
    for k, b in enumerate(bars):
        y = top + k * row
        out.append(
            f"<text x='{label_width - 6}' y='{y + 12}' {FONT} text-anchor='end'>"
            f"{html_text(b.label[:40])}</text>"
        )
        if b.value is None:
            continue
        w = plot * b.value
        out.append(
            f"<rect x='{label_width}' y='{y + 3}' width='{w:.1f}' height='{row - 6}' "
            f"fill='{heat_hex(b.value)}'/>"
        )
        if b.low is not None and b.high is not None:
            x0, x1 = label_width + plot * b.low, label_width + plot * b.high
            ym = y + row / 2
            out.append(
                f"<line x1='{x0:.1f}' y1='{ym:.1f}' x2='{x1:.1f}' y2='{ym:.1f}' stroke='#222'/>"
                f"<line x1='{x0:.1f}' y1='{ym - 4:.1f}' x2='{x0:.1f}' y2='{ym + 4:.1f}' "
                f"stroke='#222'/><line x1='{x1:.1f}' y1='{ym - 4:.1f}' x2='{x1:.1f}' "
                f"y2='{ym + 4:.1f}' stroke='#222'/>"
            )
        text = f"{b.value * 100:.1f}%" + (f" {b.note}" if b.note else "")
        out.append(
            f"<text x='{label_width + plot + 4}' y='{y + 12}' {FONT}>{html_text(text)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def line_chart(
    series: dict[str, Sequence[tuple[float, float | None]]],
    title: str,
    *,
    width: int = 640,
    height: int = 240,
    x_label: str = "iteration",
) -> str:
    """Lines of (x, y) points with y in [0, 1] on a 0-100% axis; None breaks a line."""
    left, right, top, bottom = 44, 120, 26, 30
    xs = [x for pts in series.values() for x, _ in pts]
    x_min, x_max = (min(xs), max(xs)) if xs else (0.0, 1.0)
    span = (x_max - x_min) or 1.0
    pw, ph = width - left - right, height - top - bottom
    out = _open(width, height, title)
    for tick in (0, 25, 50, 75, 100):
        ty = top + ph * (1 - tick / 100)
        out.append(
            f"<line x1='{left}' y1='{ty:.1f}' x2='{left + pw}' y2='{ty:.1f}' stroke='#ddd'/>"
            f"<text x='{left - 4}' y='{ty + 4:.1f}' {FONT} text-anchor='end'>{tick}%</text>"
        )
    out.append(
        f"<text x='{left + pw / 2:.1f}' y='{height - 6}' {FONT} text-anchor='middle'>"
        f"{html_text(x_label)} ({x_min:g}-{x_max:g})</text>"
    )
    for k, (name, pts) in enumerate(series.items()):
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        segment: list[str] = []
        segments = []
        for x, y in pts:
            if y is None:
                if segment:
                    segments.append(segment)
                segment = []
                continue
            segment.append(f"{left + pw * (x - x_min) / span:.1f},{top + ph * (1 - y):.1f}")
        if segment:
            segments.append(segment)
        for seg in segments:
            out.append(
                f"<polyline points='{' '.join(seg)}' fill='none' stroke='{colour}' "
                f"stroke-width='2'/>"
            )
        ly = top + 14 * k + 6
        out.append(
            f"<rect x='{left + pw + 8}' y='{ly}' width='10' height='10' fill='{colour}'/>"
            f"<text x='{left + pw + 22}' y='{ly + 9}' {FONT}>{html_text(name)}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def histogram(
    values: Sequence[float], title: str, *, bins: int = 20, width: int = 640, height: int = 200
) -> str:
    """A histogram of values in [0, 1] with bars coloured by the heat scale."""
    left, top, bottom = 44, 26, 30
    counts = [0] * bins
    for v in values:
        counts[min(int(min(max(v, 0.0), 1.0) * bins), bins - 1)] += 1
    peak = max(counts, default=0) or 1
    pw, ph = width - left - 10, height - top - bottom
    out = _open(width, height, title)
    bw = pw / bins
    for k, c in enumerate(counts):
        h = ph * c / peak
        out.append(
            f"<rect x='{left + k * bw + 1:.1f}' y='{top + ph - h:.1f}' width='{bw - 2:.1f}' "
            f"height='{h:.1f}' fill='{heat_hex((k + 0.5) / bins)}'><title>{c}</title></rect>"
        )
    for tick in (0, 25, 50, 75, 100):
        x = left + pw * tick / 100
        out.append(f"<text x='{x:.1f}' y='{height - 8}' {FONT} text-anchor='middle'>{tick}%</text>")
    out.append(
        f"<text x='{left - 4}' y='{top + 10}' {FONT} text-anchor='end'>{peak}</text>"
        f"<text x='{left - 4}' y='{top + ph}' {FONT} text-anchor='end'>0</text>"
    )
    out.append("</svg>")
    return "".join(out)
