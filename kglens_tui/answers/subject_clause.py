"""Rules 24: readings that tie what a reply gives to the clause it stands in.

A careful reader takes as a reply's answer what it says of the entity asked about: a number told
beside another entity ("1807 was when Davy isolated potassium; sodium followed in 1808.") is
no answer where the clause that names the subject gives another; a place named after "in"
beside an opening name contains that name ("Berkeley, in the United States."); a name before a
true answer's present name ("Portuguese West Africa, now Angola.") is what the answer was
called."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kglens_tui.answers.mentions import Mention, Token

_DIGITS = re.compile(r"\d+")


def subject_number_elsewhere(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    groups: tuple[tuple[str, ...], ...],
    named: Sequence[Mention],
) -> bool:
    """Whether a reply to a question whose true answers are numbers gives, in a clause that names
    the subject (``named``: its mentions), another number of as many digits as a true one,
    while no true number it gives stands in a clause that names the subject ("Sodium was
    isolated in 1808; potassium in 1807." asked when sodium was discovered): the true number
    belongs to another entity, and the subject's own number is the answer given."""
    numbers = {n for group in groups for n in group if _DIGITS.fullmatch(n)}
    if not numbers or not named or not answers:
        return False
    own = {tokens[m.start].clause for m in named}
    if any(tokens[m.start].clause in own for m in answers):
        return False
    sizes = {len(n) for n in numbers}
    taken = {i for m in answers for i in range(m.start, m.end)}
    return any(
        i not in taken
        and not tok.word
        and tok.clause in own
        and _DIGITS.fullmatch(tok.raw) is not None
        and len(tok.raw) in sizes
        and tok.raw not in numbers
        for i, tok in enumerate(tokens)
    )


_OPENING_PREPOSITIONS = frozenset({"at", "in", "near"})
_LOCATING = frozenset({"in", "within"})
_INDEFINITE = frozenset({"a", "an"})
_LYING = frozenset({"located", "situated", "lie", "lies", "lying"})


def located_in_answer(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    asked: Sequence[Token],
) -> bool:
    """Whether a reply to a "Where" question opens with a place no table knows, in capitalised
    words (after "at" or "in"), and the next clause puts it in a true answer ("Berkeley, in the
    United States.", "America — in the United States.", "Strontian, a village in Scotland."): the
    opening place lies in the answer,
    so the reply gives it; not where the opening names an entity of the answer's type
    ("Sweden, in the United States."), nor where the question asks where a place lies ("Where
    is Cook County located?": "Chicago, in Illinois." puts the county in a city)."""
    if not asked or asked[0].norm != "where" or not answers or not tokens:
        return False
    if any(t.norm in _LYING for t in asked):
        return False
    first = tokens[0].clause
    opening = [t for t in tokens if t.clause == first]
    if any(tokens[m.start].clause == first for m in found):
        return False
    words = opening[1:] if opening[0].norm in _OPENING_PREPOSITIONS else opening
    if not words or len(words) > 4 or not all(t.word and t.raw[:1].isupper() for t in words):
        return False
    k = len(opening)
    if k < len(tokens) and tokens[k].norm in _INDEFINITE:  # "Strontian, a village in Scotland."
        nouns = k + 1
        while nouns < len(tokens) and nouns - k <= 3 and tokens[nouns].raw.islower():
            if tokens[nouns].norm in _LOCATING:
                break
            nouns += 1
        k = nouns if nouns > k + 1 else k
    if k >= len(tokens) or tokens[k].norm not in _LOCATING:
        return False
    starts = {m.start for m in answers}
    return k + 1 in starts or (k + 2 in starts and tokens[k + 1].norm == "the")


_NOW = frozenset({"now", "today", "nowadays", "present", "modern"})
"""Words in lower case by which a clause gives a place's present name ("now Angola",
"present-day Angola", "modern Angola")."""


def renamed_since(tokens: Sequence[Token], found: Sequence[Mention]) -> frozenset[Mention]:
    """Rivals named in the clause right before one that opens with a word of the present in lower
    case (after "in", "the" or "day") and a true answer ("Portuguese West Africa, now Angola.",
    "In Dahomey (today Benin)."): the earlier name is what the answer was called, no second
    answer."""
    true_starts = {m.start for m in found if m.owner < 0}
    out: set[Mention] = set()
    for i, tok in enumerate(tokens):
        if tok.norm not in _NOW or not tok.raw.islower() or i == 0:
            continue
        if tokens[i - 1].clause == tok.clause and tokens[i - 1].norm not in {"in", "is"}:
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].norm in {"day", "the", "in", "called", "known", "as"}:
            j += 1
        if j not in true_starts:
            continue
        before = tokens[i - 1].clause if tokens[i - 1].clause != tok.clause else tok.clause - 1
        out.update(m for m in found if m.owner >= 0 and tokens[m.start].clause == before)
    return frozenset(out)
