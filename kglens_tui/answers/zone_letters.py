"""Rules 25: the military time zones, a fixed standard: a letter (A to Z, J left out) or its
NATO spelling word names a whole-hour offset ("Zulu" is UTC, "Foxtrot time" UTC+6)."""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORDS = (
    "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "kilo",
    "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
)  # fmt: skip
"""The NATO spelling words of the letters A to Z without J, in order."""

_EAST = 12
"""A to M (J left out) are UTC+1 to UTC+12; N to Y UTC-1 to UTC-12; Z is UTC."""


def _offset(index: int) -> int:
    if index == len(_WORDS) - 1:
        return 0
    return index + 1 if index < _EAST else -(index - _EAST + 1)


_BY_WORD = {word: _offset(i) for i, word in enumerate(_WORDS)}
_BY_WORD["alpha"] = _BY_WORD["alfa"]
_BY_WORD["whisky"] = _BY_WORD["whiskey"]
_BY_LETTER = {word[0]: offset for word, offset in _BY_WORD.items()}

_NAMES_TOO = frozenset({"india", "lima", "quebec", "victor", "mike", "romeo", "charlie"})
"""Spelling words that are also names of places or people: a zone only with "time" or "zone"
after them."""

_ZONE = re.compile(
    r"\s*(?:the\s+)?([a-z-]+|[A-Z])(\s+time)?(\s+zone)?(?:\s*\(([A-Z])\))?\s*[.!]?\s*",
    re.IGNORECASE,
)


def zone_letter_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The UTC offset a reply that is only a military zone's word or letter names ("Zulu." is
    "UTC+0"; a letter, or a word that is also a name, only before "time" or "zone": "F time",
    "India time zone"), where a true answer is an offset; else None."""
    if not any(n.startswith("UTC") for group in true_answers for n in group):
        return None
    shape = _ZONE.fullmatch(reply)
    if shape is None:
        return None
    word = shape[1].casefold().replace("-", "")
    told = bool(shape[2] or shape[3])
    if len(word) == 1:
        offset = _BY_LETTER.get(word) if told and word != "j" else None
    else:
        offset = _BY_WORD.get(word) if told or word not in _NAMES_TOO else None
    if offset is None:
        return None
    return f"UTC{offset:+d}"
