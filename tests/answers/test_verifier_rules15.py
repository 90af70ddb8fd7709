"""Rules 15 of the Wh verifier: "sorry" in more languages beside "I do not know"; Afrikaans and
another Welsh form of it; "nope" and "no" in German and the Nordic languages take the candidate
before them back; "[Revised]" and Russian "то есть" are words of taking back, where an answer
follows; a name denied after a retracting word offers nothing ("nope, not Sydney"); a relative
clause that says who the opening name is names it. Examples written for these tests (not taken
from the labelled sets); most get another verdict under rules 14, the others guard the edges of
a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names


@pytest.mark.parametrize(
    "reply",
    [
        "Prepáčte, ale neviem.",  # Slovak
        "Ek weet nie, jammer.",  # Afrikaans
        "Uxolo, angazi.",  # Zulu
        "Mae'n ddrwg gen i, dw i ddim yn gwybod.",  # Welsh
        "Barkatu, baina ez dakit.",  # Basque
        "Anteeksi, en tiedä.",  # Finnish
        "Het spijt me, ik weet het niet.",  # Dutch
        "എനിക്കറിയില്ല, ക്ഷമിക്കണം.",  # Malayalam, the pronoun joined to the verb
    ],
)
def test_sorry_and_not_knowing_in_more_languages_is_a_refusal(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.REFUSED


def test_a_known_name_beside_sorry_and_not_knowing_is_an_answer() -> None:
    assert capital_verdict("Anteeksi, en tiedä — Sydney?") is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney. Nope — Canberra.", Verdict.CORRECT),
        ("Canberra, anzi no, Melbourne.", Verdict.INCORRECT),
        ("Sydney — nein, Canberra.", Verdict.CORRECT),
        ("Canberra. Nope, that's right.", Verdict.CORRECT),  # nothing offered after it
        ("Sydney. [Revised] Canberra.", Verdict.CORRECT),
    ],
)
def test_more_ways_of_taking_an_answer_back(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Canberra — more precisely, the Australian Capital Territory.",  # narrows, not back
        "Canberra. To be precise, the ACT.",
        "Canberra. Nope, not Sydney.",  # the name after it is denied
        "Canberra. Nope, Sydney isn't the capital.",
        "Canberra. Nein, nicht Sydney!",
        "Canberra. Not that one — Sydney is larger though.",  # no answer offered after it
        "Canberra, née Yass-Canberra.",  # "née" is no Dutch "nee"
        "Canberra. Nope. Not Sydney.",
        "Canberra. Nope — Sydney is just the biggest city.",  # told of, not offered
        "Canberra. Doh, everyone knows that — Sydney is just bigger.",
        "Canberra. If you meant the largest city, I should say Sydney.",  # a side question
    ],
)
def test_words_that_narrow_or_deny_take_nothing_back(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.CORRECT


def test_a_relative_clause_that_says_who_the_opening_name_is_names_the_answer() -> None:
    names = (answer_names("person:benjamin-netanyahu", "Benjamin Netanyahu"),)
    got = check_wh(
        "Bibi, whose full name is Benjamin Netanyahu.",
        [["Benjamin Netanyahu"]],
        NameTable([("Benjamin Netanyahu", 1), ("Yair Lapid", 2)]),
        ["Israel"],
        question="Who is the head of government of Israel?",
        answer_only=names,
    )
    assert got.verdict is Verdict.CORRECT
