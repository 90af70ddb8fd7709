"""Rules 20 of the Wh verifier, made on ordinary replies' misses and the thirteenth set's: a
reply is judged by what it asserts as the answer. Corrections that take back only where an
answer follows ("I mean", "update", a "no" about something else); names told of (a place named
as a sentence, "while", former time, a pronoun's object, what others say against the speaker's
pick); names from maintained sources (the asked territory's currency signs, an address, a city
or region of the one true country, Arabic names in other spellings, a surname written once);
candidates and refusals ("or was it X", a guess naming someone, a lone dash). Ordinary replies
written for these tests (not taken from the labelled sets), asked as a run asks them of the
bundled KGs; some change their verdict under rules 20, the others guard the rules' edges."""

from __future__ import annotations

import pytest
from verdict_support import bundled_verdict

from kglens_tui.bench.verifier_bench import Case, Rivals, matcher_verdict
from kglens_tui.core.question_type import WH
from kglens_tui.core.verdict import Verdict

AUSTRALIA = "What is the capital of Australia (also known as Commonwealth of Australia)?"
KAZAKHSTAN = "What is the capital of Kazakhstan (also known as Republic of Kazakhstan)?"
SWITZERLAND = "What is the capital of Switzerland (also known as Swiss Confederation)?"


verdict = bundled_verdict
"""The verdict a run gives a reply to a question of a bundled KG (`verdict_support`)."""


def capital_verdict(rivals: Rivals, reply: str) -> Verdict:
    """The verdict of ``reply`` to the capital of Australia (Canberra)."""
    return verdict(rivals, reply, AUSTRALIA, (("Canberra",),))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Canberra; I meant to mention it was built for the purpose.", "correct"),
        ("Canberra. I meant to say it lies inside the ACT.", "correct"),
        ("Canberra — and by that I mean the city itself, not the territory.", "correct"),
        ("Canberra. I mean it as the seat of government, not the biggest city.", "correct"),
        ("Sydney, I mean Canberra.", "correct"),
        ("Sydney — I meant Canberra, of course.", "correct"),
        ("Sydney... I mean, the capital is Canberra.", "correct"),
        ("Canberra, I mean Melbourne.", "incorrect"),
        ("Canberra. I meant to say Melbourne.", "incorrect"),
    ],
)
def test_i_mean_takes_back_only_for_an_answer(rivals: Rivals, reply: str, expected: str) -> None:
    assert capital_verdict(rivals, reply).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Canberra. No, I don't recall who planned it — an American couple, I think.", "correct"),
        ("Canberra — no, I can't tell you how many people live there, roughly 460,000.", "correct"),
        ("Canberra. No, I'm not sure why so many people think it's Sydney.", "correct"),
        ("Canberra. No — Sydney is only the biggest city.", "correct"),
        ("Canberra. Nope, Melbourne was just the temporary seat.", "correct"),
        ("Sydney. No, I'm not sure, maybe Canberra.", "correct"),
        ("Sydney — no, sorry, Canberra.", "correct"),
        ("Canberra. No, it's Melbourne.", "incorrect"),
        ("Canberra — no, Melbourne is the capital.", "incorrect"),
    ],
)
def test_a_no_about_something_else_takes_nothing_back(
    rivals: Rivals, reply: str, expected: str
) -> None:
    assert capital_verdict(rivals, reply).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Almaty. Astana is only the newer planned city.", "incorrect"),
        ("Almaty. Astana was built much later.", "incorrect"),
        ("Astana. Almaty is the bigger city.", "correct"),
        ("Sure. Astana was renamed several times.", "correct"),
        ("Good question. Astana was renamed several times.", "correct"),
        ("Almaty. Astana is the capital, though.", "correct"),
    ],
)
def test_a_place_named_as_a_sentence_is_the_answer(
    rivals: Rivals, reply: str, expected: str
) -> None:
    assert verdict(rivals, reply, KAZAKHSTAN, (("Astana",),)).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Sydney. Canberra is a small inland town.", "incorrect"),
        ("Sydney, while Canberra hosts the federal parliament.", "incorrect"),
        ("Sydney, whereas Canberra is only the seat of government.", "incorrect"),
        ("Canberra, while Sydney is the biggest city.", "correct"),
        ("Canberra, whereas Sydney and Melbourne are far larger.", "correct"),
    ],
)
def test_while_and_whereas_concede(rivals: Rivals, reply: str, expected: str) -> None:
    assert capital_verdict(rivals, reply).value == expected


@pytest.mark.parametrize(
    "reply",
    [
        "Bern (I meant the city, not the canton).",
        "Bern — no, I can't say why people pick Zurich.",
        "Berne, die Bundesstadt. Nein, ich weiß nicht, warum viele Zürich sagen.",
    ],
)
def test_switzerland(rivals: Rivals, reply: str) -> None:
    assert verdict(rivals, reply, SWITZERLAND, (("Bern",),)) is Verdict.CORRECT


def currency_verdict(rivals: Rivals, reply: str, country: str, currency: str) -> Verdict:
    """The verdict of ``reply`` to "What currency is used in ``country``?"."""
    question = f"What currency is used in {country}?"
    answers = ((currency,),)
    return verdict(rivals, reply, question, answers, predicate="currency", object_type="currency")


SWEDEN = "Sweden (also known as Kingdom of Sweden)"
CHILE = "Chile (also known as Republic of Chile)"
BRAZIL = "Brazil (also known as Federative Republic of Brazil)"


@pytest.mark.parametrize(
    ("reply", "country", "currency", "expected"),
    [
        ("kr", SWEDEN, "Swedish Krona", "correct"),
        ("Kronor, written kr.", SWEDEN, "Swedish Krona", "correct"),
        ("€", SWEDEN, "Swedish Krona", "incorrect"),
        ("$", CHILE, "Chilean Peso", "correct"),
        ("The peso ($).", CHILE, "Chilean Peso", "correct"),
        ("US$", CHILE, "Chilean Peso", "incorrect"),
        ("$", "New Zealand", "New Zealand Dollar", "correct"),
        ("A$", "New Zealand", "New Zealand Dollar", "incorrect"),
        ("$", "Japan", "Japanese Yen", "incorrect"),
        ("$", BRAZIL, "Brazilian Real", "incorrect"),
        ("R$", BRAZIL, "Brazilian Real", "correct"),
    ],
)
def test_a_sign_of_the_asked_territorys_currency_names_it(
    rivals: Rivals, reply: str, country: str, currency: str, expected: str
) -> None:
    assert currency_verdict(rivals, reply, country, currency).value == expected


def test_a_sign_shared_with_other_currencies_is_uncertain(rivals: Rivals) -> None:
    question = f"What currency is used in {CHILE}?"
    case = Case(question, "hand-written for tests", "country", "currency", WH, question, "",
                (("Chilean Peso",),), "$", "", False, predicate="currency")  # fmt: skip
    checked = matcher_verdict(case, rivals)
    assert checked.verdict is Verdict.CORRECT and checked.uncertain


@pytest.mark.parametrize(
    ("reply", "subject", "state", "expected"),
    [
        ("Texas, USA.", "Harris County, Texas (also known as Harris County)", "Texas", "correct"),
        ("Texas, United States.", "Harris County, Texas (also known as Harris County)", "Texas",
         "correct"),
        ("California, U.S.A.", "Orange County, California", "California", "correct"),
        ("Texas, Mexico.", "Harris County, Texas (also known as Harris County)", "Texas",
         "incorrect"),
        ("Oklahoma, USA.", "Harris County, Texas (also known as Harris County)", "Texas",
         "incorrect"),
        ("Texas and the USA.", "Harris County, Texas (also known as Harris County)", "Texas",
         "incorrect"),
    ],
)  # fmt: skip
def test_a_subdivision_then_its_country_is_an_address(
    rivals: Rivals, reply: str, subject: str, state: str, expected: str
) -> None:
    question = f"Where is {subject} located?"
    got = verdict(
        rivals, reply, question, ((state,),), kg="places", predicate="located_in",
        object_type="place",
    )  # fmt: skip
    assert got.value == expected


POLONIUM = "Who discovered Polonium (also known as Po)?"
CURIES = (("Marie Curie",), ("Pierre Curie",))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Pierre and Marie Curie, in 1898.", "correct"),
        ("Marie Curie and Pierre.", "correct"),
        ("Marie et Pierre Curie.", "correct"),
        ("Paris, 1898: Pierre and Marie Curie.", "correct"),
        ("Berlin: Marie and Pierre Curie.", "correct"),
        ("Marie and Jacques Curie.", "incorrect"),
        ("Marie Curie and Henri Becquerel.", "incorrect"),
    ],
)
def test_a_surname_two_people_share_is_written_once(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = verdict(
        rivals, reply, POLONIUM, CURIES, kg="elements", predicate="discovered_by",
        object_type="person",
    )  # fmt: skip
    assert got.value == expected


USA_HEAD = "Who is the head of state of United States (also known as United States of America)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Joe Biden. Update: Donald Trump is president again now.", "correct"),
        ("Donald Trump. Update: Kamala Harris is the president now.", "incorrect"),
        ("Donald Trump. Update: Mike Pence was his vice president.", "correct"),
        ("Donald Trump. Update: I'm not sure whether Joe Biden ran again.", "correct"),
        ("Joe Biden. Update: I'm not sure whether Donald Trump won.", "incorrect"),
        ("Donald Trump. Update: no change since January.", "correct"),
        ("Donald Trump — update your notes if they still say Joe Biden.", "correct"),
    ],
)
def test_an_update_takes_back_only_for_a_candidate_given_now(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = verdict(rivals, reply, USA_HEAD, (("Donald J. Trump",),), predicate="head_of_state",
                  object_type="person")  # fmt: skip
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Canberra. Update: nothing has changed since 1913.", "correct"),
        ("Canberra. Update: no change in decades.", "correct"),
        ("Canberra. Update: Melbourne is still the second city.", "correct"),
        ("Melbourne. Update: Canberra hosts parliament, but Melbourne is the capital.",
         "incorrect"),
        ("Melbourne is the largest inland city, but Canberra is the capital.", "correct"),
        ("Canberra, but Sydney is the capital of New South Wales.", "correct"),
        ("Canberra. No doubt about it.", "correct"),
        ("Sydney. No doubt about it.", "incorrect"),
    ],
)  # fmt: skip
def test_updates_and_but_clauses_on_capitals(rivals: Rivals, reply: str, expected: str) -> None:
    assert capital_verdict(rivals, reply).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Przepraszam, to Canberra.", "correct"),
        ("Perdón, es Canberra.", "correct"),
        ("Canberra, ou plutôt Sydney.", "incorrect"),
        ("Canberra, o meglio Melbourne.", "incorrect"),
        ("Canberra, mejor dicho la ciudad de Canberra.", "correct"),
        ("Melbourne was the capital until 1927; now it's Canberra.", "correct"),
        ("Canberra was the capital until 2019; now it's Melbourne.", "incorrect"),
        ("Canberra; now it's home to about 460,000 people.", "correct"),
    ],
)
def test_regret_or_rather_and_now_its(rivals: Rivals, reply: str, expected: str) -> None:
    assert capital_verdict(rivals, reply).value == expected


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("W Bratysławie.", "What is the capital of Slovakia (also known as Slovak Republic)?",
         "Bratislava", "correct"),
        ("Kinszasie.", "What is the capital of DR Congo (also known as Democratic Republic of the "
         "Congo)?", "Kinshasa", "correct"),
        ("W Bratysławskiej.", "What is the capital of Slovakia (also known as Slovak Republic)?",
         "Bratislava", "incorrect"),
    ],
)  # fmt: skip
def test_a_last_letter_may_give_way_to_two(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    assert verdict(rivals, reply, question, ((answer,),)).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Joe Biden. Before that, Donald Trump was president.", "incorrect"),
        ("Donald Trump. Before that, Joe Biden was president.", "correct"),
    ],
)
def test_a_true_answer_told_of_in_former_time_is_no_answer(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = verdict(rivals, reply, USA_HEAD, (("Donald J. Trump",),), predicate="head_of_state",
                  object_type="person")  # fmt: skip
    assert got.value == expected


POLONIUM_WHERE = "Where was Polonium (also known as Po) discovered?"


@pytest.mark.parametrize(
    ("reply", "expected", "uncertain"),
    [
        ("In Paris.", "correct", True),
        ("Paris, at the School of Physics and Chemistry.", "correct", True),
        ("France (Paris).", "correct", False),
        ("In Berlin.", "incorrect", True),
        ("In Vienna.", "incorrect", True),
    ],
)
def test_a_city_says_in_which_country_something_happened(
    rivals: Rivals, reply: str, expected: str, uncertain: bool
) -> None:
    case = Case(POLONIUM_WHERE, "hand-written for tests", "elements", "location", WH,
                POLONIUM_WHERE, "", (("France",),), reply, "", False,
                predicate="discovery_location")  # fmt: skip
    checked = matcher_verdict(case, rivals)
    assert (checked.verdict.value, checked.uncertain) == (expected, uncertain)


def test_a_city_does_not_say_where_a_place_is(rivals: Rivals) -> None:
    got = verdict(rivals, "Munich.", "Where is Bayern located?", (("Germany",),), kg="places",
                  predicate="located_in", object_type="place")  # fmt: skip
    assert got is Verdict.INCORRECT


def head_verdict(rivals: Rivals, reply: str, country: str, person: str, role: str) -> Verdict:
    """The verdict of ``reply`` to "Who is the head of ``role`` of ``country``?"."""
    question = f"Who is the head of {role} of {country}?"
    return verdict(rivals, reply, question, ((person,),), predicate=f"head_of_{role}",
                   object_type="person")  # fmt: skip


QATAR = "Qatar (also known as State of Qatar)"
BAHRAIN = "Bahrain (also known as Kingdom of Bahrain)"
SAUDI = "Saudi Arabia (also known as Kingdom of Saudi Arabia)"
MBS = "Muhammad bin Salman bin Abd al-Aziz Al Saud"


@pytest.mark.parametrize(
    ("reply", "country", "person", "role", "expected"),
    [
        ("Sheikh Tamim bin Hamad Al Thani.", QATAR, "Tamim bin Hamad Al Thani", "state",
         "correct"),
        ("Emir Tamim ibn Hamad.", QATAR, "Tamim bin Hamad Al Thani", "state", "correct"),
        ("Hamad bin Khalifa.", QATAR, "Tamim bin Hamad Al Thani", "state", "incorrect"),
        ("Hamad bin Eisa.", BAHRAIN, "Hamad bin Isa Al Khalifa", "state", "correct"),
        ("Salman bin Hamad.", BAHRAIN, "Hamad bin Isa Al Khalifa", "state", "incorrect"),
        ("Crown Prince Mohammed bin Salman.", SAUDI, MBS, "government", "correct"),
        ("King Salman.", SAUDI, MBS, "government", "incorrect"),
        ("Salman bin Abdul Aziz.", SAUDI, "Salman bin Abd al-Aziz Al Saud", "state", "correct"),
        ("Sulaiman bin Abdulaziz.", SAUDI, "Salman bin Abd al-Aziz Al Saud", "state",
         "incorrect"),
    ],
)  # fmt: skip
def test_arabic_names_in_other_transliterations(
    rivals: Rivals, reply: str, country: str, person: str, role: str, expected: str
) -> None:
    assert head_verdict(rivals, reply, country, person, role).value == expected


SPAIN = "Spain (also known as Kingdom of Spain)"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Presidente Pedro Sánchez.", "correct"),
        ("Pedro Sánchez, the Presidente.", "correct"),
        ("Presidente Mariano Rajoy.", "incorrect"),
    ],
)
def test_a_title_in_another_language_belongs_to_no_name(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = head_verdict(rivals, reply, SPAIN, "Pedro Sanchez Perez-Castejon", "government")
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("England; it borders Dorset and Wiltshire.", "correct"),
        ("England, and it faces France across the Channel.", "correct"),
        ("Wales; it borders England.", "incorrect"),
        ("England; it is Wales.", "incorrect"),
    ],
)
def test_a_rival_a_pronoun_for_the_answer_acts_on_is_told_of(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = verdict(rivals, reply, "Where is Hampshire located?", (("England",),), kg="places",
                  predicate="located_in", object_type="place")  # fmt: skip
    assert got.value == expected


ITALY_NUMBERS = "What are the emergency phone numbers in Italy (also known as Italian Republic)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("One-one-two, one-one-three, one-one-five and one-one-eight.", "correct"),
        ("One-one-two and one-one-nine.", "incorrect"),
    ],
)
def test_numbers_in_words_listed_with_and(rivals: Rivals, reply: str, expected: str) -> None:
    answers = (("112",), ("113",), ("115",), ("118",))
    got = verdict(rivals, reply, ITALY_NUMBERS, answers, predicate="emergency_number",
                  object_type="emergency_number")  # fmt: skip
    assert got.value == expected


NEON = (
    "What is the state of matter of Neon (also known as Ne) at standard temperature and pressure?"
)


@pytest.mark.parametrize(
    ("reply", "expected"), [("Gaseous.", "correct"), ("Liquidous.", "incorrect")]
)
def test_the_adjective_of_a_state_of_matter(rivals: Rivals, reply: str, expected: str) -> None:
    got = verdict(rivals, reply, NEON, (("gas",),), kg="elements", predicate="phase_at_stp",
                  object_type="phase")  # fmt: skip
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Abuja. Hmm, or was it Lagos? Not sure now.", "incorrect"),
        ("Abuja, or was it Lagos? Abuja.", "correct"),
        ("—", "refused"),
        ("?", "unparseable"),
    ],
)
def test_another_candidate_asked_about_after_the_answer(
    rivals: Rivals, reply: str, expected: str
) -> None:
    question = "What is the capital of Nigeria (also known as Federal Republic of Nigeria)?"
    assert verdict(rivals, reply, question, (("Abuja",),)).value == expected


SOUTH_AFRICA = "What is the capital of South Africa (also known as Republic of South Africa)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Cape Town or Johannesburg, I believe.", "incorrect"),
        ("Pretoria or Cape Town.", "correct"),
        ("Pretoria, Cape Town and Bloemfontein.", "correct"),
    ],
)
def test_a_place_offered_with_or_among_several_answers(
    rivals: Rivals, reply: str, expected: str
) -> None:
    answers = (("Bloemfontein",), ("Cape Town",), ("Pretoria",))
    assert verdict(rivals, reply, SOUTH_AFRICA, answers).value == expected


SEYCHELLES = "Seychelles (also known as Republic of Seychelles)"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("I'm not sure — maybe Danny Faure, but don't quote me.", "incorrect"),
        ("I'm not sure, sorry.", "refused"),
        ("I don't know. Probably I should check.", "refused"),
    ],
)
def test_a_guess_naming_a_candidate_is_no_refusal(
    rivals: Rivals, reply: str, expected: str
) -> None:
    got = head_verdict(rivals, reply, SEYCHELLES, "Patrick Herminie", "state")
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Anwar, as most people call him.", "correct"),
        ("Anwar, as Mahathir calls him.", "incorrect"),
    ],
)
def test_a_given_name_and_how_people_call_him(rivals: Rivals, reply: str, expected: str) -> None:
    country = "Malaysia"
    assert head_verdict(rivals, reply, country, "Anwar Ibrahim", "government").value == expected


BERKELIUM = "Where was Berkelium (also known as Bk) discovered?"


@pytest.mark.parametrize(
    ("reply", "expected"), [("California.", "correct"), ("In Bavaria.", "incorrect")]
)
def test_a_region_of_the_one_true_country(rivals: Rivals, reply: str, expected: str) -> None:
    got = verdict(rivals, reply, BERKELIUM, (("United States",),), kg="elements",
                  predicate="discovery_location", object_type="location")  # fmt: skip
    assert got.value == expected


CANADA = "What is the capital of Canada (also known as CA)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Ottawa; Kingston was once the capital of the Province of Canada.", "correct"),
        ("Ottawa; Kingston was the original seat of government.", "correct"),
        ("Ottawa; Kingston was the first seat of the united province.", "correct"),
        ("Ottawa; Kingston is the capital.", "incorrect"),
        ("Ottawa; Kingston was the capital.", "incorrect"),
    ],
)
def test_a_rival_before_a_past_verb_and_a_word_of_former_time(
    rivals: Rivals, reply: str, expected: str
) -> None:
    assert verdict(rivals, reply, CANADA, (("Ottawa",),)).value == expected


BRAZIL_CAPITAL = "What is the capital of Brazil (also known as Federative Republic of Brazil)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("I'd say Rio de Janeiro, though many say Brasília.", "incorrect"),
        ("I'd say Brasília, though many say Rio.", "correct"),
        ("I think Brasília, although some say São Paulo.", "correct"),
    ],
)
def test_the_speakers_pick_then_what_others_say(rivals: Rivals, reply: str, expected: str) -> None:
    assert verdict(rivals, reply, BRAZIL_CAPITAL, (("Brasília",),)).value == expected


SWISS_CURRENCY = "Switzerland (also known as Swiss Confederation)"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Der Euro — nein, sorry, der Schweizer Franken.", "correct"),
        ("Der Schweizer Franken — nein, der Euro.", "incorrect"),
        ("Der Schweizer Franken.", "correct"),
    ],
)
def test_a_german_article_before_the_answer_taken_back_to(
    rivals: Rivals, reply: str, expected: str
) -> None:
    assert currency_verdict(rivals, reply, SWISS_CURRENCY, "Swiss Franc").value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The country of Texas.", "incorrect"),
        ("The Republic of Texas.", "incorrect"),
        ("The state of Texas.", "correct"),
        ("Texas.", "correct"),
    ],
)
def test_a_subdivision_called_a_country_is_no_answer(
    rivals: Rivals, reply: str, expected: str
) -> None:
    question = "Where is Harris County, Texas (also known as Harris County) located?"
    got = verdict(rivals, reply, question, (("Texas",),), kg="places", predicate="located_in",
                  object_type="place")  # fmt: skip
    assert got.value == expected
