"""The sampling design: a rolling census beside the sampler's picks, so that every KG-wide rate
describes the model and not where the sampler looked.

An adaptive sampler looks where the model fails, so a rate over the edges it examined describes the
sampler as much as the model (active testing, Kossen et al. 2021; active statistical inference,
Zrnic and Candès 2024: known probabilities make it unbiased again). Each draw of a run mixes two
parts:

- a **floor** (`floor_size` edges, ``floor * k`` on average): the next edges of a rolling census
  (`RollingFloor`), a random permutation of the run's edges walked pass after pass, whatever the
  sampler picks or has in flight. The floor's answers are a census in random order, exactly as
  brute force's are: every edge is asked once per pass, and a pass cut short is a simple random
  sample of the edges. A tenth of the first pass's visits re-ask edges it asked earlier
  (`first_pass`), so that the answers' own noise is measured, not bounded, before a second
  pass. Each visit is stored with its pass (``observation.floor_pass``);
- the sampler's **picks** (the rest of the batch, plus the edges whose last request failed), which
  hunt the blind spots and enter no KG-wide rate.

The KG-wide rates are estimated from the floor's answers alone, as brute force's census is
(`estimates.census_rate`, `sense_rates.census_pair_rate`): with floor f they have the precision
of brute force at f times the requests. ``kglens bench rates`` checks bias, coverage and width by
simulation. A floor answer lost to a failed request is missing from its pass; the fault is
independent of the model's answer, so the answered ones remain a random sample.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.samplers import Sampler, sample_batch

DEFAULT_FLOOR = 0.75
"""Share of each batch drawn from the rolling census (`--design-floor`), chosen from the frontier
that `kglens bench rates` prints (docs/statistics.md: rates that describe the model)."""
FLOOR_STREAM = 40503
"""The rolling census's random stream (apart from brute force's and the sampler's)."""
REASK_STREAM = 1
"""The first pass's re-asks' stream, under FLOOR_STREAM's."""
REASK_SHARE = 0.1
"""Share of the first pass's visits that re-ask an edge the pass has asked already: without
them a run's first epoch has no edge answered twice, and its interval must bound each edge's
noise by p (1 - p), which covers far more than 95% where the errors sit on a few edges."""


class RollingFloor:
    """The floor's census: pass p asks the run's edges in the order of a permutation drawn from
    (seed, FLOOR_STREAM, p), the first pass with its re-asks (`first_pass`); `take` hands out
    the next edges and moves on. Its place is the number of floor visits stored per pass, so a
    resumed run goes on where the stored rows end."""

    def __init__(
        self, n_edges: int, seed: int, pass_: int = 0, offset: int = 0, gap: int = 1
    ) -> None:
        self.n_edges = n_edges
        self.seed = seed
        self.gap = max(1, gap)
        """Visits between an edge's first ask and its re-ask, at least: the run's batch size,
        so that a draw never holds an edge twice."""
        self.pass_ = pass_
        self.offset = offset
        self._order: np.ndarray | None = None
        self._order_pass = -1
        while n_edges and self.offset >= len(self.order(self.pass_)):
            self.offset -= len(self.order(self.pass_))
            self.pass_ += 1

    def order(self, pass_: int) -> npt.NDArray[np.int64]:
        """Pass ``pass_``'s visits: a permutation of the run's edge positions, the first pass
        with its re-asks."""
        if self._order is None or self._order_pass != pass_:
            rng = np.random.default_rng([self.seed, FLOOR_STREAM, pass_])
            order = rng.permutation(self.n_edges).astype(np.int64)
            if pass_ == 0:
                again = np.random.default_rng([self.seed, FLOOR_STREAM, pass_, REASK_STREAM])
                order = first_pass(order, again, self.gap)
            self._order = order
            self._order_pass = pass_
        return self._order

    def take(self, count: int) -> tuple[npt.NDArray[np.int64], int]:
        """The next ``count`` visits of the current pass (fewer at its end, or before an edge
        the take holds already: a draw never holds an edge twice) and their pass; the next
        call goes on after them."""
        if self.n_edges == 0 or count <= 0:
            return np.empty(0, dtype=np.int64), self.pass_
        pass_ = self.pass_
        order = self.order(pass_)
        taken = order[self.offset : self.offset + count].copy()
        _, first = np.unique(taken, return_index=True)
        if len(first) < len(taken):
            seen = np.zeros(len(taken), dtype=bool)
            seen[first] = True
            taken = taken[: int(np.argmin(seen))]
        self.offset += len(taken)
        if self.offset >= len(order):
            self.pass_, self.offset = pass_ + 1, 0
        return taken, pass_

    @classmethod
    def resumed(cls, n_edges: int, seed: int, visits: dict[int, int], gap: int = 1) -> RollingFloor:
        """The floor after the stored visits (pass -> floor rows stored in it): on from the
        last pass's."""
        if not visits:
            return cls(n_edges, seed, gap=gap)
        last = max(visits)
        return cls(n_edges, seed, last, visits[last], gap)


def first_pass(
    order: npt.NDArray[np.int64], rng: np.random.Generator, gap: int
) -> npt.NDArray[np.int64]:
    """The first pass's visits: ``order`` with re-asks put in (REASK_SHARE of the visits, on
    average), each after a visit at least ``gap`` places on from the start and of an edge
    visited at least ``gap`` places before it, chosen uniformly among those. Which edges are
    asked twice is then a random sample, whatever they answer, so their pairs of answers
    estimate the answers' own noise (`estimates.census_rate`) before a second pass does."""
    n = len(order)
    after = np.flatnonzero(rng.random(n) < REASK_SHARE / (1 - REASK_SHARE))
    after = after[after >= gap]
    if not len(after):
        return order
    earlier = (rng.random(len(after)) * (after - gap + 1)).astype(np.int64)
    return np.insert(order, after + 1, order[earlier]).astype(np.int64)


def floor_size(k: int, floor: float, rng: np.random.Generator) -> int:
    """``floor * k`` rounded up or down at random, so that its mean is exactly ``floor * k``."""
    exact = max(0.0, min(1.0, floor)) * k
    whole = int(exact)
    return whole + int(rng.random() < exact - whole)


def floor_visits(
    census: RollingFloor | None, k: int, floor: float, rng: np.random.Generator
) -> tuple[npt.NDArray[np.int64], int]:
    """The floor's share of a draw of k edges (`floor_size` of them) from the rolling census,
    and their pass; none without a census."""
    if census is None:
        return np.empty(0, dtype=np.int64), 0
    return census.take(floor_size(k, floor, rng))


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
    census: RollingFloor | None,
    *,
    exclude: np.ndarray | None = None,
    certain: np.ndarray | None = None,
    epsilon: float = 0.1,
    top_k: int = 100,
) -> tuple[npt.NDArray[np.int64], int, int]:
    """k edges besides the `certain` ones (already chosen, e.g. retries): first the floor's
    (`floor_size` of them, from the rolling `census`, even when `exclude`d: a floor visit is
    never skipped), then the sampler's picks, none of them `exclude`d, certain or the floor's.

    Returns (the floor's edges then the picks, how many are the floor's, the floor's pass).
    Brute force is a census itself and takes no floor, nor does a run without `census`."""
    certain = np.empty(0, dtype=np.int64) if certain is None else certain
    exclude = np.empty(0, dtype=np.int64) if exclude is None else exclude
    visits, pass_ = floor_visits(None if sampler == Sampler.BRUTE_FORCE else census, k, floor, rng)
    barred = np.concatenate((exclude, certain, visits)).astype(np.int64)
    picks = sample_batch(
        sampler,
        state,
        k - len(visits),
        rng,
        iteration,
        seed,
        exclude=barred,
        epsilon=epsilon,
        top_k=top_k,
    )
    return np.concatenate((visits, picks)).astype(np.int64), len(visits), pass_
