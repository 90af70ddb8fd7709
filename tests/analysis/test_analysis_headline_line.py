"""The analysis screen's headline line: the KG-wide win rate with n, and the two-ask zero-sense
and all-sense with their chance and n where the line has room."""

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
    narrow = _plain(kg_wide_overall(WIN, 78, SENSES))
    assert "2 asks" not in narrow and narrow.startswith("KG-wide win 75.0% ")
    # a tall screen gives them a line of their own
    first, second = _plain(kg_wide_overall(WIN, 120, SENSES, own_line=True)).split("\n")
    assert "2 asks" not in first
    assert second.startswith("KG-wide at 2 asks: zero-sense 10.5% [") and second.endswith("n=1,920")
    # not settled yet: said so, not left out; a run without two-ask rates says nothing of them
    pending = _plain(kg_wide_overall(WIN, 200, {ZERO_SENSE: None, ALL_SENSE: None}))
    alone = _plain(kg_wide_overall(WIN, 200))
    assert pending == alone + " · 2 asks — (too few edges asked twice yet)"
    assert "2 asks" not in alone
