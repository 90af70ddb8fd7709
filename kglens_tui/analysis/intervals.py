"""Intervals with numpy only: Beta quantiles (credible intervals of an edge's error rate) and
Wilson score intervals (confidence intervals of a rate over edges).

The regularized incomplete beta I_x(a, b) is evaluated with the continued fraction of Numerical
Recipes (modified Lentz), vectorised; quantiles invert it by Newton steps kept inside a shrinking
bisection bracket, so every element converges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

LEVEL = 0.95
"""Default coverage of every interval."""

_TINY = 1e-300
_EPS = 1e-15
_MAX_TERMS = 10_000

_lgamma = np.frompyfunc(math.lgamma, 1, 1)


def _log_beta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (_lgamma(a) + _lgamma(b) - _lgamma(a + b)).astype(np.float64)


def _continued_fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The continued fraction of I_x(a, b) (converges fast for x < (a + 1) / (a + b + 2)),
    iterating only on the elements not yet converged."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    idx = np.arange(len(x))
    for m in range(1, _MAX_TERMS + 1):
        if len(idx) == 0:
            break
        m2 = 2.0 * m
        ai, bi, xi = a[idx], b[idx], x[idx]
        ci, di, hi = c[idx], d[idx], h[idx]
        for aa in (
            m * (bi - m) * xi / ((qam[idx] + m2) * (ai + m2)),
            -(ai + m) * (qab[idx] + m) * xi / ((ai + m2) * (qap[idx] + m2)),
        ):
            di = 1.0 + aa * di
            di = 1.0 / np.where(np.abs(di) < _TINY, _TINY, di)
            ci = 1.0 + aa / ci
            ci = np.where(np.abs(ci) < _TINY, _TINY, ci)
            delta = di * ci
            hi = hi * delta
        c[idx], d[idx], h[idx] = ci, di, hi
        idx = idx[np.abs(delta - 1.0) >= _EPS]
    return h


def _inc_beta(x: np.ndarray, a: np.ndarray, b: np.ndarray, log_beta: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    out = np.where(x >= 1.0, 1.0, 0.0)
    inner = (x > 0.0) & (x < 1.0)
    if not inner.any():
        return out
    xi, ai, bi, lb = x[inner], a[inner], b[inner], log_beta[inner]
    front = np.exp(ai * np.log(xi) + bi * np.log1p(-xi) - lb)
    direct = xi < (ai + 1.0) / (ai + bi + 2.0)
    val = np.empty_like(xi)
    if direct.any():
        d = direct
        val[d] = front[d] * _continued_fraction(ai[d], bi[d], xi[d]) / ai[d]
    if (~direct).any():
        r = ~direct
        val[r] = 1.0 - front[r] * _continued_fraction(bi[r], ai[r], 1.0 - xi[r]) / bi[r]
    out[inner] = np.clip(val, 0.0, 1.0)
    return out


def _broadcast(*arrays: object) -> list[np.ndarray]:
    return [np.asarray(a, dtype=np.float64) for a in np.broadcast_arrays(*arrays)]


def beta_cdf(x: object, a: object, b: object) -> np.ndarray:
    """The regularized incomplete beta I_x(a, b): P(X <= x) for X ~ Beta(a, b)."""
    xs, av, bv = _broadcast(x, a, b)
    if np.any(av <= 0) or np.any(bv <= 0):
        raise ValueError("Beta parameters must be positive")
    flat = [v.ravel() for v in (xs, av, bv)]
    return _inc_beta(flat[0], flat[1], flat[2], _log_beta(flat[1], flat[2])).reshape(xs.shape)


def beta_quantile(q: object, a: object, b: object, tol: float = 1e-12) -> np.ndarray:
    """The q-quantile of Beta(a, b), element-wise (q in [0, 1])."""
    qs, av, bv = _broadcast(q, a, b)
    if np.any(av <= 0) or np.any(bv <= 0):
        raise ValueError("Beta parameters must be positive")
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError("quantile levels must lie in [0, 1]")
    shape = qs.shape
    qv, av, bv = qs.ravel(), av.ravel(), bv.ravel()
    lb = _log_beta(av, bv)
    lo, hi = np.zeros_like(qv), np.ones_like(qv)
    mean = av / (av + bv)
    sd = np.sqrt(av * bv / ((av + bv) ** 2 * (av + bv + 1.0)))
    z = np.array([NormalDist().inv_cdf(min(max(v, 1e-12), 1 - 1e-12)) for v in qv])
    x = np.clip(mean + z * sd, 1e-6, 1 - 1e-6)
    active = np.flatnonzero((qv > 0) & (qv < 1))
    for _ in range(200):
        if len(active) == 0:
            break
        xa, qa, aa, ba, la = x[active], qv[active], av[active], bv[active], lb[active]
        f = _inc_beta(xa, aa, ba, la) - qa
        lo[active] = np.where(f < 0, xa, lo[active])
        hi[active] = np.where(f > 0, xa, hi[active])
        la_, ha_ = lo[active], hi[active]
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            pdf = np.exp((aa - 1.0) * np.log(xa) + (ba - 1.0) * np.log1p(-xa) - la)
            step = xa - f / pdf
        inside = np.isfinite(step) & (step > la_) & (step < ha_)
        new = np.where(inside, step, 0.5 * (la_ + ha_))
        exact = np.abs(f) < 1e-15
        settled = exact | (np.abs(new - xa) < tol) | (ha_ - la_ < tol)
        x[active] = np.where(exact, xa, new)
        active = active[~settled]
    x = np.where(qv <= 0, 0.0, np.where(qv >= 1, 1.0, x))
    return x.reshape(shape)


def beta_interval(a: object, b: object, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
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


def wilson(k: int, n: int, level: float = LEVEL) -> Proportion:
    """k / n with its Wilson score interval:
    (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n (got k={k}, n={n})")
    if n == 0:
        return Proportion(0, 0, None, None, None)
    z = z_value(level)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Proportion(k, n, p, low, high)
