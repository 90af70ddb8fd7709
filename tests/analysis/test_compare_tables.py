"""`kglens compare A B --tables DIR` (the paper's Table 3): each run's values in numeric columns
and the differences with their intervals and tests in a file of their own (trial 2: one text
cell per model, the difference and the predicates' tests in no file)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from kglens_tui.analysis.compare import drift, grid_of_runs, load_runs
from kglens_tui.analysis.compare_text import grid_cell_text
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import rate_ci


def _rows(folder: Path, pattern: str) -> list[dict[str, str]]:
    (path,) = folder.glob(pattern)
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_compare_tables_write_numbers_and_the_differences(
    stored_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tab"
    argv = ["--db", str(stored_db), "compare", "1", "2", "--tables", str(folder)]
    assert main([*argv, "--table-format", "csv"]) == 0
    shown = capsys.readouterr().out
    assert "Table 3 values" in shown and "KG-wide win rate differences, run 1 → run 2" in shown
    conn = connect(stored_db)
    a, b = load_runs(conn, [1, 2])
    dr = drift(a, b)
    assert dr.kg_wide_a is not None and dr.kg_wide_b is not None and dr.difference is not None
    values = _rows(folder, "*table-3-values*.csv")
    assert [r["run"] for r in values] == ["1", "2"]
    for row, wide, rates in (
        (values[0], dr.kg_wide_a, dr.rates_a),
        (values[1], dr.kg_wide_b, dr.rates_b),
    ):
        low, high = wide.rate.win_interval()
        assert float(row["KG-wide win (%)"]) == pytest.approx(100 * wide.rate.win, abs=0.05)
        assert float(row["KG-wide win low (%)"]) == pytest.approx(100 * low, abs=0.05)
        assert float(row["KG-wide win high (%)"]) == pytest.approx(100 * high, abs=0.05)
        assert row["KG-wide win capped"] == str(wide.rate.capped).lower()
        assert float(row["KG-wide chance (%)"]) == pytest.approx(100 * wide.chance_win, abs=0.05)
        assert int(row["KG-wide answers"]) == wide.rate.answers
        assert float(row["examined win (%)"]) == pytest.approx(
            100 * rates.get("win").value, abs=0.05
        )
        assert int(row["examined n"]) == rates.examined
        assert row["difficulty"] == "HARD" and row["status"] == "finished"
    diffs = _rows(folder, "*differences-run-1-run-2*.csv")
    first = diffs[0]
    d = dr.difference
    d_low, d_high = d.interval()
    assert first["predicate"] == "all (KG-wide)"
    assert float(first["difference (points)"]) == pytest.approx(-100 * d.value, abs=0.05)
    assert float(first["difference low"]) == pytest.approx(-100 * d_high, abs=0.05)
    assert float(first["difference high"]) == pytest.approx(-100 * d_low, abs=0.05)
    assert float(first["p"]) == pytest.approx(d.p_value, rel=1e-2)
    assert first["significant at 5%"] == str(d.p_value < 0.05).lower()
    assert first["runs differ in"] == ""  # both HARD, same settings
    assert dr.predicate_tests  # the predicates both runs estimate
    assert [r["predicate"] for r in diffs[1:]] == [t.predicate for t in dr.predicate_tests]
    for row, t in zip(diffs[1:], dr.predicate_tests, strict=True):
        assert float(row["q"]) == pytest.approx(t.q_value, rel=1e-2)
        assert float(row["run 1 win (%)"]) == pytest.approx(100 * t.a.rate.win, abs=0.05)
    conn.close()


def test_a_table_3_cell_writes_both_intervals_alike(stored_db: Path) -> None:
    """Trial 2: "KG-wide win 58.1% [52.2–63.9] …; examined 49.4% [43.8%–54.9%] …"."""
    conn = connect(stored_db)
    grid = grid_of_runs(load_runs(conn, [1]))
    (cell,) = grid.cells.values()
    text = grid_cell_text(cell, "win", cell.chance.win_rate)
    conn.close()
    examined = cell.rates.get("win")
    assert "KG-wide win " in text
    assert f"examined {rate_ci(*examined.bounds)} n={examined.n:,}" in text
    assert not re.search(r"%–", text), text
