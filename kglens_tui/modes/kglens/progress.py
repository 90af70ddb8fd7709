"""What `kglens probe` shows under its progress line (`Mode.progress_lines`): the KG-wide win
rate first (interval, chance on the same estimand, n and what the answers are worth), its
two-ask zero-sense and all-sense once the run has them, then the paper's rates over the edges
the run examined, labelled as such."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kglens_tui.answers.bias import RATES, Baseline
from kglens_tui.core.intervals import stored_rate
from kglens_tui.modes.kglens.rate_text import (
    TOO_FEW_PAIRS,
    capped_note,
    chance_text,
    n_text,
    sense_text,
    win_text,
    within_unit,
)
from kglens_tui.textfmt import counted, pct, rate_ci

if TYPE_CHECKING:
    from kglens_tui.modes.kglens.engine import ProbeSnapshot


@dataclass(frozen=True)
class ProbeFigures:
    """What `kglens probe` shows of a run under its progress line: the KG-wide rates, then for
    each of the paper's rates its value, 95% interval and what chance scores on the questions
    asked so far over the edges examined."""

    examined: int
    rates: tuple[tuple[str, str, str], ...]
    """(name, "46.6% [41.0–52.3]", chance "50.0%") of each rate over the examined edges; empty
    before any edge is examined."""
    kg_wide: tuple[tuple[str, str, str], ...] = ()
    """(name, rate with interval, chance) of the KG-wide win rate and, once the run has them,
    its two-ask zero-sense and all-sense; empty before an answer of the design."""
    kg_wide_n: str = ""
    """The answers the KG-wide win rate rests on ("n=3,648 answers (worth 2,950 independent
    asks)")."""
    note: str = ""
    """`rate_text.CAPPED_NOTE` when a KG-wide rate shown is held at 0% or 100%, else ""."""
    senses_pending: tuple[str, ...] = ()
    """The two-ask rates not precise enough to show yet (`sense_rates.settled`), by name."""


def probe_figures(snap: ProbeSnapshot, baseline: Baseline | None) -> ProbeFigures:
    """A probe snapshot's figures: its KG-wide estimates (``kg_wide``, ``kg_wide_senses``, each
    with chance on the same estimand), then each rate's interval over the edges examined
    (`core.intervals.stored_rate`) and chance (``baseline``: the engine's, blind guessing on
    the questions asked, each ask independent, as `kglens report` gives it)."""
    r = snap.rates
    examined = []
    if r is not None and r.examined:
        for name, field, chance_field in RATES:
            value = getattr(r, field)
            p = stored_rate(value, r.examined) if value is not None else None
            examined.append(
                (
                    name,
                    rate_ci(*p.bounds) if p is not None else "—",
                    pct(getattr(baseline, chance_field) if baseline is not None else None),
                )
            )
    wide: list[tuple[str, str, str]] = []
    n = ""
    bounded = []
    if snap.kg_wide is not None:
        bounded.append(within_unit(snap.kg_wide))
        chance_win = _chance(snap.kg_wide_chance, True)
        wide.append(("win", win_text(bounded[0]), chance_text(chance_win, bounded[0])))
        n = n_text(snap.kg_wide)
        for sense, two in snap.kg_wide_senses.items():
            if two is not None:
                chance = _chance(snap.kg_wide_sense_chance.get(sense), False)
                bounded.append(within_unit(two))
                wide.append((f"{sense} (2 asks)", sense_text(bounded[-1]), pct(chance)))
    return ProbeFigures(
        examined=r.examined if r is not None else 0,
        rates=tuple(examined),
        kg_wide=tuple(wide),
        kg_wide_n=n,
        note=capped_note(bounded),
        senses_pending=(
            tuple(sense for sense, two in snap.kg_wide_senses.items() if two is None)
            if wide
            else ()
        ),
    )


def _chance(error: float | None, win: bool) -> float | None:
    """Blind guessing's KG-wide rate from its error rate (``win``: one minus it), within [0, 1]."""
    if error is None:
        return None
    bounded = min(max(error, 0.0), 1.0)
    return 1.0 - bounded if win else bounded


def rate_items(figures: ProbeFigures) -> list[str]:
    """The KG-wide win rate with interval, chance and n, its two-ask rates, then the paper's
    rates "over the N edges this run examined" ("no edge examined yet" before any edge is)."""
    if not figures.rates:
        return ["no edge examined yet"]
    if figures.kg_wide:
        wide = [
            f"KG-wide {name} {rate} (chance {chance})" for name, rate, chance in figures.kg_wide
        ]
        wide.insert(1, figures.kg_wide_n)
        if figures.senses_pending:
            pending = " and ".join(figures.senses_pending)
            wide.append(f"KG-wide {pending} (2 asks) {TOO_FEW_PAIRS}")
        if figures.note:
            wide.append(figures.note)
    else:
        wide = ["KG-wide win — (no answer of the sampling design yet)"]
    examined = [f"{name} {rate} (chance {chance})" for name, rate, chance in figures.rates]
    label = f"over the {counted(figures.examined, 'edge')} this run examined:"
    return [*wide, f"{label} {examined[0]}", *examined[1:]]
