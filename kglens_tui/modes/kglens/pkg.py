"""The parameterized KG (paper 2.1): a Beta(alpha, beta) error rate per active edge, the observed
successes m and failures n kept apart from propagated pseudo-counts, and the update of eq. 2-3."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kglens_tui.kg.graph import Neighbourhood


@dataclass
class PKGState:
    """Arrays aligned with a run's active edges (position i is run edge i)."""

    alpha: npt.NDArray[np.float64]
    beta: npt.NDArray[np.float64]
    m: npt.NDArray[np.int32]
    n: npt.NDArray[np.int32]
    err: npt.NDArray[np.int32]

    @classmethod
    def prior(cls, n_edges: int) -> PKGState:
        """Beta(1, 1) for every edge, nothing observed."""
        return cls(
            alpha=np.ones(n_edges),
            beta=np.ones(n_edges),
            m=np.zeros(n_edges, dtype=np.int32),
            n=np.zeros(n_edges, dtype=np.int32),
            err=np.zeros(n_edges, dtype=np.int32),
        )

    def copy(self) -> PKGState:
        return PKGState(
            self.alpha.copy(), self.beta.copy(), self.m.copy(), self.n.copy(), self.err.copy()
        )

    @property
    def mean_error(self) -> npt.NDArray[np.float64]:
        """Posterior mean error rate alpha / (alpha + beta), a new array."""
        total = self.alpha + self.beta
        return np.divide(self.alpha, total, out=total)


def apply_outcomes(
    state: PKGState,
    positions: np.ndarray,
    failed: np.ndarray,
    succeeded: np.ndarray,
    neighbourhood: Neighbourhood | None,
    weight: float = 1.0,
    scale: np.ndarray | None = None,
) -> None:
    """Update in place with one iteration's outcomes (paper eq. 2-3).

    alpha_j += 1[j failed] + w * M_j and beta_j += 1[j succeeded] + w * N_j, where M_j / N_j count
    the failed / succeeded evaluated edges sharing a node with j. Outcomes that are neither (a
    transport error) change nothing but the consecutive-error counter. `scale`, if given,
    multiplies the pseudo-counts each edge receives (per edge, e.g. 1 / its neighbour count: the
    "degree" propagation mode, which adds the mean of the neighbours' outcomes, not their sum).
    """
    positions = np.asarray(positions, dtype=np.int64)
    failed = np.asarray(failed, dtype=bool)
    succeeded = np.asarray(succeeded, dtype=bool)
    np.add.at(state.alpha, positions, failed.astype(np.float64))
    np.add.at(state.beta, positions, succeeded.astype(np.float64))
    np.add.at(state.m, positions, succeeded.astype(np.int32))
    np.add.at(state.n, positions, failed.astype(np.int32))
    errored = ~(failed | succeeded)
    state.err[positions[errored]] += 1
    state.err[positions[~errored]] = 0
    if neighbourhood is not None and weight != 0.0:
        ok = ~errored
        touched, m_prop, n_prop = neighbourhood.propagate_sparse(
            positions[ok], failed[ok], succeeded[ok]
        )
        factor = weight if scale is None else weight * scale[touched]
        state.alpha[touched] += m_prop * factor
        state.beta[touched] += n_prop * factor


@dataclass(frozen=True)
class Rates:
    """The paper's edge-level metrics (3.2) over examined edges."""

    examined: int
    win: float | None
    zero_sense: float | None
    all_sense: float | None


@dataclass(frozen=True)
class RateCounts:
    """The counts behind `rates`: edges examined, won (m > n), zero-sense (m = 0) and all-sense
    (n = 0). An engine keeps them up to date from the edges an iteration touched (take their
    counts before the update, add theirs after) instead of counting every edge again."""

    examined: int = 0
    won: int = 0
    zero_sense: int = 0
    all_sense: int = 0

    @classmethod
    def of(cls, m: np.ndarray, n: np.ndarray) -> RateCounts:
        """The counts over these edges (those with m + n > 0 count)."""
        seen = (m + n) > 0
        ms, ns = m[seen], n[seen]
        return cls(*(int(np.count_nonzero(x)) for x in (seen, ms > ns, ms == 0, ns == 0)))

    def __add__(self, other: RateCounts) -> RateCounts:
        return RateCounts(
            self.examined + other.examined,
            self.won + other.won,
            self.zero_sense + other.zero_sense,
            self.all_sense + other.all_sense,
        )

    def __sub__(self, other: RateCounts) -> RateCounts:
        return RateCounts(
            self.examined - other.examined,
            self.won - other.won,
            self.zero_sense - other.zero_sense,
            self.all_sense - other.all_sense,
        )

    def rates(self) -> Rates:
        """The rates these counts give."""
        count = self.examined
        if count == 0:
            return Rates(0, None, None, None)
        return Rates(count, self.won / count, self.zero_sense / count, self.all_sense / count)


def rates(m: np.ndarray, n: np.ndarray) -> Rates:
    """Win (m > n), zero-sense (m = 0) and all-sense (n = 0) rates over edges with m + n > 0."""
    return RateCounts.of(m, n).rates()


def stable_iterations(history: list[Rates], window: int = 5, tolerance: float = 0.005) -> int:
    """How many of the last iterations (at most `window`) the win, zero-sense and all-sense
    rates each stayed within `tolerance` (a fraction: 0.005 = 0.5 points) of one another: the
    longest k such that the last k + 1 rates span less than the tolerance."""
    stable = 0
    for k in range(1, min(window, len(history) - 1) + 1):
        recent = history[-(k + 1) :]
        for attr in ("win", "zero_sense", "all_sense"):
            values = [getattr(r, attr) for r in recent]
            if any(v is None for v in values) or max(values) - min(values) >= tolerance:
                return stable
        stable = k
    return stable


def converged(history: list[Rates], window: int = 5, tolerance: float = 0.005) -> bool:
    """True when win, zero-sense and all-sense rates each moved less than `tolerance` (a fraction:
    0.005 = 0.5 points) over the last `window` iterations."""
    return len(history) >= window + 1 and stable_iterations(history, window, tolerance) >= window
