"""KG-wide two-ask zero-sense and all-sense rates (`probe.sense_rates`): unbiased under the
adaptive design and the census, with intervals that cover, checked by simulation on tiny graphs
against the exact value."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import chain_truth

from kglens_tui.analysis.efficiency import Scorer
from kglens_tui.bench.rates_study import RateTracker, sense_truth, study_methods
from kglens_tui.bench.sampling_study import ALL_METHODS, BRUTE_FORCE, simulate
from kglens_tui.probe.sense_rates import (
    ALL_SENSE,
    ZERO_SENSE,
    census_pair_rate,
    design_pair_rate,
    falling_share,
    pair_noise,
)

THOMPSON_PROP = next(m for m in ALL_METHODS if m.name == "thompson + prop")
TOP_K_LEARNED = next(m for m in ALL_METHODS if m.name == "top-k + learned")


@pytest.mark.parametrize("method", [TOP_K_LEARNED, THOMPSON_PROP], ids=lambda m: m.name)
@pytest.mark.parametrize("sense", [ZERO_SENSE, ALL_SENSE])
def test_the_two_ask_rates_are_unbiased_and_cover_under_the_design(method, sense) -> None:
    """Mean over replays within 3.5 Monte Carlo errors of the truth's own mean P(both), and
    the 95% intervals cover it in 90-99.5% of replays; the examined-edge share of edges always
    failed (the paper's zero-sense) is far from it."""
    truth = chain_truth()
    exact = sense_truth(truth.rates, sense)
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    floored = study_methods([method], 0.5, (), method)[1]
    found, covered = [], 0
    for replay in range(300):
        tracker = RateTracker([100], truth.predicates)
        simulate(floored, truth, scorer, 100, 8, replay, tracker=tracker)
        est = tracker.senses[(100, sense)]
        assert est is not None and est.method == "design pairs"
        found.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    est = np.array(found)
    mc = est.std(ddof=1) / math.sqrt(len(est))
    assert abs(est.mean() - exact) < 3.5 * mc, (est.mean(), exact, mc)
    assert 0.9 <= covered / len(est) <= 0.995


@pytest.mark.parametrize("sense", [ZERO_SENSE, ALL_SENSE])
def test_the_census_two_ask_rates_are_unbiased_and_cover(sense) -> None:
    truth = chain_truth(60, seed=4)
    exact = sense_truth(truth.rates, sense)
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    found, covered = [], 0
    for replay in range(300):
        tracker = RateTracker([150], truth.predicates)
        simulate(BRUTE_FORCE, truth, scorer, 150, 10, replay, tracker=tracker)
        est = tracker.senses[(150, sense)]
        assert est is not None and est.method == "census pairs"
        found.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    est = np.array(found)
    assert abs(est.mean() - exact) < 3.5 * est.std(ddof=1) / math.sqrt(len(est))
    assert covered / len(est) >= 0.9


def test_the_census_has_no_two_ask_rate_until_edges_are_asked_twice() -> None:
    """One epoch asks each edge once: nothing says how often an edge fails twice."""
    assert census_pair_rate(np.array([1, 0, 1]), np.array([1, 1, 1])) is None
    many = np.full(40, 2)
    rate = census_pair_rate(np.r_[np.full(10, 2), np.zeros(30)], many)
    assert rate is not None and rate.error == pytest.approx(0.25)


def test_falling_shares_are_the_unbiased_powers() -> None:
    """E[f (f-1) ... / (a (a-1) ...)] = p^k over the binomial, exactly; the noise estimate's
    expectation is the U-statistic's variance from four asks on."""
    from scipy.stats import binom

    a, p = 5, 0.37
    f = np.arange(a + 1, dtype=np.float64)
    weight = binom.pmf(f, a, p)
    for k in (1, 2, 3, 4):
        assert float((weight * falling_share(f, np.full(a + 1, a, float), k)).sum()) == (
            pytest.approx(p**k)
        )
    z = falling_share(f, np.full(a + 1, a, float), 2)
    variance = float((weight * (z - p**2) ** 2).sum())
    noise = float((weight * pair_noise(f, np.full(a + 1, a, float))).sum())
    assert noise == pytest.approx(variance)


def test_design_pair_rate_by_hand() -> None:
    """Floor-only draws of equal weight, one group with control 0: the estimate is the mean
    over edges and over ordered pairs of draws of the product of the two draws'
    inverse-probability-weighted outcomes."""
    # 4 edges, probability 0.5 each: draw 0 asks edges 0 and 1 (both fail), draw 1 edges 0
    # (fails) and 2, draw 2 edges 1 (fails) and 3
    draw = np.array([0, 0, 1, 1, 2, 2])
    edge = np.array([0, 1, 0, 2, 1, 3])
    failed = np.array([1.0, 1.0, 1.0, 0.0, 1.0, 0.0])
    prob = np.full(6, 0.5)
    groups, control = np.zeros(4, int), np.zeros((3, 1))
    rate = design_pair_rate(draw, edge, failed, prob, groups, control, np.ones(3))
    assert rate is not None and rate.se > 0
    # edges 0 and 1 each fail in two draws: 2 ordered pairs x (1/0.5)^2 = 8 each; 16 over
    # 4 edges and 3 x 3 - 3 = 6 ordered pairs of draws
    assert rate.error == pytest.approx(16 / (4 * 6))
    # two draws leave nothing to estimate the variance by
    two = draw < 2
    assert (
        design_pair_rate(
            draw[two], edge[two], failed[two], prob[two], groups, control[:2], np.ones(2)
        )
        is None
    )
