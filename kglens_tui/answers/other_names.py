"""Rules 31: replies that name another entity of the answer's kind by a name from a maintained
source, where the rules read a true answer in them (a currency by its unit word, a language
list by its known items); and replies that name a true answer by a form the sources write
otherwise (a flag of a subdivision, a calling code after a country's exit prefix)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from kglens_tui.kg.answer_names import (
    AnswerNames,
    answer_names,
    currency_codes_by_name,
    exit_prefixes,
    folded_words,
)

_NEGATING = frozenset({"not", "no", "nor", "never", "nicht", "kein", "pas", "non", "ni", "nao"})
"""Words that deny what follows them in a reply, in English and a few languages."""
_LONGEST_NAME = 5
"""The most words a currency name runs to that a reply is searched for ("dolar de los Estados
Unidos")."""


def _currency_codes(true_answers: Sequence[Sequence[str]]) -> frozenset[str]:
    return frozenset(n for group in true_answers for n in group if len(n) == 3 and n.isupper())


def another_currencys_name(
    reply: str, true_answers: Sequence[Sequence[str]], answer_only: Sequence[AnswerNames] = ()
) -> bool:
    """Rules 31: whether a reply to a question whose answers are currencies (by ISO 4217 code)
    writes a full name of another currency, of two words or more, in some CLDR locale ("El peso
    argentino." asked of Uruguay, "الريال السعودي" of Qatar) and no full name of a true one: the
    unit word it shares with a true currency ("peso", "riyal") names the other currency. Any
    name of a true currency anywhere in the reply ("The euro, which replaced the Deutsche
    Mark.", "euros"; a unit word alone is none), or a word that denies ("The peso, not the
    Argentine peso."), leaves the reply to the other rules."""
    codes = _currency_codes(true_answers)
    if not codes:
        return False
    words = folded_words(reply)
    if len(words) < 2 or _NEGATING.intersection(words):
        return False
    table = currency_codes_by_name()
    own = _own_currency_names(tuple(map(tuple, true_answers)), tuple(answer_only))
    other = False
    for size in range(1, min(_LONGEST_NAME, len(words)) + 1):
        for start in range(len(words) - size + 1):
            span = " ".join(words[start : start + size])
            named = table.get(span)
            if span in own or (named and codes.intersection(named)):
                return False
            if named and size > 1:
                other = True
    return other


@lru_cache(maxsize=256)
def _own_currency_names(
    true_answers: tuple[tuple[str, ...], ...], answer_only: tuple[AnswerNames, ...]
) -> frozenset[str]:
    """The true currencies' names as `folded_words` joined by spaces: their KG names, and those
    answer-only names of two words or more or that begin with a one-word own name (a unit word
    alone, "riyal", "ريال", is no true currency's own name). The same for every reply to one
    question, so kept."""
    own = {" ".join(folded_words(n)) for group in true_answers for n in group}
    own.discard("")
    singles = tuple(o for o in own if " " not in o)
    for names in answer_only:
        for name in names.names:
            folded = " ".join(folded_words(name))
            if " " in folded or (singles and folded.startswith(singles)):
                if " " not in folded and folded not in own:
                    singles += (folded,)
                own.add(folded)
    return frozenset(own)


_LEADING_ARTICLE = frozenset({"the", "el", "la", "le", "les", "los", "las", "der", "die", "das"})


@lru_cache(maxsize=1 << 16)
def _whole(text: str) -> str:
    words = list(folded_words(text))
    if words and words[0] in _LEADING_ARTICLE:
        words = words[1:]
    return " ".join(words)


def subject_by_another_name(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    subject: Sequence[str],
    answer_only: Sequence[AnswerNames],
) -> bool:
    """Rules 31: whether a reply that is only a name is one the sources give the country asked
    about (`answer_names` of its ISO 3166 alpha-3 code: CLDR, pycountry, the Factbook's former
    names) and no true answer's, though a true answer's name is part of it: it names the subject,
    not an answer ("East Pakistan." asked what Bangladesh gained independence from)."""
    codes = [n for n in subject if len(n) == 3 and n.isalpha() and n.isupper()]
    if not codes or not subject:
        return False
    whole = _whole(reply)
    if not whole or len(whole) > _LONGEST_REPLY or any(c.isdigit() for c in reply):
        return False
    own = _own_whole_names(tuple(map(tuple, true_answers)), tuple(answer_only))
    if whole in own or not any(f" {name} " in f" {whole} " for name in own):
        return False
    names = answer_names(f"country:{codes[0]}", subject[0])
    return any(_whole(n) == whole for n in (*subject, *names.names))


@lru_cache(maxsize=256)
def _own_whole_names(
    true_answers: tuple[tuple[str, ...], ...], answer_only: tuple[AnswerNames, ...]
) -> frozenset[str]:
    """Every name of the true answers as `_whole` reads a reply (kept: the same for every reply
    to one question)."""
    own = {_whole(n) for group in true_answers for n in group}
    own.update(_whole(n) for names in answer_only for n in (*names.names, *names.short))
    own.discard("")
    return frozenset(own)


_LONGEST_REPLY = 60
"""The longest reply, in letters, read as only a name."""


_SIGNED = r"[+\-\u2212]?\s?\d{1,2}"
_RANGE = re.compile(
    rf"(?:\bfrom\s+({_SIGNED})\s+(?:to|through|up\s+to)\s+({_SIGNED}))"
    rf"|(?:\bbetween\s+({_SIGNED})\s+and\s+({_SIGNED}))"
    rf"|(?:(?<![\w+\-\u2212])({_SIGNED})\s?[\u2013\u2014]\s?({_SIGNED})(?!\d))",
    re.IGNORECASE,
)
"""A range of two whole numbers ("from −3 to +5", "between +1 and +4", "+2–+6")."""
_WHOLE_NUMBER = re.compile(r"[+\-\u2212]?\d{1,2}")


def _number(text: str) -> int:
    return int(text.replace("\u2212", "-").replace(" ", ""))


def range_beyond_answers(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Rules 31: whether a reply to a question whose answers are all whole numbers (oxidation
    states) gives a range that takes in whole numbers no true answer is ("Anything from −3 to
    +5." asked of nitrogen, whose states the KG gives as −3, +3 and +5): it claims every number
    between its ends, not the answers' list. A reader may take it as loosely meant (uncertain)."""
    values: set[int] = set()
    for group in true_answers:
        numbers = [n for n in group if _WHOLE_NUMBER.fullmatch(n.strip())]
        if not numbers:
            return False
        values.update(_number(n) for n in numbers)
    if len(values) < 2:
        return False
    ranges = list(_RANGE.finditer(reply))
    if len(_WHOLE_NUMBER.findall(reply)) != 2 * len(ranges):
        return False  # numbers beside the range ("from −3 to +5, commonly −3, +3 and +5")
    for match in ranges:
        ends = [g for g in match.groups() if g is not None]
        low, high = sorted(_number(e) for e in ends)
        if high - low > 1 and set(range(low, high + 1)) - values:
            return True
    return False


@lru_cache(maxsize=1)
def _after_exit_prefix() -> re.Pattern[str]:
    prefixes = "|".join(exit_prefixes()[""])
    return re.compile(rf"(?<![\d+\w])(?:{prefixes})[\s\-\u2010-\u2013]+(\d{{1,3}})(?![\d\w])")


def exit_prefix_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 31: where the true answers are calling codes ("+52"), the reply with a number
    dialled after an international (exit) prefix of libphonenumber's metadata, apart from it
    ("011-52", "0011 61"), read as that calling code ("+52"): the prefix is what a caller dials
    to leave their own country, no part of the code. None where it has no such number."""
    if not any(n.startswith("+") for group in true_answers for n in group):
        return None
    read = _after_exit_prefix().sub(r"+\1", reply)
    return read if read != reply else None
