"""Model comparison: runs side by side in the paper's Table 3 layout (models x KG x EASY/HARD),
the edges one model knows and another does not, and drift between two runs of one model.

An edge's status in a run: knows (m > n, a win), unknown (m = 0, zero-sense) or partial (the
rest). Pairs of runs are compared on the edges both examined (by edge id, so subsets may differ),
leaving out edges marked as KG errors in either when adjusted.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.groups import RateSet, RunColumn, rate_set, run_column
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.core.intervals import LEVEL, Proportion, wilson
from kglens_tui.core.status import RunStatus
from kglens_tui.kg.graph import KGIndex, load_kg

STATUSES = ("knows", "partial", "unknown")
DIFFICULTIES = ("easy", "hard")


def edge_status(m: np.ndarray, n: np.ndarray) -> np.ndarray:
    """knows / partial / unknown per edge (meaningful where m + n > 0)."""
    return np.where(m > n, "knows", np.where(m == 0, "unknown", "partial"))


@dataclass(frozen=True)
class GridCell:
    """One model on one KG at one difficulty: the run shown and its rates."""

    run_id: int
    status: str
    rates: RateSet

    @property
    def incomplete(self) -> str:
        """ ", stopped" (the run's status) when the run did not finish, else ''."""
        return "" if self.status == RunStatus.FINISHED else f", {self.status}"


@dataclass(frozen=True)
class RunGrid:
    """Table 3: rows are models, columns (KG, difficulty); average is the mean of the model's
    win rates over its filled cells (the paper's Average column)."""

    models: list[str]
    columns: list[tuple[str, str]]
    cells: dict[tuple[str, str, str], GridCell]
    average: dict[str, float | None]

    def cell(self, model: str, kg: str, difficulty: str) -> GridCell | None:
        return self.cells.get((model, kg, difficulty))


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
    """Table 3 over the given runs (default: every KGLens-mode run); see grid_of_runs."""
    if run_ids is None:
        run_ids = [
            r[0] for r in conn.execute("SELECT id FROM run WHERE mode = 'kglens' ORDER BY id")
        ]
    return grid_of_runs(load_runs(conn, run_ids), adjusted=adjusted, level=level)


def grid_of_runs(runs: list[RunData], *, adjusted: bool = True, level: float = LEVEL) -> RunGrid:
    """Table 3 over loaded runs. When several runs fill one cell the latest finished one is
    shown, else the latest."""
    chosen: dict[tuple[str, str, str], RunData] = {}
    for d in runs:
        key = (model_label(d), d.run.kg_name, str(d.run.config.difficulty))
        old = chosen.get(key)
        rank = (d.run.status == RunStatus.FINISHED, d.run.id)
        if old is None or rank > (old.run.status == RunStatus.FINISHED, old.run.id):
            chosen[key] = d
    models = list(dict.fromkeys(k[0] for k in sorted(chosen, key=lambda k: chosen[k].run.id)))
    columns = sorted(
        {(k[1], k[2]) for k in chosen},
        key=lambda c: (c[0], DIFFICULTIES.index(c[1]) if c[1] in DIFFICULTIES else 9, c[1]),
    )
    cells = {
        key: GridCell(d.run.id, d.run.shown[0], _run_rates(d, adjusted, level))
        for key, d in chosen.items()
    }
    average = {}
    for model in models:
        wins = [
            c.rates.win.value
            for k, c in cells.items()
            if k[0] == model and c.rates.win.value is not None
        ]
        average[model] = float(np.mean(wins)) if wins else None
    return RunGrid(models, columns, cells, average)


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
class Drift:
    """How run b differs from run a (b minus a): rates over each run's own examined edges,
    status changes and the mean shift of the posterior mean on the edges both examined."""

    same_model: bool
    rates_a: RateSet
    rates_b: RateSet
    delta: dict[str, float | None]
    diff: KnowledgeDiff
    changed: list[EdgePair]
    mean_shift: float | None
    per_predicate: list[PredicateDrift]


def drift(a: RunData, b: RunData, *, adjusted: bool = True, level: float = LEVEL) -> Drift:
    """Drift between two runs, meant for two runs of the same model (same_model says whether
    the target labels match)."""
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
    return Drift(
        same_model=a.run.target_label == b.run.target_label,
        rates_a=ra,
        rates_b=rb,
        delta=delta,
        diff=diff,
        changed=changed,
        mean_shift=shift,
        per_predicate=per_predicate,
    )
