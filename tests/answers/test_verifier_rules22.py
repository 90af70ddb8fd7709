"""Rules 22 of the Wh verifier: a wrong verdict is worse than "uncertain". A reply whose answer the
rules cannot read (a name, sign, calendar or qualifier no source has) is marked uncertain, for the
judge or a person; and more readings a careful person applies (refusals, corrections and updates
in more words and languages, CAS groups alone, lists in lower case, counts, appositions, names of
former time). Ordinary replies written for these tests (not taken from the labelled sets), asked
as a run asks them of the bundled KGs; some change under rules 22, the others guard the rules'
edges and keep their verdicts and their certainty."""

from __future__ import annotations

import pytest
from verdict_support import checked

from kglens_tui.answers.numbers import with_area_code
from kglens_tui.answers.unknown import another_era, derived_from_subject, roles_only, unknown_sign
from kglens_tui.bench.verifier_bench import Rivals

CAPITAL = ("country", "capital", "city")
CURRENCY = ("country", "currency", "currency")
HEAD_OF_STATE = ("country", "head_of_state", "person")
HEAD_OF_GOVERNMENT = ("country", "head_of_government", "person")
CALLING = ("country", "calling_code", "calling_code")
YEAR = ("country", "independence_year", "year")
DEMONYM = ("country", "demonym", "demonym")
FORMER = ("country", "former_name", "former_name")
ZONE = ("country", "time_zone", "time_zone")
MOUNTAIN = ("country", "highest_point", "mountain")
LANGUAGE = ("country", "official_language", "language")
GOVERNMENT = ("country", "form_of_government", "form_of_government")
EMERGENCY = ("country", "emergency_number", "emergency_number")
CATEGORY = ("elements", "series", "element_category")
GROUP = ("elements", "group", "group")
PHASE = ("elements", "phase_at_stp", "phase")
DISCOVERER = ("elements", "discovered_by", "person")
DISCOVERED = ("elements", "discovery_year", "year")
PLACE = ("places", "located_in", "place")

AUSTRALIA = ("What is the capital of Australia?", ("Canberra",), CAPITAL)
NEW_ZEALAND = ("What is the capital of New Zealand?", ("Wellington",), CAPITAL)
MYANMAR = ("What is the capital of Myanmar?", ("Naypyidaw",), CAPITAL)
LESOTHO = (
    "What currency is used in Lesotho?",
    (("Lesotho Loti", "LSL"), ("South African Rand", "ZAR")),
    CURRENCY,
)
CANADA_MONEY = ("What currency is used in Canada?", (("Canadian Dollar", "CAD"),), CURRENCY)
RADIUM = ("Who discovered Radium?", ("Marie Curie", "Pierre Curie"), DISCOVERER)
ANDORRA = (
    "Who is the head of state of Andorra?",
    ("Emmanuel Macron", "Joan-Enric Vives i Sicilia"),
    HEAD_OF_STATE,
)
JAMAICA = ("What is the international calling code of Jamaica?", (("+1", "001"),), CALLING)
PAKISTAN = ("In what year did Pakistan gain independence?", ("1947",), YEAR)
IODINE = ("In which group of the periodic table is Iodine?", (("group 17", "halogens"),), GROUP)
CALCIUM = (
    "In which group of the periodic table is Calcium?",
    (("group 2", "alkaline earth metals"),),
    GROUP,
)
IODINE_KIND = ("To which category of elements does Iodine belong?", ("halogens",), CATEGORY)
MERCURY = (
    "What is the state of matter of Mercury at standard temperature and pressure?",
    ("liquid",),
    PHASE,
)
COOK = ("Where is Cook County, Illinois located?", ("Illinois",), PLACE)
TANZANIA = ("What is the highest point in Tanzania?", ("Kilimanjaro",), MOUNTAIN)
UK_HEAD = (
    "Who is the head of government of United Kingdom?",
    ("Keir Starmer",),
    HEAD_OF_GOVERNMENT,
)


# Aim A: replies the rules cannot read are uncertain (their verdict is the rules' best reading)
@pytest.mark.parametrize(
    ("reply", "asked", "verdict"),
    [
        # an answer phrase with a word no name of the type has, alone or with a gloss
        ("The greenback.", ("What currency is used in Ecuador?", (("US Dollar", "USD"),), CURRENCY), "incorrect"),
        ("The quid, as Londoners say.", ("What currency is used in United Kingdom?", (("Pound Sterling", "GBP"),), CURRENCY), "incorrect"),
        ("Edelgase.", ("To which category of elements does Argon belong?", ("noble gases",), CATEGORY), "incorrect"),
        ("Les gaz nobles.", ("To which category of elements does Xenon belong?", ("noble gases",), CATEGORY), "incorrect"),
        ("Tsingtao, as the Germans spelt it.", ("What is the capital of China?", ("Beijing",), CAPITAL), "incorrect"),
        # a sign no CLDR locale gives any currency
        ("₶", ("What currency is used in France?", (("Euro", "EUR"),), CURRENCY), "incorrect"),
        ("K$", ("What currency is used in Kiribati?", (("Australian Dollar", "AUD"),), CURRENCY), "incorrect"),
        # +1 with an area code no installed source tied to its territory ("+1 (876)" asked of
        # Jamaica, "+1 246." of Barbados): rules 28 read libphonenumber's (test_verifier_rules28)
        ("+1 212", JAMAICA, "correct"),  # the United States': the metadata does not list it
        # a year of another calendar
        ("1360 AH.", PAKISTAN, "incorrect"),  # rules 25 read "1366 AH." as 1947
        ("In 2490 of the Buddhist calendar.", PAKISTAN, "incorrect"),
        # a word made from the subject's name in its own language; only its unshown name
        ("Nederlander.", ("What is the demonym for people from Netherlands?", ("Dutch",), DEMONYM), "incorrect"),
        ("Nippon.", ("What was Japan formerly called?", ("Yamato",), FORMER), "incorrect"),
        # several holders named by their offices
        ("The French president and the Bishop of Urgell.", ANDORRA, "incorrect"),
        # a true answer told of after an opening the rules cannot place
        ("Ernest Rutherford, building on what Marie and Pierre Curie had found.", RADIUM, "correct"),
        ("Uhuru Peak, the summit of Kilimanjaro.", TANZANIA, "incorrect"),
    ],
)  # fmt: skip
def test_replies_the_rules_cannot_read_are_uncertain(
    rivals: Rivals, reply: str, asked: tuple, verdict: str
) -> None:
    got = checked(rivals, reply, asked)
    assert (got.verdict.value, got.uncertain) == (verdict, True)


@pytest.mark.parametrize(
    ("reply", "asked", "verdict"),
    [
        ("Sydney, I believe.", AUSTRALIA, "incorrect"),  # a guess with a hedge, not a gloss
        ("Dar es Salaam.", ("What is the capital of Tanzania?", ("Dodoma",), CAPITAL), "incorrect"),  # a place a reader knows
        ("Colombo, the largest city.", ("What is the capital of Sri Lanka?", ("Sri Jayawardenepura Kotte",), CAPITAL), "incorrect"),
        ("The Swedish franc.", ("What currency is used in Sweden?", (("Swedish Krona", "SEK"),), CURRENCY), "incorrect"),  # known words
        ("The Ecuadorian dollar.", ("What currency is used in Ecuador?", (("US Dollar", "USD"),), CURRENCY), "incorrect"),
        ("A republic.", ("What is the form of government of Norway?", ("constitutional monarchy",), GOVERNMENT), "incorrect"),
        ("Noble gases.", ("To which category of elements does Chlorine belong?", ("halogens",), CATEGORY), "incorrect"),
        ("In Ohio.", COOK, "incorrect"),
        ("A$", ("What currency is used in Papua New Guinea?", (("Papua New Guinean Kina", "PGK"),), CURRENCY), "incorrect"),  # AUD's sign
        ("€", ("What currency is used in Hungary?", (("Hungarian Forint", "HUF"),), CURRENCY), "incorrect"),
        ("+1", JAMAICA, "correct"),
        ("+44", JAMAICA, "incorrect"),
        ("1947.", PAKISTAN, "correct"),
        ("1948.", PAKISTAN, "incorrect"),
        ("In 1947 AD.", PAKISTAN, "correct"),
        ("Nigerian.", ("What is the demonym for people from Niger?", ("Nigerien",), DEMONYM), "incorrect"),  # the shown name
        ("Japanese.", ("What is the demonym for people from Japan?", ("Japanese",), DEMONYM), "correct"),
        ("Myanmar.", ("What was Myanmar formerly called?", ("Burma",), FORMER), "incorrect"),  # the shown name
        ("The King of Sweden.", ("Who is the head of state of Sweden?", ("Carl XVI Gustaf",), HEAD_OF_STATE), "incorrect"),
        ("President Emmanuel Macron and Bishop Joan-Enric Vives i Sicilia.", ANDORRA, "correct"),
        ("Marie Curie, with Pierre Curie.", RADIUM, "correct"),
        ("Becquerel... no, Marie and Pierre Curie.", RADIUM, "correct"),
        ("Lavoisier, though Priestley is often credited.", ("Who discovered Oxygen?", ("Carl Wilhelm Scheele", "Joseph Priestley"), DISCOVERER), "incorrect"),
        ("Kilimanjaro, near Moshi.", TANZANIA, "correct"),
        ("The Canadian dollar.", CANADA_MONEY, "correct"),
        ("Le dollar canadien.", CANADA_MONEY, "correct"),  # CLDR's French name
        ("The US dollar.", CANADA_MONEY, "incorrect"),
    ],
)  # fmt: skip
def test_ordinary_replies_stay_certain(
    rivals: Rivals, reply: str, asked: tuple, verdict: str
) -> None:
    got = checked(rivals, reply, asked)
    assert (got.verdict.value, got.uncertain) == (verdict, False)


# Aim B: readings that change verdicts (each was the other verdict under rules 21)
@pytest.mark.parametrize(
    ("reply", "asked", "verdict"),
    [
        ("idk", ("What are the emergency phone numbers in Kenya?", ("999", "112"), EMERGENCY), "refused"),
        ("IDK.", ("What is the highest point in Nigeria?", ("Chappal Waddi",), MOUNTAIN), "refused"),
        ("Mi o mo.", ("What is the highest point in Nigeria?", ("Chappal Waddi",), MOUNTAIN), "refused"),
        ("Emi ko mo.", ("What is the capital of Nigeria?", ("Abuja",), CAPITAL), "refused"),
        ("Amaghị m.", ("What is the capital of Nigeria?", ("Abuja",), CAPITAL), "refused"),
        ("Ottawa — although now that I think about it, it's Toronto.", ("What is the capital of Canada?", ("Ottawa",), CAPITAL), "incorrect"),
        ("Bilbao — barkatu, Madril esan nahi dut.", ("What is the capital of Spain?", ("Madrid",), CAPITAL), "correct"),
        ("Canberra — pardonu, mi volas diri Sydney.", AUSTRALIA, "incorrect"),
        ("Manila — ay, hindi, Cebu pala.", ("What is the capital of Philippines?", ("Manila",), CAPITAL), "incorrect"),
        ("Nairobi. Update: it moved to Mombasa last year.", ("What is the capital of Kenya?", ("Nairobi",), CAPITAL), "incorrect"),
        ("Bern. Update: it moved to Zurich in 2020.", ("What is the capital of Switzerland?", ("Bern",), CAPITAL), "incorrect"),
        ("VIIA", IODINE, "correct"),
        ("2A", CALCIUM, "correct"),
        ("UTC+12¾", ("Which standard time zones (UTC offsets, without daylight saving time) does New Zealand use?", (("UTC+12:00", "UTC+12"), ("UTC+12:45",)), ZONE), "correct"),
        ("The loti, the rand and the kwacha.", LESOTHO, "incorrect"),
        ("The lilangeni, the rand and the naira.", ("What currency is used in Eswatini?", (("Swazi Lilangeni", "SZL"), ("South African Rand", "ZAR")), CURRENCY), "incorrect"),
        ("Two, the loti and the rand.", LESOTHO, "correct"),
        ("Kilimanjaro; Mount Kenya, second-highest in Africa, is across the border.", TANZANIA, "correct"),
        ("The inti, which replaced the old sol in 1985.", ("What currency is used in Peru?", (("Peruvian Sol", "PEN"),), CURRENCY), "incorrect"),
    ],
)  # fmt: skip
def test_readings_of_rules22_change_these_verdicts(
    rivals: Rivals, reply: str, asked: tuple, verdict: str
) -> None:
    assert checked(rivals, reply, asked).verdict.value == verdict


# Aim B's guard: ordinary replies near the new readings, on the three bundled KGs and in several
# languages, right and wrong leads, asides and hedges, that keep their rules 21 verdicts
@pytest.mark.parametrize(
    ("reply", "asked", "verdict"),
    [
        ("Canberra, idk why people say Sydney.", AUSTRALIA, "correct"),
        ("idk, maybe Sydney?", AUSTRALIA, "incorrect"),
        ("Hindi and English.", ("What are the official languages of India?", ("Hindi", "English"), LANGUAGE), "correct"),
        ("English, Hindi.", ("What are the official languages of India?", ("Hindi", "English"), LANGUAGE), "correct"),
        ("Now that I think of it, Canberra.", AUSTRALIA, "correct"),
        ("Canberra — now that I think of it, it was chosen in 1908.", AUSTRALIA, "correct"),
        ("Rabat. Update: it moved its parliament building in 2019.", ("What is the capital of Morocco?", ("Rabat",), CAPITAL), "correct"),
        ("Rabat; it moved there from Fez in 1912.", ("What is the capital of Morocco?", ("Rabat",), CAPITAL), "correct"),
        ("Canberra. Update: it is still Canberra.", AUSTRALIA, "correct"),
        ("Group 7A.", IODINE, "correct"),
        ("7", IODINE, "incorrect"),
        ("3A", CALCIUM, "incorrect"),
        ("UTC+5½", ("Which standard time zones (UTC offsets, without daylight saving time) does India use?", (("UTC+05:30", "UTC+5:30"),), ZONE), "correct"),
        ("The loti and the rand.", LESOTHO, "correct"),
        ("The rand and the loti, both at par.", LESOTHO, "correct"),
        ("The loti and the rand and the euro.", LESOTHO, "incorrect"),
        ("Two: the loti and the rand.", LESOTHO, "correct"),
        ("Canberra; Sydney, the largest city, is on the coast.", AUSTRALIA, "correct"),
        ("Sydney, the largest city, is the capital.", AUSTRALIA, "incorrect"),
        ("Mount Kenya.", TANZANIA, "incorrect"),
        ("Kilimanjaro, I think, at 5,895 m.", TANZANIA, "correct"),
        ("Ankara; the old capital was Istanbul.", ("What is the capital of Turkey?", ("Ankara",), CAPITAL), "correct"),
        ("Naypyidaw, which replaced the former capital Yangon.", MYANMAR, "correct"),
        ("Yangon, the former capital; Naypyidaw now.", MYANMAR, "correct"),
        ("The old capital, Kyoto; Tokyo today.", ("What is the capital of Japan?", ("Tokyo",), CAPITAL), "correct"),
        ("The euro, since 2002; before it the franc.", ("What currency is used in France?", (("Euro", "EUR"),), CURRENCY), "correct"),
        ("The franc, until the euro replaced it.", ("What currency is used in France?", (("Euro", "EUR"),), CURRENCY), "correct"),
        ("The Canadian dollar, the loonie.", CANADA_MONEY, "correct"),
        ("Ja, Canberra.", AUSTRALIA, "correct"),
        ("Nie wiem.", AUSTRALIA, "refused"),
        ("Canberra, pas Sydney.", AUSTRALIA, "correct"),
        ("Sydney — não, Canberra.", AUSTRALIA, "correct"),
        ("Je pense que c'est Canberra.", AUSTRALIA, "correct"),
        ("Wellington ist die Hauptstadt.", NEW_ZEALAND, "correct"),
        ("Auckland, creo.", NEW_ZEALAND, "incorrect"),
        ("In Illinois, near Chicago.", COOK, "correct"),
        ("Illinois — it's in the Midwest.", COOK, "correct"),
        ("Illinois, not Indiana.", COOK, "correct"),
        ("Ohio, I think.", COOK, "incorrect"),
        ("Indiana.", ("Where is Lake County, Indiana located?", ("Indiana",), PLACE), "correct"),
        ("Gas.", ("What is the state of matter of Neon at standard temperature and pressure?", ("gas",), PHASE), "correct"),
        ("Liquid, like bromine.", MERCURY, "correct"),
        ("Solid, I believe.", MERCURY, "incorrect"),
        ("Halogens, like chlorine.", IODINE_KIND, "correct"),
        ("Noble gases — sorry, halogens.", IODINE_KIND, "correct"),
        ("Halogens — pardonu, noble gases.", IODINE_KIND, "incorrect"),
        ("Marie and Pierre Curie, in 1898.", RADIUM, "correct"),
        ("Becquerel.", RADIUM, "incorrect"),
        ("1898, by the Curies.", ("In what year was Radium discovered?", ("1898",), DISCOVERED), "correct"),
        ("1807, when Davy isolated it.", ("In what year was Sodium discovered?", ("1807",), DISCOVERED), "correct"),
        ("Mount Everest, on the Nepal–China border.", ("What is the highest point in Nepal?", ("Mount Everest",), MOUNTAIN), "correct"),
        ("K2, the second-highest mountain on Earth.", ("What is the highest point in Pakistan?", (("K2", "Mt. Godwin-Austen"),), MOUNTAIN), "correct"),
        ("+1", ("What is the international calling code of Canada?", (("+1", "001"),), CALLING), "correct"),
        ("+44, I think.", ("What is the international calling code of United Kingdom?", (("+44", "0044"),), CALLING), "correct"),
        ("Emmanuel Macron and the Bishop of Urgell, Joan-Enric Vives i Sicilia.", ANDORRA, "correct"),
        ("King Charles III.", ("Who is the head of state of United Kingdom?", ("Charles III",), HEAD_OF_STATE), "correct"),
        ("Keir Starmer, the prime minister.", UK_HEAD, "correct"),
        ("Rishi Sunak — no, Keir Starmer.", UK_HEAD, "correct"),
    ],
)  # fmt: skip
def test_ordinary_replies_keep_their_verdicts(
    rivals: Rivals, reply: str, asked: tuple, verdict: str
) -> None:
    assert checked(rivals, reply, asked).verdict.value == verdict


@pytest.mark.parametrize(
    ("text", "expected"),
    [("+1 (868)", True), ("+1 868", True), ("+1-868", True), ("+1", False), ("+1868", False),
     ("+44 20", False), ("+1-8680", False)],
)  # fmt: skip
def test_an_area_code_after_plus_one(text: str, expected: bool) -> None:
    assert with_area_code(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("L$", True), ("₶", True), ("A$", False), ("$", False), ("€.", False), ("Rs 5 000", False),
     ("L", False)],
)  # fmt: skip
def test_a_sign_no_locale_gives_a_currency(text: str, expected: bool) -> None:
    assert unknown_sign(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("BE 2491", True), ("1366 AH", True), ("Juche 34", True), ("1298 in the Solar Hijri calendar", True),
     ("1947", False), ("In 1947 AD.", False), ("The calendar year.", False)],
)  # fmt: skip
def test_a_year_of_another_calendar(text: str, expected: bool) -> None:
    from kglens_tui.answers.words import question_tokens

    assert (
        another_era(text, question_tokens("In what year did Sri Lanka gain independence?"))
        is expected
    )


@pytest.mark.parametrize(
    ("text", "unshown", "expected"),
    [("Österreicher", ("Österreich",), True), ("日本人", ("日本",), True),
     ("Brasileiro (ou brasileira).", ("Brasil",), True), ("Österreich", ("Österreich",), False),
     ("ZWL", ("ZW",), False), ("Die Österreicher", ("Österreich",), False)],
)  # fmt: skip
def test_a_word_made_from_an_unshown_name(
    text: str, unshown: tuple[str, ...], expected: bool
) -> None:
    assert derived_from_subject(text, unshown) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("The two co-princes: the French president and the Bishop of Urgell.", True),
     ("The King and the Prime Minister.", True), ("The King of Sweden.", False),
     ("President Joe Biden and Vice President Kamala Harris.", False),
     ("Crown Prince Mohammed bin Salman and King Salman.", False)],
)  # fmt: skip
def test_holders_named_by_their_offices(text: str, expected: bool) -> None:
    assert roles_only(text) is expected
