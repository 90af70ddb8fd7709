"""Rules 27 of the Wh verifier: names and readings from maintained sources that rules 26 lacked
(time zone abbreviations, years of more calendars, ...), and uncertain where the rules cannot
decide. Every reply here was written for these tests (none is taken from a labelled set), asked
as a run asks it of the bundled KGs; per rule, replies whose verdict rules 27 changes and at
least thirty ordinary replies, right and wrong, that keep the verdict and certainty they had
under rules 26."""

from __future__ import annotations

import pytest
from verdict_support import round_tests

from kglens_tui.answers.calendars import calendar_reading
from kglens_tui.answers.places import with_zone_abbreviations
from kglens_tui.bench.verifier_bench import Rivals
from kglens_tui.kg.answer_names import listed_zone_abbreviations, territory_zone_abbreviations

YEAR = ("country", "independence_year", "year")
DISCOVERED = ("elements", "discovery_year", "year")
AFG_YEAR = ("In what year did Afghanistan gain independence?", ("1919",), YEAR)
ERI_YEAR = ("In what year did Eritrea gain independence?", ("1993",), YEAR)
IND_YEAR = ("In what year did India gain independence?", ("1947",), YEAR)
GHA_YEAR = ("In what year did Ghana gain independence?", ("1957",), YEAR)
IDN_YEAR = ("In what year did Indonesia gain independence?", ("1945",), YEAR)
OXY_YEAR = ("In what year was Oxygen discovered?", ("1774",), DISCOVERED)

ZONE = ("country", "time_zone", "time_zone")
ZONES_OF = "Which standard time zones (UTC offsets, without daylight saving time) does {} use?"
NPL = (ZONES_OF.format("Nepal"), (("UTC+05:45",),), ZONE)
IRN = (ZONES_OF.format("Iran"), (("UTC+03:30",),), ZONE)
AFG = (ZONES_OF.format("Afghanistan"), (("UTC+04:30",),), ZONE)
IND = (ZONES_OF.format("India"), (("UTC+05:30",),), ZONE)
CHN = (ZONES_OF.format("China"), (("UTC+08:00",),), ZONE)
PHL = (ZONES_OF.format("Philippines"), (("UTC+08:00",),), ZONE)
VNM = (ZONES_OF.format("Vietnam"), (("UTC+07:00",),), ZONE)
CPV = (ZONES_OF.format("Cape Verde"), (("UTC-01:00",),), ZONE)
TUR = (ZONES_OF.format("Turkey"), (("UTC+03:00",),), ZONE)
JPN = (ZONES_OF.format("Japan"), (("UTC+09:00",),), ZONE)
ISR = (ZONES_OF.format("Israel"), (("UTC+02:00",),), ZONE)
PAK = (ZONES_OF.format("Pakistan"), (("UTC+05:00",),), ZONE)
MAR = (ZONES_OF.format("Morocco"), (("UTC+01:00",),), ZONE)


@pytest.fixture(scope="module")
def rivals() -> Rivals:
    """The names of the bundled KGs' entities, loaded once."""
    return Rivals(["country", "elements", "places"])


# Replies whose verdict or certainty rules 27 changes (the comment: what rules 26 gave)
CHANGED = [
    ("1298 هجری شمسی", AFG_YEAR, "correct", False),  # incorrect uncertain
    ("Year 1298 of the Persian calendar.", AFG_YEAR, "correct", False),  # incorrect uncertain
    ("1326 خورشیدی", IND_YEAR, "correct", False),  # incorrect uncertain
    ("1372 in the Solar Hijri calendar.", ERI_YEAR, "correct", False),  # incorrect uncertain
    ("1985 E.C.", ERI_YEAR, "correct", False),  # incorrect
    ("1939 ዓ.ም.", IND_YEAR, "correct", False),  # incorrect uncertain
    ("1949 in the Ethiopian calendar.", GHA_YEAR, "correct", False),  # incorrect uncertain
    ("Jalali 1324.", IDN_YEAR, "correct", False),  # incorrect uncertain
    ("1153 in the Iranian calendar.", OXY_YEAR, "correct", False),  # incorrect uncertain
    ("NPT", NPL, "correct", False),  # incorrect uncertain
    ("IRST.", IRN, "correct", False),  # incorrect uncertain
    ("Iran uses IRST.", IRN, "correct", False),  # incorrect
    ("AFT", AFG, "correct", False),  # incorrect uncertain
    ("CVT", CPV, "correct", False),  # incorrect uncertain
    ("ICT.", VNM, "correct", False),  # incorrect uncertain
    ("TRT", TUR, "correct", False),  # incorrect uncertain
    ("PHT.", PHL, "correct", False),  # incorrect uncertain
    ("IST", IND, "correct", False),  # incorrect uncertain
    ("IST.", IND, "correct", False),  # incorrect uncertain
    ("CST.", CHN, "correct", False),  # incorrect uncertain
    ("IST", ISR, "correct", False),  # incorrect uncertain
]  # fmt: skip

KEPT = {
    "calendars": [
        ("1300 خورشیدی", AFG_YEAR, "incorrect", True),
        ("1990 E.C.", ERI_YEAR, "incorrect", False),
        ("1930 in the Ethiopian calendar.", GHA_YEAR, "incorrect", True),
        ("1919.", AFG_YEAR, "correct", False),
        ("In 1919.", AFG_YEAR, "correct", False),
        ("1921.", AFG_YEAR, "incorrect", False),
        ("1993.", ERI_YEAR, "correct", False),
        ("It became independent in 1993.", ERI_YEAR, "correct", False),
        ("1991, de facto; 1993 formally.", ERI_YEAR, "incorrect", False),
        ("1952.", ERI_YEAR, "incorrect", False),
        ("1947.", IND_YEAR, "correct", False),
        ("15 August 1947.", IND_YEAR, "correct", False),
        ("1950.", IND_YEAR, "incorrect", False),
        ("1326 SH", IND_YEAR, "correct", False),
        ("1366 AH", IND_YEAR, "correct", False),
        ("BE 2490", IND_YEAR, "correct", False),
        ("1957.", GHA_YEAR, "correct", False),
        ("6 March 1957.", GHA_YEAR, "correct", False),
        ("1960.", GHA_YEAR, "incorrect", False),
        ("1945.", IDN_YEAR, "correct", False),
        ("1949.", IDN_YEAR, "incorrect", False),
        ("昭和20年", IDN_YEAR, "correct", False),
        ("1774.", OXY_YEAR, "correct", False),
        ("1771 or 1774.", OXY_YEAR, "incorrect", False),
        ("1800.", OXY_YEAR, "incorrect", False),
        ("I don't know.", OXY_YEAR, "refused", False),
        ("1774, by Priestley.", OXY_YEAR, "correct", False),
        ("Around 1774.", OXY_YEAR, "correct", False),
        ("1919, after the Third Anglo-Afghan War.", AFG_YEAR, "correct", False),
        ("1947, the same year as Pakistan.", IND_YEAR, "correct", False),
        ("In 1993, after a referendum.", ERI_YEAR, "correct", False),
    ],
    "zone abbreviations": [
        ("Nepal Time, NPT.", NPL, "correct", False),
        ("AFT (UTC+4:30).", AFG, "correct", False),
        ("PST, the Philippine Standard Time.", PHL, "correct", False),
        ("China Standard Time (CST).", CHN, "correct", False),
        ("IST", NPL, "incorrect", True),
        ("NPT", IND, "incorrect", True),
        ("IRST", AFG, "incorrect", True),
        ("AFT", IRN, "incorrect", True),
        ("PST", CHN, "incorrect", True),
        ("CST", PHL, "incorrect", True),
        ("WET", MAR, "incorrect", True),
        ("JST.", JPN, "correct", False),
        ("Japan Standard Time.", JPN, "correct", False),
        ("UTC+9.", JPN, "correct", False),
        ("UTC+8.", JPN, "incorrect", False),
        ("KST.", JPN, "correct", False),
        ("UTC+5:45.", NPL, "correct", False),
        ("UTC+5:30.", NPL, "incorrect", False),
        ("UTC+05:30", IND, "correct", False),
        ("Indian Standard Time.", IND, "incorrect", True),
        ("UTC+3:30.", IRN, "correct", False),
        ("UTC+4.", IRN, "incorrect", False),
        ("GMT+4:30.", AFG, "correct", False),
        ("UTC+7.", VNM, "correct", False),
        ("UTC+8.", VNM, "incorrect", False),
        ("UTC-1.", CPV, "correct", False),
        ("UTC+0.", CPV, "incorrect", False),
        ("UTC+3.", TUR, "correct", False),
        ("EET.", TUR, "incorrect", True),
        ("PKT.", PAK, "correct", False),
        ("UTC+5.", PAK, "correct", False),
        ("I do not know.", PAK, "refused", False),
        ("UTC+8, no daylight saving.", CHN, "correct", False),
        ("Beijing time, UTC+8.", CHN, "correct", False),
        ("UTC+2.", ISR, "correct", False),
    ],
}  # fmt: skip

test_changed, test_kept, test_thirty_per_rule = round_tests(CHANGED, KEPT)


def test_calendar_readings() -> None:
    assert calendar_reading("۱۲۹۸ خورشیدی", [["1919"]]) == "1919"
    assert calendar_reading("1298 in the Solar Hijri calendar.", [["1919"]]) == "1919."
    assert calendar_reading("1985 ዓ.ም.", [["1993"]]) == "1993"
    assert calendar_reading("1985 ዓ.ም.", [["1992"]]) == "1992"  # a year spans two
    assert calendar_reading("1985 in the Ethiopian calendar", [["1993"]]) == "1993"
    assert calendar_reading("1919 ap", [["1919"]]) is None  # the era's letters as written


def test_zone_abbreviation_sources() -> None:
    listed = listed_zone_abbreviations()
    assert listed["NPT"] == "UTC+05:45"
    assert listed["IRST"] == "UTC+03:30"
    assert "IST" not in listed  # the tz database gives it three offsets: each country its own
    assert "CET" not in listed  # the tz database's own
    assert territory_zone_abbreviations("IN")["IST"] == {"UTC+05:30"}
    assert territory_zone_abbreviations("CN")["CST"] == {"UTC+08:00"}
    assert "WET" not in territory_zone_abbreviations("MA")  # its metazone's zones keep UTC+0
    assert with_zone_abbreviations("ist", [["UTC+05:30"]], ["India"]) is None  # capitals only
    assert with_zone_abbreviations("IST", [["UTC+05:30"]], ["India"]) == [["UTC+05:30", "IST"]]
