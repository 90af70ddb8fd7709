"""Eq. 1-3 of the paper on a hand-made graph, with values worked out by hand."""

from __future__ import annotations

import numpy as np

from kglens_tui.kg.graph import Neighbourhood
from kglens_tui.modes.kglens.pkg import (
    PKGState,
    RateCounts,
    Rates,
    apply_outcomes,
    converged,
    rates,
    stable_iterations,
)

# Nodes A=0 B=1 C=2 D=3 E=4. Edges: e0 A->B, e1 B->C, e2 C->D, e3 A->C, e4 D->E.
SUBJ = np.array([0, 1, 2, 0, 3])
OBJ = np.array([1, 2, 3, 2, 4])


def test_eq2_eq3_with_propagation_by_hand() -> None:
    nb = Neighbourhood(SUBJ, OBJ, n_nodes=5)
    state = PKGState.prior(5)
    # Evaluate e0 (failed) and e2 (correct).
    apply_outcomes(state, np.array([0, 2]), np.array([True, False]), np.array([False, True]), nb)
    # Neighbours of e0 (A, B): e1 (B), e3 (A).  Neighbours of e2 (C, D): e1, e3 (C), e4 (D).
    # alpha = 1 + 1[failed] + M:  e0: 1+1+0, e1: 1+0+1, e2: 1+0+0, e3: 1+0+1, e4: 1
    # beta  = 1 + 1[correct] + N: e0: 1,     e1: 1+0+1, e2: 1+1+0, e3: 1+0+1, e4: 1+0+1
    assert state.alpha.tolist() == [2, 2, 1, 2, 1]
    assert state.beta.tolist() == [1, 2, 2, 2, 2]
    # Observed counts carry no pseudo-counts: m successes, n failures.
    assert state.m.tolist() == [0, 0, 1, 0, 0]
    assert state.n.tolist() == [1, 0, 0, 0, 0]


def test_without_propagation_only_evaluated_edges_move() -> None:
    state = PKGState.prior(5)
    apply_outcomes(state, np.array([0, 2]), np.array([True, False]), np.array([False, True]), None)
    assert state.alpha.tolist() == [2, 1, 1, 1, 1]
    assert state.beta.tolist() == [1, 1, 2, 1, 1]


def test_propagation_weight_scales_pseudo_counts() -> None:
    nb = Neighbourhood(SUBJ, OBJ, n_nodes=5)
    state = PKGState.prior(5)
    apply_outcomes(state, np.array([0]), np.array([True]), np.array([False]), nb, weight=0.5)
    assert state.alpha.tolist() == [2, 1.5, 1, 1.5, 1]
    assert state.beta.tolist() == [1, 1, 1, 1, 1]


def test_errors_change_nothing_but_the_error_counter() -> None:
    nb = Neighbourhood(SUBJ, OBJ, n_nodes=5)
    state = PKGState.prior(5)
    apply_outcomes(state, np.array([1]), np.array([False]), np.array([False]), nb)
    assert state.alpha.tolist() == [1] * 5 and state.beta.tolist() == [1] * 5
    assert state.err.tolist() == [0, 1, 0, 0, 0]
    apply_outcomes(state, np.array([1]), np.array([False]), np.array([True]), nb)
    assert state.err.tolist() == [0, 0, 0, 0, 0]


def test_rates_follow_the_paper_definitions() -> None:
    m = np.array([3, 0, 2, 1, 0])
    n = np.array([0, 2, 2, 0, 0])  # the last edge was never examined
    r = rates(m, n)
    assert r.examined == 4
    assert r.win == 2 / 4  # m > n: edges 0 and 3
    assert r.zero_sense == 1 / 4  # m == 0: edge 1
    assert r.all_sense == 2 / 4  # n == 0: edges 0 and 3
    assert rates(np.zeros(3), np.zeros(3)) == Rates(0, None, None, None)


def test_convergence_needs_all_three_rates_stable() -> None:
    stable = [Rates(10, 0.5, 0.2, 0.3)] * 6
    assert converged(stable, window=5, tolerance=0.005)
    assert not converged(stable[:5], window=5, tolerance=0.005)
    moving = stable[:-1] + [Rates(10, 0.5, 0.2, 0.31)]
    assert not converged(moving, window=5, tolerance=0.005)


def test_stable_iterations_follow_the_convergence_rule() -> None:
    """A slow drift (each step under the tolerance, the window's span over it) is not stable
    for the whole window: the count the live screen shows never reads 5 of 5 unconverged."""
    drift = [Rates(10, 0.5 + 0.002 * i, 0.2, 0.3) for i in range(8)]
    assert stable_iterations(drift, window=5, tolerance=0.005) == 2  # 0.004 span over 3
    assert not converged(drift, window=5, tolerance=0.005)
    flat = [Rates(10, 0.4, 0.2, 0.3)] * 2 + [Rates(10, 0.5, 0.2, 0.3)] * 6
    assert [stable_iterations(flat[:k], 5, 0.005) for k in (1, 3, 5, 8)] == [0, 0, 2, 5]
    assert converged(flat, 5, 0.005) and not converged(flat[:7], 5, 0.005)


def test_degree_mode_adds_the_mean_of_neighbour_outcomes() -> None:
    nb = Neighbourhood(SUBJ, OBJ, n_nodes=5)
    counts = nb.neighbour_counts()
    assert counts.tolist() == [2, 3, 3, 3, 1]  # e0: e1,e3; e1: e0,e2,e3; e2: e1,e3,e4; e4: e2
    state = PKGState.prior(5)
    scale = 1.0 / counts
    apply_outcomes(
        state, np.array([0, 2]), np.array([True, False]), np.array([False, True]), nb, scale=scale
    )
    # e1 and e3 each have one failed (e0) and one succeeded (e2) neighbour among 3 neighbours
    assert state.alpha.tolist() == [2, 1 + 1 / 3, 1, 1 + 1 / 3, 1]
    assert state.beta.tolist() == [1, 1 + 1 / 3, 2, 1 + 1 / 3, 1 + 1]


def test_rate_counts_kept_from_the_touched_edges_equal_a_full_recount() -> None:
    """What the engine does after each iteration: the touched edges' counts taken out before the
    update and put back after give the same rates as counting every edge again."""
    rng = np.random.default_rng(3)
    state = PKGState.prior(200)
    kept = RateCounts.of(state.m, state.n)
    for _ in range(60):
        pos = rng.integers(0, 200, 16)
        failed = rng.random(16) < 0.4
        succeeded = ~failed & (rng.random(16) < 0.9)  # the rest are transport errors
        touched = np.unique(pos)
        before = RateCounts.of(state.m[touched], state.n[touched])
        apply_outcomes(state, pos, failed, succeeded, None)
        kept += RateCounts.of(state.m[touched], state.n[touched]) - before
        assert kept == RateCounts.of(state.m, state.n)
        assert kept.rates() == rates(state.m, state.n)
    assert kept.examined > 0 and 0 < kept.won < kept.examined
