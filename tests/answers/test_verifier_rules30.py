"""Rules 30 of the Wh verifier: corrections and refusals read by their shape where their words
are not in the tables: a spaced dash ends a clause as an em dash does; a candidate, a clause of
words the reading does not know and another candidate ends on the last (uncertain); a short
sentence of such words that names nothing, asked for names, is refused (uncertain); a
candidate taken back and "I'm not certain, so I won't guess" or "I don't know who holds it now"
is refused; declining to choose between named candidates is refused; a caveat's "but it was X"
guesses; a weak correction that ends on "so" and a name settles on that name. Every reply here
was written for these tests (none is taken from a labelled set), asked as a run asks it of the
bundled KGs; per group of rules, replies whose verdict rules 30 changes and at least thirty
ordinary replies, right and wrong, that keep the verdict and certainty they had under rules
28."""

from __future__ import annotations

from verdict_support import round_tests

from kglens_tui.answers.corrections import ENGLISH_FUNCTION_WORDS, unread_retraction
from kglens_tui.answers.mentions import tokenize
from kglens_tui.answers.refusals import an_unread_sentence, bare_not_knowing, guesses
from kglens_tui.kg.answer_names import english_name_words

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
ZONE = ("country", "time_zone", "time_zone")
CALLING = ("country", "calling_code", "calling_code")
HEAD_GOV = ("country", "head_of_government", "person")
LOCATED = ("places", "located_in", "place")
ZONES_OF = "Which standard time zones (UTC offsets, without daylight saving time) does {} use?"
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
CIV_CAP = ("What is the capital of Ivory Coast?", ("Yamoussoukro",), CAPITAL)
TZA_CAP = ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL)
IDN_CAP = ("What is the capital of Indonesia?", ("Jakarta",), CAPITAL)
BEN_CAP = ("What is the capital of Benin?", ("Porto-Novo",), CAPITAL)
BWA_CAP = ("What is the capital of Botswana?", ("Gaborone",), CAPITAL)
NGA_CAP = ("What is the capital of Nigeria?", ("Abuja",), CAPITAL)
EST_MONEY = ("What currency is used in Estonia?", (("Euro", "EUR"),), CURRENCY)
JPN_MONEY = ("What currency is used in Japan?", (("Japanese Yen", "JPY"),), CURRENCY)
PRT_CALL = ("What is the international calling code of Portugal?", (("+351", "00351"),), CALLING)
GRC_ZONE = (ZONES_OF.format("Greece"), (("UTC+02:00", "UTC+2"),), ZONE)
DEU_GOV = ("Who is the head of government of Germany?", ("Friedrich Merz",), HEAD_GOV)
LUX_GOV = ("Who is the head of government of Luxembourg?", ("Luc Frieden",), HEAD_GOV)
UKR_CAP = ("What is the capital of Ukraine?", ("Kyiv",), CAPITAL)
GRC_CAP = ("What is the capital of Greece?", ("Athens",), CAPITAL)
ECU_CAP = ("What is the capital of Ecuador?", ("Quito",), CAPITAL)
KAZ_GOV = ("Who is the head of government of Kazakhstan?", ("Olzhas Bektenov",), HEAD_GOV)


# Replies whose verdict or certainty rules 30 changes (the comment: what rules 28 gave)
CHANGED = [
    # moved from the rules-28 test, where rules 28 kept them correct
    ('Київ — вибачте, Харків.', UKR_CAP, 'incorrect', True),  # correct
    ('Αθήνα — συγγνώμη, Θεσσαλονίκη.', GRC_CAP, 'incorrect', True),  # correct
    ('Quito. Hmm, Cuenca.', ECU_CAP, 'incorrect', True),  # correct
    ('Canberra – nein, Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Canberra - sorry, Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Abuja – nein, Lagos.', NGA_CAP, 'incorrect', True),  # correct
    ('Canberra – ei, vabandust, Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Canberra — eh, maksudnya Sydney.', AUS_CAP, 'incorrect', True),  # correct
    ('Abuja — samahani, nilimaanisha Lagos.', NGA_CAP, 'incorrect', True),  # correct
    ('Abuja — erm, Lagos.', NGA_CAP, 'incorrect', True),  # correct
    ('Yamoussoukro — hmm, Abidjan.', CIV_CAP, 'incorrect', True),  # correct
    ('Euro — ei, vabandust, kroon.', EST_MONEY, 'incorrect', True),  # correct
    ('Yen — iie, sumimasen, dollar.', JPN_MONEY, 'incorrect', True),  # correct
    ('+34. Aliás, +351.', PRT_CALL, 'correct', True),  # incorrect
    ('UTC+1 — συγγνώμη, εννοώ UTC+2.', GRC_ZONE, 'correct', True),  # incorrect
    ('Jakarta — eh, maksudnya Nusantara.', IDN_CAP, 'incorrect', True),  # correct
    ('Dodoma — samahani, nilimaanisha Dar es Salaam.', TZA_CAP, 'incorrect', True),  # correct
    ('Cotonou. Wait — no, Porto-Novo. Actually, Cotonou is where the government sits, so Cotonou.', BEN_CAP, 'incorrect', False),  # correct
    ('Ech weess et net.', LUX_GOV, 'refused', True),  # incorrect
    ('Tsy haiko.', LUX_GOV, 'refused', True),  # incorrect
    ('Kāore au i te mōhio.', LUX_GOV, 'refused', True),  # incorrect
    ('Ech weess et net.', AUS_CAP, 'refused', True),  # incorrect uncertain
    ('Tsy haiko.', AUS_CAP, 'refused', True),  # incorrect uncertain
    ("Gaborone? Hmm, no. I'm not certain, so I won't guess.", BWA_CAP, 'refused', False),  # correct
    ("Francistown? Hmm, no. I'm not certain, so I won't guess.", BWA_CAP, 'refused', False),  # incorrect
    ("Bektenov? No — I really don't know who holds it now.", KAZ_GOV, 'refused', False),  # correct
    ("Smailov? No — I really don't know who holds it now.", KAZ_GOV, 'refused', False),  # incorrect
    ("I won't guess between Dodoma and Dar es Salaam.", TZA_CAP, 'refused', False),  # incorrect
    ("I won't guess between Canberra and Sydney.", AUS_CAP, 'refused', False),  # incorrect
    ("As an AI I don't have real-time data, but as of my last update it was Olaf Scholz.", DEU_GOV, 'incorrect', False),  # refused
]  # fmt: skip

KEPT = {
    'corrections': [
        ('Sydney – nein, Canberra.', AUS_CAP, 'correct', False),
        ('Sydney – no, Canberra.', AUS_CAP, 'correct', False),
        ('Sydney - sorry, Canberra.', AUS_CAP, 'correct', False),
        ('Lagos – nein, Abuja.', NGA_CAP, 'correct', False),
        ('Canberra – the capital since 1913.', AUS_CAP, 'correct', False),
        ('Canberra - not Sydney.', AUS_CAP, 'correct', False),
        ('Sydney — ei, vabandust, Canberra.', AUS_CAP, 'correct', False),
        ('Sydney — eh, maksudnya Canberra.', AUS_CAP, 'correct', False),
        ('Lagos — samahani, nilimaanisha Abuja.', NGA_CAP, 'correct', False),
        ('Lagos — erm, Abuja.', NGA_CAP, 'correct', False),
        ('Abidjan — hmm, Yamoussoukro.', CIV_CAP, 'correct', False),
        ('Kroon — ei, vabandust, euro.', EST_MONEY, 'correct', False),
        ('+351. Aliás, +34.', PRT_CALL, 'incorrect', False),
        ('UTC+2 — συγγνώμη, εννοώ UTC+3.', GRC_ZONE, 'incorrect', True),  # rules 34: a rival after a break
        ('Canberra, near Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, not Sydney.', AUS_CAP, 'correct', False),
        ('Canberra — officially, Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, though Sydney is bigger.', AUS_CAP, 'correct', False),
        ('Canberra. Largest city: Sydney.', AUS_CAP, 'correct', False),
        ('Canberra — oui, exactement.', AUS_CAP, 'correct', False),
        ('Canberra, ja, genau.', AUS_CAP, 'correct', False),
        ('Canberra, oui, Canberra.', AUS_CAP, 'correct', False),
        ('Canberra (nie Sydney).', AUS_CAP, 'correct', False),
        ('Canberra, nie Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, et Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, y Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, czyli stolica Australii.', AUS_CAP, 'correct', False),
        ('Canberra, o mejor dicho, el Territorio de la Capital Australiana.', AUS_CAP, 'correct', False),
        ('Canberra. People sometimes say Sydney.', AUS_CAP, 'correct', False),
        ('Canberra. Many people guess Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, often confused with Sydney.', AUS_CAP, 'correct', False),
        ('Canberra, bordering New South Wales.', AUS_CAP, 'correct', False),
        ('Canberra. Entschuldigung für die Kürze.', AUS_CAP, 'correct', False),
        ('Canberra, then Melbourne.', AUS_CAP, 'correct', False),
        ('Canberra, formerly Melbourne.', AUS_CAP, 'correct', False),
        ('Canberra; Sydney is the largest city.', AUS_CAP, 'correct', False),
        ('The euro, since 2011.', EST_MONEY, 'correct', False),
        ('Euro, previously kroon.', EST_MONEY, 'correct', False),
        ('Euro. Before 2011, kroon.', EST_MONEY, 'correct', False),
        ('Abuja, in the centre.', NGA_CAP, 'correct', False),
        ('Abuja — Lagos until 1991.', NGA_CAP, 'correct', False),
        ('Sydney. Wait — no, Canberra. Actually, Canberra is where parliament sits, so Canberra.', AUS_CAP, 'correct', False),
        ('Canberra. Wait — no, Sydney. Actually, Sydney is the biggest, so Sydney.', AUS_CAP, 'incorrect', False),
        ('Actually, Canberra is planned, so Canberra.', AUS_CAP, 'correct', False),
        ('Canberra. Actually, it was purpose-built, so quite new.', AUS_CAP, 'incorrect', True),
        ('Canberra, so not Sydney.', AUS_CAP, 'correct', False),
    ],
    'refusals and guesses': [
        ('Luc Frieden.', LUX_GOV, 'correct', False),
        ('Xavier Bettel.', LUX_GOV, 'incorrect', True),
        ('Frieden.', LUX_GOV, 'correct', False),
        ('Somewhere in the north.', AUS_CAP, 'incorrect', True),
        ('It is unknown.', AUS_CAP, 'refused', False),
        ('Nobody knows.', AUS_CAP, 'refused', False),
        ('Keine Ahnung.', LUX_GOV, 'refused', False),
        ('Je ne sais pas.', LUX_GOV, 'refused', False),
        ("I don't know.", LUX_GOV, 'refused', False),
        ('No idea.', AUS_CAP, 'refused', False),
        ('Canberra, je crois.', AUS_CAP, 'correct', False),
        ('Sydney, je crois.', AUS_CAP, 'incorrect', False),
        ('Dix-sept.', PRT_CALL, 'incorrect', True),
        ('Dólar estadounidense.', JPN_MONEY, 'incorrect', True),
        ('Yen japonés.', JPN_MONEY, 'correct', False),
        ('Bravo time.', GRC_ZONE, 'correct', False),
        ('The prime minister.', LUX_GOV, 'incorrect', False),
        ('Canberra is the capital.', AUS_CAP, 'correct', False),
        ('A city in the south.', AUS_CAP, 'incorrect', False),
        ('Probably Sydney.', AUS_CAP, 'incorrect', False),
        ("Bektenov? No — I really don't know who designed it.", KAZ_GOV, 'correct', False),
        ("Canberra. No, I'm not sure why people think it's Sydney.", AUS_CAP, 'correct', False),
        ("Canberra. No, I'm not sure of the exact year it became the capital.", AUS_CAP, 'correct', False),
        ("Sydney — no, I'm not sure. Canberra?", AUS_CAP, 'correct', False),
        ("Canberra — or Sydney? I'm not sure any more.", AUS_CAP, 'incorrect', False),
        ("I'd choose between Dodoma and Dar es Salaam: Dodoma.", TZA_CAP, 'correct', False),
        ("Hard to pick between Dodoma and Dar es Salaam, but it's Dodoma.", TZA_CAP, 'correct', False),
        ('Dodoma, between Dar es Salaam and Lake Victoria.', TZA_CAP, 'correct', True),
        ("As an AI I don't have real-time data, but as of my last update it was Friedrich Merz.", DEU_GOV, 'correct', False),
        ("As an AI I don't have real-time data, so I can't say.", DEU_GOV, 'refused', False),
        ("I can't be sure, but I don't think it's Olaf Scholz.", DEU_GOV, 'refused', False),
        ("I'm not sure, but it might be Friedrich Merz.", DEU_GOV, 'correct', False),
        ("I'm sorry, but I don't know who it is.", DEU_GOV, 'refused', False),
        ("I don't know, but it isn't Olaf Scholz.", DEU_GOV, 'refused', False),
        ('Friedrich Merz, but it was Olaf Scholz until 2025.', DEU_GOV, 'correct', False),
        ('Olaf Scholz, but it is Friedrich Merz now.', DEU_GOV, 'correct', False),
        ("I'm not certain, so I'd rather not guess.", DEU_GOV, 'refused', False),
        ("I'm not certain, so I won't guess.", DEU_GOV, 'refused', False),
        ("I don't know who holds it now.", DEU_GOV, 'refused', False),
        ("I don't know who designed it.", AUS_CAP, 'refused', False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_english_name_words_from_cldr() -> None:
    words = english_name_words()
    assert {"kroon", "euro", "germany", "french"} <= words
    assert not {"exactement", "haiko", "weess"} & words


def test_unread_retraction_needs_a_clause_of_unknown_words() -> None:
    def start(reply: str) -> int:
        return unread_retraction(tokenize(reply), [])

    assert start("Lagos — erm, Abuja.") == 2
    assert start("Lagos — samahani, nilimaanisha Dar es Salaam.") == 3
    assert start("Lagos, often written Abuja.") == 0  # English words, no clause of their own
    assert start("Lagos, near Abuja.") == 0
    assert start("Lagos, oder besser gesagt Abuja.") == 0  # a correction the other readings know
    assert start("Lagos — oui, exactement.") == 0  # no candidate ends it


def test_an_unread_sentence() -> None:
    def unread(reply: str, answers: tuple[tuple[str, ...], ...] = (("Canberra",),)) -> bool:
        return an_unread_sentence(tokenize(reply), answers, ENGLISH_FUNCTION_WORDS)

    assert unread("Tsy haiko.")
    assert unread("Kāore au i te mōhio.")
    assert not unread("Somewhere in the north.")
    assert not unread("Genève, je crois.")
    assert not unread("Tsy haiko.", (("+61",),))  # asked for a number
    assert not unread("Dólar estadounidense.")  # a near spelling of a name's word


def test_refusal_readings() -> None:
    assert bare_not_knowing("I'm not certain, so I won't guess.", frozenset())
    assert not bare_not_knowing("I'm not sure any more.", frozenset())
    assert bare_not_knowing("I really don't know who holds it now.", frozenset())
    assert not bare_not_knowing("I really don't know who designed it.", frozenset())
    assert guesses("As an AI I can't browse, but as of my last update it was Olaf Scholz.")
    assert not guesses("I can't be sure, but I don't think it's Lomé.")
