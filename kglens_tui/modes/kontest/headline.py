"""A KONTEST run's headline: inconsistent tests of all oracles over the valid ones, with its 95%
interval and n, beside a coin, a coin saying Yes at the model's yes-rate and a constant answer
(as the run's live screen and report give them)."""

from __future__ import annotations

from kglens_tui.core.intervals import wilson
from kglens_tui.modes.chance import metamorphic_chance
from kglens_tui.modes.kontest.metrics import ALL, KontestMetrics
from kglens_tui.runs.headline import Headline
from kglens_tui.textfmt import pct, rate_ci

NOTE = (
    "KONTEST: tests of all oracles found inconsistent, of the valid ones (n), beside a coin, a "
    "coin saying Yes at the model's yes-rate and a constant answer (never inconsistent)"
)
"""How `kglens runs` words the headline."""


def kontest_headline(metrics: KontestMetrics) -> Headline:
    """The headline of a run's metrics; a constant answer is never inconsistent, the strongest
    blind guess here."""
    o = metrics.oracle(ALL)
    rate = rate_ci(*wilson(o.inconsistent, o.valid).bounds)
    coin, constant = pct(metrics.coin_error_rate(ALL)), pct(metamorphic_chance(1.0))
    p_yes = metrics.chance.p_yes
    at_yes_rate = pct(metrics.coin_error_rate(ALL, at_yes_rate=True))
    at_rate = "" if p_yes is None else f", at its yes-rate ({pct(p_yes)}) {at_yes_rate}"
    line = (
        f"inconsistent {rate} of n={o.valid:,} valid tests · chance: a coin {coin}{at_rate}, "
        f"a constant answer {constant}"
    )
    lines = [
        f"inconsistent {rate}",
        f"  chance: coin {coin}",
        *([] if p_yes is None else [f"  coin at yes-rate {at_yes_rate}"]),
        f"  constant answer {constant}",
        f"n={o.valid:,} valid",
    ]
    return Headline(line, "\n".join(lines))
