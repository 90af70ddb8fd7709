"""Rules 26 of the Wh verifier: readings a careful person applies that rules 25 lacked, and
uncertain where the rules cannot decide. Every reply here was written for these tests (none is
taken from a labelled set), asked as a run asks it of the bundled KGs; per rule, replies whose
verdict rules 26 changes and at least thirty ordinary replies, right and wrong, that keep the
verdict and certainty they had under rules 25."""

from __future__ import annotations

import pytest
from verdict_support import round_tests

from kglens_tui.answers.correction_words import UNTRANSLITERATED
from kglens_tui.answers.mentions import Mention, tokenize
from kglens_tui.answers.passing import answered_aside
from kglens_tui.answers.reply_forms import transliterated
from kglens_tui.bench.verifier_bench import Rivals

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
EMERGENCY = ("country", "emergency_number", "emergency_number")
DISCOVERER = ("elements", "discovered_by", "person")
LANGUAGES = ("country", "official_language", "language")
LOCATED = ("places", "located_in", "place")
AUS = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
TUR = ("What is the capital of Turkey?", ("Ankara",), CAPITAL)
BOL = ("What is the capital of Bolivia?", ("Sucre",), CAPITAL)
CHE = ("What is the capital of Switzerland?", ("Bern",), CAPITAL)
UKR = ("What is the capital of Ukraine?", ("Kyiv",), CAPITAL)
RUS = ("What is the capital of Russia?", ("Moscow",), CAPITAL)
TZA = ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL)
CAN = ("What is the capital of Canada?", ("Ottawa",), CAPITAL)
NGA = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
MMR = ("What is the capital of Myanmar?", ("Naypyidaw",), CAPITAL)
VN_MONEY = (
    "What currency is used in Vietnam?",
    (("Vietnamese Dong", "VND", "Vietnamese đồng"),),
    CURRENCY,
)
CAN_MONEY = ("What currency is used in Canada?", (("Canadian Dollar", "CAD"),), CURRENCY)
ECU_MONEY = (
    "What currency is used in Ecuador?",
    (("US Dollar", "USD", "United States dollar"),),
    CURRENCY,
)
JP_MONEY = ("What currency is used in Japan?", (("Japanese Yen", "JPY"),), CURRENCY)
UK_SOS = ("What are the emergency phone numbers in United Kingdom?", ("112", "999"), EMERGENCY)
AUS_SOS = ("What are the emergency phone numbers in Australia?", ("000", "112"), EMERGENCY)
LITHIUM = ("Who discovered Lithium?", ("Johann Arfwedson",), DISCOVERER)
OXYGEN = ("Who discovered Oxygen?", (("Carl Wilhelm Scheele",), ("Joseph Priestley",)), DISCOVERER)
HEMPHILL = ("Where is Hemphill County located?", ("Texas",), LOCATED)


@pytest.fixture(scope="module")
def rivals() -> Rivals:
    """The names of the bundled KGs' entities, loaded once."""
    return Rivals(["country", "elements", "places"])


# Replies whose verdict or certainty rules 26 changes (the comment: what rules 25 gave)
CHANGED = [
    ("Ankara. Hold on, Istanbul.", TUR, "incorrect", True),  # correct
    ("Ankara. Let's say Istanbul.", TUR, "incorrect", True),  # correct
    ("Istanbul. Let's say Ankara.", TUR, "correct", False),  # incorrect
    ("Sucre or La Paz — I'd go with La Paz in the end.", BOL, "incorrect", True),  # incorrect
    ("Sucre, La Paz — I'll go with La Paz after all.", BOL, "incorrect", True),  # correct
    ("Bern. EDIT: actually Zürich, the largest city.", CHE, "incorrect", True),  # correct
    ("Canberra. Edit: Sydney, the largest city.", AUS, "incorrect", True),  # correct
    ("Đồng... perdón, quise decir el riel.", VN_MONEY, "incorrect", False),  # correct
    ("Đồng... je voulais dire le riel.", VN_MONEY, "incorrect", False),  # correct
    ("The yen. I meant the won.", JP_MONEY, "incorrect", False),  # correct
    ("Київ, ой, то есть Харків.", UKR, "incorrect", True),  # correct
    ("Москва, то есть Петербург.", RUS, "incorrect", True),  # correct
    ("The Canadian dollar (edit: I briefly typed USD above, ignore that).", CAN_MONEY, "correct", False),  # incorrect
    ("Treble nine.", UK_SOS, "correct", False),  # incorrect
    ("Texas, along the Oklahoma line.", HEMPHILL, "correct", False),  # incorrect
    ("Texas, along the New Mexico border.", HEMPHILL, "correct", False),  # incorrect
    ("The sucre, though US dollars circulate widely.", ECU_MONEY, "incorrect", True),  # correct
    ("Berzelius, in whose lab Arfwedson was a student.", LITHIUM, "incorrect", True),  # correct
    ("Sydney is the capital; Canberra is just where parliament sits.", AUS, "incorrect", True),  # correct
    ("Dar es Salaam — Dodoma is the capital in name only.", TZA, "incorrect", True),  # correct
]  # fmt: skip

KEPT = {
    "corrections": [
        ("La Paz, Sucre, hmm — I'd go with Sucre in the end.", BOL, "correct", False),
        ("Zürich. Edit: actually Bern, the federal city.", CHE, "correct", False),
        ("Canberra. I first wrote Sydney, disregard that.", AUS, "correct", False),
        ("Ankara.", TUR, "correct", False),
        ("Istanbul.", TUR, "incorrect", True),
        ("Ankara. Hold on, it has been the capital since 1923.", TUR, "correct", False),
        ("Ankara — hold on to that.", TUR, "correct", False),
        ("Istanbul. Hang on — Ankara.", TUR, "correct", False),
        ("Let's say Ankara.", TUR, "correct", False),
        ("Ankara, let's say, since 1923.", TUR, "correct", False),
        ("Ankara. Let's say it moved from Istanbul in 1923.", TUR, "correct", False),
        ("La Paz, Sucre — I'd go with Sucre.", BOL, "correct", False),
        ("Sucre in the end.", BOL, "correct", False),
        ("Sucre, after all.", BOL, "correct", False),
        ("I'd go with Sucre, finally.", BOL, "correct", False),
        ("Sucre. La Paz is the seat of government.", BOL, "correct", False),
        ("Bern. EDIT: the federal city, not a capital by law.", CHE, "correct", False),
        ("Bern. Edit: Bern, the federal city.", CHE, "correct", False),
        ("Zürich. Correction: Bern.", CHE, "correct", False),
        ("Bern, the federal city.", CHE, "correct", False),
        ("Bern. Zürich is the largest city.", CHE, "correct", False),
        ("Canberra; I meant the city, not the territory.", AUS, "correct", False),
        ("Canberra — I meant the capital.", AUS, "correct", False),
        ("The dong. I meant the currency.", VN_MONEY, "correct", False),
        ("Đồng, quise decir, el đồng vietnamita.", VN_MONEY, "correct", False),
        ("Sydney — I meant Canberra.", AUS, "correct", False),
        ("Sydney. Strike that: Canberra.", AUS, "correct", False),
        ("Київ.", UKR, "correct", False),
        ("Київ, то есть столица Украины.", UKR, "correct", False),
        ("Харків, то есть Київ.", UKR, "correct", False),
        ("Kyiv, or Kiev.", UKR, "correct", False),
        ("Москва.", RUS, "correct", False),
        ("Петербург, нет, Москва.", RUS, "correct", False),
        ("The Canadian dollar, ignore the US dollar.", CAN_MONEY, "incorrect", False),
        ("The US dollar, ignore that.", CAN_MONEY, "incorrect", False),
        ("The Canadian dollar. Ignore that the US dollar is widely accepted.", CAN_MONEY, "correct", True),
        ("The Canadian dollar.", CAN_MONEY, "correct", False),
        ("Sydney, ignore that, Canberra.", AUS, "correct", False),
    ],
    "aside": [
        ("Lagos, though Abuja is the seat of government.", NGA, "incorrect", False),
        ("Yangon, where the junta built Naypyidaw nearby.", MMR, "incorrect", False),
        ("Canberra, though Sydney is larger.", AUS, "correct", False),
        ("Canberra, where parliament sits.", AUS, "correct", False),
        ("Canberra is the capital; Sydney is just the largest city.", AUS, "correct", False),
        ("Sydney.", AUS, "incorrect", True),
        ("Canberra, in whose suburbs many public servants live.", AUS, "correct", False),
        ("The capital is Canberra, though many guess Sydney.", AUS, "correct", False),
        ("Sydney, though it isn't the capital; Canberra is.", AUS, "incorrect", False),
        ("Although Sydney is bigger, Canberra is the capital.", AUS, "correct", False),
        ("Dodoma, though Dar es Salaam is bigger.", TZA, "correct", False),
        ("Dodoma is the capital; Dar es Salaam is the largest city.", TZA, "correct", False),
        ("Dodoma — the capital in law since 1996.", TZA, "correct", False),
        ("Dodoma.", TZA, "correct", False),
        ("The US dollar, though the sucre was used until 2000.", ECU_MONEY, "correct", False),
        ("The US dollar.", ECU_MONEY, "correct", False),
        ("The sucre.", ECU_MONEY, "incorrect", False),
        ("US dollars, which replaced the sucre.", ECU_MONEY, "correct", False),
        ("Arfwedson, in Berzelius's lab.", LITHIUM, "correct", False),
        ("Johann Arfwedson, a student of Berzelius.", LITHIUM, "correct", False),
        ("Arfwedson, whose teacher was Berzelius.", LITHIUM, "correct", False),
        ("Berzelius.", LITHIUM, "incorrect", True),
        ("Scheele and Priestley, independently.", OXYGEN, "correct", False),
        ("Priestley, though Scheele found it first.", OXYGEN, "correct", False),
        ("Abuja, though Lagos is bigger.", NGA, "correct", False),
        ("Abuja.", NGA, "correct", False),
        ("Lagos.", NGA, "incorrect", True),
        ("The capital, Abuja, replaced Lagos in 1991.", NGA, "correct", False),
        ("Naypyidaw, which replaced Yangon in 2005.", MMR, "correct", False),
        ("Naypyidaw, though Yangon is larger.", MMR, "correct", False),
        ("Yangon.", MMR, "incorrect", True),
        ("Ottawa, though Toronto is the largest city.", CAN, "correct", False),
        ("Ottawa, where Parliament Hill is.", CAN, "correct", False),
        ("Toronto.", CAN, "incorrect", True),
    ],
    "numbers_and_passing": [
        ("Treble nine or 112.", UK_SOS, "correct", False),
        ("Treble nine.", AUS_SOS, "incorrect", False),
        ("999.", UK_SOS, "correct", False),
        ("Nine nine nine.", UK_SOS, "correct", False),
        ("Triple nine.", UK_SOS, "correct", False),
        ("Double one two.", UK_SOS, "correct", False),
        ("999 or 112.", UK_SOS, "correct", False),
        ("911.", UK_SOS, "incorrect", False),
        ("Triple zero.", AUS_SOS, "correct", False),
        ("000.", AUS_SOS, "correct", False),
        ("Triple nine.", AUS_SOS, "incorrect", False),
        ("Nine-one-one.", AUS_SOS, "incorrect", False),
        ("Treble.", UK_SOS, "incorrect", True),
        ("Three nines.", UK_SOS, "incorrect", False),
        ("Texas.", HEMPHILL, "correct", False),
        ("Oklahoma.", HEMPHILL, "incorrect", False),
        ("Texas, near Oklahoma.", HEMPHILL, "correct", False),
        ("Texas, in the Panhandle.", HEMPHILL, "correct", False),
        ("Oklahoma, along the Texas line.", HEMPHILL, "incorrect", False),
        ("Texas, bordering Oklahoma.", HEMPHILL, "correct", False),
        ("In Texas, next to Oklahoma.", HEMPHILL, "correct", False),
        ("Texas or Oklahoma.", HEMPHILL, "incorrect", False),
        ("Oklahoma, I think.", HEMPHILL, "incorrect", False),
        ("Canberra, along Lake Burley Griffin.", AUS, "correct", False),
        ("Sydney, along the harbour.", AUS, "incorrect", False),
        ("Canberra, not far along the road from Sydney.", AUS, "correct", False),
        ("Canberra and Sydney.", AUS, "incorrect", False),
        ("Ankara.", TUR, "correct", False),
        ("The US dollar.", CAN_MONEY, "incorrect", False),
        ("The Canadian dollar, alongside the US dollar.", CAN_MONEY, "correct", False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_transliteration_keeps_correction_words() -> None:
    assert transliterated("Київ, то есть Харків.") == "Kiiv, то есть Kharkiv."
    assert transliterated("Москва") == "Moskva"
    assert {"то", "ест"} <= UNTRANSLITERATED


def test_answered_aside() -> None:
    relation = frozenset({"capital"})

    def aside(reply: str, true: str) -> tuple[bool, bool]:
        tokens = tokenize(reply)
        k = next(i for i, t in enumerate(tokens) if t.raw == true)
        return answered_aside(tokens, [Mention(k, k + 1, -1, False)], [], relation, ())

    assert aside("Lagos, though Abuja is bigger.", "Abuja") == (True, True)
    assert aside("Abuja, though Lagos is bigger.", "Abuja") == (False, False)
    assert aside("Sydney is the capital; Canberra is just the seat.", "Canberra") == (True, True)
    assert aside("Sydney is big; Canberra is just the seat.", "Canberra") == (False, False)
    assert aside("I think, though Canberra is right.", "Canberra") == (False, False)
