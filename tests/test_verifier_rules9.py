"""Rules 9 of the Wh verifier: refusals in further words and languages, rivals in passing after
words of adjacency, tz names. Examples written for these tests (not taken from the labelled
sets)."""

from __future__ import annotations

import pytest

from kglens_tui.core.verdict import Verdict
from kglens_tui.probe.mentions import NameTable
from kglens_tui.probe.verify import check_wh

CITIES = NameTable(
    [("Sydney", 1), ("Canberra", 2), ("Melbourne", 3), ("Perth", 4), ("Wellington", 5)]
)
CAPITAL = "What is the capital of Australia?"


def _verdict(reply: str, question: str = CAPITAL) -> Verdict:
    return check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=question).verdict


@pytest.mark.parametrize(
    "reply",
    [
        "That one has me stumped.",
        "Beats me.",
        "I'd rather sit this one out.",
        "It is a matter of some debate, so I'll leave it at that.",
        "Sorry, I can't place that.",
        "I can't help you with that one.",
        "I'd have to consult a map first.",
        "I won't choose between the candidates.",
        "I don't want to risk a wrong reply.",
        "I don't recognise the question's premise.",
        "I have no figures on that.",
        "Any single city would be misleading to name.",
        "Ni idea, perdón.",
        "我不太确定。",
        "知らない。",
        "Keine Ahnung.",
        "I'd probably get it wrong, so I'll refrain.",
        "No idea about Australia; New Zealand's is Wellington, I know that much.",
    ],
)
def test_declining_in_further_words_is_refused(reply: str) -> None:
    assert _verdict(reply) is Verdict.REFUSED


@pytest.mark.parametrize(
    "reply",
    [
        "I can't be sure, but I'd guess Wollongong.",
        "Keine Ahnung, vielleicht Sydney.",
        "Ni idea; Melbourne?",
        "I'd sit this one out, though Perth comes to mind.",
        "I won't risk it: Sydney.",
        "Australia's is Sydney, I can't place it otherwise.",
    ],
)
def test_declining_beside_a_candidate_is_no_refusal(reply: str) -> None:
    assert _verdict(reply) is Verdict.INCORRECT


def test_i_would_guess_hedges() -> None:
    checked = check_wh("I'd guess Canberra.", [["Canberra"]], CITIES, question=CAPITAL)
    assert checked.verdict is Verdict.CORRECT and checked.hedged
