"""Runs stored under the per-draw design that the rolling floor replaced (db/0020's
`design_draw` rows, no `floor_pass`): every surface still gives their KG-wide rate from their
draws, the engine that reopens one as the analysis and the `run_rates` view do, and neither
resuming one nor following its plan mixes the two designs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.analysis.kgwide import kg_wide
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.mode import open_snapshot
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


def _stored_before(db: Path) -> int:
    """A run made now, then rewritten as the per-draw design stored it: one draw an iteration,
    its floor the floor visits (probability floor / edges), its picks certain, every control
    prediction 0.3."""
    conn = connect(db)
    config = RunConfig(
        kg="country", subset="paper16", target="sim:2", iterations=6, batch_size=32, seed=3
    )
    engine = prepare(conn, config=config)
    run_blocking(engine)
    run_id = int(engine.run.id)
    edges = len(engine.positions)
    floors = conn.execute(
        "SELECT iteration, SUM(floor_pass IS NOT NULL AND category != 'error') FROM observation "
        "WHERE run_id = ? GROUP BY iteration",
        (run_id,),
    ).fetchall()
    with conn:
        for iteration, floor in floors:
            conn.execute(
                "INSERT INTO design_draw(run_id, iteration, first_slot, floor_size, eligible, "
                "population, total, predicate_totals) VALUES (?, ?, 0, ?, ?, ?, ?, '{}')",
                (run_id, iteration, floor, edges, edges, 0.3 * edges),
            )
            conn.execute(
                "UPDATE observation SET draw_slot = 0, prediction = 0.3, incl_prob = CASE "
                "WHEN floor_pass IS NULL THEN 1.0 ELSE ? END, floor_pass = NULL "
                "WHERE run_id = ? AND iteration = ?",
                (floor / edges, run_id, iteration),
            )
    conn.close()
    return run_id


def test_a_run_stored_before_the_rolling_floor_keeps_its_rate_and_is_not_mixed(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    run_id = _stored_before(db)
    conn = connect(db)
    stored = kg_wide(load_run_data(conn, run_id), adjusted=False)
    assert stored is not None and stored.rate.method == "design"
    reopened = open_snapshot(conn, run_id).kg_wide
    assert reopened is not None and reopened.method == "design"
    assert reopened.error == pytest.approx(stored.rate.error)
    assert reopened.se == pytest.approx(stored.rate.se)
    view = conn.execute(
        "SELECT kg_wide_error_rate, kg_wide_method FROM run_rates WHERE run_id = ?", (run_id,)
    ).fetchone()
    assert tuple(view) == (pytest.approx(stored.rate.error), "design")
    with pytest.raises(ConfigError, match="before the rolling floor.*resuming it"):
        prepare(conn, resume=run_id)
    follower = RunConfig(kg="country", target="sim:1", plan_of=run_id)
    with pytest.raises(ConfigError, match="plan_of: run .* following its plan"):
        prepare(conn, config=follower)
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 1  # nothing stored
    conn.close()
