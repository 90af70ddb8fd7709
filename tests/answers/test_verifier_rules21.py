"""Rules 21 of the Wh verifier: a reply is judged by what it asserts as the answer. A reply in a
Brahmic script read with the vowels its consonants carry; a gloss right after a subdivision that
calls it a country, or names its own country as a qualifier ("the US state"); a name the reply
says the answer is or was called ("as it was once called"). Ordinary replies written for these
tests (not taken from the labelled sets), asked as a run asks them of the bundled KGs; some
change their verdict under rules 21, the others guard the rules' edges."""

from __future__ import annotations

import pytest
from verdict_support import bundled_verdict

from kglens_tui.answers.abugidas import brahmic_reading
from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.spelling import names_a_head
from kglens_tui.answers.verify import check_wh
from kglens_tui.bench.verifier_bench import Rivals

INDIA_HEAD = "Who is the head of government of India (also known as Republic of India)?"
INDIA_STATE = "Who is the head of state of India (also known as Republic of India)?"
COOK = "Where is Cook County, Georgia (also known as Cook County) located?"
HARRIS = "Where is Harris County, Texas (also known as Harris County) located?"
TURKEY = "What is the capital of Turkey (also known as Republic of Turkey)?"
JAPAN = "What is the capital of Japan?"
KAZAKHSTAN = "What is the capital of Kazakhstan (also known as Republic of Kazakhstan)?"


@pytest.mark.parametrize(
    ("text", "latin"),
    [
        ("नरेंद्र मोदी", "narendra modi"),  # a cluster keeps the last vowel
        ("राम", "ram"),  # Hindi drops it after one consonant
        ("भारत", "bharat"),
        ("हिन्दी", "hindi"),
        ("ශ්‍රී ජයවර්ධනපුර කෝට්ටේ", "sri jayavardhanapura kotte"),  # Sinhala keeps it
        ("Canberra", None),
    ],
)
def test_brahmic_scripts_are_read_with_their_inherent_vowels(text: str, latin: str | None) -> None:
    assert brahmic_reading(text) == latin


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("नरेंद्र मोदी", INDIA_HEAD, "Narendra Modi", "correct"),  # was incorrect
        ("नरेंद्र मोदी जी।", INDIA_HEAD, "Narendra Modi", "correct"),
        ("प्रधानमंत्री नरेंद्र मोदी हैं।", INDIA_HEAD, "Narendra Modi", "correct"),
        ("নরেন্দ্র মোদী", INDIA_HEAD, "Narendra Modi", "correct"),  # Bengali
        ("ਨਰਿੰਦਰ ਮੋਦੀ", INDIA_HEAD, "Narendra Modi", "correct"),  # Gurmukhi
        ("નરેન્દ્ર મોદી", INDIA_HEAD, "Narendra Modi", "correct"),  # Gujarati
        ("द्रौपदी मुर्मू", INDIA_STATE, "Droupadi Murmu", "correct"),
        ("राहुल गांधी", INDIA_HEAD, "Narendra Modi", "incorrect"),
        ("मनमोहन सिंह", INDIA_HEAD, "Narendra Modi", "incorrect"),
        ("नरेंद्र मोदी", INDIA_STATE, "Droupadi Murmu", "incorrect"),
        ("मुझे नहीं पता", INDIA_HEAD, "Narendra Modi", "refused"),
        ("Narendra Modi (नरेंद्र मोदी).", INDIA_HEAD, "Narendra Modi", "correct"),
    ],
)
def test_a_reply_in_a_brahmic_script(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    got = bundled_verdict(
        rivals, reply, question, ((answer,),), predicate="head_of_government",
        object_type="person",
    )  # fmt: skip
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "question", "state", "expected"),
    [
        ("Georgia (the US state).", COOK, "Georgia (state)", "correct"),  # was incorrect
        ("Georgia (U.S. state).", COOK, "Georgia (state)", "correct"),
        ("Georgia, the US state.", COOK, "Georgia (state)", "correct"),
        ("Georgia, a US state in the South.", COOK, "Georgia (state)", "correct"),
        ("Texas (the US state).", HARRIS, "Texas", "correct"),
        ("Texas, a US state.", HARRIS, "Texas", "correct"),
        ("Georgia (the country).", COOK, "Georgia (state)", "incorrect"),  # was correct
        ("Georgia, the country.", COOK, "Georgia (state)", "incorrect"),
        ("Georgia (country).", COOK, "Georgia (state)", "incorrect"),
        ("Georgia, a country in the Caucasus.", COOK, "Georgia (state)", "incorrect"),
        ("Florida (the US state).", COOK, "Georgia (state)", "incorrect"),
        ("Georgia — the state, in the US.", COOK, "Georgia (state)", "correct"),
        ("Georgia (the state, not the country).", COOK, "Georgia (state)", "correct"),
        ("In Georgia, USA.", COOK, "Georgia (state)", "correct"),
    ],
)
def test_a_gloss_right_after_a_subdivision(
    rivals: Rivals, reply: str, question: str, state: str, expected: str
) -> None:
    got = bundled_verdict(
        rivals, reply, question, ((state,),), kg="places", predicate="located_in",
        object_type="place",
    )  # fmt: skip
    assert got.value == expected


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("Ankara, or Angora as it was once called.", TURKEY, "Ankara", "correct"),  # was incorrect
        ("Ankara, or Angora as the Europeans called it.", TURKEY, "Ankara", "correct"),
        ("Ankara, or Angora as it was known in English.", TURKEY, "Ankara", "correct"),
        ("Tokyo, or Edo as it was called before 1868.", JAPAN, "Tokyo", "correct"),
        ("Astana, or Nur-Sultan as it was called from 2019 to 2022.", KAZAKHSTAN, "Astana",
         "correct"),
        ("Tokyo, as it is called today.", JAPAN, "Tokyo", "correct"),
        ("Ankara or Istanbul.", TURKEY, "Ankara", "incorrect"),
        ("Ankara, or Izmir as some say.", TURKEY, "Ankara", "incorrect"),
        ("Ankara, or Konya.", TURKEY, "Ankara", "incorrect"),
        ("Istanbul, or Angora as it was once called.", TURKEY, "Ankara", "incorrect"),
        ("Istanbul, as it was once called.", TURKEY, "Ankara", "incorrect"),
        ("Tokyo or Kyoto.", JAPAN, "Tokyo", "incorrect"),
        ("Kyoto, or Heian-kyō as it was once called.", JAPAN, "Tokyo", "incorrect"),
        ("Almaty, or Alma-Ata as it used to be called.", KAZAKHSTAN, "Astana", "incorrect"),
        ("Astana or Almaty.", KAZAKHSTAN, "Astana", "incorrect"),
    ],
)  # fmt: skip
def test_a_name_the_answer_is_or_was_called_is_no_second_answer(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    assert bundled_verdict(rivals, reply, question, ((answer,),)).value == expected


def test_a_curie_known_by_her_maiden_name(rivals: Rivals) -> None:
    reply = "Marie Curie, or Maria Skłodowska as she was known in Poland, with Pierre Curie."
    got = bundled_verdict(
        rivals, reply, "Who discovered Polonium (also known as Po)?",
        (("Marie Curie",), ("Pierre Curie",)), kg="elements", predicate="discovered_by",
        object_type="person",
    )  # fmt: skip
    assert got.value == "correct"


SPAIN = "Who is the head of government of Spain (also known as Kingdom of Spain)?"
SANCHEZ = "Pedro Sanchez Perez-Castejon"
GERMANY = "Who is the head of government of Germany (also known as Federal Republic of Germany)?"
ITALY = "Who is the head of government of Italy (also known as Italian Republic)?"
ISRAEL = "Who is the head of government of Israel (also known as State of Israel)?"


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("Presidente del Gobierno Pedro Sánchez.", SPAIN, SANCHEZ, "correct"),  # was incorrect
        ("President of the Government Pedro Sánchez.", SPAIN, SANCHEZ, "correct"),  # was incorrect
        ("Presidente de la República Pedro Sánchez.", SPAIN, SANCHEZ, "correct"),
        ("Presidente del Consiglio Giorgia Meloni.", ITALY, "Giorgia Meloni", "correct"),
        ("Chancellor of Germany Friedrich Merz.", GERMANY, "Friedrich Merz", "correct"),
        ("Pedro Sánchez.", SPAIN, SANCHEZ, "correct"),
        ("Presidente del Gobierno Mariano Rajoy.", SPAIN, SANCHEZ, "incorrect"),
        ("Ministra de Hacienda María Jesús Montero.", SPAIN, SANCHEZ, "incorrect"),
        ("Juan Pedro Sánchez.", SPAIN, SANCHEZ, "incorrect"),
        ("Begoña Sánchez.", SPAIN, SANCHEZ, "incorrect"),
        ("Chancellor of Germany Olaf Scholz.", GERMANY, "Friedrich Merz", "incorrect"),
        ("Presidente della Repubblica Sergio Mattarella.", ITALY, "Giorgia Meloni", "incorrect"),
        ("Sara Netanyahu.", ISRAEL, "Benyamin Netanyahu", "incorrect"),
        ("Prime Minister Netanyahu.", ISRAEL, "Benyamin Netanyahu", "correct"),
    ],
)
def test_an_office_a_title_names_stands_before_the_name(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    got = bundled_verdict(
        rivals, reply, question, ((answer,),), predicate="head_of_government",
        object_type="person",
    )  # fmt: skip
    assert got.value == expected


USA = "What is the capital of United States (also known as United States of America)?"
SWEDEN = "What is the highest point in Sweden (also known as Kingdom of Sweden)?"


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("Washington.", USA, "Washington, D.C.", "correct"),  # was incorrect
        ("**Washington**", USA, "Washington, D.C.", "correct"),
        ("Washington, DC.", USA, "Washington, D.C.", "correct"),
        ("Kebnekaise.", SWEDEN, "Kebnekaise South", "correct"),  # was incorrect
        ("Washington State.", USA, "Washington, D.C.", "incorrect"),
        ("Washington, the state.", USA, "Washington, D.C.", "incorrect"),
        ("Seattle, Washington.", USA, "Washington, D.C.", "incorrect"),
        ("New York.", USA, "Washington, D.C.", "incorrect"),
        ("Kebnekaise North.", SWEDEN, "Kebnekaise South", "incorrect"),
        ("Sarektjåkkå.", SWEDEN, "Kebnekaise South", "incorrect"),
    ],
)
def test_the_head_of_a_qualified_name_alone_names_it(
    rivals: Rivals, reply: str, question: str, answer: str, expected: str
) -> None:
    kind = {"predicate": "highest_point", "object_type": "mountain"} if question == SWEDEN else {}
    assert bundled_verdict(rivals, reply, question, ((answer,),), **kind).value == expected


def test_the_head_alone_is_uncertain(rivals: Rivals) -> None:
    table = rivals.table("country", "city")
    got = check_wh("Washington.", [["Washington, D.C."]], table, ["United States"], question=USA)
    assert got.verdict.value == "correct"
    assert got.uncertain


@pytest.mark.parametrize(
    ("rival", "names_it"),
    [
        ("Mount Kebnekaise East Ridge", False),  # the head starts a rival's name
        ("Mount Kebnekaise " + " ".join(["peak"] * 5_000), False),  # however long
        ("Mount Kebnekaiser", True),  # a longer word is no start
        ("Kebnekaise Mount", True),
    ],
)
def test_a_head_that_starts_a_rivals_name_names_nothing(rival: str, names_it: bool) -> None:
    rivals = NameTable([("Mount Kebnekaise South", 1), (rival, 2), ("Sarektjakka", 3)])
    got = names_a_head("Mount Kebnekaise.", [["Mount Kebnekaise South"]], rivals, ["Sweden"])
    assert got is names_it


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Astana... or was it Almaty?", "incorrect"),  # was correct
        ("Astana. Or was it Almaty?", "incorrect"),  # was correct
        ("Astana... or was it Almaty? One of those two.", "incorrect"),
        ("Astana. Hmm, or was it Almaty?", "incorrect"),
        ("Astana or maybe Almaty.", "incorrect"),
        ("Astana, or was it Almaty? Astana.", "correct"),
        ("Astana — or was it moved to Almaty? No, Astana.", "correct"),
        ("Astana, or is it Nur-Sultan now?", "correct"),
        ("Astana, or perhaps it was renamed.", "correct"),
    ],
)
def test_the_candidate_asked_about_follows_the_asking_words(
    rivals: Rivals, reply: str, expected: str
) -> None:
    assert bundled_verdict(rivals, reply, KAZAKHSTAN, (("Astana",),)).value == expected


POLONIUM = "Who discovered Polonium (also known as Po)?"
CURIES = (("Marie Curie",), ("Pierre Curie",))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Marie and Pierre.", "correct"),  # was incorrect
        ("Marie et Pierre.", "correct"),  # was incorrect
        ("Marie & Pierre", "correct"),
        ("Marie and Pierre Curie.", "correct"),
        ("Marie and Jacques.", "incorrect"),
        ("Pierre and Irène.", "incorrect"),
        ("Marie, Pierre and Henri.", "incorrect"),
        ("Marie and Marie.", "incorrect"),
    ],
)
def test_given_names_of_the_true_people_listed(rivals: Rivals, reply: str, expected: str) -> None:
    got = bundled_verdict(
        rivals, reply, POLONIUM, CURIES, kg="elements", predicate="discovered_by",
        object_type="person",
    )  # fmt: skip
    assert got.value == expected


CALCIUM = "In which group of the periodic table is Calcium?"
BISMUTH = "In which group of the periodic table is Bismuth?"


@pytest.mark.parametrize(
    ("reply", "question", "answer", "expected"),
    [
        ("Group 2A.", CALCIUM, ("group 2", "alkaline earth metals"), "correct"),  # was incorrect
        ("Group IIA.", CALCIUM, ("group 2", "alkaline earth metals"), "correct"),
        ("It's in group IIA.", CALCIUM, ("group 2", "alkaline earth metals"), "correct"),
        ("Group VA.", BISMUTH, ("group 15", "pnictogens"), "correct"),
        ("Group 5A.", BISMUTH, ("group 15", "pnictogens"), "correct"),
        ("Group 1A.", CALCIUM, ("group 2", "alkaline earth metals"), "incorrect"),
        ("Group 2B.", CALCIUM, ("group 2", "alkaline earth metals"), "incorrect"),
        ("Group VB.", BISMUTH, ("group 15", "pnictogens"), "incorrect"),
        ("Group VIIA.", CALCIUM, ("group 2", "alkaline earth metals"), "incorrect"),
    ],
)
def test_groups_in_cas_notation(
    rivals: Rivals, reply: str, question: str, answer: tuple[str, ...], expected: str
) -> None:
    got = bundled_verdict(
        rivals, reply, question, (answer,), kg="elements", predicate="group",
        object_type="group",
    )  # fmt: skip
    assert got.value == expected


SIERRA_LEONE = "What is the highest point in Sierra Leone (also known as Republic of Sierra Leone)?"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Nescio.", "refused"),  # was incorrect
        ("Non scio.", "refused"),
        ("Nescio, sed fortasse Bintimani.", "correct"),
    ],
)
def test_not_knowing_in_latin(rivals: Rivals, reply: str, expected: str) -> None:
    got = bundled_verdict(
        rivals, reply, SIERRA_LEONE, (("Loma Mansa", "Bintimani"),), predicate="highest_point",
        object_type="mountain",
    )  # fmt: skip
    assert got.value == expected


KOREA = "What are the emergency phone numbers in South Korea (also known as Republic of Korea)?"
CHINA = "What are the emergency phone numbers in China (also known as People's Republic of China)?"


@pytest.mark.parametrize(
    ("reply", "question", "answers", "expected"),
    [
        ("일일구", KOREA, (("112",), ("119",)), "correct"),  # was incorrect
        ("일일구입니다.", KOREA, (("112",), ("119",)), "correct"),
        ("일일이", KOREA, (("112",), ("119",)), "correct"),
        ("일일삼", KOREA, (("112",), ("119",)), "incorrect"),
        ("一一零", CHINA, (("110",), ("119",), ("120",)), "correct"),  # was incorrect
        ("一一四", CHINA, (("110",), ("119",), ("120",)), "incorrect"),
    ],
)
def test_digits_read_one_by_one_in_korean_and_chinese(
    rivals: Rivals, reply: str, question: str, answers: tuple[tuple[str, ...], ...], expected: str
) -> None:
    got = bundled_verdict(
        rivals,
        reply,
        question,
        answers,
        predicate="emergency_number",
        object_type="emergency_number",
    )
    assert got.value == expected


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("일일구번", "119번"),
        ("오사카", "오사카"),  # Osaka: no digits
        ("一百零八", "100零八"),  # 零 inside a numeral with units is left as it was
    ],
)
def test_korean_and_chinese_digit_runs(text: str, digits: str) -> None:
    assert spell_out(text) == digits
