"""Rules 19: ordinary replies that rules 18 judged wrongly (found by a review that ran 1,157
ordinary replies through the verifier before and after rules 17 and 18). A right answer followed
by "no, I don't know" about something else is no refusal; a heading before the answer is no
name the reply states; "or rather" in another language narrows an answer unless a known name
follows. Replies written for these tests."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Canberra. No, I don't know its population offhand, though.",
        "Canberra. No, I can't tell you more than that.",
        "Canberra. No, I don't know when exactly it was founded.",
        "Canberra. No, I'm not sure of the exact year it became the capital.",
        "Canberra. Nope, I can't recall the population.",
        "Canberra — no, I don't know why people think it's Sydney.",
        "It's Canberra. No, I don't know the exact founding date.",
        "Canberra.\n\nNo, I can't browse the web, but this hasn't changed in a century.",
        "Canberra. No, I cannot verify live data, but that's stable.",
        "Canberra. No, I can't imagine it moving.",
        "Canberra. Nej, jag vet inte hur många som bor där.",
        "La capital es Canberra. No, no sé cuántos habitantes tiene.",
    ],
)
def test_a_right_answer_then_no_about_something_else_stays_correct(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.CORRECT


@pytest.mark.parametrize(
    "reply",
    [
        "Luang Prabang — no, that's the old royal capital. I honestly don't know the current one.",
        "Sydney. No, I don't know the answer.",
        "Sydney — no. No idea.",
    ],
)
def test_a_candidate_taken_back_before_not_knowing_the_answer_is_refused(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.REFUSED


@pytest.mark.parametrize(
    "reply",
    [
        "Quick Answer — Canberra was founded in 1913.",
        "**Quick Answer:** Canberra was purpose-built.",
        "Short Answer — Canberra was purpose-built.",
        "TL;DR: Canberra was chosen in 1908.",
        "TL;DR: Canberra.",
        "Summary: Canberra was chosen in 1908.",
        "Fun Fact: Canberra was designed by Americans.",
        "Capital City: Canberra was purpose-built.",
        "ACT — Canberra sits there.",
        "Australian Capital Territory — Canberra sits there.",
    ],
)
def test_a_heading_or_the_answers_place_before_it_is_no_rival(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney; Melbourne is the second city.", Verdict.INCORRECT),
        ("Sydney, Canberra is just the seat of parliament.", Verdict.INCORRECT),
        ("Fun fact — Sydney is bigger than Canberra.", Verdict.INCORRECT),
    ],
)
def test_a_name_before_a_clause_still_answers(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


def test_a_place_before_a_dash_that_the_clause_points_back_at_gives_the_answer() -> None:
    heads = NameTable([("Keir Starmer", 1), ("Rishi Sunak", 2)])
    question = "Who is the head of government of the United Kingdom?"
    for reply, verdict in (
        ("Downing Street — Keir Starmer lives there.", Verdict.CORRECT),
        ("Rishi Sunak — Keir Starmer took over from him.", Verdict.INCORRECT),
    ):
        got = check_wh(reply, [["Keir Starmer"]], heads, ["United Kingdom"], question=question)
        assert got.verdict is verdict, reply


GERMANY = NameTable([("Germany", 1), ("Niemcy", 1), ("Deutschland", 1), ("Austria", 2)])
BAYERN = "Where is Bayern located?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Niemcy, a właściwie Republika Federalna Niemiec.", Verdict.CORRECT),
        ("Deutschland, oder besser gesagt Süddeutschland.", Verdict.CORRECT),
        ("Austria, a właściwie Niemcy.", Verdict.CORRECT),
        ("Niemcy, a właściwie Austria.", Verdict.INCORRECT),
    ],
)
def test_or_rather_in_another_language_takes_back_only_for_a_known_name(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(
        reply, [["Germany", "Niemcy", "Deutschland"]], GERMANY, ["Bayern"], question=BAYERN
    )
    assert got.verdict is verdict
