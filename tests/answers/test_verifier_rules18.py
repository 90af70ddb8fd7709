"""Rules 18 of the Wh verifier: others' beliefs, former times and clauses before a concluding
name are told of; a clause about the true answer in an opening name's sentence tells of it; a
"no" that takes the only candidate back before "I don't know" refuses; "I meant", "or rather",
"sorry" and "no" in more languages; a weak correction before "I'd say X, ..."; regret inside a
phrase of not knowing, and "I have no information" in more languages; inflections of
answer-only names in Latin letters; romanisations and titles of people; a currency's own
territories' sign; a subdivision followed by another's code; numerals with units and digit
words of other languages. Examples written for these tests (not taken from the labelled sets);
most get another verdict under rules 17, the others guard the edges of a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra is the capital, though many guess Sydney.", Verdict.CORRECT),
        ("Canberra, though tourists often say it's Sydney.", Verdict.CORRECT),
        ("Canberra; most people assume Melbourne.", Verdict.CORRECT),
        ("Canberra, though I think Sydney.", Verdict.INCORRECT),  # the speaker's own guess
        ("Canberra, though we'd say Sydney.", Verdict.INCORRECT),
        ("Canberra; you might guess Sydney.", Verdict.CORRECT),  # the reader's guess
        ("Canberra, Sydney.", Verdict.INCORRECT),
    ],
)
def test_what_others_believe_is_told_of(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        (
            "Sydney or Melbourne were rivals; Canberra was the compromise. Canberra.",
            Verdict.CORRECT,
        ),
        ("Sydney and Melbourne both wanted it. Canberra.", Verdict.CORRECT),
        (
            "Sydney or Melbourne were rivals; Canberra was the compromise. Sydney.",
            Verdict.INCORRECT,
        ),
        # the careful reading: Sydney is given as the answer, Canberra only conceded
        ("Sydney, although Canberra has been the capital since 1913.", Verdict.INCORRECT),
    ],
)
def test_a_concluding_name_after_clauses_about_others(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


EURO = "What currency is used in France?"
CURRENCIES = NameTable([("Euro", 1), ("French franc", 2), ("Deutsche Mark", 3)])


@pytest.mark.parametrize(
    ("reply", "question", "verdict"),
    [
        ("The euro; before 2002 it was the French franc.", EURO, Verdict.CORRECT),
        ("The euro; previously France used the French franc.", EURO, Verdict.CORRECT),
        ("The euro; before 2002 the French franc.", EURO, Verdict.INCORRECT),  # no past verb
        (
            "The euro; before 2002 it was the French franc.",
            "What currency was used?",
            Verdict.INCORRECT,
        ),
    ],
)
def test_a_clause_of_former_time_tells_of_a_rival(
    reply: str, question: str, verdict: Verdict
) -> None:
    got = check_wh(reply, [["Euro"]], CURRENCIES, ["France"], question=question)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney; Canberra was built later as a compromise.", Verdict.INCORRECT),
        ("Perth; Canberra lies inland.", Verdict.INCORRECT),
        ("Sydney; Canberra is the capital.", Verdict.INCORRECT),  # as under rules 17
        ("Sydney; Canberra is the right one.", Verdict.CORRECT),  # rules 19: a correction
        ("Sydney? Canberra is where parliament sits.", Verdict.CORRECT),  # the opening asks
        ("Perth — update: Canberra took the seat in 1927.", Verdict.CORRECT),
        ("Australia. Canberra was chosen in 1908.", Verdict.CORRECT),  # the subject opens
        ("In Australia, Canberra is where parliament sits.", Verdict.CORRECT),
        ("Wellington. Canberra is Australia's.", Verdict.CORRECT),  # names the subject
        ("Sure! Canberra was purpose-built.", Verdict.CORRECT),  # no name opens it
        ("Easy. Canberra was chosen in 1908.", Verdict.CORRECT),
        ("Oh, Canberra was purpose-built.", Verdict.CORRECT),
        ("Not Sydney. Canberra was purpose-built.", Verdict.CORRECT),
    ],
)
def test_a_clause_about_the_answer_after_an_opening_name_tells_of_it(
    reply: str, verdict: Verdict
) -> None:
    assert capital_verdict(reply) is verdict


def test_a_word_of_another_rule_before_a_clause_takes_nothing_back() -> None:
    """ "in" (as in "in fact") no longer counts as a correction's word on its own."""
    assert capital_verdict("Perth, founded in 1829 — Canberra only hosts parliament.") is (
        Verdict.INCORRECT
    )


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        (
            "Sydney — no, that's the largest city. I honestly don't know the capital.",
            Verdict.REFUSED,
        ),
        ("Perth? No. I don't know.", Verdict.REFUSED),
        ("Sydney — no, that's the largest city. I'd say Canberra.", Verdict.CORRECT),
        ("Sydney — no idea, really.", Verdict.INCORRECT),  # "no idea" is no denial of Sydney
        ("Canberra, no doubt. I don't know why anyone doubts it.", Verdict.CORRECT),
        ("Canberra. No, I don't think it's Sydney.", Verdict.CORRECT),  # Sydney denied
        ("Canberra. No, I won't say Sydney.", Verdict.CORRECT),
        ("Canberra. No, I don't think so.", Verdict.CORRECT),  # says no "I do not know"
    ],
)
def test_a_candidate_denied_before_a_refusal_is_refused(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney, przepraszam, chodziło mi o Canberra.", Verdict.CORRECT),  # Polish
        ("Canberra, xin lỗi, ý tôi là Sydney.", Verdict.INCORRECT),  # Vietnamese
        ("Canberra — jag menade Sydney.", Verdict.INCORRECT),  # Swedish
        ("Sydney, tarkoitin Canberra.", Verdict.CORRECT),  # Finnish
        ("Canberra. Maksud saya Sydney.", Verdict.INCORRECT),  # Indonesian
        ("Canberra; úgy értem, it has been so since 1913.", Verdict.CORRECT),  # nothing offered
        ("Sydney, o meglio, Canberra.", Verdict.CORRECT),  # Italian "or rather"
        ("Canberra, ou plutôt Sydney.", Verdict.INCORRECT),  # French
        ("Canberra — oder besser gesagt Sydney.", Verdict.INCORRECT),  # German
        ("Canberra, o meglio la capitale federale.", Verdict.CORRECT),  # no name offered
    ],
)
def test_i_meant_and_or_rather_in_more_languages(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra. Hmm, on reflection I'd say Perth, since the mint is there.", Verdict.INCORRECT),
        ("Perth. On reflection I'd say Canberra, since parliament sits there.", Verdict.CORRECT),
        ("Canberra. On reflection I'd say it has always been so.", Verdict.CORRECT),
    ],
)
def test_a_weak_correction_before_the_speakers_pick(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


ORPO = "Who is the head of government of Finland?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("En valitettavasti tiedä.", Verdict.REFUSED),  # Finnish, regret inside
        ("To bohužel nevím.", Verdict.REFUSED),  # Czech, with "that"
        ("Tego niestety nie wiem.", Verdict.REFUSED),  # Polish
        ("मुझे इसकी जानकारी नहीं है।", Verdict.REFUSED),  # Hindi: "I have no information"
        ("En valitettavasti tiedä, ehkä Marin?", Verdict.INCORRECT),  # a guess
        ("Orpo, en valitettavasti tiedä varmasti.", Verdict.CORRECT),
        ("Bunu bilmiyorum.", Verdict.REFUSED),  # Turkish, with "this"
        ("Sajnálom, nem tudom.", Verdict.REFUSED),  # Hungarian "I'm sorry"
        ("Das kann ich leider nicht sagen.", Verdict.REFUSED),
        ("Je n'ai pas cette information.", Verdict.REFUSED),  # "I have no information"
        ("Dazu habe ich keine Informationen.", Verdict.REFUSED),
        ("Non ho questa informazione.", Verdict.REFUSED),
        ("Não tenho essa informação.", Verdict.REFUSED),
        ("Nie mam tej informacji.", Verdict.REFUSED),
        ("Je n'ai pas cette information, mais peut-être Marin.", Verdict.INCORRECT),
        ("Ich habe keine Informationen, vielleicht Orpo.", Verdict.CORRECT),
    ],
)
def test_regret_inside_a_phrase_of_not_knowing(reply: str, verdict: Verdict) -> None:
    people = NameTable([("Petteri Orpo", 1), ("Sanna Marin", 2)])
    names = (answer_names("person:orpo", "Petteri Orpo"),)
    got = check_wh(reply, [["Petteri Orpo"]], people, ["Finland"], question=ORPO, answer_only=names)
    assert got.verdict is verdict


CAPITAL_OF_POLAND = "What is the capital of Poland?"
POLISH_CITIES = NameTable([("Warsaw", 1), ("Kraków", 2), ("Wrocław", 3), ("Vienna", 4)])


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Warszawę.", Verdict.CORRECT),  # the Polish accusative of Warszawa
        ("Warszawa.", Verdict.CORRECT),
        ("Wrocławia.", Verdict.INCORRECT),  # another city's genitive
        ("Warschauer.", Verdict.INCORRECT),  # two letters more
        ("Warszawy.", Verdict.CORRECT),  # the genitive
        ("Nie Warszawy.", Verdict.INCORRECT),  # "not Warsaw"
    ],
)
def test_inflected_answer_only_names_in_latin_letters(reply: str, verdict: Verdict) -> None:
    names = (answer_names("city:Warsaw-POL", "Warsaw"),)
    got = check_wh(
        reply,
        [["Warsaw"]],
        POLISH_CITIES,
        ["Poland"],
        question=CAPITAL_OF_POLAND,
        answer_only=names,
    )
    assert got.verdict is verdict


EMERGENCY = "What are the emergency phone numbers in Austria?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Eins-eins-zwei.", Verdict.CORRECT),  # German, digit by digit
        ("El uno-uno-dos.", Verdict.CORRECT),  # Spanish
        ("Un-un-deux, ou cent douze.", Verdict.CORRECT),  # French
        ("百十二番。", Verdict.CORRECT),  # Japanese numeral with units: 112
        ("Eins-eins-drei.", Verdict.INCORRECT),  # 113
        ("Bosnia-and-Herzegovina uses 112.", Verdict.CORRECT),  # no digit words: left alone
    ],
)
def test_digit_words_of_other_languages_and_cjk_numerals(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["112"], ["133"]], None, ["Austria"], question=EMERGENCY)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("百十九", "119"),
        ("千九百四十五年", "1945年"),
        ("二十", "20"),
        ("十分", "十分"),  # "very": one unit alone is a word
        ("一一〇", "110"),  # digits one by one, as before
        ("due-tre-sei", "236"),
        ("Guinea-Bissau-Conakry", "Guinea-Bissau-Conakry"),
    ],
)
def test_numerals_read_as_digits(text: str, read: str) -> None:
    assert spell_out(text) == read


CURRENCY = "What currency is used in Nicaragua?"
SIGNED = NameTable([("Nicaraguan Córdoba", 1), ("Canadian Dollar", 2), ("US Dollar", 3)])


@pytest.mark.parametrize(
    ("key", "label", "reply", "verdict"),
    [
        ("currency:NIO", "Nicaraguan Córdoba", "C$", Verdict.CORRECT),  # es_NI's sign
        ("currency:NIO", "Nicaraguan Córdoba", "C$ 500.", Verdict.CORRECT),
        ("currency:NIO", "Nicaraguan Córdoba", "US$", Verdict.INCORRECT),
        ("currency:CAD", "Canadian Dollar", "C$", Verdict.INCORRECT),  # as under rules 17
        ("currency:KGS", "Kyrgystani Som", "сом", Verdict.CORRECT),  # ky_KG's sign
    ],
)
def test_a_sign_a_currencys_own_territory_uses_is_that_currencys(
    key: str, label: str, reply: str, verdict: Verdict
) -> None:
    names = (answer_names(key, label),)
    got = check_wh(reply, [[label]], SIGNED, [], question=CURRENCY, answer_only=names)
    assert got.verdict is verdict


MBS = "Muhammad bin Salman bin Abd al-Aziz Al Saud"
KING = "Salman bin Abdulaziz Al Saud"
SHEINBAUM = "Claudia Sheinbaum Pardo"
PEOPLE = NameTable([(MBS, 1), (KING, 2), (SHEINBAUM, 3), ("Mahmoud Abbas", 4)])


@pytest.mark.parametrize(
    ("true", "reply", "verdict"),
    [
        (MBS, "Crown Prince Mohammed bin Salman.", Verdict.CORRECT),  # Mohammed: Muhammad
        (MBS, "Mohammed bin Salman.", Verdict.CORRECT),
        (MBS, "Mahmoud bin Salman.", Verdict.INCORRECT),  # the same consonants, too far apart
        (KING, "Mohammed bin Salman.", Verdict.INCORRECT),  # the king's son, as before
        (KING, "King Salman.", Verdict.CORRECT),
        (SHEINBAUM, "Presidenta Sheinbaum.", Verdict.CORRECT),  # Spanish, feminine
        (SHEINBAUM, "Presidente Sheinbaum.", Verdict.CORRECT),
        (SHEINBAUM, "Presidential Sheinbaum.", Verdict.INCORRECT),  # no title's ending
    ],
)
def test_romanisations_and_titles_with_other_endings(
    true: str, reply: str, verdict: Verdict
) -> None:
    names = (answer_names("person:x", true, (true,)),)
    question = "Who is the head of government?"
    got = check_wh(reply, [[true]], PEOPLE, [], question=question, answer_only=names)
    assert got.verdict is verdict


STATE = "Where is Stevens County, Washington located?"
STATES = NameTable([("Washington", 1), ("Oregon", 2), ("Idaho", 3)])


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Washington, D.C.", Verdict.INCORRECT),  # the city in the District of Columbia
        ("Washington, DC", Verdict.INCORRECT),
        ("Washington, WA.", Verdict.CORRECT),  # its own code
        ("Washington, USA.", Verdict.CORRECT),
        ("Washington, near Oregon.", Verdict.CORRECT),
    ],
)
def test_a_subdivision_followed_by_another_ones_code_is_an_address(
    reply: str, verdict: Verdict
) -> None:
    names = (answer_names("subdivision:US-WA", "Washington"),)
    got = check_wh(reply, [["Washington"]], STATES, [], question=STATE, answer_only=names)
    assert got.verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney, przepraszam, Canberra.", Verdict.CORRECT),  # Polish "sorry"
        ("Canberra — Entschuldigung, Sydney.", Verdict.INCORRECT),
        ("Canberra, scusa, Perth.", Verdict.INCORRECT),
        ("Sydney — nie, Canberra.", Verdict.CORRECT),  # Polish "no", a clause of its own
        ("Sydney, nie Canberra.", Verdict.INCORRECT),  # "not Canberra": nothing taken back
        ("Canberra. Przepraszam, Sydney is just bigger.", Verdict.CORRECT),  # offers no answer
    ],
)
def test_sorry_and_no_in_more_languages_take_a_candidate_back(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("code", "true", "reply"),
    [
        ("SVK", "Slovakia", "Slovenia."),
        ("DMA", "Dominica", "Dominican Republic."),
        ("COL", "Colombia", "Colombo."),
        ("NER", "Niger", "Nigeria."),
        ("GRC", "Greece", "Greenland."),
    ],
)
def test_another_country_is_no_inflection_without_a_rivals_table(
    code: str, true: str, reply: str
) -> None:
    names = (answer_names(f"country:{code}", true),)
    got = check_wh(reply, [[true]], None, [], question="Which country?", answer_only=names)
    assert got.verdict is Verdict.INCORRECT
