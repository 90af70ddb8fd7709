"""The long-run row of `kglens bench engine`: it measures both marks and prints their ratio (a
smoke test: no timing limit, the figures are the benchmark's to judge)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from kglens_tui.bench.engine_bench import KG_NAME, build_kg
from kglens_tui.bench.long_run import MIN_LATE, long_run_table, measure_long_run


def test_long_run_row_prints_both_marks_and_their_ratio(tmp_path: Path) -> None:
    result = measure_long_run(build_kg(tmp_path, 500), KG_NAME, late=MIN_LATE, batch_size=16)
    assert (result.early_iteration, result.late_iteration) == (10, MIN_LATE)
    for timing in (result.early, result.replayed, result.late):
        assert timing.wall_ms > 0 and timing.cpu_ms >= 0
    assert result.ratio == pytest.approx(result.late.wall_ms / result.replayed.wall_ms)
    console = Console(file=io.StringIO(), width=200)
    console.print(long_run_table(result))
    flat = " ".join(console.file.getvalue().split())
    assert f"iteration {MIN_LATE}" in flat and "iteration 10 replayed" in flat
    assert f"ratio {MIN_LATE} / 10 (replayed)" in flat and f"{result.ratio:.2f}x" in flat
    assert f"{MIN_LATE + 5} iterations of 16 edges" in flat
    with pytest.raises(ValueError, match="at least"):
        measure_long_run(tmp_path / "unused.db", KG_NAME, late=MIN_LATE - 1)


def test_long_run_and_its_replay_are_the_same_run(tmp_path: Path) -> None:
    """The replay does the same work as the long run's early iterations (same seed)."""
    from kglens_tui.store.connection import connect

    db = build_kg(tmp_path, 500)
    measure_long_run(db, KG_NAME, late=MIN_LATE, batch_size=16)
    conn = connect(db)
    long_id, replay_id = (r[0] for r in conn.execute("SELECT id FROM run ORDER BY id"))
    query = (
        "SELECT iteration, slot, edge_id, question, reply, category FROM observation "
        "WHERE run_id = ? AND iteration <= 15 ORDER BY iteration, slot"
    )
    replayed = conn.execute(query, (replay_id,)).fetchall()
    assert len(replayed) == 15 * 16
    assert replayed == conn.execute(query, (long_id,)).fetchall()
    conn.close()
