"""Rules 25: a year written in another calendar or era, as the Gregorian year it names: Japanese
eras ("昭和20年" is 1945), the Juche and Minguo calendars (year 1 is 1912), the Thai Buddhist era
("พ.ศ. 2491" is 1948) and the Islamic calendars ("1371 هـ" spans 1951 and 1952; "1326 SH" 1947
and 1948). Rules 27: the Solar Hijri calendar by its names ("۱۲۹۸ خورشیدی", "1298 in the Solar
Hijri calendar", "Jalali") and the Ethiopian calendar ("1985 ዓ.ም.", "1985 E.C.": its year 1 began in
September of 8 CE, so a year spans two Gregorian years, 1992 and 1993)."""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable, Sequence

_JAPANESE_ERAS = {
    "明治": 1867, "meiji": 1867,
    "大正": 1911, "taisho": 1911, "taishō": 1911,
    "昭和": 1925, "showa": 1925, "shōwa": 1925,
    "平成": 1988, "heisei": 1988,
    "令和": 2018, "reiwa": 2018,
}  # fmt: skip
"""The year before each modern Japanese era's first (its year 1: Shōwa 1 is 1926)."""

_JAPANESE = re.compile(
    r"(明治|大正|昭和|平成|令和)\s*(\d+|元)\s*年?"
    r"|\b(Meiji|Taish[oō]|Sh[oō]wa|Heisei|Reiwa)\s+(\d+)\b",
    re.IGNORECASE,
)
_FROM_1912 = re.compile(r"(?:주체|Juche|民國|民国|Minguo)\s*(\d+)\s*[년年]?", re.IGNORECASE)
"""A year of the Juche calendar or the Republic of China's (Minguo): year 1 is 1912."""
_BUDDHIST = re.compile(r"(?:พ\.\s?ศ\.|พศ|B\.\s?E\.|\bBE)\s*(\d{4})\b|\b(\d{4})\s*(?:B\.E\.|BE\b)")
"""A year of the Buddhist era as Thailand counts it (543 years before the common era's)."""
_HIJRI = re.compile(r"\b(\d{3,4})\s*(?:هـ|ه\b|AH\b|A\.H\.)|\b(?:AH|A\.H\.)\s*(\d{3,4})\b")
"""A year of the Islamic (lunar Hijri) calendar."""
_SOLAR_HIJRI = re.compile(
    r"\b(\d{4})\s*(?:ه\.ش|ش\b|SH\b|S\.H\.|AP\b"
    r"|(?:هجری\s+)?(?:خورشیدی|شمسی)"
    r"|(?i:(?:(?:in|of)\s+)?(?:the\s+)?(?:Solar\s+Hijri|Persian|Iranian|Jalali|Shamsi)\s+(?:calendar|year)\b))"
    r"|\b(?i:Solar\s+Hijri|Jalali|Shamsi)\s+(?i:year\s+)?(\d{4})\b"
)
"""A year of the Solar Hijri calendar (Iran's, Afghanistan's): it starts in March; rules 27: also
by its names in Persian ("خورشیدی", "هجری شمسی") and English ("in the Solar Hijri calendar")."""
_ETHIOPIAN = re.compile(
    r"\b(\d{4})\s*(?:ዓ\.?\s?ም\.?|E\.C\.|EC\b"
    r"|(?i:(?:(?:in|of)\s+)?(?:the\s+)?(?:Ethiopian|Ge'?ez)\s+(?:calendar|year)\b))"
    r"|(?:ዓ\.?\s?ም\.?|\b(?i:Ethiopian\s+year))\s*(\d{4})\b",
)
"""Rules 27: a year of the Ethiopian calendar (ዓ.ም., Amete Mihret, "E.C."): it starts in September,
seven or eight years after the Gregorian year that holds it ends or starts."""

_BUDDHIST_OFFSET = 543
_SOLAR_HIJRI_OFFSET = 621
_ETHIOPIAN_OFFSET = 7
_FROM_1912_OFFSET = 1911
_ISLAMIC_EPOCH = 1948439.5
"""The Julian day of 1 Muharram of year 1 (the tabular Islamic calendar)."""
_ORDINAL_EPOCH = 1721424.5
"""The Julian day before `datetime.date` ordinal 1 (1 January of year 1)."""


def _islamic_year_start(year: int) -> int:
    """The Gregorian year in which the Islamic year ``year`` starts (tabular calendar)."""
    jd = _ISLAMIC_EPOCH + (year - 1) * 354 + (3 + 11 * year) // 30
    return datetime.date.fromordinal(int(jd - _ORDINAL_EPOCH)).year


def _ascii_digits(text: str) -> str:
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text)


def _spans(reply: str) -> list[tuple[re.Match[str], tuple[int, ...]]]:
    """Each year of another calendar in ``reply`` and the Gregorian years it spans."""
    found: list[tuple[re.Match[str], tuple[int, ...]]] = []
    for m in _JAPANESE.finditer(reply):
        era, number = (m[1], m[2]) if m[1] else (m[3], m[4])
        year = 1 if number == "元" else int(number)
        found.append((m, (_JAPANESE_ERAS[era.casefold()] + year,)))
    rules: tuple[tuple[re.Pattern[str], Callable[[int], tuple[int, ...]]], ...] = (
        (_FROM_1912, lambda y: (y + _FROM_1912_OFFSET,)),
        (_BUDDHIST, lambda y: (y - _BUDDHIST_OFFSET,)),
        (_HIJRI, lambda y: (_islamic_year_start(y), _islamic_year_start(y + 1))),
        (_SOLAR_HIJRI, lambda y: (y + _SOLAR_HIJRI_OFFSET, y + _SOLAR_HIJRI_OFFSET + 1)),
        (_ETHIOPIAN, lambda y: (y + _ETHIOPIAN_OFFSET, y + _ETHIOPIAN_OFFSET + 1)),
    )
    for pattern, years in rules:
        for m in pattern.finditer(reply):
            number = next(g for g in m.groups() if g)
            found.append((m, years(int(number))))
    return found


def calendar_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The reply with each year of another calendar written as the Gregorian year it names (of
    the two an Islamic, Solar Hijri or Ethiopian year spans, a true one if it is either), or None if it writes none."""
    text = _ascii_digits(reply)
    spans = _spans(text)
    if not spans:
        return None
    true = {int(n) for group in true_answers for n in group if n.isdigit()}
    for m, years in sorted(spans, key=lambda s: -s[0].start()):
        year = next((y for y in years if y in true), years[0])
        text = f"{text[: m.start()]}{year}{text[m.end() :]}"
    return text
