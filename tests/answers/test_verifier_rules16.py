"""Rules 16 of the Wh verifier: Georgian and Armenian words read in anyascii's Latin letters as
Greek and Cyrillic ones are, without the apostrophes of ejectives; a flag emoji is its country's
ISO code; digits right before a kana, Han or Hangul letter are a number of their own. Examples
written for these tests (not taken from the labelled sets); most get another verdict under
rules 15, the others guard the edges of a rule."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable, tokenize
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names

LEADERS = NameTable([("Irakli Kobakhidze", 1), ("Irakli Garibashvili", 2), ("Nikol Pashinyan", 3)])


@pytest.mark.parametrize(
    ("true", "reply", "verdict"),
    [
        ("Irakli Kobakhidze", "ირაკლი კობახიძე.", Verdict.CORRECT),  # Georgian
        ("Irakli Kobakhidze", "ირაკლი ღარიბაშვილი.", Verdict.INCORRECT),  # the other Irakli
        ("Nikol Pashinyan", "Նիկոլ Փաշինյան", Verdict.CORRECT),  # Armenian
    ],
)
def test_georgian_and_armenian_names_are_read_in_latin_letters(
    true: str, reply: str, verdict: Verdict
) -> None:
    got = check_wh(reply, [[true]], LEADERS, [], question="Who is the head of government?")
    assert got.verdict is verdict


COUNTRIES = {"country:MEX": "Mexico", "country:CHN": "China", "country:PER": "Peru"}
SILVER = "Which countries are the three largest producers of Silver?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("🇲🇽 🇨🇳 🇵🇪", Verdict.CORRECT),
        ("🇲🇽🇨🇳🇵🇪", Verdict.CORRECT),  # no spaces between the flags
        ("🇧🇷", Verdict.INCORRECT),  # Brazil is none of them
    ],
)
def test_a_flag_is_its_country(reply: str, verdict: Verdict) -> None:
    names = tuple(answer_names(key, label) for key, label in COUNTRIES.items())
    true = [[label] for label in COUNTRIES.values()]
    got = check_wh(reply, true, None, [], question=SILVER, answer_only=names)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("text", "first"), [("1945年", "1945"), ("一九四五年", "1945"), ("110番", "110")]
)
def test_digits_before_a_cjk_letter_are_a_number_of_their_own(text: str, first: str) -> None:
    assert tokenize(spell_out(text))[0].raw == first


def test_a_year_in_chinese_digits_names_the_year() -> None:
    got = check_wh("一九四五年", [["1945"]], None, [], question="In what year did it happen?")
    assert got.verdict is Verdict.CORRECT
