"""Counts said to a person (trial 2): thousands separators ("1116 examined", "725/1116") and
one of a thing in the singular ("1 KG errors"), in the review's headline and the triage note."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.analysis.report import prop_text
from kglens_tui.cli.main import main
from kglens_tui.core.intervals import wilson


def test_a_rate_s_counts_have_thousands_separators() -> None:
    assert prop_text(wilson(725, 1116)).endswith(" 725/1,116")


def test_the_review_headline_separates_thousands_and_says_one_in_the_singular(
    stored_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.analysis import blindspots

    counts = {"ranked": 1116, "zero_sense": 1, "flips": 2, "confirmed": 0, "kg_errors": 1}
    monkeypatch.setattr(blindspots, "review_counts", lambda *_a, **_k: counts)
    assert main(["--db", str(stored_db), "review", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "1,116 examined, 1 zero-sense, 2 flips, 0 confirmed, 1 KG error" in out
    assert "1 KG errors" not in out
