"""The compare screen's texts: drift only for one model asked the same kind of questions, and
an average with its runs, n and chance."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from analysis_support import RUN_A, RUN_B, RUN_C, import_mini, make_run

from kglens_tui.analysis.compare import drift, load_runs, run_grid
from kglens_tui.runs.record import set_status
from kglens_tui.tui.screens.compare import drift_line


def test_drift_line_says_when_a_change_is_not_drift(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    again = make_run(conn, RUN_B, target="model-a")
    hard = make_run(conn, RUN_C, target="model-a", difficulty="hard")
    ra, rb, rc = load_runs(conn, [a, again, hard])
    assert drift_line(drift(ra, rb)).startswith("examined edges: drift B−A (same model")
    line = drift_line(drift(ra, rc))
    assert line.startswith("examined edges: B−A, not drift (difficulty EASY → HARD")
    assert "drift B−A" not in line
    assert "chance win A" in line and "n A 6, B 1" in line


def test_average_text_leaves_out_a_failed_run(conn: sqlite3.Connection, tmp_path: Path) -> None:
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    assert run_grid(conn).average("model-a", "easy").text().startswith("33.3% [")
    assert "1 run, n=6 · chance" in run_grid(conn).average("model-a", "easy").text()
    set_status(conn, a, "failed", error="HTTP 500")
    shown = run_grid(conn).average("model-a", "easy").text()
    assert shown == f"— (no finished run, run {a} failed left out)"
