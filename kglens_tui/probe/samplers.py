"""Edge samplers: Thompson (the paper's), epsilon-greedy, Monte Carlo, brute force, and top-k
(past the paper: the edges whose place among the k blind spots is least certain)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from kglens_tui.core.registry import Registry
from kglens_tui.probe.pkg import PKGState


class Sampler(StrEnum):
    """The built-in samplers (a plugin adds one with `register_sampler`)."""

    THOMPSON = "thompson"
    EPSILON_GREEDY = "epsilon-greedy"
    MONTE_CARLO = "monte-carlo"
    BRUTE_FORCE = "brute-force"
    TOP_K = "top-k"


TOLERANCE = 0.05
"""Top-k: an edge within this distance of the k-th error rate counts as settled once its
posterior is that narrow (asking it more would not change which rates the list shows)."""
GRID, GRID_LOGIT = 2048, 14.0
INTERPOLATE_FROM = 4096
"""Top-k: with more unasked edges than this, their scores are interpolated (see
`boundary_uncertainty`)."""


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


@dataclass(frozen=True)
class SampleRequest:
    """What a sampler picks from: the PKG, how many edges, and which it may pick."""

    state: PKGState
    k: int
    """How many positions to return (at most the allowed ones; at least one)."""
    rng: np.random.Generator
    iteration: int
    seed: int
    allowed: np.ndarray
    """Boolean mask over edge positions."""
    epsilon: float = 0.1
    top_k: int = 100


SamplerFn = Callable[[SampleRequest], np.ndarray]
"""A sampler: the positions of the next edges to ask (distinct, allowed, len <= k)."""

SAMPLERS: Registry[SamplerFn] = Registry(
    "sampler", "kglens_tui.samplers", {str(s): __name__ for s in Sampler}
)


def register_sampler(name: str, sampler: SamplerFn, module: str | None = None) -> SamplerFn:
    """Make ``sampler`` available by name (`--sampler`, the new-run form, the study);
    ``module`` is where a run's process finds it (default: the function's module)."""
    return SAMPLERS.register(name, sampler, module or sampler.__module__)


def sampler_names() -> list[str]:
    """Every sampler's name, the built-in ones first."""
    return SAMPLERS.names()


def top_scores(request: SampleRequest, scores: np.ndarray) -> np.ndarray:
    """The k allowed positions with the highest scores (ties at random), highest first: a
    sampler that scores every edge ends with this."""
    masked = np.where(request.allowed, scores, -np.inf)
    return _top(masked, request.k, request.rng).astype(np.int64)


def sample_batch(
    sampler: str,
    state: PKGState,
    k: int,
    rng: np.random.Generator,
    iteration: int,
    seed: int,
    exclude: np.ndarray | None = None,
    epsilon: float = 0.1,
    top_k: int = 100,
) -> np.ndarray:
    """Positions of the next k edges to ask about, by the sampler registered as ``sampler``.
    `exclude` positions are never returned. `top_k` is how many blind spots the top-k sampler
    looks for."""
    n_edges = len(state.alpha)
    allowed = np.ones(n_edges, dtype=bool)
    if exclude is not None and len(exclude):
        allowed[exclude] = False
    k = min(k, int(allowed.sum()))
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    pick = SAMPLERS.get(str(sampler))
    request = SampleRequest(state, k, rng, iteration, seed, allowed, epsilon, top_k)
    return np.asarray(pick(request), dtype=np.int64)


def _thompson(r: SampleRequest) -> np.ndarray:
    return top_scores(r, thompson_draws(r.state, r.rng))


def _monte_carlo(r: SampleRequest) -> np.ndarray:
    return top_scores(r, r.rng.random(len(r.state.alpha)))


def _top_k(r: SampleRequest) -> np.ndarray:
    return top_scores(r, boundary_uncertainty(r.state, r.top_k))


def _brute(r: SampleRequest) -> np.ndarray:
    return _brute_force(len(r.state.alpha), r.k, r.iteration, r.seed, r.allowed)


def _greedy(r: SampleRequest) -> np.ndarray:
    return _epsilon_greedy(r.state, r.k, r.rng, r.allowed, r.epsilon)


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

    The edges' priors are read through `lift_prior` (a no-op for Beta(1, 1)). Beta tails are
    approximated by a normal on the logit scale (exact mean and variance of logit theta, digamma
    and trigamma by one recurrence step and their series). Edges never asked whose priors have
    one strength (Beta(1, 1), or learned propagation's Beta(S q, S (1 - q))) score by
    interpolation in their prior mean, so a big graph stays fast."""
    n = len(state.alpha)
    if n <= 1:
        return np.zeros(n)
    lift = lift_prior(state.alpha - state.n, state.beta - state.m)
    a, b = state.alpha + lift, state.beta + lift
    total = a + b
    mean = a / total
    k = min(max(top_k, 1), n - 1)
    part = np.partition(mean, (n - k - 1, n - k))
    cut = float(part[n - k - 1] + part[n - k]) / 2
    fresh = (state.m == 0) & (state.n == 0)
    fresh_total = (state.alpha + state.beta)[fresh]
    if len(fresh_total) > INTERPOLATE_FROM and np.ptp(fresh_total) < 1e-9 * fresh_total[0]:
        strength = float(fresh_total[0])
        # linear interpolation on a uniform grid of logit(mean) (np.interp's search is slower)
        grid = np.linspace(-GRID_LOGIT, GRID_LOGIT, GRID + 1)
        inner = 1.0 / (1.0 + np.exp(-grid))
        grid_a, grid_b = inner * strength, (1 - inner) * strength
        grid_lift = lift_prior(grid_a, grid_b)
        on_grid = _uncertainty(grid_a + grid_lift, grid_b + grid_lift, cut, tolerance)
        # interpolated in the prior mean as given (the lift is a function of it here)
        fresh_mean = np.clip(state.alpha[fresh] / fresh_total, 1e-12, 1 - 1e-12)
        x = (np.log(fresh_mean / (1 - fresh_mean)) + GRID_LOGIT) * (GRID / (2 * GRID_LOGIT))
        x = np.clip(x, 0.0, GRID - 1e-9)
        i = x.astype(np.int64)
        w = x - i
        scores = np.empty(n)
        scores[fresh] = on_grid[i] * (1 - w) + on_grid[i + 1] * w
        rest = np.flatnonzero(~fresh)
        scores[rest] = _uncertainty(a[rest], b[rest], cut, tolerance)
        return scores
    return _uncertainty(a, b, cut, tolerance)


def lift_prior(prior_alpha: np.ndarray, prior_beta: np.ndarray) -> np.ndarray:
    """Pseudo-answers of each kind the top-k sampler adds to an edge's prior (the part of its
    posterior that is not its own answers) before reading it: 2 (1 - b0), at most 1, for a
    prior with mean q >= 1/2 holding b0 < 1 pseudo-successes, tapering to 0 as q falls to 1/4.
    Such a prior (learned propagation's Beta(S q, S (1 - q)) with a high prediction q or a weak
    S) piles its mass at an error rate of 1, so every unasked edge it covers reads as likely to
    belong among the k highest rates and the sampler asks each once before settling any; read
    lifted, it settles the list first. A prior of low mean keeps its shape (its mass near 1 is
    the chance of a rare blind spot, worth exploring), and Beta(1, 1) or any prior with a
    pseudo-success or more is read as it is. Chosen by the efficiency study (README, "Efficiency
    study"): it cuts the requests `top-k + learned` needs on real-model truths, most on shuffled
    ones, and leaves the simulated truths as they were."""
    q = prior_alpha / np.maximum(prior_alpha + prior_beta, 1e-12)
    return np.clip(2.0 * (1.0 - prior_beta), 0.0, 1.0) * np.clip(4.0 * q - 1.0, 0.0, 1.0)


def _uncertainty(a: np.ndarray, b: np.ndarray, cut: float, tolerance: float) -> np.ndarray:
    """min(P(theta > cut + tolerance), P(theta < cut - tolerance)) for Beta(a, b): logit theta
    taken as normal, its tails by the logistic approximation Phi(x) ~ sigmoid(1.702 x) (off by
    under 0.01; the ranking of uncertain edges is what counts)."""
    centre = _digamma(a) - _digamma(b)
    scale = 1.702 / np.sqrt(_trigamma(a) + _trigamma(b))
    high = _logit(min(cut + tolerance, 1 - 1e-6))
    low = _logit(max(cut - tolerance, 1e-6))
    # the smaller tail is the one on the far side of the nearer bound
    gap = np.maximum(high - centre, centre - low) * scale
    return 1.0 / (1.0 + np.exp(np.minimum(gap, 700.0)))


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


for _name, _fn in (
    (Sampler.THOMPSON, _thompson),
    (Sampler.EPSILON_GREEDY, _greedy),
    (Sampler.MONTE_CARLO, _monte_carlo),
    (Sampler.BRUTE_FORCE, _brute),
    (Sampler.TOP_K, _top_k),
):
    register_sampler(str(_name), _fn)
