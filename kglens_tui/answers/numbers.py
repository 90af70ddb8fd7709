"""Numbers written in other formats, read as the digits a KG names them by (issue #34).

`spell_out` rewrites a text before it is cut into tokens (`mentions.tokenize`), for replies and
names alike, so each format is read the same way on both sides:

- number words (the text2num library's English parser): "one hundred and twelve" is 112; words spelled digit
  by digit are the digits in a row ("nine-one-one" 911, "triple zero" 000, "double nine nine"
  999); two numbers of two digits read as a year ("seventeen seventy-six" 1776); a lone "one" is
  left alone (it is mostly a pronoun: "naming one");
- ordinals before a noun number the noun ("the fourth period" is "period 4", "14th group" is
  "group 14");
- Roman numerals where only a number can stand: after "group" or "period" ("period IV"; a group
  with CAS's A/B letter by CAS's numbering, the one of American textbooks: "group IVA" is 14,
  "group IIIB" 3, "group VIIIA" 18, "group VIIIB" 8; rules 21: also with a digit, "group 2A"),
  and an oxidation state in brackets after a symbol or name or after a sign ("Mn(II)", "iron
  (III)", "+II" are +2, +3, +2);
- UTC offsets in words: "four and a half hours ahead of UTC" is UTC+04:30, "five hours behind
  GMT" UTC-05:00, "UTC plus 5" UTC+5;
- years in Roman numerals (capitals, four letters or more, from 1000: "MCMLX" is 1960), and
  Chinese or Japanese digits one by one ("一一〇" is 110); rules 18: Chinese or Japanese numerals
  with their units ("百十九" is 119), and digit words of German, Spanish, French, Italian,
  Portuguese or Dutch joined by hyphens, three or more ("eins-eins-zwei" is 112);
- digits grouped by spaces (thin, no-break or plain: "10 111" is 10111), and a North American
  area code after +1 ("+1 242", "+1 (242)": calling code +1); rules 9: three or more single
  digits spaced one by one ("1 1 2" is 112);
- rules 9: UTC offsets with a fraction or in hours and minutes ("UTC+9½" is UTC+09:30, "UTC - 3
  h 30 min" UTC-03:30), the tz database's "Etc/GMT-3" (its sign inverted: UTC+03:00), and "one
  hour" a number ("one hour ahead of GMT");
- chemical notation: an ion's charge after an element symbol ("Fe²⁺", "Fe3+": NFKC makes them
  one, the charge is the oxidation state +3) and IUPAC's state symbols after a formula ("H₂(g)",
  "Br₂(l)", "I₂(s)", "(aq)": gas, liquid, solid, aqueous);
- rules 19: "UTC +5h30" without the minutes' unit; and, as a second reading the verifier tries
  where a true answer is a number (`foreign_number_readings`), number words of French, Italian,
  Portuguese, Spanish, German and Dutch ("Le cent douze." is 112).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from text_to_num import alpha2digit, text2num

from kglens_tui.kg.answer_names import territory_codes

_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_DIGIT_WORDS = frozenset(_UNITS[:10])
"""Words of one digit: a run of them only is said digit by digit (rules 14: "one zero one one
one" is 10111, where text2num drops the zero)."""
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = ("hundred", "thousand", "million")
_ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
]
ORDINALS = tuple(_ORDINALS)
"""The English ordinals "first" to "twentieth" (their index is the number less one)."""
_MULTIPLIERS = {"double": 2, "triple": 3, "treble": 3}
"""Words that repeat the digit after them (rules 26: British "treble", "treble nine" 999)."""

_WORD = "|".join(sorted({*_UNITS, *_TENS, *_SCALES, *_MULTIPLIERS}, key=len, reverse=True))
_ORDINAL = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_NOT_NOUN_WORDS = (
    "of|and|or|in|to|the|a|an|is|was|century|time|largest|most|one|"
    "thought|thoughts|look|glance|opinion|guess|hand|nature|chance|try|attempt|half"
)
"""Words an ordinal before them does not number ("on second thought", "at first glance")."""
_RUN = re.compile(
    rf"\b(?:{_WORD})(?:(?:[\s-]+|[\s-]+and[\s-]+(?!three[\s-]+quarters?\b))(?:{_WORD}))*"
    rf"(?:[\s-]+(?:{_ORDINAL}))?\b|\b(?:{_ORDINAL})\b(?=\s+(?!(?:{_NOT_NOUN_WORDS})\b)[a-z])",
    re.IGNORECASE,
)
"""A run of number words, which may end in an ordinal ("twenty-first"), or an ordinal alone."""

_OH_YEAR = re.compile(
    r"\b(eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
    r"[\s-]+oh[\s-]+(one|two|three|four|five|six|seven|eight|nine)\b",
    re.IGNORECASE,
)
"""A year said with "oh" for its zero ("eighteen-oh-eight" is 1808: rules 14)."""
_SIGN_WORD_BEFORE = re.compile(r"\b(?:plus|minus)\s+$", re.IGNORECASE)
_HOUR_AFTER = re.compile(r"\s+hour\b", re.IGNORECASE)
_ORDINAL_NOUN = re.compile(r"\b(\d+)(?:st|nd|rd|th)\s+([a-z]+)\b", re.IGNORECASE)
_NOT_NOUNS = frozenset(_NOT_NOUN_WORDS.split("|"))

_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN = r"(?:X{0,3}(?:IX|IV|V?I{0,3}))"
_GROUP_ROMAN = re.compile(rf"\b(group|period)\s+({_ROMAN})([AB])?(?![\w-])", re.IGNORECASE)
_GROUP_CAS_DIGIT = re.compile(r"\b(group)\s+([1-8])([AB])(?![\w-])", re.IGNORECASE)
"""Rules 21: a group in CAS's numbering with a digit ("Group 2A" is 2, "group 5A" 15)."""
_BRACKET_ROMAN = re.compile(rf"(?<=[^\W\d_])\s?\(\s*([+-]?)({_ROMAN})\s*\)")
_SIGNED_ROMAN = re.compile(rf"(?<![\w+-])([+-])(?=[IVXivx])({_ROMAN})(?![\w])")
_ROMAN_YEAR = re.compile(
    r"(?<![\w+-])(?=[MDCLXVI]{4})M{1,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?![\w])"
)
"""A year in Roman numerals, in capitals, from 1000 and of four letters or more ("MCMLX")."""
_CJK_DIGITS = "〇一二三四五六七八九"
_CJK_RUN = re.compile(
    f"[{_CJK_DIGITS}零幺]{{3,}}|[{_CJK_DIGITS}]+[〇零][{_CJK_DIGITS}零]*|〇[{_CJK_DIGITS}零]+"
)
"""Chinese and Japanese digits written one by one ("一一〇" is 110): three or more, or two with
〇 (a shorter run of 一 ... 九 is mostly a word; 〇 alone a mark); rules 21: 零 is a zero too
("一一零"); rules 26: 幺 is the one of a number read digit by digit ("幺幺零" is 110), in a run of
three or more."""
_HANGUL_DIGITS = {"공": 0, "영": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7,
                  "팔": 8, "구": 9}  # fmt: skip
_HANGUL_SYLLABLES = "\uac00-\ud7a3"
_HANGUL_RUN = re.compile(
    f"(?<![{_HANGUL_SYLLABLES}])[{''.join(_HANGUL_DIGITS)}]{{3,}}"
    f"(?:(?![{_HANGUL_SYLLABLES}])|(?=번|입니다|이에요|예요))"
)
"""Rules 21: Sino-Korean digits read one by one, a word of three or more, alone or before "번"
(number) or a copula ("일일구", "일일구입니다" are 119)."""
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_VALUES = {**{c: i for i, c in enumerate(_CJK_DIGITS)}, "两": 2, "零": 0, "幺": 1}
_CJK_ANY = f"{_CJK_DIGITS}两十百千"
_CJK_NUMERAL = re.compile(
    f"(?=[{_CJK_ANY}]{{2}})(?:[一-九两]?千)?(?:[{_CJK_DIGITS}两]?百)?(?:[{_CJK_DIGITS}两]?十)?"
    f"[{_CJK_DIGITS}]?"
)
"""Rules 18: a Chinese or Japanese numeral written with its units (十, 百, 千), two letters or
more ("百十九" is 119, "二十" 20; not "十分")."""
_TEXT2NUM_LANGUAGES = ("de", "es", "fr", "it", "pt", "nl")
"""The languages besides English whose number words text2num reads."""
_HYPHENED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+){2,}")
"""Three words or more joined by hyphens ("eins-eins-zwei", "uno-uno-dos")."""
_CAS_A = {1: 1, 2: 2, 3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 8: 18}
_CAS_B = {1: 11, 2: 12, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8}
"""CAS's group numbering: group IVA is group 14, IVB group 4 (VIIIB spans 8 to 10: read as 8)."""

_FRACTION = r"and\s+(?:a|one|1)[\s-]+(?:half|quarter)|and\s+(?:three|3)[\s-]+quarters?"
"""Rules 12: also "and three-quarter hours", "and a-half"."""
_UTC_NAMES = r"(?:utc|gmt|greenwich(?:\s+mean\s+time)?|coordinated\s+universal\s+time)"
_HOURS_FROM_UTC = re.compile(
    rf"\b(\d{{1,2}})(?:[.,](\d{{1,2}}))?\s*({_FRACTION})?\s*hours?\s*(?:and\s+(\d{{1,2}})\s+minutes?\s*)?"
    rf"(ahead\s+of|in\s+front\s+of|later\s+than|behind|earlier\s+than)\s+(?:the\s+)?{_UTC_NAMES}\b",
    re.IGNORECASE,
)
_UTC_PLUS = re.compile(
    rf"\b(utc|gmt)\s+(plus|minus)\s+(\d{{1,2}})(?:\s*({_FRACTION}))?(?:\s+hours?)?\b",
    re.IGNORECASE,
)
_UTC_FRACTION = re.compile(
    r"\b(utc|gmt)\s*([+-])\s*(\d{0,2}?)([13])\u2044([24])(?!\d)", re.IGNORECASE
)
"""'UTC+9½' after NFKC ('UTC+91⁄2'): hours, then a fraction of an hour (rules 22: hours of two
digits, 'UTC+12¾')."""
_UTC_H_MIN = re.compile(
    r"\b(utc|gmt)\s*([+-])\s*(\d{1,2})\s*(?:h|hrs?|hours?)\s*(\d{1,2})\s*(?:m|mins?|minutes?)?(?!\w)",
    re.IGNORECASE,
)
"""Rules 19: the minutes' unit may be left out ("UTC +5h30")."""
_ETC_GMT = re.compile(r"\betc/gmt([+-])(\d{1,2})\b", re.IGNORECASE)
"""The tz database's zones of a fixed offset, whose sign is inverted (POSIX): Etc/GMT-3 is UTC+3."""
_PLUS = re.compile(r"\b(plus|minus)\s+(\d)", re.IGNORECASE)
"""'plus 44' is +44 (after the UTC offsets: 'UTC plus 5' is UTC+05:00)."""
_GROUPED_DIGITS = re.compile(r"(?<![\d+\-.,])\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,]\d)")
_SPACED_DIGITS = re.compile(
    r"(?<![\w+\-.,:/])(?<![\d.,:/] )\d(?: \d){2,}(?![\w,:/]|\.\d| [\d.,:/])"
)
"""Three single digits or more spaced one by one ("1 1 2")."""
_NANP = re.compile(r"\+\s?1\s?(?:\((\d{3})\)|[ \u00a0](\d{3}))(?![\d])")
"""+1 then a North American area code, in brackets or after a space: one calling code, +1."""


def with_area_code(text: str) -> bool:
    """Rules 22: whether a reply gives +1 with a North American area code (`_NANP`), which no
    installed source ties to its territory: the rules cannot tell "+1 868" from Jamaica's."""
    return _NANP.search(text) is not None or _NANP_HYPHEN.search(text) is not None


def another_territorys_area_code(text: str, subject: Sequence[str]) -> bool:
    """Rules 28: whether a reply gives +1 with the area code libphonenumber's metadata (the
    `phonenumbers` package) gives one or more other territories of the North American plan, none
    of them the country asked about ("+1-242", the Bahamas', asked of Jamaica; not "+1 876"),
    nor told of a territory the reply names (`_named`). Area codes of the United States and
    Canada, which it does not list, are left uncertain."""
    own = _own_codes(tuple(subject))
    return bool(own) and any(
        regions and not regions & own and not _named(text, regions)
        for regions in (_nanp_regions().get(area, frozenset()) for area in _area_codes(text))
    )


def _named(text: str, regions: frozenset[str]) -> bool:
    """Whether the reply names a territory of ``regions`` by its English name (CLDR): the area
    code is told of it ("Jamaica, for instance, dials +1-876")."""
    from babel import Locale

    names = Locale("en").territories
    folded = text.casefold()
    return any(r in names and names[r].casefold() in folded for r in regions)


def own_area_codes(text: str, subject: Sequence[str]) -> bool:
    """Rules 28: whether every area code a reply gives after +1 is, by libphonenumber's
    metadata, one of the country asked about ("+1 876" asked of Jamaica): no longer uncertain."""
    own = _own_codes(tuple(subject))
    areas = _area_codes(text)
    return (
        bool(own)
        and bool(areas)
        and all(_nanp_regions().get(area, frozenset()) & own for area in areas)
    )


def _area_codes(text: str) -> list[str]:
    areas = [m.group(1) or m.group(2) for m in _NANP.finditer(text)]
    return areas + [m.group(0)[-3:] for m in _NANP_HYPHEN.finditer(text)]


@lru_cache(maxsize=256)
def _own_codes(subject: tuple[str, ...]) -> frozenset[str]:
    return frozenset(code for name in subject for code in territory_codes(name))


@lru_cache(maxsize=1)
def _nanp_regions() -> dict[str, frozenset[str]]:
    """A North American area code -> the territories libphonenumber gives it (its metadata's
    leading digits for each region of country code 1)."""
    import phonenumbers
    from phonenumbers import PhoneMetadata

    out: dict[str, set[str]] = {}
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(1, ()):
        meta = PhoneMetadata.metadata_for_region(region)
        if meta is None or not meta.leading_digits:
            continue
        pattern = re.compile(meta.leading_digits)
        for n in range(200, 1000):
            if pattern.fullmatch(str(n)):
                out.setdefault(str(n), set()).add(region)
    return {area: frozenset(regions) for area, regions in out.items()}


_NANP_HYPHEN = re.compile(r"\+\s?1\s?[-\u2010\u2011\u2013]\s?\d{3}(?![\d-])")
"""Rules 22: +1 and an area code joined by a hyphen ("+1-876")."""

_ION = re.compile(r"\b([A-Z][a-z]?)([1-8]?)([+-])(?![\w+-])")
"""An element symbol with its charge ("Fe3+", "Cl-"): the ion, whose charge is its oxidation state."""
_STATE = re.compile(r"(?<=[\w)])\((g|l|s|aq)\)")
_STATES = {"g": "gas", "l": "liquid", "s": "solid", "aq": "aqueous"}
"""IUPAC's state symbols after a formula (the Green Book, 2.10.1)."""

_TRIGGER = re.compile(
    rf"[A-Z][a-z]?[1-8]?[+-](?![\w+-])|[\w)]\((?:g|l|s|aq)\)|"
    rf"\b(?:{_WORD}|{_ORDINAL})\b|\d(?:st|nd|rd|th)\b|\b(?:group|period)\s+[IVX]|\bgroup\s+[1-8][AB]\b|"
    rf"[^\W\d_]\s?\(\s*[+-]?[IVX]+\s*\)|[+-][IVX]+\b|\d[ \u00a0\u2009\u202f]\d{{3}}|"
    rf"\+\s?1\s?\(|\b(?:plus|minus)\s+\d|\bhours?\b|\d\u2044|/gmt|\d \d \d|(?:utc|gmt)\s*[+-]\s*\d+\s*h|(?-i:\bM[MDCLXVI]{{3}})|[{_CJK_ANY}零幺]{{2}}|[{''.join(_HANGUL_DIGITS)}]{{3}}|[^\W\d_]-[^\W\d_]+-[^\W\d_]",
    re.IGNORECASE,
)
"""Whether a text may hold any of the formats (most replies do not: they are left as they are)."""


def spell_out(text: str) -> str:
    """The text with numbers in other formats written as digits (see the module docstring)."""
    if not _TRIGGER.search(text):
        return text
    return _spell_out(text)


@lru_cache(maxsize=16384)
def _spell_out(text: str) -> str:
    out = _ION.sub(lambda m: f"{m[1]} ({m[3]}{m[2] or 1})", text)
    out = _STATE.sub(lambda m: f" ({_STATES[m[1]]})", out)
    out = _OH_YEAR.sub(_oh_year, out)
    out = _RUN.sub(_run_digits, out)
    out = _ORDINAL_NOUN.sub(_ordinal_noun, out)
    out = _GROUP_ROMAN.sub(_group_roman, out)
    out = _GROUP_CAS_DIGIT.sub(
        lambda m: f"{m[1]} {(_CAS_A if m[3].upper() == 'A' else _CAS_B)[int(m[2])]}", out
    )
    out = _BRACKET_ROMAN.sub(lambda m: f" ({m[1] or '+'}{_roman(m[2])})", out)
    out = _SIGNED_ROMAN.sub(lambda m: f"{m[1]}{_roman(m[2])}", out)
    out = _HOURS_FROM_UTC.sub(_hours_from_utc, out)
    out = _UTC_PLUS.sub(_utc_plus, out)
    out = _UTC_FRACTION.sub(
        lambda m: _offset(m[2], int(m[3] or 0), 60 * int(m[4]) // int(m[5])), out
    )
    out = _UTC_H_MIN.sub(lambda m: _offset(m[2], int(m[3]), int(m[4])), out)
    out = _ETC_GMT.sub(lambda m: _offset("-" if m[1] == "+" else "+", int(m[2]), 0), out)
    out = _PLUS.sub(lambda m: ("+" if m[1].casefold() == "plus" else "-") + m[2], out)
    out = _NANP.sub("+1", out)
    out = _ROMAN_YEAR.sub(lambda m: str(_roman(m[0])), out)
    out = _CJK_NUMERAL.sub(_cjk_numeral, out)
    out = _CJK_RUN.sub(lambda m: "".join(str(_CJK_VALUES[c]) for c in m[0]), out)
    out = _HANGUL_RUN.sub(lambda m: "".join(str(_HANGUL_DIGITS[c]) for c in m[0]), out)
    out = _HYPHENED.sub(_foreign_digits, out)
    out = _SPACED_DIGITS.sub(lambda m: m[0].replace(" ", ""), out)
    return _GROUPED_DIGITS.sub(lambda m: re.sub(r"\D", "", m[0]), out)


def _cjk_numeral(match: re.Match[str]) -> str:
    """The value of a numeral with units (`_CJK_NUMERAL`), or the text as it was."""
    text = match[0]
    if len(text) < 2 or not any(c in _CJK_UNITS for c in text):
        return text
    total, digit = 0, None
    for c in text:
        if c in _CJK_UNITS:
            total += (1 if digit is None else digit) * _CJK_UNITS[c]
            digit = None
        else:
            digit = _CJK_VALUES[c]
    return str(total + (digit or 0))


def _foreign_digits(match: re.Match[str]) -> str:
    """Rules 18: words joined by hyphens that are all digit words of one language text2num
    reads ("eins-eins-zwei", "uno-uno-dos") are the digits in a row; the text as it was
    otherwise."""
    words = match[0].casefold().split("-")
    for language in _TEXT2NUM_LANGUAGES:
        digits = [_digit_of(word, language) for word in words]
        if all(d is not None for d in digits):
            return "".join(str(d) for d in digits)
    return match[0]


@lru_cache(maxsize=4096)
def _digit_of(word: str, language: str) -> int | None:
    """The digit a word names in a language (text2num), or None."""
    try:
        value = text2num(word, language)
    except ValueError:
        return None
    return value if 0 <= value <= 9 else None


def _oh_year(match: re.Match[str]) -> str:
    century = _UNITS.index(match[1].casefold()) if match[1].casefold() in _UNITS else 20
    return str(century * 100 + _UNITS.index(match[2].casefold()))


def _run_digits(match: re.Match[str]) -> str:
    """Digits of a run of number words, or the run as it was if it is no number."""
    run = match[0]
    words = [w.casefold() for w in re.split(r"[\s-]+", run) if w]
    if words == ["one"]:  # a pronoun ("naming one"), but a number after a sign ("minus one")
        signed = _SIGN_WORD_BEFORE.search(match.string, 0, match.start())
        hour = _HOUR_AFTER.match(match.string, match.end())  # "one hour ahead of GMT"
        return "1" if signed or hour else run
    ordinal = ""
    if words[-1] in _ORDINALS:
        ordinal = words.pop()
        if not words:
            return f"{_ORDINALS.index(ordinal) + 1}th"
    expanded: list[str] = []
    times = 1
    for w in words:
        if w in _MULTIPLIERS:
            times = _MULTIPLIERS[w]
            continue
        expanded.extend([w] * times)
        times = 1
    if not expanded:
        return run
    if ordinal:
        value = _cardinal(expanded)
        step = _ORDINALS.index(ordinal) + 1
        return run if value is None or value % 10 else f"{value + step}th"
    zeros = len(expanded) - len(_lstrip_zeros(expanded))
    rest = expanded[zeros:]
    if not rest:
        return "0" * zeros  # "triple zero": 000
    if len(rest) >= 2 and all(w in _DIGIT_WORDS for w in rest):  # "one zero one": 101
        return "0" * zeros + "".join(str(_UNITS.index(w)) for w in rest)
    value = _cardinal(rest)
    digits = str(value) if value is not None else "".join(str(p) for p in _parts(rest))
    return "0" * zeros + digits if digits else run


def _lstrip_zeros(words: list[str]) -> list[str]:
    """The words after the leading zeros ("zero zero forty four": 0044, not 44)."""
    i = 0
    while i < len(words) and words[i] == "zero":
        i += 1
    return words[i:]


def _cardinal(words: list[str]) -> int | None:
    try:
        return int(text2num(" ".join(words), "en"))
    except ValueError:
        return None


def _parts(words: list[str]) -> list[int]:
    """The numbers a run of number words says one after another, each the longest that reads
    as one ("seventeen seventy six": 17, 76; "zero zero forty four": 0, 0, 44), or [] if a word
    reads as none."""
    parts: list[int] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            value = _cardinal(words[i:j])
            if value is not None:
                parts.append(value)
                i = j
                break
        else:
            return []
    return parts


def _ordinal_noun(match: re.Match[str]) -> str:
    noun = match[2]
    if noun.casefold() in _NOT_NOUNS:
        return match[0]
    return f"{noun} {int(match[1])}"


def _roman(numeral: str) -> int:
    total = 0
    values = [_ROMAN_VALUES[c] for c in numeral.upper()]
    for i, v in enumerate(values):
        total += -v if i + 1 < len(values) and values[i + 1] > v else v
    return total


def _group_roman(match: re.Match[str]) -> str:
    word, numeral, letter = match[1], match[2], match[3]
    if not numeral or (numeral.islower() and not letter):
        return match[0]
    n = _roman(numeral)
    if letter and word.casefold() == "group":
        table = _CAS_A if letter.upper() == "A" else _CAS_B
        if n not in table:
            return match[0]
        n = table[n]
    return f"{word} {n}"


def _offset(sign: str, hours: int, minutes: int) -> str:
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def _hours_from_utc(match: re.Match[str]) -> str:
    hours = int(match[1])
    minutes = round(float("0." + match[2]) * 60) if match[2] else 0
    minutes += _minutes(match[3])
    minutes += int(match[4] or 0)
    sign = "-" if match[5].casefold().startswith(("behind", "earlier")) else "+"
    return _offset(sign, hours, minutes)


def _minutes(fraction: str | None) -> int:
    """Minutes of "and a half" (30), "and a quarter" (15), "and three quarters" (45)."""
    if not fraction:
        return 0
    if "half" in fraction:
        return 30
    return 45 if re.search(r"three|3", fraction) else 15


def _utc_plus(match: re.Match[str]) -> str:
    sign = "+" if match[2].casefold() == "plus" else "-"
    minutes = _minutes(match[4])
    return _offset(sign, int(match[3]), minutes)


def foreign_number_readings(text: str) -> Iterator[str]:
    """Rules 19: the text with number words of each other language text2num reads written as
    digits ("Le cent douze." is "Le 112.", "Cento e noventa" 190), where that changes it; each
    language read only when the readings before it were tried."""
    readings: list[str] = []
    for language in _TEXT2NUM_LANGUAGES:
        reading = alpha2digit(text, language)
        if reading != text and reading not in readings:
            readings.append(reading)
            yield reading
