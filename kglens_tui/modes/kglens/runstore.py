"""Runs in SQLite: create, commit one iteration atomically, checkpoint the PKG arrays, and
rebuild the state on resume by replaying the observation log since the last checkpoint."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from kglens_tui.core.verdict import FAILURES
from kglens_tui.kg.graph import Neighbourhood
from kglens_tui.llm.usage import Counters, Usage
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.estimates import DesignRate, design_rate
from kglens_tui.modes.kglens.pkg import PKGState, Rates, apply_outcomes
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.record import KGLENS, RunRecord, load_run_as
from kglens_tui.store.connection import retry_busy, transaction
from kglens_tui.store.helper_usage import add_usage
from kglens_tui.store.target_usage import COLUMNS as TARGET_USAGE
from kglens_tui.store.target_usage import add_target_usage

KGLensRun = RunRecord[RunConfig]
"""A stored KGLens run."""


def load_kglens_run(conn: sqlite3.Connection, run_id: int) -> KGLensRun:
    """A stored KGLens run; RunNotFoundError when there is none or it is another mode's."""
    return load_run_as(conn, run_id, KGLENS, RunConfig)


class ObservationRow(NamedTuple):
    """One asked question and its verdict, as stored (a named tuple: an iteration makes one per
    question, and a tuple is built several times faster than a frozen dataclass)."""

    iteration: int
    slot: int
    pos: int
    edge_id: int
    qtype: str
    generator: str
    question: str
    candidate_id: int | None
    expected: str
    expected_answers: str
    reply: str
    category: str
    verifier: str
    usage: Usage
    hedged: bool = False
    """The reply gave its answer with doubt ("I think it is Canberra")."""
    matcher: str = ""
    """The alias matcher's category when an LLM judge gave the verdict; '' otherwise."""
    floor_pass: int | None = None
    """The rolling census's pass when the question is a floor visit (`probe.design`: the
    answers the KG-wide rates rest on); None: the sampler's pick or a retry."""


FAILED = tuple(str(v) for v in FAILURES)
_USAGE = ObservationRow._fields.index("usage")
"""Where a row's usage sits: the stored columns before it are its fields before it, in order,
those after it hedged (stored as 0 or 1) and its fields after that."""


def _blob(a: np.ndarray, dtype: str) -> bytes:
    return np.ascontiguousarray(a, dtype=dtype).tobytes()


def commit_iteration(
    conn: sqlite3.Connection,
    run_id: int,
    iteration: int,
    observations: list[ObservationRow],
    summary: dict[str, Any],
    checkpoint: PKGState | None,
    helpers: dict[str, Counters] | None = None,
) -> None:
    """Store one iteration in one transaction: observations, metrics row, optional checkpoint,
    the helper calls made since the last commit and the target's requests."""

    def write() -> None:
        with transaction(conn):
            conn.executemany(
                "INSERT INTO observation(run_id, iteration, slot, pos, edge_id, qtype, generator, "
                "question, candidate_id, expected, expected_answers, reply, category, verifier, "
                "prompt_tokens, completion_tokens, latency_ms, retries, error, hedged, matcher, "
                "floor_pass) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                # the row's fields up to the verifier, its usage's, then hedged and the rest
                [
                    (run_id, *o[:_USAGE], *o.usage.values(), int(o.hedged), *o[_USAGE + 2 :])
                    for o in observations
                ],
            )
            conn.execute(
                "INSERT INTO iteration(run_id, iteration, seconds, requests, errors, retries, "
                "prompt_tokens, completion_tokens, latency_ms_mean, latency_ms_p95, examined, "
                "win_rate, zero_sense_rate, all_sense_rate, counts) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    run_id,
                    iteration,
                    summary["seconds"],
                    summary["requests"],
                    summary["errors"],
                    summary["retries"],
                    summary["prompt_tokens"],
                    summary["completion_tokens"],
                    summary["latency_ms_mean"],
                    summary["latency_ms_p95"],
                    summary["examined"],
                    summary["win_rate"],
                    summary["zero_sense_rate"],
                    summary["all_sense_rate"],
                    json.dumps(summary["counts"]),
                ),
            )
            if checkpoint is not None:
                write_checkpoint(conn, run_id, iteration, checkpoint)
            if helpers:
                add_usage(conn, run_id, helpers)
            # an iteration committed whole dropped none of its requests
            add_target_usage(
                conn, run_id, [0 if c == "dropped" else summary[c] for c in TARGET_USAGE]
            )
            conn.execute(
                "UPDATE run SET iterations_done = ?, "  # the status is the engine's to store
                "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                (iteration, run_id),
            )

    retry_busy(write)


def write_checkpoint(
    conn: sqlite3.Connection, run_id: int, iteration: int, state: PKGState
) -> None:
    """Store the PKG arrays after `iteration` (inside the caller's transaction); keep two."""
    conn.execute(
        "INSERT OR REPLACE INTO run_checkpoint(run_id, iteration, alpha, beta, m, n, err) "
        "VALUES (?,?,?,?,?,?,?)",
        (
            run_id,
            iteration,
            _blob(state.alpha, "<f8"),
            _blob(state.beta, "<f8"),
            _blob(state.m, "<i4"),
            _blob(state.n, "<i4"),
            _blob(state.err, "<i4"),
        ),
    )
    conn.execute(
        "DELETE FROM run_checkpoint WHERE run_id = ? AND iteration < ("
        "SELECT MIN(iteration) FROM (SELECT iteration FROM run_checkpoint WHERE run_id = ? "
        "ORDER BY iteration DESC LIMIT 2))",
        (run_id, run_id),
    )


def iteration_outcomes(
    conn: sqlite3.Connection, run_id: int, iteration: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, failed, succeeded) of one committed iteration, in slot order."""
    rows = conn.execute(
        "SELECT pos, category FROM observation WHERE run_id = ? AND iteration = ? ORDER BY slot",
        (run_id, iteration),
    ).fetchall()
    pos = np.array([r[0] for r in rows], dtype=np.int64)
    failed = np.array([r[1] in FAILED for r in rows], dtype=bool)
    succeeded = np.array([r[1] == "correct" for r in rows], dtype=bool)
    return pos, failed, succeeded


def rebuild_state(
    conn: sqlite3.Connection,
    run: KGLensRun,
    neighbourhood: Neighbourhood | None,
    weight: float,
    scale: np.ndarray | None = None,
    after_iteration: Callable[[PKGState, int], None] | None = None,
) -> tuple[PKGState, list[Rates]]:
    """The PKG after the last committed iteration: last checkpoint plus the log replayed since,
    and the rates after every iteration (for convergence). `after_iteration(state, iteration)`
    runs after each replayed iteration's update, as the engine ran it (learned propagation's
    refits)."""
    n_edges = len(run.edge_ids)
    row = conn.execute(
        "SELECT iteration, alpha, beta, m, n, err FROM run_checkpoint WHERE run_id = ? "
        "AND iteration <= ? ORDER BY iteration DESC LIMIT 1",
        (run.id, run.iterations_done),
    ).fetchone()
    if row is None:
        state, start = PKGState.prior(n_edges), 0
    else:
        start = int(row[0])
        state = PKGState(
            alpha=np.frombuffer(row[1], dtype="<f8").copy(),
            beta=np.frombuffer(row[2], dtype="<f8").copy(),
            m=np.frombuffer(row[3], dtype="<i4").astype(np.int32),
            n=np.frombuffer(row[4], dtype="<i4").astype(np.int32),
            err=np.frombuffer(row[5], dtype="<i4").astype(np.int32),
        )
    for it in range(start + 1, run.iterations_done + 1):
        pos, failed, succeeded = iteration_outcomes(conn, run.id, it)
        apply_outcomes(state, pos, failed, succeeded, neighbourhood, weight, scale)
        if after_iteration is not None:
            after_iteration(state, it)
    history = [
        Rates(r[0], r[1], r[2], r[3])
        for r in conn.execute(
            "SELECT examined, win_rate, zero_sense_rate, all_sense_rate FROM iteration "
            "WHERE run_id = ? ORDER BY iteration",
            (run.id,),
        )
    ]
    return state, history


def observed_counts(
    conn: sqlite3.Connection, run_id: int, n_edges: int, floor_only: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """m (successes) and n (failures) per run edge, straight from the observation log (with
    ``floor_only``, of the floor's answers: `probe.design`)."""
    m = np.zeros(n_edges, dtype=np.int32)
    n = np.zeros(n_edges, dtype=np.int32)
    floor = " AND floor_pass IS NOT NULL" if floor_only else ""
    for pos, ok, bad in conn.execute(
        f"SELECT pos, SUM(category = 'correct'), SUM(category IN ({','.join('?' * len(FAILED))})) "
        f"FROM observation WHERE run_id = ?{floor} GROUP BY pos",
        (*FAILED, run_id),
    ):
        m[pos], n[pos] = ok, bad
    return m, n


def drawn_before_rolling_floor(conn: sqlite3.Connection, run_id: int) -> bool:
    """Whether the run was drawn by the per-draw design stored before the rolling floor
    (db/0020's `design_draw` rows; db/0028 replaced it)."""
    row = conn.execute("SELECT 1 FROM design_draw WHERE run_id = ? LIMIT 1", (run_id,))
    return row.fetchone() is not None


def refuse_before_rolling_floor(conn: sqlite3.Connection, run_id: int, going_on: str) -> None:
    """ConfigError when the run was drawn before the rolling floor: ``going_on`` (resuming it,
    following its plan) would mix two designs in one estimate."""
    if drawn_before_rolling_floor(conn, run_id):
        raise ConfigError(
            f"run {run_id} was drawn by the sampling design stored before the rolling floor "
            f"(workspace schema 28): {going_on} would mix two designs in its KG-wide rates; "
            "start a new run (its stored rates stay as they are)"
        )


class StoredDraws(NamedTuple):
    """The design draws of a run stored before the rolling floor (its `design_draw` rows up to
    its last committed iteration), in order."""

    place: dict[tuple[int, int], int]
    """(iteration, first slot) -> the draw's place in the arrays below."""
    floor_size: np.ndarray
    """Each draw's floor share: its weight among the draws."""
    population: np.ndarray
    total: np.ndarray
    predicate_totals: list[dict[str, float]]
    eligible: np.ndarray
    """Each draw's eligible edges: what its floor was drawn from."""


def stored_draws(conn: sqlite3.Connection, run_id: int, iterations: int) -> StoredDraws | None:
    """A run's design draws up to ``iterations`` (None: it has none, as every run drawn since
    the rolling floor)."""
    draws = conn.execute(
        "SELECT iteration, first_slot, floor_size, population, total, predicate_totals, "
        "eligible FROM design_draw WHERE run_id = ? AND iteration <= ? "
        "ORDER BY iteration, first_slot",
        (run_id, iterations),
    ).fetchall()
    if not draws:
        return None
    return StoredDraws(
        place={(r[0], r[1]): i for i, r in enumerate(draws)},
        floor_size=np.array([r[2] for r in draws], dtype=np.float64),
        population=np.array([r[3] for r in draws], dtype=np.float64),
        total=np.array([r[4] for r in draws], dtype=np.float64),
        predicate_totals=[json.loads(r[5]) for r in draws],
        eligible=np.array([r[6] for r in draws], dtype=np.float64),
    )


def stored_design_rate(conn: sqlite3.Connection, run: KGLensRun) -> DesignRate | None:
    """The KG-wide error rate of a run drawn before the rolling floor, from its design draws
    (`estimates.design_rate`, as `analysis.kgwide` gives it as logged); None for any other."""
    draws = stored_draws(conn, run.id, run.iterations_done)
    if draws is None:
        return None
    answers = conn.execute(
        "SELECT iteration, draw_slot, category, incl_prob, prediction FROM observation "
        "WHERE run_id = ? AND draw_slot IS NOT NULL AND incl_prob > 0 AND category != 'error'",
        (run.id,),
    ).fetchall()
    kept = [a for a in answers if (a[0], a[1]) in draws.place]
    return design_rate(
        np.array([draws.place[(a[0], a[1])] for a in kept], dtype=np.int64),
        np.array([a[2] in FAILED for a in kept], dtype=np.float64),
        np.array([a[3] for a in kept], dtype=np.float64),
        np.array([a[4] or 0.0 for a in kept], dtype=np.float64),
        draws.total,
        draws.population,
        draws.floor_size,
    )
