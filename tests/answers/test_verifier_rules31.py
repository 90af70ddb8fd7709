"""Rules 31 of the Wh verifier: names of other entities a reply gives from maintained sources
(another currency by its CLDR name in any locale, a language list joined by any CLDR list word,
an item heading an ISO 639-3 inverted name, the country asked about by its own other names, a
range of numbers beyond the true ones), and true answers in forms the sources write otherwise
(a subdivision's flag as Unicode tags spell it, a calling code after libphonenumber's exit
prefixes); ".co.uk" for ".uk" uncertain. Every reply here was written for these tests (none is
taken from a labelled set), asked as a run asks it of the bundled KGs; per rule, replies whose
verdict rules 31 changes and at least thirty ordinary replies, right and wrong, that keep the
verdict and certainty they had under rules 29."""

from __future__ import annotations

from verdict_support import round_tests

from kglens_tui.answers.other_names import (
    another_currencys_name,
    exit_prefix_reading,
    range_beyond_answers,
    subject_by_another_name,
)
from kglens_tui.kg.answer_names import exit_prefixes

CUR = ("country", "currency", "currency")
LANG = ("country", "official_language", "language")
URY = (
    "What currency is used in Uruguay (also known as Oriental Republic of Uruguay)?",
    (("Uruguayan Peso", "UYU"),),
    CUR,
)
QAT = (
    "What currency is used in Qatar (also known as State of Qatar)?",
    (("Qatari Riyal", "QAR"),),
    CUR,
)
MNE = ("What currency is used in Montenegro?", (("Euro", "EUR"),), CUR)
BRA = (
    "What are the official languages of Brazil (also known as Federative Republic of Brazil)?",
    (("Portuguese", "português"),),
    LANG,
)
IND = (
    "What are the official languages of India (also known as Republic of India)?",
    ("English", ("Hindi", "हिन्दी")),
    LANG,
)
CAN = ("What are the official languages of Canada?", ("English", "French"), LANG)
BGD = (
    "From which state did Bangladesh (also known as People's Republic of Bangladesh) gain independence?",
    (("Pakistan", "Islamic Republic of Pakistan", "PK", "PAK"),),
    ("country", "independent_from", "country"),
)
N = (
    "What are the common oxidation states of Nitrogen?",
    ("+3", "+5", "-3"),
    ("elements", "oxidation_state", "oxidation_state"),
)
MORAY = ("Where is Moray located?", ("Scotland",), ("places", "located_in", "place"))
MEX = (
    "What is the international calling code of Mexico (also known as United Mexican States)?",
    (("+52", "0052"),),
    ("country", "calling_code", "calling_code"),
)
AUS = (
    "What is the international calling code of Australia?",
    (("+61", "0061"),),
    ("country", "calling_code", "calling_code"),
)
UK = (
    "What is the internet country-code top-level domain of United Kingdom (also known as United Kingdom of Great Britain and Northern Ireland)?",
    (".uk",),
    ("country", "top_level_domain", "top_level_domain"),
)
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
WALES = "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f"


TLD = ("country", "top_level_domain", "top_level_domain")
AUS_TLD = ("What is the internet country-code top-level domain of Australia?", (".au",), TLD)
JPN_TLD = ("What is the internet country-code top-level domain of Japan?", (".jp",), TLD)
BRA_TLD = ("What is the internet country-code top-level domain of Brazil?", (".br",), TLD)
CAD = ("What currency is used in Canada?", (("Canadian Dollar", "CAD"),), CUR)


# Replies whose verdict or certainty rules 31 changes (the comment: what rules 29 gave)
CHANGED = [
    # moved from the rules-25 and rules-28 tests: a second-level domain, now uncertain
    (".com.au", AUS_TLD, "correct", True),  # correct
    (".ac.jp", JPN_TLD, "correct", True),  # correct
    ("com.br", BRA_TLD, "correct", True),  # correct
    (".gov.uk.", UK, "correct", True),  # correct
    # moved from the rules-28 tests: Spanish, in French, is no official language of Canada
    ("Anglais et espagnol.", CAN, "incorrect", False),  # correct
    # moved from the rules-22 tests: the Australian dollar, in French
    ("Le dollar australien.", CAD, "incorrect", False),  # correct uncertain
    ("El peso argentino.", URY, "incorrect", False),  # correct uncertain
    ("Peso chileno.", URY, "incorrect", False),  # correct uncertain
    ("الريال السعودي", QAT, "incorrect", False),  # correct
    ("ريال سعودي", QAT, "incorrect", False),  # correct
    ("Português e espanhol.", BRA, "incorrect", False),  # correct
    ("Português e inglês.", BRA, "incorrect", False),  # correct
    ("Hindustani and English.", IND, "incorrect", True),  # correct
    ("inglese e francese", IND, "incorrect", False),  # correct
    ("Hindi, Bengali e inglês.", IND, "incorrect", False),  # correct uncertain
    ("Hindustani and English.", CAN, "incorrect", True),  # correct
    ("East Pakistan.", BGD, "incorrect", False),  # correct
    ("From −3 to +5.", N, "incorrect", True),  # correct
    ("Anything from −3 to +5.", N, "incorrect", True),  # correct
    ("Between −3 and +5.", N, "incorrect", True),  # correct
    ("From +3 to +5.", N, "incorrect", True),  # correct
    ("+3–+5", N, "incorrect", True),  # correct
    ("−3–+5", N, "incorrect", True),  # correct
    ("All from -3 up to +5.", N, "incorrect", True),  # correct
    ("between +3 and +5", N, "incorrect", True),  # correct
    (
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
        MORAY,
        "correct",
        False,
    ),  # unparseable
    (
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
        MORAY,
        "incorrect",
        False,
    ),  # unparseable
    (
        "\U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f",
        MORAY,
        "incorrect",
        False,
    ),  # unparseable
    ("011-52", MEX, "correct", False),  # incorrect
    ("From the US you dial 011-52.", MEX, "correct", False),  # incorrect
    ("011-61", AUS, "correct", False),  # incorrect
    (".co.uk", UK, "correct", True),  # correct
    (".org.uk", UK, "correct", True),  # correct
]

KEPT = {
    "another currency's name": [
        ("Uruguayan peso.", URY, "correct", False),
        ("El peso uruguayo.", URY, "correct", False),
        ("Peso.", URY, "correct", False),
        ("UYU", URY, "correct", False),
        ("The Argentine peso.", URY, "incorrect", False),
        ("Argentine peso", URY, "incorrect", False),
        ("The euro.", URY, "incorrect", False),
        ("I don't know.", URY, "refused", False),
        ("US dollar.", URY, "incorrect", False),
        ("Qatari riyal.", URY, "incorrect", False),
        ("ريال قطري", URY, "incorrect", True),
        ("Riyal.", URY, "incorrect", True),
        ("Saudi riyal.", URY, "incorrect", False),
        ("The euro, which replaced the Deutsche Mark.", URY, "incorrect", False),
        ("Dollars.", URY, "incorrect", True),
        ("Pesos uruguayos.", URY, "correct", False),
        ("O peso argentino.", URY, "incorrect", False),
        ("الريال السعودي", URY, "incorrect", True),
        ("ريال سعودي", URY, "incorrect", True),
        ("Rial saoudien.", URY, "incorrect", True),
        ("Euros.", URY, "incorrect", False),
        ("Deutsche Mark.", URY, "incorrect", True),
        ("The peso (not the Argentine peso).", URY, "correct", False),
        ("Uruguayan peso.", QAT, "incorrect", False),
        ("El peso uruguayo.", QAT, "incorrect", True),
        ("Peso.", QAT, "incorrect", True),
        ("UYU", QAT, "incorrect", False),
        ("The Argentine peso.", QAT, "incorrect", False),
        ("Argentine peso", QAT, "incorrect", False),
        ("The euro.", QAT, "incorrect", False),
        ("I don't know.", QAT, "refused", False),
        ("US dollar.", QAT, "incorrect", False),
        ("Qatari riyal.", QAT, "correct", False),
        ("ريال قطري", QAT, "correct", False),
        ("Riyal.", QAT, "correct", False),
        ("Saudi riyal.", QAT, "incorrect", False),
        ("The euro, which replaced the Deutsche Mark.", QAT, "incorrect", False),
        ("Dollars.", QAT, "incorrect", True),
        ("Pesos uruguayos.", QAT, "incorrect", True),
        ("El peso argentino.", QAT, "incorrect", True),
        ("O peso argentino.", QAT, "incorrect", True),
        ("Peso chileno.", QAT, "incorrect", True),
        ("Rial saoudien.", QAT, "incorrect", True),
        ("Euros.", QAT, "incorrect", False),
        ("Deutsche Mark.", QAT, "incorrect", True),
        ("The peso (not the Argentine peso).", QAT, "incorrect", False),
        ("Uruguayan peso.", MNE, "incorrect", False),
        ("El peso uruguayo.", MNE, "incorrect", True),
        ("Peso.", MNE, "incorrect", True),
        ("UYU", MNE, "incorrect", False),
        ("The Argentine peso.", MNE, "incorrect", False),
        ("Argentine peso", MNE, "incorrect", False),
        ("The euro.", MNE, "correct", False),
        ("I don't know.", MNE, "refused", False),
        ("US dollar.", MNE, "incorrect", False),
        ("Qatari riyal.", MNE, "incorrect", False),
        ("ريال قطري", MNE, "incorrect", True),
        ("Riyal.", MNE, "incorrect", True),
        ("Saudi riyal.", MNE, "incorrect", False),
        ("The euro, which replaced the Deutsche Mark.", MNE, "correct", False),
        ("Dollars.", MNE, "incorrect", True),
        ("Pesos uruguayos.", MNE, "incorrect", True),
        ("El peso argentino.", MNE, "incorrect", True),
        ("O peso argentino.", MNE, "incorrect", True),
        ("الريال السعودي", MNE, "incorrect", True),
        ("ريال سعودي", MNE, "incorrect", True),
        ("Peso chileno.", MNE, "incorrect", True),
        ("Rial saoudien.", MNE, "incorrect", True),
        ("Euros.", MNE, "correct", False),
        ("Deutsche Mark.", MNE, "incorrect", True),
        ("The peso (not the Argentine peso).", MNE, "incorrect", False),
    ],
    "language lists": [
        ("Portuguese.", BRA, "correct", False),
        ("Português.", BRA, "correct", False),
        ("Portuguese and Spanish.", BRA, "incorrect", False),
        ("Portugués y español.", BRA, "incorrect", False),
        ("English and Hindi.", BRA, "incorrect", False),
        ("Hindi e inglese.", BRA, "incorrect", False),
        ("Hindustani and English.", BRA, "incorrect", False),
        ("Hindi.", BRA, "incorrect", False),
        ("English and French.", BRA, "incorrect", False),
        ("Anglais et français.", BRA, "incorrect", False),
        ("Inglés y francés.", BRA, "incorrect", True),
        ("English, French and Spanish.", BRA, "incorrect", False),
        ("Englisch und Französisch.", BRA, "incorrect", True),
        ("inglese e francese", BRA, "incorrect", True),
        ("Hindi and Urdu.", BRA, "incorrect", False),
        ("Spanish.", BRA, "incorrect", False),
        ("I'm not sure.", BRA, "refused", False),
        ("English.", BRA, "incorrect", False),
        ("Nahuatl and Spanish.", BRA, "incorrect", False),
        ("Tupi e português.", BRA, "correct", False),
        ("Hindi, Bengali e inglês.", BRA, "incorrect", False),
        ("Portuguese.", IND, "incorrect", False),
        ("Português.", IND, "incorrect", False),
        ("Portuguese and Spanish.", IND, "incorrect", False),
        ("Português e espanhol.", IND, "incorrect", False),
        ("Português e inglês.", IND, "incorrect", False),
        ("Portugués y español.", IND, "incorrect", False),
        ("English and Hindi.", IND, "correct", False),
        ("Hindi e inglese.", IND, "correct", False),
        ("Hindi.", IND, "correct", False),
        ("English and French.", IND, "incorrect", False),
        ("Anglais et français.", IND, "incorrect", False),
        ("Inglés y francés.", IND, "correct", False),
        ("English, French and Spanish.", IND, "incorrect", False),
        ("Englisch und Französisch.", IND, "incorrect", False),
        ("Hindi and Urdu.", IND, "incorrect", False),
        ("Spanish.", IND, "incorrect", False),
        ("I'm not sure.", IND, "refused", False),
        ("English.", IND, "correct", False),
        ("Nahuatl and Spanish.", IND, "incorrect", False),
        ("Tupi e português.", IND, "incorrect", False),
        ("Portuguese.", CAN, "incorrect", False),
        ("Português.", CAN, "incorrect", False),
        ("Portuguese and Spanish.", CAN, "incorrect", False),
        ("Português e espanhol.", CAN, "incorrect", False),
        ("Português e inglês.", CAN, "incorrect", False),
        ("Portugués y español.", CAN, "incorrect", False),
        ("English and Hindi.", CAN, "incorrect", False),
        ("Hindi e inglese.", CAN, "incorrect", False),
        ("Hindi.", CAN, "incorrect", False),
        ("English and French.", CAN, "correct", False),
        ("Anglais et français.", CAN, "correct", False),
        ("Inglés y francés.", CAN, "correct", False),
        ("English, French and Spanish.", CAN, "incorrect", False),
        ("Englisch und Französisch.", CAN, "correct", False),
        ("inglese e francese", CAN, "correct", False),
        ("Hindi and Urdu.", CAN, "incorrect", False),
        ("Spanish.", CAN, "incorrect", False),
        ("I'm not sure.", CAN, "refused", False),
        ("English.", CAN, "correct", False),
        ("Nahuatl and Spanish.", CAN, "incorrect", False),
        ("Tupi e português.", CAN, "incorrect", False),
        ("Hindi, Bengali e inglês.", CAN, "incorrect", False),
    ],
    "the subject's own names": [
        ("Pakistan.", BGD, "correct", False),
        ("East Bengal.", BGD, "incorrect", True),
        ("West Pakistan.", BGD, "correct", False),
        ("India.", BGD, "incorrect", False),
        ("British India.", BGD, "incorrect", True),
        ("From Pakistan.", BGD, "correct", False),
        ("Pakistan, in 1971.", BGD, "correct", False),
        ("The Islamic Republic of Pakistan.", BGD, "correct", False),
        ("Bangladesh.", BGD, "incorrect", False),
        ("Bengal.", BGD, "incorrect", True),
        ("Burma.", BGD, "incorrect", False),
        ("Not sure.", BGD, "refused", False),
        ("PAK", BGD, "correct", False),
        ("Pakistan (East Pakistan was its name).", BGD, "correct", False),
        (
            "It was called East Pakistan before 1971; it broke away from Pakistan.",
            BGD,
            "correct",
            False,
        ),
        ("United Kingdom.", BGD, "incorrect", False),
        ("Great Britain.", BGD, "incorrect", False),
        ("The British Raj.", BGD, "incorrect", True),
        ("Mughal Empire.", BGD, "incorrect", True),
        ("East Pakistan, from Pakistan.", BGD, "correct", False),
        ("Sri Lanka.", BGD, "incorrect", False),
        ("Nepal.", BGD, "incorrect", False),
        ("The East Pakistan province.", BGD, "correct", False),
        ("Pakistani rule.", BGD, "correct", False),
        ("West Bengal.", BGD, "incorrect", True),
        ("Bangla.", BGD, "incorrect", True),
        ("Islamabad.", BGD, "incorrect", True),
        ("Dhaka.", BGD, "incorrect", True),
        ("Karachi.", BGD, "incorrect", True),
        ("pakistan", BGD, "correct", False),
    ],
    "ranges of numbers": [
        ("−3, +3 and +5.", N, "correct", False),
        ("-3, +3, +5", N, "correct", False),
        ("+3 and +5.", N, "correct", False),
        ("+5.", N, "correct", False),
        ("-3", N, "correct", False),
        ("+1 to +5", N, "incorrect", False),
        ("+1, +2, +4.", N, "incorrect", False),
        ("It ranges widely.", N, "incorrect", False),
        ("I don't know.", N, "refused", False),
        ("+3 and −3.", N, "correct", False),
        ("−3 (ammonia), +3 (nitrite) and +5 (nitrate).", N, "correct", False),
        ("+2 and +4.", N, "incorrect", False),
        ("from -3 to -3", N, "correct", False),
        ("3 and 5", N, "correct", False),
        ("+4.", N, "incorrect", False),
        ("−3, +5.", N, "correct", False),
        ("0.", N, "incorrect", False),
        ("+3, +4 and +5.", N, "incorrect", False),
        ("−3.", N, "correct", False),
        ("+5 (as in nitric acid).", N, "correct", False),
        ("Mostly +3.", N, "correct", False),
        ("-3 and +5", N, "correct", False),
        ("+3, +5", N, "correct", False),
        ("−3, 0, +3, +5.", N, "correct", False),
        ("+1 to +5 in oxides? I am not sure.", N, "incorrect", False),
        ("Nitrogen: −3, +3, +5.", N, "correct", False),
        ("Three: −3, +3 and +5.", N, "correct", False),
        ("+2", N, "incorrect", False),
        ("-1", N, "incorrect", False),
        ("+6", N, "incorrect", False),
        ("−3 and +3.", N, "correct", False),
        ("+5 and −3", N, "correct", False),
        ("-3, +3, +5 and +4.", N, "incorrect", False),
        ("From -3 to +5, commonly -3, +3 and +5.", N, "correct", False),
        ("-3 through +5", N, "correct", False),
        ("+5, +3, -3.", N, "correct", False),
        ("+3", N, "correct", False),
    ],
    "tag flags and exit prefixes": [
        ("Scotland.", MORAY, "correct", False),
        ("\U0001f1ec\U0001f1e7", MORAY, "incorrect", False),
        (
            "In Scotland \U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
            MORAY,
            "correct",
            False,
        ),
        ("England.", MORAY, "incorrect", False),
        (
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
            MORAY,
            "correct",
            False,
        ),
        ("Wales.", MORAY, "incorrect", False),
        ("I'm not sure.", MORAY, "refused", False),
        ("+52", MEX, "correct", False),
        ("0052", MEX, "correct", False),
        ("011 52", MEX, "correct", False),
        ("00 52", MEX, "correct", False),
        ("52", MEX, "correct", False),
        ("+1", MEX, "incorrect", False),
        ("011-1", MEX, "incorrect", False),
        ("810 52", MEX, "correct", False),
        ("011-53", MEX, "incorrect", False),
        ("+53", MEX, "incorrect", False),
        ("Dial 011, then 52.", MEX, "correct", False),
        ("0011 52", MEX, "correct", False),
        ("The code is 52.", MEX, "correct", False),
        ("I don't know.", MEX, "refused", False),
        ("+61", AUS, "correct", False),
        ("0011 61", AUS, "correct", False),
        ("011-52", AUS, "incorrect", False),
        ("+64", AUS, "incorrect", False),
        ("0061", AUS, "correct", False),
        ("61", AUS, "correct", False),
        (".uk", UK, "correct", False),
        (".gb", UK, "incorrect", False),
        (".com", UK, "incorrect", True),
        ("uk", UK, "correct", True),
    ],
}


test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_exit_prefixes_from_libphonenumber() -> None:
    prefixes = exit_prefixes()[""]
    assert {"00", "011", "0011", "810"} <= set(prefixes)
    assert "0" not in prefixes  # one digit: too short to tell from a trunk prefix
    mex = [["+52", "0052"]]
    assert exit_prefix_reading("011-52", mex) == "+52"
    assert exit_prefix_reading("Dial 0011 61.", mex) == "Dial +61."
    assert exit_prefix_reading("01152", mex) is None  # no break between prefix and code
    assert exit_prefix_reading("011-52", [["Mexico City"]]) is None  # no calling code asked


def test_another_currencys_name() -> None:
    uyu = [["Uruguayan Peso", "UYU"]]
    assert another_currencys_name("El peso argentino.", uyu)
    assert not another_currencys_name("El peso uruguayo.", uyu)
    assert not another_currencys_name("Peso.", uyu)  # a unit word alone names no currency
    assert not another_currencys_name("Uruguayan peso, not the Argentine peso.", uyu)
    assert not another_currencys_name("El peso argentino.", [["Canberra"]])  # no code


def test_subject_and_ranges() -> None:
    pak = [["Pakistan", "PAK"]]
    bgd = ["Bangladesh", "People's Republic of Bangladesh", "BGD"]
    assert subject_by_another_name("East Pakistan.", pak, bgd, ())
    assert not subject_by_another_name("Pakistan.", pak, bgd, ())
    assert not subject_by_another_name("East Pakistan.", pak, ["Bangladesh"], ())  # no code
    n = [["+3"], ["+5"], ["-3"]]
    assert range_beyond_answers("From −3 to +5.", n)
    assert not range_beyond_answers("From −3 to +5: −3, +3 and +5.", n)
    assert not range_beyond_answers("−3, +3 and +5.", n)
    assert not range_beyond_answers("From 1990 to 2000.", [["1995"]])
