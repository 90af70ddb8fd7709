"""`kglens consistency ...` and `kglens facteval ...` against simulated targets."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from kontest_support import hand_kg

from kglens_tui.cli.main import main
from kglens_tui.kg.importers import import_kg
from kglens_tui.store.connection import connect


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "cli.db"
    conn = connect(path)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    return str(path)


def test_consistency_commands(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--db", db, "consistency"]
    for seed in (1, 2, 3):
        run = ["run", "--kg", "hand", "--relations", "all", "--transitive", "located_in"]
        assert main([*base, *run, "--target", f"sim:{seed}", "--quiet"]) == 0
    assert main([*base, "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "Consistency (KONTEST Table 3)" in out and "ontological" in out
    assert "Knowledge coverage" in out and "SIMULATED TARGET" in out
    assert main([*base, "ensemble", "1", "2", "3", "--folds", "2"]) == 0
    out = capsys.readouterr().out
    assert "weighted ensemble" in out and "majority vote" in out and "run 3:" in out
    assert main([*base, "paths", "--kg", "hand"]) == 0
    assert "located_in" in capsys.readouterr().out
    capsys.readouterr()
    assert main([*base, "list"]) == 0
    conn = connect(db)
    done, total = conn.execute(
        "SELECT iterations_done, units_total FROM run WHERE id = 1"
    ).fetchone()
    conn.close()
    assert total and f"{done:,}/{total:,}" in capsys.readouterr().out  # units done of planned
    assert main([*base, "run", "--resume", "1", "--quiet"]) == 0
    assert main([*base, "ensemble", "1"]) == 2
    assert main([*base, "run", "--kg", "hand", "--transitive", "nope", "--quiet"]) == 2
    assert "no predicate 'nope'" in capsys.readouterr().err


def test_facteval_commands(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--db", db, "facteval"]
    run = ["run", "--kg", "hand", "--facts", "all", "--formats", "fib,wh"]
    assert main([*base, *run, "--contexts", "none,relevant,antifactual", "--quiet"]) == 0
    assert main([*base, "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "precision · recall · abstention rate per context" in out
    assert "SAQ fib" in out and "antifactual" in out and "F1 [95%]" in out
    assert main([*base, "report", "2"]) == 2
    assert main(["--db", db, "consistency", "report", "1"]) == 2
    assert "run 1 is a fact-eval run, not a KONTEST one" in capsys.readouterr().err
    assert main([*base, "run", "--kg", "hand", "--contexts", "misleading", "--quiet"]) == 2


def test_a_killed_mode_run_is_listed_as_interrupted(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--db", db, "consistency"]
    assert main([*base, "run", "--kg", "hand", "--target", "sim:1", "--quiet"]) == 0
    conn = connect(db)
    gone = f"{socket.gethostname()}:{2**22 + 7}:1"  # above the kernel's pid limit: never alive
    conn.execute("UPDATE run SET status = 'running', owner = ? WHERE id = 1", (gone,))
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main([*base, "list"]) == 0
    assert "interrupted" in capsys.readouterr().out
    assert main([*base, "run", "--resume", "1", "--quiet"]) == 0


def test_a_mode_run_from_an_earlier_verifier_says_so(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--db", db, "facteval"]
    assert main([*base, "run", "--kg", "hand", "--facts", "all", "--quiet"]) == 0
    assert main([*base, "report", "1"]) == 0
    assert "earlier verifier" not in capsys.readouterr().out  # made under today's rules
    conn = connect(db)
    conn.execute("UPDATE run SET manifest = json_remove(manifest, '$.verifier_rules')")
    conn.commit()
    conn.close()
    assert main([*base, "report", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "given by an earlier verifier (before rules were numbered" in out
    assert "a new run judges its replies by today's" in out
