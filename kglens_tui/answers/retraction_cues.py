"""Rules 37: the words by which a reply takes back the candidate it just gave, per language.

The table is built by one rule: for each language, the word a bilingual dictionary gives for
"no" as an answer, and the phrases for "wait", "wrong" and "I had it backwards" that a speaker
puts before the name they give instead, written as the language writes them. Words the older
tables hold already (`correction_words`: "no", "nein", "pardon", "sorry", "I mean" in many
languages) are not repeated. A cue takes a candidate back only where it opens a clause after
that candidate and what follows offers an answer (`corrections._taken_back_by_cue`); a "no"
word, which in most of these languages also means "not" ("không Sài Gòn", not Saigon), only as
a clause of its own ("Hà Nội, à không, Sài Gòn.")."""

from __future__ import annotations

from kglens_tui.answers.mentions import tokenize

_NO_WORDS: dict[str, tuple[str, ...]] = {
    "ar": ("لا",),
    "bn": ("না",),
    "fr": ("non",),
    "hi": ("नहीं",),
    "id": ("bukan",),
    "ja": ("いや", "違う"),
    "pt": ("não",),
    "ru": ("нет",),
    "sw": ("hapana",),
    "ur": ("نہیں",),
    "vi": ("không", "à không", "không phải"),
    "zh": ("不是",),
}
"""Per language (ISO 639-1), "no" as an answer (Japanese "違う", wrong, stands as "no" does):
each takes back only as a clause of its own."""

_PHRASES: dict[str, tuple[str, ...]] = {
    "en": (
        "I had it backwards",
        "I had that backwards",
        "I had them backwards",
        "I had it the wrong way round",
        "I mixed them up",
        "I mixed it up",
        "that's wrong",
        "that is wrong",
        "that's not right",
    ),
    "nl": ("nee wacht", "nee sorry"),
    "pt": ("quer dizer", "quero dizer", "perdão"),
    "ur": ("ذرا ٹھہریں",),
    "vi": ("xin lỗi", "nhầm"),
}
"""Per language, phrases of second thoughts ("wait", "sorry", "I had it backwards") that open a
clause before the name given instead."""


def _folded(text: str) -> tuple[str, ...]:
    return tuple(t.norm for t in tokenize(text))


NO_CLAUSES: frozenset[tuple[str, ...]] = frozenset(
    _folded(word) for words in _NO_WORDS.values() for word in words
)
"""`_NO_WORDS` as `mentions.tokenize` folds them."""

CUE_PHRASES: frozenset[tuple[str, ...]] = frozenset(
    _folded(phrase) for phrases in _PHRASES.values() for phrase in phrases
)
"""`_PHRASES` as `mentions.tokenize` folds them."""

CUE_WORDS: frozenset[str] = frozenset(
    word
    for table in (_NO_WORDS, _PHRASES)
    for cues in table.values()
    for cue in cues
    for word in cue.split()
    if not word.isascii()
)
"""The cues' words not in ASCII, as written: a reply's reading in Latin letters keeps them
(`reply_forms.transliterated`), as it keeps rules 26's words of corrections."""
