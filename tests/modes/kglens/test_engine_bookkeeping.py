"""What the engine keeps up to date as it commits, by the shortcuts that keep an iteration cheap
(counts from the touched edges only, the floor's answers added per commit, asks counted by
indexed adds), equals exactly what the same engine rebuilds from the stored rows when it loads the run
again; and top-k's index, whose answer counts are added as integers, equals its formula."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import cast

import numpy as np
import pytest

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.modes.kglens.pkg import PKGState, RateCounts
from kglens_tui.modes.kglens.runstore import load_kglens_run
from kglens_tui.modes.kglens.samplers import GAP_SLACK, boundary_gap
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

RUNS = {
    "hard, sync": RunConfig(
        kg="country",
        iterations=12,
        batch_size=32,
        seed=4,
        difficulty="hard",
        stop_on_convergence=False,
    ),
    "wh, continuous": RunConfig(
        kg="elements",
        iterations=8,
        batch_size=16,
        seed=6,
        difficulty="wh",
        scheduling="continuous",
        stop_on_convergence=False,
    ),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_what_the_engine_keeps_equals_what_it_rebuilds_from_the_rows(
    name: str, tmp_path: Path
) -> None:
    conn = connect(tmp_path / "w.db")
    live = cast(ProbeEngine, prepare(conn, config=RUNS[name]))
    run_blocking(live)
    kept = live.snapshot()
    reloaded = ProbeEngine(conn, load_kglens_run(conn, live.run.id), live.kg, live.target)
    again = reloaded.snapshot()
    assert kept.iteration == again.iteration == RUNS[name].iterations
    assert live._rate_counts == RateCounts.of(live.state.m, live.state.n)
    assert kept.history[-1] == again.history[-1]
    assert (kept.kg_wide, kept.kg_wide_chance) == (again.kg_wide, again.kg_wide_chance)
    assert kept.kg_wide is not None
    assert kept.kg_wide_senses == again.kg_wide_senses
    assert kept.yes_no == again.yes_no and kept.counts == again.counts
    assert np.array_equal(live._yes_no_asks, reloaded._yes_no_asks)
    assert np.array_equal(live._wh_asks, reloaded._wh_asks)
    assert live._wh_asks.sum() > 0
    for kept_counts, rebuilt in zip(live._floor_counts, reloaded._floor_counts, strict=True):
        assert np.array_equal(kept_counts, rebuilt)
    assert live._floor_counts[1].sum() > 0
    assert live.floor is not None and reloaded.floor is not None
    assert (live.floor.pass_, live.floor.offset) == (reloaded.floor.pass_, reloaded.floor.offset)
    stored = sqlite3.connect(tmp_path / "w.db").execute(
        "SELECT COUNT(*) FROM observation WHERE run_id = ? AND category != 'error'",
        (live.run.id,),
    )
    assert int(live._yes_no_asks.sum() + live._wh_asks.sum()) == stored.fetchone()[0]
    conn.close()


def test_top_k_index_equals_its_formula() -> None:
    rng = np.random.default_rng(2)
    n = 5_000
    m = rng.integers(0, 6, n).astype(np.int32)
    f = rng.integers(0, 6, n).astype(np.int32)
    state = PKGState(1.0 + f + rng.random(n), 1.0 + m + rng.random(n), m, f, np.zeros(n, np.int32))
    gap = boundary_gap(state, 100).copy()
    mean = np.clip(state.alpha / (state.alpha + state.beta), 1e-6, 1 - 1e-6)
    top = np.sort(mean)
    cut = float(top[n - 101] + top[n - 100]) / 2
    want = np.abs(np.log(mean / (1 - mean)) - np.log(cut / (1 - cut))) + GAP_SLACK
    want *= np.sqrt(np.add(m, f, dtype=np.float64) + 1.0)
    assert np.array_equal(gap, want)
