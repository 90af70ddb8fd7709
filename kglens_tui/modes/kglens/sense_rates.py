"""KG-wide zero-sense and all-sense rates that describe the model, not where the sampler looked.

The paper's zero-sense rate is the share of examined edges the model failed every time it was
asked, and its all-sense rate the share it answered right every time: both depend on how often
the sampler asked each edge. The KG-wide versions fix the number of asks at two:

- **zero-sense (two asks)**: the chance that an edge drawn at random from the run's edges, asked
  twice as the run asks, fails both times (``mean over edges of P(both fail)``; with independent
  asks, the mean of the squared per-ask failure probability);
- **all-sense (two asks)**: the chance that it is answered right both times.

One ask would make them the error and win rates; two is the fewest that tell a model that
always fails an edge from one that fails it half the time.

Estimators (`kglens bench rates` checks their bias and coverage by simulation):

- a run drawn by the design (`probe.design`): its floor's answers are a census in random order,
  estimated as brute force's are (below);
- a run stored before the rolling floor: every pair of its draws. Each draw gives each edge an
  augmented inverse-probability-weighted term ``c + 1[asked] (y - c) / probability``, with the
  control ``c`` the draw's mean prediction over the edge's predicate (fixed before the draw).
  Given the run before a later draw, its term has expectation P(fail) whatever came before, so
  the product of two draws' terms has expectation P(both fail): the mean over the pairs of draws
  (weighted by their floors, as the error rate's draws are) and over the edges is unbiased. Its
  interval is the delete-one-draw jackknife's.
- a brute-force run (a census in random order): the mean over edges asked at least twice of
  ``f (f - 1) / (a (a - 1))`` (f failures in a asks), the unbiased estimate of each edge's P(both
  fail), with the census's variance (`estimates.census_rate`'s two parts); each edge's answer
  noise is unbiased from four asks on and bounded above with two or three (`pair_noise`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from kglens_tui.modes.kglens.estimates import MIN_REPEATED, DesignRate, rare_outcome_se

PAIR_METHOD = "design pairs"
ZERO_SENSE, ALL_SENSE = "zero-sense", "all-sense"
SENSES = (ZERO_SENSE, ALL_SENSE)


def design_pair_rate(
    draw: np.ndarray,
    edge: np.ndarray,
    outcome: np.ndarray,
    prob: np.ndarray,
    group: np.ndarray,
    control: np.ndarray,
    weights: np.ndarray,
) -> DesignRate | None:
    """The chance that an edge of the population asked twice shows ``outcome`` both times.

    Per answer: its draw (index into ``weights`` and ``control``'s rows), its edge (index into
    ``group``), the outcome (1.0: the event, e.g. failed) and its inclusion probability. Per
    population edge: its group (a predicate code). Per draw and group: the control, the draw's
    predicted chance of the event for an edge of that group, fixed before the draw. Per draw: its
    weight (the floor's size; 0 leaves the draw out). Answers of edges outside the population
    (``edge`` < 0) are ignored. None with fewer than two weighted draws."""
    weights = np.asarray(weights, dtype=np.float64)
    control = np.asarray(control, dtype=np.float64)
    group = np.asarray(group, dtype=np.int64)
    n_edges = len(group)
    use = weights > 0
    if int(use.sum()) < 2 or n_edges == 0:
        return None
    w = np.where(use, weights, 0.0)
    draw = np.asarray(draw, dtype=np.int64)
    edge = np.asarray(edge, dtype=np.int64)
    prob = np.asarray(prob, dtype=np.float64)
    keep = (edge >= 0) & (prob > 0) & use[draw]
    d, e, p = draw[keep], edge[keep], prob[keep]
    y = np.asarray(outcome, dtype=np.float64)[keep]
    g = group[e]
    n_groups = control.shape[1]
    wc = w[:, None] * control
    base = wc[d, g]
    x = w[d] * (control[d, g] + (y - control[d, g]) / p)
    lift, lift_sq = x - base, x**2 - base**2
    a = wc.sum(axis=0)[group] + np.bincount(e, weights=lift, minlength=n_edges)
    b = (wc**2).sum(axis=0)[group] + np.bincount(e, weights=lift_sq, minlength=n_edges)
    total = float((a**2 - b).sum())
    sum_w, sum_w2 = float(w.sum()), float((w**2).sum())
    pairs = sum_w**2 - sum_w2
    if pairs <= 0:
        return None
    estimate = total / (n_edges * pairs)
    # delete-one-draw jackknife: S without draw t is S - 2 sum_e (A_e x_et - x_et^2)
    group_size = np.bincount(group, minlength=n_groups).astype(np.float64)
    group_a = np.bincount(group, weights=a, minlength=n_groups)
    cross = (wc * group_a[None, :]).sum(axis=1) + np.bincount(
        d, weights=a[e] * lift, minlength=len(w)
    )
    square = (wc**2 * group_size[None, :]).sum(axis=1) + np.bincount(
        d, weights=lift_sq, minlength=len(w)
    )
    var = _jackknife_var(total - 2.0 * (cross - square), w, use, n_edges)
    if var is None:
        return None
    se = max(math.sqrt(var), _few_events_se(e, y, p))
    return DesignRate(estimate, se, int(keep.sum()), n_edges, PAIR_METHOD)


def _jackknife_var(
    without_total: np.ndarray, w: np.ndarray, use: np.ndarray, n_edges: int
) -> float | None:
    """The delete-one-draw jackknife's variance of the pair estimate, from each draw's sum
    without it (``without_total``) and the weights (``use``: the draws counted); None with fewer
    than two draws to leave out."""
    sum_w, sum_w2 = float(w.sum()), float((w**2).sum())
    without_pairs = (sum_w - w) ** 2 - (sum_w2 - w**2)
    t = np.flatnonzero(use & (without_pairs > 0))
    if len(t) < 2:
        return None
    leave_out = without_total[t] / (n_edges * without_pairs[t])
    return (len(t) - 1) / len(t) * float(((leave_out - leave_out.mean()) ** 2).sum())


MIN_PAIR_WORTH = 30
"""A two-ask rate is shown once its standard error is at most that of a share of this many
independent asks at the least favourable rate (1/2): 0.091. Before, a few pairs of draws give
an unbiased estimate anywhere in [0, 1] with an interval of 0-100%: a zero-sense rate above the
error rate it is part of, or an all-sense of 100% beside a win rate of 67%, which no reader
should be shown."""


def settled(rate: DesignRate | None) -> DesignRate | None:
    """``rate`` once it is as precise as MIN_PAIR_WORTH independent asks (`MIN_PAIR_WORTH`),
    else None (not shown yet)."""
    return rate if rate is not None and rate.se <= 0.5 / math.sqrt(MIN_PAIR_WORTH) else None


def _few_events_se(edge: np.ndarray, outcome: np.ndarray, prob: np.ndarray) -> float:
    """The bound of `estimates.rare_outcome_se` on the share of floor answer pairs (two floor
    answers of one edge) that both show the event: the jackknife misses what it has not seen
    yet (a rare zero-sense edge; an all-sense when every answer was right). 0 without a floor,
    and for outcomes that are chances, not 0 or 1."""
    floor = prob < 1
    if not floor.any() or not np.isin(outcome, (0.0, 1.0)).all():
        return 0.0  # no floor, or not outcomes but chances (blind guessing's)
    asked = np.bincount(edge[floor]).astype(np.float64)
    events = np.bincount(edge[floor], weights=outcome[floor])
    return _pairs_se(events, asked)


def _pairs_se(events: np.ndarray, asked: np.ndarray) -> float:
    """`estimates.rare_outcome_se` of the pairs of answers of one edge that both show the event
    (``events`` of ``asked`` answers per edge)."""
    both = float((events * (events - 1) / 2).sum())
    pairs = float((asked * (asked - 1) / 2).sum())
    return rare_outcome_se(both, pairs)


def census_pair_rate(
    events: np.ndarray, asked: np.ndarray, edges: int | None = None
) -> DesignRate | None:
    """A census in random order (brute force): the mean over the edges asked at least twice of
    each edge's unbiased estimate of P(the event both times), ``f (f - 1) / (a (a - 1))``; its
    variance is the sampling of edges (finite-population corrected) plus each edge's own noise
    (`pair_noise`). None until MIN_REPEATED edges are asked twice."""
    f = np.asarray(events, dtype=np.float64)
    a = np.asarray(asked, dtype=np.float64)
    population = len(a) if edges is None else edges
    twice = a >= 2
    count = int(twice.sum())
    if count < min(MIN_REPEATED, population) or population <= 0:
        return None
    f, a = f[twice], a[twice]
    z = falling_share(f, a, 2)
    estimate = float(z.mean())
    noise = float(pair_noise(f, a).sum()) / count**2
    between = float(z.var(ddof=1)) if count > 1 else estimate * (1 - estimate)
    share = min(1.0, count / population)
    var = (1 - share) * between / count + share * noise
    se = max(math.sqrt(max(var, 0.0)), _pairs_se(f, a))
    return DesignRate(estimate, se, int(a.sum()), population, "census pairs")


def falling_share(
    f: npt.NDArray[np.float64], a: npt.NDArray[np.float64], k: int
) -> npt.NDArray[np.float64]:
    """The unbiased estimate of p^k from f events in a independent asks:
    ``f (f - 1) ... (f - k + 1) / (a (a - 1) ... (a - k + 1))``; 0 where a < k."""
    top = np.ones_like(f)
    bottom = np.ones_like(a)
    for i in range(k):
        top = top * (f - i)
        bottom = bottom * (a - i)
    return np.divide(top, bottom, out=np.zeros_like(f), where=a >= k)


def pair_noise(f: npt.NDArray[np.float64], a: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each edge's estimate of the variance of its ``f (f - 1) / (a (a - 1))``, the U-statistic
    ``(4 (a - 2) (p^3 - p^4) + 2 (p^2 - p^4)) / (a (a - 1))`` with every power of p estimated
    without bias (`falling_share`): unbiased from four asks on. With fewer, p^4 cannot be
    estimated, and a lower bound of it takes its place, which makes the variances' sum an upper
    bound (`_fourth_power_floor`). Only the sum over edges is meant, not each edge's term."""
    p2, p3, p4 = (falling_share(f, a, k) for k in (2, 3, 4))
    for asks in (2, 3):
        group = a == asks
        if group.any():
            p4 = p4.copy()
            p4[group] = _fourth_power_floor(p2[group], p3[group], asks)
    return (4 * (a - 2) * (p3 - p4) + 2 * (p2 - p4)) / (a * (a - 1))


def _fourth_power_floor(
    p2: npt.NDArray[np.float64], p3: npt.NDArray[np.float64], asks: int
) -> npt.NDArray[np.float64] | float:
    """Per edge of a group asked ``asks`` times (fewer than four), a stand-in for p^4 whose sum
    over the group is, in expectation, at most theirs: the larger in sum of two bounds.

    - ``2 p^3 - p^2`` (from three asks), at most p^4 for every p (the gap is p^2 (1 - p)^2):
      near exact where edges nearly always or nearly never fail, as blind spots do;
    - the square of the group's mean p^2 for every edge (Jensen's inequality): exact where the
      edges fail alike.
    """
    pooled = float(p2.mean()) ** 2
    if asks < 3:
        return pooled
    hermite = 2 * p3 - p2
    return hermite if float(hermite.sum()) > pooled * len(p2) else pooled
