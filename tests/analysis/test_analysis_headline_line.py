"""The analysis screen's headline line: the KG-wide win rate with n, and the two-ask zero-sense
and all-sense with their chance and n after it where the line has room, else on lines of their
own."""

from __future__ import annotations

import re

from kglens_tui.analysis.kgwide import KGWide
from kglens_tui.modes.kglens.estimates import DesignRate
from kglens_tui.modes.kglens.sense_rates import ALL_SENSE, ZERO_SENSE
from kglens_tui.tui.screens.analysis import kg_wide_overall

WIN = KGWide(DesignRate(error=0.25, se=0.02, answers=1920, edges=5038, method="design"), 0.5)
SENSES = {
    ZERO_SENSE: KGWide(
        DesignRate(error=0.105, se=0.0156, answers=1920, edges=5038, method="design pairs"), 0.25
    ),
    ALL_SENSE: KGWide(
        DesignRate(error=0.624, se=0.0237, answers=1920, edges=5038, method="design pairs"), 0.25
    ),
}


def _plain(markup: str) -> str:
    return re.sub(r"\[/?b\]", "", markup)


def test_the_two_ask_rates_follow_with_chance_and_n_where_the_line_has_room() -> None:
    wide = _plain(kg_wide_overall(WIN, 200, SENSES))
    assert wide.startswith("KG-wide win 75.0% ")
    assert " · 2 asks: zero-sense 10.5% [" in wide and "] chance 25.0% · all-sense 62.4% [" in wide
    assert wide.endswith(" · n=1,920") and len(wide) <= 200
    # a line too narrow for them gives them a line of their own
    first, second = _plain(kg_wide_overall(WIN, 120, SENSES)).split("\n")
    assert "2 asks" not in first
    assert second.startswith("KG-wide at 2 asks: zero-sense 10.5% [") and second.endswith("n=1,920")
    # at 80 columns (trial 2, B: neither rate showed there), a line each, none longer than 78
    narrow = _plain(kg_wide_overall(WIN, 78, SENSES)).split("\n")
    assert narrow[0].startswith("KG-wide win 75.0% ") and "2 asks" not in narrow[0]
    assert narrow[1].startswith("KG-wide zero-sense (2 asks) 10.5% [")
    assert narrow[1].endswith("] chance 25.0%")
    assert narrow[2].startswith("KG-wide all-sense (2 asks) 62.4% [")
    assert narrow[2].endswith("] chance 25.0% · n=1,920")
    assert len(narrow) == 3 and all(len(line) <= 78 for line in narrow)
    pending = _plain(kg_wide_overall(WIN, 78, {ZERO_SENSE: None, ALL_SENSE: None}))
    assert pending.split("\n")[1:] == ["KG-wide at 2 asks — (too few edges asked twice yet)"]
    # not settled yet: said so, not left out; a run without two-ask rates says nothing of them
    pending = _plain(kg_wide_overall(WIN, 200, {ZERO_SENSE: None, ALL_SENSE: None}))
    alone = _plain(kg_wide_overall(WIN, 200))
    assert pending == alone + " · 2 asks — (too few edges asked twice yet)"
    assert "2 asks" not in alone


def test_a_capped_two_ask_rate_keeps_its_mark_and_note_at_80_columns() -> None:
    """Trial 2 (run 4 at 80x24): zero-sense 0.0%† and its note were on no line of the screen."""
    from kglens_tui.modes.kglens.rate_text import CAPPED_NOTE

    capped = {
        **SENSES,
        ZERO_SENSE: KGWide(
            DesignRate(error=-0.01, se=0.005, answers=320, edges=198, method="design pairs"), 0.5
        ),
    }
    lines = _plain(kg_wide_overall(WIN, 78, capped)).split("\n")
    assert lines[1].startswith("KG-wide zero-sense (2 asks) 0.0% [") and "]†" in lines[1]
    assert lines[-1] == CAPPED_NOTE and all(len(line) <= 78 for line in lines)
