"""A run loaded for analysis: its KG, its observation log as arrays, its triage, and the metrics
and PKG computed from them, raw or adjusted by the triage.

Raw: the observation log as stored (what `kglens report` shows). Adjusted (`adjusted=True`):
1. replies marked kg_error, and every reply of an edge marked kg_error, are dropped;
2. replies with a verifier override count with the corrected category;
3. m (successes) and n (failures: incorrect, refused, unparseable) are recounted; edges marked
   kg_error leave every denominator (they are never "examined");
4. alpha / beta are replayed from Beta(1, 1) through every iteration in order with the run's
   propagation (paper eq. 2-3; weight and sum / degree mode as configured) on the adjusted
   outcomes; dropped replies update nothing and propagate nothing.
Confirmations, notes and error-type tags change no number.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from kglens_tui.analysis.triage import Overrides, TriageEntry, overrides_of, triage_log
from kglens_tui.kg.graph import KGIndex, Neighbourhood, load_kg
from kglens_tui.modes.kglens.config import PropagationMode
from kglens_tui.modes.kglens.learned import LearnedPropagation
from kglens_tui.modes.kglens.pkg import PKGState, Rates, apply_outcomes, rates
from kglens_tui.modes.kglens.runstore import FAILED, KGLensRun, load_kglens_run, rebuild_state

T = TypeVar("T")

DROPPED = "excluded"
"""Effective category of a reply taken out of the metrics by a KG-error mark."""


@dataclass
class Observations:
    """A run's observation log as parallel columns, in (iteration, slot) order."""

    id: np.ndarray
    iteration: np.ndarray
    slot: np.ndarray
    pos: np.ndarray
    edge_id: np.ndarray
    category: np.ndarray
    qtype: list[str]
    generator: list[str]
    question: list[str]
    candidate_id: list[int | None]
    expected: list[str]
    expected_answers: list[str]
    reply: list[str]
    verifier: list[str]
    error: list[str]
    floor_pass: np.ndarray
    """The rolling census's pass of each floor visit (`probe.design`), -1 for the others."""

    def __len__(self) -> int:
        return len(self.id)


def load_observations(conn: sqlite3.Connection, run_id: int) -> Observations:
    """Every observation of a run."""
    rows = conn.execute(
        "SELECT id, iteration, slot, pos, edge_id, category, qtype, generator, question, "
        "candidate_id, expected, expected_answers, reply, verifier, error, "
        "COALESCE(floor_pass, -1) FROM observation "
        "WHERE run_id = ? ORDER BY iteration, slot",
        (run_id,),
    ).fetchall()
    n = len(rows)

    def ints(i: int) -> np.ndarray:
        return np.fromiter((r[i] for r in rows), dtype=np.int64, count=n)

    return Observations(
        id=ints(0),
        iteration=ints(1),
        slot=ints(2),
        pos=ints(3),
        edge_id=ints(4),
        category=np.array([r[5] for r in rows], dtype=object),
        qtype=[r[6] for r in rows],
        generator=[r[7] for r in rows],
        question=[r[8] for r in rows],
        candidate_id=[r[9] for r in rows],
        expected=[r[10] for r in rows],
        expected_answers=[r[11] for r in rows],
        reply=[r[12] for r in rows],
        verifier=[r[13] for r in rows],
        error=[r[14] for r in rows],
        floor_pass=ints(15),
    )


@dataclass(frozen=True)
class HistoryPoint:
    """One edge's PKG parameters after an iteration."""

    iteration: int
    alpha: float
    beta: float
    m: int
    n: int
    asked: int

    @property
    def mean(self) -> float:
        return self.alpha / (self.alpha + self.beta)


@dataclass
class RunData:
    """A run, its KG and its triage; positions index the run's edges (run.edge_ids)."""

    run: KGLensRun
    kg: KGIndex
    kg_pos: np.ndarray
    obs: Observations
    triage: list[TriageEntry]
    """The run's audit trail (`triage_log` with its run_id), whose entries in force are
    `overrides`."""
    overrides: Overrides
    conn: sqlite3.Connection = field(repr=False)
    """The connection the run was read through, for the thread that read it (the CLI's, a
    report's). The TUI reads a run on a worker whose connection is closed after: what its
    screens need of the workspace is read there (`logged.read_logged`), a triage write and
    its trail on a worker too (`take_triage`)."""
    _cache: dict[tuple[object, ...], Any] = field(default_factory=dict, repr=False)
    """Results by key, each of the type its `memo` caller (or method) computes."""
    _logged: dict[tuple[object, ...], Any] = field(default_factory=dict, repr=False)
    """Results of the log as stored, whatever the triage (`memo` with ``logged``)."""

    @property
    def n_edges(self) -> int:
        return len(self.run.edge_ids)

    @cached_property
    def position_of(self) -> dict[int, int]:
        """Edge id -> run position."""
        return {int(e): i for i, e in enumerate(self.run.edge_ids.tolist())}

    @property
    def node_of_entity(self) -> dict[int, int]:
        """Entity database id -> KG node index."""
        return self.kg.node_of_entity

    @cached_property
    def neighbourhood(self) -> Neighbourhood | None:
        """The run's one-hop neighbourhoods, None when propagation is off or learned."""
        if (
            not self.run.config.propagation
            or self.run.config.propagation_mode == PropagationMode.LEARNED
        ):
            return None
        return Neighbourhood(
            self.kg.s[self.kg_pos], self.kg.o[self.kg_pos], len(self.kg.entity_keys)
        )

    @property
    def after_iteration(self) -> Callable[[PKGState, int], None] | None:
        """Learned propagation's refits, as the engine ran them (None for other runs)."""
        cfg = self.run.config
        if not cfg.propagation or cfg.propagation_mode != PropagationMode.LEARNED:
            return None
        kg, pos = self.kg, self.kg_pos
        return LearnedPropagation(kg.p[pos], kg.s[pos], kg.o[pos]).after_iteration

    @property
    def weight(self) -> float:
        return float(self.run.config.propagation_weight)

    @cached_property
    def scale(self) -> np.ndarray | None:
        """Per-edge factor on propagated pseudo-counts (the "degree" propagation mode), as the
        engine uses it."""
        nb = self.neighbourhood
        if nb is None or self.run.config.propagation_mode != PropagationMode.DEGREE:
            return None
        return 1.0 / np.maximum(nb.neighbour_counts(), 1.0)

    def memo(self, key: tuple[object, ...], compute: Callable[[], T], *, logged: bool = False) -> T:
        """A result cached until the triage is reloaded; ``logged``: one of the log as stored,
        whatever the triage, cached for good."""
        cache = self._logged if logged else self._cache
        if key not in cache:
            cache[key] = compute()
        value: T = cache[key]
        return value

    def take_triage(self, log: list[TriageEntry]) -> None:
        """The run's audit trail as read again (after an entry was added, on any thread): the
        overrides follow it and the results of the triage are dropped."""
        self.triage = log
        self.overrides = overrides_of(log)
        self._cache.clear()

    def kg_error_mask(self, adjusted: bool = True) -> np.ndarray:
        """Run positions whose edge is marked as a KG error (all False when raw)."""
        mask = np.zeros(self.n_edges, dtype=bool)
        if adjusted:
            for edge_id in self.overrides.kg_error_edges:
                pos = self.position_of.get(edge_id)
                if pos is not None:
                    mask[pos] = True
        return mask

    def categories(self, adjusted: bool = True) -> np.ndarray:
        """Each observation's category; adjusted: overridden, or DROPPED."""
        if not adjusted:
            return self.obs.category
        key = ("categories",)
        if key not in self._cache:
            cat = self.obs.category.copy()
            ov = self.overrides
            for i, oid in enumerate(self.obs.id.tolist()):
                if oid in ov.verdicts:
                    cat[i] = ov.verdicts[oid]
            bad_edge = (
                self.kg_error_mask(True)[self.obs.pos] if len(self.obs) else np.zeros(0, bool)
            )
            dropped = bad_edge | np.array(
                [oid in ov.kg_error_observations for oid in self.obs.id.tolist()], dtype=bool
            )
            cat[dropped] = DROPPED
            self._cache[key] = cat
        categories: np.ndarray = self._cache[key]
        return categories

    def outcomes(self, adjusted: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(kept, failed, succeeded) per observation; kept is False for dropped replies."""
        cat = self.categories(adjusted)
        kept = cat != DROPPED
        failed = np.isin(cat, FAILED)
        succeeded = cat == "correct"
        return kept, failed, succeeded

    def counts(self, adjusted: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """m (successes) and n (failures) per run edge."""
        _, failed, succeeded = self.outcomes(adjusted)
        m = np.bincount(self.obs.pos, weights=succeeded.astype(float), minlength=self.n_edges)
        n = np.bincount(self.obs.pos, weights=failed.astype(float), minlength=self.n_edges)
        return m.astype(np.int64), n.astype(np.int64)

    def included(self, adjusted: bool = True) -> np.ndarray:
        """Run positions that count in metrics (all but KG-error edges when adjusted)."""
        return ~self.kg_error_mask(adjusted)

    def rates(self, adjusted: bool = True, mask: np.ndarray | None = None) -> Rates:
        """The paper's three rates over examined, included edges (optionally within a mask)."""
        m, n = self.counts(adjusted)
        keep = self.included(adjusted) if mask is None else (mask & self.included(adjusted))
        return rates(m[keep], n[keep])

    def state(self, adjusted: bool = True) -> PKGState:
        """The PKG after the last iteration: rebuild_state when raw (or nothing overrides the
        metrics), else a full replay of the adjusted log."""
        if adjusted and self.overrides.changes_metrics:
            return self.memo(("state", True), lambda: self.replay(adjusted=True)[0])
        return self.memo(
            ("state", False),
            lambda: rebuild_state(
                self.conn,
                self.run,
                self.neighbourhood,
                self.weight,
                self.scale,
                self.after_iteration,
            )[0],
            logged=True,
        )

    def mean_error(self, adjusted: bool = True) -> np.ndarray:
        """Posterior mean error rate alpha / (alpha + beta) per run edge."""
        return self.state(adjusted).mean_error

    def replay(
        self, adjusted: bool = True, track: np.ndarray | None = None
    ) -> tuple[PKGState, list[list[HistoryPoint]]]:
        """Replay the log from the prior, iteration by iteration; with `track` (run positions),
        also each tracked edge's parameters after every committed iteration."""
        state = PKGState.prior(self.n_edges)
        kept, failed, succeeded = self.outcomes(adjusted)
        tracked = [] if track is None else [int(p) for p in np.asarray(track).tolist()]
        history: list[list[HistoryPoint]] = [[] for _ in tracked]
        its = self.obs.iteration
        bounds = np.flatnonzero(np.diff(its)) + 1 if len(its) else np.empty(0, np.int64)
        starts = np.concatenate(([0], bounds)) if len(its) else np.empty(0, np.int64)
        ends = np.concatenate((bounds, [len(its)])) if len(its) else np.empty(0, np.int64)
        by_iteration = {int(its[a]): (a, b) for a, b in zip(starts, ends, strict=True)}
        refit = self.after_iteration
        for it in range(1, self.run.iterations_done + 1):
            a, b = by_iteration.get(it, (0, 0))
            sl = slice(a, b)
            keep = kept[sl]
            pos = self.obs.pos[sl][keep]
            apply_outcomes(
                state,
                pos,
                failed[sl][keep],
                succeeded[sl][keep],
                self.neighbourhood,
                self.weight,
                self.scale,
            )
            if refit is not None:
                refit(state, it)
            for k, p in enumerate(tracked):
                history[k].append(
                    HistoryPoint(
                        iteration=it,
                        alpha=float(state.alpha[p]),
                        beta=float(state.beta[p]),
                        m=int(state.m[p]),
                        n=int(state.n[p]),
                        asked=int(np.count_nonzero(self.obs.pos[sl] == p)),
                    )
                )
        return state, history

    def history(self, pos: int, adjusted: bool = True) -> list[HistoryPoint]:
        """One edge's alpha / beta / m / n after every iteration."""
        return self.replay(adjusted, track=np.array([pos]))[1][0]

    def edge_label(self, pos: int) -> tuple[str, str, str]:
        """(subject label, predicate label, object label) of a run position."""
        i = int(self.kg_pos[pos])
        kg = self.kg
        return kg.labels[int(kg.s[i])], kg.pred_labels[int(kg.p[i])], kg.labels[int(kg.o[i])]

    def expected_answers(self, i: int) -> list[list[str]]:
        """The Wh answers (label and aliases per true object) of observation i."""
        answers: list[list[str]] = json.loads(self.obs.expected_answers[i] or "[]")
        return answers

    def candidate_label(self, i: int) -> str:
        """The label of the object a Yes/No observation asked about ('' if none)."""
        cid = self.obs.candidate_id[i]
        node = self.node_of_entity.get(int(cid)) if cid is not None else None
        return self.kg.labels[node] if node is not None else ""


def load_run_data(conn: sqlite3.Connection, run_id: int, kg: KGIndex | None = None) -> RunData:
    """Load a run with its KG (pass `kg` to share one among runs), log and triage."""
    run = load_kglens_run(conn, run_id)
    if kg is None or kg.kg_id != run.kg_id:
        kg = load_kg(conn, run.kg_name)
    try:
        kg_pos = np.array([kg.edge_position(int(e)) for e in run.edge_ids.tolist()], np.int64)
    except KeyError as exc:
        raise LookupError(
            f"KG '{kg.name}' lost edge {exc} since run {run_id}: the run cannot be analysed"
        ) from None
    log = triage_log(conn, run_id=run_id)
    return RunData(
        run=run,
        kg=kg,
        kg_pos=kg_pos,
        obs=load_observations(conn, run_id),
        triage=log,
        overrides=overrides_of(log),
        conn=conn,
    )
