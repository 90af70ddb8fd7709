"""A KONTEST or fact-eval run's headline figures, each with its 95% interval, n and what chance
scores on the same questions (as the run's live screen and report give them): one line for
home's detail under the run list, a few short lines for the rates cell of `kglens runs`."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from kglens_tui.core.intervals import wilson
from kglens_tui.modes.chance import metamorphic_chance
from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.kontest.metrics import ALL, KontestMetrics
from kglens_tui.runs.runner import open_snapshot_as
from kglens_tui.runs.units import ModeSnapshot
from kglens_tui.textfmt import pct, rate_ci


@dataclass(frozen=True)
class KontestHeadline:
    """Inconsistent tests of all oracles over the valid ones, beside a coin and a coin saying Yes
    at the model's yes-rate."""

    rate: str
    valid: int
    coin: str
    p_yes: float | None
    at_yes_rate: str
    constant: str
    """A constant answer's: never inconsistent (the strongest blind guess here)."""


@dataclass(frozen=True)
class FactevalHeadline:
    """F1 of every question type in one context, beside the best blind guess."""

    context: str
    f1: str
    chance: str
    replied: int


def headlines(metrics: object) -> KontestHeadline | list[FactevalHeadline] | None:
    """The run's headline figures from its stored metrics; None for another mode's metrics."""
    if isinstance(metrics, KontestMetrics):
        o = metrics.oracle(ALL)
        return KontestHeadline(
            rate_ci(*wilson(o.inconsistent, o.valid).bounds),
            o.valid,
            pct(metrics.coin_error_rate(ALL)),
            metrics.chance.p_yes,
            pct(metrics.coin_error_rate(ALL, at_yes_rate=True)),
            pct(metamorphic_chance(1.0)),
        )
    if isinstance(metrics, FactevalMetrics):
        order = {c: i for i, c in enumerate(CONTEXTS)}
        out = []
        for s in sorted(
            (s for s in metrics.scores if s.qtype == ALL),
            key=lambda s: order.get(s.context, len(order)),
        ):
            group = metrics.chance_of(s.qtype, s.format, s.context)
            best = group.best if group is not None else None
            out.append(
                FactevalHeadline(
                    s.context,
                    rate_ci(s.f1, *s.f1_ci),
                    pct(best.value if best is not None else None),
                    s.total,
                )
            )
        return out
    return None


def mode_headline(metrics: object) -> str | None:
    """The headline figures on one line, for the detail under home's run list; None for another
    mode's metrics."""
    h = headlines(metrics)
    if isinstance(h, KontestHeadline):
        at_rate = "" if h.p_yes is None else f", at its yes-rate ({pct(h.p_yes)}) {h.at_yes_rate}"
        return (
            f"inconsistent {h.rate} of n={h.valid:,} valid tests · chance: a coin {h.coin}{at_rate}"
            f", a constant answer {h.constant}"
        )
    if h is None:
        return None
    return (
        " · ".join(f"F1 (context {f.context}) {f.f1} chance {f.chance} n={f.replied:,}" for f in h)
        or "F1 — (n=0 questions replied to)"
    )


def headline_lines(metrics: object) -> str | None:
    """The headline figures a few short lines, as `kglens runs` shows a KGLens run's rates (the
    rate over its chance, n last); None for another mode's metrics."""
    h = headlines(metrics)
    if isinstance(h, KontestHeadline):
        at_rate = [] if h.p_yes is None else [f"  coin at yes-rate {h.at_yes_rate}"]
        return "\n".join(
            [
                f"inconsistent {h.rate}",
                f"  chance: coin {h.coin}",
                *at_rate,
                f"  constant answer {h.constant}",
                f"n={h.valid:,} valid",
            ]
        )
    if h is None:
        return None
    return (
        "\n".join(f"F1 {f.context} {f.f1}\n  chance {f.chance}\nn={f.replied:,} replied" for f in h)
        or "F1 — (n=0)"
    )


HEADLINE_NOTE = (
    "KONTEST: tests of all oracles found inconsistent, of the valid ones (n), beside a coin, a "
    "coin saying Yes at the model's yes-rate and a constant answer (never inconsistent); fact-eval: F1 of every question type per context "
    "beside the best blind guess per question type, n the questions replied to."
)
"""How `kglens runs` words the KONTEST and fact-eval headlines (`headline_lines`)."""


def stored_headline_lines(conn: sqlite3.Connection, run_id: int) -> str | None:
    """`headline_lines` of a stored run; None when it has none or cannot be read."""
    try:
        return headline_lines(open_snapshot_as(conn, run_id, ModeSnapshot).metrics)
    except (LookupError, ValueError, TypeError):
        return None
