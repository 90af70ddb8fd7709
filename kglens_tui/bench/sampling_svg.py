"""A small SVG line chart (no plotting dependency): panels of polylines with min-max bands and
labelled vertical marks, laid out in a grid with one shared legend."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kglens_tui.core.safetext import html_text

PALETTE = (
    "#222222",
    "#d62728",
    "#1f77b4",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
)
PANEL_W, PANEL_H = 460, 300
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 62, 16, 30, 42
MAX_POINTS = 250


@dataclass
class Series:
    """One line: y over the panel's x, with an optional band (lo, hi) drawn under it."""

    name: str
    y: np.ndarray
    lo: np.ndarray | None = None
    hi: np.ndarray | None = None
    colour: str = "#000000"
    dashed: bool = False


@dataclass
class Panel:
    title: str
    x: np.ndarray
    series: list[Series]
    x_label: str = ""
    marks: list[tuple[float, str]] = field(default_factory=list)
    """Vertical lines at x, with a label."""


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if not math.isfinite(lo) or not math.isfinite(hi) or hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= step * mult:
            step *= mult
            break
    start = math.ceil(lo / step) * step
    return [start + i * step for i in range(int((hi - start) / step + 1e-9) + 1)]


def _fmt(value: float) -> str:
    if value != 0 and abs(value) < 0.01:
        return f"{value:.0e}"
    if abs(value) >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:.3g}"


def _thin(
    x: np.ndarray, y: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """At most MAX_POINTS evenly spaced points (keeping the last)."""
    if len(x) <= MAX_POINTS:
        return x, y, lo, hi
    idx = np.unique(np.linspace(0, len(x) - 1, MAX_POINTS).round().astype(int))
    return x[idx], y[idx], None if lo is None else lo[idx], None if hi is None else hi[idx]


def _panel(panel: Panel, left: float, top: float) -> list[str]:
    out = [f'<g transform="translate({left:.0f},{top:.0f})">']
    w, h = PANEL_W - MARGIN_L - MARGIN_R, PANEL_H - MARGIN_T - MARGIN_B
    values = [
        v
        for s in panel.series
        for arr in (s.y, s.lo, s.hi)
        if arr is not None
        for v in np.asarray(arr, dtype=float)
        if math.isfinite(v)
    ]
    y_lo, y_hi = (min(values), max(values)) if values else (0.0, 1.0)
    if y_hi <= y_lo:
        y_hi = y_lo + 1.0
    y_lo = min(y_lo, 0.0) if y_lo >= 0 and y_lo < 0.25 * y_hi else y_lo
    x = np.asarray(panel.x, dtype=float)
    x_lo, x_hi = float(x.min()), float(x.max()) if len(x) else 1.0
    if x_hi <= x_lo:
        x_hi = x_lo + 1.0

    def px(v: float) -> float:
        return MARGIN_L + (v - x_lo) / (x_hi - x_lo) * w

    def py(v: float) -> float:
        return MARGIN_T + (1 - (v - y_lo) / (y_hi - y_lo)) * h

    def path(xv: np.ndarray, yv: np.ndarray) -> str:
        return " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in zip(xv, yv, strict=True))

    out.append(
        f'<text x="{MARGIN_L + w / 2:.0f}" y="18" text-anchor="middle" '
        f'font-weight="bold">{html_text(panel.title)}</text>'
    )
    out.append(
        f'<rect x="{MARGIN_L}" y="{MARGIN_T}" width="{w}" height="{h}" fill="none" stroke="#888"/>'
    )
    for t in _ticks(y_lo, y_hi):
        y = py(t)
        out.append(
            f'<line x1="{MARGIN_L}" x2="{MARGIN_L + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
        )
        out.append(
            f'<text x="{MARGIN_L - 5}" y="{y + 4:.1f}" text-anchor="end" '
            f'font-size="11">{_fmt(t)}</text>'
        )
    for t in _ticks(x_lo, x_hi):
        out.append(
            f'<text x="{px(t):.1f}" y="{MARGIN_T + h + 15}" text-anchor="middle" '
            f'font-size="11">{_fmt(t)}</text>'
        )
    if panel.x_label:
        out.append(
            f'<text x="{MARGIN_L + w / 2:.0f}" y="{MARGIN_T + h + 32}" text-anchor="middle" '
            f'font-size="11">{html_text(panel.x_label)}</text>'
        )
    for i, (at, label) in enumerate(panel.marks):
        if x_lo <= at <= x_hi:
            x_at = px(at)
            out.append(
                f'<line x1="{x_at:.1f}" x2="{x_at:.1f}" y1="{MARGIN_T}" y2="{MARGIN_T + h}" '
                'stroke="#aaa" stroke-dasharray="3,3"/>'
            )
            right = x_at > MARGIN_L + w - 40
            anchor, dx = ("end", -2) if right else ("start", 2)
            y_text = MARGIN_T + 10 + 10 * (i % 2)
            out.append(
                f'<text x="{x_at + dx:.1f}" y="{y_text}" font-size="9" fill="#777" '
                f'text-anchor="{anchor}">{html_text(label)}</text>'
            )
    for s in panel.series:
        xs, ys, lo, hi = _thin(x, np.asarray(s.y, float), s.lo, s.hi)
        if lo is not None and hi is not None:
            ok = np.isfinite(lo) & np.isfinite(hi)
            if ok.any():
                band = f"{path(xs[ok], hi[ok])} {path(xs[ok][::-1], lo[ok][::-1])}"
                out.append(
                    f'<polygon points="{band}" fill="{s.colour}" fill-opacity="0.12" '
                    'stroke="none"/>'
                )
        ok = np.isfinite(ys)
        points = path(xs[ok], ys[ok])
        dash = ' stroke-dasharray="6,3"' if s.dashed else ""
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{s.colour}" '
            f'stroke-width="1.6"{dash}><title>{html_text(s.name)}</title></polyline>'
        )
    out.append("</g>")
    return out


def render_svg(panels: list[Panel], title: str = "", columns: int = 2) -> str:
    """The whole chart as an SVG document; the legend lists the first panel's series."""
    columns = max(1, min(columns, len(panels)))
    rows = math.ceil(len(panels) / columns)
    legend = panels[0].series if panels else []
    head = 34 if title else 6
    legend_h = 22 * math.ceil(len(legend) / 3) + 10
    width = columns * PANEL_W
    height = head + rows * PANEL_H + legend_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        out.append(
            f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="15" '
            f'font-weight="bold">{html_text(title)}</text>'
        )
    for i, panel in enumerate(panels):
        out.extend(_panel(panel, (i % columns) * PANEL_W, head + (i // columns) * PANEL_H))
    base = head + rows * PANEL_H + 8
    col_w = width / 3
    for i, s in enumerate(legend):
        x, y = 20 + (i % 3) * col_w, base + 22 * (i // 3) + 8
        dash = ' stroke-dasharray="6,3"' if s.dashed else ""
        out.append(
            f'<line x1="{x:.0f}" x2="{x + 28:.0f}" y1="{y}" y2="{y}" stroke="{s.colour}" '
            f'stroke-width="2"{dash}/>'
        )
        out.append(f'<text x="{x + 34:.0f}" y="{y + 4}">{html_text(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
