"""A run on a graph big enough for the learned model's refit step refits on the same schedule
when resumed: its stored rows and final posterior equal those of an uninterrupted run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.modes.kglens import learned
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

CONFIG = dict(
    kg="elements",
    target="sim:3",
    iterations=7,
    batch_size=16,
    seed=4,
    stop_on_convergence=False,
    checkpoint_every=100,
)


def rows(conn: sqlite3.Connection, run_id: int) -> list[tuple]:
    return conn.execute(
        "SELECT iteration, slot, edge_id, question, reply, category, incl_prob, prediction "
        "FROM observation WHERE run_id = ? ORDER BY iteration, slot",
        (run_id,),
    ).fetchall()


def test_a_resumed_run_refits_where_the_original_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(learned, "EDGES_PER_REFIT_STEP", 500)  # elements' ~1,500 edges: every 3rd
    whole = prepare(connect(tmp_path / "a.db"), config=RunConfig(**CONFIG))
    assert isinstance(whole, ProbeEngine) and whole.learned is not None
    assert whole.learned.min_every == 3
    run_blocking(whole)

    conn = connect(tmp_path / "b.db")
    holder: dict[str, ProbeEngine] = {}

    def stop_after_four(snap) -> None:
        if snap.iteration >= 4:
            holder["engine"].request_stop()

    first = prepare(conn, config=RunConfig(**CONFIG), on_progress=stop_after_four)
    assert isinstance(first, ProbeEngine)
    holder["engine"] = first
    run_blocking(first)
    assert len(rows(conn, first.run.id)) == 4 * 16  # stopped between two refits (3 and 6)
    resumed = prepare(conn, resume=first.run.id)
    assert isinstance(resumed, ProbeEngine) and resumed.learned is not None
    run_blocking(resumed)

    assert rows(conn, first.run.id) == rows(whole.conn, whole.run.id)
    assert len(rows(conn, first.run.id)) == 7 * 16
    assert np.array_equal(resumed.state.alpha, whole.state.alpha)
    assert np.array_equal(resumed.state.beta, whole.state.beta)


def test_blind_spots_show_the_posterior_review_shows_live_and_reopened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run ending between refits: its final blind spots, the same run opened again (from a
    checkpoint with no refit since) and review's list give each edge one P(err), and opening
    the run leaves its posterior as the run left it (it once refitted it for the panel)."""
    from kglens_tui.analysis.blindspots import blind_spots
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.modes.kglens.mode import open_snapshot

    monkeypatch.setattr(learned, "EDGES_PER_REFIT_STEP", 500)  # every 3rd iteration
    conn = connect(tmp_path / "w.db")
    config = RunConfig(**{**CONFIG, "iterations": 8, "checkpoint_every": 7})
    engine = prepare(conn, config=config)
    assert isinstance(engine, ProbeEngine) and engine.learned is not None
    assert not engine.learned.due(8) and engine.learned.due(6)  # last refit before the checkpoint
    final = run_blocking(engine)
    live = {b.edge_id: (b.mean_error, b.from_neighbours) for b in final.blind_spots}
    assert len(live) >= 10
    opened = open_snapshot(conn, final.run_id)
    assert {b.edge_id: (b.mean_error, b.from_neighbours) for b in opened.blind_spots} == live
    review = {r.edge_id: r.mean for r in blind_spots(load_run_data(conn, final.run_id), limit=None)}
    for edge_id, (mean, _) in live.items():
        assert review[edge_id] == pytest.approx(mean, abs=1e-12)
