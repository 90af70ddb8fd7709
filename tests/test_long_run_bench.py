"""The long-run row of `kglens bench engine`: it measures both marks and prints their ratio (a
smoke test: no timing limit, the figures are the benchmark's to judge)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from kglens_tui.bench.engine_bench import KG_NAME, build_kg
from kglens_tui.bench.long_run import MIN_LATE, long_run_table, measure_long_run


def test_engine_bench_long_run_row_prints_both_marks_and_their_ratio(tmp_path: Path) -> None:
    result = measure_long_run(build_kg(tmp_path, 500), KG_NAME, late=MIN_LATE, batch_size=16)
    assert (result.early_iteration, result.late_iteration) == (10, MIN_LATE)
    assert result.early_ms > 0 and result.late_ms > 0
    assert result.ratio == pytest.approx(result.late_ms / result.early_ms)
    console = Console(file=io.StringIO(), width=200)
    console.print(long_run_table(result))
    flat = " ".join(console.file.getvalue().split())
    assert f"at iteration {MIN_LATE}" in flat and "at iteration 10" in flat
    assert f"{result.ratio:.2f}x" in flat
    with pytest.raises(ValueError, match="at least"):
        measure_long_run(tmp_path / "unused.db", KG_NAME, late=MIN_LATE - 1)
