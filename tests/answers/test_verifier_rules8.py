"""Rules 8 of the Wh verifier: refusals in other languages and without stock words, numbers in
further formats, subdivisions by their names in other languages, people by fuller or shorter
forms of their names. Examples written for these tests (not taken from the labelled sets)."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict

CITIES = NameTable([("Sydney", 1), ("Canberra", 2), ("Melbourne", 3), ("Perth", 4)])
CAPITAL = "What is the capital of Australia?"


@pytest.mark.parametrize(
    "reply",
    [
        "Ich weiß es nicht.",
        "Non lo so, mi dispiace.",
        "Não sei.",
        "Не знаю, извините.",
        "我不知道。",
        "Ik weet het niet.",
        "🤷",
        "¯\\_(ツ)_/¯ no idea",
        "Your guess is as good as mine, honestly.",
        "I'd sooner not name a city here.",
        "I'll skip that one.",
        "Pass on this one.",
        "I won't take a stance on that.",
        "I'm uncertain and can't recall it.",
        "I'm not familiar with that country's cities.",
    ],
)
def test_declining_without_stock_words_is_refused(reply: str) -> None:
    assert check_wh(reply, [["Canberra"]], CITIES, question=CAPITAL).verdict is Verdict.REFUSED


@pytest.mark.parametrize(
    "reply",
    [
        "Ich weiß es nicht, vielleicht Sydney.",
        "No lo sé, quizás Melbourne.",
        "🤷 Wollongong?",
        "🤷 Sydney?",
        "I'll skip the details: Sydney.",
        "I'm uncertain, maybe Perth.",
        "I'd go with Wollongong.",
        "I'm not familiar with it; Sydney?",
    ],
)
def test_declining_words_beside_a_candidate_are_no_refusal(reply: str) -> None:
    assert check_wh(reply, [["Canberra"]], CITIES, question=CAPITAL).verdict is Verdict.INCORRECT


def test_naming_only_the_subject_asked_about_still_declines() -> None:
    places = NameTable([("Travis County", 1), ("Texas", 2), ("Ohio", 3)])
    got = check_wh(
        "I'm not familiar with anywhere called Travis County.",
        [["Texas"]],
        places,
        ("Travis County",),
        question="Where is Travis County located?",
    )
    assert got.verdict is Verdict.REFUSED
    got = check_wh(
        "I'm not familiar with Travis County, maybe Ohio.",
        [["Texas"]],
        places,
        ("Travis County",),
        question="Where is Travis County located?",
    )
    assert got.verdict is Verdict.INCORRECT


def test_subdivisions_take_their_names_in_other_languages() -> None:
    from kglens_tui.kg.answer_names import answer_names

    catalonia = answer_names("subdivision:ES-CT", "Catalunya", ("Catalunya", "Cataluña"))
    assert {"Catalonia", "Каталония", "Katalonia"} <= set(catalonia.names)
    texas = answer_names("subdivision:US-TX", "Texas", ("Texas",))
    assert {"Техас", "テキサス"} <= set(texas.names)
    georgia = answer_names("subdivision:US-GA", "Georgia", ("Georgia",))
    assert "Джорджия" in georgia.names and "Грузия" not in georgia.names  # the country's
    # an inverted iso-codes name is also read in order and by its head
    wallonia = answer_names("subdivision:BE-WAL", "wallonne, Région", ("wallonne, Région",))
    assert {"Wallonia", "Région wallonne"} <= set(wallonia.names)
    # a name two subdivisions have names neither (Limburg: a Belgian and a Dutch province)
    assert "Limburg" not in answer_names("subdivision:BE-VLI", "Limburg", ()).names


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Catalonia.", Verdict.CORRECT),
        ("Каталония", Verdict.CORRECT),
        ("Aragon.", Verdict.INCORRECT),
    ],
)
def test_a_subdivision_named_in_another_language(reply: str, verdict: Verdict) -> None:
    from kglens_tui.kg.answer_names import answer_names

    places = NameTable([("Catalunya", 1), ("Aragón", 2), ("Aragon", 2), ("Spain", 3)])
    extra = answer_names("subdivision:ES-CT", "Catalunya", ("Catalunya",))
    got = check_wh(
        reply,
        [["Catalunya"]],
        places,
        ("Girona",),
        question="Where is Girona located?",
        answer_only=[extra],
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("MCMXCI", "1991"),
        ("In MDCCLXXVI.", "In 1776."),
        ("一一二", "112"),
        ("九〇", "90"),
    ],
)
def test_roman_years_and_cjk_digits_are_read_as_digits(text: str, digits: str) -> None:
    from kglens_tui.answers.numbers import spell_out

    assert spell_out(text) == digits


@pytest.mark.parametrize("text", ["MIX", "MCM", "Louis XIV", "統一", "一つ"])
def test_words_like_roman_years_or_cjk_digits_stay(text: str) -> None:
    from kglens_tui.answers.numbers import spell_out

    assert spell_out(text) == text


@pytest.mark.parametrize(
    ("reply", "answers", "verdict"),
    [
        ("MCMXCI.", [["1991"]], Verdict.CORRECT),
        ("MCMXCII.", [["1991"]], Verdict.INCORRECT),
        ("Late in '91.", [["1991"]], Verdict.CORRECT),
        ("In '92.", [["1991"]], Verdict.INCORRECT),
        ("9", [["period 9", "ninth period"]], Verdict.CORRECT),
        ("13", [["group 13", "boron group"]], Verdict.CORRECT),
        ("It's 13.", [["group 13"]], Verdict.CORRECT),
        ("14", [["group 13"]], Verdict.INCORRECT),
        ("The 3rd.", [["period 3"]], Verdict.CORRECT),
        ("Third.", [["period 3"]], Verdict.CORRECT),
        ("Third.", [["period 2"]], Verdict.INCORRECT),
        ("+0900", [["UTC+09:00", "UTC+9"]], Verdict.CORRECT),
        ("+0930", [["UTC+09:00", "UTC+9"]], Verdict.INCORRECT),
        ("−3", [["UTC-03:00", "UTC-3"]], Verdict.CORRECT),
        ("+3", [["UTC-03:00", "UTC-3"]], Verdict.INCORRECT),
        ("3", [["UTC-03:00", "UTC-3"]], Verdict.INCORRECT),  # an offset needs its sign
        ("13", [["112"], ["999"]], Verdict.INCORRECT),  # no word before the numbers
    ],
)
def test_numbers_in_further_formats(reply: str, answers: list[list[str]], verdict: Verdict) -> None:
    assert check_wh(reply, answers).verdict is verdict


def test_groups_and_periods_take_their_other_names() -> None:
    from kglens_tui.kg.answer_names import answer_names

    halogens = answer_names("group:17", "group 17", ("group 17", "halogens"))
    assert "VIIA" in halogens.names
    assert "group 0" in answer_names("group:18", "group 18", ("group 18",)).names
    assert "VIIB" in answer_names("group:7", "group 7", ("group 7",)).names
    period = answer_names("period:5", "period 5", ("period 5",))
    assert "row 5" in period.names
    got = check_wh("The fifth row.", [["period 5"]], answer_only=[period])
    assert got.verdict is Verdict.CORRECT
    got = check_wh("VIIA", [["group 17"]], answer_only=[halogens])
    assert got.verdict is Verdict.CORRECT
    pnictogens = answer_names("group:15", "group 15", ("group 15",))
    assert check_wh("VA", [["group 15"]], answer_only=[pnictogens]).verdict is Verdict.CORRECT
    # a short code matches only as written: "va" is no group
    assert check_wh("va", [["group 15"]], answer_only=[pnictogens]).verdict is Verdict.INCORRECT


def _person(label: str, *known: str):
    from kglens_tui.kg.answer_names import answer_names

    return answer_names(f"person:{label.casefold().replace(' ', '-')}", label, (label, *known))


@pytest.mark.parametrize(
    ("reply", "answers", "verdict"),
    [
        # middle names added to a two-word name
        ("Jöns Jacob Berzelius.", [["Jöns Berzelius"]], Verdict.CORRECT),
        ("Anna Berzelius.", [["Jöns Berzelius"]], Verdict.INCORRECT),
        ("Jacob Berzelius.", [["Jöns Berzelius"]], Verdict.INCORRECT),
        # a middle initial left out
        ("Glenn Seaborg.", [["Glenn T. Seaborg"]], Verdict.CORRECT),
        # titles before a word of the name
        ("PM Albanese.", [["Anthony Albanese"]], Verdict.CORRECT),
        ("Sir Humphrey.", [["Humphrey Davy"]], Verdict.CORRECT),
        ("Lord Kelvin.", [["William Thomson", "Lord Kelvin"]], Verdict.CORRECT),
        # a near spelling of the surname standing alone
        ("Charnvirakun.", [["Anutin Charnvirakul"]], Verdict.CORRECT),
        ("Maria Charnvirakun.", [["Anutin Charnvirakul"]], Verdict.INCORRECT),
        ("Jodie Albanese.", [["Anthony Albanese"]], Verdict.INCORRECT),
    ],
)
def test_people_by_fuller_or_shorter_forms(
    reply: str, answers: list[list[str]], verdict: Verdict
) -> None:
    extra = [_person(group[0], *group[1:]) for group in answers]
    assert check_wh(reply, answers, answer_only=extra).verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("From Portugal.", Verdict.CORRECT),
        ("From Spain.", Verdict.INCORRECT),
        ("Spain, next to Portugal.", Verdict.INCORRECT),
    ],
)
def test_the_question_s_preposition_opening_the_reply_is_no_name(
    reply: str, verdict: Verdict
) -> None:
    countries = NameTable([("Portugal", 1), ("Spain", 2), ("Brazil", 3)])
    got = check_wh(
        reply,
        [["Portugal"]],
        countries,
        ("Brazil",),
        question="From which country did Brazil gain independence?",
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict", "hedged"),
    [
        ("Perth. On second thought, Canberra.", Verdict.CORRECT, False),
        ("Canberra. On second thought, Wollongong.", Verdict.INCORRECT, False),
        ("Canberra — no, Wollongong.", Verdict.INCORRECT, False),
        ("Canberra. Oops — Wollongong.", Verdict.INCORRECT, False),
        ("Perth. Oops, Canberra.", Verdict.CORRECT, False),
        ("Canberra — no. Wollongong is a port.", Verdict.CORRECT, False),
        ("Maybe Perth or Canberra — I'd go with Canberra.", Verdict.CORRECT, True),
        ("Perth or Canberra; if I had to pick, Perth.", Verdict.INCORRECT, True),
    ],
)
def test_corrections_and_choices(reply: str, verdict: Verdict, hedged: bool) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, question=CAPITAL)
    assert (got.verdict, got.hedged) == (verdict, hedged)


def test_second_before_thought_is_no_ordinal() -> None:
    from kglens_tui.answers.numbers import spell_out

    assert spell_out("On second thought, the fourth period.") == (
        "On second thought, the period 4."
    )


def test_a_direction_before_of_is_no_place() -> None:
    places = NameTable([("Wales", 1), ("North", 2), ("Cardiff", 3)])
    got = check_wh(
        "Wales, some 200 km north of Cardiff.",
        [["Wales"]],
        places,
        ("Powys",),
        question="Where is Powys located?",
    )
    assert got.verdict is Verdict.CORRECT


def test_a_particle_joined_by_a_hyphen_may_go() -> None:
    from kglens_tui.kg.answer_names import person_short_names

    names = person_short_names("Bashar al-Assad")
    assert {"Assad", "President Assad", "al-Assad"} <= set(names)
    extra = [_person("Bashar al-Assad")]
    got = check_wh("President Assad.", [["Bashar al-Assad"]], answer_only=extra)
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("text", "digits"),
    [("Minus one.", "-1."), ("plus one", "+1"), ("Naming one is hard.", "Naming one is hard.")],
)
def test_one_after_a_sign_is_a_number(text: str, digits: str) -> None:
    from kglens_tui.answers.numbers import spell_out

    assert spell_out(text) == digits


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra (planned) and Wollongong (coastal).", Verdict.INCORRECT),
        ("Canberra (a planned city).", Verdict.CORRECT),
        ("Canberra (not Sydney).", Verdict.CORRECT),
    ],
)
def test_an_item_listed_beside_the_answer_past_a_gloss(reply: str, verdict: Verdict) -> None:
    assert check_wh(reply, [["Canberra"]], CITIES, question=CAPITAL).verdict is verdict


def test_a_mountain_by_its_part_after_a_class_word_of_another_language() -> None:
    from kglens_tui.answers.mentions import _after_class_word

    assert _after_class_word(["Pic", "de", "la", "Selle"]) == ["Pic", "la", "Selle"]
    assert _after_class_word(["Nevado", "Tres", "Cruces"]) == []
    assert _after_class_word(["Volcán", "Nevado", "del", "Huila"]) == [
        "Volcán",
        "Nevado",
        "del",
        "Huila",
    ]


@pytest.mark.parametrize(
    ("reply", "verdict", "hedged"),
    [
        ("Possibly Pedrosa Peak.", Verdict.INCORRECT, True),
        ("Probably Charnvirakul.", Verdict.CORRECT, True),
        ("Probably Maria Charnvirakul.", Verdict.INCORRECT, True),
    ],
)
def test_a_hedging_word_is_no_part_of_a_name(reply: str, verdict: Verdict, hedged: bool) -> None:
    extra = [_person("Anutin Charnvirakul")]
    got = check_wh(reply, [["Anutin Charnvirakul"]], answer_only=extra)
    assert (got.verdict, got.hedged) == (verdict, hedged)


CURRENCIES = NameTable([("Swiss franc", 1), ("euro", 2), ("krone", 3)])
FRANC_QUESTION = "What currency is used in Liechtenstein?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("The Swiss franc; over the border Austria uses the euro.", Verdict.CORRECT),
        ("The Swiss franc, while Germany has the euro.", Verdict.CORRECT),
        ("The Swiss franc or the euro.", Verdict.INCORRECT),
        ("The euro; Austria uses the Swiss franc.", Verdict.INCORRECT),
        ("The Swiss franc; Liechtenstein also takes the euro.", Verdict.INCORRECT),
    ],
)
def test_a_rival_told_about_another_country(reply: str, verdict: Verdict) -> None:
    got = check_wh(
        reply,
        [["Swiss franc"]],
        CURRENCIES,
        ("Liechtenstein",),
        question=FRANC_QUESTION,
    )
    assert got.verdict is verdict


def test_countries_listed_as_candidates_are_no_countries_told_about() -> None:
    countries = NameTable([("Austria", 1), ("Germany", 2), ("Chile", 3), ("Italy", 4)])
    got = check_wh(
        "Austria, Germany and Chile.",
        [["Austria"], ["Germany"]],
        countries,
        ("Switzerland",),
        question="Which countries share a land border with Switzerland?",
    )
    assert got.verdict is Verdict.INCORRECT


def test_a_name_listed_after_one_in_passing_is_in_passing() -> None:
    countries = NameTable([("South Africa", 1), ("San Marino", 2), ("Italy", 3), ("Spain", 4)])
    got = check_wh(
        "Only South Africa, which surrounds it, like Italy around San Marino or Spain.",
        [["South Africa"]],
        countries,
        ("Lesotho",),
        question="Which countries share a land border with Lesotho?",
    )
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [("Catalonia, Spain.", Verdict.CORRECT), ("Catalonia, Italy.", Verdict.INCORRECT)],
)
def test_a_subdivision_with_its_country_as_an_address(reply: str, verdict: Verdict) -> None:
    from kglens_tui.kg.answer_names import answer_names

    places = NameTable([("Catalunya", 1), ("Spain", 2), ("Italy", 3)])
    extra = answer_names("subdivision:ES-CT", "Catalunya", ("Catalunya",))
    got = check_wh(
        reply,
        [["Catalunya"]],
        places,
        ("Girona",),
        question="Where is Girona located?",
        answer_only=[extra],
    )
    assert got.verdict is verdict


def test_the_specific_part_after_a_class_word_and_a_particle() -> None:
    from kglens_tui.answers.mentions import _with_generic
    from kglens_tui.kg.answer_names import AnswerNames

    generic = ("Mount", "Pico")
    got = _with_generic(AnswerNames(), ("Pico de Orizaba",), generic, {}, 0)
    assert "Orizaba" in got.short and "Mount Orizaba" in got.names
    got = _with_generic(AnswerNames(), ("Pic de Coma Pedrosa",), generic, {}, 0)
    assert "Coma Pedrosa" in got.short
    # never a part that is another entity's name
    got = _with_generic(AnswerNames(), ("Pico de Orizaba",), generic, {"orizaba": 7}, 0)
    assert "Orizaba" not in got.short


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("100 for police, 101 for fire, 108 for ambulance.", Verdict.INCORRECT),
        ("100 for police, 101 for fire, 102 for ambulance.", Verdict.CORRECT),
        ("100 for police; it has been in use since 1952.", Verdict.CORRECT),
        ("100 for police, not 108.", Verdict.CORRECT),
    ],
)
def test_another_number_listed_beside_true_numbers(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["100"], ["101"], ["102"]], question="What are the emergency numbers?")
    assert got.verdict is verdict


def test_years_may_stand_beside_other_years() -> None:
    got = check_wh("1774; others say 1771.", [["1774"]], question="When was it discovered?")
    assert got.verdict is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("The Rhodesian dollar.", Verdict.INCORRECT),
        ("The Zimbabwe dollar.", Verdict.INCORRECT),
        ("The US dollar.", Verdict.CORRECT),
        ("Dollars.", Verdict.CORRECT),
        ("It uses the dollar.", Verdict.CORRECT),
    ],
)
def test_a_unit_word_after_another_qualifier_is_another_currency(
    reply: str, verdict: Verdict
) -> None:
    from kglens_tui.kg.answer_names import answer_names

    dollar = answer_names("currency:USD", "US Dollar", ("US Dollar", "USD"))
    got = check_wh(
        reply,
        [["US Dollar", "USD"]],
        subject=("Zimbabwe",),
        question="What currency is used in Zimbabwe?",
        answer_only=[dollar],
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("The euro (it used the krone before that).", Verdict.CORRECT),
        ("The euro; the krone until 2002.", Verdict.CORRECT),
        ("The euro and the krone.", Verdict.INCORRECT),
        ("The euro until 2002, then the krone.", Verdict.INCORRECT),
    ],
)
def test_a_rival_said_to_have_held_before(reply: str, verdict: Verdict) -> None:
    got = check_wh(
        reply,
        [["euro"]],
        CURRENCIES,
        ("Montenegro",),
        question="What currency is used in Montenegro?",
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("AMLO.", Verdict.CORRECT),
        ("AML", Verdict.CORRECT),
        ("aml", Verdict.INCORRECT),  # three letters: a code, only as written
        ("AM", Verdict.INCORRECT),
    ],
)
def test_a_person_by_initials(reply: str, verdict: Verdict) -> None:
    label = "Andrés Manuel López Obrador"
    got = check_wh(reply, [[label]], answer_only=[_person(label)])
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("It is in Djibouti.", Verdict.INCORRECT),
        ("Djibouti City, in the Gulf of Tadjoura.", Verdict.CORRECT),
        ("Djibouti.", Verdict.CORRECT),
    ],
)
def test_the_subject_s_name_after_a_preposition_is_the_subject(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(
        reply,
        [["Djibouti", "Djibouti City"]],
        subject=("Djibouti", "Republic of Djibouti"),
        question="What is the capital of Djibouti?",
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Antigua and Barbuda's capital.", Verdict.INCORRECT),
        ("The capital is Saint John's, on Antigua.", Verdict.CORRECT),
    ],
)
def test_an_answer_inside_the_subject_s_longer_name_is_the_subject(
    reply: str, verdict: Verdict
) -> None:
    got = check_wh(
        reply,
        [["Saint John's", "Antigua"]],
        subject=("Antigua and Barbuda",),
        question="What is the capital of Antigua and Barbuda?",
    )
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict", "hedged"),
    [
        ("Perth or Canberra — Canberra, I think.", Verdict.CORRECT, True),
        ("Perth or Canberra — Perth.", Verdict.INCORRECT, False),
        ("Perth or Canberra.", Verdict.INCORRECT, False),
        ("Perth or Canberra — Canberra is newer, Perth older.", Verdict.INCORRECT, False),
    ],
)
def test_a_last_clause_that_picks_a_listed_candidate(
    reply: str, verdict: Verdict, hedged: bool
) -> None:
    got = check_wh(reply, [["Canberra"]], CITIES, question=CAPITAL)
    assert (got.verdict, got.hedged) == (verdict, hedged)


def test_the_city_of_the_subject_s_name_is_still_the_answer() -> None:
    got = check_wh(
        "The capital is the city of Luxembourg.",
        [["Luxembourg", "Luxembourg City"]],
        subject=("Luxembourg", "Grand Duchy of Luxembourg"),
        question="What is the capital of Luxembourg?",
    )
    assert got.verdict is Verdict.CORRECT


def test_a_circle_mark_alone_is_no_zero() -> None:
    from kglens_tui.answers.numbers import spell_out

    assert spell_out("答えは〇です") == "答えは〇です"
