"""`kglens bench sampling`: the paper's efficiency study (2.4, Fig. 3), simulated and vectorised.

Ground-truth error rates come from the simulated target's known rates or from a brute-force run
stored in the workspace. Each method then spends the same request budget; a sampled edge is
answered by a Bernoulli draw from its true rate (no LLM calls). Draws use common random numbers:
the c-th time any method asks edge j, the answer is ``u(seed, j, c) < rate[j]`` for a hashed
uniform ``u``, so methods differ by what they ask, not by luck. Curves are recorded after every
batch.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kglens_tui.analysis.efficiency import Scorer, higher_is_better, requests_to_reach, value_at
from kglens_tui.analysis.rundata import DROPPED, load_run_data
from kglens_tui.bench.ground_truth import (
    SIM_ALWAYS_FAILED,
    GroundTruth,
)
from kglens_tui.bench.truth_csv import csv_truth
from kglens_tui.kg.graph import KGIndex, Neighbourhood, load_kg, predicate_lookup
from kglens_tui.llm.simulated import SimulatedClient, stable_hash
from kglens_tui.modes.kglens.design import RollingFloor, designed_sample
from kglens_tui.modes.kglens.learned import LearnedPropagation
from kglens_tui.modes.kglens.pkg import PKGState, apply_outcomes
from kglens_tui.modes.kglens.runstore import load_kglens_run
from kglens_tui.modes.kglens.samplers import Sampler, sample_batch
from kglens_tui.textfmt import counted


@dataclass(frozen=True)
class Method:
    """One way of spending requests: a sampler and how answers propagate to neighbours.

    ``weighting``: ``constant`` is the paper's eq. 2-3 (every neighbour gets ``weight`` times the
    count of its failed / succeeded evaluated neighbours); ``degree`` divides that by the
    receiving edge's number of neighbours, so an edge next to a hub (a country with 80 edges, the
    UN with 190) gets the mean of its neighbours' outcomes rather than their sum; ``learned`` is
    the hierarchical model of kglens_tui.modes.kglens.learned (predicate and entity effects learned
    from the answers). The estimate is always the posterior mean alpha / (alpha + beta).
    ``top_k``: how many blind spots the top-k sampler looks for (None: the study's first k).
    ``lag``: iterations the posterior a batch is drawn from lags behind (continuous scheduling;
    see `simulate`).
    """

    name: str
    sampler: Sampler
    propagation: bool = False
    weight: float = 1.0
    weighting: str = "constant"
    paper: bool = True
    top_k: int | None = None
    lag: int = 0
    floor: float = 0.0
    """Share of each batch drawn uniformly by the sampling design (`probe.design`; 0: the
    sampler picks the whole batch, as before the design)."""

    def continuous(self) -> Method:
        """The same method under continuous scheduling: the engine dispatches up to LOOKAHEAD
        iterations past the last commit, so a batch may be drawn from a posterior one iteration
        older than a synchronous run's, without the edges still in flight."""
        from kglens_tui.modes.kglens.schedules import LOOKAHEAD

        return replace(self, name=self.name + CONTINUOUS, lag=LOOKAHEAD - 1)


CONTINUOUS = " · continuous"
"""Suffix of a method's continuous-scheduling variant."""
BRUTE_FORCE = Method("brute force", Sampler.BRUTE_FORCE)
PAPER_METHODS: tuple[Method, ...] = (
    BRUTE_FORCE,
    Method("thompson + prop", Sampler.THOMPSON, propagation=True),
    Method("thompson", Sampler.THOMPSON),
    Method("epsilon-greedy + prop", Sampler.EPSILON_GREEDY, propagation=True),
    Method("epsilon-greedy", Sampler.EPSILON_GREEDY),
    Method("monte carlo + prop", Sampler.MONTE_CARLO, propagation=True),
    Method("monte carlo", Sampler.MONTE_CARLO),
)
VARIANTS: tuple[Method, ...] = (
    Method(
        "thompson + degree prop",
        Sampler.THOMPSON,
        propagation=True,
        weighting="degree",
        paper=False,
    ),
    Method("thompson + learned", Sampler.THOMPSON, True, weighting="learned", paper=False),
    Method("top-k", Sampler.TOP_K, paper=False),
    Method("top-k + learned", Sampler.TOP_K, True, weighting="learned", paper=False),
)
"""Methods past the paper that the benchmark showed to gain (see docs/efficiency-study.md)."""
ALL_METHODS: tuple[Method, ...] = PAPER_METHODS + VARIANTS
CONTINUOUS_METHODS = "thompson + prop, thompson, thompson + learned, top-k + learned"


def default_method() -> Method:
    """The study's method that a run with the default settings (RunConfig) performs."""
    from kglens_tui.modes.kglens.config import RunConfig

    config = RunConfig()
    weighting = {"sum": "constant"}.get(config.propagation_mode, config.propagation_mode)
    return next(
        m
        for m in ALL_METHODS
        if m.sampler == config.sampler
        and m.propagation == config.propagation
        and (not m.propagation or m.weighting == weighting)
    )


"""Methods whose cost under continuous scheduling `kglens bench sampling` measures."""


def methods_named(spec: str) -> list[Method]:
    """``paper``, ``all`` or a comma list of method names; brute force is always included."""
    spec = spec.strip().lower()
    if spec in ("", "all"):
        return list(ALL_METHODS)
    if spec == "paper":
        return list(PAPER_METHODS)
    by_name = {m.name: m for m in ALL_METHODS}
    chosen = [BRUTE_FORCE]
    for name in (part.strip() for part in spec.split(",")):
        if name not in by_name:
            known = ", ".join(by_name)
            raise ValueError(f"unknown method {name!r} (known: {known}; or paper, all)")
        if by_name[name] not in chosen:
            chosen.append(by_name[name])
    return chosen


def simulated_truth(
    conn: sqlite3.Connection, kg: KGIndex, subset: str | None, seed: int = 0
) -> GroundTruth:
    """The simulated target's known error rates (``--target sim:SEED``) over a run's edges."""
    from kglens_tui.kg.positions import run_edge_positions

    pos = run_edge_positions(conn, kg, subset)
    if len(pos) == 0:
        raise ValueError(f"KG '{kg.name}' has no active edges in this selection")
    edges = [
        (
            int(kg.edge_ids[i]),
            kg.entity_keys[int(kg.s[i])],
            kg.pred_keys[int(kg.p[i])],
            kg.entity_keys[int(kg.o[i])],
        )
        for i in pos.tolist()
    ]
    rates = SimulatedClient(edges, seed=seed).error_rates
    return GroundTruth(
        source=f"sim:{seed} on {kg.name}{'/' + subset if subset else ''}",
        rates=rates,
        always_failed=rates >= SIM_ALWAYS_FAILED,
        s=kg.s[pos],
        o=kg.o[pos],
        n_nodes=len(kg.entity_keys),
        edge_ids=kg.edge_ids[pos],
        note=f"always failed = true rate >= {SIM_ALWAYS_FAILED}",
        p=kg.p[pos],
        simulated=True,
        kg_name=kg.name,
    )


def _answers_note(answers: np.ndarray) -> str:
    lo, hi = int(answers.min()), int(answers.max())
    return f"{lo if lo == hi else f'{lo}-{hi}'} answers per edge; always failed = failed every time"


def run_truth(conn: sqlite3.Connection, run_id: int) -> GroundTruth:
    """Failure frequency per edge over a stored brute-force run (errors never count), with the
    run's triage applied: a reply's corrected verdict counts (`kglens triage verifier-error`,
    `kglens triage reverify`), a KG-error reply or edge does not.

    Edges that never got an answer are left out; always failed = failed every time asked.
    """
    run = load_kglens_run(conn, run_id)
    if run.config.sampler != Sampler.BRUTE_FORCE:
        raise ValueError(
            f"run {run_id} used the {run.config.sampler} sampler; ground truth needs a "
            "brute-force run (`kglens probe --sampler brute-force --no-convergence-stop`)"
        )
    data = load_run_data(conn, run_id)
    kg = data.kg
    m, n = data.counts()
    asked = m + n
    keep = (asked > 0) & data.included()
    if not keep.any():
        raise ValueError(f"run {run_id} has no answered questions yet")
    pos = np.array([kg.edge_position(int(e)) for e in run.edge_ids[keep]], dtype=np.int64)
    rates = n[keep] / asked[keep]
    dropped = int((~keep).sum())
    note = _answers_note(asked[keep])
    if dropped:
        note += f"; {dropped} edges without an answer (or marked KG errors) left out"
    adjusted, logged = data.categories(True), data.categories(False)
    dropped_replies = int(np.count_nonzero(adjusted == DROPPED))
    changed = int(np.count_nonzero((adjusted != logged) & (adjusted != DROPPED)))
    if changed:
        note += f"; triage changes {counted(changed, 'verdict')}"
    if dropped_replies:
        note += f"; triage drops {counted(dropped_replies, 'reply', 'replies')} (KG errors)"
    return GroundTruth(
        source=f"run {run.id} ({run.target_label}, {run.kg_name}"
        f"{'/' + run.config.subset if run.config.subset else ''})",
        rates=rates.astype(np.float64),
        always_failed=(m[keep] == 0),
        s=kg.s[pos],
        o=kg.o[pos],
        n_nodes=len(kg.entity_keys),
        edge_ids=run.edge_ids[keep],
        note=note,
        p=kg.p[pos],
        kg_name=kg.name,
        answers=asked[keep],
    )


def load_ground_truth(
    conn: sqlite3.Connection,
    spec: str,
    kg_name: str,
    subset: str | None,
    predicates: str | None = None,
) -> GroundTruth:
    """``sim``, ``sim:SEED``, ``run:ID`` or ``csv:PATH`` (see `truth_csv`); with `predicates`
    (``--predicates``), only the edges of those predicates (see `restrict_predicates`)."""
    truth = _load_truth(conn, spec, kg_name, subset)
    return truth if predicates is None else restrict_predicates(conn, truth, predicates)


def _load_truth(
    conn: sqlite3.Connection, spec: str, kg_name: str, subset: str | None
) -> GroundTruth:
    kind, _, arg = spec.strip().partition(":")
    if kind == "run":
        try:
            return run_truth(conn, int(arg))
        except ValueError as exc:
            if not arg.strip().isdigit():
                raise ValueError(f"--ground-truth run:ID needs a run id (got {spec!r})") from exc
            raise
    if kind in ("sim", "simulated"):
        from kglens_tui.kg.bundled import ensure_kg

        ensure_kg(conn, kg_name)
        return simulated_truth(conn, load_kg(conn, kg_name), subset, _sim_truth_seed(arg))
    if kind == "csv":
        from kglens_tui.kg.bundled import ensure_kg
        from kglens_tui.kg.positions import run_edge_positions

        if not arg.strip():
            raise ValueError("--ground-truth csv:PATH needs a path")
        ensure_kg(conn, kg_name)
        kg = load_kg(conn, kg_name)
        return csv_truth(conn, Path(arg), kg_name, run_edge_positions(conn, kg, subset))
    raise ValueError(f"unknown ground truth {spec!r}: use sim, sim:SEED, run:ID or csv:PATH")


def _sim_truth_seed(arg: str) -> int:
    """The seed of a ``sim[:SEED]`` truth. The study answers each edge by a draw from its error
    rate to a plain Yes/No question, which no option of the simulator's (question form,
    refusals: `SimEffects`) moves, so a ``NAME=VALUE`` option is refused, named, rather than
    ignored."""
    given = [item.partition("=")[0].strip() for item in arg.split(",") if "=" in item]
    if given:
        raise ValueError(
            f"--ground-truth sim takes a seed only (sim:SEED), not {', '.join(given)}: the study "
            "answers each edge from its plain Yes/No error rate, which question-form options "
            "do not move (they are a target's: --target sim:SEED,NAME=VALUE)"
        )
    try:
        return int(arg) if arg.strip() else 0
    except ValueError:
        raise ValueError(f"the seed in 'sim:{arg}' must be an integer") from None


def restrict_predicates(conn: sqlite3.Connection, truth: GroundTruth, spec: str) -> GroundTruth:
    """The truth on the edges of some predicates only: ``spec`` is a comma list of predicate
    keys or labels (case-insensitive, as in a truth CSV). The study then runs on those edges,
    their neighbourhood taken among them; e.g. a stored run's truth on the predicates a model
    mostly knows is a real truth at a low base rate. A name that is no predicate of the truth's
    KG, or one without an edge in the truth, stops with one line naming it."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    if not names:
        raise ValueError("--predicates names no predicate (keys or labels, comma-separated)")
    if truth.p is None or not truth.kg_name:
        raise ValueError(f"--predicates needs a truth from a KG; {truth.source} has none")
    kg = load_kg(conn, truth.kg_name)
    lookup = predicate_lookup(kg)
    chosen: list[int] = []
    for name in names:
        pred = lookup.get(name.casefold())
        if pred is None:
            raise ValueError(
                f"--predicates: no predicate {name!r} in KG '{kg.name}' (keys or labels, "
                "comma-separated)"
            )
        if not (truth.p == pred).any():
            raise ValueError(
                f"--predicates: predicate {name!r} has no edge in the truth ({truth.source})"
            )
        if pred not in chosen:
            chosen.append(pred)
    keep = np.isin(truth.p, chosen)
    keys = ", ".join(kg.pred_keys[i] for i in chosen)
    named = counted(len(chosen), "predicate")
    return replace(
        truth,
        source=f"{truth.source}, predicates {keys}",
        rates=truth.rates[keep],
        always_failed=truth.always_failed[keep],
        s=truth.s[keep],
        o=truth.o[keep],
        edge_ids=truth.edge_ids[keep],
        p=truth.p[keep],
        note=f"{int(keep.sum()):,} of {truth.n_edges:,} edges ({named}); "
        + (truth.note if truth.answers is None else _answers_note(truth.answers[keep])),
        answers=None if truth.answers is None else truth.answers[keep],
    )


@dataclass(frozen=True)
class Drawn:
    """The answers of a batch that the KG-wide rates rest on, as `simulate` hands them to a
    tracker: the floor's (`probe.design`), or every answer of brute force's census."""

    edges: np.ndarray
    """Their edges (positions)."""
    failed: np.ndarray


class DrawTracker(Protocol):
    """Told after every batch of `simulate`: requests so far, the state after the update, and
    the batch's census answers (None for a batch of a method without the design)."""

    def step(self, requests: int, state: PKGState, drawn: Drawn | None) -> None: ...


@dataclass
class Trace:
    """One method, one seed: metric values after every batch, and the final ask counts."""

    requests: np.ndarray
    metrics: dict[str, np.ndarray]
    asked: np.ndarray


def _method_key(method: Method) -> int:
    """The method's random stream; a continuous variant shares its synchronous method's, so the
    two differ by scheduling only."""
    return stable_hash(method.name.removesuffix(CONTINUOUS)) % (2**31)


def update(
    method: Method,
    state: PKGState,
    batch: np.ndarray,
    failed: np.ndarray,
    neighbourhood: Neighbourhood | None,
    degree: np.ndarray | None = None,
) -> None:
    """Apply one batch's answers the method's way (the paper's eq. 2-3, or degree-weighted;
    learned propagation adds the edges' own answers here and refits in `simulate`)."""
    if method.weighting in ("constant", "learned") or neighbourhood is None:
        nbh = neighbourhood if method.weighting == "constant" else None
        apply_outcomes(state, batch, failed, ~failed, nbh, method.weight)
        return
    if method.weighting != "degree":
        raise ValueError(f"unknown propagation weighting {method.weighting!r}")
    if degree is None:
        degree = neighbourhood.neighbour_counts()
    scale = 1.0 / np.maximum(degree, 1.0)
    apply_outcomes(state, batch, failed, ~failed, neighbourhood, method.weight, scale)


def simulate(
    method: Method,
    truth: GroundTruth,
    scorer: Scorer,
    budget: int,
    batch_size: int,
    seed: int,
    neighbourhood: Neighbourhood | None = None,
    degree: np.ndarray | None = None,
    lag: int | None = None,
    tracker: DrawTracker | None = None,
) -> Trace:
    """Spend exactly `budget` requests with one method; score after every batch.

    `lag` > 0 (default: the method's) models continuous scheduling: batch t is drawn from the
    posterior after batch t - 1 - lag, without the edges of the batches still in flight (t - lag
    to t - 1). With a `floor` the batch is drawn by the sampling design (a rolling census's
    floor, then the sampler's picks) and `tracker` gets the floor's answers of every batch
    (brute force: every answer, its own census)."""
    lag = method.lag if lag is None else lag
    n_edges = truth.n_edges
    iterations = -(-budget // batch_size)
    learned = method.propagation and method.weighting == "learned"
    nbh = (neighbourhood or truth.neighbourhood()) if method.propagation and not learned else None
    if nbh is not None and method.weighting == "degree" and degree is None:
        degree = nbh.neighbour_counts()
    model = LearnedPropagation(truth.predicates, truth.s, truth.o) if learned else None
    top_k = method.top_k or scorer.ks[0]
    rng = np.random.default_rng([seed, _method_key(method)])
    state = PKGState.prior(n_edges)
    views: list[PKGState] = [state.copy()] if lag else []
    flying: list[np.ndarray] = []
    points = [scorer.score(state.mean_error, state.m + state.n)]
    requests = [0]
    spent = 0
    designed = method.floor > 0 and method.sampler is not Sampler.BRUTE_FORCE
    census = RollingFloor(n_edges, seed, gap=batch_size) if designed else None
    for iteration in range(1, iterations + 1):
        k = min(batch_size, budget - spent)
        view = views[0] if lag else state
        busy = np.concatenate(flying) if flying else None
        counted = k
        if designed:
            batch, counted, _ = designed_sample(
                method.sampler,
                view,
                k,
                rng,
                iteration,
                seed,
                method.floor,
                census,
                exclude=busy,
                top_k=top_k,
            )
        else:
            # the full batch, cut: brute force's round-robin position assumes a constant size
            batch = sample_batch(
                method.sampler, view, batch_size, rng, iteration, seed, exclude=busy, top_k=top_k
            )[:k]
        count = state.m[batch] + state.n[batch]
        failed = answer_uniforms(seed, batch, count) < truth.rates[batch]
        drawn = (
            Drawn(batch[:counted], failed[:counted])
            if designed or method.sampler is Sampler.BRUTE_FORCE
            else None
        )
        update(method, state, batch, failed, nbh, degree)
        if model is not None:
            model.after_iteration(state, iteration)
        if lag:
            views.append(state.copy())
            flying.append(batch)
            views, flying = views[-(lag + 1) :], flying[-lag:]
        spent += len(batch)
        if tracker is not None:
            tracker.step(spent, state, drawn)
        requests.append(spent)
        points.append(scorer.score(state.mean_error, state.m + state.n))
    metrics = {name: np.array([p[name] for p in points]) for name in scorer.names}
    return Trace(np.array(requests), metrics, (state.m + state.n).astype(np.int64))


def simulate_for_each_k(
    method: Method,
    truth: GroundTruth,
    scorer: Scorer,
    budget: int,
    batch_size: int,
    seed: int,
    neighbourhood: Neighbourhood | None = None,
    degree: np.ndarray | None = None,
) -> Trace:
    """`simulate`, except that a top-k method without its own k serves each k of the study: its
    metrics at k come from a run looking for k blind spots (as a user asking for k would run
    it); metrics without a k from the run for the first k."""
    if method.sampler is not Sampler.TOP_K or method.top_k is not None or len(scorer.ks) < 2:
        return simulate(method, truth, scorer, budget, batch_size, seed, neighbourhood, degree)
    runs = {
        k: simulate(
            replace(method, top_k=k), truth, scorer, budget, batch_size, seed, neighbourhood, degree
        )
        for k in scorer.ks
    }
    first = runs[scorer.ks[0]]
    metrics = {}
    for name, values in first.metrics.items():
        tail = name.rsplit("top", 1)[-1]
        metrics[name] = runs[int(tail)].metrics[name] if tail.isdigit() else values
    return Trace(first.requests, metrics, first.asked)


def _splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser, vectorised (uint64 arithmetic wraps)."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def answer_uniforms(seed: int, edges: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """A uniform in [0, 1) for the c-th answer about edge j, a pure function of (seed, j, c):
    every method asking edge j for the c-th time gets the same answer (common random numbers)."""
    key = _splitmix64(np.array([seed], dtype=np.uint64))
    x = (np.asarray(edges, dtype=np.uint64) << np.uint64(24)) ^ np.asarray(counts, np.uint64)
    z = _splitmix64(x ^ key)
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


@dataclass(frozen=True)
class Reach:
    """Requests one method needs to match brute force at the reference epochs, per seed, as a
    fraction of brute force's requests (None where it never did within the budget)."""

    fractions: tuple[float | None, ...]
    mean_curve: float | None = None
    """The same for the seed-mean curve: where the method's mean over the seeds reaches brute
    force's mean and stays there (the headline: a seed that never gets there counts, and a
    target near the metric's ceiling is not missed by noise alone)."""

    @property
    def reached(self) -> list[float]:
        """The fractions of the seeds that got there."""
        return [f for f in self.fractions if f is not None]


@dataclass
class StudyResult:
    """Every curve of the study, as data (for the table, CSV, SVG and a TUI chart)."""

    truth_source: str
    truth_note: str
    n_edges: int
    budget: int
    batch_size: int
    seeds: tuple[int, ...]
    ks: tuple[int, ...]
    reference_epochs: float
    methods: list[Method]
    requests: np.ndarray
    curves: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    """method name -> metric name -> array (seeds x points)."""
    seconds: float = 0.0
    setting: str = "as-is"
    """The truth setting (as-is, shuffled, corr=0.4, ...)."""
    base_rate: float = float("nan")
    """The truth's mean error rate."""
    neighbour_corr: float = float("nan")
    """Correlation of the true rate of an edge with its neighbours' mean (what propagation
    relies on)."""

    @property
    def metric_names(self) -> list[str]:
        return list(next(iter(self.curves.values())).keys())

    @property
    def epoch(self) -> int:
        """Requests per brute-force epoch (every edge once)."""
        return self.n_edges

    @property
    def reference_requests(self) -> float:
        return self.reference_epochs * self.n_edges

    def mean_curve(self, method: str, metric: str) -> np.ndarray:
        """The seed mean of one curve (NaN-aware)."""
        values = self.curves[method][metric]
        finite = np.isfinite(values)
        counts = finite.sum(axis=0)
        sums = np.where(finite, values, 0.0).sum(axis=0)
        mean: npt.NDArray[np.float64] = np.divide(
            sums, counts, out=np.full(len(sums), np.nan), where=counts > 0
        )
        return mean

    def at(self, method: str, metric: str, requests: float) -> np.ndarray:
        """One value per seed at a request count."""
        return np.array(
            [value_at(self.requests, row, requests) for row in self.curves[method][metric]]
        )

    def target(self, metric: str) -> float:
        """Brute force's seed-mean value of a metric at the reference epochs."""
        return float(np.mean(self.at(BRUTE_FORCE.name, metric, self.reference_requests)))

    def target_error(self, metric: str) -> float:
        """The standard error of the target: the spread of brute force's values over the seeds
        at the reference epochs, over the square root of their number (0 with one seed)."""
        values = self.at(BRUTE_FORCE.name, metric, self.reference_requests)
        values = values[np.isfinite(values)]
        if len(values) < 2:
            return 0.0
        return float(np.std(values, ddof=1) / np.sqrt(len(values)))

    def reach(self, method: str, metric: str) -> Reach:
        """Requests to match brute force's reference value (lower-is-better for MSE, higher for
        recall and G@k), per seed and for the seed mean, as fractions of brute force's
        reference requests. Matching means coming within the target's standard error (its own
        noise) and staying there: near a metric's ceiling, brute force itself would otherwise
        miss its own mean by noise alone."""
        sign = -1.0 if higher_is_better(metric) else 1.0
        target = self.target(metric) + sign * self.target_error(metric)

        def share(row: np.ndarray) -> float | None:
            got = requests_to_reach(self.requests, sign * row, sign * target)
            return None if got is None else got / self.reference_requests

        per_seed = tuple(share(row) for row in self.curves[method][metric])
        return Reach(per_seed, share(self.mean_curve(method, metric)))


def run_study(
    truth: GroundTruth,
    methods: Sequence[Method],
    *,
    budget_epochs: float = 6.0,
    batch_size: int = 64,
    seeds: Sequence[int] = (0, 1, 2),
    ks: Sequence[int] = (100, 200),
    reference_epochs: float = 4.5,
    progress: Callable[[int, int], None] | None = None,
) -> StudyResult:
    """Simulate every method with every seed under the same budget."""
    if batch_size < 1:
        raise ValueError("batch size must be at least 1")
    if not seeds:
        raise ValueError("need at least one seed")
    if reference_epochs > budget_epochs:
        raise ValueError(
            f"the reference ({reference_epochs} epochs) must fit in the budget "
            f"({budget_epochs} epochs)"
        )
    if BRUTE_FORCE not in methods:
        methods = [BRUTE_FORCE, *methods]
    started = time.perf_counter()
    budget = max(1, round(budget_epochs * truth.n_edges))
    scorer = Scorer(truth.rates, tuple(ks), truth.always_failed)
    nbh = truth.neighbourhood()
    degree = nbh.neighbour_counts()
    result = StudyResult(
        truth_source=truth.source,
        truth_note=truth.note,
        n_edges=truth.n_edges,
        budget=budget,
        batch_size=batch_size,
        seeds=tuple(seeds),
        ks=tuple(ks),
        reference_epochs=reference_epochs,
        methods=list(methods),
        requests=np.empty(0),
        setting=truth.setting,
        base_rate=float(truth.rates.mean()),
        neighbour_corr=truth.neighbour_correlation(),
    )
    total, done = len(methods) * len(seeds), 0
    traces: dict[str, list[Trace]] = {m.name: [] for m in methods}
    for seed in seeds:
        for method in methods:
            trace = simulate_for_each_k(
                method, truth, scorer, budget, batch_size, seed, nbh, degree
            )
            traces[method.name].append(trace)
            done += 1
            if progress is not None:
                progress(done, total)
    result.requests = traces[methods[0].name][0].requests
    for name, runs in traces.items():
        result.curves[name] = {
            metric: np.vstack([t.metrics[metric] for t in runs]) for metric in scorer.names
        }
    result.seconds = time.perf_counter() - started
    return result
