"""Drift between replays of one truth, tested as `kglens compare` tests runs: Fisher's exact
test for many tables at once, per-predicate KG-wide estimates, and false-discovery control."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import chain_truth
from scipy.stats import fisher_exact

from kglens_tui.analysis.efficiency import Scorer
from kglens_tui.bench.ground_truth import GroundTruth
from kglens_tui.bench.rates_drift import (
    ReplayEnd,
    drift_shares,
    fisher_two_sided,
    predicate_drift,
)
from kglens_tui.bench.rates_study import RateTracker, study_methods
from kglens_tui.bench.sampling_study import ALL_METHODS, simulate
from kglens_tui.modes.kglens.estimates import census_rate

THOMPSON_PROP = next(m for m in ALL_METHODS if m.name == "thompson + prop")
FLOORED = study_methods([THOMPSON_PROP], 0.75, (), THOMPSON_PROP)[1]
"""A cheap adaptive sampler with the design (the default refits a model every batch)."""


def test_fisher_for_many_tables_is_scipys() -> None:
    tables = np.random.default_rng(1).integers(0, 7, (400, 4))
    ours = fisher_two_sided(*tables.T)
    theirs = [fisher_exact([[a, b], [c, d]]).pvalue for a, b, c, d in tables]
    assert np.allclose(ours, theirs, atol=1e-12)


def replay(truth: GroundTruth, seed: int, budget: int = 240) -> RateTracker:
    """One replay of the floored sampler on `truth`, its draws and end kept by the tracker."""
    tracker = RateTracker([budget], truth.predicates)
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    simulate(FLOORED, truth, scorer, budget, 8, seed, tracker=tracker)
    assert tracker.end is not None
    return tracker


@pytest.fixture(scope="module")
def replays() -> tuple[GroundTruth, list[RateTracker]]:
    """200 replays of one truth, shared by the module's tests, which only read them: each
    checks a different estimate of the same replays."""
    truth = chain_truth(60, seed=5)
    return truth, [replay(truth, i) for i in range(200)]


def ends(trackers: list[RateTracker]) -> list[ReplayEnd]:
    return [t.end for t in trackers if t.end is not None]


def test_per_predicate_estimates_are_unbiased(replays) -> None:
    truth, trackers = replays
    found = np.array([[r.error for r in end.predicates] for end in ends(trackers)])  # type: ignore[union-attr]
    exact = [truth.rates[truth.predicates == p].mean() for p in range(3)]
    mc = found.std(axis=0, ddof=1) / np.sqrt(len(found))
    assert np.all(np.abs(found.mean(axis=0) - exact) < 3.5 * mc), (found.mean(axis=0), exact)


def test_the_same_truth_twice_rarely_drifts_and_a_changed_predicate_does(replays) -> None:
    truth, trackers = replays
    predicates, edges = drift_shares(ends(trackers))
    assert predicates <= 0.12 and edges <= 0.12, (predicates, edges)
    rates = truth.rates.copy()
    rates[truth.predicates == 0] = np.clip(rates[truth.predicates == 0] + 0.6, 0, 1)
    changed = dataclasses.replace(truth, rates=rates)
    found = [
        predicate_drift(end, replay(changed, 500 + i).end)  # type: ignore[arg-type]
        for i, end in enumerate(ends(trackers)[:20])
    ]
    assert np.mean(found) >= 0.8


def test_a_group_s_census_of_the_floor_is_unbiased_and_covers(replays) -> None:
    """A group of edges (a region, a year: what `kgwide.kg_wide` takes as a mask) is estimated
    from its own edges' floor answers, a census in random order of the group as of the whole
    run's: unbiased, and its interval covers."""
    truth, trackers = replays
    group = truth.predicates == 1
    exact = float(truth.rates[group].mean())
    found, covered = [], 0
    for tracker in trackers:
        est = census_rate(tracker.right[group], tracker.wrong[group])
        assert est is not None
        found.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    mean = float(np.mean(found))
    assert abs(mean - exact) < 3.5 * np.std(found, ddof=1) / np.sqrt(len(found))
    assert covered / len(found) >= 0.9, covered


def test_a_small_floor_without_a_failure_keeps_an_honest_interval() -> None:
    """Ten floor answers, all right, predicted right: the plug-in variance is 0, which would
    make a rare failure elsewhere look like drift; the interval is Agresti-Coull's at least."""
    from kglens_tui.modes.kglens.estimates import (
        MIN_EVENTS,
        SMALL_FLOOR,
        agresti_coull_se,
        design_rate,
    )

    rate = design_rate(
        np.zeros(10, np.int64),
        np.zeros(10),
        np.full(10, 0.1),
        np.zeros(10),
        np.zeros(1),
        100,
        np.ones(1),
    )
    assert rate is not None and rate.error == 0.0
    assert rate.se == pytest.approx(np.sqrt((2 / 14) * (12 / 14) / 14))
    # past SMALL_FLOOR answers, still none failed: the bound stays (it was 0: the trial's
    # 100.0% [100.0-100.0]); with MIN_EVENTS of each outcome the plug-in variance is used
    many = SMALL_FLOOR + 10
    rate = design_rate(
        np.zeros(many, np.int64),
        np.zeros(many),
        np.full(many, 0.1),
        np.zeros(many),
        np.zeros(1),
        1000,
        np.ones(1),
    )
    assert rate is not None and rate.se == pytest.approx(agresti_coull_se(0, many))
    failed = (np.arange(many) < MIN_EVENTS).astype(float)
    rate = design_rate(
        np.zeros(many, np.int64),
        failed,
        np.full(many, 0.1),
        failed,
        np.zeros(1) + failed.sum(),
        1000,
        np.ones(1),
    )
    assert rate is not None and rate.se == 0.0
