"""Rules 10 of the Wh verifier: ISO 3166-3 names in other languages, tz database zone names,
ISO 3166-2 codes, a subject's names the question does not show, refusals that speak of the
speaker, retractions after an interjection or to a number. Examples written for these tests
(not taken from the labelled sets)."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.refusals import declines_by_meaning
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import AnswerNames, answer_names, historic_names, offset_names

CITIES = NameTable([("Sydney", 1), ("Canberra", 2), ("Melbourne", 3), ("Perth", 4)])
CAPITAL = "What is the capital of Australia?"


def test_former_countries_take_their_names_in_other_languages() -> None:
    every = {n for names in historic_names() for n in names}
    assert {"Zaïre", "Tchécoslovaquie"} <= every  # French heads of "Zaire, Republic of", ...
    zaire = answer_names("former_name:x", "Republic of Zaire", ("Republic of Zaire",)).names
    assert "Zaïre" in zaire and "Zaire" in zaire


def test_zone_names_of_the_tz_database_name_their_offset() -> None:
    assert "Europe/Paris" in offset_names()["UTC+01:00"]
    assert "Asia/Kolkata" in offset_names()["UTC+05:30"]
    assert "Europe/Paris" not in offset_names()["UTC+02:00"]  # its summer offset
    extra = (answer_names("timezone:UTC+05:30", "UTC+05:30"),)
    question = "Which standard time zones does India use?"
    got = check_wh("Asia/Kolkata", [["UTC+05:30"]], None, ["India"], question=question)
    assert got.verdict is Verdict.INCORRECT  # without the answer-only names
    got = check_wh(
        "Asia/Kolkata", [["UTC+05:30"]], None, ["India"], question=question, answer_only=extra
    )
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [("FR-IDF", Verdict.CORRECT), ("IDF", Verdict.CORRECT), ("NOR", Verdict.INCORRECT)],
)
def test_a_subdivision_is_named_by_its_iso_code(reply: str, verdict: Verdict) -> None:
    names = answer_names("subdivision:FR-IDF", "Île-de-France")
    assert "FR-IDF" in names.names and names.short == ("IDF",)
    regions = NameTable([("Île-de-France", 1), ("Normandie", 2)])
    got = check_wh(
        reply,
        [["Île-de-France"]],
        regions,
        ["Paris"],
        question="Where is Paris located?",
        answer_only=(names,),
    )
    assert got.verdict is verdict


def test_a_name_of_the_subject_the_question_does_not_show_can_answer() -> None:
    former = (AnswerNames(("Ceylon",), ()),)
    subject = ["Sri Lanka", "Ceylon"]
    shown = "What was Sri Lanka formerly called?"
    got = check_wh("Ceylon.", [["Dominion of Ceylon"]], None, subject, question=shown)
    assert got.verdict is Verdict.INCORRECT  # no answer-only name: nothing names the answer
    got = check_wh(
        "Ceylon.", [["Dominion of Ceylon"]], None, subject, question=shown, answer_only=former
    )
    assert got.verdict is Verdict.CORRECT and got.uncertain  # the subject's name too
    echoed = "What was Sri Lanka (also known as Ceylon) formerly called?"
    got = check_wh(
        "Ceylon.", [["Dominion of Ceylon"]], None, subject, question=echoed, answer_only=former
    )
    assert got.verdict is not Verdict.CORRECT  # the question's own words are no answer


@pytest.mark.parametrize(
    "reply",
    ["That's too far outside my reading.", "Way beyond me, that one.", "I never knew."],
)
def test_holding_back_about_the_speaker_declines(reply: str) -> None:
    assert declines_by_meaning(reply)
    assert check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=CAPITAL).verdict is (
        Verdict.REFUSED
    )


@pytest.mark.parametrize("reply", ["It is not on the coast.", "There is no such city."])
def test_holding_back_about_the_world_does_not_decline(reply: str) -> None:
    assert not declines_by_meaning(reply)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra... well no, Perth.", Verdict.INCORRECT),
        ("Perth... um, no, Canberra.", Verdict.CORRECT),
        ("Canberra, actually no, Sydney.", Verdict.INCORRECT),
        ("Canberra... actually no, Albury.", Verdict.INCORRECT),  # no name the KG knows
    ],
)
def test_a_retraction_after_an_interjection(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=CAPITAL)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("1898... no, 1899.", Verdict.INCORRECT),
        ("1899... no, 1898.", Verdict.CORRECT),
        ("1898, no, not 1899.", Verdict.CORRECT),
    ],
)
def test_a_number_retracted_for_another(reply: str, verdict: Verdict) -> None:
    got = check_wh(
        reply, [["1898"]], None, ["Radium"], question="In what year was Radium discovered?"
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Perth at first glance; final answer: Canberra.", Verdict.CORRECT),
        ("Canberra, some would say. Final answer: Sydney.", Verdict.INCORRECT),
        ("Canberra, though Sydney is bigger. Final answer: Albury.", Verdict.INCORRECT),
    ],
)
def test_the_final_answer_is_the_answer(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=CAPITAL)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    "reply",
    ["I'm not certain. Is it Albury?", "No idea... Albury?", "Not sure; 1910-ish?"],
)
def test_a_refusal_that_asks_a_guess_guesses(reply: str) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=CAPITAL)
    assert got.verdict is Verdict.INCORRECT and got.hedged


@pytest.mark.parametrize(
    "reply", ["I don't know. Who would?", "No idea, sorry. Why do you ask?", "¿Cuál? No lo sé."]
)
def test_a_question_without_a_candidate_is_no_guess(reply: str) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=CAPITAL)
    assert got.verdict is Verdict.REFUSED


NEIGHBOURS = NameTable([("Chile", 1), ("Bolivia", 2), ("Peru", 3), ("North East", 4)])
BORDERS = "Which countries border Argentina?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Chile; Peru lies further north.", Verdict.CORRECT),
        ("Chile and Bolivia; Peru and the rest sit beyond them.", Verdict.CORRECT),
        ("Chile, Peru maybe.", Verdict.INCORRECT),
        ("Chile; Peru borders it too.", Verdict.INCORRECT),
    ],
)
def test_a_rival_a_later_clause_tells_about_by_any_verb(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["Chile"], ["Bolivia"]], NEIGHBOURS, ["Argentina"], question=BORDERS)
    assert got.verdict is verdict


def test_two_words_of_direction_before_of_are_no_place() -> None:
    reply = "Bolivia, just north-east of Chile."
    question = "Which countries border Argentina?"
    got = check_wh(reply, [["Bolivia"]], NEIGHBOURS, ["Argentina"], question=question)
    assert got.verdict is Verdict.CORRECT
