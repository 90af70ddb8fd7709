"""Claiming a run and loading its state are one step: a process that read a run while another
one advanced it continues from what is stored, never from its stale copy."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from kontest_support import PLANTED, hand_kg
from run_targets import ScriptedTarget

from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.record import claim_run, load_run
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.runs.runner import run_blocking as run_mode
from kglens_tui.store.connection import connect

CONFIG = dict(
    kg="country",
    subset="paper16",
    target="sim:7",
    difficulty="hard",
    iterations=6,
    batch_size=16,
    seed=11,
    stop_on_convergence=False,
    checkpoint_every=3,
)

# Resumes the run, commits one iteration and dies at once, still owning the run.
ADVANCE_AND_DIE = """
import os, sys
from kglens_tui.store.connection import connect
from kglens_tui.runs.runner import prepare, run_blocking
engine = prepare(connect(sys.argv[1]), resume=int(sys.argv[2]), on_progress=lambda s: os._exit(3))
run_blocking(engine)
"""


def observations(conn: sqlite3.Connection, run_id: int) -> list[tuple]:
    return conn.execute(
        "SELECT iteration, slot, edge_id, qtype, question, expected, reply, category "
        "FROM observation WHERE run_id = ? ORDER BY iteration, slot",
        (run_id,),
    ).fetchall()


def _reference(tmp_path: Path) -> list[tuple]:
    conn = connect(tmp_path / "reference.db")
    engine = prepare(conn, config=RunConfig(**CONFIG))
    run_blocking(engine)
    return observations(conn, engine.run.id)


def _stopped_after(conn: sqlite3.Connection, iterations: int, run_id: int | None = None) -> int:
    """Run (a new run, or resume `run_id`) until `iterations` are committed, then stop."""
    holder = {}

    def on_iteration(snap) -> None:
        if snap.iteration >= iterations:
            holder["engine"].request_stop()

    config = None if run_id is not None else RunConfig(**CONFIG)
    engine = prepare(conn, config=config, resume=run_id, on_progress=on_iteration)
    holder["engine"] = engine
    run_blocking(engine)
    assert load_run(conn, engine.run.id).iterations_done == iterations
    return engine.run.id


def test_the_claim_holds_the_write_lock_while_the_state_is_read(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    conn, other = connect(db), connect(db)
    run_id = _stopped_after(conn, 1)
    other.execute("PRAGMA busy_timeout = 0")

    def load() -> int:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("UPDATE run SET iterations_done = 99 WHERE id = ?", (run_id,))
        return load_run(conn, run_id).iterations_done

    assert claim_run(conn, run_id, load) == 1
    assert load_run(other, run_id).status == "running"


def test_a_failed_load_rolls_the_claim_back(conn: sqlite3.Connection) -> None:
    run_id = _stopped_after(conn, 1)

    def load() -> None:
        raise ValueError("unreadable state")

    with pytest.raises(ValueError, match="unreadable state"):
        claim_run(conn, run_id, load)
    run = load_run(conn, run_id)
    assert (run.status, run.owner) == ("stopped", None)


def test_an_iteration_committed_between_read_and_claim_is_continued_from(
    tmp_path: Path,
) -> None:
    expected = _reference(tmp_path)
    db = tmp_path / "w.db"
    conn_a, conn_b = connect(db), connect(db)
    run_id = _stopped_after(conn_a, 2)
    stale = prepare(conn_b, resume=run_id)  # B reads the run at iteration 2
    assert stale.stats.iteration == 2
    _stopped_after(conn_a, 3, run_id)  # A commits iteration 3 before B claims
    snap = run_blocking(stale)
    assert (snap.status, snap.iteration, snap.error) == ("finished", 6, "")
    assert snap.progress.counters.requests == 6 * 16 and snap.counts == _category_counts(expected)
    assert observations(conn_b, run_id) == expected


def test_a_process_that_advances_the_run_and_dies_leaves_a_run_b_continues(
    tmp_path: Path,
) -> None:
    expected = _reference(tmp_path)
    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = _stopped_after(conn, 2)
    stale = prepare(conn, resume=run_id)
    child = subprocess.run(
        [sys.executable, "-c", ADVANCE_AND_DIE, str(db), str(run_id)],
        capture_output=True,
        text=True,
    )
    assert child.returncode == 3, child.stderr
    died = load_run(conn, run_id)
    assert (died.status, died.iterations_done) == ("running", 3) and died.owner
    snap = run_blocking(stale)
    assert (snap.status, snap.iteration, snap.error) == ("finished", 6, "")
    assert observations(conn, run_id) == expected
    run = load_run(conn, run_id)
    assert (run.status, run.owner, run.error) == ("finished", None, "")


def _category_counts(rows: list[tuple]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row[-1]] = counts.get(row[-1], 0) + 1
    return counts


def test_a_mode_run_finished_meanwhile_asks_nothing_again(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    import_kg(conn, hand_kg(tmp_path), "hand")
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    failing = ScriptedTarget(**PLANTED, fail={"Is Dromore located in Ulster?"})
    first = run_mode(prepare(conn, config=config, target=failing))
    late = ScriptedTarget(**PLANTED)
    stale = prepare(conn, resume=first.run_id, target=late)
    assert len(stale.pending()) == 1
    other = connect(conn.execute("PRAGMA database_list").fetchone()[2])
    done = run_mode(prepare(other, resume=first.run_id, target=ScriptedTarget(**PLANTED)))
    # every request counts, the failed attempts too (the resume's answers replaced them)
    assert (
        done.progress.counters.errors == first.progress.counters.errors > 0
        and done.progress.counters.requests > first.progress.counters.requests
    )
    snap = run_mode(stale)
    assert late.asked == [], "the unit answered meanwhile is not asked again"
    assert snap.status == "finished" and snap.metrics == done.metrics
    assert (snap.progress.counters.requests, snap.progress.counters.errors) == (
        done.progress.counters.requests,
        done.progress.counters.errors,
    )
