"""Corrections and retractions: a name taken back ("Sydney... no, Canberra"), corrected,
chosen among options, or updated to a newer one; the name the reply settles on."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kglens_tui.answers.correction_words import (
    AFTER_A_DENIAL,
    ALSO_NOT,
    BACK_TAIL_PHRASES,
    CLOSING_PHRASES,
    DENIAL_CLAUSES,
    DENIALS,
    DENIED_AFTER,
    DENYING,
    DISOWNING,
    INTERJECTIONS,
    MARKERS_BY_FIRST,
    MEANING,
    OR_RATHER,
    RETRACTING,
    RETRACTING_SINCE_14,
    STRONG_CORRECTIONS,
    TAKING_BACK,
    UPDATES,
    WRITTEN_LOWER,
    marker_at,
)
from kglens_tui.answers.mentions import Mention, Token, negated, tokenize
from kglens_tui.answers.passing import INNER_PARTICLES, LESSER, RELATIVES, a_place, clause_told
from kglens_tui.answers.refusals import (
    GENERIC_OBJECT,
    NOT_KNOWING,
    NOT_SURE,
    bare_not_knowing,
    gives_up,
    guesses,
)
from kglens_tui.answers.retraction_cues import CUE_PHRASES, NO_CLAUSES
from kglens_tui.answers.withdrawals import taken_back_in_doubt
from kglens_tui.answers.words import ARTICLES, COPULAS, FOREIGN_ARTICLES, NAME_NEIGHBOURS
from kglens_tui.kg.answer_names import english_name_words, list_conjunctions

_NEWER = frozenset({"now", "currently", "current", "again", "instead", "today", "since"})
"""Words by which a clause gives its candidate as the answer now."""


def _updated_to(
    tokens: Sequence[Token], end: int, found: Sequence[Mention], relation: frozenset[str]
) -> bool:
    """Rules 20: whether what follows an update's word at ``end`` opens (after a stop and
    articles) with a candidate (a mention, or capitalised words) whose clause, going on with a
    verb, has the question's relation words or a word of `_NEWER`."""
    start = end
    while start < len(tokens) and tokens[start].norm in ARTICLES:
        start += 1
    if (
        start < len(tokens)
        and tokens[start].norm == "it"
        and tokens[start].clause != tokens[end - 1].clause
    ):
        return _moved_to(tokens, start, found)
    if (
        start >= len(tokens)
        or tokens[start].clause == tokens[end - 1].clause
        or tokens[start].norm in AFTER_A_DENIAL
    ):
        return False  # "Update your records ...", "Update: I'm not sure whether ..."
    mention = next((m for m in found if m.start == start and not m.negated), None)
    stop = start
    while stop < len(tokens) and tokens[stop].word and tokens[stop].raw[:1].isupper():
        stop += 1
    if mention is None and stop == start:
        return False
    rest = clause_told(tokens, mention or Mention(start, stop, 0, False))
    return rest is not None and bool(rest & (relation | _NEWER))


_MOVED = frozenset({"moved", "relocated", "switched", "changed", "shifted", "became"})
"""Rules 22: verbs by which "it" (the answer) is said to be another now ("Update: it moved to
Casablanca in 2019.")."""


_MOVED_BEFORE = frozenset({"has", "have", "was", "is", "now", "since", "then"})


def _moved_to(tokens: Sequence[Token], start: int, found: Sequence[Mention]) -> bool:
    """Rules 22: whether the clause an update opens with "it" at ``start`` says the answer has
    become another candidate (`_MOVED`, then "to" and a mention or a capitalised word)."""
    j = start + 1
    while j < len(tokens) and tokens[j].norm in _MOVED_BEFORE:
        j += 1
    if j >= len(tokens) or tokens[j].norm not in _MOVED:
        return False
    j += 1
    if j < len(tokens) and tokens[j].norm == "to":
        j += 1
    if j >= len(tokens) or tokens[j].clause != tokens[start].clause:
        return False
    named = any(m.start == j and not m.negated for m in found)
    return named or (tokens[j].word and tokens[j].raw[:1].isupper())


def _opens_clause(tokens: Sequence[Token], i: int) -> bool:
    """Whether token ``i`` opens its clause, but for interjections before it."""
    j = i - 1
    while j >= 0 and tokens[j].clause == tokens[i].clause:
        if tokens[j].norm not in INTERJECTIONS:
            return False
        j -= 1
    return j < 0 or tokens[j].clause != tokens[i].clause


def _offers_candidate(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    start: int,
    asked: frozenset[str],
    *,
    numbers: bool = True,
) -> bool:
    """Whether the tokens from ``start`` offer a candidate: a mention not negated, a number not
    negated ("1774... no, 1771"; unless not ``numbers``), or a capitalised word of no name found
    that does not open its sentence, is not the question's and is not denied (`_denied`: "no, it
    was Berzelius", "no, Sydney"; not "no, not Sydney", "nope, Istanbul isn't the capital")."""
    if any(
        m.start >= start and not m.negated and not _denied(tokens, m.start, m.end) for m in found
    ):
        return True
    if numbers and any(
        not t.word
        and any(c.isdigit() for c in t.norm)
        and not (i > start and tokens[i - 1].norm in ("not", "never"))
        for i, t in enumerate(tokens[start:], start)
    ):
        return True
    named = {i for m in found for i in range(m.start, m.end)}
    return any(
        i not in named
        and t.word
        and t.raw[:1].isupper()
        and t.norm not in asked
        and t.norm not in NAME_NEIGHBOURS
        and i > 0
        and tokens[i - 1].sentence == t.sentence
        and not _denied(tokens, i, i + 1)
        for i, t in enumerate(tokens[start:], start)
    )


def _denied(tokens: Sequence[Token], start: int, end: int) -> bool:
    """Rules 15: whether the name at ``start:end`` is denied: by "not" (or the German, Dutch or
    Nordic word) right before it, or by its clause after it ("Istanbul isn't the capital",
    "Sydney is not it")."""
    if (start > 0 and tokens[start - 1].norm in DENYING) or negated(tokens, start):
        return True
    clause = tokens[start].clause
    return any(t.norm in DENIED_AFTER for t in tokens[end:] if t.clause == clause)


def _retracted(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    asked: frozenset[str],
    relation: frozenset[str] = frozenset(),
) -> tuple[int, int]:
    """The last clause-opening "no", "sorry" or "wait" (`RETRACTING`) after a candidate named,
    not negated, and before another (`_offers_candidate`): (where it is, where the answer the
    reply ends on starts), or (0, 0)."""
    best = (0, 0)
    for i in range(1, len(tokens)):
        tok = tokens[i]
        if not _opens_clause(tokens, i):
            continue
        if tok.norm == "not":
            end = _not_that_one(tokens, i)
            if (
                end
                and any(m.end <= i and not m.negated for m in found)
                and _offered_back(tokens, end, found)
            ):
                best = (i, end)
            continue
        if (
            tok.norm not in RETRACTING
            or (tok.norm in ALSO_NOT and i + 1 < len(tokens) and tokens[i + 1].clause == tok.clause)
            or (tok.norm in WRITTEN_LOWER and not tok.raw.islower())
        ):
            continue  # Polish "nie Sydney" is "not Sydney"
        end = i + 1
        while end < len(tokens) and tokens[end].norm in RETRACTING:
            end += 1  # "no, sorry, Scotland"
        if end >= len(tokens) or not any(m.end <= i and not m.negated for m in found):
            continue
        if tok.norm in DENIALS and _denial_about_else(tokens, i, end, found, asked, relation):
            continue  # rules 20: "Canberra. No, I don't remember who designed it — ..."
        if tok.norm == "no" and _a_determiner(tokens, i):
            continue  # rules 20: "Canberra. Update: no change since 1913."
        offered = (
            _offered_back(tokens, end, found)
            if tok.norm in RETRACTING_SINCE_14
            else _offers_candidate(tokens, found, end, asked)
        )
        if offered:
            best = (i, end)
    return best


def _a_determiner(tokens: Sequence[Token], i: int) -> bool:
    """Rules 20: whether the "no" at ``i`` is a determiner before a word in lower case of its
    clause that is no pronoun, article or interjection ("no change since 1913", "no doubt"):
    it denies nothing said before."""
    if i + 1 >= len(tokens) or tokens[i + 1].clause != tokens[i].clause:
        return False
    after = tokens[i + 1]
    return after.word and after.raw[:1].islower() and after.norm not in AFTER_A_DENIAL


def _denial_about_else(
    tokens: Sequence[Token],
    i: int,
    end: int,
    found: Sequence[Mention],
    asked: frozenset[str],
    relation: frozenset[str],
) -> bool:
    """Rules 20: whether a "no" standing as a clause of its own (``i``; what follows from
    ``end``) answers something other than the question, so takes nothing back: its next clause
    says the speaker does not know or cannot tell something other than the answer ("Canberra.
    No, I don't remember who designed it — Walter Burley Griffin, maybe.", "Bern — no, I'm not
    sure why people think it's Zurich"; not "Sydney — no, I don't know. Canberra?"), or opens
    with a candidate its clause makes less of without the question's relation words ("Canberra.
    No — Sydney is just the largest city.": the "no" denies a belief the reply then tells of)."""
    if i + 1 < len(tokens) and tokens[i + 1].clause == tokens[i].clause:
        return False
    clause = [t.raw for t in tokens[end:] if t.clause == tokens[end].clause]
    said = NOT_KNOWING.search(" ".join(clause)) or NOT_SURE.search(" ".join(clause))
    if said is not None:
        after = re.findall(r"\w+", " ".join(clause)[said.end() :].casefold())
        return any(w not in GENERIC_OBJECT and w not in asked for w in after)
    start = end
    while start < len(tokens) and tokens[start].norm in ARTICLES:
        start += 1
    first = next((m for m in found if m.start == start), None)
    stop = start
    while stop < len(tokens) and tokens[stop].word and tokens[stop].raw[:1].isupper():
        stop += 1  # a name no table knows ("Sydney" of a table of capitals)
    if first is None and stop == start:
        return False
    rest = clause_told(tokens, first or Mention(start, stop, 0, False))
    return rest is not None and bool(rest & LESSER) and not rest & relation


def disowned(tokens: Sequence[Token], found: Sequence[Mention]) -> list[Mention]:
    """Rules 26: the mentions of the clause before a last clause that only disowns it
    (`DISOWNING`: "..., CAD — I briefly typed USD above, ignore that."), where an earlier clause
    names a candidate: a draft taken back, with nothing offered in its place."""
    clause = tokens[-1].clause
    words = tuple(t.norm for t in tokens if t.clause == clause)
    if words not in DISOWNING:
        return []
    before = clause - 1
    earlier = any(tokens[m.start].clause < before and not m.negated for m in found)
    return [m for m in found if tokens[m.start].clause == before] if earlier else []


_ASKED_AGAIN_THEN = re.compile(r"\bor\b[^.!?\n]*\?\s*([^?]+)$", re.IGNORECASE)
"""A sentence that asks about another candidate with "or", then the reply's last words."""


def left_undecided(reply: str, asked: frozenset[str]) -> bool:
    """Rules 26: whether a reply, after asking about another candidate with "or" ("Cusco — no,
    Lima. Hmm, or was it Arequipa?"), ends on a sentence that says it cannot tell the answer
    (`bare_not_knowing`: "I really can't say."), guessing nothing: it withdraws every candidate
    and is refused, which the judge or a person confirms (uncertain)."""
    found = _ASKED_AGAIN_THEN.search(reply.strip())
    if found is None:
        return False
    last = found.group(1)
    return bare_not_knowing(last, asked) and not guesses(last)


def withdrawn_and_declined(
    tokens: Sequence[Token], found: Sequence[Mention], asked: frozenset[str]
) -> bool:
    """Rules 18: whether a "no" standing as a clause of its own after a candidate takes it back
    and what follows names nothing, offers no candidate (`_offers_candidate`) and says it does
    not know ("Luang Prabang — no, that's the old royal capital. I honestly don't know the
    current one."; not "Canberra. No, I don't think it's Sydney."; rules 32: Dutch "nee" as
    written, not "née"; rules 19: not where what it
    does not know is something else, `bare_not_knowing`): the reply is refused."""
    for i in range(1, len(tokens)):
        if (
            (tokens[i].norm not in DENIALS and tokens[i].raw.casefold() != "nee")
            or not _opens_clause(tokens, i)
            or (i + 1 < len(tokens) and tokens[i + 1].clause == tokens[i].clause)
            or any(m.end > i for m in found)
            or _offers_candidate(tokens, found, i + 1, asked)
        ):
            continue
        rest = " ".join(t.raw for t in tokens[i + 1 :])
        if rest and bare_not_knowing(rest, asked) and not guesses(rest):
            return True
    return False


_THAT_ONE = frozenset({"her", "him", "them", "that", "this", "it", "one"})


def _not_that_one(tokens: Sequence[Token], i: int) -> int:
    """Rules 14: where the answer starts after a clause that is only "not" and a pronoun ("Erm,
    not her — Guðni Jóhannesson.", "not that one"), which takes the candidate before it back;
    0 when the clause is anything else ("not her sister city X")."""
    end = i + 1
    while end < len(tokens) and tokens[end].clause == tokens[i].clause:
        if tokens[end].norm not in _THAT_ONE:
            return 0
        end += 1
    return end if end > i + 1 and end < len(tokens) else 0


_RESTATE_MAX_WORDS = 5
"""At most this many words between "but" and its verb of being in `_restated`."""


def _restated(
    tokens: Sequence[Token], found: Sequence[Mention], relation: frozenset[str]
) -> tuple[int, int]:
    """A "but" clause after a candidate that names the question's relation again before its verb
    of being and a candidate after it ("1772 — Scheele made it then, but the accepted discovery year is 1774"):
    (where "but" is, where the candidate starts), or (0, 0). Not "but the largest city is
    Sydney" to "What is the capital ...?"."""
    best = (0, 0)
    if not relation:
        return best
    for i, tok in enumerate(tokens):
        if tok.norm != "but" or not any(m.end <= i and not m.negated for m in found):
            continue  # it corrects a candidate named before it
        for k in range(i + 1, min(i + 2 + _RESTATE_MAX_WORDS, len(tokens))):
            if tokens[k].clause != tok.clause or negated(tokens, k):
                break
            if tokens[k].norm not in COPULAS:
                continue
            between = {t.norm.removesuffix("s") for t in tokens[i + 1 : k]}
            after = [t for t in tokens[k + 1 :] if t.clause == tok.clause]
            offered = any(
                m.start > k and tokens[m.start].clause == tok.clause and not m.negated
                for m in found
            ) or any(not t.word or t.raw[:1].isupper() for t in after)
            if between & relation and offered:
                best = (i, k + 1)
            elif _named_the_relation(tokens, i + 1, k, relation, found):
                best = (i, i + 1)  # rules 20: "..., but Sydney is the capital."
            break
    return best


def _named_the_relation(
    tokens: Sequence[Token],
    start: int,
    copula: int,
    relation: frozenset[str],
    found: Sequence[Mention],
) -> bool:
    """Rules 20: whether a "but" clause is a candidate (a mention, or capitalised words), from
    ``start`` to its verb of being at ``copula``, and after the verb only articles and the
    question's relation words to its end ("but Sydney is the capital"; not "but Sydney is the
    capital of New South Wales")."""
    named = any(m.start == start and m.end == copula and not m.negated for m in found) or all(
        t.word and t.raw[:1].isupper() for t in tokens[start:copula]
    )
    after = [
        t.norm.removesuffix("s") for t in tokens[copula + 1 :] if t.clause == tokens[start].clause
    ]
    words = [w for w in after if w not in ARTICLES]
    return (
        named
        and copula > start
        and bool(words)
        and all(w in relation or w in _RIGHT for w in words)
        and bool(set(words) & relation)
    )


_SCRATCH = frozenset({"scratch", "strike", "forget", "drop", "disregard", "ignore", "delete"})
"""Rules 36: verbs that take back a name when the name they take is one the reply gave
("Scratch French: English and Irish.")."""


def _scratched(
    tokens: Sequence[Token], found: Sequence[Mention], asked: frozenset[str]
) -> tuple[int, int]:
    """Rules 36: (where the verb starts, where the answer starts) when a verb of `_SCRATCH`
    takes as its object, alone in its clause, a name the reply gave before and another
    candidate follows (`_offers_candidate`: "French. Scratch French: English and Irish."), else
    (0, 0)."""
    best = (0, 0)
    for i in range(1, len(tokens) - 1):
        if tokens[i].norm not in _SCRATCH:
            continue
        for m in found:
            if m.start != i + 1 or m.end >= len(tokens):
                continue
            if tokens[m.end].clause == tokens[m.end - 1].clause:
                continue
            said = [t.norm for t in tokens[m.start : m.end]]
            before = any(
                e.end <= i and [t.norm for t in tokens[e.start : e.end]] == said for e in found
            )
            if before and _offers_candidate(tokens, found, m.end, asked):
                best = (i, m.end)
    return best


def _taken_back_by_cue(tokens: Sequence[Token], found: Sequence[Mention]) -> tuple[int, int]:
    """Rules 37: the last cue of `retraction_cues` ("I had it backwards", Vietnamese "à không")
    that opens a clause after a candidate named and not negated (or a first clause that is only
    a name), a "no" word (`NO_CLAUSES`) only
    as a clause of its own, and is followed, past more such clauses ("いや、違う。"), by what
    offers an answer (`_offered_back`; in a script without capitals, or after a cue in one, one
    to four words), or "it moved to" and a name (`_moved_to`), where the answer is that name: (where it is, where the answer starts), or (0, 0)."""
    norms = tuple(t.norm for t in tokens)
    best = (0, 0)
    for i in range(1, len(tokens)):
        end = _cue_end(tokens, norms, i) if _opens_clause(tokens, i) else 0
        if not end:
            continue
        first = [t for t in tokens[:i] if t.clause == tokens[0].clause]
        if not (
            any(m.end <= i and not m.negated for m in found)
            or _only_a_name(first)
            or _uncased_name(tokens[:i])
        ):
            continue
        while _cue_end(tokens, norms, end):
            end = _cue_end(tokens, norms, end)
        tail = tokens[end:]
        if not tail or tail[0].norm in RETRACTING:
            continue  # "Canberra. Wrong? No."
        if tail[0].norm == "it" and _moved_to(tokens, end, found):
            best = (i, next(k for k in range(end, len(tokens)) if tokens[k].norm == "to") + 1)
        elif (
            _offered_back(tokens, end, found)
            or _uncased_name(tail)
            or (_uncased_name(tokens[i:end]) and _few_words(tail))
        ):
            best = (i, end)
    return best


_UNCASED_MAX_WORDS = 4


def _few_words(seq: Sequence[Token]) -> bool:
    """Whether ``seq`` is one to `_UNCASED_MAX_WORDS` words: after a cue in a script without
    capitals, the name a reading in Latin letters gives in lower case ("রাহুল গান্ধী" read as
    "rahul gandhi")."""
    return 0 < len(seq) <= _UNCASED_MAX_WORDS and all(t.word for t in seq)


def _uncased_name(seq: Sequence[Token]) -> bool:
    """Rules 37: whether ``seq`` is one to `_UNCASED_MAX_WORDS` words of a script without
    capitals (Bengali, Arabic, Japanese), which may be a name where a cased script's would be
    capitalised."""
    return _few_words(seq) and all(
        t.raw[:1].isalpha() and t.raw[:1].lower() == t.raw[:1].upper() for t in seq
    )


_CUES_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _cue in sorted(CUE_PHRASES | NO_CLAUSES, key=lambda c: (-len(c), c)):
    _CUES_BY_FIRST[_cue[0]] = (*_CUES_BY_FIRST.get(_cue[0], ()), _cue)
"""The cues of `retraction_cues` by their first word, the longest first (one order in every
process: "không phải" before "không")."""


def _cue_end(tokens: Sequence[Token], norms: tuple[str, ...], i: int) -> int:
    """Where a cue of `retraction_cues` starting at ``i`` ends (a "no" word only ending its
    clause), or 0."""
    for cue in _CUES_BY_FIRST.get(norms[i], ()):
        end = i + len(cue)
        if end >= len(tokens) or norms[i:end] != cue:
            continue
        if cue in CUE_PHRASES or tokens[end].clause != tokens[i].clause:
            return end
    return 0


def correction(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    asked: frozenset[str] = frozenset(),
    relation: frozenset[str] = frozenset(),
) -> tuple[int, int]:
    """(where the last correction's words start, where the answer the reply ends on starts);
    (0, 0) when it corrects nothing. After a strong marker ("sorry, I mean") whatever follows is
    the answer; after a weak one ("actually", "but it is") only when it names a candidate, not
    negated, or is only a name; after a retraction ("X — no, Y", "X — sorry, Y": `_retracted`)
    when it offers another candidate; after a "but" clause that restates the question's relation
    (`_restated`); rules 17: after a word of denial in Chinese, Japanese or Korean standing as a
    clause (`DENIAL_CLAUSES`), as after a strong marker, and at a name the reply ends on that it
    asked about with "or" before (`_picked_again`); rules 19: at a later candidate the reply
    calls the right one (`_called_right`). ``asked``: the question's words;
    ``relation``: its relation words."""
    norms = [t.norm for t in tokens]
    best = _retracted(tokens, found, asked, relation)
    for other in (
        _restated(tokens, found, relation),
        _chosen(tokens, found),
        _picked_again(tokens),
        _called_right(tokens, found),
        _scratched(tokens, found, asked),
        _taken_back_by_cue(tokens, found),
    ):
        if other[1] > best[1]:
            best = other
    for i in range(1, len(norms)):
        for marker in MARKERS_BY_FIRST.get(norms[i], ()):
            end = i + len(marker)
            if tuple(norms[i:end]) != marker or end >= len(norms):
                continue
            if marker in UPDATES:
                if _updated_to(tokens, end, found, relation) and end > best[1]:
                    best = (i, end)  # rules 20: "Donald Trump. Update: Joe Biden is ..."
                continue
            if marker in MEANING or marker in TAKING_BACK:
                named = marker in MEANING and any(m.start >= end and not m.negated for m in found)
                offered = _offered_back(tokens, end, found) or _a_thing_named(tokens[end:], asked)
                if (named or offered) and end > best[1]:
                    best = (i, end)
                continue
            if marker in DENIAL_CLAUSES and not _a_clause_alone(tokens, i, end):
                continue
            if marker in OR_RATHER:
                named = any(m.start >= end and not m.negated for m in found)
                if (named or a_place(tokens[end:])) and end > best[1]:
                    best = (i, end)  # rules 20: a place's English name ("ou plutôt Sydney")
                continue
            strong = (
                marker in STRONG_CORRECTIONS
                or marker in DENIAL_CLAUSES
                or _only_a_name(_without_closing(tokens[end:]))
                or _only_a_name(_after_it_was(tokens[end:]))
                or _name_restating(tokens[end:], relation)
                or _opinion_naming(tokens[end:])
                or _concluded_name(tokens[end:])
            )
            if (
                (strong and any(t.word for t in tokens[end:]))
                or _only_a_number(tokens[end:])
                or any(m.start >= end and not m.negated for m in found)
            ) and end > best[1]:
                best = (i, end)
    return best


_RIGHT = frozenset({"right", "correct", "real", "actual", "true", "proper"})
"""Words by which a clause calls its candidate the answer ("Canberra is the right one")."""


_RIGHT_TAIL = frozenset({"one", "answer", "capital", "choice"})


def _called_right(tokens: Sequence[Token], found: Sequence[Mention]) -> tuple[int, int]:
    """Rules 19: a candidate that opens a clause after another candidate's clause and that its
    clause calls the right one, to its end ("Sydney; Canberra is the right one.", "Sydney —
    Canberra is correct."): (where it starts, where it starts), or (0, 0)."""
    best = (0, 0)
    for m in found:
        clause = tokens[m.start].clause
        if m.negated or m.start == 0 or tokens[m.start - 1].clause == clause:
            continue
        if not any(x.end <= m.start and tokens[x.start].clause < clause for x in found):
            continue
        words = [t.norm for t in tokens[m.end :] if t.clause == clause]
        if not words or words[0] not in COPULAS:
            continue
        rest = [w for w in words[1:] if w not in ARTICLES]
        if rest and rest[0] in _RIGHT and set(rest[1:]) <= _RIGHT_TAIL and m.start > best[1]:
            best = (m.start, m.start)
    return best


def _a_clause_alone(tokens: Sequence[Token], start: int, end: int) -> bool:
    """Whether the tokens from ``start`` to ``end`` are a whole clause, not the first."""
    clause = tokens[start].clause
    return (
        start > 0
        and tokens[start - 1].clause != clause
        and all(t.clause == clause for t in tokens[start:end])
        and tokens[end].clause != clause
    )


_CHOICE_TAIL = frozenset(
    {"i", "think", "guess", "believe", "suppose", "probably", "maybe", "perhaps", "then", "so",
     "id", "say", "final", "answer"}
)  # fmt: skip
"""Words that may follow the candidate a reply picks at its end ("Wallonia, I think.")."""


_OR_ASKED_MAX = 3
"""At most this many words from "or" to the candidate it offers again ("or is it X?")."""


def _chosen(tokens: Sequence[Token], found: Sequence[Mention]) -> tuple[int, int]:
    """A clause at the end of the reply that picks, alone (maybe with a hedge), one of the
    candidates it listed with "or" before ("Wallonia or Flanders — Wallonia, I think."; rules 14:
    "or is it Tallinn? Tallinn."):
    (where the list ends, where the pick starts), or (0, 0)."""
    for m in sorted(found, key=lambda m: -m.start):
        if m.negated or m.start == 0 or tokens[m.start - 1].clause == tokens[m.start].clause:
            continue
        if not all(t.norm in _CHOICE_TAIL for t in tokens[m.end :]):
            continue
        text = [t.norm for t in tokens[m.start : m.end]]
        for e in found:
            if e.end > m.start or [t.norm for t in tokens[e.start : e.end]] != text:
                continue
            beside = {tokens[k].norm for k in (e.start - 1, e.end) if 0 <= k < m.start}
            # rules 14: "or is it Tallinn? Tallinn.", "or was it ...", "or maybe ..."
            asked_again = any(
                tokens[k].norm == "or" and tokens[k].clause == tokens[e.start].clause
                for k in range(max(e.start - _OR_ASKED_MAX, 0), e.start)
            )
            if "or" in beside or asked_again:
                listed = max(f.end for f in found if f.end <= m.start)
                return listed, m.start
    return 0, 0


_PICK_MAX_WORDS = 4
"""At most this many words in the name a reply picks again at its end (`_picked_again`)."""


_OR_BEFORE_MAX = 8
"""At most this many words from "or" to the name it asks about ("or was it moved to Cluj")."""


def _picked_again(tokens: Sequence[Token]) -> tuple[int, int]:
    """Rules 17: a last clause that is only a name (maybe hedged: "Probably Cluj."), named
    before in a clause with "or" before it ("Bucharest, I think — or was it moved to Cluj?
    Probably Cluj."), whether the tables know the name or not: (where the last clause starts,
    where the name starts), or (0, 0)."""
    clause = tokens[-1].clause
    start = len(tokens)
    while start > 0 and tokens[start - 1].clause == clause:
        start -= 1
    if start == 0:
        return 0, 0
    first, stop = start, len(tokens)
    while first < stop and tokens[first].norm in _CHOICE_TAIL:
        first += 1
    while stop > first and tokens[stop - 1].norm in _CHOICE_TAIL:
        stop -= 1
    pick = tokens[first:stop]
    if not 0 < len(pick) <= _PICK_MAX_WORDS or not _a_name_with_particles(pick):
        return 0, 0
    norms = [t.norm for t in pick]
    for k in range(start - len(pick), -1, -1):
        if [t.norm for t in tokens[k : k + len(pick)]] != norms:
            continue
        before = tokens[max(k - _OR_BEFORE_MAX, 0) : k]
        if any(t.norm == "or" and t.clause == tokens[k].clause for t in before):
            return start, first
    return 0, 0


_BACK_FILLERS = frozenset({"that", "this", "it", "myself", "to", "actually"})
"""Words that may stand between a taking-back marker and the answer ("let me revise that:";
rules 17: "I'd revise that to"; rules 26: "EDIT: actually")."""


_CONCLUDING = frozenset({"so", "thus", "hence", "therefore"})
"""Words that may open the last clause, the answer a taking-back marker offers ("on checking,
..., so Great Britain")."""


_BACK_TAIL = frozenset({"now", "today", "instead", "then", "pala"})
"""Words that may follow the answer a taking-back marker offers ("it's Erna Solberg now"; rules
22: Tagalog "pala", it turns out: "hindi, Pokhara pala")."""


def _before_tail(tokens: Sequence[Token], end: int) -> int:
    """Where what follows a taking-back marker from ``end`` stops, before `_BACK_TAIL` words and
    a phrase of `BACK_TAIL_PHRASES` at the reply's end."""
    stop = len(tokens)
    norms = tuple(t.norm for t in tokens)
    for phrase in BACK_TAIL_PHRASES:
        if stop - len(phrase) > end and norms[stop - len(phrase) :] == phrase:
            stop -= len(phrase)
            break
    while stop > end + 1 and tokens[stop - 1].norm in _BACK_TAIL:
        stop -= 1
    return stop


_BACK_BEFORE = frozenset({"is", "was", "its", "be"})
"""Words right before an answer that ends what follows the marker ("the capital is Sydney")."""


_CHANGED_TO = frozenset({"switched", "changed", "moved", "converted", "renamed", "went"})
"""Verbs of change before "to" and an answer that ends what follows the marker ("they switched
to the Australian dollar"; not "it is close to Sydney")."""


_APPOSING = frozenset({"the", "a", "an"})
"""Rules 26: articles that open a clause in apposition to the name before it ("EDIT: actually
Zürich, the largest city.")."""


def _offered_back(tokens: Sequence[Token], end: int, found: Sequence[Mention]) -> bool:
    """Rules 14: whether what follows a taking-back marker from ``end`` offers an answer: after
    `_BACK_FILLERS`, or in its last clause (after "so": rules 17), only a name
    (`_a_name_with_particles`), "it was" and a name, or only a mention the tables know ("solid",
    "1957"); or (rules 17) its first clause is only a name and the next opens with a relative
    word ("I'd revise that to Norway, where ..."; rules 26: or an article, "Zürich, the largest
    city"); or it ends on a mention right
    after "is" or
    "was", or "to" after a verb of change ("Edit: they switched to the Australian dollar."). Not
    in a sentence with "if" ("If you meant the largest city, I should say Sydney.")."""
    sentence = tokens[end - 1].sentence
    if any(t.norm == "if" and t.sentence == sentence for t in tokens[:end]):
        return False  # "If you meant the largest city, I should say Sydney."
    stop = _before_tail(tokens, end)
    tail = list(tokens[end:stop])
    while len(tail) > 1 and tail[0].norm in _BACK_FILLERS:
        tail = tail[1:]
    last = [t for t in tokens[end:stop] if t.clause == tokens[stop - 1].clause]
    while len(last) > 1 and last[0].norm in _CONCLUDING:
        last = last[1:]
    head = [t for t in tail if t.clause == tail[0].clause] if tail else []
    if (
        0 < len(head) < len(tail)
        and (tail[len(head)].norm in RELATIVES or tail[len(head)].norm in _APPOSING)
        and _a_name_with_particles(head)
    ):
        return True  # rules 17: a name and a relative clause about it ("Norway, where ...")
    for seq in (tail, last):
        if not seq or seq[0].norm in DENYING:
            continue  # "Nope. Not Sydney."
        if _a_name_with_particles(seq) or _a_name_with_particles(_after_it_was(seq)):
            return True
        first = stop - len(seq)
        while first < stop and (
            tokens[first].norm in ARTICLES or tokens[first].norm in FOREIGN_ARTICLES
        ):
            first += 1  # rules 20: "nein, Entschuldigung, der Schweizer Franken"
        if any(m.start == first and m.end == stop and not m.negated for m in found):
            return True
    for m in found:
        if m.end == stop and m.start > end and not m.negated:
            before = m.start - 1
            while before > end and tokens[before].norm in ARTICLES:
                before -= 1
            if tokens[before].norm in _BACK_BEFORE or (
                tokens[before].norm == "to" and tokens[before - 1].norm in _CHANGED_TO
            ):
                return True
    return False


_THING_MAX_WORDS = 2


_THING_ARTICLES = ARTICLES | FOREIGN_ARTICLES | {"el", "la", "le"}
"""Articles before a common noun that names an answer (`_a_thing_named`): Spanish, French and
Italian "el", "la", "le" too, which open names elsewhere ("La Paz")."""


def _a_thing_named(tail: Sequence[Token], asked: frozenset[str]) -> bool:
    """Rules 26: whether what follows a taking-back marker to the reply's end is an article and
    at most `_THING_MAX_WORDS` words in lower case, none of them the question's: a common noun
    that names an answer ("perdón, quise decir el riel", "I meant the riel"; not "I meant the
    capital" asked for a capital)."""
    words = [t for t in tail if t.word]
    if len(words) != len(tail) or not 1 < len(words) <= _THING_MAX_WORDS + 1:
        return False
    article, *rest = words
    return (
        article.norm in _THING_ARTICLES
        and all(t.raw.islower() and t.norm not in asked for t in rest)
        and not any(t.norm in _THING_ARTICLES for t in rest)
    )


def _a_name_with_particles(seq: Sequence[Token]) -> bool:
    """`_only_a_name`, name particles inside left out ("Ojos del Salado")."""
    inner = tuple(
        t for k, t in enumerate(seq) if not (0 < k < len(seq) - 1 and t.norm in INNER_PARTICLES)
    )
    return _only_a_name(inner)


def _after_it_was(tail: Sequence[Token]) -> Sequence[Token]:
    """Rules 14: what follows "it was", "it is" or "it's" opening a correction's words ("on
    reflection, it was Berzelius"); nothing when they do not open them."""
    if len(tail) >= 2 and tail[0].norm == "it" and tail[1].norm in COPULAS:
        return tail[2:]
    if tail and tail[0].norm == "its":
        return tail[1:]
    return ()


def _only_a_name(tail: Sequence[Token]) -> bool:
    """Whether what follows a correction is only a name ("actually, the Deutsche Mark.")."""
    words = [t for t in tail if t.norm not in ARTICLES]
    return 0 < len(words) <= 4 and all(t.word and t.raw[:1].isupper() for t in words)


def _without_closing(tail: Sequence[Token]) -> Sequence[Token]:
    """Rules 26: what follows a correction less a phrase of deciding that ends the reply
    (`CLOSING_PHRASES`: "La Paz in the end")."""
    norms = tuple(t.norm for t in tail)
    for phrase in CLOSING_PHRASES:
        if len(norms) > len(phrase) and norms[-len(phrase) :] == phrase:
            return tail[: -len(phrase)]
    return tail


def _concluded_name(tail: Sequence[Token]) -> bool:
    """Rules 30: whether what follows a weak correction ends on a clause that is a concluding
    word (`_CONCLUDING`) and only a name ("Actually, Cotonou is where the government sits, so
    Cotonou."): the name the reply settles on."""
    if not tail:
        return False
    last = [t for t in tail if t.clause == tail[-1].clause]
    return (
        len(last) > 1
        and len(last) < len(tail)
        and last[0].norm in _CONCLUDING
        and _a_name_with_particles(last[1:])
    )


def _only_a_number(tail: Sequence[Token]) -> bool:
    """Rules 25: whether what follows a correction is only a number ("I'll go with 1868.")."""
    return len(tail) == 1 and not tail[0].word and any(c.isdigit() for c in tail[0].norm)


_OPINION = (("id", "say"), ("i", "would", "say"), ("id", "go", "with"), ("i", "think", "its"))
"""Words by which the speaker gives their own answer after a weak correction ("on reflection
I'd say La Paz, since ...")."""


def _opinion_naming(tail: Sequence[Token]) -> bool:
    """Rules 18: whether what follows a weak correction is the speaker's opinion (`_OPINION`)
    and a clause that is only a name, whatever later clauses say ("on reflection I'd say La Paz,
    since the government sits there")."""
    norms = tuple(t.norm for t in tail)
    for words in _OPINION:
        if norms[: len(words)] == words and len(tail) > len(words):
            rest = tail[len(words) :]
            return _a_name_with_particles([t for t in rest if t.clause == rest[0].clause])
    return False


def _name_restating(tail: Sequence[Token], relation: frozenset[str]) -> bool:
    """Whether what follows a correction is a name, a verb of being and the question's relation
    ("actually, Geelong is the capital": rules 9), the name known to no table or not."""
    if not relation:
        return False
    k = 0
    while k < min(len(tail), 4) and tail[k].word and tail[k].raw[:1].isupper():
        k += 1
    if not k or k >= len(tail) or tail[k].norm not in COPULAS:
        return False
    rest = {t.norm.removesuffix("s") for t in tail[k + 1 :] if t.sentence == tail[k].sentence}
    return bool(rest & relation)


ENGLISH_FUNCTION_WORDS = frozenset(
    {"a", "an", "the", "and", "or", "but", "nor", "so", "yet", "if", "then", "than", "though",
     "although", "because", "since", "while", "when", "where", "which", "who", "whom", "whose",
     "that", "this", "these", "those", "it", "its", "i", "im", "id", "ive", "me", "my", "we",
     "us", "our", "you", "your", "he", "him", "his", "she", "her", "they", "them", "their",
     "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "has",
     "have", "had", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
     "of", "in", "on", "at", "to", "from", "by", "with", "without", "for", "about", "as",
     "into", "onto", "near", "over", "under", "after", "before", "between", "through", "via",
     "per", "not", "no", "also", "too", "only", "just", "even", "still", "now", "once",
     "again", "there", "here", "both", "either", "neither", "each", "all", "some", "any",
     "other", "another", "such", "what", "how", "why", "very", "much", "more", "most", "less",
     "least", "up", "down", "out", "off", "plus", "minus", "like", "unlike", "instead",
     "else", "ever", "never", "rather", "well", "yes", "capital", "city", "currency", "along",
     "across", "around", "beside", "beyond", "within", "toward", "towards", "against", "next",
     "often", "sometimes", "seldom", "always", "called", "written", "spelled", "spelt",
     "named", "known", "styled", "termed", "abbreviated"}
)  # fmt: skip
"""Rules 30: the closed classes of English words (articles, pronouns, prepositions,
conjunctions, auxiliaries, determiners and the adverbs of degree and time), and the nouns of the
most asked questions; rules 32: the prepositions it lacked ("along", "across"), the adverbs of frequency without
"-ly" and the participles of naming ("often written", "also called"): words between two candidates that make the words around them an English
sentence about both ("Canberra, near Sydney", "Yamoussoukro, though Abidjan ..."), never a
correction in another language (`unread_retraction`)."""


_UNREAD_MAX_WORDS = 6
"""At most this many words between the two candidates of `unread_retraction`."""


_NOT_ELSEWHERE = frozenset({"pas", "non", "nao", "nem", "ne", "nicht", "niet", "ikke", "inte"})
"""Rules 32: "not" in the languages the tables read, which before a candidate in its clause
deny it ("Canberra, pas Sydney."), never correct to it."""


_IN_CLAUSE_MAX_WORDS = 2
"""Rules 32: at most this many unread words before the last candidate of `unread_retraction`
in the clause right after the first candidate ("Ngerulmud, ei kun Koror.")."""


def _a_candidate_span(tokens: Sequence[Token], start: int, stop: int) -> bool:
    """Whether the tokens from ``start`` to ``stop`` are one candidate: a number or offset
    alone, or a name (`_a_name_with_particles`)."""
    span = tokens[start:stop]
    if len(span) == 1 and not span[0].word and any(c.isdigit() for c in span[0].norm):
        return True
    return _a_name_with_particles(span)


_UNREAD_SHAPE = re.compile(
    r"[^()\[\]:]*[,;.!?\u2014\u2013\u2026-][^()\[\]:]*(?:[^\W\d]:\s+)?\w[^()\[\]:]*"
)
"""A reply with a stop before its last word and no brackets or colon ("Economic hub: Abidjan"
labels what follows): the only replies `unread_retraction` reads (a fast test first)."""


def unread_retraction(tokens: Sequence[Token], found: Sequence[Mention]) -> int:
    """Rules 30: a reply that gives a candidate as its whole first clause, then a clause or more
    of words the reading does not know (no candidate, number or denial, no word of
    `ENGLISH_FUNCTION_WORDS` or English adverb in "-ly", no correction's words the other
    readings know, nothing capitalised but a sentence's first word), then another candidate that
    ends it, alone in its clause or after one such word ("Euro — ei, vabandust, kroon.",
    "Jakarta — eh, maksudnya Nusantara.", "+34. Aliás, +351.", "Yamoussoukro — erm, Abidjan."):
    a correction in words the tables lack, or a filler; the reply ends on the last candidate.
    Where the last candidate starts, or 0. The reading is a guess at words it cannot read: a
    verdict it changes is uncertain (`kglens_tui.answers.verify.check_wh`)."""
    if len(tokens) < 3:
        return 0
    first = 0
    while first < len(tokens) and tokens[first].clause == tokens[0].clause:
        first += 1
    if first >= len(tokens) or not (
        _a_candidate_span(tokens, 0, first)
        or any(m.start == 0 and m.end == first and not m.negated for m in found)
    ):
        return 0
    end = len(tokens)
    last = [m.start for m in found if m.end == end and not m.negated and m.start > first]
    start = min(last) if last else end
    if not last:
        start = next((k for k in range(first + 1, end) if _a_candidate_span(tokens, k, end)), end)
    if (
        start == end
        and tokens[-1].word
        and tokens[-1].clause != tokens[-2].clause
        and tokens[-1].norm in english_name_words()
        and tokens[-1].norm not in ENGLISH_FUNCTION_WORDS
    ):
        start = end - 1  # a last clause of one word, a thing's name ("kroon")
    if start == end or start <= first or start - first > _UNREAD_MAX_WORDS:
        return 0
    if any(t.norm in DENYING for t in tokens[start:]):
        return 0  # "Canberra. Nope. Not Sydney."
    opening = start
    while opening > first and tokens[opening - 1].clause == tokens[start].clause:
        opening -= 1
    if opening == first:
        if (
            start - opening > _IN_CLAUSE_MAX_WORDS
            or first != 1
            or not tokens[0].word
            or negated(tokens, start)
            or any(
                t.norm in _NOT_ELSEWHERE or (t.norm.endswith("ing") and t.norm.isascii())
                for t in tokens[first:start]
            )
        ):
            return 0  # the words must stand as a clause of their own: "CHF, often written Fr."
        # rules 32: "Ngerulmud, ei kun Koror.": a one-word name, then a clause of one or two
        # unread words and the last candidate
    elif start - opening > 1:
        return 0
    named = {i for m in found for i in range(m.start, m.end) if i < start}
    for i in range(first, start):
        tok = tokens[i]
        if (
            not tok.word
            or i in named
            or tok.norm in ENGLISH_FUNCTION_WORDS
            or tok.norm in DENYING
            or tok.norm in ALSO_NOT
            or tok.norm in list_conjunctions()
            or marker_at([t.norm for t in tokens], i)
            or (tok.norm.endswith("ly") and tok.norm.isascii())
            or (
                tok.raw[:1].isupper()
                and tokens[i - 1].sentence == tok.sentence
                and (i > first or tokens[i - 1].word)  # "+34. Aliás, +351."
            )
        ):
            return 0
    if [t.norm for t in tokens[:first]] == [t.norm for t in tokens[start:]]:
        return 0
    return start


def unread_tail(reply: str, found_in: Callable[[Sequence[Token]], Sequence[Mention]]) -> str:
    """The last candidate of `unread_retraction` as text, or "" (``found_in``: the mentions of
    the reply's tokens)."""
    if _UNREAD_SHAPE.fullmatch(reply) is None:
        return ""
    tokens = tokenize(reply)
    start = unread_retraction(tokens, found_in(tokens))
    if start and ":" in reply and tokens[start - 1].clause == tokens[1].clause:
        return ""  # rules 32: before a colon, a clause or more ("Nee, wacht: Lagos."; not
        # "Canberra. Economic hub: Sydney.", which labels what follows)
    return " ".join(t.raw for t in tokens[start:]) if start else ""


_BELIEVING = frozenset({"believe", "think", "guess", "reckon", "suppose"})
"""Verbs by which the speaker gives the last clause of `claimed_tail` as their belief."""


_STILL = frozenset({"still", "now", "actually", "really", "instead"})
"""Words that may stand between "it is" and the name of `claimed_tail` ("it is still X")."""


_CLAIMED_BETWEEN_MAX_WORDS = 12
"""At most this many words between the first candidate and the claim of `claimed_tail`."""


def _first_clause_candidate(
    tokens: Sequence[Token], found: Sequence[Mention], start: int = 0
) -> int:
    """Where the reply's first clause ends when, from token ``start`` on, it is a candidate
    alone (a mention or a name), else 0 (also when the reply is that clause alone)."""
    first = start
    while first < len(tokens) and tokens[first].clause == tokens[0].clause:
        first += 1
    if first >= len(tokens):
        return 0
    if _a_candidate_span(tokens, start, first) or any(
        m.start == start and m.end == first and not m.negated for m in found
    ):
        return first
    return 0


def _name_from(tokens: Sequence[Token], j: int) -> int:
    """The end of the capitalised name (particles inside allowed) that starts at ``j``, or
    ``j``."""
    end = j
    k = j
    while k < len(tokens) and tokens[k].clause == tokens[j].clause:
        tok = tokens[k]
        if tok.word and tok.raw[:1].isupper():
            end = k + 1
        elif not (tok.norm in INNER_PARTICLES and k > j):
            break
        k += 1
    return end


def claimed_last(tokens: Sequence[Token], found: Sequence[Mention]) -> tuple[int, int]:
    """Rules 32: a reply whose first clause is a candidate alone and whose later clause claims
    another name as the answer, in English words the correction tables lack: the last clause
    "(I believe) it is (still) Y" ending the reply ("Karol Nawrocki — scratch the name, I
    believe it is still Andrzej Duda."), or "moved to Y" with no name after it, after a correction's word ("Malabo —
    actually, the government has moved to Ciudad de la Paz, so that's the capital now."). The
    reply ends on Y: where Y starts and ends, or (0, 0). The words between are not read: a
    verdict the reading changes is uncertain."""
    first = _first_clause_candidate(tokens, found)
    if not first or len(tokens) - first > _CLAIMED_BETWEEN_MAX_WORDS + 8:
        return (0, 0)
    if any(m.start >= first and m.negated for m in found):
        return (0, 0)
    last = tokens[-1].clause
    k = next(i for i in range(first, len(tokens)) if tokens[i].clause == last)
    j = k
    if k > first and j + 1 < len(tokens) and tokens[j].norm == "i":
        j = j + 2 if tokens[j + 1].norm in _BELIEVING else j
    claim = (0, 0)
    if j > first and j + 1 < len(tokens) and tokens[j].norm == "it" and tokens[j + 1].norm == "is":
        j += 2
    elif j > first and j < len(tokens) and tokens[j].norm == "its" and tokens[j].raw != "its":
        j += 1
    else:
        j = -1
    if j > 0:
        while j < len(tokens) and tokens[j].norm in _STILL:
            j += 1
        if j < len(tokens) and _name_from(tokens, j) == len(tokens):
            claim = (j, len(tokens))
    if claim == (0, 0):
        for i in range(first + 1, len(tokens) - 2):
            if tokens[i].norm in _MOVED and tokens[i + 1].norm == "to":
                stop = _name_from(tokens, i + 2)
                named_after = any(
                    t.word and t.raw[:1].isupper() and tokens[n - 1].sentence == t.sentence
                    for n, t in enumerate(tokens[stop:], stop)
                )
                norms = [t.norm for t in tokens]
                corrected = any(
                    norms[n] in RETRACTING or norms[n] == "actually" or marker_at(norms, n)
                    for n in range(first, i)
                )
                if stop > i + 2 and not named_after and corrected:
                    claim = (i + 2, stop)  # not "Kuala Lumpur, though most ministries have ..."
                break
    start, end = claim
    if not start or start - first > _CLAIMED_BETWEEN_MAX_WORDS:
        return (0, 0)
    if any(m.start < start and m.end > first for m in found):
        return (0, 0)  # another candidate between: the other readings' business
    if [t.norm for t in tokens[:first]] == [t.norm for t in tokens[start:end]]:
        return (0, 0)
    return claim


def claimed_tail(reply: str, found_in: Callable[[Sequence[Token]], Sequence[Mention]]) -> str:
    """The name `claimed_last` finds, as text, or ""."""
    if "it" not in reply and " to " not in reply:
        return ""
    tokens = tokenize(reply)
    start, end = claimed_last(tokens, found_in(tokens))
    return " ".join(t.raw for t in tokens[start:end]) if start else ""


def given_up(tokens: Sequence[Token], found: Sequence[Mention], asked: frozenset[str]) -> bool:
    """Rules 32: whether a reply whose first clause is a candidate alone goes on, naming no
    other, to say it cannot say and so declines (`gives_up`: "Tarawa… Hmm, I honestly can't
    remember anymore, so I'll leave it."): the candidate is given up, without a "no" before
    (`withdrawn_and_declined`). A reading of the reply's drift: uncertain."""
    first = _first_clause_candidate(tokens, found) or _hedged_first_candidate(tokens, found)
    if not first or any(m.end > first for m in found):
        return False
    if _offers_candidate(tokens, found, first, asked):
        return False
    rest = " ".join(t.raw for t in tokens[first:])
    if taken_back_in_doubt(_with_breaks(tokens[first:])):  # rules 36: "Niamey... I'll pass."
        return True
    return gives_up(rest) and not guesses(rest)


def _with_breaks(tokens: Sequence[Token]) -> str:
    """The tokens as text, a full stop between sentences and a comma between clauses."""
    parts: list[str] = []
    for prev, tok in zip((None, *tokens), tokens, strict=False):
        if prev is not None:
            parts.append(
                ". "
                if tok.sentence != prev.sentence
                else ", "
                if tok.clause != prev.clause
                else " "
            )
        parts.append(tok.raw)
    return "".join(parts)


_FIRST_HEDGES = frozenset({"maybe", "perhaps", "possibly", "probably"})


def _hedged_first_candidate(tokens: Sequence[Token], found: Sequence[Mention]) -> int:
    """Rules 36: where the reply's first clause ends when it is a hedge word and a candidate
    ("Maybe 1821..."), else 0."""
    if len(tokens) < 2 or tokens[0].norm not in _FIRST_HEDGES:
        return 0
    return _first_clause_candidate(tokens, found, start=1)
