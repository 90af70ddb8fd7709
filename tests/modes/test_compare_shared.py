"""KONTEST and fact-eval compare over what the runs share: runs on different samples are said to
share nothing (no empty table), a partial overlap is named, and the TUI's compare takes by
default the runs that share units with the chosen one."""

from __future__ import annotations

from pathlib import Path

import pytest
from compare_support import text
from conftest import copy_db
from kontest_support import hand_kg

from kglens_tui.cli.main import main
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes.compare_sets import choose_partners
from kglens_tui.modes.facteval.compare import (
    answered_facts,
    compare_table,
    load_run_scores,
    shared_facts,
)
from kglens_tui.modes.kontest.compare import kontest_partners
from kglens_tui.modes.results import peer_runs
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.mode_analysis import analysis_renderables


def test_choose_partners_prefers_runs_sharing_units() -> None:
    own = set(range(20))
    others = {1: set(range(100, 140)), 2: set(range(20)), 3: set(range(5)), 4: set(range(15))}
    # 2 shares all; 4 keeps 15 of 20 shared (at least MIN_SHARED); 3 would leave 5; 1 shares none
    assert choose_partners(own, others) == ([2, 4], [1, 3])
    # the best partner is taken even when it shares few; with none shared every run is taken
    assert choose_partners({1, 2}, {5: {2, 3}, 6: {7}}) == ([5], [6])
    assert choose_partners({1}, {5: {2}, 6: {3}}) == ([5, 6], [])


@pytest.fixture(scope="module")
def runs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """KONTEST runs 1-2 on 'capital', 3 on 'located_in' (no relation in common), 4 on both; the
    same for fact-eval runs 5-8: made once a module, never written."""
    folder = tmp_path_factory.mktemp("shared")
    path = str(folder / "w.db")
    conn = connect(path)
    import_kg(conn, hand_kg(folder), "hand")
    conn.close()
    for mode, sample in (("consistency", "--relations"), ("facteval", "--facts")):
        for seed, predicates in ((1, "capital"), (2, "capital"), (1, "located_in"), (3, "")):
            argv = ["--db", path, mode, "run", "--kg", "hand", sample, "all", "--quiet"]
            argv += ["--target", f"sim:{seed}", *(["--predicates", predicates] * bool(predicates))]
            assert main(argv) == 0
    return Path(path)


@pytest.fixture
def db(runs_db: Path, tmp_path: Path) -> str:
    """A private copy of `runs_db`."""
    return str(copy_db(runs_db, tmp_path / "w.db"))


def test_cli_compare_says_runs_share_nothing(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["--db", db, "consistency", "compare", "1", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "Runs 1 and 3 share no relation every run answered (run 1 (simulated (seed 1)) answered 3, run 3 (simulated (seed 1)) 3)"
        in out
    )
    assert "nothing to compare" in out and "same --relations and --seed" in out
    assert "Consistency errors" not in out and "(n=0)" not in out
    assert main(["--db", db, "consistency", "compare", "1", "4"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "Compared over the 3 relations every run answered (run 1 (simulated (seed 1)) answered 3, run 4 "
        in out
    )
    assert "over the 3 relations all answered" in out
    assert main(["--db", db, "facteval", "compare", "5", "7"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Runs 5 and 7 share no question every run answered" in out
    assert "nothing to compare" in out and "(Table 2)" not in out
    assert main(["--db", db, "facteval", "compare", "5", "8"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Compared over the " in out and "(Table 2)" in out


def test_facteval_compare_counts_only_shared_questions(db: str) -> None:
    conn = connect(db)
    runs = load_run_scores(conn, [5, 8])
    shared = shared_facts(runs)["hand"]
    assert shared == answered_facts(runs[0]) < answered_facts(runs[1])
    assert (len(shared), len(answered_facts(runs[1]))) == (12, 22)
    table = text(compare_table(runs))
    # both columns count the same 12 questions: run 8's other relation is left out
    assert table.count("n=12") == 2 and "n=22" not in table
    conn.close()


def test_tui_compare_takes_runs_sharing_relations(db: str) -> None:
    conn = connect(db)
    # run 3 (located_in) shares nothing with 1 and 2, but its relations are all in run 4
    assert peer_runs(conn, 3, kontest_partners) == ([3, 4], [1, 2])
    title, shown = analysis_renderables(conn, 3, True)
    assert title == "KONTEST runs 3, 4"
    out = " ".join(text(*shown).split())
    assert "Not compared: runs 1 and 2" in out and "consistency compare 3 RUN" in out
    assert (
        "Compared over the 3 relations every run answered (run 3 (simulated (seed 1)) "
        "answered 3, run 4 (simulated (seed 3)) 6)"
    ) in out
    assert "over the 3 relations all answered" in out and "Table 5" in out
    conn.close()


def test_tui_compare_with_no_shared_relation_says_so(tmp_path: Path) -> None:
    path = str(tmp_path / "w.db")
    conn = connect(path)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    for seed, predicates in ((1, "capital"), (2, "capital"), (1, "located_in")):
        argv = ["--db", path, "consistency", "run", "--kg", "hand", "--relations", "all"]
        assert main([*argv, "--quiet", "--target", f"sim:{seed}", "--predicates", predicates]) == 0
    conn = connect(path)
    title, shown = analysis_renderables(conn, 3, True)
    assert title == "KONTEST runs 1, 2, 3"
    out = " ".join(text(*shown).split())
    assert "Runs 1, 2 and 3 share no relation every run answered" in out
    assert "nothing to compare" in out and "(n=0)" not in out and "Table 5" not in out
    conn.close()
