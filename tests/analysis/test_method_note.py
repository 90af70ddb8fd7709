"""The sentence that says how a run's KG-wide rate was estimated names what the run did: the
floor's first pass re-asks some edges (`design.first_pass`), and a run stored before the
re-asks, which has none, is not said to have them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from kglens_tui.analysis.kgwide import kg_wide
from kglens_tui.analysis.kgwide_render import method_note
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


def test_the_note_counts_the_first_pass_s_re_asks_and_only_where_there_are_some(
    tmp_path: Path,
) -> None:
    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country", subset="paper16", iterations=45, seed=3, stop_on_convergence=False
    )
    engine = prepare(conn, config=config)
    run_blocking(engine)
    data = load_run_data(conn, engine.run.id)
    found = kg_wide(data, adjusted=False)
    assert found is not None and found.rate.method == "census"
    first = data.obs.floor_pass == 0
    again = int(first.sum()) - len(np.unique(data.obs.edge_id[first]))
    assert again > 0
    assert f"its first pass put in {again} re-asks of edges it had asked" in (
        method_note(found.rate, data)
    )
    # the same run as if stored before the re-asks: each edge's first floor answer only
    seen = np.zeros(len(first), dtype=bool)
    _, firsts = np.unique(data.obs.edge_id[first], return_index=True)
    seen[np.flatnonzero(first)[firsts]] = True
    passes = np.where(first & ~seen, -1, data.obs.floor_pass)
    older = replace(data, obs=replace(data.obs, floor_pass=passes))
    note = method_note(found.rate, older)
    assert "walks a random order of the edges" in note and "re-ask" not in note
