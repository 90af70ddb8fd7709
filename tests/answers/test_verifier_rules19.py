"""Rules 19 of the Wh verifier: the answer is what a reply asserts as the answer to the question
asked; other names in clauses about other relations, other roles, what others believe, or
written as common words are told of. A rival in the clause of one told about; words in lower
case beside other words in lower case where the reply capitalises its answer; one word of a
longer name no table knows; a name in apposition to another role; candidates others are said to
believe, listed with "or"; a longer opening name, and a true answer others are said to believe
after it. Ordinary long-form replies written for these tests (not taken from the labelled sets),
right and wrong leads in several languages; some get another verdict under rules 18, the others
guard the edges of a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict

PLACES = NameTable(
    [("England", 1), ("Wales", 2), ("Devon", 3), ("South", 4), ("Western", 5), ("Island", 6),
     ("Italy", 7), ("Austria", 8), ("Russia", 9), ("Japan", 10), ("Islands", 11), ("Far", 12),
     ("Germany", 13), ("Scotland", 14)]
)  # fmt: skip


def place_verdict(reply: str, subject: str, answer: str) -> Verdict:
    """The verdict of ``reply`` to "Where is ``subject`` located?", ``answer`` true."""
    question = f"Where is {subject} located?"
    return check_wh(reply, [[answer]], PLACES, [subject], question=question).verdict


@pytest.mark.parametrize(
    ("reply", "subject", "answer", "verdict"),
    [
        ("In England — the south-western tip, beyond Devon.", "Cornwall", "England", "correct"),
        ("In England, in the far south-west, across the Tamar from Devon.", "Cornwall",
         "England", "correct"),
        ("In Japan — the northern island, across the strait from Sakhalin.", "Hokkaido",
         "Japan", "correct"),
        ("In Wales — the western tip.", "Cornwall", "England", "incorrect"),
        ("In England or wales.", "Cornwall", "England", "incorrect"),  # "or" offers it
        # a reply all in lower case gives no capitals to tell names from words by
        ("in england, the south western tip", "Cornwall", "England", "incorrect"),
    ],
)  # fmt: skip
def test_words_in_lower_case_are_no_names(
    reply: str, subject: str, answer: str, verdict: str
) -> None:
    assert place_verdict(reply, subject, answer) is Verdict(verdict)


@pytest.mark.parametrize(
    ("reply", "subject", "answer", "verdict"),
    [
        ("In Austria; South Tyrol, across the Brenner Pass, belongs to Italy.", "Tirol",
         "Austria", "correct"),
        ("Japan; Russia administers the nearby Kuril Islands, but Hokkaido itself is Japanese.",
         "Hokkaido", "Japan", "correct"),
        ("In Austria; East Tyrol is a separate part, and Italy's South Tyrol lies across the Alps.",
         "Tirol", "Austria", "correct"),
        ("In Austria, in the western Alps, bordering Germany and Italy.", "Tirol", "Austria",
         "correct"),
        ("England. Devon is next door, and Wales is across the Bristol Channel.", "Cornwall",
         "England", "correct"),
        ("Österreich; Südtirol gehört zu Italien.", "Tirol", "Österreich", "correct"),
        ("Japon ; la Russie administre les Kouriles voisines.", "Hokkaido", "Japon", "correct"),
        ("In Italy — South Tyrol, around Bolzano.", "Tirol", "Austria", "incorrect"),
        ("Russia; Japan claims it.", "Hokkaido", "Japan", "incorrect"),
        ("Japan, Russia.", "Hokkaido", "Japan", "incorrect"),
        ("Japan; South.", "Hokkaido", "Japan", "incorrect"),  # no longer name around it
    ],
)  # fmt: skip
def test_names_in_a_clause_about_another_place(
    reply: str, subject: str, answer: str, verdict: str
) -> None:
    assert place_verdict(reply, subject, answer) is Verdict(verdict)


HEADS = NameTable(
    [("Emperor Naruhito", 1), ("Sanae Takaichi", 2), ("Shigeru Ishiba", 3), ("Fumio Kishida", 4)]
)
HEAD = "Who is the head of state of Japan?"


def head_verdict(reply: str) -> Verdict:
    """The verdict of ``reply`` to `HEAD`, Emperor Naruhito true, the other `HEADS` rivals."""
    return check_wh(reply, [["Emperor Naruhito"]], HEADS, ["Japan"], question=HEAD).verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Emperor Naruhito is head of state; the prime minister, Sanae Takaichi, heads the "
         "government.", Verdict.CORRECT),
        ("Emperor Naruhito; the prime minister, Shigeru Ishiba, leads the cabinet.",
         Verdict.CORRECT),
        ("Emperor Naruhito; the head of state, Sanae Takaichi.", Verdict.INCORRECT),
        ("Emperor Naruhito, Sanae Takaichi.", Verdict.INCORRECT),
        ("Shigeru Ishiba is the head of state.", Verdict.INCORRECT),
    ],
)  # fmt: skip
def test_a_name_in_apposition_to_another_role(reply: str, verdict: Verdict) -> None:
    assert head_verdict(reply) is verdict


CITIES = NameTable(
    [("Rabat", 1), ("Casablanca", 2), ("Hanoi", 3), ("Ho Chi Minh City", 4), ("Fez", 5)]
)


def city_verdict(reply: str, country: str, capital: str) -> Verdict:
    """The verdict of ``reply`` to "What is the capital of ``country``?", ``capital`` true."""
    question = f"What is the capital of {country}?"
    return check_wh(reply, [[capital]], CITIES, [country], question=question).verdict


@pytest.mark.parametrize(
    ("reply", "country", "capital", "verdict"),
    [
        ("Rabat. Many people guess Casablanca, the largest city, or Marrakesh, but the royal "
         "palace and parliament are in Rabat.", "Morocco", "Rabat", "correct"),
        ("Rabat. Many tourists assume Casablanca or Marrakesh, but the king sits in Rabat.",
         "Morocco", "Rabat", "correct"),
        ("Rabat, though many guess Tangier or Meknes.", "Morocco", "Rabat", "correct"),
        ("Rabat, though I'd guess Tangier or Meknes.", "Morocco", "Rabat", "incorrect"),
        ("Rabat or Tangier.", "Morocco", "Rabat", "incorrect"),
        ("Casablanca. Many people guess Rabat, but Casablanca is bigger.", "Morocco", "Rabat",
         "incorrect"),
        ("Casablanca, though many say Rabat.", "Morocco", "Rabat", "incorrect"),
        ("Ho Chi Minh City; Hanoi is more of a northern hub.", "Vietnam", "Hanoi", "incorrect"),
        ("Hanoi; Ho Chi Minh City, in the south, is the economic hub.", "Vietnam", "Hanoi",
         "correct"),
        ("Hanoi. Many people guess Ho Chi Minh City, but the government sits in Hanoi.",
         "Vietnam", "Hanoi", "correct"),
        ("Ho Chi Minh City, although Hanoi is in the north.", "Vietnam", "Hanoi", "incorrect"),
    ],
)  # fmt: skip
def test_candidates_others_believe_and_longer_opening_names(
    reply: str, country: str, capital: str, verdict: str
) -> None:
    assert city_verdict(reply, country, capital) is Verdict(verdict)


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra. Many people guess Sydney or Melbourne, but parliament sits in Canberra.",
         Verdict.CORRECT),
        ("Canberra; the largest city, Sydney, is on the coast.", Verdict.CORRECT),
        ("Canberra; the capital, Sydney.", Verdict.INCORRECT),  # the question's relation
        ("Canberra — nie Sydney.", Verdict.CORRECT),
        ("Sydney. Many guess Canberra, but Sydney is older.", Verdict.INCORRECT),
    ],
)  # fmt: skip
def test_capital_replies_in_passing(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra, nie Sydney.", Verdict.CORRECT),  # Polish "not"
        ("Canberra, nicht Sydney.", Verdict.CORRECT),
        ("Canberra, non Sydney.", Verdict.CORRECT),
        ("Sydney, nie Canberra.", Verdict.INCORRECT),
        ("Sydney, nie, Canberra.", Verdict.CORRECT),  # "no" as a clause of its own corrects
        ("Nie wiem.", Verdict.REFUSED),
    ],
)
def test_not_in_more_languages(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney; Canberra is the right one.", Verdict.CORRECT),
        ("Sydney — Canberra is correct.", Verdict.CORRECT),
        ("Canberra; Sydney is the right one.", Verdict.INCORRECT),
        ("Sydney; Canberra is not the right one.", Verdict.INCORRECT),
        ("Canberra; Sydney is the largest.", Verdict.CORRECT),
        ("Canberra. Actually, I need to correct that: Sydney.", Verdict.INCORRECT),
        ("Sydney. Actually, I need to correct that: Canberra.", Verdict.CORRECT),
        ("Canberra, pardon, myslím Sydney.", Verdict.INCORRECT),
        ("Sydney, mislim Canberra.", Verdict.CORRECT),
        ("Canberra, myslím.", Verdict.CORRECT),  # nothing follows: no correction
    ],
)
def test_corrections(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


def test_bulgarian_i_mean_read_in_either_script() -> None:
    cities = NameTable([("Sofia", 1), ("Plovdiv", 2)])
    question = "What is the capital of Bulgaria?"

    def verdict(reply: str) -> Verdict:
        return check_wh(reply, [["Sofia"]], cities, ["Bulgaria"], question=question).verdict

    assert verdict("София — извинявай, имам предвид Пловдив.") is Verdict.INCORRECT
    assert verdict("Пловдив — извинявай, имам предвид София.") is Verdict.CORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("I'm blanking on that.", Verdict.REFUSED),
        ("Nemam pojma.", Verdict.REFUSED),
        ("Saya tidak pasti, maaf.", Verdict.REFUSED),
        ("Nemam pojma, možda Sydney.", Verdict.INCORRECT),  # a guess follows
        ("Saya tidak pasti, mungkin Sydney.", Verdict.INCORRECT),
        ("Canberra, tapi saya tidak pasti.", Verdict.CORRECT),
        ("I'm blanking — Canberra, I think.", Verdict.CORRECT),
    ],
)
def test_refusals(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


EMERGENCY = [["112"], ["15"], ["17"], ["18"]]


@pytest.mark.parametrize(
    ("reply", "answers", "verdict"),
    [
        ("Le cent douze.", EMERGENCY, Verdict.CORRECT),
        ("Le cent treize.", EMERGENCY, Verdict.INCORRECT),
        ("Il centododici.", [["112"], ["113"]], Verdict.CORRECT),
        ("Cento e noventa (polícia).", [["190"], ["192"]], Verdict.CORRECT),
        ("UTC +5h30.", [["UTC+05:30", "UTC+5:30"]], Verdict.CORRECT),
        ("UTC +5h.", [["UTC+05:30", "UTC+5:30"]], Verdict.INCORRECT),
    ],
)
def test_numbers_in_words_of_other_languages_and_offsets(
    reply: str, answers: list[list[str]], verdict: Verdict
) -> None:
    assert check_wh(reply, answers).verdict is verdict
