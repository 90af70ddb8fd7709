"""A run SIGKILLed in the middle of an iteration resumes with nothing lost or duplicated: its
observations equal those of an uninterrupted run with the same seed and a deterministic target."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

CONFIG = dict(
    kg="country",
    subset="paper16",
    target="sim:7",
    difficulty="hard",
    iterations=8,
    batch_size=16,
    seed=11,
    stop_on_convergence=False,
    checkpoint_every=3,
)

CHILD = """
import sys
from kglens_tui.store.connection import connect
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.runs.clients import target_client
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.positions import run_edge_positions
conn = connect(sys.argv[1])
config = RunConfig(**{cfg!r})
config.sim_latency_s = 0.02  # slow enough to be killed mid-iteration (answers are the same)
ensure_kg(conn, config.kg)
kg = load_kg(conn, config.kg)
target = target_client(config, kg, kg.edge_ids[run_edge_positions(conn, kg, config.subset)])
engine = prepare(conn, config=config, target=target)
print(engine.run.id, flush=True)
run_blocking(engine)
"""


def observations(db: Path, run_id: int) -> list[tuple]:
    conn = sqlite3.connect(db)
    return conn.execute(
        "SELECT iteration, slot, edge_id, qtype, question, expected, reply, category "
        "FROM observation WHERE run_id = ? ORDER BY iteration, slot",
        (run_id,),
    ).fetchall()


def test_sigkill_mid_iteration_then_resume_matches_uninterrupted(tmp_path: Path) -> None:
    reference_db = tmp_path / "reference.db"
    engine = prepare(connect(reference_db), config=RunConfig(**CONFIG))
    run_blocking(engine)
    expected = observations(reference_db, engine.run.id)
    assert len(expected) == 8 * 16

    killed_db = tmp_path / "killed.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(cfg=CONFIG), str(killed_db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    run_id = int(child.stdout.readline())
    deadline = time.monotonic() + 60
    done = 0
    while time.monotonic() < deadline and done < 4:
        time.sleep(0.01)
        done = (
            sqlite3.connect(killed_db)
            .execute("SELECT iterations_done FROM run WHERE id = ?", (run_id,))
            .fetchone()[0]
        )
    time.sleep(0.015)  # inside iteration 5's requests (16 x 20 ms, 16 in flight)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    partial = observations(killed_db, run_id)
    assert 0 < len(partial) < len(expected)
    assert len(partial) % 16 == 0  # whole iterations only

    resumed = prepare(connect(killed_db), resume=run_id)
    assert resumed.stats.iteration == len(partial) // 16
    run_blocking(resumed)
    assert observations(killed_db, run_id) == expected
    row = (
        sqlite3.connect(killed_db)
        .execute("SELECT status, iterations_done FROM run WHERE id = ?", (run_id,))
        .fetchone()
    )
    assert row == ("finished", 8)


def test_resumed_state_equals_uninterrupted_state(tmp_path: Path) -> None:
    """Checkpoint + log replay rebuilds exactly the arrays the engine held in memory."""
    conn = connect(tmp_path / "w.db")
    engine = prepare(conn, config=RunConfig(**CONFIG))
    run_blocking(engine)
    rebuilt = prepare(conn, resume=engine.run.id)
    for name in ("alpha", "beta", "m", "n", "err"):
        assert (getattr(rebuilt.state, name) == getattr(engine.state, name)).all(), name
    conn.execute("DELETE FROM run_checkpoint")
    replayed = prepare(conn, resume=engine.run.id)
    assert (replayed.state.alpha == engine.state.alpha).all()
    assert (replayed.state.beta == engine.state.beta).all()
