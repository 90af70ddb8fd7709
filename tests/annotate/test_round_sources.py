"""The runs a new annotation round may sample: those of every mode that declares observation rows
(`Mode.observations`), with answered replies; never a mode's by its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.annotate.rounds import source_runs
from kglens_tui.cli.main import main
from kglens_tui.runs import registry
from kglens_tui.store.connection import connect


def test_round_sources_are_the_runs_of_modes_that_store_observations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "probe", "--no-tui", "--iterations", "1", "--batch-size", "4"]) == 0
    assert main(["--db", db, "consistency", "run", "--relations", "2", "--quiet"]) == 0
    capsys.readouterr()
    conn = connect(db)
    try:
        assert [(r.id, r.kg, r.answered) for r in source_runs(conn)] == [(1, "country", 4)]
        # the same rows under a mode that declares observations are offered; under one that
        # does not, they are not
        with conn:
            conn.execute("UPDATE run SET mode = 'kontest' WHERE id = 1")
        assert source_runs(conn) == []
        monkeypatch.setattr(type(registry.get_mode("kontest")), "observations", True)
        assert [r.id for r in source_runs(conn)] == [1]
    finally:
        conn.close()
