"""A newcomer's first commands (issue 38's small ones): the version, a bundled KG's stats before
any workspace exists, and KONTEST's paths whichever command starts the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect


def test_kg_stats_and_show_of_a_bundled_kg_need_no_workspace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "not-yet" / "k.db"
    monkeypatch.setenv("KGLENS_DB", str(db))
    assert main(["kg", "stats", "country"]) == 0
    out, err = capsys.readouterr()
    assert "active edges" in out and "5,038" in out
    assert "No workspace at" in err and "bundled KG 'country'" in err
    assert main(["kg", "show", "country", "France"]) == 0
    assert "country:FRA" in capsys.readouterr().out
    assert not db.exists() and not db.parent.exists()  # nothing made
    # a name that is not bundled is still a typo to report, not a workspace to make
    assert main(["kg", "stats", "nosuch"]) != 0
    assert "no workspace at" in capsys.readouterr().err
    assert not db.exists()


def test_run_kontest_walks_the_bundled_kgs_paths_as_consistency_run_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    common = ["--db", str(db)]
    assert main([*common, "run", "kontest", "--set", "kg=places", "--set", "relations=5"]) == 0
    assert main([*common, "consistency", "run", "--kg", "places", "--relations", "5"]) == 0
    conn = connect(db)
    configs = [json.loads(c) for (c,) in conn.execute("SELECT config FROM run ORDER BY id")]
    paths = [
        n
        for (n,) in conn.execute(
            "SELECT COUNT(*) FROM kontest_path GROUP BY run_id ORDER BY run_id"
        )
    ]
    conn.close()
    assert [c["transitive"] for c in configs] == [["located_in"], ["located_in"]]
    assert paths[0] == paths[1] > 0
    # max_paths 0 walks none
    assert (
        main(
            [
                *common,
                "run",
                "kontest",
                "--set",
                "kg=places",
                "--set",
                "relations=5",
                "--set",
                "max_paths=0",
            ]
        )
        == 0
    )
    conn = connect(db)
    assert conn.execute("SELECT COUNT(*) FROM kontest_path WHERE run_id = 3").fetchone()[0] == 0
    conn.close()
