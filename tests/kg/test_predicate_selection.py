"""A run over some predicates only: `--predicates` (keys or labels) for every mode, resolved by
one function of the KG layer."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.kg.graph import UnknownPredicateError, load_kg, predicate_indexes
from kglens_tui.kg.importers import import_kg
from kglens_tui.kg.positions import run_edge_positions
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.textfmt import selection


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


def test_every_unknown_name_and_every_dead_predicate_is_named(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    kg = load_kg(conn, "tiny")
    with pytest.raises(UnknownPredicateError, match="no predicates 'nosuch', 'foo' in KG 'tiny'"):
        predicate_indexes(kg, ["capital", "nosuch", "foo"])
    # member_of is dead in the tiny KG: kept, never asked
    assert predicate_indexes(kg, ["member_of"]) == [kg.pred_keys.index("member_of")]
    with pytest.raises(UnknownPredicateError, match="'member_of' of KG 'tiny' is dead"):
        predicate_indexes(kg, ["capital", "member of"], active=True)
    with pytest.raises(UnknownPredicateError, match="is dead"):
        prepare(conn, config=RunConfig(kg="tiny", target="sim", predicates=["member_of"]))
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_a_run_stores_the_keys_it_matched_and_shows_its_selection(
    tmp_path: Path, tiny_kg_dir: Path, capsys
) -> None:
    db = str(tmp_path / "ws.db")
    assert main(["--db", db, "kg", "import", str(tiny_kg_dir), "--name", "tiny"]) == 0
    probe = ["--db", db, "probe", "--no-tui", "--kg", "tiny", "--iterations", "1", "--quiet"]
    assert main([*probe, "--predicates", "CAPITAL, official language,capital,"]) == 0
    assert main([*probe, "--predicates", "none"]) == 0  # none: every predicate
    with sqlite3.connect(db) as stored:
        configs = [r[0] for r in stored.execute("SELECT config FROM run ORDER BY id")]
    assert [json.loads(c)["predicates"] for c in configs] == [
        ["capital", "official_language"],
        [],
    ]
    capsys.readouterr()
    assert main(["--db", db, "report", "1"]) == 0
    assert "KG tiny [capital, official_language]" in capsys.readouterr().out.splitlines()[0]
    assert selection("tiny", "paper16", ["a", "b"], full=False) == "tiny/paper16 [2 predicates]"
    assert selection("tiny", None, ["a"], full=False) == "tiny [a]"


@pytest.mark.parametrize("flag", [["--rpm", "nan"], ["--timeout", "inf"]])
def test_a_flag_that_is_no_finite_number_is_refused(tmp_path: Path, flag, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--db", str(tmp_path / "ws.db"), "probe", "--no-tui", *flag])
    assert exit_.value.code == 2
    assert f"invalid finite_float value: '{flag[1]}'" in capsys.readouterr().err


def test_a_set_value_that_is_no_finite_number_is_refused(tmp_path: Path, capsys) -> None:
    argv = ["run", "kontest", "--set", "requests_per_minute=nan"]
    assert main(["--db", str(tmp_path / "ws.db"), *argv]) != 0
    assert "requests_per_minute: 'nan' is not a valid float" in capsys.readouterr().err


def test_none_is_the_empty_list_only_where_that_is_the_default() -> None:
    from kglens_tui.modes import FactevalConfig
    from kglens_tui.runs.options import apply_assignments

    assert apply_assignments(FactevalConfig(), ["predicates=none"]).predicates == []
    # fact-eval has a context called none: it stays a value
    assert apply_assignments(FactevalConfig(), ["contexts=none"]).contexts == ["none"]


def test_a_mode_commands_rate_limit_must_be_a_number(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--db", str(tmp_path / "ws.db"), "facteval", "run", "--rpm", "nan"])
    assert "invalid finite_float value: 'nan'" in capsys.readouterr().err


def test_a_settings_file_float_must_be_a_number(tmp_path: Path, monkeypatch) -> None:
    from kglens_tui.runs.given_settings import settings_config
    from kglens_tui.settings import SettingsError, load_settings

    path = tmp_path / "config.toml"
    path.write_text("sim_latency_s = nan\nui_refresh_hz = inf\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="setting 'ui_refresh_hz': inf is not a finite number"):
        load_settings(path)
    path.write_text("sim_latency_s = nan\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="setting 'sim_latency_s': 'nan' is not a valid float"):
        settings_config("kglens", load_settings(path))


@pytest.mark.parametrize("command", [["probe", "--no-tui"], ["facteval", "run"]])
def test_a_rate_limit_of_less_than_one_request_an_hour_is_refused(
    tmp_path: Path, command: list[str], capsys
) -> None:
    db = tmp_path / "ws.db"
    assert main(["--db", str(db), *command, "--rpm", "1e-300"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "--rpm 1e-300 spaces requests more than an hour apart" in err
    assert (
        not db.exists() or not sqlite3.connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0]
    )
