"""Reads of a run's replies go by an index: the observation table keeps one index besides its
primary key, the (run, iteration, slot) one, and every read of a run's replies uses it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.answers.bias import run_trust
from kglens_tui.kg.graph import load_kg
from kglens_tui.modes.kglens.runstore import load_kglens_run, observed_counts
from kglens_tui.runs.runner import prepare
from kglens_tui.store.connection import connect


def _reads_of_observations(conn: sqlite3.Connection, run_id: int) -> list[str]:
    """Every statement on the observation table that loading a run for review, its trust figures
    and its engine's progress (as a resume does) run, with their parameters bound."""
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        run = load_kglens_run(conn, run_id)
        kg = load_kg(conn, "country")
        load_run_data(conn, run_id, kg)
        run_trust(conn, run_id, kg=kg)
        observed_counts(conn, run_id, len(run.edge_ids))
        engine = prepare(conn, resume=run_id)  # reads the stored run's progress back
        assert engine.snapshot().progress.counters.requests > 0
    finally:
        conn.set_trace_callback(None)
    return [s for s in statements if "observation" in s and s.lstrip().upper().startswith("SELECT")]


def test_the_observation_table_keeps_only_the_run_iteration_slot_index(stored_db: Path) -> None:
    conn = connect(stored_db)
    indexes = [row[1] for row in conn.execute("PRAGMA index_list(observation)")]
    assert indexes == ["sqlite_autoindex_observation_1"]
    columns = [row[2] for row in conn.execute("PRAGMA index_info(sqlite_autoindex_observation_1)")]
    assert columns == ["run_id", "iteration", "slot"]


def test_every_read_of_a_runs_replies_searches_by_run(stored_db: Path) -> None:
    conn = connect(stored_db)
    run_id = conn.execute("SELECT MIN(id) FROM run").fetchone()[0]
    reads = _reads_of_observations(conn, run_id)
    assert len(reads) >= 4, reads
    for sql in reads:
        plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        assert "SCAN observation" not in plan and "SCAN o " not in plan, (sql, plan)
        assert "observation" in plan, (sql, plan)
