"""Edge samplers: Thompson (the paper's default), epsilon-greedy, Monte Carlo and brute force."""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from kglens_tui.probe.pkg import PKGState


class Sampler(StrEnum):
    THOMPSON = "thompson"
    EPSILON_GREEDY = "epsilon-greedy"
    MONTE_CARLO = "monte-carlo"
    BRUTE_FORCE = "brute-force"


def thompson_draws(state: PKGState, rng: np.random.Generator) -> np.ndarray:
    """theta ~ Beta(alpha, beta) for every edge. Beta(1, 1) is Uniform(0, 1), so edges still at
    the prior get a cheap uniform draw and only the touched ones a beta draw."""
    scores = rng.random(len(state.alpha))
    touched = np.flatnonzero((state.alpha != 1.0) | (state.beta != 1.0))
    if len(touched):
        scores[touched] = rng.beta(state.alpha[touched], state.beta[touched])
    return scores


def _top(scores: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Indexes of the k largest scores, ties broken at random, highest first."""
    if k >= len(scores):
        order = np.lexsort((rng.random(len(scores)), -scores))
        return order[:k]
    jitter = scores + rng.random(len(scores)) * 1e-9
    part = np.argpartition(-jitter, k - 1)[:k]
    return part[np.argsort(-jitter[part], kind="stable")]


def sample_batch(
    sampler: Sampler,
    state: PKGState,
    k: int,
    rng: np.random.Generator,
    iteration: int,
    seed: int,
    exclude: np.ndarray | None = None,
    epsilon: float = 0.1,
) -> np.ndarray:
    """Positions of the next k edges to ask about. `exclude` positions are never returned."""
    n_edges = len(state.alpha)
    allowed = np.ones(n_edges, dtype=bool)
    if exclude is not None and len(exclude):
        allowed[exclude] = False
    k = min(k, int(allowed.sum()))
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    if sampler is Sampler.BRUTE_FORCE:
        return _brute_force(n_edges, k, iteration, seed, allowed)
    if sampler is Sampler.THOMPSON:
        scores = thompson_draws(state, rng)
    elif sampler is Sampler.EPSILON_GREEDY:
        return _epsilon_greedy(state, k, rng, allowed, epsilon)
    elif sampler is Sampler.MONTE_CARLO:
        scores = rng.random(n_edges)
    else:
        raise ValueError(f"unknown sampler {sampler!r}")
    scores = np.where(allowed, scores, -np.inf)
    return _top(scores, k, rng).astype(np.int64)


def _brute_force(
    n_edges: int, k: int, iteration: int, seed: int, allowed: np.ndarray
) -> np.ndarray:
    """Round-robin epochs: every edge once per epoch, in a fresh shuffled order each epoch.

    Iteration i (from 1) takes the next k edges of the sequence that chains the epochs.
    """
    start = (iteration - 1) * k
    picked: list[int] = []
    offset = start
    while len(picked) < k:
        epoch, index = divmod(offset, n_edges)
        order = np.random.default_rng([seed, 7919, epoch]).permutation(n_edges)
        take = order[index : index + (k - len(picked))]
        picked.extend(int(x) for x in take if allowed[x])
        offset += len(take)
        if offset - start > 3 * n_edges:
            break
    return np.array(picked[:k], dtype=np.int64)


def _epsilon_greedy(
    state: PKGState, k: int, rng: np.random.Generator, allowed: np.ndarray, epsilon: float
) -> np.ndarray:
    """Each slot explores (a uniformly random edge) with probability epsilon, else exploits (the
    highest posterior mean error rate)."""
    n_explore = int(rng.binomial(k, epsilon))
    greedy_scores = np.where(allowed, state.mean_error, -np.inf)
    greedy = _top(greedy_scores, k - n_explore, rng)
    rest = allowed.copy()
    rest[greedy] = False
    pool = np.flatnonzero(rest)
    explore = rng.choice(pool, size=min(n_explore, len(pool)), replace=False)
    return np.concatenate((greedy, explore)).astype(np.int64)
