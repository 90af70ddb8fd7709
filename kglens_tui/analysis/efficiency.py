"""Metrics of the efficiency study (paper 2.4, Fig. 3): how close a method's estimated error
rates are to the ground truth, and how well it ranks the hardest edges, as pure functions.

The headline is G@k (blind-spot gain), which a constant guess cannot win: MSE over the true top k
rewards any estimate that sits near the truth's typical value, so a constant 0.5 or a pull towards
a neighbourhood average scores well without finding a single blind spot."""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=8)
def _tie_order(n: int) -> np.ndarray:
    """A fixed pseudo-random rank per position, to break ties without favouring low positions
    (edge order follows the KG's import order, which correlates with predicates)."""
    order = np.empty(n, dtype=np.int64)
    order[np.random.default_rng(20240).permutation(n)] = np.arange(n)
    return order


def top_by_estimate(estimate: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest values (ties broken by a fixed pseudo-random order)."""
    estimate = np.asarray(estimate, dtype=np.float64)
    n = len(estimate)
    k = min(k, n)
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    part = np.argpartition(-estimate, k - 1)[:k] if k < n else np.arange(n)
    threshold = estimate[part].min()
    above = np.flatnonzero(estimate > threshold)
    tied = np.flatnonzero(estimate == threshold)
    if len(above) + len(tied) > k:
        tied = tied[np.argsort(_tie_order(n)[tied], kind="stable")][: k - len(above)]
    return np.concatenate((above, tied))


def hardest(truth: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k edges with the highest true error rate."""
    return top_by_estimate(truth, k)


def mse(estimate: np.ndarray, truth: np.ndarray, positions: np.ndarray) -> float:
    """Mean squared error over the given positions (NaN when there are none)."""
    positions = np.asarray(positions)
    if positions.size == 0:
        return float("nan")
    diff = np.asarray(estimate, dtype=np.float64)[positions] - truth[positions]
    return float(np.mean(diff * diff))


def top_k_mse(estimate: np.ndarray, truth: np.ndarray, k: int) -> float:
    """The paper's measure: MSE over the k edges with the highest true error rate."""
    return mse(estimate, truth, hardest(truth, k))


def examined_mse(estimate: np.ndarray, truth: np.ndarray, asked: np.ndarray) -> float:
    """MSE over the edges the method has asked about at least once (the earlier draft's)."""
    return mse(estimate, truth, np.flatnonzero(np.asarray(asked) > 0))


def top_k_recall(estimate: np.ndarray, truth: np.ndarray, k: int) -> float:
    """Share of the method's top k that belong to the true top k.

    Edges tied with the k-th true rate all count as true top k, so a ranking that breaks ties
    differently from `hardest` is not penalised.
    """
    k = min(k, len(truth))
    if k == 0:
        return float("nan")
    cutoff = np.sort(truth)[len(truth) - k]
    return float(np.count_nonzero(truth[top_by_estimate(estimate, k)] >= cutoff) / k)


def expected_top_truth(estimate: np.ndarray, truth: np.ndarray, k: int) -> float:
    """Mean true rate of the method's top k by estimate. Edges tied at the k-th estimate count
    with the mean true rate of the tied group (the expectation over every way of breaking the tie),
    so a ranking cannot gain or lose by how ties fall: a constant estimate gets the mean rate."""
    estimate = np.asarray(estimate, dtype=np.float64)
    n = len(estimate)
    k = min(k, n)
    if k <= 0:
        return float("nan")
    threshold = np.partition(estimate, n - k)[n - k]
    above = estimate > threshold
    tied = estimate == threshold
    taken = int(above.sum())
    return float((truth[above].sum() + (k - taken) * truth[tied].mean()) / k)


def blind_spot_gain(estimate: np.ndarray, truth: np.ndarray, k: int) -> float:
    """G@k: the mean true error rate of the method's reported top k, rescaled so that a constant
    estimate (a random k edges) scores 0 and the true top k scores 1; NaN when every true rate is
    the same (nothing to find). Negative when the reported edges are easier than average."""
    truth = np.asarray(truth, dtype=np.float64)
    k = min(k, len(truth))
    if k <= 0:
        return float("nan")
    chance = float(truth.mean())
    best = float(truth[hardest(truth, k)].mean())
    if best - chance <= 1e-12:
        return float("nan")
    return (expected_top_truth(estimate, truth, k) - chance) / (best - chance)


def set_recall(estimate: np.ndarray, targets: np.ndarray, k: int) -> float:
    """Share of the target edges (e.g. the always-failed ones) found in the method's top k,
    out of min(k, number of targets); NaN when there are no targets."""
    targets = np.asarray(targets, dtype=bool)
    wanted = min(k, int(targets.sum()))
    if wanted == 0:
        return float("nan")
    found = int(np.count_nonzero(targets[top_by_estimate(estimate, k)]))
    return float(min(found, wanted) / wanted)


def higher_is_better(metric: str) -> bool:
    """Recall and G@k grow as a method gets better; MSE shrinks."""
    return metric.startswith(("recall", "g_"))


def requests_to_reach(requests: np.ndarray, values: np.ndarray, target: float) -> float | None:
    """Requests from which a curve stays at or below `target` until its end, interpolated
    linearly at the last crossing; None when it ends above. (A first crossing would credit noise:
    a curve that dips below once and comes back up has not reached the target.)"""
    values = np.asarray(values, dtype=np.float64)
    above = np.flatnonzero(~(values <= target))
    if len(above) == 0:
        return float(requests[0])
    i = int(above[-1])
    if i == len(values) - 1:
        return None
    x0, x1, y0, y1 = float(requests[i]), float(requests[i + 1]), values[i], values[i + 1]
    if not np.isfinite(y0) or y0 == y1:
        return x1
    reached: float = x0 + (y0 - target) / (y0 - y1) * (x1 - x0)
    return reached


def value_at(requests: np.ndarray, values: np.ndarray, at: float) -> float:
    """A curve's value at a request count, interpolated linearly."""
    return float(np.interp(at, np.asarray(requests, dtype=np.float64), values))


class Scorer:
    """Every metric of the study at once, with the ground-truth sets computed once.

    Names: ``g_top{k}`` (blind-spot gain, see `blind_spot_gain`), ``mse_top{k}`` (the paper's),
    ``mse_examined``, ``recall_top{k}`` (true top k among the method's top k) and
    ``recall_failed_top{k}`` (always-failed edges among the method's top k).
    """

    def __init__(self, truth: np.ndarray, ks: tuple[int, ...], always_failed: np.ndarray) -> None:
        self.truth = np.asarray(truth, dtype=np.float64)
        self.ks = tuple(int(k) for k in ks)
        self.always_failed = np.asarray(always_failed, dtype=bool)
        n = len(self.truth)
        ordered = np.sort(self.truth)
        self._hard = {k: hardest(self.truth, k) for k in self.ks}
        self._cutoff = {k: ordered[n - min(k, n)] if n else 0.0 for k in self.ks}
        self._chance = float(self.truth.mean()) if n else 0.0
        self._best = {k: float(self.truth[self._hard[k]].mean()) if n else 0.0 for k in self.ks}
        self.names = (
            [f"g_top{k}" for k in self.ks]
            + [f"mse_top{k}" for k in self.ks]
            + ["mse_examined"]
            + [f"recall_top{k}" for k in self.ks]
            + [f"recall_failed_top{k}" for k in self.ks]
        )

    def score(self, estimate: np.ndarray, asked: np.ndarray) -> dict[str, float]:
        """Every metric for one estimate; `asked` counts each edge's own answers."""
        out: dict[str, float] = {}
        for k in self.ks:
            span = self._best[k] - self._chance
            out[f"g_top{k}"] = (
                (expected_top_truth(estimate, self.truth, k) - self._chance) / span
                if span > 1e-12
                else float("nan")
            )
        for k in self.ks:
            out[f"mse_top{k}"] = mse(estimate, self.truth, self._hard[k])
        out["mse_examined"] = examined_mse(estimate, self.truth, asked)
        n_failed = int(self.always_failed.sum())
        for k in self.ks:
            kk = min(k, len(self.truth))
            top = top_by_estimate(estimate, kk)
            out[f"recall_top{k}"] = (
                float(np.count_nonzero(self.truth[top] >= self._cutoff[k]) / kk)
                if kk
                else float("nan")
            )
            wanted = min(kk, n_failed)
            out[f"recall_failed_top{k}"] = (
                float(min(int(np.count_nonzero(self.always_failed[top])), wanted) / wanted)
                if wanted
                else float("nan")
            )
        return out
