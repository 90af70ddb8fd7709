"""Every command and screen shows what a run's mode declares (`Mode.observations`, `report`,
`headline`, `results`, `live_panels`), not what a branch on the mode's name picks: the toy mode (one module plus
registration, tests/toy_mode.py) declares a headline and results, and they show."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy_mode import TOY

from kglens_tui.cli.main import main
from kglens_tui.core.safetext import LiteralTable
from kglens_tui.runs.registry import get_mode, mode_names, mode_of_label, stores_observations
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.mode_analysis import analysis_renderables


@pytest.fixture(scope="module")
def toy_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("toy") / "w.db"
    assert main(["--db", str(db), "run", TOY, "--set", "kg=country", "--set", "edges=5"]) == 0
    return db


def test_each_built_in_mode_declares_how_its_runs_are_shown() -> None:
    declared = {name: (get_mode(name).observations, get_mode(name).report) for name in mode_names()}
    assert declared["kglens"] == (True, "report")
    assert declared["kontest"] == (False, "consistency report")
    assert declared["facteval"] == (False, "facteval report")
    assert mode_of_label("KONTEST") is get_mode("kontest")
    assert mode_of_label("no such mode") is None
    assert stores_observations("kglens") and not stores_observations("facteval")
    assert not stores_observations("a plugin not installed here")


def test_runs_lists_the_headline_a_mode_declares(toy_db: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["--db", str(toy_db), "runs"]) == 0
    out = capsys.readouterr().out
    assert "toy yes 5 of 5" in " ".join(out.split())
    assert out.rstrip().endswith("toy: the Yes replies of those answered.")  # its own note


def test_the_results_screen_shows_the_tables_a_mode_declares(toy_db: Path) -> None:
    conn = connect(toy_db)
    try:
        assert not get_mode(TOY).observations and get_mode("kglens").observations
        title, tables = analysis_renderables(conn, 1, compare=False)
        assert title == "Toy run 1"
        (toy,) = [t for t in tables if isinstance(t, LiteralTable)]  # after the run's head
        assert toy.row_count == 2 + 5  # yes and answered, then each of the 5 replies
        with pytest.raises(ValueError, match="nothing to compare run 1 with"):
            analysis_renderables(conn, 1, compare=True)
    finally:
        conn.close()


def test_only_runs_with_observations_can_be_annotated(toy_db: Path, capsys) -> None:
    capsys.readouterr()
    code = main(["--db", str(toy_db), "annotate", "round", "create", "--name", "r", "--runs", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "only KGLens runs can be annotated: run 1 is a toy run" in err


def test_report_of_a_run_of_another_mode_is_the_report_its_mode_declares(
    tmp_path: Path, capsys
) -> None:
    db = str(tmp_path / "w.db")
    assert (
        main(["--db", db, "consistency", "run", "--target", "sim", "--relations", "3", "--yes"])
        == 0
    )
    capsys.readouterr()
    assert main(["--db", db, "report", "1"]) == 0
    generic = capsys.readouterr().out
    assert "Consistency (KONTEST Table 3)" in generic
    assert main(["--db", db, "consistency", "report", "1"]) == 0
    assert capsys.readouterr().out == generic


def test_a_mode_declares_live_panels_of_its_own_snapshots_only(toy_db: Path) -> None:
    """The toy's stored snapshot gives the toy's panel (its rows keyed); every other mode
    declares none of it, KGLens none at all."""
    conn = connect(toy_db)
    try:
        snap = get_mode(TOY).open_snapshot(conn, 1)
    finally:
        conn.close()
    (panel,) = get_mode(TOY).live_panels(snap)
    assert panel.key == "toy" and [row.key for row in panel.rows][:2] == ["yes", "answered"]
    assert panel.rows[1].cells == ("answered", "5")
    for other in ("kglens", "kontest", "facteval"):
        assert get_mode(other).live_panels(snap) == []


def test_quitting_says_what_the_runs_mode_declares_it_drops_and_keeps() -> None:
    kglens, toy = get_mode("kglens"), get_mode(TOY)
    assert "iteration in progress is dropped" in kglens.quit_question(None)
    assert "units in flight are dropped" in toy.quit_question(None)
    assert (kglens.quit_ending, toy.quit_ending) == (
        "dropping the iteration in progress",
        "keeping the answered units",
    )
