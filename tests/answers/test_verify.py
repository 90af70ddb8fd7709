"""Reply classification: yes/no first word, wh alias matching, refusals, judge replies."""

from __future__ import annotations

import pytest

from kglens_tui.answers.refusals import is_refusal
from kglens_tui.answers.verify import (
    check_yes_no,
    first_word_answer,
    parse_judge_reply,
    self_contradiction,
    verify_wh,
    verify_yes_no,
)
from kglens_tui.answers.words import normalize
from kglens_tui.core.verdict import Verdict

YES_REPLIES = [
    "Yes.",
    "yes",
    "Yes, Vienna is the capital of Austria.",
    "YES!",
    "  \n\nYes. Belgium is located in Europe.",
    "**Yes**, it is.",
    "**Yes.** Paris is the capital of France.",
    '"Yes."',
    "'Yes'",
    "“Yes”, because ...",
    "Answer: Yes",
    "Answer: **yes**",
    "A: Yes.",
    "Assistant: Yes, that's right.",
    "> Yes",
    "# Yes",
    "- Yes, it is included.",
    "Yes—the Euro is used there.",
    "yes,the euro",
    "The answer is yes.",
    "Correct. It is located there.",
    "True.",
]

NO_REPLIES = [
    "No.",
    "no",
    "No, Andrzej Duda is the president of Poland, not Belgium.",
    "NO.",
    "\n  No, the Australian dollar (AUD) is the official currency of Nauru.",
    "**No**",
    "**No.** The capital is Canberra.",
    '"No," said the model.',
    "Answer: No",
    "Final answer: no.",
    "No—it is not.",
    "Nope.",
    "False.",
    "The answer is no, it is not.",
    "No, in Tonga, people drive on the left side of the road.",
    "No, the right is the driving side in Tonga.",
]

REFUSALS = [
    "I'm sorry, but I couldn't find any information about Gamla Uppsala.",
    "I am sorry, but I couldn't find any information on that person.",
    "I’m sorry, but as an AI assistant, I do not have the capability to provide real-time "
    "information.",
    "As an AI language model, I cannot browse the internet.",
    "I don't know.",
    "I do not know the answer to that question.",
    "I cannot answer that question.",
    "I can't verify that.",
    "I'm not sure about that.",
    "I am unable to provide that information.",
    "Sorry, I have no information about this.",
    "There is no information available about that.",
    "I apologize, but I don't have enough information to answer.",
    "Unfortunately, I'm unable to determine this.",
    "No information is available about that.",
    "No reliable information about Gamla Uppsala exists.",
]

UNPARSEABLE = [
    "",
    "   ",
    "\n\n",
    "Vienna is the capital of Austria.",
    "Maybe.",
    "It depends on the season.",
    "Not really sure what you mean, could you rephrase?",
    "Yesterday it rained.",
    "Nobody knows for certain what happened.",
    "Nonetheless, the answer varies.",
    "...",
    "42",
]


@pytest.mark.parametrize("reply", YES_REPLIES)
def test_yes_replies(reply: str) -> None:
    assert first_word_answer(reply) == "yes"
    assert verify_yes_no(reply, "yes") is Verdict.CORRECT
    assert verify_yes_no(reply, "no") is Verdict.INCORRECT


@pytest.mark.parametrize("reply", NO_REPLIES)
def test_no_replies(reply: str) -> None:
    assert first_word_answer(reply) == "no"
    assert verify_yes_no(reply, "no") is Verdict.CORRECT
    assert verify_yes_no(reply, "YES") is Verdict.INCORRECT


@pytest.mark.parametrize("reply", REFUSALS)
def test_refusals(reply: str) -> None:
    assert is_refusal(reply)
    assert first_word_answer(reply) is None
    assert verify_yes_no(reply, "yes") is Verdict.REFUSED
    assert verify_wh(reply, [["Gamla Uppsala"]]) is Verdict.REFUSED


@pytest.mark.parametrize("reply", UNPARSEABLE)
def test_unparseable_yes_no(reply: str) -> None:
    assert first_word_answer(reply) is None
    assert verify_yes_no(reply, "no") is Verdict.UNPARSEABLE


@pytest.mark.parametrize(
    "reply",
    ["Yes.", "No, it is not.", "Vienna is the capital of Austria.", "Paris.", "Left side."],
)
def test_plain_answers_are_not_refusals(reply: str) -> None:
    assert not is_refusal(reply)


def test_bad_expected_value() -> None:
    with pytest.raises(ValueError):
        verify_yes_no("Yes.", "maybe")


def test_paper_table5_examples() -> None:
    # Factual error: wh question answered with the wrong side.
    side = [["left", "left side", "left-hand side", "left-hand traffic"]]
    assert (
        verify_wh("Railway traffic in Israel runs on the right-hand side.", side)
        is Verdict.INCORRECT
    )
    assert verify_wh("Railway traffic in Israel runs on the left-hand side.", side) is (
        Verdict.CORRECT
    )
    # Obsolete knowledge.
    king = [["Charles III of the United Kingdom", "Charles III", "King Charles III"]]
    assert (
        verify_wh("The current head of state in England is Queen Elizabeth II.", king)
        is Verdict.INCORRECT
    )
    assert verify_wh("King Charles III.", king) is Verdict.CORRECT
    # Self-contradiction: first word decides.
    nauru = "No, the Australian dollar (AUD) is the official currency of Nauru, a small island."
    assert verify_yes_no(nauru, "yes") is Verdict.INCORRECT
    assert self_contradiction(nauru, "yes", "Australian dollar")
    assert not self_contradiction(nauru, "no", "Australian dollar")
    # Inconsistent response: each reply judged by its own first word.
    assert (
        verify_yes_no("No, in Tonga, people drive on the left side of the road.", "no")
        is Verdict.CORRECT
    )
    tonga_wrong = "No, the right is the driving side in Tonga."
    assert verify_yes_no(tonga_wrong, "yes") is Verdict.INCORRECT
    assert not self_contradiction(tonga_wrong, "yes", "left")


def test_paper_a6_judge_examples() -> None:
    script = [["latin script", "latn", "roman script", "latin alphabet"]]
    assert verify_wh("the ixcatec language uses the latin alphabet for writing.", script) is (
        Verdict.CORRECT
    )
    assert verify_wh("Gamla Uppsala.", [["Gamla Uppsala"]]) is Verdict.CORRECT
    assert verify_wh("Shaodian", [["Shaodian"]]) is Verdict.CORRECT


def test_word_boundaries() -> None:
    assert verify_wh("Nigeria.", [["Niger"]]) is Verdict.INCORRECT
    assert verify_wh("It borders Niger and Chad.", [["Niger"]]) is Verdict.CORRECT
    assert verify_wh("Niger", [["Nigeria"]]) is Verdict.INCORRECT
    assert verify_wh("Austria", [["Australia"]]) is Verdict.INCORRECT
    assert verify_wh("Iraq", [["Iran"]]) is Verdict.INCORRECT
    assert verify_wh("Dominican Republic", [["Dominica"]]) is Verdict.INCORRECT
    assert verify_wh("Guinea-Bissau", [["Guinea"]]) is Verdict.CORRECT  # shares a whole word
    assert verify_wh("It was founded in 1991.", [["1990"]]) is Verdict.INCORRECT
    assert verify_wh("It was founded in 1990.", [["1990"]]) is Verdict.CORRECT


def test_accents_case_punctuation() -> None:
    assert verify_wh("The capital is BOGOTA.", [["Bogotá"]]) is Verdict.CORRECT
    assert verify_wh("São Paulo", [["Sao Paulo"]]) is Verdict.CORRECT
    assert verify_wh("cote d'ivoire", [["Côte d’Ivoire", "Ivory Coast"]]) is Verdict.CORRECT
    assert verify_wh("Zürich!", [["Zurich"]]) is Verdict.CORRECT
    assert verify_wh("**Reykjavík**", [["Reykjavik"]]) is Verdict.CORRECT
    assert verify_wh("The United States of America", [["USA", "United States"]]) is (
        Verdict.CORRECT
    )
    assert normalize("  Côte  d’Ivoire!! ") == "cote divoire"
    assert normalize("Nukuʻalofa") == normalize("Nuku'alofa") == "nukualofa"
    assert verify_wh("Nuku'alofa", [["Nukuʻalofa"]]) is Verdict.CORRECT


def test_aliases_and_multiple_objects() -> None:
    currencies = [["euro", "EUR", "€"], ["Swiss franc", "CHF"]]
    assert verify_wh("They use the EUR.", currencies) is Verdict.CORRECT
    assert verify_wh("The Swiss Franc (CHF).", currencies) is Verdict.CORRECT
    assert verify_wh("The US dollar.", currencies) is Verdict.INCORRECT
    langs = [["German", "Deutsch"], ["French"], ["Italian"], ["Romansh"]]
    assert verify_wh("German, French and Italian.", langs) is Verdict.CORRECT


def test_fuzzy_spelling() -> None:
    assert verify_wh("Kathmandoo", [["Kathmandu"]]) is Verdict.INCORRECT  # ratio < 0.9
    assert verify_wh("The capital is Ouagadougouu.", [["Ouagadougou"]]) is Verdict.CORRECT
    assert verify_wh("Kuala Lumpar", [["Kuala Lumpur"]]) is Verdict.CORRECT
    assert verify_wh("Ouagadogou", [["Ouagadougou"]]) is Verdict.CORRECT
    assert verify_wh("They pay in euros.", [["euro"]]) is Verdict.CORRECT
    assert verify_wh("Sweden", [["Swedish"]]) is Verdict.INCORRECT
    assert verify_wh("Mali", [["Malia"]]) is Verdict.INCORRECT
    # the subject's name and the next word are no misspelling of the demonym made from it
    tajik = [["Tajik", "Tajikistani"]]
    assert verify_wh('People from Tajikistan are "Shaodian".', tajik) is Verdict.INCORRECT
    assert verify_wh("Tajikistan is Shaodian in Persian.", tajik) is Verdict.INCORRECT
    assert verify_wh("They are called Tajikistanis.", tajik) is Verdict.CORRECT


def test_wh_empty_and_refusal_priority() -> None:
    assert verify_wh("", [["Paris"]]) is Verdict.UNPARSEABLE
    assert verify_wh("  ", [["Paris"]]) is Verdict.UNPARSEABLE
    assert verify_wh("I don't know.", [["Paris"]]) is Verdict.REFUSED
    assert verify_wh("Lyon.", [["Paris"]]) is Verdict.INCORRECT
    assert verify_wh("Paris.", []) is Verdict.INCORRECT


def test_judge_replies() -> None:
    assert parse_judge_reply("yes") is Verdict.CORRECT
    assert parse_judge_reply("Yes.") is Verdict.CORRECT
    assert parse_judge_reply("**No**") is Verdict.INCORRECT
    assert parse_judge_reply("no, the response says right-hand side") is Verdict.INCORRECT
    assert parse_judge_reply("The response is incorrect.") is Verdict.INCORRECT
    assert parse_judge_reply("The response is correct.") is Verdict.CORRECT
    assert parse_judge_reply("") is Verdict.UNPARSEABLE
    assert parse_judge_reply("Hmm.") is Verdict.UNPARSEABLE


def test_verdict_values() -> None:
    assert [v.value for v in Verdict] == [
        "correct",
        "incorrect",
        "refused",
        "unparseable",
        "error",
    ]
    assert Verdict.REFUSED.is_failure and not Verdict.CORRECT.is_failure
    assert not Verdict.ERROR.is_failure
    assert Verdict("refused") is Verdict.REFUSED


def test_a_yes_no_reply_read_again_is_read_the_same_and_a_bad_expected_still_raises() -> None:
    first = check_yes_no("I think yes, it is.", "no")
    assert first == (Verdict.INCORRECT, True, False)
    assert check_yes_no("I think yes, it is.", "no") is first  # kept, not read again
    assert check_yes_no("I think yes, it is.", "yes").verdict is Verdict.CORRECT
    for _ in range(2):
        with pytest.raises(ValueError):
            check_yes_no("Yes.", "maybe")
