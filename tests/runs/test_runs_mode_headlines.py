"""`kglens runs` gives a KONTEST or fact-eval run its headline (the rate with its interval, n
and chance) where a KGLens run has its rates, as home's detail line does, in 80 columns too; the
headlines' modules stay out of textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_db

from kglens_tui.cli.main import main
from kglens_tui.core.console import console
from kglens_tui.core.intervals import wilson
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.facteval.headline import facteval_headline
from kglens_tui.modes.kontest.headline import kontest_headline
from kglens_tui.modes.kontest.metrics import ALL
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci


@pytest.fixture(scope="module")
def runs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A KONTEST run and a fact-eval run, made once a module, never written."""
    folder = tmp_path_factory.mktemp("headlines")
    path = folder / "w.db"
    conn = connect(path)
    kontest = KontestConfig(kg="country", relations=12, target="sim:1")
    run_blocking(prepare(conn, config=kontest))
    config = FactevalConfig(kg="country", target="sim:2", facts=6, qtypes=["tfq"])
    run_blocking(prepare(conn, config=config))
    conn.close()
    return path


@pytest.fixture
def db(runs_db: Path, tmp_path: Path) -> Path:
    """A private copy of `runs_db`."""
    return copy_db(runs_db, tmp_path / "w.db")


@pytest.mark.parametrize("width", [80, 250])
def test_runs_shows_mode_runs_headlines(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    conn = connect(db)
    kontest, facteval = (open_snapshot(conn, i).metrics for i in (1, 2))
    conn.close()
    monkeypatch.setattr(console, "width", width)
    assert main(["--db", str(db), "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width and "…" not in out
    o = kontest.oracle(ALL)
    assert f"│ inconsistent {rate_ci(*wilson(o.inconsistent, o.valid).bounds)} " in out
    assert f"│   chance: coin {pct(kontest.coin_error_rate(ALL))} " in out
    assert f"│   coin at yes-rate {pct(kontest.coin_error_rate(ALL, at_yes_rate=True))} " in out
    assert f"│ n={o.valid:,} valid " in out
    for line in facteval_headline(facteval).lines.splitlines():
        assert f"│ {line} " in out
    assert "beside the best blind guess" in " ".join(out.split())
    if width == 80:  # in the rates column, no "—" for them
        assert "│ —" not in out and "KONTEST / fact-eval" not in out
    else:  # a column of their own after the KGLens rates
        assert "┃ KONTEST / fact-eval " in out


def test_the_headlines_are_textual_free(db: Path) -> None:
    conn = connect(db)
    assert kontest_headline(open_snapshot(conn, 1).metrics).lines.startswith("inconsistent ")
    conn.close()
    code = (
        "import sys, kglens_tui.modes.kontest.headline, kglens_tui.modes.facteval.headline; "
        "print(any(m.startswith('textual') for m in sys.modules))"
    )
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "False"
