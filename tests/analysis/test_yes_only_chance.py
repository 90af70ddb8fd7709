"""Where the KG has no false object to ask about, every Yes/No question expects Yes, and blind
guessing says Yes: chance there is a constant Yes's, never a coin's (a mono-object predicate
scored against a coin overstated any model that leans to Yes)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.analysis.groups import chance_of
from kglens_tui.analysis.kgwide import kg_wide
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.answers.bias import BLIND_GUESS, baseline_from_counts
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.chance import guess_failure, yes_only_note
from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.modes.kglens.rate_text import BEATS_RATE, IN_INTERVAL, chance_text
from kglens_tui.store.connection import connect


def test_a_yes_only_edge_is_always_right_for_the_guess() -> None:
    yes_no = np.array([3, 1, 1])
    wh = np.array([0, 0, 1])
    only = np.array([True, False, True])
    base = baseline_from_counts(yes_no, wh, np.zeros(3, dtype=bool), only)
    # edge 0: three sure right asks; edge 1: one coin; edge 2: one sure right, one sure wrong
    assert base.per_question == pytest.approx((3 + 0.5 + 1 + 0) / 6)
    assert base.win_rate == pytest.approx((1 + 0.5 + 0) / 3)
    assert base.zero_sense == pytest.approx((0 + 0.5 + 0) / 3)
    assert base.all_sense == pytest.approx((1 + 0.5 + 0) / 3)
    coin = baseline_from_counts(yes_no, wh, np.zeros(3, dtype=bool))
    assert coin == baseline_from_counts(yes_no, wh, np.zeros(3, dtype=bool), ~np.ones(3, bool))
    assert coin.per_question == pytest.approx((1.5 + 0.5 + 0.5 + 0) / 6)
    assert coin.win_rate == pytest.approx((0.5 + 0.5 + 0) / 3)


def _mono_kg(folder: Path) -> Path:
    """100 members of one organisation (no false object) and 100 capitals (many)."""
    rows = ["subject,predicate,object"]
    rows += [f"S{i},member of,UN" for i in range(100)]
    rows += [f"S{i},capital,C{i}" for i in range(100)]
    path = folder / "mono.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_mono_object_predicate_has_a_constant_yes_as_chance(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "kg", "import", str(_mono_kg(tmp_path)), "--name", "mono"]) == 0
    probe = ["--db", db, "probe", "--no-tui", "--kg", "mono", "--target", "sim", "--quiet"]
    assert main([*probe, "--difficulty", "easy", "--iterations", "3"]) == 0
    data = load_run_data(connect(Path(db)), 1)
    member = np.array([data.kg.pred_keys[int(p)] == "member of" for p in data.kg.p[data.kg_pos]])
    fail = guess_failure(data.kg, data.kg_pos, data.run.config)
    assert fail[member].tolist() == [0.0] * 100 and fail[~member].tolist() == [0.5] * 100
    wide = kg_wide(data)
    assert wide is not None and wide.chance_error == pytest.approx(0.25)
    assert chance_of(data, np.flatnonzero(member)).per_question == pytest.approx(1.0)
    assert chance_of(data, np.flatnonzero(~member)).per_question == pytest.approx(0.5)
    capsys.readouterr()
    assert main(["--db", db, "report", "1"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("│ member of"))
    assert "100.0%" in row
    flat = " ".join(out.split())
    assert " ".join(BLIND_GUESS.split()[:6]) in flat
    assert (
        "100 of the run's 200 edges have no false object to ask about (member of 100): every "
        "Yes/No question about them expects Yes" in flat
    )
    assert yes_only_note(data.kg, data.kg_pos[~member], data.run.config) == ""
    table = flat[flat.index("KG-wide win rate per predicate") :]
    row = table[table.index("│ member of") :][:160]
    assert "100.0% · a blind guess" in row and "beats the rate" in row
    wh = replace(data.run.config, difficulty="wh")
    assert yes_only_note(data.kg, data.kg_pos, wh) == ""


def test_chance_says_when_it_beats_the_rate_or_falls_in_its_interval() -> None:
    rate = DesignRate(error=0.5, se=0.05, answers=100, edges=100, method="design")  # win 40-60%
    assert chance_text(0.75, rate) == f"75.0% · {BEATS_RATE}"
    assert chance_text(0.5, rate) == f"50.0% · {IN_INTERVAL}"
    assert chance_text(0.25, rate) == "25.0%"
    assert chance_text(None, rate) == "—"
