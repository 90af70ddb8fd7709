"""Model comparison: runs side by side in the paper's Table 3 layout (models x KG x EASY/HARD),
the edges one model knows and another does not, and drift between two runs of one model.

An edge's status in a run: knows (m > n, a win), unknown (m = 0, zero-sense) or partial (the
rest). Pairs of runs are compared on the edges both examined (by edge id, so subsets may differ),
leaving out edges marked as KG errors in either when adjusted.

Rates of different difficulties are never averaged together (what chance scores differs with
the questions asked), nor are failed or unfinished runs; and two runs asked different kinds of
question are a change of settings, not drift.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

import numpy as np

from kglens_tui.analysis.groups import RateSet, RunColumn, chance_of, rate_set, run_column
from kglens_tui.analysis.kgwide import KGWide, kg_wide
from kglens_tui.analysis.paired import on_one_plan, paired_count, paired_difference
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.answers.bias import Baseline
from kglens_tui.core.intervals import LEVEL, Proportion, wilson, z_value
from kglens_tui.core.status import RunStatus
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.modes.kglens.estimates import Difference, benjamini_hochberg, difference
from kglens_tui.runs.record import shown_status
from kglens_tui.runs.registry import observing_modes
from kglens_tui.textfmt import counted, pct, rate_ci, selection

STATUSES = ("knows", "partial", "unknown")
DIFFICULTIES = ("easy", "hard")


def edge_status(m: np.ndarray, n: np.ndarray) -> np.ndarray:
    """knows / partial / unknown per edge (meaningful where m + n > 0)."""
    return np.where(m > n, "knows", np.where(m == 0, "unknown", "partial"))


@dataclass(frozen=True)
class GridCell:
    """One model on one KG selection at one difficulty: the run shown, its KG-wide win rate
    (`analysis.kgwide`, None for a run drawn without the sampling design), its rates over the
    edges it examined and what chance scores on the questions it asked (independent asks, see
    `run_chance`)."""

    run_id: int
    status: str
    rates: RateSet
    chance: Baseline
    kg_wide: KGWide | None = None

    @property
    def finished(self) -> bool:
        """Whether the run finished (only finished runs count in an average)."""
        return self.status == RunStatus.FINISHED

    @property
    def incomplete(self) -> str:
        """ ", stopped" (the run's status) when the run did not finish, else ''."""
        return "" if self.finished else f", {self.status}"


@dataclass(frozen=True)
class GridAverage:
    """One model's mean win rate over the KGs of one difficulty: finished runs only (those
    left out in `left_out`), with `examined` edges over them, an interval (`mean_interval`)
    and the mean chance win rate of the same runs. Of KG-wide rates where every run has one:
    then `answers` holds the answers they rest on (its n), else None."""

    difficulty: str
    value: float | None
    low: float | None
    high: float | None
    runs: list[int]
    examined: int
    chance: float | None
    left_out: list[tuple[int, str]]
    answers: int | None = None

    def text(self, with_left_out: bool = True) -> str:
        """The cell: mean [interval], its finished runs, edges and chance, then (``with_left_out``)
        the runs left out."""
        gone = (
            "".join(f", run {r} {why} left out" for r, why in self.left_out)
            if with_left_out
            else ""
        )
        if self.value is None:
            return f"— (no finished run{gone})"
        n = f"{self.examined:,}" if self.answers is None else counted(self.answers, "answer")
        return (
            f"{rate_ci(self.value, self.low, self.high)} {counted(len(self.runs), 'run')}, "
            f"n={n} · chance {pct(self.chance)}{gone}"
        )


@dataclass(frozen=True)
class RunGrid:
    """Table 3: rows are models, columns (KG, difficulty). `averages` holds each model's mean
    win rate per difficulty (never across difficulties); `hidden` the runs not shown, each with
    the run shown in its cell; `samplers` every run's sampler (a cell's headline is KG-wide,
    one estimand whatever the sampler, so runs of two samplers share a cell)."""

    models: list[str]
    columns: list[tuple[str, str]]
    cells: dict[tuple[str, str, str], GridCell]
    averages: dict[tuple[str, str], GridAverage]
    hidden: list[tuple[int, int]]
    samplers: dict[int, str] = field(default_factory=dict)

    def cell(self, model: str, kg: str, difficulty: str) -> GridCell | None:
        return self.cells.get((model, kg, difficulty))

    def average(self, model: str, difficulty: str) -> GridAverage | None:
        """The model's average at one difficulty; None when it has no cell there."""
        return self.averages.get((model, difficulty))

    def kgs_per_difficulty(self, difficulty: str) -> int:
        """How many KG columns the grid has at one difficulty (an average needs two)."""
        return sum(1 for c in self.columns if c[1] == difficulty)

    def difficulties(self) -> list[str]:
        """The difficulties of the columns, in column order."""
        return list(dict.fromkeys(c[1] for c in self.columns))


def mean_interval(cells: list[Proportion]) -> tuple[float | None, float | None, float | None]:
    """(mean, low, high) of several rates' unweighted mean (the paper's Average): each rate's
    standard error taken as half its interval's width over z, the mean's as their root sum of
    squares over the count, the interval mean +- z times that, clipped to [0, 1]."""
    bounds = [c.bounds for c in cells]
    shown = [
        (v, lo, hi) for v, lo, hi in bounds if v is not None and lo is not None and hi is not None
    ]
    if not shown:
        return None, None, None
    z = z_value()
    mean = float(np.mean([v for v, _, _ in shown]))
    se = float(np.sqrt(sum(((hi - lo) / (2 * z)) ** 2 for _, lo, hi in shown))) / len(shown)
    return mean, max(0.0, mean - z * se), min(1.0, mean + z * se)


def kg_wide_mean(estimates: list[KGWide]) -> tuple[float | None, float | None, float | None]:
    """(mean, low, high) of several KG-wide win rates (the paper's Average over KGs): the runs
    are independent, so the mean's standard error is the root sum of squares over the count."""
    if not estimates:
        return None, None, None
    z = z_value()
    mean = float(np.mean([e.rate.win for e in estimates]))
    se = float(np.sqrt(sum(e.rate.se**2 for e in estimates))) / len(estimates)
    return mean, max(0.0, mean - z * se), min(1.0, mean + z * se)


def run_chance(d: RunData, adjusted: bool = True) -> Baseline:
    """What blind guessing scores on the questions the run asked, each ask independent
    (`groups.chance_of` over the run's included edges), over the replies its rates count: with
    triage when ``adjusted`` (a KG-error mark takes its replies out), else as logged, where it
    is the `kglens report` baseline (`answers.bias.run_trust`)."""
    return chance_of(d, np.flatnonzero(d.included(adjusted)), adjusted)


def load_runs(conn: sqlite3.Connection, run_ids: list[int]) -> list[RunData]:
    """Load several runs, sharing one KGIndex per KG."""
    kgs: dict[str, KGIndex] = {}
    out = []
    for rid in run_ids:
        name = conn.execute(
            "SELECT k.name FROM run r JOIN kg k ON k.id = r.kg_id WHERE r.id = ?", (rid,)
        ).fetchone()
        if name is not None and name[0] not in kgs:
            kgs[name[0]] = load_kg(conn, name[0])
        out.append(load_run_data(conn, rid, kgs.get(name[0]) if name else None))
    return out


def model_label(data: RunData) -> str:
    """A run's model as a Table 3 row name."""
    return run_column(data).label


COLUMN_DEFAULTS = (("verifier", "alias"), ("generator", "template"), ("prompt_order", "paper"))
"""Settings that change what a run's rates mean, with the value a column leaves unsaid (not the
sampler: a cell's headline is KG-wide, one estimand whatever the sampler)."""


def column_label(data: RunData) -> str:
    """A run's Table 3 column besides its difficulty: the KG with the subset and predicates
    asked, and every setting of `COLUMN_DEFAULTS` that is not the default (runs that differ
    there are never one column)."""
    cfg = data.run.config
    parts = [selection(data.run.kg_name, cfg.subset, cfg.predicates)]
    for name, default in COLUMN_DEFAULTS:
        value = str(getattr(cfg, name))
        if value != default:
            parts.append(f"{name.replace('_', ' ')} {value}")
    return " · ".join(parts)


def _run_rates(d: RunData, adjusted: bool, level: float) -> RateSet:
    """A run's three rates with intervals over its included edges."""
    m, n = d.counts(adjusted)
    keep = d.included(adjusted)
    return rate_set(m[keep], n[keep], level)


def run_grid(
    conn: sqlite3.Connection,
    run_ids: list[int] | None = None,
    *,
    adjusted: bool = True,
    level: float = LEVEL,
) -> RunGrid:
    """Table 3 over the given runs (default: every run of a mode that stores observations,
    KGLens's: `observing_modes`); see grid_of_runs."""
    if run_ids is None:
        modes = observing_modes()
        marks = ", ".join("?" * len(modes))
        sql = f"SELECT id FROM run WHERE mode IN ({marks}) ORDER BY id"
        run_ids = [r[0] for r in conn.execute(sql, modes)]
    return grid_of_runs(load_runs(conn, run_ids), adjusted=adjusted, level=level)


def run_preference(status: str, examined: int, run_id: int) -> tuple[bool, bool, bool, int, int]:
    """How strongly a run stands for its model, KG and difficulty, to sort by (greater first):
    a run that examined edges before one that examined none, one that did not fail before one
    that failed, a finished one (the only kind an average holds) before one stopped or
    interrupted, then the most edges examined, then the latest. A Table 3 cell shows the
    greatest of its runs (`grid_of_runs`); a run is compared by default with the greatest of
    the others (`compare_partners`)."""
    return (
        examined > 0,
        status != RunStatus.FAILED,
        status == RunStatus.FINISHED,
        examined,
        run_id,
    )


CELL_RULE = (
    "a cell shows one run: one that examined edges, did not fail and finished before others, "
    "then the one with most edges examined, then the latest"
)
"""`run_preference` in words, for notes that say why a run is not in its cell."""


def compare_partners(conn: sqlite3.Connection, run_id: int) -> list[int]:
    """The runs on run ``run_id``'s KG to compare it with (KGLens's: those of a mode that stores
    observations, `observing_modes`), best first by `run_preference` over their stored status
    and edges examined (a failed run, or one that examined no edge, last): the first is the
    default partner. Empty when there is none (or no run ``run_id``)."""
    modes = observing_modes()
    rows = conn.execute(
        f"""
        SELECT r.id, r.status, r.stop_reason, r.owner, COALESCE(i.examined, 0)
        FROM run r
        JOIN run a ON a.id = ? AND a.kg_id = r.kg_id
        LEFT JOIN iteration i ON i.run_id = r.id AND i.iteration = r.iterations_done
        WHERE r.mode IN ({", ".join("?" * len(modes))}) AND r.id != a.id
        """,
        (run_id, *modes),
    ).fetchall()
    ranked = sorted(
        (
            run_preference(shown_status(status, reason, owner)[0], int(examined), int(rid))
            for rid, status, reason, owner, examined in rows
        ),
        reverse=True,
    )
    return [rank[-1] for rank in ranked]


def grid_of_runs(runs: list[RunData], *, adjusted: bool = True, level: float = LEVEL) -> RunGrid:
    """Table 3 over loaded runs. When several runs fill one cell the one `run_preference` puts
    first is shown (its id and, unless finished, its status in the cell); the others are listed
    in `hidden`."""
    rates = {d.run.id: _run_rates(d, adjusted, level) for d in runs}
    chosen: dict[tuple[str, str, str], RunData] = {}

    def rank(d: RunData) -> tuple[bool, bool, bool, int, int]:
        return run_preference(d.run.status, rates[d.run.id].examined, d.run.id)

    for d in runs:
        key = (model_label(d), column_label(d), str(d.run.config.difficulty))
        old = chosen.get(key)
        if old is None or rank(d) > rank(old):
            chosen[key] = d
    shown_ids = {d.run.id for d in chosen.values()}
    hidden = [
        (
            d.run.id,
            chosen[(model_label(d), column_label(d), str(d.run.config.difficulty))].run.id,
        )
        for d in runs
        if d.run.id not in shown_ids
    ]
    models = list(dict.fromkeys(k[0] for k in sorted(chosen, key=lambda k: chosen[k].run.id)))
    columns = sorted(
        {(k[1], k[2]) for k in chosen},
        key=lambda c: (c[0], DIFFICULTIES.index(c[1]) if c[1] in DIFFICULTIES else 9, c[1]),
    )
    cells = {
        key: GridCell(
            d.run.id, d.run.shown[0], rates[d.run.id], run_chance(d, adjusted), kg_wide(d, adjusted)
        )
        for key, d in chosen.items()
    }
    averages = {}
    for model in models:
        for difficulty in dict.fromkeys(c[1] for c in columns):
            mine = [c for k, c in cells.items() if k[0] == model and k[2] == difficulty]
            if not mine:
                continue
            counted = [c for c in mine if c.finished and c.rates.win.value is not None]
            answers = None
            if counted and all(c.kg_wide is not None for c in counted):
                value, low, high = kg_wide_mean([c.kg_wide for c in counted if c.kg_wide])
                answers = sum(c.kg_wide.rate.answers for c in counted if c.kg_wide)
                chances = [
                    1 - c.kg_wide.chance_error
                    for c in counted
                    if c.kg_wide is not None and c.kg_wide.chance_error is not None
                ]
            else:
                value, low, high = mean_interval([c.rates.win for c in counted])
                chances = [c.chance.win_rate for c in counted if c.chance.win_rate is not None]
            averages[(model, difficulty)] = GridAverage(
                difficulty=difficulty,
                value=value,
                low=low,
                high=high,
                runs=[c.run_id for c in counted],
                examined=sum(c.rates.examined for c in counted),
                chance=float(np.mean(chances)) if chances else None,
                left_out=[
                    (c.run_id, c.status if not c.finished else "no edge examined")
                    for c in mine
                    if c not in counted
                ],
                answers=answers,
            )
    samplers = {d.run.id: str(d.run.config.sampler) for d in runs}
    return RunGrid(models, columns, cells, averages, hidden, samplers)


@dataclass(frozen=True)
class EdgePair:
    """One edge in two runs."""

    edge_id: int
    subject: str
    predicate: str
    object: str
    m_a: int
    n_a: int
    mean_a: float
    status_a: str
    m_b: int
    n_b: int
    mean_b: float
    status_b: str


@dataclass(frozen=True)
class KnowledgeDiff:
    """Two runs on the edges both examined: a 3 x 3 table of statuses, and the edges one knows
    and the other does not (largest difference in posterior mean first)."""

    a: RunColumn
    b: RunColumn
    common: int
    table: dict[tuple[str, str], int]
    a_only: list[EdgePair]
    b_only: list[EdgePair]


def _pairs(a: RunData, b: RunData, adjusted: bool) -> list[EdgePair]:
    if a.run.kg_id != b.run.kg_id:
        raise ValueError(
            f"runs {a.run.id} and {b.run.id} are on different KGs ({a.run.kg_name}, "
            f"{b.run.kg_name}); compare runs on the same KG"
        )
    ma, na = a.counts(adjusted)
    mb, nb = b.counts(adjusted)
    mean_a, mean_b = a.mean_error(adjusted), b.mean_error(adjusted)
    ok_a, ok_b = a.included(adjusted), b.included(adjusted)
    sa, sb = edge_status(ma, na), edge_status(mb, nb)
    out = []
    for edge_id, pa in a.position_of.items():
        pb = b.position_of.get(edge_id)
        if pb is None or not (ok_a[pa] and ok_b[pb]):
            continue
        if ma[pa] + na[pa] == 0 or mb[pb] + nb[pb] == 0:
            continue
        subj, pred, obj = a.edge_label(pa)
        out.append(
            EdgePair(
                edge_id=edge_id,
                subject=subj,
                predicate=pred,
                object=obj,
                m_a=int(ma[pa]),
                n_a=int(na[pa]),
                mean_a=float(mean_a[pa]),
                status_a=str(sa[pa]),
                m_b=int(mb[pb]),
                n_b=int(nb[pb]),
                mean_b=float(mean_b[pb]),
                status_b=str(sb[pb]),
            )
        )
    return out


def knowledge_diff(a: RunData, b: RunData, *, adjusted: bool = True) -> KnowledgeDiff:
    """What run a's model knows and b's does not, and the reverse (same KG required)."""
    return _diff(a, b, _pairs(a, b, adjusted))


def _diff(a: RunData, b: RunData, pairs: list[EdgePair]) -> KnowledgeDiff:
    table = {(x, y): 0 for x in STATUSES for y in STATUSES}
    for p in pairs:
        table[(p.status_a, p.status_b)] += 1
    a_only = sorted(
        (p for p in pairs if p.status_a == "knows" and p.status_b == "unknown"),
        key=lambda p: (-(p.mean_b - p.mean_a), p.edge_id),
    )
    b_only = sorted(
        (p for p in pairs if p.status_b == "knows" and p.status_a == "unknown"),
        key=lambda p: (-(p.mean_a - p.mean_b), p.edge_id),
    )
    return KnowledgeDiff(run_column(a), run_column(b), len(pairs), table, a_only, b_only)


@dataclass(frozen=True)
class PredicateDrift:
    """One predicate's zero-sense rate in both runs, over the edges both examined."""

    predicate: str
    edges: int
    zero_sense_a: Proportion
    zero_sense_b: Proportion


@dataclass(frozen=True)
class PredicateTest:
    """One predicate's KG-wide error rate in both runs and the test of a difference."""

    predicate: str
    a: KGWide
    b: KGWide
    difference: Difference
    q_value: float
    """The p-value adjusted over every predicate tested (Benjamini-Hochberg)."""

    @property
    def significant(self) -> bool:
        return self.q_value < SIGNIFICANCE


@dataclass(frozen=True)
class EdgeTests:
    """Per edge both runs answered: Fisher's exact test of their failure counts, adjusted over
    the edges by Benjamini-Hochberg (a few answers an edge rarely show a change on their own)."""

    tested: int
    significant: list[EdgePair]


SIGNIFICANCE = 0.05
"""The false discovery rate (and test level) under which a difference counts as significant."""


@dataclass(frozen=True)
class Drift:
    """How run b differs from run a (b minus a): rates over each run's own examined edges,
    status changes and the mean shift of the posterior mean on the edges both examined.
    `differs` names the settings that change what the rates mean (`differing_settings`); it is
    drift only when the model is the same and nothing there differs (`is_drift`)."""

    same_model: bool
    differs: list[str]
    chance_a: Baseline
    chance_b: Baseline
    rates_a: RateSet
    rates_b: RateSet
    delta: dict[str, float | None]
    diff: KnowledgeDiff
    changed: list[EdgePair]
    mean_shift: float | None
    per_predicate: list[PredicateDrift]
    kg_wide_a: KGWide | None = None
    kg_wide_b: KGWide | None = None
    difference: Difference | None = None
    """b's KG-wide error rate minus a's, with its interval and the test of no difference."""
    paired: int = 0
    """Questions both runs answered when they asked one plan (`probe.plan`): the difference
    and the predicates' are then taken over those, answer by answer (0: independent runs)."""
    predicate_tests: list[PredicateTest] = field(default_factory=list)
    """Each predicate both runs estimate KG-wide: its difference and, over all of them, the
    Benjamini-Hochberg adjusted p-value (significant: below 0.05)."""
    edge_tests: EdgeTests | None = None
    sampled: str = ""
    """"sampler thompson → top-k" when the runs' samplers differ: their rates over the examined
    edges are then over edges each sampler chose, and move with that alone (the KG-wide rates
    are the same estimand whatever the sampler)."""

    @property
    def is_drift(self) -> bool:
        """Same model asked the same kind of questions by the same sampler: a change of the
        rates over the examined edges is the model's drift."""
        return self.same_model and not self.differs and not self.sampled

    @property
    def not_drift_because(self) -> list[str]:
        """Why the change is no drift: "different models", the settings in `differs` and the
        samplers (`sampled`)."""
        return [
            *([] if self.same_model else ["different models"]),
            *self.differs,
            *([self.sampled] if self.sampled else []),
        ]


DIFFERING_SETTINGS = ("difficulty", "selection", "verifier", "generator", "prompt_order")
"""Run settings that change what a run's rates mean: the kind of question (Yes/No or Wh), the
edges asked about (subset, predicates), who judges the answers, who words the questions and
their order in the prompt. Runs that differ there are never merged, and a difference between
them is not the model's alone."""


def _setting(data: RunData, name: str) -> str:
    """One of `DIFFERING_SETTINGS` of a run, as shown."""
    cfg = data.run.config
    if name == "selection":
        return selection(data.run.kg_name, cfg.subset, cfg.predicates, full=False)
    value = str(getattr(cfg, name))
    return value.upper() if name == "difficulty" else value


def _sampled(a: RunData, b: RunData) -> str:
    """ "sampler A → B" when the runs' samplers differ, else ''."""
    sa, sb = str(a.run.config.sampler), str(b.run.config.sampler)
    return "" if sa == sb else f"sampler {sa} → {sb}"


def differing_settings(a: RunData, b: RunData) -> list[str]:
    """The settings of `DIFFERING_SETTINGS` in which run b differs from run a, as "difficulty
    EASY → HARD"; empty when both ask the same kind of questions about the same edges, judged
    and worded alike."""
    out = []
    for name in DIFFERING_SETTINGS:
        va, vb = _setting(a, name), _setting(b, name)
        if va != vb:
            out.append(f"{name.replace('_', ' ')} {va} → {vb}")
    return out


def drift(a: RunData, b: RunData, *, adjusted: bool = True, level: float = LEVEL) -> Drift:
    """Run b against run a; drift when both are the same model asked the same kind of questions
    (see `Drift.is_drift`)."""
    pairs = _pairs(a, b, adjusted)
    diff = _diff(a, b, pairs)
    ra, rb = _run_rates(a, adjusted, level), _run_rates(b, adjusted, level)
    delta = {}
    for metric in ("win", "zero_sense", "all_sense"):
        va, vb = ra.get(metric).value, rb.get(metric).value
        delta[metric] = None if va is None or vb is None else vb - va
    changed = sorted(
        (p for p in pairs if p.status_a != p.status_b),
        key=lambda p: (-abs(p.mean_b - p.mean_a), p.edge_id),
    )
    shift = float(np.mean([p.mean_b - p.mean_a for p in pairs])) if pairs else None
    by_pred: dict[str, list[EdgePair]] = {}
    for p in pairs:
        by_pred.setdefault(p.predicate, []).append(p)
    per_predicate = [
        PredicateDrift(
            predicate=name,
            edges=len(ps),
            zero_sense_a=wilson(sum(p.m_a == 0 for p in ps), len(ps), level),
            zero_sense_b=wilson(sum(p.m_b == 0 for p in ps), len(ps), level),
        )
        for name, ps in sorted(by_pred.items())
    ]
    wide_a, wide_b = kg_wide(a, adjusted), kg_wide(b, adjusted)
    paired = paired_count(a, b, adjusted) if on_one_plan(a, b) else 0
    return Drift(
        kg_wide_a=wide_a,
        kg_wide_b=wide_b,
        difference=None
        if wide_a is None or wide_b is None
        else paired_difference(a, b, adjusted)
        if paired
        else difference(wide_a.rate, wide_b.rate),
        paired=paired,
        predicate_tests=predicate_tests(a, b, adjusted, paired=bool(paired)),
        edge_tests=edge_tests(pairs),
        same_model=a.run.target_label == b.run.target_label,
        differs=differing_settings(a, b),
        sampled=_sampled(a, b),
        chance_a=run_chance(a, adjusted),
        chance_b=run_chance(b, adjusted),
        rates_a=ra,
        rates_b=rb,
        delta=delta,
        diff=diff,
        changed=changed,
        mean_shift=shift,
        per_predicate=per_predicate,
    )


def predicate_tests(
    a: RunData, b: RunData, adjusted: bool = True, paired: bool = False
) -> list[PredicateTest]:
    """Every predicate of both runs with a KG-wide estimate in each: b minus a, tested (answer
    by answer when ``paired``: runs on one plan), the p-values adjusted together
    (Benjamini-Hochberg), most significant first."""
    found = []
    for p in sorted(set(a.kg.p[a.kg_pos].tolist()) & set(b.kg.p[b.kg_pos].tolist())):
        wa, wb = kg_wide(a, adjusted, predicate=int(p)), kg_wide(b, adjusted, predicate=int(p))
        if wa is None or wb is None:
            continue
        d = paired_difference(a, b, adjusted, int(p)) if paired else difference(wa.rate, wb.rate)
        if d is not None:
            found.append((a.kg.pred_labels[int(p)], wa, wb, d))
    q = benjamini_hochberg(np.array([d.p_value for *_, d in found]))
    tests = [
        PredicateTest(name, wa, wb, d, float(qv))
        for (name, wa, wb, d), qv in zip(found, q, strict=True)
    ]
    return sorted(tests, key=lambda t: (t.q_value, t.predicate))


def edge_tests(pairs: list[EdgePair]) -> EdgeTests:
    """Fisher's exact test per edge both runs answered, Benjamini-Hochberg over them."""
    from scipy.stats import fisher_exact

    if not pairs:
        return EdgeTests(0, [])
    p_values = np.ones(len(pairs))
    for i, e in enumerate(pairs):
        if (e.m_a, e.n_a) != (e.m_b, e.n_b):
            p_values[i] = fisher_exact([[e.m_a, e.n_a], [e.m_b, e.n_b]]).pvalue
    q = benjamini_hochberg(p_values)
    return EdgeTests(len(pairs), [e for e, qv in zip(pairs, q, strict=True) if qv < SIGNIFICANCE])
