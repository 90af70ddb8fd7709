"""Edge samplers: Thompson (the paper's), epsilon-greedy, Monte Carlo, brute force, and top-k
(past the paper: the edges whose place among the k blind spots is least certain)."""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from kglens_tui.probe.pkg import PKGState


class Sampler(StrEnum):
    THOMPSON = "thompson"
    EPSILON_GREEDY = "epsilon-greedy"
    MONTE_CARLO = "monte-carlo"
    BRUTE_FORCE = "brute-force"
    TOP_K = "top-k"


TOLERANCE = 0.05
"""Top-k: an edge within this distance of the k-th error rate counts as settled once its
posterior is that narrow (asking it more would not change which rates the list shows)."""


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
    top_k: int = 100,
) -> np.ndarray:
    """Positions of the next k edges to ask about. `exclude` positions are never returned.
    `top_k` is how many blind spots the top-k sampler looks for."""
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
    elif sampler is Sampler.TOP_K:
        scores = boundary_uncertainty(state, top_k)
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


def boundary_uncertainty(state: PKGState, top_k: int, tolerance: float = TOLERANCE) -> np.ndarray:
    """How uncertain each edge's membership of the top k is: the smaller of its posterior
    probabilities of lying above the k-th error rate (plus `tolerance`) and below it (minus
    `tolerance`). An edge surely in or surely out scores 0, and so does one known to sit at the
    cut-off (which side it falls on changes the list's error rates by at most `tolerance`).
    Beta tails are approximated by a normal on the logit scale (exact mean and variance of
    logit theta, digamma and trigamma by one recurrence step and their series)."""
    from scipy.special import ndtr  # not at import: the CLI starts without scipy

    a, b = state.alpha, state.beta
    mean = a / (a + b)
    n = len(mean)
    k = min(max(top_k, 1), n - 1) if n > 1 else 1
    if n <= 1:
        return np.zeros(n)
    part = np.partition(mean, (n - k - 1, n - k))
    cut = float(part[n - k - 1] + part[n - k]) / 2
    centre = _digamma(a) - _digamma(b)
    spread = np.sqrt(_trigamma(a) + _trigamma(b))
    high = _logit(min(cut + tolerance, 1 - 1e-6))
    low = _logit(max(cut - tolerance, 1e-6))
    above = ndtr((centre - high) / spread)
    below = ndtr((low - centre) / spread)
    return np.minimum(above, below)


def _logit(x: float) -> float:
    return float(np.log(x / (1 - x)))


def _digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = psi(x + 1) - 1 / x, then the series at x + 1 >= 1 (error < 0.01)."""
    y = x + 1.0
    inv = 1.0 / y
    return np.log(y) - inv / 2 - inv * inv / 12 - 1.0 / x


def _trigamma(x: np.ndarray) -> np.ndarray:
    """psi'(x) = psi'(x + 1) + 1 / x**2, then the series at x + 1 >= 1 (error < 0.03)."""
    y = x + 1.0
    inv = 1.0 / y
    return inv + inv * inv / 2 + inv**3 / 6 + 1.0 / (x * x)
