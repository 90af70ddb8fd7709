"""Rules 22: an answer the verifier cannot place. A reply that names nothing the tables know
(no true answer, no rival, not the subject) may still give the answer by a name no source has:
an old name ("Jahangirnagar, as the Mughals called it."), another language's ("Gazy
szlachetne.", "Les îles Gilbert."), a nickname ("The buck.", "The Aussie dollar."). Such a
reply is judged incorrect but uncertain (the judge or a person decides), where a made-up or
generic phrase of known words ("The Swedish franc.", "A republic.") stays confidently wrong."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from kglens_tui.answers.mentions import Mention, NameTable, Token, tokenize
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.words import ARTICLES, COPULAS, NOT_NAMES, normalize
from kglens_tui.kg.answer_names import PARTICLES

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

_PREPOSITIONS = frozenset({"in", "at", "on", "from", "near", "by", "of", "to", "for", "with"})

_FILLERS = frozenset({"the", "a", "an", "of", "and", "in", "on", "de", "du", "la", "le", "l"})

_MAX_WORDS = 5


def unknown_answer(
    text: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: frozenset[str],
    found: Sequence[Mention] = (),
) -> bool:
    """Whether a reply that gives no answer opens with an answer phrase the verifier cannot place
    (`_unplaced`) and says nothing else: what follows is nothing, a bracket, a dash's apposition
    or whose name it is (`_GLOSS`). Names found (``found``) may only be words inside that phrase
    ("Portuguese West Africa.", "The Aussie dollar.")."""
    head, rest = _head(text)
    if rest.strip(" .!?") and not _GLOSS.match(rest.strip()):
        return False
    if found:
        size = len(tokenize(head))
        if any(m.end > size or m.end - m.start >= size for m in found):
            return False
        named = [w for w in head.split() if w[:1].isupper()]
        return len(named) == len(head.split()) - (
            head.split()[0].casefold() in ARTICLES
        ) and _unplaced(head, asked, subject, vocabulary, only=" ".join(named))
    return _unplaced(head, asked, subject, vocabulary)


def unknown_opening(
    text: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: frozenset[str],
) -> int:
    """How many tokens an opening phrase shaped as a name (capitalised words, or an article and
    at most three words: "Henri Becquerel, ...", "The inti — ...") that the verifier cannot place
    (`_unplaced`) spans, or 0: a true answer named only after it may be told of ("Henri
    Becquerel, building on the work Marie and Pierre Curie had done."), so the rules cannot
    decide."""
    head, rest = _head(text)
    words = head.split()
    if not words or not _TOLD_AFTER.match(rest):
        return 0
    if words[0].casefold() in _PREPOSITIONS:
        return 0  # "In Transylvania, today part of Romania."
    named = all(w[:1].isupper() or w.casefold() in PARTICLES for w in words)
    described = words[0].casefold() in ARTICLES and 1 < len(words) <= 4
    if not (named or described) or not _unplaced(head, asked, subject, vocabulary):
        return 0
    return len(tokenize(head))


_TOLD_AFTER = re.compile(r"\s*(?:[,;\u2014\u2013]|\s-\s)")
"""An opening phrase that tells of a true answer after it ends at a comma, a semicolon or a dash
(not a colon: "Fun Fact: Canberra ...", nor a question mark: "Honestly? Canberra.")."""

_RESTATED = re.compile(
    r"(?:[,;:(\u2014\u2013-]|\b(?:now|today|today's|i\.e\.|that\s+is|namely|aka|or))\s*$",
    re.IGNORECASE,
)
"""What, right before a true answer, makes it restate the opening phrase ("Gaul — that is,
France.", "Transylvania — now Romania.") or open a clause of its own ("Kyoto, historically;
Tokyo today.")."""


_TAIL = frozenset({"now", "today", "instead", "then", "too", "also"})


def told_after(
    text: str, tokens: Sequence[Token], answers: Sequence[Mention], opening: int
) -> bool:
    """Whether every true answer (``answers``) comes after the opening phrase of ``opening``
    tokens and is told of: not right after a break or a word that restates it (`_RESTATED`),
    nor a verb of being ("..., is French."), and with more words after it in its sentence (an
    answer that ends the reply is offered: "Bergen, unnskyld, jeg mener Oslo.")."""
    for m in answers:
        if m.start <= opening or tokens[m.start - 1].norm in COPULAS:
            return False
        after = [
            t
            for t in tokens[m.end :]
            if t.sentence == tokens[m.start].sentence and t.word and t.norm not in _TAIL
        ]
        at = _position(text, tokens, m.start)
        if not after or at is None or _RESTATED.search(text[:at]):
            return False
    return True


def _position(text: str, tokens: Sequence[Token], i: int) -> int | None:
    """Where in ``text`` token ``i`` starts (searching its raw form after the ones before)."""
    at = 0
    for tok in tokens[: i + 1]:
        found = text.find(tok.raw, at)
        if found < 0:
            return None
        at = found + (len(tok.raw) if tok is not tokens[i] else 0)
    return at


def _head(text: str) -> tuple[str, str]:
    """The answer phrase that opens a reply (to `_HEAD_END`) and the rest."""
    stripped = text.strip()
    cut = _HEAD_END.search(stripped)
    return (stripped[: cut.start()], stripped[cut.start() :]) if cut else (stripped, "")


def _unplaced(
    head: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: frozenset[str],
    only: str | None = None,
) -> bool:
    """Whether an answer phrase is one the verifier cannot place: at most five words, no digit,
    no word of a sentence or a refusal (`_NOT_NAME_WORDS`), not a place's English name (CLDR's
    countries and zone cities: "Rio de Janeiro."), and with a word that is neither a word of a
    name of the asked type (``vocabulary``), nor the question's (``asked``), nor one that starts
    as a name of the subject does ("Bhutanese" for Bhutan); ``only``: that word among these
    (the capitalised ones)."""
    from kglens_tui.kg.answer_names import english_place_names

    words = normalize(head).split()
    if not words or len(words) > _MAX_WORDS or any(c.isdigit() for c in head):
        return False
    if words[0] in NOT_NAMES or any(w in _NOT_NAME_WORDS for w in words):
        return False
    if " ".join(words[1:] if words[0] in ARTICLES else words) in english_place_names():
        return False  # a place a reader knows ("Rio de Janeiro.", "Dar es Salaam.")
    known = vocabulary | {t.norm for t in asked}
    stems = {w[:4] for name in subject for w in normalize(name).split() if len(w) >= 4}
    if any(c.isdigit() for c in spell_out(head)):
        return False  # "The third period.": a number
    return any(
        w not in known
        and w.removesuffix("s") not in known
        and w + "s" not in known
        and w + "es" not in known
        and w not in _FILLERS
        and len(w) >= 3
        and w[:4] not in stems
        for w in (words if only is None else normalize(only).split())
    )


_SIGN_MAX_CHARS = 5


def unknown_sign(text: str) -> bool:
    """Whether a reply is only a currency sign ("L$", "E£", "₯") that no CLDR locale gives any
    currency: it may be the answer's sign that no source has (a sign some currency has, "A$",
    is that currency's)."""
    from kglens_tui.kg.answer_names import all_currency_signs

    sign = text.strip().rstrip(".!")
    return (
        0 < len(sign) <= _SIGN_MAX_CHARS
        and " " not in sign
        and any(unicodedata.category(c) == "Sc" for c in sign)
        and sign not in all_currency_signs()
    )


def type_words(*tables: NameTable | None) -> frozenset[str]:
    """Every word of the names some tables hold (`NameTable.vocabulary`)."""
    return frozenset().union(*(t.vocabulary() for t in tables if t is not None))
