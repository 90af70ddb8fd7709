"""Rules 29 of the Wh verifier: short forms a reader knows a true answer by, from maintained
sources and the KG's own names (a US state by its AP style abbreviation from the ``us`` package,
or by a word-by-word shortening of its name, uncertain; a country's highest point by the
mountain the KG's own name of the summit says it lies on), and "None." read as the claim that
there is none, no longer as a refusal. A reply of punctuation alone ("?", "??") stays
unparseable, the ruling the labelled sets now follow. Every reply here was written for these
tests (none is taken from a labelled set), asked as a run asks it of the bundled KGs; per rule,
replies whose verdict rules 29 changes and at least thirty ordinary replies, right and wrong,
that keep the verdict and certainty they had under rules 28."""

from __future__ import annotations

from verdict_support import round_tests

from kglens_tui.answers.short_forms import massif_named, state_abbreviation
from kglens_tui.kg.answer_names import state_abbreviations

PLACES = ("places", "located_in", "place")
CLEARFIELD = ("Where is Clearfield County located?", ("Pennsylvania",), PLACES)
COPIAH = ("Where is Copiah County located?", ("Mississippi",), PLACES)
LYMAN = ("Where is Lyman County located?", ("South Dakota",), PLACES)
MARICOPA = ("Where is Maricopa County located?", ("Arizona",), PLACES)
WESTON = ("Where is Weston County located?", ("Wyoming",), PLACES)
HIGH = ("country", "highest_point", "mountain")
CMR = (
    "What is the highest point in Cameroon (also known as Republic of Cameroon)?",
    (("Fako", "Fako on Mont Cameroun"),),
    HIGH,
)
UGA = (
    "What is the highest point in Uganda?",
    (("Margherita Peak", "Margherita Peak on Mount Stanley"),),
    HIGH,
)
CHE = (
    "What is the highest point in Switzerland?",
    (("Dufourspitze", "Dufourspitze on Monte Rosa"),),
    HIGH,
)
COD = (
    "What is the highest point in DR Congo?",
    (("Pic Marguerite", "Mount Stanley", "Pic Marguerite on Mont Ngaliema"),),
    HIGH,
)
FSM = ("What is the highest point in Micronesia?", (("Nanlaud", "Nanlaud on Pohnpei"),), HIGH)
KEN = ("What is the highest point in Kenya?", ("Mount Kenya",), HIGH)
ESP = (
    "What is the highest point in Spain?",
    (("Pico de Teide", "Pico de Teide on Canary Islands"),),
    HIGH,
)
MONEY = ("country", "former_currency", "currency")
ISL = (
    "Which currencies did Iceland use in the past?",
    (("Danish Krone", "DKK"), ("Icelandic Króna (1918–1981)", "ISJ")),
    MONEY,
)
AUS_CAP = ("What is the capital of Australia?", ("Canberra",), ("country", "capital", "city"))
SYR_HOG = (
    "Who is the head of government of Syria?",
    ("Muhammad al-Bashir",),
    ("country", "head_of_government", "person"),
)


# Replies whose verdict or certainty rules 29 changes (the comment: what rules 28 gave)
CHANGED = [
    # moved from the rules-24 tests (a rival the KG says lies on a true answer), uncertain still
    ("Mount Stanley.", UGA, "correct", True),  # incorrect uncertain
    ("Mont Ngaliema.", COD, "correct", True),  # incorrect uncertain
    ("Pa.", CLEARFIELD, "correct", False),  # incorrect uncertain
    ("Miss.", COPIAH, "correct", False),  # incorrect uncertain
    ("S. Dak.", LYMAN, "correct", True),  # incorrect
    ("It's in Pa.", CLEARFIELD, "correct", False),  # incorrect
    ("In Ariz.", MARICOPA, "correct", False),  # incorrect uncertain
    ("Wyo.", WESTON, "correct", False),  # incorrect uncertain
    ("South Dak.", LYMAN, "correct", True),  # incorrect
    ("Mo.", COPIAH, "incorrect", False),  # incorrect uncertain
    ("Ariz.", WESTON, "incorrect", False),  # incorrect uncertain
    ("N. Dak.", LYMAN, "incorrect", True),  # incorrect
    ("Pa.", COPIAH, "incorrect", False),  # incorrect uncertain
    ("Mount Cameroon.", CMR, "correct", False),  # incorrect
    ("Mt. Cameroon", CMR, "correct", False),  # incorrect
    ("It's Mount Cameroon.", CMR, "correct", False),  # incorrect
    ("Mount Stanley", UGA, "correct", True),  # incorrect uncertain
    ("Monte Rosa", CHE, "correct", True),  # incorrect uncertain
    ("Monte Rosa.", CHE, "correct", True),  # incorrect uncertain
    ("Mont Rosa", CHE, "correct", True),  # incorrect uncertain
    ("None.", ISL, "incorrect", False),  # refused
    ("None", ISL, "incorrect", False),  # refused
    ("none.", ISL, "incorrect", False),  # refused
    ("None.", AUS_CAP, "incorrect", False),  # refused
]

KEPT = {
    'state abbreviations': [
        ('Pennsylvania.', CLEARFIELD, 'correct', False),
        ('Mississippi', CLEARFIELD, 'incorrect', False),
        ('South Dakota.', CLEARFIELD, 'incorrect', False),
        ('Arizona', CLEARFIELD, 'incorrect', False),
        ('PA', CLEARFIELD, 'correct', False),
        ('MS', CLEARFIELD, 'incorrect', True),
        ('SD', CLEARFIELD, 'incorrect', False),
        ("It's in Pennsylvania.", CLEARFIELD, 'correct', False),
        ('Ohio.', CLEARFIELD, 'incorrect', False),
        ('In Texas.', CLEARFIELD, 'incorrect', False),
        ('Dakota.', CLEARFIELD, 'incorrect', True),
        ('S.', CLEARFIELD, 'incorrect', True),
        ('Sioux Falls.', CLEARFIELD, 'incorrect', True),
        ('Phoenix, Arizona.', CLEARFIELD, 'incorrect', False),
        ("I don't know.", CLEARFIELD, 'refused', False),
        ('N.', CLEARFIELD, 'incorrect', True),
        ('Penn State.', CLEARFIELD, 'incorrect', True),
        ('Mr. Smith.', CLEARFIELD, 'incorrect', False),
        ('Dr.', CLEARFIELD, 'incorrect', True),
        ('St. Louis.', CLEARFIELD, 'incorrect', False),
        ('Pennsylvania.', COPIAH, 'incorrect', False),
        ('Mississippi', COPIAH, 'correct', False),
        ('South Dakota.', COPIAH, 'incorrect', False),
        ('Arizona', COPIAH, 'incorrect', False),
        ('PA', COPIAH, 'incorrect', False),
        ('MS', COPIAH, 'correct', False),
        ('SD', COPIAH, 'incorrect', False),
        ("It's in Pennsylvania.", COPIAH, 'incorrect', False),
        ('Ohio.', COPIAH, 'incorrect', False),
        ('In Texas.', COPIAH, 'incorrect', False),
        ('Dakota.', COPIAH, 'incorrect', True),
        ('S.', COPIAH, 'incorrect', True),
        ('Sioux Falls.', COPIAH, 'incorrect', True),
        ('Phoenix, Arizona.', COPIAH, 'incorrect', False),
        ("I don't know.", COPIAH, 'refused', False),
        ('N.', COPIAH, 'incorrect', True),
        ('Penn State.', COPIAH, 'incorrect', True),
        ('Mr. Smith.', COPIAH, 'incorrect', False),
        ('Dr.', COPIAH, 'incorrect', True),
        ('St. Louis.', COPIAH, 'incorrect', False),
        ('Pennsylvania.', LYMAN, 'incorrect', False),
        ('Mississippi', LYMAN, 'incorrect', False),
        ('South Dakota.', LYMAN, 'correct', False),
        ('Arizona', LYMAN, 'incorrect', False),
        ('PA', LYMAN, 'incorrect', False),
        ('MS', LYMAN, 'incorrect', True),
        ('SD', LYMAN, 'correct', False),
        ("It's in Pennsylvania.", LYMAN, 'incorrect', False),
        ('Ohio.', LYMAN, 'incorrect', False),
        ('In Texas.', LYMAN, 'incorrect', False),
        ('S.D.', LYMAN, 'correct', False),
        ('N.D.', LYMAN, 'incorrect', False),
    ],
    "a summit's mountain": [
        ('Fako.', CMR, 'correct', False),
        ('Margherita Peak.', CMR, 'incorrect', False),
        ('Dufourspitze', CMR, 'incorrect', False),
        ('Mount Kenya.', CMR, 'incorrect', False),
        ('Mount Kilimanjaro.', CMR, 'incorrect', False),
        ('Pohnpei.', CMR, 'incorrect', True),
        ('The Canary Islands.', CMR, 'incorrect', True),
        ('Teide.', CMR, 'incorrect', True),
        ('Mount Everest', CMR, 'incorrect', False),
        ('Mont Blanc.', CMR, 'incorrect', False),
        ('Mount Cameroon, near Buea.', CMR, 'incorrect', False),
        ('Cameroon.', CMR, 'incorrect', False),
        ("I'm not sure.", CMR, 'refused', False),
        ('Mount Elgon.', CMR, 'incorrect', True),
        ('Fako.', UGA, 'incorrect', False),
        ('Margherita Peak.', UGA, 'correct', False),
        ('Dufourspitze', UGA, 'incorrect', False),
        ('Mount Kenya.', UGA, 'incorrect', False),
        ('Mount Kilimanjaro.', UGA, 'incorrect', False),
        ('Pohnpei.', UGA, 'incorrect', True),
        ('The Canary Islands.', UGA, 'incorrect', True),
        ('Teide.', UGA, 'incorrect', True),
        ('Mount Everest', UGA, 'incorrect', False),
        ('Mont Blanc.', UGA, 'incorrect', False),
        ('Mount Cameroon, near Buea.', UGA, 'incorrect', False),
        ('Cameroon.', UGA, 'incorrect', True),
        ("I'm not sure.", UGA, 'refused', False),
        ('Mount Elgon.', UGA, 'incorrect', True),
        ('Fako.', CHE, 'incorrect', False),
        ('Margherita Peak.', CHE, 'incorrect', False),
        ('Dufourspitze', CHE, 'correct', False),
        ('Mount Kenya.', CHE, 'incorrect', False),
        ('Mount Kilimanjaro.', CHE, 'incorrect', False),
        ('Pohnpei.', CHE, 'incorrect', True),
        ('The Canary Islands.', CHE, 'incorrect', True),
        ('Teide.', CHE, 'incorrect', True),
        ('Mount Everest', CHE, 'incorrect', False),
        ('Mont Blanc.', CHE, 'incorrect', False),
        ('Mount Cameroon, near Buea.', CHE, 'incorrect', False),
        ('Cameroon.', CHE, 'incorrect', True),
        ("I'm not sure.", CHE, 'refused', False),
        ('Mount Elgon.', CHE, 'incorrect', True),
        ('Fako.', FSM, 'incorrect', False),
        ('Margherita Peak.', FSM, 'incorrect', False),
        ('Dufourspitze', FSM, 'incorrect', False),
        ('Mount Kenya.', FSM, 'incorrect', False),
        ('Mount Kilimanjaro.', FSM, 'incorrect', False),
        ('Pohnpei.', FSM, 'incorrect', True),
        ('The Canary Islands.', FSM, 'incorrect', True),
        ('Teide.', FSM, 'incorrect', True),
        ('Mount Everest', FSM, 'incorrect', False),
        ('Mont Blanc.', FSM, 'incorrect', False),
        ('Mount Cameroon, near Buea.', FSM, 'incorrect', False),
        ('Cameroon.', FSM, 'incorrect', True),
        ("I'm not sure.", FSM, 'refused', False),
        ('Mount Elgon.', FSM, 'incorrect', True),
        ('Fako.', KEN, 'incorrect', False),
        ('Margherita Peak.', KEN, 'incorrect', False),
        ('Dufourspitze', KEN, 'incorrect', False),
        ('Mount Kenya.', KEN, 'correct', False),
    ],
    'none as a claim': [
        ('Nothing comes to mind.', ISL, 'refused', False),
        ('N/A', ISL, 'refused', False),
        ('Unknown.', ISL, 'refused', False),
        ('None that I know of.', ISL, 'refused', False),
        ('No one at the moment.', ISL, 'incorrect', False),
        ('None, as far as I know.', ISL, 'incorrect', False),
        ('Danish krone.', ISL, 'correct', False),
        ("I don't know.", ISL, 'refused', False),
        ('?', ISL, 'unparseable', False),
        ('??', ISL, 'unparseable', False),
        ('?!', ISL, 'unparseable', False),
        ('', ISL, 'unparseable', False),
        ('-', ISL, 'refused', False),
        ('Canberra.', ISL, 'incorrect', True),
        ('None of them.', ISL, 'incorrect', False),
        ('Nobody.', ISL, 'incorrect', True),
        ('Nothing comes to mind.', AUS_CAP, 'refused', False),
        ('N/A', AUS_CAP, 'refused', False),
        ('Unknown.', AUS_CAP, 'refused', False),
        ('None that I know of.', AUS_CAP, 'refused', False),
        ('No one at the moment.', AUS_CAP, 'incorrect', False),
        ('None, as far as I know.', AUS_CAP, 'incorrect', False),
        ('Danish krone.', AUS_CAP, 'incorrect', True),
        ("I don't know.", AUS_CAP, 'refused', False),
        ('?', AUS_CAP, 'unparseable', False),
        ('??', AUS_CAP, 'unparseable', False),
        ('?!', AUS_CAP, 'unparseable', False),
        ('', AUS_CAP, 'unparseable', False),
        ('-', AUS_CAP, 'refused', False),
        ('Canberra.', AUS_CAP, 'correct', False),
        ('None of them.', AUS_CAP, 'incorrect', False),
        ('Nobody.', AUS_CAP, 'incorrect', True),
        ('Nothing comes to mind.', SYR_HOG, 'refused', False),
        ('N/A', SYR_HOG, 'refused', False),
        ('Unknown.', SYR_HOG, 'refused', False),
        ('None that I know of.', SYR_HOG, 'refused', False),
        ('No one at the moment.', SYR_HOG, 'incorrect', False),
        ('None, as far as I know.', SYR_HOG, 'incorrect', False),
        ('Danish krone.', SYR_HOG, 'incorrect', False),
        ("I don't know.", SYR_HOG, 'refused', False),
        ('?', SYR_HOG, 'unparseable', False),
        ('??', SYR_HOG, 'unparseable', False),
        ('?!', SYR_HOG, 'unparseable', False),
        ('', SYR_HOG, 'unparseable', False),
        ('-', SYR_HOG, 'refused', False),
        ('Canberra.', SYR_HOG, 'incorrect', True),
        ('None of them.', SYR_HOG, 'incorrect', False),
        ('Nobody.', SYR_HOG, 'incorrect', True),
        ('None!', ISL, 'incorrect', False),
    ],
}  # fmt: skip
test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_state_abbreviations_from_the_us_package() -> None:
    abbreviations, states = state_abbreviations()
    assert abbreviations["pa."] == "pennsylvania"
    assert abbreviations["s.d."] == "south dakota"
    assert abbreviations["w.va."] == "west virginia"
    assert "texas" not in abbreviations.values()  # AP style writes it in full
    assert "south dakota" in states
    penn = [["Pennsylvania"]]
    assert state_abbreviation("Pa.", penn) is True
    assert state_abbreviation("It's in Pa.", penn) is True
    assert state_abbreviation("Penn.", penn) is None  # one word: a name with a full stop as often
    assert state_abbreviation("South Dak.", [["South Dakota"]]) is True  # a shortening
    assert state_abbreviation("Mo.", [["Mississippi"]]) is False  # Missouri's
    assert state_abbreviation("N.", [["North Dakota"]]) is None  # starts several names
    assert state_abbreviation("Pa.", [["Canberra"]]) is None  # no state asked for
    assert state_abbreviation("Pennsylvania.", penn) is None  # no short form


def test_massif_from_the_kgs_own_names() -> None:
    fako = [["Fako", "Fako on Mont Cameroun"]]
    assert massif_named("Mount Cameroon.", fako, ["Cameroon", "Cameroun"])
    assert massif_named("Mont Cameroun", fako)
    assert not massif_named("Mount Cameroon.", fako)  # "Cameroon" is no name the KG gives it
    assert not massif_named("Pohnpei.", [["Nanlaud", "Nanlaud on Pohnpei"]])  # no mountain
    assert not massif_named("Mount Kenya.", fako, ["Cameroon", "Cameroun"])
