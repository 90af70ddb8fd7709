"""Intervals: Beta quantiles (credible intervals of an edge's error rate, by scipy's
regularized incomplete beta and its inverse, accurate at extreme parameters such as Beta(2000, 1)
or Beta(0.01, 50)) and Wilson score intervals (confidence intervals of a rate over edges)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

LEVEL = 0.95
"""Default coverage of every interval."""

Floats = npt.NDArray[np.float64]


def _broadcast(*arrays: npt.ArrayLike) -> list[Floats]:
    return [np.asarray(a, dtype=np.float64) for a in np.broadcast_arrays(*arrays)]


def _positive(a: Floats, b: Floats) -> None:
    if np.any(a <= 0) or np.any(b <= 0):
        raise ValueError("Beta parameters must be positive")


def beta_cdf(x: npt.ArrayLike, a: npt.ArrayLike, b: npt.ArrayLike) -> Floats:
    """The regularized incomplete beta I_x(a, b): P(X <= x) for X ~ Beta(a, b)."""
    from scipy.special import betainc  # SciPy loads in 0.3 s: not at every command's start

    xs, av, bv = _broadcast(x, a, b)
    _positive(av, bv)
    out: Floats = np.asarray(betainc(av, bv, np.clip(xs, 0.0, 1.0)), dtype=np.float64)
    return out


def beta_quantile(q: npt.ArrayLike, a: npt.ArrayLike, b: npt.ArrayLike) -> Floats:
    """The q-quantile of Beta(a, b), element-wise (q in [0, 1])."""
    from scipy.special import betaincinv  # SciPy loads in 0.3 s: not at every command's start

    qs, av, bv = _broadcast(q, a, b)
    _positive(av, bv)
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError("quantile levels must lie in [0, 1]")
    out: Floats = np.asarray(betaincinv(av, bv, qs), dtype=np.float64)
    return out


def beta_interval(
    a: npt.ArrayLike, b: npt.ArrayLike, level: float = LEVEL
) -> tuple[Floats, Floats]:
    """Equal-tailed credible interval of Beta(a, b): the (1-level)/2 and (1+level)/2 quantiles."""
    tail = (1.0 - level) / 2.0
    av, bv = _broadcast(a, b)
    both = beta_quantile(np.stack([np.full(av.shape, tail), np.full(av.shape, 1.0 - tail)]), av, bv)
    return both[0], both[1]


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal critical value for a coverage (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + level / 2.0)


@dataclass(frozen=True)
class Proportion:
    """k of n edges, with a Wilson score interval; value, low and high are None when n = 0."""

    k: int
    n: int
    value: float | None
    low: float | None
    high: float | None

    @property
    def bounds(self) -> tuple[float | None, float | None, float | None]:
        """(value, low, high), as `textfmt.rate_ci` shows them."""
        return self.value, self.low, self.high


def wilson(k: int, n: int, level: float = LEVEL) -> Proportion:
    """k / n with its Wilson score interval:
    (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n (got k={k}, n={n})")
    if n == 0:
        return Proportion(0, 0, None, None, None)
    low, high = wilson_bounds(k, n, z_value(level))
    return Proportion(k, n, k / n, low, high)


def wilson_bounds(k: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson score interval of k events in n > 0 trials at the critical value z."""
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def worst_first(p: Proportion, higher_is_worse: bool = True) -> tuple[bool, float]:
    """Sort key putting the groups surely worst first: by the end of the rate's 95% interval
    nearest to good (1 of 1 zero-sense is at least 21%, 95 of 315 at least 25%: a group asked
    once does not head the list); groups never examined last."""
    if p.value is None:
        return True, 0.0
    return False, -(p.low or 0.0) if higher_is_worse else (p.high or 0.0)


def stored_rate(value: float, examined: int, level: float = LEVEL) -> Proportion:
    """A rate stored as a fraction of ``examined`` edges, back as k of n with its Wilson
    interval (the iteration table keeps rates, not counts)."""
    return wilson(round(value * examined), examined, level)


F1_DRAWS = 20_000
"""Posterior draws behind an F1 interval (its ends move by about 0.1 point between seeds)."""


def f1_score(correct: int, wrong: int, abstained: int) -> float | None:
    """F1, the harmonic mean of precision (correct of the answers given) and recall (correct of
    all questions): 2·correct / (2·n - abstained); None without an answer given."""
    if correct + wrong == 0:
        return None
    return 2 * correct / (2 * (correct + wrong + abstained) - abstained)


@lru_cache(maxsize=4096)
def f1_interval(
    correct: int, wrong: int, abstained: int, level: float = LEVEL
) -> tuple[float | None, float | None]:
    """Credible interval of F1 = 2·correct / (2·n - abstained), the harmonic mean of precision
    (correct of the answers given) and recall (correct of all n questions): the central `level`
    quantiles of F1 under the Jeffreys Dirichlet(correct + 1/2, wrong + 1/2, abstained + 1/2)
    posterior of the three shares, from a fixed seed (the same counts give the same interval),
    widened to hold the observed F1 (as Wilson's reaches 0 or 1 when k is 0 or n). (None, None)
    when there is no question."""
    if min(correct, wrong, abstained) < 0:
        raise ValueError(f"counts must be >= 0 (got {correct}, {wrong}, {abstained})")
    if correct + wrong + abstained == 0:
        return None, None
    shares = np.random.default_rng(0).dirichlet(
        (correct + 0.5, wrong + 0.5, abstained + 0.5), F1_DRAWS
    )
    f1 = 2 * shares[:, 0] / (2 - shares[:, 2])
    low, high = np.quantile(f1, ((1 - level) / 2, (1 + level) / 2))
    observed = f1_score(correct, wrong, abstained)
    if observed is None:
        return float(low), float(high)
    return min(float(low), observed), max(float(high), observed)
