"""Rules 9 of the Wh verifier: refusals in further words and languages, rivals in passing after
words of adjacency, tz names. Examples written for these tests (not taken from the labelled
sets)."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict

CITIES = NameTable(
    [("Sydney", 1), ("Canberra", 2), ("Melbourne", 3), ("Perth", 4), ("Wellington", 5)]
)
CAPITAL = "What is the capital of Australia?"


def _verdict(reply: str, question: str = CAPITAL) -> Verdict:
    return check_wh(reply, [["Canberra"]], CITIES, ["Australia"], question=question).verdict


@pytest.mark.parametrize(
    "reply",
    [
        "That one has me stumped.",
        "Beats me.",
        "I'd rather sit this one out.",
        "It is a matter of some debate, so I'll leave it at that.",
        "Sorry, I can't place that.",
        "I can't help you with that one.",
        "I'd have to consult a map first.",
        "I won't choose between the candidates.",
        "I don't want to risk a wrong reply.",
        "I don't recognise the question's premise.",
        "I have no figures on that.",
        "Any single city would be misleading to name.",
        "Ni idea, perdón.",
        "我不太确定。",
        "知らない。",
        "Ich habe keine Ahnung.",
        "I'd probably get it wrong, so I'll refrain.",
        "No idea about Australia; New Zealand's is Wellington, I know that much.",
    ],
)
def test_declining_in_further_words_is_refused(reply: str) -> None:
    assert _verdict(reply) is Verdict.REFUSED


@pytest.mark.parametrize(
    "reply",
    [
        "I can't be sure, but I'd guess Wollongong.",
        "Keine Ahnung, vielleicht Sydney.",
        "Ni idea; Melbourne?",
        "I'd sit this one out, though Perth comes to mind.",
        "I won't risk it: Sydney.",
        "Australia's is Sydney, I can't place it otherwise.",
    ],
)
def test_declining_beside_a_candidate_is_no_refusal(reply: str) -> None:
    assert _verdict(reply) is Verdict.INCORRECT


def test_i_would_guess_hedges() -> None:
    checked = check_wh("I'd guess Canberra.", [["Canberra"]], CITIES, question=CAPITAL)
    assert checked.verdict is Verdict.CORRECT and checked.hedged


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("UTC+3½", "UTC+03:30"),
        ("GMT−9¾", "UTC-09:45"),
        ("UTC - 3 h 30 min", "UTC-03:30"),
        ("Etc/GMT+5", "UTC-05:00"),
        ("Etc/GMT-10", "UTC+10:00"),
        ("One hour ahead of UTC.", "UTC+01:00."),
        ("Call 1 1 2.", "Call 112."),
        ("0 0 0", "000"),
        ("Scores of 1 2 and 3", "Scores of 1 2 and 3"),
        ("1.5 2 3", "1.5 2 3"),
        ("Naming one is hard.", "Naming one is hard."),
        ("UTC + 2", "UTC + 2"),  # a sign alone is no Roman numeral ("+0")
        ("+III", "+3"),
    ],
)
def test_numbers_in_further_formats(text: str, read: str) -> None:
    from kglens_tui.answers.mentions import _fold
    from kglens_tui.answers.numbers import spell_out

    assert spell_out(_fold(text)) == read


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("UTC+5½", Verdict.CORRECT),
        ("UTC+5 h 30 min", Verdict.CORRECT),
        ("Etc/GMT-5", Verdict.INCORRECT),  # that is UTC+5
        ("UTC+4½", Verdict.INCORRECT),
    ],
)
def test_offsets_in_further_formats(reply: str, verdict: Verdict) -> None:
    offsets = NameTable([("UTC+05:30", 1), ("UTC+05:00", 2), ("UTC+04:30", 3)])
    question = "Which standard time zones does India use?"
    got = check_wh(reply, [["UTC+05:30", "UTC+5:30"]], offsets, question=question)
    assert got.verdict is verdict


def test_a_group_is_also_a_column() -> None:
    from kglens_tui.kg.answer_names import periodic_table_names

    assert "column 14" in periodic_table_names("group", 14)
    assert periodic_table_names("period", 4) == ("row 4",)


COUNTRIES = NameTable(
    [("Spain", 1), ("France", 2), ("Andorra", 3), ("Portugal", 4), ("Western", 5), ("Southern", 6)]
)
REGION = "Where is Catalonia located?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("North-eastern Spain, bordering France and Andorra.", Verdict.CORRECT),
        ("Spain, neighbouring Andorra.", Verdict.CORRECT),
        ("Southern Spain.", Verdict.CORRECT),
        ("Western.", Verdict.INCORRECT),
        ("Spain, or maybe France.", Verdict.INCORRECT),
        ("Southern France, near Spain.", Verdict.INCORRECT),
    ],
)
def test_adjacency_and_directions_name_in_passing(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["Spain"]], COUNTRIES, ["Catalonia"], question=REGION)
    assert got.verdict is verdict


def test_adjacency_is_the_relation_where_borders_are_asked() -> None:
    question = "Which countries share a land border with Andorra?"
    got = check_wh(
        "Andorra borders Spain, bordering Portugal too.",
        [["Spain"], ["France"]],
        COUNTRIES,
        ["Andorra"],
        question=question,
    )
    assert got.verdict is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra. Actually, Wollongong is the capital.", Verdict.INCORRECT),
        ("Sydney. Actually, Canberra is the capital.", Verdict.CORRECT),
        ("Canberra. Actually, Wollongong is the largest port.", Verdict.CORRECT),
        ("Canberra. On reflection, Sydney.", Verdict.INCORRECT),
        ("Sydney. Hmm, I'd reconsider: Canberra.", Verdict.CORRECT),
        ("Perth; come to think of it, Canberra.", Verdict.CORRECT),
    ],
)
def test_further_corrections(reply: str, verdict: Verdict) -> None:
    assert _verdict(reply) is verdict


@pytest.mark.parametrize(
    ("text", "norms"),
    [
        ("U.S", ["us"]),
        ("in the U.K today", ["in", "the", "uk", "today"]),
        ("ر.س", ["رس"]),
        ("Canberra.Sydney", ["canberra", "sydney"]),
        ("x.y.z", ["x", "y", "z"]),
    ],
)
def test_two_letters_with_a_dot_between_are_one_abbreviation(text: str, norms: list[str]) -> None:
    from kglens_tui.answers.mentions import tokenize

    assert [t.norm for t in tokenize(text)] == norms


def test_an_abbreviation_without_its_last_dot_names_the_same() -> None:
    names = [["United States", "U.S."]]
    table = NameTable([("United States", 1), ("United Kingdom", 2)])
    question = "Which country is Hawaii part of?"
    assert check_wh("The U.S", names, table, question=question).verdict is Verdict.CORRECT


def test_continents_by_their_cldr_names() -> None:
    from kglens_tui.kg.answer_names import answer_names

    south = answer_names("continent:South_America", "South America").names
    assert {"Südamerika", "América do Sul", "南美洲"} <= set(south)
    north = answer_names("continent:North_America", "North America").names
    assert "Nordamerika" in north and "Südamerika" not in north
    assert "Europa" in answer_names("continent:Europe", "Europe").names
    countries = {"Brazil", "Brasil", "Chile", "Peru"}
    assert not countries & set(south)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("In Finland.", Verdict.CORRECT),
        ("In Helsinki, Finland.", Verdict.CORRECT),
        ("Norway, near Finland.", Verdict.INCORRECT),
        ("In Norway.", Verdict.INCORRECT),
    ],
)
def test_in_opens_no_name_where_the_question_asks_where(reply: str, verdict: Verdict) -> None:
    places = NameTable([("Sweden", 1), ("Norway", 2), ("Finland", 3)])
    question = "Where was the element discovered?"
    assert check_wh(reply, [["Finland"]], places, question=question).verdict is verdict


def test_madame_and_professor_are_titles() -> None:
    from kglens_tui.kg.answer_names import answer_names

    short = answer_names("person:x", "Lise Meitner").short
    assert {"Madame Meitner", "Professor Meitner"} <= set(short)


def test_a_country_goes_by_no_name_of_its_own_subdivision() -> None:
    from kglens_tui.kg.answer_names import territory_names

    names = territory_names()
    assert "England" not in names["GB"] and "Scotland" not in names["GB"]
    assert "Royaume-Uni" in names["GB"] and "Deutschland" in names["DE"]


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Spain and l'Hexagone (France).", Verdict.CORRECT),
        ("Spain and Hexagone (France).", Verdict.CORRECT),
        ("Spain and Hexagone.", Verdict.INCORRECT),
        ("Spain and Hexagone (Portugal).", Verdict.INCORRECT),
    ],
)
def test_an_unknown_item_glossed_by_a_true_answer_is_that_answer(
    reply: str, verdict: Verdict
) -> None:
    question = "Which countries share a land border with Andorra?"
    got = check_wh(reply, [["Spain"], ["France"]], COUNTRIES, ["Andorra"], question=question)
    assert got.verdict is verdict
