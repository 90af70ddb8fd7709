"""Rules 14 of the Wh verifier: "I do not know" in more languages and with a word of regret
beside it; more corrections ("hang on", "edit:", "erratum", "disregard that", "d'oh", "I meant"
in other languages, "not her", struck-out text, "or is it X? X."); a weak correction before "it
was X"; an opening name with particles inside ("Dar es Salaam") and a true answer in a relative
clause after it; another signed number beside signed true ones; digits said one by one with a
zero, and years with "oh". Examples written for these tests (not taken from the labelled sets);
most get another verdict under rules 13, the others guard the edges of a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Nažalost, to ne znam.",  # Croatian, with a word of regret
        "Diemžēl nezinu.",  # Latvian
        "Ma ei tea.",  # Estonian
        "No ho sé.",  # Catalan
        "Ég veit það ekki.",  # Icelandic
        "Nuk e di.",  # Albanian
        "Ez dakit.",  # Basque
        "Dwi ddim yn gwybod.",  # Welsh
        "Bilmirəm.",  # Azerbaijani
        "Angazi.",  # Zulu
        "Jag vet tyvärr inte.",  # Swedish, regret inside
        "Leider weiß ich das nicht.",  # German, the object after the subject
        "எனக்குத் தெரியாது.",  # Tamil
        "არ ვიცი.",  # Georgian
        "አላውቅም።",  # Amharic
        "မသိပါ။",  # Burmese
    ],
)
def test_not_knowing_in_more_languages_is_a_refusal(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.REFUSED


def test_a_candidate_beside_regret_and_not_knowing_is_an_answer() -> None:
    assert capital_verdict("Nažalost, ne znam. Možda Sydney?") is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra — hang on, it's Sydney.", Verdict.INCORRECT),
        ("Canberra. Edit: it is Melbourne.", Verdict.INCORRECT),
        ("Sydney. Erratum: Canberra.", Verdict.CORRECT),
        ("Canberra. Disregard that; Sydney.", Verdict.INCORRECT),
        ("Sydney — d'oh, Canberra.", Verdict.CORRECT),
        ("Canberra — pardon, je voulais dire Sydney.", Verdict.INCORRECT),
        ("Sydney, quise decir Canberra.", Verdict.CORRECT),
        ("Canberra. Erm, not that one — Sydney.", Verdict.INCORRECT),
        ("Canberra, not her sister city Sydney.", Verdict.CORRECT),  # not a retraction
        ("~~Sydney~~ Canberra.", Verdict.CORRECT),
        ("~~Canberra~~ Melbourne.", Verdict.INCORRECT),
        ("Canberra. Hmm, or is it Sydney? Sydney.", Verdict.INCORRECT),
        ("Sydney. On reflection, it was Canberra.", Verdict.CORRECT),
        ("Canberra. On reflection, it was Melbourne.", Verdict.INCORRECT),
    ],
)
def test_more_ways_of_taking_an_answer_back(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Alice Springs — Canberra is only the seat of parliament.",  # capitals inside: no change
        "Port de Sydney — Canberra is only the seat of parliament.",  # "de" inside the name
        "Rio de Janeiro; Canberra is only the seat of parliament.",
        "Alan Smith, who beat Canberra's mayor.",  # a relative clause after the opening name
    ],
)
def test_an_opening_name_then_the_answer_only_told_of_is_another_answer(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.INCORRECT


def test_the_answer_first_then_a_relative_clause_is_still_the_answer() -> None:
    assert capital_verdict("Canberra, which replaced Melbourne as the seat.") is Verdict.CORRECT


OXIDATION = "What are the common oxidation states of Xenon?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("+2, +4, +6, +8.", Verdict.INCORRECT),  # +8 is none of them
        ("+2, +4 and +6.", Verdict.CORRECT),
        ("+2, +4 and +6; atomic number 54.", Verdict.CORRECT),  # unsigned: another kind
    ],
)
def test_another_signed_number_beside_signed_true_ones_is_another_candidate(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(reply, [["+2"], ["+4"], ["+6"]], None, ["Xenon"], question=OXIDATION)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("one zero one one one", "10111"),  # text2num alone drops the zero: 1111
        ("Nine-nine-zero.", "990."),
        ("eighteen-oh-eight", "1808"),
        ("nineteen oh five", "1905"),
        ("Oh, nineteen.", "Oh, 19."),  # "oh" alone is no zero
    ],
)
def test_digits_said_one_by_one_and_years_with_oh(text: str, digits: str) -> None:
    assert spell_out(text) == digits


@pytest.mark.parametrize(
    "reply",
    [
        "Canberra, I should say, is the capital.",
        "Canberra — I stand corrected if wrong.",
        "Canberra; edit: added the date, 1913.",
        "Canberra (hang on, it became the capital in 1913).",
        "Canberra. Forget that Sydney is bigger.",
        "Canberra. Edit: it is close to Sydney.",
    ],
)
def test_words_of_taking_back_correct_nothing_where_no_answer_follows(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.CORRECT


@pytest.mark.parametrize(
    "reply",
    [
        "Canberra. Edit: it moved to Sydney.",
        "Canberra. Edit: the capital is Sydney.",
        "Canberra; let me rephrase: Port de Sydney.",  # a name with a particle inside
        "Canberra — hang on, that was years ago; it's Sydney now.",
    ],
)
def test_words_of_taking_back_before_an_answer_correct_it(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.INCORRECT
