"""The drill-down gives an edge's one-hop neighbours among the run's edges whatever the run's
propagation, and says when the propagation does not use them (learned, or off): never "0
neighbours" for an edge that has some."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from analysis_support import RUN_A, edge_ids, import_mini, make_run

from kglens_tui.analysis.drilldown import edge_detail
from kglens_tui.analysis.rundata import load_run_data


@pytest.mark.parametrize(
    ("propagation", "mode", "text"),
    [
        (True, "sum", "2 neighbours"),
        (True, "learned", "2 neighbours (pooled through the learned model, not summed)"),
        (False, "sum", "2 neighbours (not used: propagation off)"),
    ],
)
def test_drilldown_counts_neighbours_under_every_propagation(
    conn: sqlite3.Connection, tmp_path: Path, propagation: bool, mode: str, text: str
) -> None:
    import_mini(conn, tmp_path)
    ids = edge_ids(conn)
    data = load_run_data(conn, make_run(conn, RUN_A, propagation=propagation, mode=mode))
    d = edge_detail(data, ids["e7"])  # e1 and e4 share its subject, Aland
    assert d.neighbours == 2 and d.neighbours_text == text
    assert (data.neighbourhood is None) == bool(d.neighbours_unused)
