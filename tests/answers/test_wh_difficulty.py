"""The wh difficulty: open questions only, on the edges where the paper allows them; the run
leaves the rest out and its report says how many."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.answers.bias import run_trust
from kglens_tui.cli.main import main
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking


def test_a_wh_run_asks_open_questions_on_the_edges_that_allow_them(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    config = RunConfig(
        kg="tiny",
        target="sim:2",
        difficulty="wh",
        wh_max_objects=2,
        batch_size=4,
        iterations=4,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config)
    # Tonga has two official languages: with fewer than 2 objects allowed, both edges go
    assert len(engine.run.edge_ids) == 8
    assert engine.run.manifest["wh_left_out"] == 2
    snap = run_blocking(engine)
    assert snap.progress.counters.requests == 16
    kinds = {r[0] for r in conn.execute("SELECT DISTINCT qtype FROM observation")}
    assert kinds == {"wh"}
    # the live baseline is the report's: each Wh question answered with its predicate's most
    # common true object (right for some of these edges, so above the old 0%)
    stored = run_trust(conn, engine.run.id).baseline
    assert snap.baseline == stored and stored.per_question is not None
    assert 0.0 < stored.per_question < 1.0


def test_wh_needs_an_edge_that_allows_it(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    config = RunConfig(kg="tiny", target="sim", difficulty="wh", wh_max_objects=1)
    with pytest.raises(ValueError, match="allows a Wh question"):
        prepare(conn, config=config)


def test_report_says_how_many_edges_a_wh_run_left_out(tmp_path: Path, tiny_kg_dir: Path, capsys):
    db = str(tmp_path / "ws.db")
    assert main(["--db", db, "kg", "import", str(tiny_kg_dir), "--name", "tiny"]) == 0
    args = ["--db", db, "probe", "--no-tui", "--kg", "tiny", "--target", "sim", "--quiet"]
    wh = ["--difficulty", "wh", "--wh-max-objects", "2", "--iterations", "2", "--batch-size", "3"]
    assert main([*args, *wh]) == 0
    capsys.readouterr()
    assert main(["--db", db, "report", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("WH · ")
    assert "WH: open questions only; 2 active edges of the selection allow none" in out
    assert "What the answers teach" in out  # the learned model, rebuilt from the log
    # no empty Yes/No table for a run that asked none
    assert "Yes/No answers: none (this run asked open questions only)" in out
    assert "yes-rate (replies starting with yes)" not in out


@pytest.mark.tui
def test_the_welcome_probe_of_the_local_model_asks_open_questions(
    tmp_path: Path, monkeypatch
) -> None:
    import kglens_tui.tui.app as tui_app
    from kglens_tui.settings import Settings

    monkeypatch.setattr(tui_app, "local_available", lambda model="smollm2": True)
    local = tui_app.KGLensApp(tmp_path / "w.db", Settings(run={"target": "local"}), welcome=False)
    config = local.welcome_config()
    assert config.target == "local:smollm2"
    assert config.difficulty == "wh" and config.batch_size <= 16
    simulated = tui_app.KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    assert simulated.welcome_config().difficulty == "easy"  # Yes/No and its bias warning stay


@pytest.mark.tui
def test_the_welcome_offers_the_local_extra_only_when_the_settings_chose_no_simulation(
    tmp_path: Path, monkeypatch
) -> None:
    import kglens_tui.tui.app as tui_app
    from kglens_tui.settings import Settings

    monkeypatch.setattr(tui_app, "local_available", lambda model="smollm2": False)
    chosen = tui_app.KGLensApp(tmp_path / "w.db", Settings(run={"target": "sim"}), welcome=False)
    assert chosen.default_target_text() == "a SIMULATED model (the settings choose it)"
    fallback = tui_app.KGLensApp(tmp_path / "w.db", Settings(run={"target": "local"}))
    assert "install the `local` extra" in fallback.default_target_text()


def test_wh_chance_is_the_best_constant_answer_per_predicate(
    tmp_path: Path, tiny_kg_dir: Path, capsys
) -> None:
    """QA: a Wh run's report showed chance 0%, but "right" is the driving side of two countries
    of three and German the language of both asked: the chance is the share of the asked
    questions whose predicate's most common true object is a true object of the subject."""
    from kglens_tui.answers.bias import run_trust
    from kglens_tui.store.connection import connect

    db = tmp_path / "ws.db"
    assert main(["--db", str(db), "kg", "import", str(tiny_kg_dir), "--name", "tiny"]) == 0
    args = ["--db", str(db), "probe", "--no-tui", "--kg", "tiny", "--target", "sim", "--quiet"]
    wh = ["--difficulty", "wh", "--wh-max-objects", "2", "--iterations", "4", "--batch-size", "4"]
    assert main([*args, *wh, "--predicates", "official_language,driving_side"]) == 0
    conn = connect(db)
    objects = [
        label
        for (label,) in conn.execute(
            "SELECT l.label FROM observation o JOIN edge e ON e.id = o.edge_id "
            "JOIN entity l ON l.id = e.object_id WHERE o.category != 'error'"
        )
    ]
    baseline = run_trust(conn, 1).baseline
    conn.close()
    assert set(objects) == {"German", "left", "right"}
    hits = sum(label in ("German", "right") for label in objects)
    assert baseline.per_question == pytest.approx(hits / len(objects))
    assert baseline.win_rate == pytest.approx(4 / 5)  # every edge asked; four of five right
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "most common true object" in out
    assert f"{hits / len(objects):.1%} of questions right" in out
