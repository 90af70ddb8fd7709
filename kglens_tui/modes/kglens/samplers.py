"""Edge samplers: Thompson (the paper's), epsilon-greedy, Monte Carlo, brute force, and top-k
(past the paper: the edges whose side of the k blind spots' cut-off is least settled)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from kglens_tui.core.registry import Registry
from kglens_tui.modes.kglens.pkg import PKGState


class Sampler(StrEnum):
    """The built-in samplers (a plugin adds one with `register_sampler`)."""

    THOMPSON = "thompson"
    EPSILON_GREEDY = "epsilon-greedy"
    MONTE_CARLO = "monte-carlo"
    BRUTE_FORCE = "brute-force"
    TOP_K = "top-k"


GAP_SLACK = 1.0
"""Top-k: added to every edge's distance from the cut (logit scale) before it is weighed by the
square root of the edge's answers (see `boundary_gap`)."""


def thompson_draws(state: PKGState, rng: np.random.Generator) -> np.ndarray:
    """theta ~ Beta(alpha, beta) for every edge. Beta(1, 1) is Uniform(0, 1), so edges still at
    the prior get a cheap uniform draw and only the touched ones a beta draw."""
    scores = rng.random(len(state.alpha))
    touched = np.flatnonzero((state.alpha != 1.0) | (state.beta != 1.0))
    if len(touched):
        scores[touched] = rng.beta(state.alpha[touched], state.beta[touched])
    return scores


_SCRATCH = threading.local()


def scratch(name: str, size: int, dtype: type[np.generic] = np.float64) -> npt.NDArray[Any]:
    """This thread's reusable array of `size` values (floats unless `dtype` says) called `name`,
    for values that do not outlive the call: on a large graph a fresh array per step costs more
    than the arithmetic (the pages are the system's to zero), so a sampler's working arrays are
    kept."""
    arrays: dict[str, npt.NDArray[Any]] | None = getattr(_SCRATCH, "arrays", None)
    if arrays is None:
        arrays = _SCRATCH.arrays = {}
    array = arrays.get(name)
    if array is None or len(array) != size or array.dtype != dtype:
        array = arrays[name] = np.empty(size, dtype=dtype)
    return array


def _top(scores: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Indexes of the k largest scores, ties broken at random, highest first."""
    if k >= len(scores):
        order = np.lexsort((rng.random(len(scores)), -scores))
        return order[:k]
    # minus (scores + 1e-9 u), built in one reused array: a large graph pays for every fresh one
    jitter = rng.random(out=scratch("top.jitter", len(scores)))
    jitter *= 1e-9
    jitter += scores
    np.negative(jitter, out=jitter)
    part = np.argpartition(jitter, k - 1)[:k]
    return part[np.argsort(jitter[part], kind="stable")]


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
    masked = scores if request.allowed.all() else np.where(request.allowed, scores, -np.inf)
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
    k = min(k, int(np.count_nonzero(allowed)))
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
    gap = boundary_gap(r.state, r.top_k)
    return top_scores(r, np.negative(gap, out=gap))


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


def boundary_gap(state: PKGState, top_k: int, slack: float = GAP_SLACK) -> npt.NDArray[np.float64]:
    """How settled each edge's side of the top k is: sqrt(1 + answers) (|logit mean - logit cut|
    + slack), the cut halfway between the k-th and (k+1)-th posterior means; the top-k sampler
    asks the smallest. APT's index for thresholding bandits (Locatelli et al., 2016) with the
    cut as the threshold, on the logit scale: an edge near the cut is asked again only while it
    has few answers of its own, so an edge sitting at the cut (a tie at the top, one failing 3
    answers in 4 against a list failing every time) is not asked on and on while unasked edges
    wait. Chosen by the efficiency study (docs/efficiency-study.md)."""
    n = len(state.alpha)
    if n <= 1:
        return np.zeros(n)
    mean = np.add(state.alpha, state.beta, out=scratch("gap.mean", n))
    np.divide(state.alpha, mean, out=mean)  # the posterior mean, as `mean_error` gives it
    np.clip(mean, 1e-6, 1 - 1e-6, out=mean)
    cut = sum(_kth_largest_two(mean, min(max(top_k, 1), n - 1))) / 2
    gap = _logit(mean)
    gap -= _logit(np.array([cut]))[0]
    np.abs(gap, out=gap)
    gap += slack
    # the answers (m + n) added as integers, then made floats and the 1 added (exact either way;
    # a float add of two integer arrays converts both on the way, at twice the cost)
    counts = np.add(state.m, state.n, out=scratch("gap.counts", n, state.m.dtype.type))
    answered = scratch("gap.answered", n)
    answered[:] = counts
    answered += 1.0
    gap *= np.sqrt(answered, out=answered)
    return gap


_SAMPLE_STEP = 16
"""`_kth_largest_two` guesses a threshold from every 16th value."""


def _kth_largest_two(values: npt.NDArray[np.float64], k: int) -> tuple[float, float]:
    """The k-th and (k+1)-th largest of `values` (0 < k < len), exactly as a partition of them
    all gives, from the few values at or above a threshold guessed from a strided sample: a
    partition of every edge's mean costs ten times more where most of them tie (edges at the
    same prior), which is where a run starts."""
    n = len(values)
    sample = values[::_SAMPLE_STEP].copy()
    m = min(len(sample), 2 * (k + 1) // _SAMPLE_STEP + 8)
    t = float(np.partition(sample, len(sample) - m)[len(sample) - m])
    above = values[values > t]
    at = int(np.count_nonzero(values == t))
    if len(above) >= k + 1:
        j = len(above) - k - 1
        above.partition(j)
        return float(above[j + 1 :].min()), float(above[j])
    if len(above) + at >= k + 1:  # the (k+1)-th largest is t itself
        return (float(above.min()) if len(above) == k else t), t
    part = scratch("gap.part", n)
    part[:] = values
    part.partition(n - k - 1)
    return float(part[n - k :].min()), float(part[n - k - 1])


def _logit(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """log(p / (1 - p)) for p strictly between 0 and 1: numpy's own ufuncs, several times
    faster than scipy's `logit` over every edge (which also takes another formula near 1/2:
    the two differ by a unit or two in the last place)."""
    odds = 1.0 - p
    np.divide(p, odds, out=odds)
    return np.log(odds, out=odds)


for _name, _fn in (
    (Sampler.THOMPSON, _thompson),
    (Sampler.EPSILON_GREEDY, _greedy),
    (Sampler.MONTE_CARLO, _monte_carlo),
    (Sampler.BRUTE_FORCE, _brute),
    (Sampler.TOP_K, _top_k),
):
    register_sampler(str(_name), _fn)
