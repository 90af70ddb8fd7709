"""Learned propagation: the hierarchical error model learns how much predicates and entities
(neighbours) tell about an edge, from the answers alone, and the top-k sampler."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logit

from kglens_tui.kg.bundled_data import bundled_names, bundled_root
from kglens_tui.modes.kglens.learned import (
    EDGES_PER_REFIT_STEP,
    LONGEST_REFIT_STEP,
    PRIOR_WORTH_CAP,
    ErrorModel,
    LearnedPropagation,
)
from kglens_tui.modes.kglens.pkg import PKGState, apply_outcomes
from kglens_tui.modes.kglens.samplers import Sampler, boundary_gap, sample_batch


def graph(n_nodes: int = 80, n_edges: int = 600, n_preds: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, n_nodes, n_edges)
    o = (s + 1 + rng.integers(0, n_nodes - 1, n_edges)) % n_nodes
    p = rng.integers(0, n_preds, n_edges)
    return rng, p, s, o


def answers(rng, rates: np.ndarray, times: int) -> tuple[np.ndarray, np.ndarray]:
    n = rng.binomial(times, rates).astype(np.int32)
    return (times - n).astype(np.int32), n


def test_neighbour_weight_follows_the_graph_signal() -> None:
    rng, p, s, o = graph()
    effect = rng.normal(0, 1.5, 80)
    rates = 1 / (1 + np.exp(-(-1.0 + effect[s] + effect[o])))
    model = ErrorModel(p, s, o)
    correlated = model.fit(*answers(rng, rates, 4))
    shuffled = model.fit(*answers(rng, rng.permutation(rates), 4))
    assert correlated.neighbour_weight > 0.3
    assert shuffled.neighbour_weight < 0.05
    assert correlated.strength > shuffled.strength
    # the entities' effects are learned, in order
    learned = correlated.effects[1] + correlated.effects[2]
    assert np.corrcoef(learned, effect)[0, 1] > 0.8


def test_a_predicate_the_model_does_not_know_is_learned_after_a_few_answers() -> None:
    rng, p, s, o = graph()
    rates = np.where(p == 2, 0.97, 0.1)
    m, n = answers(rng, rates, 1)
    asked = rng.random(len(rates)) < 0.2  # about 20 answers per predicate
    m, n = np.where(asked, m, 0), np.where(asked, n, 0)
    model = ErrorModel(p, s, o)
    fit = model.fit(m, n)
    q = model.predict(fit)
    assert q[p == 2].min() > 0.7  # unasked calling-code edges already look like blind spots
    assert q[p != 2].mean() < 0.2 and q[p != 2].max() < 0.5
    assert fit.predicate_share > 0.5 > fit.neighbour_weight


def test_posterior_leaves_an_edge_out_of_its_own_prior_and_refits_on_schedule() -> None:
    rng, p, s, o = graph()
    rates = np.full(len(p), 0.2)
    learned = LearnedPropagation(p, s, o)
    state = PKGState.prior(len(p))
    batch = np.arange(64)
    failed = rng.random(64) < 0.2
    apply_outcomes(state, batch, failed, ~failed, None)
    learned.after_iteration(state, 1)
    fit = learned.fit
    assert fit is not None and fit.examined == 64
    q, a0, b0 = learned.model.prior(fit, state.m, state.n)
    assert np.allclose(state.alpha, a0 + state.n) and np.allclose(state.beta, b0 + state.m)
    assert np.allclose(a0 + b0, fit.worth) and fit.worth == min(fit.strength, PRIOR_WORTH_CAP)
    again = LearnedPropagation(p, s, o)
    again.refit(state)
    assert np.array_equal(state.alpha, a0 + state.n)  # a pure function of the counts
    assert [i for i in range(1, 100) if learned.due(i)][:25] == list(range(1, 26))
    assert not learned.due(101) and learned.due(100)
    del rates


def test_top_k_sampler_asks_what_decides_the_list() -> None:
    state = PKGState.prior(6)
    # 0: surely a blind spot, 1: surely not, 2: sits at the cut-off, known; 3-5: unknown
    state.alpha[:] = [400, 2, 100, 2, 3, 2]
    state.beta[:] = [2, 400, 100, 2, 2, 3]
    state.n[:] = state.alpha - 1  # the edges' own answers (the top-k sampler weighs them)
    state.m[:] = state.beta - 1
    gap = boundary_gap(state, top_k=2)
    assert max(gap[3:]) < min(gap[:3]), "the unknown edges are the least settled"
    batch = sample_batch(Sampler.TOP_K, state, 3, np.random.default_rng(0), 1, 0, top_k=2)
    assert sorted(batch.tolist()) == [3, 4, 5]
    excluded = sample_batch(
        Sampler.TOP_K, state, 3, np.random.default_rng(0), 1, 0, exclude=np.array([4]), top_k=2
    )
    assert 4 not in excluded.tolist()


@pytest.mark.parametrize("k", [1, 3, 5])
def test_top_k_sampler_serves_any_k(k: int) -> None:
    state = PKGState.prior(6)
    state.alpha[:] = [50, 40, 30, 20, 10, 5]
    state.beta[:] = [5, 10, 20, 30, 40, 50]
    gap = boundary_gap(state, top_k=k)
    # with as many answers each, the least settled edges sit next to the k-th highest rate
    assert set(np.argsort(gap)[:2].tolist()) == {k - 1, k}


def test_a_learned_top_k_run_rebuilds_its_state_exactly_on_resume(tmp_path) -> None:
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking
    from kglens_tui.store.connection import connect

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim:7",
        sampler="top-k",
        propagation_mode="learned",
        blind_spots=20,
        iterations=7,
        batch_size=16,
        seed=3,
        stop_on_convergence=False,
        checkpoint_every=3,
    )
    engine = prepare(conn, config=config)
    assert engine.neighbourhood is None and engine.learned is not None
    snap = run_blocking(engine)
    unasked = (engine.state.m + engine.state.n) == 0
    assert not np.allclose(engine.state.alpha[unasked], 1.0)  # the learned prior reached them
    assert len(snap.blind_spots) == 20
    assert all(0 < b.from_neighbours < 1 for b in snap.blind_spots)
    assert snap.learned is not None and snap.learned.answers == 7 * 16
    rebuilt = prepare(conn, resume=engine.run.id)
    for name in ("alpha", "beta", "m", "n"):
        assert np.array_equal(getattr(rebuilt.state, name), getattr(engine.state, name)), name
    conn.execute("DELETE FROM run_checkpoint")
    replayed = prepare(conn, resume=engine.run.id)
    assert np.array_equal(replayed.state.alpha, engine.state.alpha)
    # the review's replay of the log refits as the engine did
    data = load_run_data(conn, engine.run.id)
    assert np.array_equal(data.replay(adjusted=False)[0].alpha, engine.state.alpha)
    assert np.array_equal(data.state(adjusted=False).beta, engine.state.beta)


def test_an_edge_at_the_cut_is_asked_again_only_while_it_has_few_answers() -> None:
    """An edge that fails 6 answers in 8 sits at the cut below one that failed all 8: it stays
    uncertain, but unasked edges go first (asked on and on, it kept them waiting)."""
    state = PKGState.prior(4)
    state.n[:2] = [8, 6]  # failed
    state.m[:2] = [0, 2]  # succeeded
    state.alpha += state.n
    state.beta += state.m
    gap = boundary_gap(state, top_k=1)
    assert set(np.argsort(gap)[:2].tolist()) == {2, 3}
    batch = sample_batch(Sampler.TOP_K, state, 2, np.random.default_rng(0), 1, 0, top_k=1)
    assert sorted(batch.tolist()) == [2, 3]
    state.n[2:] = state.m[2:] = 0
    state.alpha[2:] = state.beta[2:] = 1.0  # answers, not the prior, make an edge settled
    state.alpha[1], state.beta[1] = 7.0, 3.0
    state.n[1] = state.m[1] = 0
    assert np.argmin(boundary_gap(state, top_k=1)) == 1, "a prior at the cut is asked first"


@pytest.mark.parametrize("failed", [False, True])
def test_answers_all_alike_leave_an_edge_a_posterior_with_room_to_move(failed: bool) -> None:
    """Two edges, each asked twice, every answer right (or every one wrong): the fit's
    intercept runs off to infinity, yet no edge gets an error rate of exactly 0% (100%) with an
    interval of nothing: the prediction is no more extreme than 4 answers allow."""
    from kglens_tui.core.intervals import beta_interval

    p, s, o = np.array([0, 0]), np.array([0, 2]), np.array([1, 3])
    learned = LearnedPropagation(p, s, o)
    state = PKGState.prior(2)
    for iteration in (1, 2):
        both = np.array([failed, failed])
        apply_outcomes(state, np.arange(2), both, ~both, None)
        learned.after_iteration(state, iteration)
    fit = learned.fit
    assert fit is not None
    q = learned.model.predict(fit)
    edge = 0.5 / (4 + 1)
    assert np.all(q >= edge - 1e-12) and np.all(q <= 1 - edge + 1e-12)
    low, high = beta_interval(state.alpha, state.beta)
    assert np.all(high - low > 0.2), (low, high)
    assert np.all(state.alpha > 0.1) and np.all(state.beta > 0.1)


def test_the_rising_factorial_likelihood_equals_the_log_beta_one() -> None:
    """`_beta_binomial_loglik` sums logs over (edge, step) pairs instead of calling log-beta:
    the same log likelihood (up to rounding) for counts of 0 to 8 and strengths 0.3 to 1000,
    and the log-beta fallback above RISING_TERMS_MAX gives it too."""
    from scipy.special import betaln

    from kglens_tui.modes.kglens import learned

    rng = np.random.default_rng(5)
    q = rng.uniform(0.001, 0.999, 1200)
    t = rng.integers(2, 9, 1200)
    y = rng.binomial(t, q)
    exact = learned._beta_binomial_loglik(q, y, t)
    for s in (0.3, 1.0, 4.0, 77.0, 1000.0):
        want = float(np.sum(betaln(s * q + y, s * (1 - q) + t - y) - betaln(s * q, s * (1 - q))))
        assert exact(s) == pytest.approx(want, rel=1e-9, abs=1e-7)
    big = np.full(3, learned.RISING_TERMS_MAX)
    fallback = learned._beta_binomial_loglik(q[:3], big // 2, big)
    want = float(
        np.sum(
            betaln(2 * q[:3] + big // 2, 2 * (1 - q[:3]) + big // 2)
            - betaln(2 * q[:3], 2 * (1 - q[:3]))
        )
    )
    assert fallback(2.0) == pytest.approx(want, rel=1e-12)


def test_the_boundary_index_takes_the_cut_and_log_odds_as_defined() -> None:
    """One selection finds the same cut as sorting, and numpy's log-odds agree with scipy's
    `logit` to a unit or two in the last place."""
    rng = np.random.default_rng(8)
    state = PKGState.prior(3000)
    state.n[:] = rng.integers(0, 4, 3000)
    state.m[:] = rng.integers(0, 4, 3000)
    state.alpha += state.n + rng.random(3000)
    state.beta += state.m + rng.random(3000)
    # means whose selection leaves the k-th largest off its own place (numpy 2.x's introselect)
    picked = np.random.default_rng(844)
    n, k_off = int(picked.integers(300, 3000)), int(picked.integers(1, 150))
    means = picked.random(n)
    zeros = np.zeros(n, np.int32)
    off = PKGState(means, 1.0 - means, zeros, zeros.copy(), zeros.copy())
    for case, k in ((state, 1), (state, 100), (state, 2999), (off, k_off)):
        mean = np.clip(case.mean_error, 1e-6, 1 - 1e-6)
        ordered = np.sort(mean)
        cut = (ordered[-k - 1] + ordered[-k]) / 2
        expected = np.sqrt(1.0 + case.m + case.n) * (np.abs(logit(mean) - logit(cut)) + 1.0)
        assert np.allclose(boundary_gap(case, top_k=k), expected, rtol=1e-13, atol=0)


def test_refits_on_one_model_do_not_carry_state_from_one_fit_to_the_next() -> None:
    """The fit reuses scratch arrays between sweeps: fitting other counts in between leaves a
    fit of the same counts unchanged, to the bit."""
    rng = np.random.default_rng(4)
    model = ErrorModel(rng.integers(0, 5, 600), rng.integers(0, 80, 600), rng.integers(0, 80, 600))
    m, n = rng.integers(0, 3, 600), rng.integers(0, 3, 600)
    first = model.fit(m, n)
    model.fit(rng.integers(0, 5, 600), rng.integers(0, 5, 600))
    again = model.fit(m, n)
    assert (first.mu, first.strength, first.sd) == (again.mu, again.strength, again.sd)
    assert all(np.array_equal(a, b) for a, b in zip(first.effects, again.effects, strict=True))


def test_a_refit_before_any_answer_leaves_the_prediction_at_the_prior() -> None:
    """Every request failed so far: the fit has no answer to rest on and says so (S at its
    hyperprior's centre, no effects) instead of failing."""
    model = ErrorModel(np.array([0, 1, 2]), np.array([0, 1, 2]), np.array([1, 2, 0]))
    fit = model.fit(np.zeros(3, np.int32), np.zeros(3, np.int32))
    assert fit.examined == 0 and fit.mu == 0.0 and fit.strength == pytest.approx(4.0)
    assert all(not e.any() for e in fit.effects)


def test_big_graphs_refit_at_most_every_edges_per_step_iterations() -> None:
    """The refit schedule is a function of the iteration and the graph's size only: every
    iteration at first up to EDGES_PER_REFIT_STEP edges, every ceil(edges / step) beyond."""
    small = LearnedPropagation(*graph(n_edges=EDGES_PER_REFIT_STEP)[1:])
    assert [i for i in range(1, 21) if small.due(i)] == list(range(1, 21))
    _, p, s, o = graph(n_nodes=2_000, n_edges=3 * EDGES_PER_REFIT_STEP + 1)
    big = LearnedPropagation(p, s, o)
    again = LearnedPropagation(p, s, o)
    due = [i for i in range(1, 200) if big.due(i)]
    assert due[:10] == list(range(4, 41, 4))
    assert due == [i for i in range(1, 200) if again.due(i)]
    assert len(due) < len([i for i in range(1, 200) if small.due(i)])
    assert 160 in due and 161 not in due  # every iteration // 20 = 8 from iteration 160


def test_the_biggest_graphs_still_refit_every_longest_step_at_first() -> None:
    _, p, s, o = graph(n_nodes=5_000, n_edges=(LONGEST_REFIT_STEP + 5) * EDGES_PER_REFIT_STEP)
    big = LearnedPropagation(p, s, o)  # built once (not per iteration: 2 s for the 99)
    due = [i for i in range(1, 100) if big.due(i)]
    assert due == list(range(LONGEST_REFIT_STEP, 100, LONGEST_REFIT_STEP))


def test_every_bundled_kg_refits_as_often_as_ever() -> None:
    """No bundled KG is big enough for the refit step: their runs refit after each of their
    first 20 iterations (a triple per line: at least as many lines as edges)."""
    for name in bundled_names():
        with (bundled_root() / name / "triples.jsonl").open(encoding="utf-8") as lines:
            assert sum(1 for _ in lines) <= EDGES_PER_REFIT_STEP, name
