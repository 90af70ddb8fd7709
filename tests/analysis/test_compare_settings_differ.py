"""A difference between runs that differ in difficulty, selection, verifier, generator or prompt
order says on its own line that it is not the model's alone (trial 2, F: `compare 6 12`, HARD
against EASY, printed "significant at 5%" with the difficulty named only in the Drift line)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui.analysis.compare import drift, load_runs
from kglens_tui.analysis.compare_text import drift_test_lines
from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.table_files import plain_table
from kglens_tui.cli.compare_tables import difference_table
from kglens_tui.store.connection import connect

CAVEAT = "so the difference is not the model's alone"


@pytest.fixture
def runs(stored_db: Path) -> Iterator[tuple[RunData, RunData]]:
    """The two stored simulated HARD runs of one KG selection and settings (a private copy)."""
    conn = connect(stored_db)
    a, b = load_runs(conn, [1, 2])
    yield a, b
    conn.close()


def _with(data: RunData, **settings: object) -> RunData:
    """The run with other settings (a copy; the stored run is not touched)."""
    out = copy.copy(data)
    out.run = copy.copy(data.run)
    out.run.config = copy.copy(data.run.config)
    for name, value in settings.items():
        setattr(out.run.config, name, value)
    return out


def test_runs_alike_carry_no_caveat(runs: tuple[RunData, RunData]) -> None:
    a, b = runs
    lines = drift_test_lines(drift(a, b), 1, 2)
    assert lines[0].startswith("KG-wide win rate, run 1 → run 2: difference "), lines[0]
    assert not any(CAVEAT in line for line in lines)


def test_each_test_line_names_the_settings_that_differ(runs: tuple[RunData, RunData]) -> None:
    a, b = runs
    easy = _with(b, difficulty="easy", verifier="openai:judge")
    lines = drift_test_lines(drift(a, easy), 1, 2)
    first = lines[0]
    assert first.startswith(
        "KG-wide win rate, run 1 → run 2 (runs differ in difficulty HARD → EASY; verifier "
        f"alias → openai:judge, {CAVEAT}): difference "
    ), first
    assert "p = " in first
    predicates = next(line for line in lines if line.startswith("Predicates: "))
    assert "false discovery rate 5%; runs differ in difficulty HARD → EASY" in predicates
    assert CAVEAT in predicates
    edges = next(line for line in lines if line.startswith("Edges: "))
    assert CAVEAT in edges


def test_a_subset_or_prompt_order_also_differs(runs: tuple[RunData, RunData]) -> None:
    a, b = runs
    moved = drift(a, _with(b, subset=None, prompt_order="reversed"))
    assert moved.differs == ["selection country/paper16 → country", "prompt order paper → reversed"]
    assert not moved.is_drift


def test_the_differences_table_names_what_differs(runs: tuple[RunData, RunData]) -> None:
    a, b = runs
    table = difference_table(drift(a, _with(b, difficulty="easy")), 1, 2)
    assert table is not None
    plain = plain_table(table)
    assert plain.headers[-1] == "runs differ in"
    assert {row[-1] for row in plain.rows} == {"difficulty HARD → EASY"}
    assert f"The runs differ in difficulty HARD → EASY, {CAVEAT}." in plain.caption


def test_cli_and_compare_screen_say_so_for_a_real_easy_run(
    stored_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An EASY run probed beside the stored HARD ones: `kglens compare` and the compare screen's
    diff carry the caveat on the difference's own line (as `compare 6 12` did not)."""
    from kglens_tui.cli.main import main
    from kglens_tui.tui.screens.compare import read_compare

    probe = ["--db", str(stored_db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "16", "--iterations", "3", "--difficulty", "easy"]) == 0
    capsys.readouterr()
    assert main(["--db", str(stored_db), "compare", "1", "3"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("KG-wide win rate, run 1 → run 3"))
    assert f"(runs differ in difficulty HARD → EASY, {CAVEAT})" in line and "p = " in line
    conn = connect(stored_db)
    try:
        read = read_compare(conn, 1, 3, adjusted=True, with_grid=False, warnings={})
    finally:
        conn.close()
    first = read.status.splitlines()[0]
    assert first.startswith("KG-wide win rate, run 1 → run 3 (runs differ in difficulty")
    assert CAVEAT in first


def test_a_difference_that_rounds_to_zero_has_no_sign(runs: tuple[RunData, RunData]) -> None:
    """Trial 2: two identical runs compared as "difference -0.0 points", read as a fall: a
    difference that rounds to zero is "0.0", in the line and in the differences table."""
    from kglens_tui.textfmt import signed

    a, _ = runs
    same = drift(a, a)
    assert ": difference 0.0 points [" in drift_test_lines(same, 1, 1)[0]
    table = difference_table(same, 1, 1)
    assert table is not None
    assert plain_table(table).rows[0][5] == "0.0"
    assert [signed(v) for v in (-0.04, 0.04, -0.05001, 5.14, 0.0, -0.0)] == [
        "0.0",
        "0.0",
        "-0.1",
        "+5.1",
        "0.0",
        "0.0",
    ]


def test_runs_of_two_samplers_are_no_drift_and_share_a_kg_wide_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same target under top-k and under brute force: the rates over the examined edges
    differ by where each sampler looked, so the change is no drift and names the samplers,
    while the KG-wide difference carries no such caveat (one estimand whatever the sampler);
    Table 3's cell shows one of them and says the other's sampler differs (a trial's finding:
    it said the two had the same settings)."""
    from kglens_tui.cli.main import main

    db = str(tmp_path / "w.db")
    probe = ["--db", db, "probe", "--no-tui", "--quiet", "--subset", "paper16", "--target", "sim"]
    assert main([*probe, "--iterations", "3", "--no-convergence-stop"]) == 0
    assert main([*probe, "--iterations", "3", "--sampler", "brute-force"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "compare", "1", "2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Drift not measured (sampler top-k → brute-force)" in out
    assert "(same model, same kind of questions)" not in out
    line = out[out.index("KG-wide win rate, run 1 → run 2") :][:200]
    assert "runs differ in" not in line
    hidden = [n for n in ("Run 1 is not in the table", "Run 2 is not in the table") if n in out]
    assert len(hidden) == 1
    assert "its sampler is" in out and "one estimand whatever the sampler" in out
