"""KG-wide rates that describe the model, not where the sampler looked.

The estimand: the error rate a run would show if every one of its edges were asked once as the run
asks (difficulty, prompt, verifier), i.e. the mean over the run's edges of each edge's per-ask
failure probability; the KG-wide win rate is one minus it (the paper's win rate over a census of
one ask per edge, in expectation).

- A run drawn by the design (`probe.design`) rests on its floor's answers, a rolling census in
  random order, and a brute-force run on all of its answers: both are estimated as a census
  (`census_rate`: the mean over the answered edges of each one's failure share), per predicate
  and per group over their own edges; two targets on one plan by `census_difference`.
- A run stored before the rolling floor is estimated per draw by augmented inverse probability
  weighting with its stored probabilities and control predictions (`design_rate`, Zrnic and
  Candès 2024), the draws combined as a martingale; a group of it by the Hájek ratio
  (`hajek_rate`).

`kglens bench rates` checks bias and coverage of these by simulation against known truths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from kglens_tui.core.intervals import wilson_bounds

Z95 = 1.959963984540054
HOW_ESTIMATED = (
    "estimated as a census from the answers to each draw's floor, which walks a random order of "
    "the edges pass after pass (brute force: from all its answers; a run stored before the "
    "rolling floor: from its answers weighted by their sampling probabilities)"
)
"""How every KG-wide rate is estimated, in words, for the notes and help that describe it."""
MIN_REPEATED = 30
"""A two-ask rate of a census is estimated once this many edges are asked twice or more."""
NOISE_PRIOR = 10
"""A census's estimate of the answers' own noise (the mean of p (1 - p) over the edges) counts
the bound p (1 - p) of the pooled rate as this many edges asked twice, beside the edges it
asked twice or more: few of them give an unsure estimate, and the bound keeps the interval
from trusting it (simulated on paper16's first epoch, a tenth of the edges failing 80-100%:
coverage 96.8%, where taking the bound below 30 such edges covered 97.9% and trusting 15 of
them 94.5%)."""
SMALL_FLOOR = 50
"""Below this many answers drawn by the floor, a design estimate's plug-in variance misses
events it has not seen yet (a rare failure in a small predicate): its standard error is then
at least that of a share with two failures and two successes added (`small_floor_se`)."""
MIN_EVENTS = 10
"""Below this many answers of the rarer outcome (failures, or right answers; for a two-ask rate
pairs that show the event, or do not), a plug-in variance misses what it has not seen yet (a
run whose every answer is right has a plug-in variance of 0, and a 100.0% [100.0–100.0]
interval): the standard error is then at least the Agresti-Coull one of that share
(`rare_outcome_se`)."""


@dataclass(frozen=True)
class DesignRate:
    """A KG-wide error-rate estimate with its standard error."""

    error: float
    se: float
    answers: int
    """Answers the estimate uses."""
    edges: int
    """Edges it describes (the run's, or a predicate's or group's)."""
    method: str
    """design (AIPW over the draws), census (brute force) or hajek (a group)."""
    capped: bool = False
    """The estimate fell outside [0, 1] and is held at the nearest end (`rate_text.within_unit`):
    an AIPW estimate of a small predicate can."""
    few: tuple[float, float] | None = None
    """(failures, answers) of the plain answers when they are few, or show either outcome
    fewer than MIN_EVENTS times: the interval then holds at least their Wilson interval."""

    @property
    def win(self) -> float:
        return 1.0 - self.error

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The error rate's interval (95% by default), within [0, 1]: the estimate plus or minus
        z standard errors, widened to hold the Wilson interval of its few plain answers (`few`:
        two right answers of two are no surer than a binomial's 2 of 2, whatever the weights)."""
        low, high = max(0.0, self.error - z * self.se), min(1.0, self.error + z * self.se)
        if self.few is not None and self.few[1] > 0:
            plain_low, plain_high = wilson_bounds(*self.few, z)
            low, high = min(low, plain_low), max(high, plain_high)
        return low, high

    def win_interval(self, z: float = Z95) -> tuple[float, float]:
        low, high = self.interval(z)
        return 1.0 - high, 1.0 - low

    @property
    def effective_n(self) -> float:
        """The number of independent asks whose plain share would be as precise."""
        p = min(max(self.error, 0.0), 1.0)
        if self.se <= 0:
            return float(self.answers)
        return p * (1 - p) / self.se**2


def design_rate(
    draw: np.ndarray,
    failed: np.ndarray,
    prob: np.ndarray,
    prediction: np.ndarray,
    totals: np.ndarray,
    edges: np.ndarray | int,
    weights: np.ndarray,
) -> DesignRate | None:
    """AIPW over draws. Per answer: its draw (an index into the per-draw arrays), failed (1/0),
    inclusion probability and control prediction; per draw: the sum of predictions over the
    population, its size and its weight (the floor's size: a draw without a floor says nothing
    about unasked edges and is left out). None without a usable draw."""
    draw = np.asarray(draw, dtype=np.int64)
    totals = np.asarray(totals, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    size = np.broadcast_to(np.asarray(edges, dtype=np.float64), totals.shape)
    use = (weights > 0) & (size > 0)
    if not use.any():
        return None
    keep = use[draw] & (np.asarray(prob) > 0)
    d = draw[keep]
    resid = (
        np.asarray(failed, dtype=np.float64)[keep] - np.asarray(prediction)[keep]
    ) / np.asarray(prob)[keep]
    n_draws = len(totals)
    corr = np.bincount(d, weights=resid, minlength=n_draws)
    var = np.bincount(d, weights=resid**2, minlength=n_draws)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_draw = np.where(use, (totals + corr) / size, 0.0)
        per_var = np.where(use, var / size**2, 0.0)
    w = np.where(use, weights, 0.0)
    rate = combine_draws(per_draw, per_var, w, int(keep.sum()), int(size[use].max()))
    floor = np.asarray(prob)[keep] < 1
    return small_floor_se(
        rate, int(floor.sum()), float(np.asarray(failed, dtype=np.float64)[keep][floor].sum())
    )


def agresti_coull_se(events: float, trials: float) -> float:
    """The standard error of a share with two events and two non-events added."""
    share = (events + 2.0) / (trials + 4.0)
    return math.sqrt(share * (1.0 - share) / (trials + 4.0))


def rare_outcome_se(events: float, trials: float) -> float:
    """`agresti_coull_se` of ``events`` in ``trials`` when fewer than MIN_EVENTS of them show
    either outcome, else 0 (no bound)."""
    if not rare(events, trials):
        return 0.0
    return agresti_coull_se(events, trials)


def rare(events: float, trials: float) -> bool:
    """Whether fewer than MIN_EVENTS of ``trials`` show either outcome."""
    return min(events, trials - events) < MIN_EVENTS


def at_least(rate: DesignRate | None, se: float) -> DesignRate | None:
    """``rate`` with its standard error raised to ``se`` where it is smaller."""
    return rate if rate is None or rate.se >= se else replace(rate, se=se)


def with_few(rate: DesignRate | None, failures: float, answers: float) -> DesignRate | None:
    """``rate`` holding its plain answers' counts (`DesignRate.few`) when they are rare."""
    if rate is None or answers <= 0 or not rare(failures, answers):
        return rate
    return replace(rate, few=(failures, answers))


def small_floor_se(rate: DesignRate | None, floor: int, failures: float) -> DesignRate | None:
    """``rate`` with its standard error raised to at least the Agresti-Coull one of the floor's
    answers' failure share when it rests on fewer than SMALL_FLOOR of them, or on fewer than
    MIN_EVENTS failures or right answers among them (`rare_outcome_se`), and its interval to at
    least their Wilson interval (`with_few`)."""
    if rate is None:
        return rate
    if floor < SMALL_FLOOR:
        rate = at_least(rate, agresti_coull_se(failures, floor))
    else:
        rate = at_least(rate, rare_outcome_se(failures, floor))
    return with_few(rate, failures, floor)


def combine_draws(
    values: np.ndarray, variances: np.ndarray, weights: np.ndarray, answers: int, population: int
) -> DesignRate | None:
    """The weighted mean of the draws' estimates (weights: their floor sizes, fixed before
    each draw's answers) and its standard error; None without a weighted draw."""
    w = np.asarray(weights, dtype=np.float64)
    total_w = float(w.sum())
    if total_w <= 0:
        return None
    error = float((w * np.asarray(values)).sum() / total_w)
    se = math.sqrt(float((w**2 * np.asarray(variances)).sum())) / total_w
    return DesignRate(error, se, answers, population, "design")


def census_rate(m: np.ndarray, n: np.ndarray, edges: int | None = None) -> DesignRate | None:
    """A census in random order (brute force): the mean over the examined edges of each edge's
    failure share, an unbiased estimate of the mean over all ``edges`` (default: as many as
    m has) while the examined ones are a uniformly random subset. Its variance: the sampling of
    edges (finite-population corrected) plus each edge's answer noise (from edges asked twice
    or more, beside the bound p (1 - p) counted as NOISE_PRIOR such edges)."""
    m = np.asarray(m, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    population = len(m) if edges is None else edges
    asked = m + n
    seen = asked > 0
    count = int(seen.sum())
    if count == 0 or population <= 0:
        return None
    a = asked[seen]
    z = n[seen] / a
    error = float(z.mean())
    repeat = a >= 2
    repeated = int(repeat.sum())
    bound = error * (1 - error)
    within = (
        float((z[repeat] * (1 - z[repeat]) * a[repeat] / (a[repeat] - 1)).sum())
        + NOISE_PRIOR * bound
    ) / (repeated + NOISE_PRIOR)
    noise = float((within / a).sum()) / count**2
    between = float(z.var(ddof=1)) if count > 1 else error * (1 - error)
    share = min(1.0, count / population)
    var = (1 - share) * between / count + share * noise
    failures, answers = float(n[seen].sum()), float(a.sum())
    se = max(math.sqrt(max(var, 0.0)), rare_outcome_se(failures, answers))
    return with_few(DesignRate(error, se, int(answers), population, "census"), failures, answers)


def hajek_rate(failed: np.ndarray, prob: np.ndarray, edges: int) -> DesignRate | None:
    """The weighted share of failures, each answer weighted by one over its inclusion
    probability (Hájek), with its linearised variance: for a group without stored prediction
    sums. Answers of draws without a floor must be left out by the caller."""
    prob = np.asarray(prob, dtype=np.float64)
    keep = prob > 0
    if not keep.any():
        return None
    w = 1.0 / prob[keep]
    y = np.asarray(failed, dtype=np.float64)[keep]
    error = float((w * y).sum() / w.sum())
    se = math.sqrt(float(((w * (y - error)) ** 2).sum())) / float(w.sum())
    se = max(se, rare_outcome_se(float(y.sum()), float(len(y))))
    return with_few(DesignRate(error, se, int(keep.sum()), edges, "hajek"), float(y.sum()), len(y))


@dataclass(frozen=True)
class Difference:
    """The difference of two independent KG-wide estimates (b minus a) with its test."""

    value: float
    se: float
    p_value: float

    def interval(self, z: float = Z95) -> tuple[float, float]:
        return self.value - z * self.se, self.value + z * self.se


def difference(a: DesignRate, b: DesignRate) -> Difference:
    """b's error rate minus a's (independent estimates), with the z-test of no difference."""
    return tested(b.error - a.error, math.sqrt(a.se**2 + b.se**2))


def tested(value: float, se: float) -> Difference:
    """A difference with its two-sided z-test of none."""
    if se <= 0:
        return Difference(value, 0.0, 1.0 if value == 0 else 0.0)
    return Difference(value, se, math.erfc(abs(value) / se / math.sqrt(2)))


def census_difference(pos: np.ndarray, diff: np.ndarray, edges: int) -> Difference | None:
    """Two targets asked the same census answers (per answer: its edge and the difference of
    the two failures, b minus a) over a population of ``edges``: the mean over the answered
    edges of each edge's mean difference, with the census's variance (`census_rate`): the
    sampling of edges, finite-population corrected, plus each edge's answer noise, bounded by
    the mean squared difference of its answers (exact when the targets are equally accurate on
    it). None without an answer."""
    pos = np.asarray(pos, dtype=np.int64)
    if not len(pos) or edges <= 0:
        return None
    d = np.asarray(diff, dtype=np.float64)
    asked = np.bincount(pos).astype(np.float64)
    seen = asked > 0
    a = asked[seen]
    z = np.bincount(pos, weights=d)[seen] / a
    within = np.bincount(pos, weights=d**2)[seen] / a
    count = len(z)
    share = min(1.0, count / edges)
    between = float(z.var(ddof=1)) if count > 1 else float(within.mean())
    noise = float((within / a).sum()) / count**2
    var = (1 - share) * between / count + share * noise
    return tested(float(z.mean()), math.sqrt(max(var, 0.0)))


def paired_design_difference(
    draw: np.ndarray, diff: np.ndarray, prob: np.ndarray, weights: np.ndarray, edges: int
) -> Difference | None:
    """Two targets asked the same draws: per answer both gave, its draw (index), the
    difference of their failures (b minus a) and its inclusion probability; per draw, its
    weight (the floor questions both answered). Each draw's estimate of the difference of the
    KG-wide error rates is ``sum(diff / prob) / edges`` (the control predictions cancel), and
    the draws combine as `design_rate`'s do. None without a weighted draw."""
    draw = np.asarray(draw, dtype=np.int64)
    prob = np.asarray(prob, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    total_w = float(w.sum())
    use = prob > 0
    if total_w <= 0 or edges <= 0:
        return None
    resid = np.asarray(diff, dtype=np.float64)[use] / prob[use]
    per_draw = np.bincount(draw[use], weights=resid, minlength=len(w)) / edges
    per_var = np.bincount(draw[use], weights=resid**2, minlength=len(w)) / edges**2
    value = float((w * per_draw).sum()) / total_w
    return tested(value, math.sqrt(float((w**2 * per_var).sum())) / total_w)


def benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input's order: a test is a
    discovery at false discovery rate alpha when its q-value is below alpha."""
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p)
    scaled = p[order] * m / np.arange(1, m + 1)
    q = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(q, 1.0)
    return out
