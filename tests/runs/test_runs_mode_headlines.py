"""`kglens runs` gives a KONTEST or fact-eval run its headline (the rate with its interval, n
and chance) where a KGLens run has its rates, as home's detail line does, in 80 columns too; the
headline's module stays out of textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.core.console import console
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.headline import headlines, mode_headline
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.db"
    conn = connect(path)
    run_blocking(prepare(conn, config=KontestConfig(kg="country", relations=12, target="sim:1")))
    config = FactevalConfig(kg="country", target="sim:2", facts=6, qtypes=["tfq"])
    run_blocking(prepare(conn, config=config))
    conn.close()
    return path


@pytest.mark.parametrize("width", [80, 250])
def test_runs_shows_mode_runs_headlines(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    conn = connect(db)
    kontest, facteval = (headlines(open_snapshot(conn, i).metrics) for i in (1, 2))
    conn.close()
    monkeypatch.setattr(console, "width", width)
    assert main(["--db", str(db), "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width and "…" not in out
    assert kontest is not None and not isinstance(kontest, list)
    assert f"│ inconsistent {kontest.rate} " in out
    assert f"│   chance: coin {kontest.coin} " in out
    assert f"│   coin at yes-rate {kontest.at_yes_rate} " in out
    assert f"│ n={kontest.valid:,} valid " in out
    assert isinstance(facteval, list) and facteval
    for f in facteval:
        assert f"│ F1 {f.context} {f.f1} " in out and f"│ n={f.replied:,} replied " in out
    assert "beside the best blind guess" in " ".join(out.split())
    if width == 80:  # in the rates column, no "—" for them
        assert "│ —" not in out and "KONTEST / fact-eval" not in out
    else:  # a column of their own after the KGLens rates
        assert "┃ KONTEST / fact-eval " in out


def test_mode_headline_is_home_s_and_textual_free(db: Path) -> None:
    from kglens_tui.tui.screens import home

    conn = connect(db)
    for i in (1, 2):
        metrics = open_snapshot(conn, i).metrics
        assert home.mode_headline(metrics) == mode_headline(metrics)
    conn.close()
    code = "import sys, kglens_tui.modes.headline; print(any(m.startswith('textual') for m in sys.modules))"
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "False"
