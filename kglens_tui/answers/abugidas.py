"""Rules 21: replies in the Brahmic scripts of South Asia (Devanagari to Sinhala) read in Latin
letters with the vowel each consonant carries. anyascii writes a consonant without it ("नरेंद्र
मोदी" is "nremdr modi"), but a consonant with no vowel sign, virama or nukta after it is said
with an inherent "a" ("narendra modi")."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kglens_tui.answers.retraction_cues import CUE_WORDS

_BRAHMIC = "\u0900-\u0dff"
"""Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala."""
_BRAHMIC_RUN = re.compile(f"[{_BRAHMIC}\u200c\u200d]+")
BRAHMIC_WORD = re.compile(f"[{_BRAHMIC}]{{2}}")
"""Two letters of those scripts."""
_KEEPS_LAST_VOWEL = "\u0b00"
"""Scripts from Oriya on keep a word's last inherent vowel; Devanagari, Bengali, Gurmukhi and
Gujarati drop it after a single consonant."""
_LIPS = ("p", "b", "m")
"""Consonants before which a nasal sign is said "m" ("सम्बन्ध"); elsewhere "n"."""


def _kind(char: str) -> str:
    """What a character of those scripts is: a consonant, a mark that takes its inherent vowel
    away (a vowel sign, the virama or the Sinhala al-lakuna), a nukta, a nasal sign, or other."""
    name = unicodedata.name(char, "")
    if "VOWEL SIGN" in name or "VIRAMA" in name or "AL-LAKUNA" in name:
        return "vowel"
    if "NUKTA" in name:
        return "nukta"
    if "ANUSVARA" in name or "CANDRABINDU" in name:
        return "nasal"
    if " LETTER " in name and _ascii(char) and not set(_ascii(char)) & set("aeiou"):
        return "consonant"
    return "other"


@lru_cache(maxsize=512)
def _ascii(char: str) -> str:
    from anyascii import anyascii

    return str(anyascii(char))


def _run_reading(run: str) -> str:
    """One run of those scripts in Latin letters: a consonant not followed by a vowel sign,
    virama or nukta says "a" after it, but at a word's end after a single consonant in the
    northern scripts (`_KEEPS_LAST_VOWEL`; Hindi drops it there: "मोदी" "modi", "राम" "ram";
    "नरेंद्र" "narendra" keeps it after a cluster)."""
    kinds = [_kind(c) for c in run]
    out: list[str] = []
    for i, (char, kind) in enumerate(zip(run, kinds, strict=True)):
        if kind == "nasal":
            nxt = _ascii(run[i + 1]) if i + 1 < len(run) else ""
            out.append("m" if nxt.startswith(_LIPS) else "n")
            continue
        out.append(_ascii(char))
        if kind != "consonant" and not (kind == "nukta" and i > 0 and kinds[i - 1] == "consonant"):
            continue
        after = kinds[i + 1] if i + 1 < len(kinds) else "end"
        if after in ("vowel", "nukta"):
            continue
        cluster = i >= 2 and kinds[i - 1] == "vowel" and "VIRAMA" in unicodedata.name(run[i - 1])
        if after == "end" and i > 0 and not cluster and char < _KEEPS_LAST_VOWEL:
            continue
        out.append("a")
    return "".join(out)


@lru_cache(maxsize=1024)
def brahmic_reading(text: str) -> str | None:
    """The reply with each run of those scripts read in Latin letters, word by word, but the
    words of `retraction_cues.CUE_WORDS` (rules 37: "না" stays a retraction); None where it has
    none."""
    if not BRAHMIC_WORD.search(text):
        return None
    return _BRAHMIC_RUN.sub(
        lambda m: " ".join(
            word if word in CUE_WORDS else _run_reading(word) for word in m.group(0).split()
        ),
        text,
    )
