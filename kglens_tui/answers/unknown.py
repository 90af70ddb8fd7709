"""Rules 22: an answer the verifier cannot place. A reply that names nothing the tables know
(no true answer, no rival, not the subject) may still give the answer by a name no source has:
an old name ("Jahangirnagar, as the Mughals called it."), another language's ("Gazy
szlachetne.", "Les îles Gilbert."), a nickname ("The buck.", "The Aussie dollar."). Such a
reply is judged incorrect but uncertain (the judge or a person decides), where a made-up or
generic phrase of known words ("The Swedish franc.", "A republic.") stays confidently wrong."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kglens_tui.answers.mentions import NameTable, Token
from kglens_tui.answers.words import ARTICLES, NOT_NAMES, normalize

_HEAD_END = re.compile(r"\s*(?:[,;:(\u2014\u2013]|\s-\s|[.!?](?:\s|$))")
"""Where the answer phrase that opens a reply ends: a comma, semicolon, colon, bracket, dash or
the end of its sentence."""

_GLOSS = re.compile(
    r"^(?:\(.*\)|[\u2014\u2013-]\s*\S.*"
    r"|,\s*as\s+(?:in\b|(?:\S+\s+){0,4}(?:calls?|called|say|says|said|put\s+it|knew|known|"
    r"names?|named)\b).*)\s*[.!?]?\s*$",
    re.IGNORECASE | re.DOTALL,
)
"""What may follow the answer phrase: nothing, a bracket, an apposition after a dash ("— the
City of Peace."), or words that say whose name it is ("as the poets would say", "as traders
call it", "as in uranyl")."""

_NOT_NAME_WORDS = frozenset(
    {"i", "it", "its", "is", "was", "are", "were", "be", "he", "she", "they", "we", "you",
     "this", "that", "there", "not", "no", "none", "can", "cannot", "do", "does", "did",
     "know", "sure", "think", "believe", "guess", "unknown", "unsure"}
)  # fmt: skip
"""Words that make a phrase a sentence or a refusal, not a name."""

_FILLERS = frozenset({"the", "a", "an", "of", "and", "in", "on", "de", "du", "la", "le", "l"})

_MAX_WORDS = 5


def unknown_answer(
    text: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: frozenset[str],
) -> bool:
    """Whether a reply that names nothing known opens with an answer phrase the verifier cannot
    place: at most five words, no digit, the reply's only statement (what follows is nothing, a
    bracket, a dash's apposition or whose name it is: `_GLOSS`), no word of a sentence or a
    refusal (`_NOT_NAME_WORDS`), not a place's English name (CLDR's countries and zone cities:
    "Rio de Janeiro."), and a word that is neither a word of a name of the asked type
    (``vocabulary``), nor the question's (``asked``), nor one that starts as a name of the subject
    does ("Bhutanese" for Bhutan)."""
    from kglens_tui.kg.answer_names import english_place_names
    stripped = text.strip()
    cut = _HEAD_END.search(stripped)
    head, rest = (stripped[: cut.start()], stripped[cut.start() :]) if cut else (stripped, "")
    if rest.strip(" .!?") and not _GLOSS.match(rest.strip()):
        return False
    words = normalize(head).split()
    if not words or len(words) > _MAX_WORDS or any(c.isdigit() for c in head):
        return False
    if words[0] in NOT_NAMES or any(w in _NOT_NAME_WORDS for w in words):
        return False
    if " ".join(words[1:] if words[0] in ARTICLES else words) in english_place_names():
        return False  # a place a reader knows ("Rio de Janeiro.", "Dar es Salaam.")
    known = vocabulary | {t.norm for t in asked}
    stems = {w[:4] for name in subject for w in normalize(name).split() if len(w) >= 4}
    return any(
        w not in known
        and w.removesuffix("s") not in known
        and w not in _FILLERS
        and len(w) >= 3
        and w[:4] not in stems
        for w in words
    )


def type_words(*tables: NameTable | None) -> frozenset[str]:
    """Every word of the names some tables hold (`NameTable.vocabulary`)."""
    return frozenset().union(*(t.vocabulary() for t in tables if t is not None))
