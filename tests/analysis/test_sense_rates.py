"""KG-wide two-ask zero-sense and all-sense rates (`probe.sense_rates`): unbiased under the
adaptive design and the census, with intervals that cover, checked by simulation on tiny graphs
against the exact value; the design's replays check the KG-wide error rate as well."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import chain_truth

from kglens_tui.analysis.efficiency import Scorer
from kglens_tui.bench.rates_study import RateTracker, sense_truth, study_methods
from kglens_tui.bench.sampling_study import ALL_METHODS, BRUTE_FORCE, simulate
from kglens_tui.modes.kglens.sense_rates import (
    ALL_SENSE,
    ZERO_SENSE,
    census_pair_rate,
    design_pair_rate,
    falling_share,
    pair_noise,
)

THOMPSON_PROP = next(m for m in ALL_METHODS if m.name == "thompson + prop")
TOP_K_LEARNED = next(m for m in ALL_METHODS if m.name == "top-k + learned")


ONE_ASK_AT, TWO_ASK_AT = 64, 176
"""Where each replay of the design test is read: the KG-wide error rate after eight batches
of 8 (32 floor answers: most of the rolling census's first pass over the 40 edges), the
two-ask rates after 176 requests (88 floor answers: two passes, the first with its re-asks).
A replay's first 64 requests are those of a replay of budget 64 (the same batches, draws and
answers)."""


REPLAYS = {TOP_K_LEARNED.name: 300, THOMPSON_PROP.name: 600}
"""Replays of the design test: at 300, thompson + prop's zero-sense came out 3.5 Monte Carlo
errors low; 2,000 replays put it 0.6 errors from the truth (chance, not bias). Learned
propagation's refits make its replays ten times as slow."""


@pytest.mark.parametrize("method", [TOP_K_LEARNED, THOMPSON_PROP], ids=lambda m: m.name)
def test_the_kg_wide_rates_are_unbiased_and_cover_under_the_design(method) -> None:
    """On the same REPLAYS replays, the KG-wide error rate after 64 requests and each sense's
    two-ask rate after 160, both from the floor's rolling census: the mean over replays within 3.5 Monte Carlo errors of the exact
    value (the truth's mean error rate, its own mean P(both)), and the 95% intervals cover it
    in 90-99.5% of replays. The rate over the edges the sampler examined, without the design,
    does not match (0.60 and 0.53 against 0.41, over 16 and 8 Monte Carlo errors at 20 replays
    of 60 requests, so 20 are plenty); nor does the examined-edge share of edges always failed
    (the paper's zero-sense)."""
    truth = chain_truth()
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    floored = study_methods([method], 0.5, (), method)[1]
    trackers = []
    for replay in range(REPLAYS[method.name]):
        tracker = RateTracker([ONE_ASK_AT, TWO_ASK_AT], truth.predicates)
        simulate(floored, truth, scorer, TWO_ASK_AT, 8, replay, tracker=tracker)
        trackers.append(tracker)
    exact = float(truth.rates.mean())
    estimates, covered = [], 0
    for tracker in trackers:
        est = tracker.estimates[ONE_ASK_AT]
        assert est is not None and est.method == "census"
        estimates.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    one_ask = np.array(estimates)
    mc = one_ask.std(ddof=1) / math.sqrt(len(one_ask))
    assert abs(one_ask.mean() - exact) < 3.5 * mc, (one_ask.mean(), exact, mc)
    assert 0.9 <= covered / len(one_ask) <= 0.995
    examined = []
    for replay in range(20):
        asked = simulate(method, truth, scorer, 60, 8, replay).asked
        examined.append(float((truth.rates * asked).sum() / asked.sum()))
    naive = np.array(examined)
    naive_mc = naive.std(ddof=1) / math.sqrt(len(naive))
    assert abs(naive.mean() - exact) > 3.5 * naive_mc, (naive.mean(), exact, naive_mc)
    for sense in (ZERO_SENSE, ALL_SENSE):
        exact = sense_truth(truth.rates, sense)
        est, covered_share = _replayed(trackers, TWO_ASK_AT, sense, "census pairs", exact)
        mc = est.std(ddof=1) / math.sqrt(len(est))
        assert abs(est.mean() - exact) < 3.5 * mc, (sense, est.mean(), exact, mc)
        assert 0.9 <= covered_share <= 0.995, (sense, covered_share)


def test_the_census_two_ask_rates_are_unbiased_and_cover() -> None:
    """As under the design, for brute force's census estimate; both senses on the same 300
    replays."""
    truth = chain_truth(60, seed=4)
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    trackers = []
    for replay in range(300):
        tracker = RateTracker([150], truth.predicates)
        simulate(BRUTE_FORCE, truth, scorer, 150, 10, replay, tracker=tracker)
        trackers.append(tracker)
    for sense in (ZERO_SENSE, ALL_SENSE):
        exact = sense_truth(truth.rates, sense)
        est, covered = _replayed(trackers, 150, sense, "census pairs", exact)
        assert abs(est.mean() - exact) < 3.5 * est.std(ddof=1) / math.sqrt(len(est)), sense
        assert covered >= 0.9, (sense, covered)


def _replayed(
    trackers: list[RateTracker], budget: int, sense: str, method: str, exact: float
) -> tuple[np.ndarray, float]:
    """The replays' estimates of one sense at `budget`, and the share of their 95% intervals
    that cover `exact`."""
    found, covered = [], 0
    for tracker in trackers:
        est = tracker.senses[(budget, sense)]
        assert est is not None and est.method == method
        found.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    return np.array(found), covered / len(found)


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


def test_a_run_s_two_ask_rates_are_recomputed_from_its_rows_alone(tmp_path) -> None:
    """A reader with the observation rows alone gets the stored run's two-ask zero-sense by its
    definition: over the run edges its floor (``floor_pass`` set) answered at least twice, the
    mean of ``f (f - 1) / (a (a - 1))`` (f failed of a floor answers)."""
    from kglens_tui.analysis.kgwide import kg_wide_sense
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.cli.main import main
    from kglens_tui.store.connection import connect

    db = tmp_path / "w.db"
    argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*argv, "--batch-size", "64", "--iterations", "12", "--target", "sim:4"]) == 0
    conn = connect(db)
    rows = conn.execute(
        "SELECT SUM(category IN ('incorrect', 'refused', 'unparseable')), COUNT(*) "
        "FROM observation WHERE run_id = 1 AND floor_pass IS NOT NULL AND category != 'error' "
        "GROUP BY pos HAVING COUNT(*) >= 2"
    ).fetchall()
    assert len(rows) >= 30
    by_definition = float(np.mean([f * (f - 1) / (a * (a - 1)) for f, a in rows]))
    estimate = kg_wide_sense(load_run_data(conn, 1), ZERO_SENSE, adjusted=False)
    assert estimate is not None
    assert estimate.rate.error == pytest.approx(by_definition)
    conn.close()


@pytest.mark.parametrize("sampler", ["top-k", "thompson", "brute-force"])
def test_the_live_two_ask_rates_are_the_stored_rows_ones(tmp_path, sampler: str) -> None:
    """What the engine keeps as it commits (the live screen's two-ask rates) is what the rows
    give afterwards, and what a reopened run shows."""
    from kglens_tui.analysis.kgwide import kg_wide_sense, shown
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim:3",
        sampler=sampler,
        iterations=60 if sampler == "brute-force" else 16,
        # a designed run's two-ask rates are shown once settled (`sense_rates.settled`)
        batch_size=16 if sampler == "brute-force" else 64,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config)
    run_blocking(engine)
    snap = engine.snapshot()
    live, chance = snap.kg_wide_senses, snap.kg_wide_sense_chance
    data = load_run_data(conn, 1)
    for sense in (ZERO_SENSE, ALL_SENSE):
        stored = kg_wide_sense(data, sense, adjusted=False)
        assert stored is not None and live[sense] is not None
        assert shown(live[sense], None).rate.error == pytest.approx(stored.rate.error)
        assert live[sense].se == pytest.approx(stored.rate.se)
        # blind guessing's two-ask rate on the same estimand, as the report works it out
        assert stored.chance_error is not None and chance[sense] is not None
        assert shown(live[sense], chance[sense]).chance_error == pytest.approx(stored.chance_error)
    reopened = open_snapshot(conn, 1)
    assert reopened.kg_wide_senses[ZERO_SENSE].error == pytest.approx(live[ZERO_SENSE].error)
    conn.close()


def test_a_rare_event_keeps_a_floor_under_its_interval() -> None:
    """No floor pair has failed twice yet: the jackknife sees no variation at all, yet the true
    rate may be a few percent; the interval keeps the Agresti-Coull width of the floor's pairs."""
    rng = np.random.default_rng(3)
    draws, edges = 6, 20
    draw = np.repeat(np.arange(draws), 10)
    edge = np.concatenate([rng.choice(edges, 10, replace=False) for _ in range(draws)])
    prob = np.full(len(draw), 0.5)
    failed = np.zeros(len(draw))
    rate = design_pair_rate(
        draw, edge, failed, prob, np.zeros(edges, int), np.zeros((draws, 1)), np.ones(draws)
    )
    assert rate is not None and rate.error == 0.0 and rate.se > 0.01
    low, high = rate.interval()
    assert low == 0.0 and high > 0.02


def test_an_all_right_run_keeps_a_width_under_every_interval() -> None:
    """Every answer right (or every one wrong): the plug-in variances see no variation and
    gave 100.0% [100.0–100.0] on 198 edges; each estimator keeps at least the Agresti-Coull
    width of its share (`estimates.rare_outcome_se`), on both sides, and says nothing of what
    such an estimate is worth as independent asks."""
    from kglens_tui.modes.kglens.estimates import (
        agresti_coull_se,
        census_rate,
        design_rate,
        hajek_rate,
        rare_outcome_se,
    )
    from kglens_tui.modes.kglens.rate_text import n_text

    rng = np.random.default_rng(5)
    draws, edges, per = 8, 198, 40
    draw = np.repeat(np.arange(draws), per)
    edge = np.concatenate([rng.choice(edges, per, replace=False) for _ in range(draws)])
    prob = np.full(len(draw), 0.2)
    for outcome in (0.0, 1.0):
        y = np.full(len(draw), outcome)
        pair = design_pair_rate(
            draw, edge, y, prob, np.zeros(edges, int), np.full((draws, 1), outcome), np.ones(draws)
        )
        assert pair is not None and pair.error == pytest.approx(outcome) and pair.se > 0.005
        low, high = pair.interval()
        assert high - low > 0.01
        one = design_rate(
            draw,
            y,
            prob,
            np.full(len(draw), outcome),
            np.full(draws, outcome * edges),
            edges,
            np.full(draws, float(per)),
        )
        assert one is not None and one.se >= agresti_coull_se(outcome * len(y), len(y)) * 0.99
        assert "worth" not in n_text(one)
        hajek = hajek_rate(y, prob, edges)
        assert hajek is not None and hajek.se >= agresti_coull_se(outcome * len(y), len(y)) * 0.99
        asked = np.full(edges, 2.0)
        census = census_rate(asked * outcome, asked * (1 - outcome))
        assert census is not None and census.se > 0.001
        twice = census_pair_rate(asked * outcome, asked)
        assert twice is not None and twice.se > 0.001
    # the bound is only for a rarer outcome seen fewer than MIN_EVENTS times
    assert rare_outcome_se(10, 20) == 0.0 and rare_outcome_se(9, 200) > 0
    assert rare_outcome_se(191, 200) > 0 and rare_outcome_se(190, 200) == 0.0


@pytest.mark.parametrize(
    ("failing", "rate"), [(0.1, 0.95), (1.0, 0.5)], ids=["blind spots", "alike"]
)
def test_edges_asked_three_times_keep_the_noise_estimate_near_the_truth(
    failing: float, rate: float
) -> None:
    """A census whose floor asked a random 40% of the edges four times and the rest three
    times (4.5 epochs of a 0.75 floor). With blind spots (a tenth of the edges failing 95%,
    the rest 5%) the noise estimate of the three-ask edges rests on ``2 p^3 - p^2``, with
    edges that fail alike (all 50%) on their mean p^2 squared: either way its expectation is
    the zero-sense estimate's true variance or up to 40% more, and the interval covers. (The
    mean p^2 squared alone overstated the blind spots' variance 2.6 times.)"""
    rng = np.random.default_rng(18)
    edges, draws = 400, 1000
    p = np.where(np.arange(edges) < failing * edges, rate, 0.05)
    asked = np.where(rng.random(edges) < 0.4, 4.0, 3.0)
    failed = rng.binomial(asked.astype(int), p, size=(draws, edges)).astype(np.float64)
    truth = float((p**2).mean())
    rates = [census_pair_rate(f, asked) for f in failed]
    estimates = np.array([r.error for r in rates if r is not None])
    assert len(estimates) == draws
    assert abs(float(estimates.mean()) - truth) < 4 * float(estimates.std()) / math.sqrt(draws)
    variance = float(estimates.var(ddof=1))
    noise = np.array([float(pair_noise(f, asked).sum()) / edges**2 for f in failed])
    assert 0.9 * variance <= float(noise.mean()) <= 1.4 * variance
    se = np.array([r.se for r in rates if r is not None])
    covered = float((np.abs(estimates - truth) <= 1.959964 * se).mean())
    assert 0.93 <= covered <= 0.99
