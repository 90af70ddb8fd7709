"""One heat scale for error rates, shared by the SVG plots, the HTML report, the GEXF export
and the terminal screens: green (0) through amber (0.5) to red (1)."""

from __future__ import annotations

_STOPS = ((0.0, (46, 160, 67)), (0.5, (232, 171, 32)), (1.0, (207, 34, 46)))
MISSING = (150, 150, 150)


def heat_rgb(value: float | None) -> tuple[int, int, int]:
    """(r, g, b) for a rate in [0, 1] (clipped); grey for None."""
    if value is None or value != value:
        return MISSING
    v = min(max(float(value), 0.0), 1.0)
    for (x0, c0), (x1, c1) in zip(_STOPS, _STOPS[1:], strict=False):
        if v <= x1:
            t = (v - x0) / (x1 - x0)
            r, g, b = (round(lo + (hi - lo) * t) for lo, hi in zip(c0, c1, strict=True))
            return r, g, b
    return _STOPS[-1][1]


def heat_hex(value: float | None) -> str:
    """'#rrggbb' for a rate (see heat_rgb)."""
    r, g, b = heat_rgb(value)
    return f"#{r:02x}{g:02x}{b:02x}"


def text_on(value: float | None) -> str:
    """A readable text colour (#000 or #fff) on heat_hex(value)."""
    r, g, b = heat_rgb(value)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
