"""`kglens kg build-wikidata` against the loopback replay server."""

from __future__ import annotations

from pathlib import Path

import pytest
from wikidata_support import ReplayServer, _args

from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


def test_build_wikidata_command(tmp_path: Path, server, capsys) -> None:
    assert main(_args(tmp_path, server)) == 0
    out = capsys.readouterr().out
    assert "built 'usa-germany' from Wikidata in 2 steps: 33 entities" in out
    assert "dead: P31 instance of (in the dead list)" in out
    assert "dead: P463 member of (in the dead list)" in out
    assert main(["--db", str(tmp_path / "cli.db"), "kg", "show", "usa-germany", "Q183"]) == 0
    assert "shares border with" in capsys.readouterr().out

    assert main(_args(tmp_path, server)) == 2
    assert "already exists" in capsys.readouterr().err
    server.reset()
    assert main(_args(tmp_path, server, "--replace")) == 0
    assert server.queries == []  # every answer came from the cache


def test_build_wikidata_failure_imports_nothing_and_says_how_to_resume(
    tmp_path: Path, server, capsys
) -> None:
    server.fail_after(3)
    assert main(_args(tmp_path, server)) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "step 1/2 languages: HTTP 500" in err
    assert "nothing imported" in err and "rerun to resume" in err
    conn = connect(tmp_path / "cli.db")
    assert conn.execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0
    server.fail_after(None)
    server.reset()
    assert main(_args(tmp_path, server)) == 0
    assert len(server.queries) == 14 - 3


def test_build_wikidata_rejects_bad_seeds(tmp_path: Path, server, capsys) -> None:
    args = _args(tmp_path, server)
    args[args.index("Q30,Q183")] = "Q30,Germany"
    assert main(args) == 2
    assert "'Germany' is not a Wikidata item id" in capsys.readouterr().err
    assert server.queries == []
