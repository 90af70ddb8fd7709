"""Plain-text formatting of numbers shared by the CLI, reports and screens."""

from __future__ import annotations


def pct(value: float | None) -> str:
    """A fraction as a percentage with one decimal, or an em dash when there is none."""
    return "—" if value is None else f"{value * 100:.1f}%"


def num(value: float | None, digits: int = 2) -> str:
    """A number with fixed decimals, or an em dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"
