"""Rules 28: lists and corrections as a careful reader reads them in any language: the word that
joins a list's last items in another language (CLDR's list patterns: German "und", Dutch "en",
Spanish "o") is "and" or "or"; a word of retraction written in Cyrillic or Greek is the word its
Latin letters spell ("извините" is "izvinite"); a list of UTC offsets read whole ("UTC+7, +8 and
+9": each item an offset)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from kglens_tui.answers.correction_words import RETRACTING
from kglens_tui.kg.answer_names import (
    PARTICLES,
    inverted_language_heads,
    language_codes_by_name,
    list_conjunctions,
)
from kglens_tui.kg.name_folding import fold_name

_JOINED = re.compile(r"(?<=[^\W\d_])(\s+)([^\W\d_]+)(?=\s+([^\W\d_]))")
"""A word between spaces after a word (no comma between) and before one."""


_OR_OPENING = re.compile(r"(?:^|(?<=[.!?]\s))([^\W\d_]+,\s+)([^\W\d_]+)(?=\s+([^\W\d_]))")
"""A sentence that opens with a word, a comma and another word before a third ("Bueno, o
Cuenca")."""


def conjunctions_read(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The reply with each word that joins a list's last items in another language (rules 28:
    `list_conjunctions`), as English's "and" or "or": written in lower case, as CLDR's patterns
    put it, between a capitalised word and another ("Englisch und Spanisch", "Quito o Cuenca"),
    or an "or" after a sentence's first word and a comma ("Quito. Bueno, o Cuenca"); never a
    particle of names (`PARTICLES`: "da", "y") nor a word of a true name ("Pico da Neblina").
    None where it has none."""
    if reply.isascii() and not any(f" {w} " in reply for w in _ascii_words()):
        return None
    words = list_conjunctions()
    kept = _true_name_words(tuple(tuple(g) for g in true_answers))
    changed = False

    def english(m: re.Match[str], *, only_or: bool = False) -> str:
        nonlocal changed
        word = m.group(2)
        meanings = words.get(word) if word.islower() and word not in kept else None
        meaning = meanings[0] if meanings else None
        if meaning is None or not m.group(3).isupper() or (only_or and meaning != "or"):
            return m.group(0)
        if not only_or and not _capitalised_before(reply, m.start()):
            return m.group(0)
        changed = True
        return f"{m.group(1)}{meaning}"

    read = _JOINED.sub(english, reply)
    read = _OR_OPENING.sub(lambda m: english(m, only_or=True), read)
    return read if changed else None


def _capitalised_before(text: str, end: int) -> bool:
    """Whether the word that ends at ``end`` is capitalised."""
    start = end
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return start < end and text[start].isupper()


@lru_cache(maxsize=256)
def _true_name_words(groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return frozenset(
        {*PARTICLES, *(w.casefold() for group in groups for n in group for w in n.split())}
    )


@lru_cache(maxsize=1)
def _ascii_words() -> tuple[str, ...]:
    return tuple(w for w in list_conjunctions() if w.isascii())


_ITEM_SPLIT = re.compile(r"\s*[,;/]\s*|\s+(?:and|or)\s+")
"""Where a list's items part: a comma, a semicolon, a slash, "and" or "or"."""


def another_language_listed(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Rules 28: whether a reply that is a list of languages, to a question whose answers are
    languages, lists one that CLDR names, in some locale, that is none of them ("Englisch und
    Spanisch." asked of Canada: "Spanisch" is Spanish in German; "Nederlands, Frans en
    Luxemburgs." of Belgium). An item CLDR does not name is left to the other rules."""
    codes = _true_language_codes(tuple(tuple(g) for g in true_answers))
    if not codes or not _A_LIST.fullmatch(reply):
        return False
    named = _listed_languages(reply, true_answers)
    return all(named) and any(c & codes for c in named) and any(not c & codes for c in named)


def _items(text: str) -> list[str]:
    return [i.strip(" .!") for i in _ITEM_SPLIT.split(text.strip().rstrip(".!"))]


def _listed_languages(
    reply: str, true_answers: Sequence[Sequence[str]], *, heads: bool = False
) -> list[set[str]]:
    """The codes of the languages each item of a list reply names by a CLDR name (an empty set
    for an item no CLDR name is; rules 31 with ``heads``: else the ISO 639-3 languages whose
    inverted name it heads, "Hindustani" of "Hindustani, Caribbean"); [] where the reply is no
    list of two items or more. Rules 31: where the items are not all names, the list is read
    again with each word that joins a list in some CLDR locale as "and", whatever the case of
    the words around it ("Português e espanhol": Portuguese writes languages in lower case)."""
    names = language_codes_by_name()

    def codes(item: str) -> set[str]:
        found = {c.split("_")[0] for c in names.get(fold_name(item), ())}
        if not found and heads:
            found = set(inverted_language_heads().get(fold_name(item), ()))
        return found

    read = conjunctions_read(reply, true_answers) or reply
    items = _items(read)
    if len(items) < 2 or not all(codes(i) for i in items):
        joined = _any_joining_word(read, true_answers) or _joined_by_a_letter(read)
        if joined is not None:
            items = _items(joined)
    if len(items) < 2:
        return []
    return [codes(item) for item in items]


_BETWEEN_WORDS = re.compile(r"(?<=[^\W\d_])(\s+)([^\W\d_]+)(?=\s+[^\W\d_])")


def _any_joining_word(text: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 31: ``text`` with each lower-case word between two words that joins a list in some
    CLDR locale (`list_conjunctions`) written as "and"; None where it has none."""
    words = list_conjunctions()
    kept = _true_name_words(tuple(tuple(g) for g in true_answers))
    changed = False

    def english(m: re.Match[str]) -> str:
        nonlocal changed
        if m[2].islower() and m[2] in words and m[2] not in kept:
            changed = True
            return f"{m[1]}and"
        return m[0]

    read = _BETWEEN_WORDS.sub(english, text)
    return read if changed else None


_LETTER_AND_WORD = re.compile(r"(?<!\S)([^\W\d_])([^\W\d_]{2,})")


def _joined_by_a_letter(text: str) -> str | None:
    """Rules 36: ``text`` with each word that is a one-letter joining word of some CLDR locale
    (`list_conjunctions`, "and") written onto a CLDR language name ("والإنجليزية": Arabic "و",
    "and", then "الإنجليزية", English) as "and" and the name; None where it has none."""
    words = list_conjunctions()
    names = language_codes_by_name()
    changed = False

    def english(m: re.Match[str]) -> str:
        nonlocal changed
        if (
            words.get(m[1]) == ("and",)
            and fold_name(m[2]) in names
            and fold_name(m[0]) not in names
        ):
            changed = True
            return f"and {m[2]}"
        return m[0]

    read = _LETTER_AND_WORD.sub(english, text)
    return read if changed else None


def language_listed_by_head(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Rules 31: whether a list of languages names a true one and, by an item no CLDR locale
    names, the head of the inverted ISO 639-3 name of languages none of which is true
    ("Hindustani and English." asked of India: "Hindustani, Caribbean"): it lists a language
    that is not an answer, though a reader may take the item otherwise (uncertain)."""
    codes = _true_language_codes(tuple(tuple(g) for g in true_answers))
    if not codes or not _A_LIST.fullmatch(reply):
        return False
    named = _listed_languages(reply, true_answers, heads=True)
    return all(named) and any(c & codes for c in named) and any(not c & codes for c in named)


_A_LIST = re.compile(r"[^\W\d_][^\W\d_\s,'’-]*(?:,?\s+[^\W\d_][^\W\d_\s,'’-]*|,)*[.!]?")
"""A reply that is only words, spaces and commas, ending with a full stop or none."""


@lru_cache(maxsize=256)
def _true_language_codes(groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    """The codes of the languages (no regional variants) the true answers name, each of them a
    language by its English name (CLDR); else none."""
    names = language_codes_by_name()
    english = _english_language_names()
    codes: set[str] = set()
    for group in groups:
        if not any(fold_name(n) in english for n in group):
            return frozenset()
        codes |= {c.split("_")[0] for n in group for c in names.get(fold_name(n), ())}
    return frozenset(codes)


@lru_cache(maxsize=1)
def _english_language_names() -> frozenset[str]:
    from babel import Locale

    return frozenset(fold_name(name) for name in Locale("en").languages.values())


_NON_LATIN_WORD = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]+")
"""A word in Greek or Cyrillic letters."""


def retractions_in_latin(reply: str) -> str | None:
    """The reply with each word in Cyrillic or Greek letters whose Latin letters (anyascii,
    lower case) are a word of retraction (`correction_words.RETRACTING`: "izvinite", "izvini")
    written so; None where it has none ("Београд — извините, Нови Сад." reads "Београд —
    izvinite, Нови Сад.")."""
    if not _NON_LATIN_WORD.search(reply):
        return None
    from anyascii import anyascii

    changed = False

    def latin(m: re.Match[str]) -> str:
        nonlocal changed
        spelt = anyascii(m.group(0))
        if spelt.casefold() in RETRACTING:
            changed = True
            return spelt
        return m.group(0)

    read = _NON_LATIN_WORD.sub(latin, reply)
    return read if changed else None


_OFFSET = re.compile(r"\b(?:UTC|GMT)\s?[+\u2212-]\s?\d")
_BARE_OFFSET = re.compile(
    r"(?:(?<=,\s)|(?<=\band\s)|(?<=\bor\s)|(?<=;\s))([+\u2212-]\d{1,2}(?::\d\d)?)(?![\d:])"
)


def offsets_read_whole(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 28: in a reply to a question whose answers are UTC offsets, items of a list after a
    UTC offset that are only a sign and hours ("UTC+7, +8 and +9") are UTC offsets too ("UTC+9");
    None where there are none."""
    start = _OFFSET.search(reply)
    if start is None or not all(any(n.startswith("UTC") for n in g) for g in true_answers):
        return None
    head, tail = reply[: start.end()], reply[start.end() :]
    read = _BARE_OFFSET.sub(r"UTC\1", tail)
    return head + read if read != tail else None


_LONE_LAST = re.compile(
    r"\s*(?P<head>[^\W\d_]+(?:\s+[^\W\d_]+){0,3})\s+and\s+(?P<item>[^\W\d_]+)\s*[.!]?\s*"
)
"""A reply that is only a name of one to four words, "and" and one word ("The US dollar and
bitcoin.")."""


def lone_last_item(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Rules 28: whether a reply that is only a true answer ending in lower case, "and" and one
    word in lower case that is no word of a true name ("The US dollar and bitcoin.") lists an
    item outside the KG's names, which may be true all the same (the verdict is uncertain)."""
    shape = _LONE_LAST.fullmatch(reply)
    if shape is None or not shape["item"].islower():
        return False
    head = shape["head"].split()
    if not head[-1].islower():
        return False
    named = shape["head"].casefold()
    if not any(n.casefold() in named for group in true_answers for n in group if len(n) > 2):
        return False  # the item before "and" is no true answer
    return shape["item"].casefold() not in _true_name_words(tuple(tuple(g) for g in true_answers))
