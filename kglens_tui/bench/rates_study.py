"""`kglens bench rates`: do the KG-wide rates describe the model, whatever the sampler?

Each method replays many runs against a known truth (the efficiency study's simulator: an asked
edge fails with its true rate), drawn by the sampling design (`probe.design`) at each uniform
floor; at 1, 2 and 4.5 epochs of requests the KG-wide error-rate estimate (`probe.estimates`) is
set against the truth's own mean error rate. Printed per truth and method: bias with its Monte
Carlo error, coverage of the 95% interval, the interval's width and the root mean squared error
as multiples of brute force's at the same requests, and the G@k share of brute force's requests
(the blind-spot search the floor slows): the frontier the default floor is chosen from.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from kglens_tui.analysis.efficiency import Scorer
from kglens_tui.bench.ground_truth import GroundTruth
from kglens_tui.bench.rates_drift import ReplayEnd, drift_shares, predicate_rates
from kglens_tui.bench.sampling_study import (
    BRUTE_FORCE,
    Drawn,
    Method,
    StudyResult,
    simulate,
)
from kglens_tui.modes.kglens.estimates import (
    Z95,
    DesignRate,
    Difference,
    census_difference,
    census_rate,
)
from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.sense_rates import ALL_SENSE, ZERO_SENSE, census_pair_rate

EPOCHS = (1.0, 2.0, 4.5)
"""Where the estimates are checked, in epochs of requests (brute force's passes over the KG)."""
SENSES = (ZERO_SENSE, ALL_SENSE)
"""The two-ask rates the study checks beside the error rate (`probe.sense_rates`)."""


def sense_truth(rates: np.ndarray, sense: str) -> float:
    """The truth's own two-ask rate: the mean over edges of P(fail twice) or P(right twice)."""
    p = np.asarray(rates, dtype=np.float64)
    return float((p**2).mean() if sense == ZERO_SENSE else ((1 - p) ** 2).mean())


class RateTracker:
    """Collects a replay's census answers (the floor's, or brute force's every answer) and takes
    the KG-wide estimates at each checkpoint."""

    def __init__(
        self,
        checkpoints: Sequence[int],
        predicates: np.ndarray,
        second: tuple[np.ndarray, np.random.Generator] | None = None,
    ) -> None:
        self.checkpoints = sorted(checkpoints)
        self.predicates = predicates
        self.second = second
        """A second target's true error rates and coin: it answers every draw the first was
        asked (one plan, `probe.plan`); None: no second target."""
        self.paired: dict[int, Difference | None] = {}
        """At each checkpoint: the second target's KG-wide error rate minus the first's, paired
        over the plan's census answers (`estimates.census_difference`)."""
        n_edges = len(predicates)
        self.right = np.zeros(n_edges, dtype=np.int64)
        self.wrong = np.zeros(n_edges, dtype=np.int64)
        """The census answers per edge, right and wrong."""
        self._edges: list[np.ndarray] = []
        self._diffs: list[np.ndarray] = []
        self.estimates: dict[int, DesignRate | None] = {}
        self.senses: dict[tuple[int, str], DesignRate | None] = {}
        self.end: ReplayEnd | None = None
        """At the last checkpoint: what the drift tests between replays need."""

    def step(self, requests: int, state: PKGState, drawn: Drawn | None) -> None:
        if drawn is not None and len(drawn.edges):
            np.add.at(self.wrong, drawn.edges, drawn.failed.astype(np.int64))
            np.add.at(self.right, drawn.edges, (~drawn.failed).astype(np.int64))
            if self.second is not None:
                rates, coin = self.second
                failed = coin.random(len(drawn.edges)) < rates[drawn.edges]
                self._edges.append(drawn.edges)
                self._diffs.append(failed.astype(np.float64) - drawn.failed)
        for point in self.checkpoints:
            if point not in self.estimates and requests >= point:
                self.estimates[point] = census_rate(self.right, self.wrong)
                self.paired[point] = (
                    census_difference(
                        np.concatenate(self._edges), np.concatenate(self._diffs), len(self.right)
                    )
                    if self._diffs
                    else None
                )
                for sense in SENSES:
                    self.senses[(point, sense)] = census_pair_rate(
                        self.wrong if sense == ZERO_SENSE else self.right, self.right + self.wrong
                    )
                if point == self.checkpoints[-1]:
                    self.end = ReplayEnd(
                        predicate_rates(self.predicates, self.right, self.wrong),
                        state.m.copy(),
                        state.n.copy(),
                    )


@dataclass(frozen=True)
class Cell:
    """One method at one request count: its estimates over the replays against the truth."""

    method: str
    epochs: float
    truth: float
    """The truth's KG-wide error rate."""
    errors: np.ndarray
    """Each replay's estimate."""
    ses: np.ndarray
    drift: tuple[float, float] | None = None
    """At the last checkpoint: the shares of replay pairs with predicate and with edge drift
    (`bench.rates_drift`; same truth, so every discovery is false)."""
    paired_p: np.ndarray | None = None
    """Each replay's p-value of the paired difference between its target and an equally
    accurate second one asked the same plan (None: brute force, a census without draws)."""
    intervals: np.ndarray | None = None
    """Each replay's 95% interval as the product shows it (`DesignRate.interval`), one row
    each; None: the estimate plus or minus 1.96 standard errors, within [0, 1]."""

    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        if self.intervals is not None:
            return self.intervals[:, 0], self.intervals[:, 1]
        low = np.clip(self.errors - Z95 * self.ses, 0, 1)
        high = np.clip(self.errors + Z95 * self.ses, 0, 1)
        return low, high

    @property
    def bias(self) -> float:
        return float(self.errors.mean() - self.truth)

    @property
    def bias_mc(self) -> float:
        """The Monte Carlo error of the bias (standard error of the replays' mean)."""
        if len(self.errors) < 2:
            return float("nan")
        return float(self.errors.std(ddof=1) / math.sqrt(len(self.errors)))

    @property
    def coverage(self) -> float:
        low, high = self._bounds()
        return float(((low <= self.truth) & (self.truth <= high)).mean())

    @property
    def width(self) -> float:
        low, high = self._bounds()
        return float((high - low).mean())

    @property
    def false_difference(self) -> float:
        """Two equally accurate targets: the share of replay pairs (1st and 2nd, 3rd and 4th,
        ...) whose difference the z-test of `probe.estimates.difference` calls significant at
        5% (the same truth, so every such call is false; goal: at most 5%)."""
        pairs = len(self.errors) // 2
        if not pairs:
            return float("nan")
        a, b = self.errors[: 2 * pairs : 2], self.errors[1 : 2 * pairs : 2]
        se = np.sqrt(self.ses[: 2 * pairs : 2] ** 2 + self.ses[1 : 2 * pairs : 2] ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(se > 0, np.abs(b - a) / se, np.where(a == b, 0.0, np.inf))
        return float((z > Z95).mean())

    @property
    def false_paired(self) -> float | None:
        """Two equally accurate targets on one plan: the share of replays whose paired
        difference tests significant at 5% (every such call is false; goal: at most 5%)."""
        return None if self.paired_p is None else float((self.paired_p < 0.05).mean())

    @property
    def rmse(self) -> float:
        return float(np.sqrt(((self.errors - self.truth) ** 2).mean()))


@dataclass
class RatesResult:
    """Every cell of the study for one truth, and the G@k shares for the frontier."""

    truth_source: str
    setting: str
    n_edges: int
    truth_error: float
    replays: int
    batch_size: int
    k: int
    cells: dict[tuple[str, float], Cell] = field(default_factory=dict)
    senses: dict[tuple[str, float, str], Cell | None] = field(default_factory=dict)
    """(method, epochs, sense) -> the two-ask rate's cell (None: some replay had no estimate,
    e.g. brute force before any edge is asked twice)."""
    g_share: dict[str, float | None] = field(default_factory=dict)
    """Method name -> requests its seed-mean G@k curve needs to reach brute force's value at 4.5
    epochs, as a share of brute force's (None: never within the budget)."""
    methods: list[str] = field(default_factory=list)
    seconds: float = 0.0
    sense_truths: dict[str, float] = field(default_factory=dict)
    """The truth's own two-ask rates (`sense_truth`)."""

    def ratio(self, method: str, epochs: float, attr: str) -> float:
        """A cell's width or RMSE over brute force's at the same requests."""
        base = getattr(self.cells[(BRUTE_FORCE.name, epochs)], attr)
        value = getattr(self.cells[(method, epochs)], attr)
        return value / base if base > 0 else float("inf")

    def sense_ratio(self, method: str, epochs: float, sense: str) -> float | None:
        """A two-ask rate's interval width over brute force's (None: brute force has none)."""
        base = self.senses.get((BRUTE_FORCE.name, epochs, sense))
        cell = self.senses.get((method, epochs, sense))
        if base is None or cell is None or base.width <= 0:
            return None
        return cell.width / base.width


def _p_values(found: list[Difference | None]) -> np.ndarray | None:
    """The replays' paired p-values (None unless every replay has one)."""
    if not found or any(d is None for d in found):
        return None
    return np.array([d.p_value for d in found if d is not None])


def with_floor(method: Method, floor: float) -> Method:
    """The method drawn by the design at this floor (brute force stays the census)."""
    if method.sampler == BRUTE_FORCE.sampler:
        return method
    return replace(method, floor=floor, name=f"{method.name} · floor {floor:g}")


def study_methods(
    methods: Sequence[Method], floor: float, frontier: Sequence[float], default: Method
) -> list[Method]:
    """Brute force, every method at `floor`, and the default method at each `frontier`
    floor."""
    if any(not 0 < f <= 1 for f in (floor, *frontier)):
        raise ValueError("every floor must be above 0 and at most 1")
    chosen = [BRUTE_FORCE] + [
        with_floor(m, floor) for m in methods if m.sampler != BRUTE_FORCE.sampler
    ]
    for f in frontier:
        extra = with_floor(default, f)
        if extra not in chosen:
            chosen.append(extra)
    return chosen


def rates_study(
    truth: GroundTruth,
    methods: Sequence[Method],
    *,
    replays: int = 200,
    batch_size: int = 16,
    k: int = 100,
    epochs: Sequence[float] = EPOCHS,
    progress: Callable[[int, int], None] | None = None,
) -> RatesResult:
    """Replay every method (`study_methods`: brute force first) `replays` times."""
    if replays < 2:
        raise ValueError("--replays must be at least 2 (bias and coverage need several)")
    if not methods or methods[0] != BRUTE_FORCE:
        raise ValueError("the methods must start with brute force (the reference)")
    started = time.perf_counter()
    n = truth.n_edges
    k = min(k, max(1, n - 1))
    points = {e: max(1, round(e * n)) for e in epochs}
    budget = max(points.values())
    scorer = Scorer(truth.rates, (k,), truth.always_failed)
    nbh = truth.neighbourhood()
    degree = nbh.neighbour_counts()
    chosen = list(methods)
    result = RatesResult(
        truth.source,
        truth.setting,
        n,
        float(truth.rates.mean()),
        replays,
        batch_size,
        k,
        methods=[m.name for m in chosen],
        sense_truths={sense: sense_truth(truth.rates, sense) for sense in SENSES},
    )
    curves: dict[str, list[np.ndarray]] = {m.name: [] for m in chosen}
    requests = np.empty(0)
    total, done = len(chosen) * replays, 0
    for method in chosen:
        found: dict[float, list[DesignRate]] = {e: [] for e in epochs}
        sensed: dict[tuple[float, str], list[DesignRate | None]] = {
            (e, sense): [] for e in epochs for sense in SENSES
        }
        ends: list[ReplayEnd] = []
        paired: dict[float, list[Difference | None]] = {e: [] for e in epochs}
        for replay in range(replays):
            second = (truth.rates, np.random.default_rng([replay, 7919]))
            tracker = RateTracker(list(points.values()), truth.predicates, second)
            trace = simulate(
                method, truth, scorer, budget, batch_size, replay, nbh, degree, tracker=tracker
            )
            requests = trace.requests
            curves[method.name].append(trace.metrics[f"g_top{k}"])
            for e, point in points.items():
                estimate = tracker.estimates.get(point)
                if estimate is None:
                    raise ValueError(f"{method.name}: no estimate after {point} requests")
                found[e].append(estimate)
                paired[e].append(tracker.paired.get(point))
                for sense in SENSES:
                    sensed[(e, sense)].append(tracker.senses.get((point, sense)))
            if tracker.end is not None:
                ends.append(tracker.end)
            done += 1
            if progress is not None:
                progress(done, total)
        for e, estimates in found.items():
            result.cells[(method.name, e)] = Cell(
                method.name,
                e,
                result.truth_error,
                np.array([x.error for x in estimates]),
                np.array([x.se for x in estimates]),
                drift_shares(ends) if e == max(epochs) else None,
                _p_values(paired[e]),
                np.array([x.interval() for x in estimates]),
            )
        for (e, sense), rates in sensed.items():
            known = [r for r in rates if r is not None]
            result.senses[(method.name, e, sense)] = (
                Cell(
                    method.name,
                    e,
                    result.sense_truths[sense],
                    np.array([r.error for r in known]),
                    np.array([r.se for r in known]),
                    intervals=np.array([r.interval() for r in known]),
                )
                if len(known) == len(rates)
                else None
            )
    study = StudyResult(
        truth_source=truth.source,
        truth_note=truth.note,
        n_edges=n,
        budget=budget,
        batch_size=batch_size,
        seeds=tuple(range(replays)),
        ks=(k,),
        reference_epochs=max(epochs),
        methods=list(chosen),
        requests=requests,
        curves={name: {f"g_top{k}": np.vstack(rows)} for name, rows in curves.items()},
    )
    for method in chosen:
        result.g_share[method.name] = study.reach(method.name, f"g_top{k}").mean_curve
    result.seconds = time.perf_counter() - started
    return result
