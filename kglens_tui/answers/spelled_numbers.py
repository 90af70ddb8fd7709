"""Rules 25: a true number a reply writes otherwise than in digits: in number words of many
languages (the num2words library: Polish "Dziewięćset dziewięćdziesiąt siedem" is 997, Russian
"в тысяча восемьсот сорок четвёртом году" 1844, Thai digit words one by one), in Ethiopic
numerals ("፪፻፶፩" is 251), or in digit groups joined by hyphens ("10-111" is 10111)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

from num2words import num2words

from kglens_tui.answers.mentions import Token, tokenize

LANGUAGES = (
    "ar", "az", "be", "bn", "ca", "cs", "cy", "da", "eo", "fa", "fi", "he", "hu", "id", "is",
    "ja", "kn", "ko", "kz", "lt", "lv", "no", "pl", "ro", "ru", "sk", "sl", "sr", "sv", "te",
    "tg", "th", "tr", "uk", "vi",
)  # fmt: skip
"""The languages whose number words num2words writes that text2num does not read (English, French,
Spanish, Portuguese, German, Italian and Dutch: `kglens_tui.answers.numbers`)."""

_VOCABULARY = (*range(1, 100), *range(100, 1000, 100), 1000, 2000, 10000, 1000000)
"""The numbers whose words make a language's number words (`_number_words`)."""

_INFLECTED_MIN = 4
"""A reply's word may be a number word with an ending ("четвёртом" of "четвёртый") when the
number word has at least this many letters."""

_ALONE_MAX = 4
"""A number written as one word of at most this many letters ("tre", "due") is read only where
it is the whole reply: shorter words are words of other languages too."""

_MAX_NUMBER = 10**7
"""The largest true number spelled out (a larger one is a code, never written in words)."""

_ORDINAL_GAPS: dict[str, type[LookupError]] = {
    "ca": KeyError,
    "ko": KeyError,
    "pl": IndexError,
    "uk": IndexError,
}
"""What num2words (0.5.14) raises, beside NotImplementedError (a language or form it lacks, or a
number too large for it), for an ordinal it cannot write in a language: Catalan and Korean
ordinals of some numbers (627860, 1000), the Polish and Ukrainian of 0."""


def _norms(text: str) -> tuple[str, ...]:
    return tuple(t.norm for t in tokenize(text) if t.word)


def _written(number: int, language: str, form: str) -> str | None:
    """num2words' ``form`` of ``number`` in ``language``, or None where it has none (any other
    error is raised)."""
    gap = _ORDINAL_GAPS.get(language) if form == "ordinal" else None
    try:
        text = num2words(number, lang=language, to=form)
    except NotImplementedError:
        return None
    except LookupError as error:
        if gap is None or not isinstance(error, gap):
            raise
        return None
    return text if isinstance(text, str) else None


@cache
def _number_words(language: str) -> frozenset[str]:
    """Every word of a language's number words (those of `_VOCABULARY`, cardinal and
    ordinal)."""
    words: set[str] = set()
    for number in _VOCABULARY:
        for form in ("cardinal", "ordinal"):
            written = _written(number, language, form)
            if written:
                words.update(_norms(written))
    return frozenset(words)


@lru_cache(maxsize=512)
def _spellings(number: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(language, the words' norms) of each way `LANGUAGES` write ``number``: as a cardinal, an
    ordinal, its digits one by one and (rules 27) a year as a count of hundreds
    (`_hundreds_year`)."""
    out: dict[tuple[str, tuple[str, ...]], None] = {}
    for language in LANGUAGES:
        for form in ("cardinal", "ordinal"):
            written = _written(number, language, form)
            if written:
                out[(language, _norms(written))] = None
        hundreds = _hundreds_year(number, language)
        if hundreds:
            out[(language, _norms(hundreds))] = None
        digits = [_written(int(d), language, "cardinal") for d in str(number)]
        if len(digits) > 1 and all(digits):
            out[(language, _norms(" ".join(d for d in digits if d)))] = None
    return tuple(key for key in out if key[1])


_CENTURIES = range(11, 20)
"""The hundreds a year is counted in by some languages ("nittonhundra", nineteen hundred)."""


def _hundreds_year(number: int, language: str) -> str | None:
    """Rules 27: a year from 1100 to 1999 as a count of hundreds, as Swedish, Danish,
    Norwegian and Icelandic say years ("nittonhundrasjuttiofem" is 1975): the cardinal of its
    hundreds, then the language's cardinal of two hundred and the rest less its first number
    word ("tvåhundrasjuttiofem" less "två", "to hundre og syttifem" less "to"); None for other
    numbers."""
    century, rest = divmod(number, 100)
    if century not in _CENTURIES:
        return None
    head = _written(century, language, "cardinal")
    two = _written(2, language, "cardinal")
    tail = _written(200 + rest, language, "cardinal")
    if not (head and two and tail):
        return None
    if tail.startswith(two):
        tail = tail[len(two) :]
    elif " " in tail:  # a two of another gender ("tvö hundruð" beside "tveir")
        tail = tail.split(" ", 1)[1]
    else:
        return None
    return f"{head}{tail}"


def _same_word(written: str, number_word: str) -> bool:
    """Whether a reply's word is a number word, maybe with an inflected ending."""
    return written == number_word or (
        len(number_word) >= _INFLECTED_MIN and written.startswith(number_word)
    )


def _end_of_run(words: Sequence[str], start: int, spelled: tuple[str, ...]) -> int:
    """Where the words from ``start`` that write ``spelled`` end, word by word (a word may take
    an ending) or run together or apart otherwise ("sedm set" for "sedmset", "bin sekiz yüz"
    for "binsekizyüz"); 0 if they do not."""
    end = start + len(spelled)
    if end <= len(words) and all(
        _same_word(w, s) for w, s in zip(words[start:end], spelled, strict=True)
    ):
        return end
    squashed = "".join(spelled)
    written = ""
    for end in range(start, len(words)):
        written += words[end]
        if written == squashed:
            return end + 1
        if not squashed.startswith(written):
            return 0
    return 0


def _spelled_at(words: Sequence[str], start: int, spelled: tuple[str, ...], language: str) -> bool:
    """Whether ``words`` from ``start`` are ``spelled`` (`_end_of_run`) and no more of the
    language's number words stand right before or after them ("tysiąc" is no 1000 in "dwa
    tysiące")."""
    end = _end_of_run(words, start, spelled)
    if not end:
        return False
    vocabulary = _number_words(language)
    near = [words[i] for i in (start - 1, end) if 0 <= i < len(words)]
    return not any(any(_same_word(w, v) for v in vocabulary) for w in near)


def _true_numbers(true_answers: Sequence[Sequence[str]]) -> list[tuple[str, int]]:
    """(name, value) of each true name that is a whole number ("+251", "1844", "997")."""
    out = []
    for group in true_answers:
        for name in group:
            digits = name.lstrip("+")
            if digits.isdigit() and 0 < int(digits) < _MAX_NUMBER:
                out.append((name, int(digits)))
    return out


def spelled_number_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The reply with a true number it writes in `LANGUAGES`' number words given as that true
    name, where it writes one: the words may take an inflected ending, and no other number word
    may stand beside them; a number of one short word (`_ALONE_MAX`) only as the whole reply."""
    numbers = _true_numbers(true_answers)
    if not numbers or any(c.isdigit() for c in reply):
        return None
    tokens: list[Token] = [t for t in tokenize(reply) if t.word]
    words = [t.norm for t in tokens]
    if not words:
        return None
    for name, value in numbers:
        for language, spelled in _spellings(value):
            if len(spelled) == 1 and len(spelled[0]) <= _ALONE_MAX and len(words) != 1:
                continue
            first = spelled[0]
            for start, word in enumerate(words):
                if (_same_word(word, first) or first.startswith(word)) and _spelled_at(
                    words, start, spelled, language
                ):
                    raw = [t.raw for t in tokens]
                    end = _end_of_run(words, start, spelled)
                    return " ".join([*raw[:start], name, *raw[end:]])
    return None


_ETHIOPIC = re.compile("[\u1369-\u137c]+")
"""A run of Ethiopic numerals (፩ to ፼)."""

_HUNDRED = 100
_TEN_THOUSAND = 10000


def _ethiopic_value(run: str) -> int:
    """The value of Ethiopic numerals: units and tens add, ፻ multiplies what is before it by a
    hundred and ፼ by ten thousand ("፪፻፶፩" is 2 x 100 + 50 + 1)."""
    total = current = 0
    for char in run:
        value = int(unicodedata.numeric(char))
        if value == _TEN_THOUSAND:
            total = (total + (current or 1)) * _TEN_THOUSAND
            current = 0
        elif value == _HUNDRED:
            current = (current or 1) * _HUNDRED
        else:
            current += value
    return total + current


def ethiopic_reading(reply: str) -> str | None:
    """The reply with its Ethiopic numerals written in digits ("+፪፻፶፩" is "+251"), if it has
    any."""
    if not _ETHIOPIC.search(reply):
        return None
    return _ETHIOPIC.sub(lambda m: str(_ethiopic_value(m[0])), reply)


_GROUPED = re.compile(r"(?<![\w-])(\d+(?:-\d+)+)(?![\w-])")
"""Digit groups joined by hyphens ("10-111")."""


def grouped_digits_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The reply with digit groups joined by hyphens written as one number where that number is
    a true one ("10-111" for 10111: a phone number's groups; not "1939-1945", a span)."""
    true = {name.lstrip("+") for group in true_answers for name in group}
    changed = False

    def joined(match: re.Match[str]) -> str:
        nonlocal changed
        digits = match[1].replace("-", "")
        if digits in true:
            changed = True
            return digits
        return match[0]

    reading = _GROUPED.sub(joined, reply)
    return reading if changed else None
