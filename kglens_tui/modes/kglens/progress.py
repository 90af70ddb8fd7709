"""What `kglens probe` shows under its progress line (`Mode.progress_lines`): each rate with
its 95% interval, what chance scores on the questions asked so far, and n."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kglens_tui.answers.bias import RATES, Baseline
from kglens_tui.core.intervals import stored_rate
from kglens_tui.textfmt import pct, rate_ci

if TYPE_CHECKING:
    from kglens_tui.modes.kglens.engine import ProbeSnapshot


@dataclass(frozen=True)
class ProbeFigures:
    """What `kglens probe` shows of a run under its progress line: for each rate, its value, 95%
    interval and what chance scores on the questions asked so far, and the edges examined."""

    examined: int
    rates: tuple[tuple[str, str, str], ...]
    """(name, "46.6% [41.0–52.3]", chance "50.0%") of each rate; empty before any edge is
    examined."""


def probe_figures(snap: ProbeSnapshot, baseline: Baseline | None) -> ProbeFigures:
    """A probe snapshot's figures: each rate's interval over the edges examined
    (`core.intervals.stored_rate`) and chance (``baseline``: the engine's, blind guessing on
    the questions asked, each ask independent, as `kglens report` gives it)."""
    r = snap.rates
    shown = []
    if r is not None and r.examined:
        for name, field, chance_field in RATES:
            value = getattr(r, field)
            p = stored_rate(value, r.examined) if value is not None else None
            shown.append(
                (
                    name,
                    rate_ci(*p.bounds) if p is not None else "—",
                    pct(getattr(baseline, chance_field) if baseline is not None else None),
                )
            )
    return ProbeFigures(examined=r.examined if r is not None else 0, rates=tuple(shown))


def rate_items(figures: ProbeFigures) -> list[str]:
    """Each rate with its 95% interval and chance, then n ("no edge examined yet" before any
    edge is)."""
    if not figures.rates:
        return ["no edge examined yet"]
    shown = [f"{name} {rate} (chance {chance})" for name, rate, chance in figures.rates]
    return [*shown, f"n={figures.examined:,} edges examined"]
