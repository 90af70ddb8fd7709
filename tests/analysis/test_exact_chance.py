"""Blind guessing's KG-wide rates are exact over the run's edges (`probe.chance`): the same for
every run on one selection and difficulty whatever its sampler asked, and coherent (two asks both
right never more often than one), and a two-ask rate is shown only once it is settled."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import copy_db

from kglens_tui.analysis.kgwide import kg_wide, kg_wide_sense
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.chance import chance_rates, guess_failure
from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.modes.kglens.sense_rates import ALL_SENSE, ZERO_SENSE, settled
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.store.connection import connect


def _probe(db: Path, *options: str) -> None:
    args = ["--db", str(db), "probe", "--no-tui", "--kg", "country", "--subset", "paper16"]
    assert main([*args, "--quiet", "--no-convergence-stop", *options]) == 0


def test_chance_rates_of_known_failure_chances() -> None:
    rates = chance_rates(np.array([0.5, 0.5, 0.0, 1.0]))
    assert rates is not None
    assert rates.error == pytest.approx(0.5) and rates.win == pytest.approx(0.5)
    assert rates.zero_sense == pytest.approx((0.25 + 0.25 + 0 + 1) / 4)
    assert rates.all_sense == pytest.approx((0.25 + 0.25 + 1 + 0) / 4)
    assert chance_rates(np.empty(0)) is None


@pytest.mark.parametrize("difficulty", ["wh", "hard", "easy"])
def test_two_runs_on_one_selection_show_one_chance(tmp_path: Path, difficulty: str) -> None:
    """Two targets and two samplers asked different edges; chance is the same for both, and is
    the mean of each edge's guess failure chance (`guess_failure`)."""
    db = tmp_path / "w.db"
    _probe(db, "--target", "sim", "--difficulty", difficulty, "--iterations", "6")
    _probe(
        db,
        "--target",
        "sim:1",
        "--difficulty",
        difficulty,
        "--iterations",
        "9",
        "--sampler",
        "thompson",
    )
    conn = connect(db)
    first, second = load_run_data(conn, 1), load_run_data(conn, 2)
    a, b = kg_wide(first), kg_wide(second)
    assert a is not None and b is not None
    assert a.chance_error == b.chance_error
    fail = guess_failure(first.kg, first.kg_pos, first.run.config)
    assert a.chance_error == pytest.approx(float(fail[first.included()].mean()))
    if difficulty == "easy":
        assert a.chance_error == 0.5
    for run, data in ((1, first), (2, second)):
        live = open_snapshot(conn, run)
        assert live.kg_wide_chance == pytest.approx(kg_wide(data, adjusted=False).chance_error)
    conn.close()


def test_open_questions_chance_is_one_answer_for_both_asks(tmp_path: Path) -> None:
    """A constant Wh answer gets the same verdict on both asks: on a WH run blind guessing's
    all-sense rate is its win rate and its zero-sense rate its error rate."""
    db = tmp_path / "w.db"
    _probe(db, "--target", "sim", "--difficulty", "wh", "--iterations", "12")
    conn = connect(db)
    data = load_run_data(conn, 1)
    one = kg_wide(data)
    zero, every = kg_wide_sense(data, ZERO_SENSE), kg_wide_sense(data, ALL_SENSE)
    assert one is not None and zero is not None and every is not None
    assert zero.chance_error == pytest.approx(one.chance_error)
    assert every.chance_error == pytest.approx(one.chance_win)
    conn.close()


@pytest.fixture(scope="module")
def three_hard_iterations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A HARD run of three iterations on the whole country KG: made once a module, never
    written (each test reads its own copy)."""
    db = tmp_path_factory.mktemp("three") / "w.db"
    args = ["--db", str(db), "probe", "--no-tui", "--kg", "country", "--target", "sim:2"]
    assert main([*args, "--difficulty", "hard", "--iterations", "3", "--quiet"]) == 0
    return db


def test_a_two_ask_rate_is_shown_once_settled(three_hard_iterations: Path, tmp_path: Path) -> None:
    """Three iterations give a few pairs of draws: their unbiased estimate could fall anywhere
    in [0, 1] (zero-sense 72% beside an error rate of 33%), so report shows none yet."""
    assert settled(DesignRate(0.716, 0.4, 192, 5_038, "design pairs")) is None
    shown = DesignRate(0.1, 0.05, 900, 5_038, "design pairs")
    assert settled(shown) is shown
    assert settled(DesignRate(0.0, 0.02, 900, 5_038, "design pairs")) is not None  # none seen
    conn = connect(copy_db(three_hard_iterations, tmp_path / "w.db"))
    data = load_run_data(conn, 1)
    assert kg_wide(data) is not None
    assert kg_wide_sense(data, ZERO_SENSE) is None and kg_wide_sense(data, ALL_SENSE) is None
    assert all(v is None for v in open_snapshot(conn, 1).kg_wide_senses.values())
    conn.close()


def test_report_says_the_two_ask_rates_are_not_settled(
    three_hard_iterations: Path, tmp_path: Path, capsys
) -> None:
    db = copy_db(three_hard_iterations, tmp_path / "w.db")
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("— (too few edges") == 2  # zero-sense and all-sense
    # the headline table (the predicates' below: one with two answers is [0.0–100.0] honestly)
    assert "[0.0–100.0]" not in out.partition("KG-wide win rate per")[0]
