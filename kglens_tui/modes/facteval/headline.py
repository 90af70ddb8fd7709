"""A fact-eval run's headline: F1 of every question type per context, with its 95% interval and
the questions replied to, beside the best blind guess (as the run's live screen and report give
them)."""

from __future__ import annotations

from kglens_tui.modes.config import CONTEXTS
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.facteval.scoring import ALL
from kglens_tui.runs.headline import Headline
from kglens_tui.textfmt import pct, rate_ci

NOTE = (
    "fact-eval: F1 of every question type per context beside the best blind guess per question "
    "type, n the questions replied to"
)
"""How `kglens runs` words the headline."""


def facteval_headline(metrics: FactevalMetrics) -> Headline:
    """The headline of a run's metrics, a context at a time in the order of `CONTEXTS`."""
    order = {c: i for i, c in enumerate(CONTEXTS)}
    figures = []
    for s in sorted(
        (s for s in metrics.scores if s.qtype == ALL),
        key=lambda s: order.get(s.context, len(order)),
    ):
        best = metrics.best_chance_of(s.qtype, s.format, s.context)
        figures.append(
            (
                s.context,
                rate_ci(s.f1, *s.f1_ci),
                pct(best.value if best is not None else None),
                s.total,
            )
        )
    line = " · ".join(
        f"F1 (context {context}) {f1} chance {chance} n={n:,}" for context, f1, chance, n in figures
    )
    lines = "\n".join(
        f"F1 {context} {f1}\n  chance {chance}\nn={n:,} replied"
        for context, f1, chance, n in figures
    )
    return Headline(line or "F1 — (n=0 questions replied to)", lines or "F1 — (n=0)")
