"""A KG-wide estimate (`estimates.DesignRate`) as text: its rate with the 95% interval and the
answers it rests on (for `kglens probe`'s progress line, the report, the runs list and the
screens)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.textfmt import counted, pct, rate_ci

CAPPED = "†"
"""After the interval of a rate whose estimate fell outside [0, 1] and is shown at the nearest
end (`CAPPED_NOTE` says so under the table or line)."""
TOO_FEW_PAIRS = "— (too few edges asked twice yet)"
"""A two-ask rate not shown yet (`sense_rates.settled`)."""
CAPPED_NOTE = "† the estimate fell outside 0–100% and is shown at the nearest end"


def within_unit(rate: DesignRate) -> DesignRate:
    """The estimate with its error rate within [0, 1], marked capped if it was outside (an AIPW
    estimate of a small predicate can fall outside; its interval is clipped too)."""
    error = min(max(rate.error, 0.0), 1.0)
    return rate if error == rate.error else replace(rate, error=error, capped=True)


def win_text(rate: DesignRate) -> str:
    """The KG-wide win rate with its 95% interval: "77.3% [67.7–86.9]"."""
    low, high = rate.win_interval()
    return rate_ci(rate.win, low, high) + (CAPPED if rate.capped else "")


BEATS_RATE = "a blind guess beats the rate"
"""After a chance above the whole interval of the win rate beside it (`chance_text`)."""
IN_INTERVAL = "in the interval"
"""After a chance inside the interval of the win rate beside it: the model is not told apart
from blind guessing there (`chance_text`)."""


def chance_text(chance_win: float | None, rate: DesignRate) -> str:
    """Blind guessing's win rate beside a KG-wide win rate, saying so where it is above the
    rate's whole interval (`BEATS_RATE`) or inside it (`IN_INTERVAL`): "74.8% · a blind guess
    beats the rate"; "—" when unknown."""
    if chance_win is None:
        return pct(None)
    low, high = rate.win_interval()
    shown = pct(chance_win)
    if chance_win > high:
        return f"{shown} · {BEATS_RATE}"
    if chance_win >= low:
        return f"{shown} · {IN_INTERVAL}"
    return shown


def sense_text(rate: DesignRate) -> str:
    """A two-ask rate (held in the estimate's ``error``) with its 95% interval."""
    low, high = rate.interval()
    return rate_ci(rate.error, low, high) + (CAPPED if rate.capped else "")


def capped_note(rates: Iterable[DesignRate | None]) -> str:
    """`CAPPED_NOTE` when any of these estimates is shown capped, else ""."""
    return CAPPED_NOTE if any(rate is not None and rate.capped for rate in rates) else ""


def noted(caption: str, rates: Iterable[DesignRate | None]) -> str:
    """A caption with `CAPPED_NOTE` after it when any of these estimates is shown capped."""
    note = capped_note(rates)
    return f"{caption} {note}." if note else caption


def worth(rate: DesignRate) -> float | None:
    """What the estimate's answers are worth as independent asks, where weighting makes the
    plain count misleading (None: a census, no standard error, or an estimate at 0% or 100%, where
    it is worth less than one)."""
    if rate.method.startswith("census") or rate.se <= 0:
        return None
    asks = rate.effective_n
    return asks if asks >= 1 else None  # at 0% or 100% p (1 - p) is 0: it says nothing there


def n_text(rate: DesignRate) -> str:
    """How many answers the estimate rests on, and what they are worth when weighting makes the
    plain count misleading."""
    asks = worth(rate)
    text = f"n={counted(rate.answers, 'answer')}"
    return text if asks is None else f"{text} (worth {asks:,.0f} independent asks)"
