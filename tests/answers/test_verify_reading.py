"""Replies read as a careful person reads them (issue #34): answer-only names from CLDR and
pycountry, corrections, echoes of the question, partial person names, numbers read whole,
refusals in other words, and the uncertain flag where the rules cannot decide."""

from __future__ import annotations

import pytest

from kglens_tui.answers.matcher import UNCERTAIN, WH_MATCHER, given_by_matcher, matcher_label
from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.refusals import declines
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names, person_short_names

C, W, R = Verdict.CORRECT, Verdict.INCORRECT, Verdict.REFUSED


def test_answer_only_names_come_from_the_sources() -> None:
    vienna = answer_names("city:vienna-aut", "Vienna").names
    assert {"Wien", "Vienne", "Viena"} <= set(vienna)
    assert "Kiev" in answer_names("city:kyiv-ukr", "Kyiv").names  # a former tz name
    assert "Canberra" not in answer_names("city:sydney-aus", "Sydney").names  # another city's
    assert "Zaire" in answer_names("country:COD", "DR Congo").names  # ISO 3166-3 ZRCD
    euro = answer_names("currency:EUR", "Euro").names
    assert {"€", "euros"} <= {n if n == "€" else n.lower() for n in euro}
    assert "$" in answer_names("currency:USD", "US Dollar").names  # its sign in English
    assert "$" not in answer_names("currency:AUD", "Australian Dollar").names
    assert "kronor" in answer_names("currency:SEK", "Swedish Krona").names
    assert {"CET", "Central European Time"} <= set(answer_names("timezone:UTC+01:00", "").names)
    assert answer_names("mountain:denali", "Denali") == answer_names("x:y", "z")  # no source


def test_person_short_names() -> None:
    assert {"Macron", "President Macron"} <= set(person_short_names("Emmanuel Macron"))
    assert "King Salman" in person_short_names("Salman bin Abd al-Aziz Al Saud")
    assert "Willem-Alexander" in person_short_names("King Willem-Alexander")
    assert "Emmanuel" not in person_short_names("Emmanuel Macron")  # a first name alone
    assert "III" not in person_short_names("Charles III")


def _check(reply: str, answers: list[list[str]], key: str, label: str, **kw) -> Verdict:
    only = (answer_names(key, label),)
    return check_wh(reply, answers, answer_only=only, **kw).verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Wien.", C),
        ("Vienne, en Autriche.", C),
        ("Salzburg.", W),
        ("Wien? Sorry, I mean Salzburg.", W),
        ("Salzburg... actually, Vienna.", C),
        ("It is often thought to be Salzburg, but it is Wien.", C),
    ],
)
def test_names_in_other_languages_and_corrections(reply: str, verdict: Verdict) -> None:
    assert _check(reply, [["Vienna"]], "city:vienna-aut", "Vienna") is verdict


def test_the_questions_own_words_are_no_answer() -> None:
    question = "What is the capital of Djibouti?"
    subject = ("Djibouti", "Republic of Djibouti")
    answers = [["Djibouti"]]

    def verdict(reply: str) -> tuple[Verdict, bool]:
        got = check_wh(reply, answers, subject=subject, question=question)
        return got.verdict, got.uncertain

    assert verdict("The capital of Djibouti.") == (W, False)
    assert verdict("What is the capital of Djibouti?") == (W, False)
    assert verdict("Djibouti's capital.") == (W, False)
    # named like the subject: the rules' best reading, uncertain
    assert verdict("Djibouti.") == (C, True)
    assert verdict("The capital of Djibouti is Djibouti.") == (C, True)


def test_partial_person_names_count_only_standing_alone() -> None:
    answers = [["Emmanuel Macron"]]
    people = NameTable([("Emmanuel Macron", 0), ("Marine Le Pen", 1)])

    def verdict(reply: str) -> Verdict:
        only = (answer_names("person:emmanuel-macron", "Emmanuel Macron"),)
        return check_wh(reply, answers, people, answer_only=only).verdict

    assert verdict("Macron.") is C
    assert verdict("President Macron.") is C
    assert verdict("Brigitte Macron.") is W
    assert verdict("Macron? Sorry, I mean Marine Le Pen.") is W


@pytest.mark.parametrize(
    ("reply", "answers", "verdict"),
    [
        ("+1-268", [["+1", "001"]], C),
        ("+1-268", [["+268", "00268"]], W),
        ("+44 (0)20", [["+44", "0044"]], C),
        ("9-1-1", [["911"]], C),
        ("UTC+5.5", [["UTC+05:30"]], C),
        ("UTC+5.5", [["UTC+05:00"]], W),
        ("St. John's.", [["Saint John's"]], C),
        ("Washington D.C.", [["Washington, D.C."]], C),
        ("Złoty.", [["Polish Zloty", "Zloty"]], C),
    ],
)
def test_numbers_and_punctuation_are_read_whole(
    reply: str, answers: list[list[str]], verdict: Verdict
) -> None:
    assert check_wh(reply, answers).verdict is verdict


def test_refusals_in_other_words_and_candidates() -> None:
    assert declines("That information is not available to me.")
    assert not declines("It is made of elements that are not known to exist in nature.")
    assert check_wh("That information is not available to me.", [["Canberra"]]).verdict is R
    assert check_wh("Sydney, though I am not sure.", [["Canberra"]]).verdict is W
    assert check_wh("It could be Canberra or Sydney.", [["Canberra"]]).verdict is W
    assert check_wh("It borders Niger and Chad.", [["Niger"]]).verdict is C


def test_a_rival_in_a_sentence_of_its_own_leaves_the_verdict_uncertain() -> None:
    cities = NameTable([("Canberra", 0), ("Wellington", 1)])
    got = check_wh("Canberra. Wellington is in New Zealand.", [["Canberra"]], cities)
    assert (got.verdict, got.uncertain) == (C, True)
    assert matcher_label(got) == f"{WH_MATCHER} ({UNCERTAIN})"
    assert given_by_matcher(matcher_label(got))
    plain = check_wh("Canberra, near Wellington.", [["Canberra"]], cities)
    assert (plain.verdict, plain.uncertain) == (C, False)
    both = check_wh("Canberra and Wellington.", [["Canberra"]], cities)
    assert both.verdict is W


def test_names_listed_after_one_in_passing_are_in_passing_too() -> None:
    """A reply that opens with another name gives no answer by naming the true ones only in
    passing, in a list after a preposition (SmolLM2's "Belébé ... a blend of English and
    Spanish" to Belize's official languages)."""
    languages = NameTable([("English", 0), ("Spanish", 1), ("Belizean Creole", 2)])
    truth = [["Belizean Creole"], ["English"], ["Spanish"]]
    reply = (
        "Belébé, also known as the official language of Belize, is a blend of English and Spanish."
    )
    assert check_wh(reply, truth, languages).verdict is W
    assert check_wh("Sydney, near Canberra and Melbourne.", [["Canberra"]]).verdict is W
    assert check_wh("English and Spanish.", truth, languages).verdict is C
    assert check_wh("Belize: English, near Spanish speakers.", truth, languages).verdict is C


def test_fact_eval_short_answers_take_the_answer_only_names() -> None:
    from kglens_tui.modes.facteval.engine import score
    from kglens_tui.modes.store import QuestionRow
    from kglens_tui.runs.units import Reply

    q = QuestionRow(
        1, 0, None, 1, 1, "saq", "wh", "", "What is the capital of Austria?", "template", (),
        (("Vienna",),), (), {},
    )  # fmt: skip
    vienna = (answer_names("city:vienna-aut", "Vienna"),)
    assert score(q, Reply(text="Wien"), answer_only=vienna) == ("correct", 1)
    assert score(q, Reply(text="Wien")) == ("incorrect", 0)
    assert score(q, Reply(text="Salzburg"), answer_only=vienna) == ("incorrect", 0)


def test_a_code_in_brackets_after_another_currencys_name_is_that_currencys() -> None:
    """SmolLM2's "Saudi Arabian pound (SAR)" gives SAR as the code of a pound, not of the
    riyal; after the true currency's name, its unit word or a word that is no currency's, the
    code names the true currency."""
    riyal = [["Saudi Riyal", "SAR"]]
    reply = (
        "The Saudi Arabian dollar (SDA) is a currency that is based on the Saudi Arabian pound "
        "(SAR)."
    )
    assert check_wh(reply, riyal).verdict is W
    for right in ("SAR.", "The Saudi riyal (SAR).", "The Saudi currency (SAR).", "Riyals (SAR)."):
        assert check_wh(right, riyal).verdict is C, right
    assert check_wh("The Swiss franc (EUR).", [["Euro", "EUR"]]).verdict is W
    assert check_wh("The euro (EUR), not the franc.", [["Euro", "EUR"]]).verdict is C
