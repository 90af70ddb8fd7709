"""`kglens bench sampling`: the paper's efficiency study (2.4, Fig. 3), simulated and vectorised.

Ground-truth error rates come from the simulated target's known rates or from a brute-force run
stored in the workspace. Each method then spends the same request budget; a sampled edge is
answered by a Bernoulli draw from its true rate (no LLM calls). Draws use common random numbers:
the c-th time any method asks edge j, the answer is ``u[j, c] < rate[j]`` for the seed's table
``u``, so methods differ by what they ask, not by luck. Curves are recorded after every batch.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from kglens_tui.analysis.efficiency import Scorer, requests_to_reach, value_at
from kglens_tui.kg.graph import KGIndex, Neighbourhood, load_kg
from kglens_tui.llm.simulated import SimulatedClient, stable_hash
from kglens_tui.probe.pkg import PKGState, apply_outcomes
from kglens_tui.probe.runstore import load_run, observed_counts
from kglens_tui.probe.samplers import Sampler, sample_batch

SIM_ALWAYS_FAILED = 0.9
"""With a simulated truth, edges whose true error rate is at least this count as always failed."""


@dataclass(frozen=True)
class Method:
    """One way of spending requests: a sampler, propagation, and how the rate is estimated.

    ``estimate``: ``posterior`` is the paper's alpha / (alpha + beta), propagated pseudo-counts
    included; ``observed`` is (1 + failures) / (2 + asks) from the edge's own answers only, while
    sampling still uses the propagated alpha and beta.
    """

    name: str
    sampler: Sampler
    propagation: bool = False
    weight: float = 1.0
    estimate: str = "posterior"
    paper: bool = True

    def estimate_of(self, state: PKGState) -> np.ndarray:
        """The method's estimated error rate per edge."""
        if self.estimate == "observed":
            return (1.0 + state.n) / (2.0 + state.m + state.n)
        return state.mean_error


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
VARIANTS: tuple[Method, ...] = ()
"""Methods past the paper that the benchmark showed to gain (see README, Efficiency study)."""
ALL_METHODS: tuple[Method, ...] = PAPER_METHODS + VARIANTS


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


@dataclass
class GroundTruth:
    """True error rates of the study's edges, with the graph needed for propagation."""

    source: str
    rates: np.ndarray
    always_failed: np.ndarray
    s: np.ndarray
    o: np.ndarray
    n_nodes: int
    edge_ids: np.ndarray
    note: str = ""

    @property
    def n_edges(self) -> int:
        return len(self.rates)

    def neighbourhood(self) -> Neighbourhood:
        return Neighbourhood(self.s, self.o, self.n_nodes)


def simulated_truth(
    conn: sqlite3.Connection, kg: KGIndex, subset: str | None, seed: int = 0
) -> GroundTruth:
    """The simulated target's known error rates (``--target sim:SEED``) over a run's edges."""
    from kglens_tui.probe.engine import run_edge_positions

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
    )


def run_truth(conn: sqlite3.Connection, run_id: int) -> GroundTruth:
    """Failure frequency per edge over a stored brute-force run (errors never count).

    Edges that never got an answer are left out; always failed = failed every time asked.
    """
    run = load_run(conn, run_id)
    if run.config.sampler != Sampler.BRUTE_FORCE:
        raise ValueError(
            f"run {run_id} used the {run.config.sampler} sampler; ground truth needs a "
            "brute-force run (`kglens probe --sampler brute-force --no-convergence-stop`)"
        )
    kg = load_kg(conn, run.kg_name)
    m, n = observed_counts(conn, run.id, len(run.edge_ids))
    asked = m + n
    keep = asked > 0
    if not keep.any():
        raise ValueError(f"run {run_id} has no answered questions yet")
    pos = np.array([kg.edge_position(int(e)) for e in run.edge_ids[keep]], dtype=np.int64)
    rates = n[keep] / asked[keep]
    lo, hi = int(asked[keep].min()), int(asked[keep].max())
    epochs = f"{lo}" if lo == hi else f"{lo}-{hi}"
    dropped = int((~keep).sum())
    note = f"{epochs} answers per edge; always failed = failed every time"
    if dropped:
        note += f"; {dropped} edges without an answer left out"
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
    )


def load_ground_truth(
    conn: sqlite3.Connection, spec: str, kg_name: str, subset: str | None
) -> GroundTruth:
    """``sim``, ``sim:SEED`` or ``run:ID``."""
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

        try:
            seed = int(arg) if arg else 0
        except ValueError:
            raise ValueError(f"the seed in {spec!r} must be an integer") from None
        ensure_kg(conn, kg_name)
        return simulated_truth(conn, load_kg(conn, kg_name), subset, seed)
    raise ValueError(f"unknown ground truth {spec!r}: use sim, sim:SEED or run:ID")


@dataclass
class Trace:
    """One method, one seed: metric values after every batch, and the final ask counts."""

    requests: np.ndarray
    metrics: dict[str, np.ndarray]
    asked: np.ndarray


def _method_key(method: Method) -> int:
    return stable_hash(method.name) % (2**31)


def simulate(
    method: Method,
    truth: GroundTruth,
    scorer: Scorer,
    budget: int,
    batch_size: int,
    seed: int,
    neighbourhood: Neighbourhood | None = None,
    uniforms: np.ndarray | None = None,
) -> Trace:
    """Spend exactly `budget` requests with one method; score after every batch."""
    n_edges = truth.n_edges
    iterations = -(-budget // batch_size)
    if uniforms is None:
        uniforms = answer_table(n_edges, iterations, seed)
    nbh = (neighbourhood or truth.neighbourhood()) if method.propagation else None
    rng = np.random.default_rng([seed, _method_key(method)])
    state = PKGState.prior(n_edges)
    points = [scorer.score(method.estimate_of(state), state.m + state.n)]
    requests = [0]
    spent = 0
    for iteration in range(1, iterations + 1):
        k = min(batch_size, budget - spent)
        batch = sample_batch(method.sampler, state, batch_size, rng, iteration, seed)[:k]
        count = state.m[batch] + state.n[batch]
        failed = uniforms[batch, count] < truth.rates[batch]
        apply_outcomes(state, batch, failed, ~failed, nbh, method.weight)
        spent += len(batch)
        requests.append(spent)
        points.append(scorer.score(method.estimate_of(state), state.m + state.n))
    metrics = {name: np.array([p[name] for p in points]) for name in scorer.names}
    return Trace(np.array(requests), metrics, (state.m + state.n).astype(np.int64))


def answer_table(n_edges: int, iterations: int, seed: int) -> np.ndarray:
    """Uniforms u[j, c] for the c-th answer about edge j (an edge is asked once per batch at
    most, so c < iterations)."""
    rng = np.random.default_rng([seed, 104729])
    return rng.random((n_edges, iterations + 1), dtype=np.float32)


@dataclass(frozen=True)
class Reach:
    """Requests one method needs to match brute force at the reference epochs, per seed, as a
    fraction of brute force's requests (None where it never did within the budget)."""

    fractions: tuple[float | None, ...]

    @property
    def reached(self) -> list[float]:
        return [f for f in self.fractions if f is not None]

    @property
    def mean(self) -> float | None:
        got = self.reached
        return float(np.mean(got)) if len(got) == len(self.fractions) and got else None

    @property
    def sd(self) -> float:
        got = self.reached
        return float(np.std(got, ddof=1)) if len(got) > 1 else 0.0


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
        with np.errstate(invalid="ignore"):
            return np.nanmean(values, axis=0) if np.isfinite(values).any() else values[0]

    def at(self, method: str, metric: str, requests: float) -> np.ndarray:
        """One value per seed at a request count."""
        return np.array(
            [value_at(self.requests, row, requests) for row in self.curves[method][metric]]
        )

    def target(self, metric: str) -> float:
        """Brute force's seed-mean value of a metric at the reference epochs."""
        return float(np.mean(self.at(BRUTE_FORCE.name, metric, self.reference_requests)))

    def reach(self, method: str, metric: str) -> Reach:
        """Requests to match brute force's reference value (lower-is-better for MSE, higher for
        recall), per seed, as fractions of brute force's reference requests."""
        target = self.target(metric)
        sign = -1.0 if metric.startswith("recall") else 1.0
        out: list[float | None] = []
        for row in self.curves[method][metric]:
            got = requests_to_reach(self.requests, sign * row, sign * target)
            out.append(None if got is None else got / self.reference_requests)
        return Reach(tuple(out))


def run_study(
    truth: GroundTruth,
    methods: Sequence[Method],
    *,
    budget_epochs: float = 6.0,
    batch_size: int = 64,
    seeds: Sequence[int] = (0, 1, 2),
    ks: Sequence[int] = (200, 600),
    reference_epochs: float = 4.5,
    progress: Callable[[int, int], None] | None = None,
) -> StudyResult:
    """Simulate every method with every seed under the same budget."""
    import time

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
    iterations = -(-budget // batch_size)
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
    )
    total, done = len(methods) * len(seeds), 0
    traces: dict[str, list[Trace]] = {m.name: [] for m in methods}
    for seed in seeds:
        uniforms = answer_table(truth.n_edges, iterations, seed)
        for method in methods:
            trace = simulate(method, truth, scorer, budget, batch_size, seed, nbh, uniforms)
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
