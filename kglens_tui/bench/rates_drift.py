"""Drift between two replays of one truth, as `kglens compare` tests it: every predicate's
KG-wide difference (z-test) and every edge both answered (Fisher's exact test), each family
under Benjamini-Hochberg. The same truth twice has no drift, so a pair with any discovery is a
false one; `kglens bench rates` prints the share of such pairs (goal: at most 5%)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kglens_tui.modes.kglens.estimates import (
    DesignRate,
    benjamini_hochberg,
    census_rate,
    difference,
)

SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class ReplayEnd:
    """What a replay leaves for the drift tests: each predicate's KG-wide estimate (None where
    it has none) and the answers per edge."""

    predicates: list[DesignRate | None]
    m: np.ndarray
    n: np.ndarray


def predicate_rates(
    predicates: np.ndarray, right: np.ndarray, wrong: np.ndarray
) -> list[DesignRate | None]:
    """Each predicate's KG-wide error rate (codes 0..P-1 of ``predicates``): the census of its
    edges' census answers (right and wrong per edge: the floor's, or brute force's)."""
    out: list[DesignRate | None] = []
    for code, size in enumerate(np.bincount(predicates).tolist()):
        mine = predicates == code
        out.append(census_rate(right[mine], wrong[mine]) if size else None)
    return out


def fisher_two_sided(ma: np.ndarray, na: np.ndarray, mb: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """Fisher's exact test of each 2x2 table [[ma, na], [mb, nb]], two-sided as scipy's
    `fisher_exact` (the tables no more likely than the one seen), for many small tables at once.
    SciPy's statistics (about half a second to import) are imported here, not with the module:
    the study's other users (the command line, the tests' collection) do not need them."""
    from scipy.stats import hypergeom

    ma, na, mb, nb = (np.asarray(x, dtype=np.int64) for x in (ma, na, mb, nb))
    total, right, row = ma + na + mb + nb, ma + mb, ma + na
    grid = np.arange(int(total.max(initial=0)) + 1)[None, :]
    low = np.maximum(0, row - (total - right))[:, None]
    high = np.minimum(row, right)[:, None]
    pmf = hypergeom.pmf(grid, total[:, None], right[:, None], row[:, None])
    pmf = np.where((grid >= low) & (grid <= high), pmf, 0.0)
    seen = hypergeom.pmf(ma, total, right, row)[:, None]
    p: npt.NDArray[np.float64] = np.where(pmf <= seen * (1 + 1e-7), pmf, 0.0).sum(axis=1)
    return np.minimum(p, 1.0)


def predicate_drift(a: ReplayEnd, b: ReplayEnd) -> bool:
    """Whether any predicate's difference is a discovery at the false discovery rate."""
    tests = [
        difference(x, y).p_value
        for x, y in zip(a.predicates, b.predicates, strict=True)
        if x is not None and y is not None
    ]
    return bool(tests) and bool((benjamini_hochberg(np.array(tests)) < SIGNIFICANCE).any())


def edge_drift(a: ReplayEnd, b: ReplayEnd) -> bool:
    """Whether any edge both replays answered differs at the false discovery rate."""
    both = ((a.m + a.n) > 0) & ((b.m + b.n) > 0)
    if not both.any():
        return False
    p = fisher_two_sided(a.m[both], a.n[both], b.m[both], b.n[both])
    return bool((benjamini_hochberg(p) < SIGNIFICANCE).any())


def drift_shares(ends: Sequence[ReplayEnd]) -> tuple[float, float]:
    """Over pairs of replays (1st and 2nd, 3rd and 4th, ...): the share with predicate drift
    and the share with edge drift (NaN without a pair)."""
    pairs = [(ends[i], ends[i + 1]) for i in range(0, len(ends) - 1, 2)]
    if not pairs:
        return float("nan"), float("nan")
    return (
        float(np.mean([predicate_drift(a, b) for a, b in pairs])),
        float(np.mean([edge_drift(a, b) for a, b in pairs])),
    )
