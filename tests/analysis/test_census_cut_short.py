"""A batch as large as the run asks every edge in every iteration, so its KG-wide rates are a
census's; an iteration a budget cut short asked the sampler's picks and a floor instead, and
its picks are no random sample. The census rests on the whole iterations only, and a run whose
first iteration was cut on its floor's answers (`probe.design`): live, reopened and in the
analysis alike."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, cast

import pytest

from kglens_tui.analysis.kgwide import census, kg_wide
from kglens_tui.analysis.kgwide_render import method_note
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.modes.kglens.runstore import load_kglens_run
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

EDGES = 446
"""The paper's 16 countries' active edges."""


def _run(tmp_path: Path, max_requests: int) -> tuple[ProbeEngine, ProbeEngine]:
    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        batch_size=500,
        iterations=3,
        max_requests=max_requests,
        seed=5,
        stop_on_convergence=False,
    )
    live = cast(ProbeEngine, prepare(conn, config=config))
    run_blocking(live)
    reloaded = ProbeEngine(conn, load_kglens_run(conn, live.run.id), live.kg, live.target)
    return live, reloaded


@pytest.mark.parametrize(
    "max_requests, whole, floor",
    [(2 * EDGES + 100, 2, False), (120, 0, True)],
    ids=["last iteration cut", "first iteration cut"],
)
def test_an_iteration_cut_short_is_no_part_of_the_census(
    tmp_path: Path, max_requests: int, whole: int, floor: bool
) -> None:
    live, reloaded = _run(tmp_path, max_requests)
    data = load_run_data(live.conn, live.run.id)
    assert len(data.obs.pos) == max_requests  # every request answered, the last iteration cut
    found = kg_wide(data, adjusted=False)
    assert found is not None
    rate = found.rate
    method = "census"
    assert rate.method == method and census(data)
    floor_answers = int((data.obs.floor_pass >= 0).sum())
    if whole:
        assert rate.answers == whole * EDGES
    else:
        assert 0.6 * max_requests < rate.answers == floor_answers < max_requests
    for engine in (live, reloaded):
        kept = engine.snapshot().kg_wide
        assert kept is not None and kept.method == method
        assert kept.error == pytest.approx(rate.error) and kept.se == pytest.approx(rate.se)
    # a SQL reader's view gives one row, the same estimate
    rows = live.conn.execute(
        "SELECT kg_wide_method, kg_wide_error_rate, kg_wide_answers FROM run_rates "
        "WHERE run_id = ?",
        (live.run.id,),
    ).fetchall()
    assert [tuple(r) for r in rows] == [(method, pytest.approx(rate.error), rate.answers)]
    note = method_note(rate, data)
    if whole:
        left = max_requests - whole * EDGES
        assert f"left out: {left} answers of an iteration a budget cut short" in note
    assert "Brute force" not in note


def _failing_run(conn: sqlite3.Connection, **settings: Any) -> ProbeEngine:
    """A finished run on paper16 whose target fails every fifth request (to be retried)."""
    from run_targets import EveryNthFails

    config = RunConfig(kg="country", subset="paper16", stop_on_convergence=False, **settings)
    engine = cast(ProbeEngine, prepare(conn, config=config, target=EveryNthFails(5)))
    run_blocking(engine)
    return engine


@pytest.mark.parametrize("scheduling", ["sync", "continuous"])
def test_retries_never_ask_an_edge_twice_in_a_whole_iteration(
    tmp_path: Path, scheduling: str
) -> None:
    """A batch as large as the run with every fifth request failing: the retries and the rest
    still ask each edge once an iteration (no floor is drawn beside them), so every iteration
    is whole and the census rests on them all."""
    conn = connect(tmp_path / "w.db")
    engine = _failing_run(conn, batch_size=500, iterations=3, seed=5, scheduling=scheduling)
    rows = conn.execute(
        "SELECT iteration, COUNT(*), COUNT(DISTINCT pos), SUM(floor_pass IS NOT NULL) "
        "FROM observation GROUP BY iteration"
    ).fetchall()
    assert [tuple(r) for r in rows] == [(it, EDGES, EDGES, 0) for it in (1, 2, 3)]
    data = load_run_data(conn, engine.run.id)
    found = kg_wide(data, adjusted=False)
    answered = int((data.obs.category != "error").sum())
    assert found is not None and found.rate.answers == answered
    conn.close()


def test_a_floor_visit_of_an_edge_being_retried_is_the_retry() -> None:
    """A designed run whose every fifth request fails: a floor visit that falls on an edge
    retried in the same batch takes the retry's answer instead of asking the edge twice, and
    each pass's visits stay the start of its permutation (the retried ones among them)."""
    from kglens_tui.modes.kglens.design import RollingFloor

    conn = connect(":memory:")
    _failing_run(conn, batch_size=64, iterations=20, seed=2)
    twice = conn.execute(
        "SELECT COUNT(*) FROM (SELECT 1 FROM observation GROUP BY iteration, pos "
        "HAVING COUNT(*) > 1)"
    ).fetchone()[0]
    assert twice == 0
    order = RollingFloor(EDGES, 2, gap=64)
    visits = conn.execute(
        "SELECT floor_pass, pos FROM observation WHERE floor_pass IS NOT NULL "
        "ORDER BY iteration, slot"
    ).fetchall()
    by_pass: dict[int, list[int]] = {}
    for pass_, pos in visits:
        by_pass.setdefault(pass_, []).append(pos)
    assert len(by_pass) >= 2
    for pass_, seen in by_pass.items():  # in slot order a retried visit comes first
        assert sorted(seen) == sorted(order.order(pass_)[: len(seen)].tolist())
    conn.close()
