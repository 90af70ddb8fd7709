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


ONE_ASK_AT, TWO_ASK_AT = 64, 100
"""Where each replay of the design test is read: the KG-wide error rate after eight batches
of 8, the two-ask rates after 100 requests. A replay's first 64 requests are those of a replay
of budget 64 (the same batches, draws and answers)."""


@pytest.mark.parametrize("method", [TOP_K_LEARNED, THOMPSON_PROP], ids=lambda m: m.name)
def test_the_kg_wide_rates_are_unbiased_and_cover_under_the_design(method) -> None:
    """On the same 300 replays, the KG-wide error rate after 64 requests and each sense's
    two-ask rate after 100: the mean over replays within 3.5 Monte Carlo errors of the exact
    value (the truth's mean error rate, its own mean P(both)), and the 95% intervals cover it
    in 90-99.5% of replays. The rate over the edges the sampler examined, without the design,
    does not match (0.60 and 0.53 against 0.41, over 16 and 8 Monte Carlo errors at 20 replays
    of 60 requests, so 20 are plenty); nor does the examined-edge share of edges always failed
    (the paper's zero-sense)."""
    truth = chain_truth()
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    floored = study_methods([method], 0.5, (), method)[1]
    trackers = []
    for replay in range(300):
        tracker = RateTracker([ONE_ASK_AT, TWO_ASK_AT], truth.predicates)
        simulate(floored, truth, scorer, TWO_ASK_AT, 8, replay, tracker=tracker)
        trackers.append(tracker)
    exact = float(truth.rates.mean())
    estimates, covered = [], 0
    for tracker in trackers:
        est = tracker.estimates[ONE_ASK_AT]
        assert est is not None and est.method == "design"
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
        est, covered_share = _replayed(trackers, TWO_ASK_AT, sense, "design pairs", exact)
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
    """A reader with observation and design_draw (and the run's edges) gets the stored run's
    two-ask zero-sense by the definition itself: over every ordered pair of weighted draws and
    every run edge, the product of the two draws' terms ``c + asked (failed - c) / incl_prob``
    (c: the draw's predicate total over the predicate's edges), weighted by the floors."""
    import json

    from kglens_tui.analysis.kgwide import kg_wide_sense
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.cli.main import main
    from kglens_tui.store.connection import connect

    db = tmp_path / "w.db"
    argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*argv, "--batch-size", "16", "--iterations", "12", "--target", "sim:4"]) == 0
    conn = connect(db)
    (blob,) = conn.execute("SELECT edge_ids FROM run WHERE id = 1").fetchone()
    run_edges = np.frombuffer(blob, dtype=np.int64).tolist()
    key_of = dict(
        conn.execute(
            "SELECT e.id, p.key FROM edge e JOIN predicate p ON p.id = e.predicate_id"
        ).fetchall()
    )
    edges = [(e, key_of[e]) for e in run_edges]
    pred_of = dict(edges)
    size = {k: sum(1 for v in pred_of.values() if v == k) for k in set(pred_of.values())}
    draws = conn.execute(
        "SELECT iteration, first_slot, floor_size, predicate_totals FROM design_draw "
        "WHERE run_id = 1 AND floor_size > 0 ORDER BY iteration, first_slot"
    ).fetchall()
    answers = conn.execute(
        "SELECT iteration, draw_slot, edge_id, category, incl_prob FROM observation "
        "WHERE run_id = 1 AND category != 'error' AND incl_prob > 0"
    ).fetchall()
    terms = []
    for iteration, slot, floor, totals in draws:
        mean = {k: v / size[k] for k, v in json.loads(totals).items()}
        term = {e: mean.get(k, 0.0) for e, k in pred_of.items()}
        for it, ds, e, category, prob in answers:
            if (it, ds) == (iteration, slot):
                failed = float(category in ("incorrect", "refused", "unparseable"))
                term[e] += (failed - term[e]) / prob
        terms.append((floor, term))
    total = pairs = 0.0
    for i, (wi, ti) in enumerate(terms):
        for j, (wj, tj) in enumerate(terms):
            if i != j:
                total += wi * wj * sum(ti[e] * tj[e] for e in pred_of)
                pairs += wi * wj
    by_definition = total / pairs / len(pred_of)
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
        iterations=60 if sampler == "brute-force" else 8,
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


def test_the_live_pair_terms_give_the_rows_estimate() -> None:
    """`PairTerms` sums each draw's terms as it comes (an estimate no longer passes over every
    answer of the run); on random draws, floors of 0 among them, it gives what
    `design_pair_rate` gives on the same answers, both senses, up to rounding."""
    from kglens_tui.modes.kglens.sense_rates import PairTerms, design_pair_rate

    rng = np.random.default_rng(0)
    compared = 0
    for trial in range(30):
        n_edges, n_groups = int(rng.integers(5, 300)), int(rng.integers(1, 6))
        groups = rng.integers(0, n_groups, n_edges)
        groups[:n_groups] = np.arange(n_groups)
        terms = PairTerms(groups)
        draws: list[tuple[np.ndarray, ...]] = []
        weights: list[float] = []
        for t in range(int(rng.integers(1, 40))):
            k = int(rng.integers(0, 20))
            pos = rng.integers(0, n_edges, k)
            failed = (rng.random(k) < 0.3).astype(float)
            prob = np.where(rng.random(k) < 0.7, rng.random(k) * 0.5 + 0.01, 1.0)
            means = rng.random(n_groups)
            floor = int(rng.integers(0 if trial % 3 == 0 else 1, 10))
            terms.add(pos, failed, prob, means, floor)
            draws.append((np.full(k, t), pos, failed, prob, means))
            weights.append(float(floor))
        for sense in (ZERO_SENSE, ALL_SENSE):
            got = terms.estimate(sense)
            if len(weights) < 3:
                assert got is None
                continue
            d, e, y, p = (np.concatenate([x[i] for x in draws]) for i in range(4))
            c = np.vstack([x[4] for x in draws])
            zero = sense == ZERO_SENSE
            want = design_pair_rate(
                d, e, y if zero else 1 - y, p, groups, c if zero else 1 - c, np.array(weights)
            )
            assert (got is None) == (want is None), (trial, sense)
            if got is None or want is None:
                continue
            assert got.error == pytest.approx(want.error, rel=1e-9, abs=1e-12)
            assert got.se == pytest.approx(want.se, rel=1e-9, abs=1e-12)
            assert (got.answers, got.edges, got.method) == (want.answers, want.edges, want.method)
            compared += 1
    assert compared > 20
