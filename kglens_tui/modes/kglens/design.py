"""The sampling design: how a batch is drawn so that every answer carries a known probability.

An adaptive sampler looks where the model fails, so a rate over the edges it examined describes the
sampler as much as the model. Each draw of a run therefore mixes two parts (active testing, Kossen
et al. 2021; active statistical inference, Zrnic and Candès 2024):

- the sampler's picks (`k - floor_size` edges, plus the edges whose last request failed): asked
  for certain given what the run knew before the draw, inclusion probability 1;
- a uniform floor (`floor_size` edges): a simple random sample, without replacement, of the other
  eligible edges, each with inclusion probability ``floor_size / eligible``.

``floor_size`` is ``floor * k`` rounded at random (its mean is exactly ``floor * k``). Each
answer is stored with its probability and with the control prediction of the edge's error rate
made before the draw (`control_predictions`), and each draw with the sum of the predictions over
every run edge (`DesignDraw`), so `estimates.design_rate` gives an unbiased KG-wide rate from the
stored rows alone. Brute force needs none of this: its epochs are a census in random order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.samplers import Sampler, sample_batch

DEFAULT_FLOOR = 0.75
"""Share of each batch drawn uniformly (`--design-floor`), chosen from the frontier that `kglens
bench rates` prints (docs/statistics.md: rates that describe the model)."""
PREDICATE_WEIGHT = 2.0
"""Control prediction without a learned model: an edge's failures shrunk towards its
predicate's failure share with the weight of this many answers."""


@dataclass(frozen=True)
class DesignDraw:
    """One draw of the design: what a stored answer's probability refers to."""

    iteration: int
    first_slot: int
    """The slot of the iteration at which this draw's edges start."""
    positions: np.ndarray
    """Drawn run-edge positions: certain ones (retries and picks) first, then the floor."""
    prob: np.ndarray
    """Inclusion probability of each drawn position given the run before the draw."""
    prediction: np.ndarray
    """The control prediction of each drawn position's error rate."""
    floor_size: int
    eligible: int
    """Edges the floor drew from (the run's edges less the certain ones and those in flight)."""
    edges: int
    """The run's edges (the population the estimate describes)."""
    total: float
    """Sum of the control predictions over every run edge."""
    predicate_totals: dict[int, float]
    """The same sum per predicate (KG predicate index)."""


def control_predictions(
    state: PKGState, predicates: npt.NDArray[np.int64], learned: bool
) -> npt.NDArray[np.float64]:
    """Each run edge's predicted error rate from the answers so far (the control variate): the
    learned model's posterior mean when the run learns one, else the edge's own failures shrunk
    towards its predicate's failure share (PREDICATE_WEIGHT answers' worth)."""
    if learned:
        mean = state.mean_error
        return np.clip(mean, 0.0, 1.0, out=mean)
    fails = state.n.astype(np.float64)
    asked = fails + state.m
    size = int(predicates.max()) + 1 if len(predicates) else 0
    pred_fails = np.bincount(predicates, weights=fails, minlength=size)
    pred_asked = np.bincount(predicates, weights=asked, minlength=size)
    share = (pred_fails + 0.5) / (pred_asked + 1.0)
    return (fails + PREDICATE_WEIGHT * share[predicates]) / (asked + PREDICATE_WEIGHT)


def floor_size(k: int, floor: float, rng: np.random.Generator) -> int:
    """``floor * k`` rounded up or down at random, so that its mean is exactly ``floor * k``."""
    exact = max(0.0, min(1.0, floor)) * k
    whole = int(exact)
    return whole + int(rng.random() < exact - whole)


def draw_batch(
    pick: Callable[[int, np.ndarray], np.ndarray],
    allowed: np.ndarray,
    certain: np.ndarray,
    k: int,
    floor: float,
    rng: np.random.Generator,
    barred: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Draw ``k`` edges besides the ``certain`` ones: ``pick(count, allowed)`` chooses the
    sampler's part, then a simple random sample of the remaining ``allowed`` edges the floor.
    ``barred``, when the caller has it: the positions ``allowed`` leaves out, sorted (what
    ``np.flatnonzero(~allowed)`` gives, without a pass over every edge).

    Returns (positions of the sampler's picks then the floor's, their inclusion probabilities,
    the floor's size, the number of edges it drew from)."""
    barred = np.flatnonzero(~allowed) if barred is None else barred
    size = min(floor_size(k, floor, rng), len(allowed) - len(barred))
    picks = np.asarray(pick(k - size, allowed) if k - size > 0 else [], dtype=np.int64)
    # the positions the floor may not draw, sorted and each once: those barred, the sampler's
    # picks and the certain ones (a few dozen: no pass over every edge)
    left_out = np.union1d(barred, np.concatenate((picks, np.asarray(certain, dtype=np.int64))))
    eligible = len(allowed) - len(left_out)
    size = min(size, eligible)
    # the same draw as choosing from the eligible positions themselves (choice draws indexes
    # into what it is given), without listing every one of them
    chosen = (
        nth_eligible(rng.choice(eligible, size=size, replace=False), left_out)
        if size
        else left_out[:0]
    )
    prob = np.concatenate((np.ones(len(picks)), np.full(size, size / eligible if size else 0.0)))
    return np.concatenate((picks, chosen)).astype(np.int64), prob, size, eligible


def nth_eligible(index: np.ndarray, left_out: np.ndarray) -> np.ndarray:
    """The positions that are ``index``-th (from 0) among 0, 1, 2, ... once the sorted
    ``left_out`` positions are skipped: ``np.flatnonzero(pool)[index]`` for the pool that
    leaves them out, without building it."""
    before = left_out - np.arange(len(left_out))  # eligible positions before each left out
    index = np.asarray(index, dtype=np.int64)
    return index + np.searchsorted(before, index, side="right")


def is_census(sampler: str, batch_size: int, edges: int) -> bool:
    """Whether every iteration of a run asks every one of its ``edges``: brute force, or a batch
    at least as large as the run (any sampler then takes them all, each with certainty, and its
    design has no floor to estimate from). Its KG-wide rates are a census's."""
    return sampler == Sampler.BRUTE_FORCE or batch_size >= edges


def whole_iterations(
    iterations: npt.NDArray[np.int64], positions: npt.NDArray[np.int64], edges: int
) -> npt.NDArray[np.bool_]:
    """Per answer (its iteration and run-edge position): whether its iteration asked every one
    of the run's ``edges``. A census of a batch as large as the run rests on these: an iteration
    a budget cut short asked the sampler's picks and a floor, and its picks are no random
    sample."""
    its = np.asarray(iterations, dtype=np.int64)
    if not len(its):
        return np.zeros(0, dtype=bool)
    pairs = np.unique(np.stack((its, np.asarray(positions, dtype=np.int64)), axis=1), axis=0)
    numbers, covered = np.unique(pairs[:, 0], return_counts=True)
    return np.isin(its, numbers[covered >= edges])


def designed_sample(
    sampler: str,
    state: PKGState,
    k: int,
    rng: np.random.Generator,
    iteration: int,
    seed: int,
    floor: float,
    *,
    exclude: np.ndarray | None = None,
    certain: np.ndarray | None = None,
    epsilon: float = 0.1,
    top_k: int = 100,
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """`draw_batch` with a registered sampler choosing its part: k edges besides the `certain`
    ones (already chosen, e.g. retries), none of the `exclude` ones. Brute force is a census
    and takes no floor: its batch comes back with probabilities 1 and a floor of 0."""
    certain = np.empty(0, dtype=np.int64) if certain is None else certain
    exclude = np.empty(0, dtype=np.int64) if exclude is None else exclude
    if sampler == Sampler.BRUTE_FORCE:
        batch = sample_batch(
            sampler, state, k, rng, iteration, seed, exclude=np.concatenate((exclude, certain))
        )
        return batch, np.ones(len(batch)), 0, 0
    allowed = np.ones(len(state.alpha), dtype=bool)
    allowed[exclude] = False
    allowed[certain] = False
    barred = np.union1d(exclude, certain).astype(np.int64)  # np.flatnonzero(~allowed)

    def pick(count: int, allowed: np.ndarray) -> np.ndarray:
        return sample_batch(
            sampler,
            state,
            count,
            rng,
            iteration,
            seed,
            exclude=barred,  # what `allowed` leaves out (draw_batch passes it unchanged)
            epsilon=epsilon,
            top_k=top_k,
        )

    return draw_batch(pick, allowed, certain, k, floor, rng, barred)
