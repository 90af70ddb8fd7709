"""Rules 11 of the Wh verifier: digits of any script, a one-letter name in an unspaced script,
"actually it was", an opening "Sorry", rivals in a relative clause or after another role, a true
answer made less of after another opening name, the subject's name as no near spelling, ISO
3166-1 codes. Examples written for these tests (not taken from the labelled sets)."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names, currency_names

LEADERS = NameTable(
    [
        ("Anthony Albanese", 1),
        ("Peter Dutton", 2),
        ("Scott Morrison", 3),
        ("Sam Mostyn", 4),
        ("Charles III", 5),
    ]
)
HEAD_OF_GOVERNMENT = "Who is the head of government of Australia?"
PHASES = NameTable([("solid", 1), ("liquid", 2), ("gas", 3)])
CAPITALS = NameTable([("Canberra", 1), ("Wellington", 2), ("Ottawa", 3)])
CAPITAL = "What is the capital of Australia?"


def _leader(reply: str) -> Verdict:
    got = check_wh(
        reply, [["Anthony Albanese"]], LEADERS, ["Australia"], question=HEAD_OF_GOVERNMENT
    )
    return got.verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [("١٨٤٧", Verdict.CORRECT), ("१८४७ में।", Verdict.CORRECT), ("١٨٤٨", Verdict.INCORRECT)],
)
def test_digits_of_any_script_are_read_as_their_value(reply: str, verdict: Verdict) -> None:
    question = "In what year did Liberia gain independence?"
    assert check_wh(reply, [["1847"]], None, ["Liberia"], question=question).verdict is verdict


def test_a_one_letter_name_of_an_unspaced_script_names_what_no_other_name_has() -> None:
    assert "円" in currency_names()["JPY"]
    assert not [n for n in currency_names().get("CNY", ()) if len(n) == 1 and n.isalpha()]
    yen = (answer_names("currency:JPY", "Japanese Yen"),)
    question = "What currency is used in Japan?"
    got = check_wh("日本の通貨は円だ。", [["Japanese Yen"]], None, ["Japan"], question=question)
    assert got.verdict is Verdict.INCORRECT  # without the answer-only names
    got = check_wh(
        "日本の通貨は円だ。",
        [["Japanese Yen"]],
        None,
        ["Japan"],
        question=question,
        answer_only=yen,
    )
    assert got.verdict is Verdict.CORRECT
    renminbi = (answer_names("currency:CNY", "Chinese Yuan"),)
    got = check_wh(
        "美元",
        [["Chinese Yuan"]],
        None,
        ["China"],
        question="What currency is used in China?",
        answer_only=renminbi,
    )
    assert got.verdict is Verdict.INCORRECT  # the US dollar's "元" names no yuan


def test_actually_it_was_takes_back_what_came_before() -> None:
    question = "Who discovered Boron?"
    got = check_wh(
        "Humphry Davy... actually it was Joseph Gay-Lussac.",
        [["Humphry Davy"]],
        NameTable([("Humphry Davy", 1), ("Jöns Jacob Berzelius", 2)]),
        ["Boron"],
        question=question,
    )
    assert got.verdict is Verdict.INCORRECT


def test_an_opening_sorry_is_no_name_the_answer_is_given_beside() -> None:
    got = check_wh(
        "Sorry, I can't be certain, though I'd lean towards Sweden.",
        [["Sweden"]],
        NameTable([("Sweden", 1), ("Norway", 2), ("Finland", 3)]),
        ["Yttrium"],
        question="Where was Yttrium discovered?",
    )
    assert (got.verdict, got.hedged) == (Verdict.CORRECT, True)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Anthony Albanese, who beat Peter Dutton in 2025.", Verdict.CORRECT),
        ("Anthony Albanese; the Governor-General is Sam Mostyn.", Verdict.CORRECT),
        ("Anthony Albanese; the head of government is Peter Dutton.", Verdict.INCORRECT),
        ("Anthony Albanese; the head of state is King Charles III.", Verdict.CORRECT),
        ("Anthony Albanese; the real one is Peter Dutton.", Verdict.INCORRECT),
        ("Anthony Albanese and Peter Dutton.", Verdict.INCORRECT),
    ],
)
def test_a_rival_told_about_in_a_relative_clause_or_as_another_role_is_no_answer(
    reply: str, verdict: Verdict
) -> None:
    assert _leader(reply) is verdict


def test_a_relative_clause_about_a_thing_tells_about_it() -> None:
    got = check_wh(
        "Solid, unlike steam, which is a gas.",
        [["solid"]],
        PHASES,
        ["Iron"],
        question="What is the state of matter of Iron at standard temperature and pressure?",
    )
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Melbourne; Canberra only hosts the parliament.", Verdict.INCORRECT),
        ("Melbourne — Canberra is just where parliament sits.", Verdict.INCORRECT),
        ("Melbourne; Canberra is the capital.", Verdict.CORRECT),
        ("Melbourne... no, Canberra only since 1927.", Verdict.CORRECT),
        ("Canberra; Melbourne was only the seat until 1927.", Verdict.CORRECT),
    ],
)
def test_a_true_answer_made_less_of_after_another_opening_name_is_no_answer(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("They are the people of the Falkland Islands.", Verdict.INCORRECT),
        ("Falkland Islanders.", Verdict.CORRECT),
    ],
)
def test_the_subjects_own_name_is_no_near_spelling_of_the_answer(
    reply: str, verdict: Verdict
) -> None:
    question = "What is the demonym for people from Falkland Islands?"
    got = check_wh(reply, [["Falkland Islander"]], None, ["Falkland Islands"], question=question)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("NOR", Verdict.CORRECT),
        ("NO, SE, FI", Verdict.INCORRECT),
        ("In NO.", Verdict.CORRECT),
        ("It was found in NO Europe.", Verdict.INCORRECT),
        ("nor", Verdict.INCORRECT),
    ],
)
def test_a_countrys_iso_codes_name_it_where_they_stand_alone(reply: str, verdict: Verdict) -> None:
    names = answer_names("location:Norway", "Norway", ("Norway",))
    assert names.short == ("NO", "NOR")
    got = check_wh(
        reply,
        [["Norway"]],
        NameTable([("Norway", 1), ("Sweden", 2), ("Finland", 3)]),
        ["Thorium"],
        question="Where was Thorium discovered?",
        answer_only=(names,),
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("King Harold.", Verdict.CORRECT),
        ("King Harald.", Verdict.CORRECT),
        ("King Olav.", Verdict.INCORRECT),
    ],
)
def test_a_title_and_a_near_spelling_of_a_name_name_the_person(
    reply: str, verdict: Verdict
) -> None:
    harald = (answer_names("person:Harald V", "Harald V", ("Harald V",)),)
    got = check_wh(
        reply,
        [["Harald V"]],
        NameTable([("Harald V", 1), ("Olav V", 2), ("Jonas Gahr Støre", 3)]),
        ["Norway"],
        question="Who is the head of state of Norway?",
        answer_only=harald,
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Monaco is a microstate on the Riviera.", Verdict.INCORRECT),
        ("Monaco lies on the Riviera.", Verdict.INCORRECT),
        ("Monaco is its own capital.", Verdict.CORRECT),
        ("Monaco.", Verdict.CORRECT),
    ],
)
def test_a_clause_about_the_subject_by_the_name_it_shares_gives_no_answer(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(
        reply,
        [["Monaco"]],
        NameTable([("Monaco", 1), ("Vaduz", 2), ("Andorra la Vella", 3)]),
        ["Monaco"],
        question="What is the capital of Monaco?",
    )
    assert got.verdict is verdict


def test_a_currencys_unit_word_in_the_languages_of_its_countries_names_it() -> None:
    from kglens_tui.kg.answer_names import local_unit_words

    units = local_unit_words()
    assert "franken" in units["CHF"]  # German "Schweizer Franken", as "Kanadischer Dollar"
    assert not units.get("GEL")  # Georgian puts the unit last: no qualifier is taken
    franc = (answer_names("currency:CHF", "Swiss Franc"),)
    question = "What currency is used in Switzerland?"
    for reply, verdict in (("Der Franken.", Verdict.CORRECT), ("Der Euro.", Verdict.INCORRECT)):
        got = check_wh(reply, [["Swiss Franc", "CHF"]], None, ["Switzerland"], question=question)
        assert got.verdict is Verdict.INCORRECT  # without the answer-only names
        got = check_wh(
            reply,
            [["Swiss Franc", "CHF"]],
            None,
            ["Switzerland"],
            question=question,
            answer_only=franc,
        )
        assert got.verdict is verdict
