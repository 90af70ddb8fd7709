"""Rules 12 of the Wh verifier: saying "I do not know" in more languages (with the pronoun that
goes with it), the English and other names of subdivisions that the ``iso3166-2`` package ships,
a reply naming nothing the verifier knows, only a name or only another script, marked
uncertain, a listed item that is a near spelling of a true name, "three-quarter hours", "Reverend" as a
title, one letter changed in a long name, and "the Xs" for "X Islands". Examples written for these tests (not taken from the labelled sets); each gets
another verdict (or flag) under rules 11."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names, subdivision_names

LEADERS = NameTable([("Anthony Albanese", 1), ("Peter Dutton", 2), ("Scott Morrison", 3)])
HEAD_OF_GOVERNMENT = "Who is the head of government of Australia?"
CAPITALS = NameTable([("Canberra", 1), ("Wellington", 2), ("Ottawa", 3)])
CAPITAL = "What is the capital of Australia?"


@pytest.mark.parametrize(
    "reply",
    [
        "Nem tudom.",  # Hungarian
        "En tiedä.",  # Finnish
        "Non saprei dirlo.",  # Italian
        "Das weiß ich nicht.",  # German, the object first
        "Dat weet ik niet.",  # Dutch
        "Ben bilmiyorum.",  # Turkish, with the pronoun
        "Ja nie wiem.",  # Polish, with the pronoun
        "Tôi không biết.",  # Vietnamese
        "Aku tidak tahu.",  # Indonesian
        "Sijui.",  # Swahili
        "Не можу сказати.",  # Ukrainian: I cannot say
        "Δεν γνωρίζω.",  # Greek
        "لا أدري.",  # Arabic
        "אין לי מושג.",  # Hebrew: I have no idea
        "मुझे नहीं मालूम।",  # Hindi
        "ไม่ทราบครับ",  # Thai
    ],
)
def test_not_knowing_in_other_languages_is_a_refusal(reply: str) -> None:
    got = check_wh(
        reply, [["Anthony Albanese"]], LEADERS, ["Australia"], question=HEAD_OF_GOVERNMENT
    )
    assert got.verdict is Verdict.REFUSED


def test_a_candidate_beside_not_knowing_is_still_an_answer() -> None:
    got = check_wh(
        "Tôi không biết, Peter Dutton?",
        [["Anthony Albanese"]],
        LEADERS,
        ["Australia"],
        question=HEAD_OF_GOVERNMENT,
    )
    assert got.verdict is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("code", "label", "english"),
    [
        ("DE-NI", "Niedersachsen", "Lower Saxony"),
        ("DE-NW", "Nordrhein-Westfalen", "North Rhine-Westphalia"),
        ("ES-IB", "Illes Balears", "Balearic Islands"),
    ],
)
def test_a_subdivision_takes_its_english_name(code: str, label: str, english: str) -> None:
    assert english in subdivision_names()[code]
    names = (answer_names(f"subdivision:{code}", label),)
    question = "Where is Hanover located?"
    reply = f"It is in {english}."
    assert check_wh(reply, [[label]], None, question=question).verdict is Verdict.INCORRECT
    got = check_wh(reply, [[label]], None, question=question, answer_only=names)
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize("reply", ["Lutetia Parisiorum.", "Жидкость.", "ウェリントン"])
def test_a_reply_naming_nothing_known_is_uncertain(reply: str) -> None:
    """Only a name, or only another script, and neither a true name nor a rival: the rules
    cannot tell a wrong answer from a name of the answer no source has."""
    got = check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL)
    assert got.verdict is Verdict.INCORRECT and got.uncertain


@pytest.mark.parametrize("reply", ["Wellington.", "It is a large city on the coast.", "Australia."])
def test_a_rival_or_a_sentence_is_decided(reply: str) -> None:
    got = check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL)
    assert got.verdict is Verdict.INCORRECT and not got.uncertain


DISCOVERERS = NameTable([("Marie Curie", 1), ("Pierre Curie", 2), ("Henri Becquerel", 3)])


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Marie Curie and Pierre Currie.", Verdict.CORRECT),  # a near spelling, listed
        ("Marie Curie and Paul Langevin.", Verdict.INCORRECT),  # an unknown item
    ],
)
def test_a_listed_item_that_is_a_near_spelling_of_a_true_name_is_that_answer(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(
        reply,
        [["Marie Curie"], ["Pierre Curie"]],
        DISCOVERERS,
        ["Radium"],
        question="Who discovered Radium?",
    )
    assert got.verdict is verdict


def test_three_quarter_hours_after_utc_is_45_minutes() -> None:
    question = "Which standard time zones does Nepal use?"
    got = check_wh(
        "UTC plus five and three-quarter hours.",
        [["UTC+05:45"]],
        None,
        ["Nepal"],
        question=question,
    )
    assert got.verdict is Verdict.CORRECT


def test_reverend_before_a_surname_names_the_person() -> None:
    names = (answer_names("person:joseph-black", "Joseph Black"),)
    got = check_wh(
        "Reverend Black.",
        [["Joseph Black"]],
        None,
        ["Magnesium"],
        question="Who discovered Magnesium?",
        answer_only=names,
    )
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"), [("Canbarra.", Verdict.CORRECT), ("Canbxrrz.", Verdict.INCORRECT)]
)
def test_one_letter_changed_in_a_long_name_is_a_near_spelling(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL)
    assert got.verdict is verdict


def test_islands_go_by_the_plural_of_their_word() -> None:
    names = (answer_names("territory:faroe-islands", "Faroe Islands"),)
    assert "the Faroes" in names[0].names
    question = "Which territory of Denmark lies between Iceland and Norway?"
    got = check_wh("The Faroes.", [["Faroe Islands"]], None, question=question, answer_only=names)
    assert got.verdict is Verdict.CORRECT
