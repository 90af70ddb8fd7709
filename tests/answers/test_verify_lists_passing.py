"""Lists and names in passing read as a person reads them (issue #34): an item no table knows,
listed beside a true answer, is another candidate; two numbers joined by "or" are two
candidates; "either X or Y" is doubt; a direction word before a name after a preposition keeps
it in passing; later sentences tell more about the answer the first one gives."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable, has_hedge
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict

C, W = Verdict.CORRECT, Verdict.INCORRECT

CITIES = NameTable(
    (n, i) for i, n in enumerate(["Sucre", "La Paz", "Pretoria", "Cape Town", "Bloemfontein"])
)
LANGUAGES = NameTable((n, i) for i, n in enumerate(["Portuguese", "Spanish", "English"]))
PLACES = NameTable((n, i) for i, n in enumerate(["Arizona", "United States", "Maricopa County"]))


@pytest.mark.parametrize(
    ("reply", "want"),
    [
        ("Bolivia has two capitals: Sucre and Cochabamba.", W),  # an item no table knows
        ("Bolivia has two capitals: Cochabamba and Sucre.", W),
        ("The capital is Sucre and Cochabamba is the largest city.", C),  # a clause of its own
        ("The capital is Sucre and the seat of government is elsewhere.", C),
        ("The capital is Sucre and not Cochabamba.", C),
    ],
)
def test_an_unknown_item_listed_beside_the_one_answer(reply: str, want: Verdict) -> None:
    question = "What is the capital of Bolivia?"
    assert check_wh(reply, [["Sucre"]], CITIES, ["Bolivia"], question=question).verdict == want


def test_an_unknown_item_counts_only_where_the_question_asks_for_one() -> None:
    reply = "It borders Niger and Chad."
    for question, want in (
        ("Which countries share a border with Libya?", C),  # the KG may know only one
        ("Which country is the neighbour of Libya?", W),
        ("", C),
    ):
        assert check_wh(reply, [["Niger"]], question=question).verdict == want


def test_an_unknown_item_beside_several_answers_is_wrong_but_uncertain() -> None:
    answers = [["Pretoria"], ["Cape Town"], ["Bloemfontein"]]
    got = check_wh("South Africa's capitals are Pretoria and Johannesburg.", answers, CITIES)
    assert got.verdict == W and got.uncertain
    got = check_wh("The capitals are Pretoria, Cape Town and Bloemfontein.", answers, CITIES)
    assert got.verdict == C and not got.uncertain


@pytest.mark.parametrize(
    ("reply", "want"),
    [
        ("Helium was discovered in 1868 or 1895.", W),
        ("Helium was discovered in 1895 or 1868.", W),
        ("Helium was discovered in 1895, or so the books say.", C),
        ("Helium was discovered in 1895.", C),
    ],
)
def test_two_numbers_joined_by_or_are_two_candidates(reply: str, want: Verdict) -> None:
    assert check_wh(reply, [["1895"]]).verdict == want


def test_either_or_is_doubt_unless_it_depends() -> None:
    assert has_hedge("It's either Dodoma or Dar es Salaam.")
    assert not has_hedge("It lies in either Europe or Asia, depending on the definition.")
    assert not has_hedge("Either way, it is Dodoma.")


def test_a_direction_word_keeps_a_name_in_passing() -> None:
    reply = "Maricopa County is in Arizona, in the southwestern United States."
    got = check_wh(reply, [["Arizona"]], PLACES, ["Maricopa County"])
    assert got.verdict == C
    reply = "Maricopa County is in Arizona, and the United States."
    assert check_wh(reply, [["Arizona"]], PLACES, ["Maricopa County"]).verdict == W


def test_later_sentences_tell_more_about_the_answer() -> None:
    reply = (
        "Brazil's official language is Portuguese. It is the only Portuguese-speaking country"
        " in the Americas, and English is widely taught."
    )
    got = check_wh(reply, [["Portuguese"]], LANGUAGES, ["Brazil"])
    assert got.verdict == C and got.uncertain
    reply = "Brazil's official languages are Portuguese and English."
    assert check_wh(reply, [["Portuguese"]], LANGUAGES, ["Brazil"]).verdict == W


PEOPLE = NameTable(
    (n, i)
    for i, n in enumerate(
        ["Catherine Connolly", "Micheál Martin", "Benyamin Netanyahu", "Isaac Herzog"]
    )
)


@pytest.mark.parametrize(
    ("question", "reply", "answer", "want"),
    [
        (
            "Who is the head of state of Ireland?",
            "Ireland's head of state is the Taoiseach, Micheál Martin. President Catherine"
            " Connolly has a mainly ceremonial role.",
            "Catherine Connolly",
            W,  # the sentence that says what the head of state is names Martin
        ),
        (
            "Who is the head of government of Israel?",
            "Israel's head of government is Prime Minister Benjamin Netanyahu. The largely"
            " ceremonial head of state is President Isaac Herzog.",
            "Benyamin Netanyahu",
            C,  # Herzog is given as something else; Benjamin is Benyamin spelled otherwise
        ),
    ],
)
def test_the_sentence_that_defines_the_answer(
    question: str, reply: str, answer: str, want: Verdict
) -> None:
    from kglens_tui.kg.answer_names import AnswerNames, person_short_names

    short = AnswerNames((), person_short_names(answer))
    got = check_wh(reply, [[answer]], PEOPLE, [question.split()[-1].rstrip("?")],
                   question=question, answer_only=[short])  # fmt: skip
    assert got.verdict == want


@pytest.mark.parametrize(
    ("reply", "want"),
    [
        ("Douala is the capital of Cameroon. Several ministries are based in Yaoundé.", W),
        ("Yaoundé is the capital of Cameroon. Douala is its main port.", C),
        ("Yaoundé. Douala is the capital of the DR Congo's rival.", C),  # not Cameroon's
        ("Douala is the largest city. The capital of Cameroon is Yaoundé.", C),
    ],
)
def test_an_unknown_name_defined_as_the_answer(reply: str, want: Verdict) -> None:
    question = "What is the capital of Cameroon?"
    got = check_wh(reply, [["Yaoundé"]], None, ["Cameroon"], question=question)
    assert got.verdict == want
