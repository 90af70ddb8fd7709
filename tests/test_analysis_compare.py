"""Model comparison: Table 3 layout, what one model knows and another does not, drift."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_analysis_support import RUN_A, RUN_B, RUN_C, edge_ids, import_mini, make_run

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.compare import drift, knowledge_diff, load_runs, run_grid
from kglens_tui.analysis.groups import group_comparison


@pytest.fixture
def runs(conn: sqlite3.Connection, tmp_path: Path) -> tuple[sqlite3.Connection, list[int], dict]:
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    b = make_run(conn, RUN_B, target="model-b")
    c = make_run(conn, RUN_C, target="model-a", difficulty="hard")
    return conn, [a, b, c], edge_ids(conn)


def test_table3_grid(runs) -> None:
    conn, (a, b, c), _ = runs
    grid = run_grid(conn)
    assert grid.models == ["model-a", "model-b"]
    assert grid.columns == [("mini", "easy"), ("mini", "hard")]
    assert grid.cell("model-a", "mini", "easy").run_id == a
    assert grid.cell("model-a", "mini", "easy").rates.win.value == pytest.approx(2 / 6)
    assert grid.cell("model-b", "mini", "easy").rates.win.value == pytest.approx(4 / 5)
    assert grid.cell("model-a", "mini", "hard").rates.win.value == 1.0
    assert grid.cell("model-b", "mini", "hard") is None
    assert grid.average["model-a"] == pytest.approx((2 / 6 + 1) / 2)
    assert grid.average["model-b"] == pytest.approx(4 / 5)
    newer = make_run(conn, RUN_B, target="model-a")  # a later finished run fills the cell
    assert run_grid(conn).cell("model-a", "mini", "easy").run_id == newer


def test_knows_and_does_not(runs) -> None:
    conn, (a, b, _), ids = runs
    ra, rb = load_runs(conn, [a, b])
    diff = knowledge_diff(ra, rb)
    # both examined e1 e2 e3 e4: A knows e1 e4, partial e2, unknown e3; B unknown e1, knows rest
    assert diff.common == 4
    assert {k: v for k, v in diff.table.items() if v} == {
        ("knows", "unknown"): 1,
        ("partial", "knows"): 1,
        ("unknown", "knows"): 1,
        ("knows", "knows"): 1,
    }
    assert [p.edge_id for p in diff.a_only] == [ids["e1"]]
    assert [p.edge_id for p in diff.b_only] == [ids["e3"]]
    e1 = diff.a_only[0]
    assert (e1.m_a, e1.n_a, e1.m_b, e1.n_b) == (2, 0, 0, 1)
    assert (e1.mean_a, e1.mean_b) == (pytest.approx(1 / 4), pytest.approx(2 / 3))
    tr.mark_kg_error(conn, edge_id=ids["e1"], author="ann", reason="wrong capital")
    ra, rb = load_runs(conn, [a, b])
    assert knowledge_diff(ra, rb).common == 3 and knowledge_diff(ra, rb).a_only == []
    assert knowledge_diff(ra, rb, adjusted=False).common == 4


def test_drift_same_model(runs) -> None:
    conn, (a, b, c), ids = runs
    ra, rc = load_runs(conn, [a, c])
    d = drift(ra, rc)
    assert d.same_model
    assert d.delta["win"] == pytest.approx(1 - 2 / 6)
    assert d.delta["zero_sense"] == pytest.approx(0 - 2 / 6)
    assert d.diff.common == 1 and d.changed == []  # e1 known in both
    assert d.mean_shift == pytest.approx(1 / 3 - 1 / 4)  # e1: Beta(1, 3) -> Beta(1, 2)
    assert [
        (p.predicate, p.edges, p.zero_sense_a.k, p.zero_sense_b.k) for p in d.per_predicate
    ] == [("capital", 1, 0, 0)]
    rb = load_runs(conn, [b])[0]
    other = drift(ra, rb)
    assert not other.same_model
    assert {p.edge_id for p in other.changed} == {ids["e1"], ids["e2"], ids["e3"]}


def test_group_comparison_fig7_layout(runs) -> None:
    conn, (a, b, _), _ = runs
    comp = group_comparison(load_runs(conn, [a, b]), "subject")
    assert [c.label for c in comp.runs] == ["model-a", "model-b"]
    rows = {r.key: r for r in comp.rows}
    assert [r.label for r in comp.rows] == ["Aland", "Borduria", "Caledonia"]
    caledonia = rows["c:C"].cells
    assert caledonia[0].rates.zero_sense.value == 1.0  # A: e3 0/2
    assert caledonia[1].rates.zero_sense.value == 0.0  # B: e3 1/0, e6 1/0
    assert (caledonia[0].edges, caledonia[1].rates.examined) == (2, 2)


def test_different_kgs_refused(runs, tmp_path: Path, tiny_kg_dir: Path) -> None:
    conn, (a, _, _), _ = runs
    from kglens_tui.kg.importers import import_kg
    from kglens_tui.probe.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    import_kg(conn, tiny_kg_dir, "tiny")
    snap = run_blocking(prepare(conn, config=RunConfig(kg="tiny", iterations=1, batch_size=4)))
    ra, rt = load_runs(conn, [a, snap.run_id])
    with pytest.raises(ValueError, match="different KGs"):
        knowledge_diff(ra, rt)
