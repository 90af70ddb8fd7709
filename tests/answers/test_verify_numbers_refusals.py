"""Issue #34: numbers in other formats are read as their digits, and a reply that declines in its
own words, with no candidate, is a refusal."""

from __future__ import annotations

import pytest

from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.refusals import declines_by_meaning
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("Nine-one-one.", "911."),
        ("Triple Zero", "000"),
        ("double nine nine", "999"),
        ("Zero zero forty-four", "0044"),
        ("Plus forty-four", "+44"),
        ("one hundred and twelve", "112"),
        ("Seventeen seventy-six", "1776"),
        ("Ten one one one", "10111"),
        ("10\u2009111", "10111"),
        ("+1 (242)", "+1"),
        ("Group IVA", "Group 14"),
        ("group IIIB", "group 3"),
        ("Mn(II) and Fe(III)", "Mn (+2) and Fe (+3)"),
        ("+II", "+2"),
        ("the fourth period", "the period 4"),
        ("Period IV", "Period 4"),
        ("four and a half hours ahead of UTC", "UTC+04:30"),
        ("five hours behind GMT", "UTC-05:00"),
        ("UTC plus five and three quarters", "UTC+05:45"),
    ],
)
def test_numbers_in_other_formats_are_read_as_digits(text: str, digits: str) -> None:
    assert spell_out(text) == digits


@pytest.mark.parametrize(
    "text",
    ["Naming one would mean taking a side.", "Charles III", "I think it is Canberra.", "DC"],
)
def test_words_that_are_no_numbers_stay(text: str) -> None:
    assert spell_out(text) == text


@pytest.mark.parametrize(
    ("reply", "answers", "verdict"),
    [
        ("Nine-one-one.", [["911"], ["112"]], Verdict.CORRECT),
        ("Nine-one-one.", [["999"], ["112"]], Verdict.INCORRECT),
        ("Seventeen seventy-six.", [["1776"]], Verdict.CORRECT),
        ("In seventeen eighty-three.", [["1776"]], Verdict.INCORRECT),
        ("Four and a half hours ahead of UTC.", [["UTC+04:30"]], Verdict.CORRECT),
        ("Four and a half hours ahead of UTC.", [["UTC+03:30"]], Verdict.INCORRECT),
        ("Group IVA.", [["group 14"]], Verdict.CORRECT),
        ("Group IIIA.", [["group 14"]], Verdict.INCORRECT),
        ("The fourth period.", [["period 4"]], Verdict.CORRECT),
        ("+1 (268)", [["+268"]], Verdict.INCORRECT),
    ],
)
def test_number_formats_in_verdicts(reply: str, answers: list[list[str]], verdict: Verdict) -> None:
    assert check_wh(reply, answers).verdict is verdict


@pytest.mark.parametrize(
    "reply",
    [
        "I'll hold off on answering that one.",
        "I'd rather leave that unanswered.",
        "That's outside what I can reliably provide.",
        "No reliable record of that comes to mind.",
        "That's best checked in a specialised reference.",
        "Naming one would mean taking a side.",
        "I'm drawing a blank.",
    ],
)
def test_refusals_without_keywords(reply: str) -> None:
    assert declines_by_meaning(reply)
    assert check_wh(reply, [["Canberra"]]).verdict is Verdict.REFUSED


@pytest.mark.parametrize(
    "reply",
    [
        "I'll hold off, though Sydney comes to mind.",
        "I'm afraid it's Sydney.",
        "No reliable record comes to mind, but probably Melbourne.",
        "It is not Sydney.",
        "It is a city in Australia.",
        "Its capital was chosen as a compromise between two rival cities.",
    ],
)
def test_a_candidate_or_a_statement_is_no_refusal(reply: str) -> None:
    assert check_wh(
        reply, [["Canberra"]], question="What is the capital of Australia?"
    ).verdict is (Verdict.INCORRECT)
