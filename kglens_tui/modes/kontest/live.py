"""What the live screen shows of a KONTEST run: each oracle's inconsistency with its interval
beside what a coin scores, and the yes-rate that makes those rates mean something."""

from __future__ import annotations

from kglens_tui.answers.bias import Rate, leaning
from kglens_tui.modes.chance import COIN, gap_chance
from kglens_tui.modes.kontest.metrics import KontestMetrics
from kglens_tui.runs.panels import Panel, PanelRow
from kglens_tui.runs.units import ModeSnapshot
from kglens_tui.textfmt import pct, rate_ci

COLUMNS = ("oracle", "incons. / n", "rate [95%]", "coin · at yes-rate", "invalid · errors")
"""The table's columns: the inconsistent tests over the rate's n, the rate with its interval,
what a coin and a coin saying Yes at the model's yes-rate score, and the tests an invalid reply
or a failed request left out. Their labels take two lines (`HEADER`) so that the table fits 80
columns."""
HEADER = 2
GAP = "knowledge gap (both)"


LIVE_HELP = """\
**KONTEST**: each fact is asked with two paraphrases, alone (atomic) and in one conversation in
both orders (sequential); answers that disagree are inconsistencies.

In the table, **incons. / n** is an oracle's inconsistent tests over its valid ones (knowledge
gap: the relations the model affirmed with neither template, over those whose two atomic
requests were answered), **rate [95%]** that share with its 95% interval, and **invalid ·
errors** the tests left out for a reply neither yes nor no or for a failed request (knowledge
gap: — and the relations with a failed atomic request). The **coin · at yes-rate** column is
what a guesser that ignores the question scores on the same questions: a coin, then a coin
saying Yes as often as this model (a constant answer makes no inconsistency and no gap at all,
so an error rate means little without a moderate yes-rate); the box on the left shows the
yes-rate and warns of a strong answer bias.
"""
"""What the live screen's help says of a KONTEST run's figures (`Mode.live_help`)."""


def live_panels(snapshot: object) -> list[Panel]:
    """The oracles' table, with the yes-rate (and a warning on a strong answer bias) beside it;
    none for another mode's snapshot."""
    metrics = snapshot.metrics if isinstance(snapshot, ModeSnapshot) else None
    if not isinstance(metrics, KontestMetrics):
        return []
    notes: tuple[str, ...] = ()
    warning = ""
    c = metrics.chance
    if c.yes_rate.n:
        notes = (f"yes-rate {c.yes_rate.text()} · a constant answer is never inconsistent",)
        leans = leaning(c.yes_rate) if c.warning() else None
        if leans is not None:
            warning = f"answer bias: always {leans.capitalize()} makes no error on these true facts"
    return [
        Panel(
            "oracles",
            "Inconsistency per oracle",
            COLUMNS,
            rows(metrics),
            header=HEADER,
            shrink=((0, 8),),
            notes=notes,
            warning=warning,
        )
    ]


def rows(metrics: KontestMetrics) -> tuple[PanelRow, ...]:
    """Each oracle's inconsistent tests over its valid ones (the gap's relations in the gap
    over those whose two atomic requests were answered, `Coverage.gap_both_rate`, as the
    report), the rate with its interval, the coin's and the coin at the yes-rate, and the
    invalid and failed tests (for the gap: relations with a failed atomic request)."""
    out: list[PanelRow] = []
    p_yes = metrics.chance.p_yes
    for o in metrics.oracles:
        cells = (
            o.oracle,
            f"{o.inconsistent:,}/{o.valid:,}",
            _rate(Rate(o.inconsistent, o.valid)),
            f"{pct(metrics.coin_error_rate(o.oracle))} · "
            f"{pct(metrics.coin_error_rate(o.oracle, at_yes_rate=True))}",
            f"{o.invalid:,} · {o.errors:,}",
        )
        out.append(PanelRow(o.oracle, cells))
    gap = metrics.coverage.gap_both_rate
    gap_cells = (
        GAP,
        f"{gap.k:,}/{gap.n:,}",
        _rate(gap),
        f"{pct(gap_chance(COIN))} · {pct(None if p_yes is None else gap_chance(p_yes))}",
        f"— · {metrics.coverage.unknown_both:,}",
    )
    return (*out, PanelRow(GAP, gap_cells))


def _rate(rate: Rate) -> str:
    """A rate with its 95% interval (its k/n is in the row's "incons. / n" column)."""
    interval = rate.interval
    return rate_ci(rate.value, *(interval if interval is not None else (None, None)))
