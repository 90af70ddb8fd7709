"""A run over some predicates only: `--predicates` (keys or labels) for every mode, resolved by
one function of the KG layer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kglens_tui.cli import main
from kglens_tui.kg.graph import UnknownPredicateError, load_kg, predicate_indexes
from kglens_tui.kg.importers import import_kg
from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.engine import run_edge_positions
from kglens_tui.probe.runner import prepare, run_blocking


def test_predicates_are_named_by_key_or_label_case_insensitively(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    kg = load_kg(conn, "tiny")
    capital = kg.pred_keys.index("capital")
    language = kg.pred_keys.index("official_language")
    label = kg.pred_labels[language]
    assert predicate_indexes(kg, ["CAPITAL", label.upper(), "capital"]) == [capital, language]
    with pytest.raises(UnknownPredicateError, match="no predicate 'capitol' in KG 'tiny'"):
        predicate_indexes(kg, ["capitol"])


def test_a_run_asks_only_the_named_predicates(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    kg = load_kg(conn, "tiny")
    every = run_edge_positions(conn, kg, None)
    chosen = run_edge_positions(conn, kg, None, ["capital"])
    assert 0 < len(chosen) < len(every)
    assert {kg.pred_keys[p] for p in kg.p[chosen]} == {"capital"}
    config = RunConfig(
        kg="tiny",
        target="sim:1",
        predicates=["capital"],
        batch_size=2,
        iterations=3,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config)
    assert sorted(engine.run.edge_ids.tolist()) == sorted(kg.edge_ids[chosen].tolist())
    run_blocking(engine)
    asked = {
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT p.key FROM observation o JOIN edge e ON e.id = o.edge_id "
            "JOIN predicate p ON p.id = e.predicate_id"
        )
    }
    assert asked == {"capital"}


def test_the_cli_names_an_unknown_predicate_in_one_line(
    tmp_path: Path, tiny_kg_dir, capsys
) -> None:
    db = str(tmp_path / "ws.db")
    assert main(["--db", db, "kg", "import", str(tiny_kg_dir), "--name", "tiny"]) == 0
    capsys.readouterr()
    code = main(["--db", db, "probe", "--no-tui", "--kg", "tiny", "--predicates", "capitol"])
    assert code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no predicate 'capitol' in KG 'tiny'" in err[0]
    with sqlite3.connect(db) as stored:
        assert stored.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
