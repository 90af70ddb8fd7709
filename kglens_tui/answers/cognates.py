"""Rules 27: a name of two words or more written in another language, word by word: each word
the true name's own, a spelling of it in another language (a shared start of four letters or
more, or most letters in order: "Rhodésie" for "Rhodesia", "Kongo" for "Congo") or a translation
CLDR's territory names teach ("Nord" for "North", "îles" for "Islands"): "Rhodésie du Nord" is
Northern Rhodesia, "Honduras Británica" British Honduras, "Oubangui-Chari" Ubangi-Shari. No
source lists such names; the verdict is correct but uncertain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from kglens_tui.kg.answer_names import (
    english_territory_words,
    name_words,
    territory_word_translations,
)

_FUNCTION_WORDS = frozenset(
    {"the", "and", "les", "los", "las", "del", "des", "der", "die", "das", "den", "dem", "dos",
     "und", "von", "van", "della", "degli", "dei", "delle", "het"}
)  # fmt: skip
"""Articles, prepositions and conjunctions of three letters or more in the languages CLDR's
names are most often read in: no word of the name (those of fewer letters never count)."""

_PREFIX_MIN = 4
"""Letters two spellings of a word share at their start ("brit" of "British", "Británica")."""
_RATIO_MIN = 0.76
"""How alike two spellings are letter by letter (difflib's ratio: "kongo", "congo" 0.8;
"guayana", "guiana" 0.77); above the 0.75 rules 11 take for a former zone's city, which
"southern" and "northern" reach."""
_WORDS_MAX = 5
"""The most words a name written so has."""
_PLAIN = re.compile(r"[^\W\d_][^\W\d_'’\s-]*(?:[\s'’-]+[^\W\d_][^\W\d_'’\s-]*)*")
"""A reply that is only words (letters, spaces, hyphens and apostrophes)."""


def _content(name: str) -> list[str]:
    return [w for w in name_words(name) if w not in _FUNCTION_WORDS]


def _spelled(word: str, true: str) -> bool:
    """Whether ``word`` spells ``true`` otherwise (`_PREFIX_MIN`, `_RATIO_MIN`); never two
    words of CLDR's English names of places ("western", "eastern")."""
    english = english_territory_words()
    if word in english and true in english:
        return False
    shared = 0
    for a, b in zip(word, true, strict=False):
        if a != b:
            break
        shared += 1
    if shared >= _PREFIX_MIN:
        return True
    return (
        min(len(word), len(true)) >= _PREFIX_MIN
        and SequenceMatcher(None, word, true).ratio() >= _RATIO_MIN
    )


@lru_cache(maxsize=1)
def _by_start() -> dict[str, frozenset[str]]:
    """The first five letters of a translated word -> the English words of the words so
    starting ("français" finds "française": "french")."""
    out: dict[str, set[str]] = {}
    for word, english in territory_word_translations().items():
        if len(word) >= _PREFIX_MIN + 1:
            out.setdefault(word[: _PREFIX_MIN + 1], set()).update(english)
    return {start: frozenset(words) for start, words in out.items()}


def _translated(word: str, true: str) -> bool:
    english = set(territory_word_translations().get(word, ()))
    if not english and len(word) > _PREFIX_MIN:
        english = set(_by_start().get(word[: _PREFIX_MIN + 1], ()))
    return any(true == e or true.startswith(e) for e in english)  # "north" of "northern"


def _aligned(said: list[str], true: list[str]) -> bool:
    """Whether each word said stands for one true word, every true word said once, and one at
    least by its spelling (`_spelled`), not only by a translation."""
    if len(said) != len(true):
        return False

    def match(i: int, left: tuple[str, ...], spelled: bool) -> bool:
        if i == len(said):
            return spelled
        for k, word in enumerate(left):
            rest = left[:k] + left[k + 1 :]
            if said[i] == word or _spelled(said[i], word):
                if match(i + 1, rest, True):
                    return True
            elif _translated(said[i], word) and match(i + 1, rest, spelled):
                return True
        return False

    return match(0, tuple(true), False)


def written_in_another_language(reply: str, true_answers: Sequence[Sequence[str]]) -> bool:
    """Whether a reply that is only a name of two to `_WORDS_MAX` words (an article aside) is a
    true name of two words or more written in another language, word by word (`_aligned`)."""
    text = reply.strip().rstrip(".!").strip()
    if not _PLAIN.fullmatch(text):
        return False
    said = _content(text)
    if not 2 <= len(said) <= _WORDS_MAX:
        return False
    for group in true_answers:
        for name in group:
            true = _content(name)
            if len(true) == len(said) and said != true and _aligned(said, true):
                return True
    return False
