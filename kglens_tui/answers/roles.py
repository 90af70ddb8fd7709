"""Rules 23: the role of a named answer in its sentence. A true object the reply names answers
the question only where the reply says the subject stands in the asked relation to it; a name
that is itself the subject of the relation about another entity ("The EU is a member of the
EEA." asked of Germany), or that stands beside the subject as a co-subject of another predicate
("France, Belgium and Luxembourg are all part of the EU.") or of the relation with an explicit
other object ("Serbia and Croatia share a land border with Hungary.": the answer given is
Hungary), names no answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kglens_tui.answers.candidates import relation_words
from kglens_tui.answers.mentions import Mention, Token
from kglens_tui.answers.passing import PASSING
from kglens_tui.answers.words import ARTICLES, NOT_NAMES, subject_mentions

_WH = frozenset({"what", "which"})
"""Question words a type's name follows ("Which countries", "What currency")."""


_AUXILIARIES = frozenset({"is", "are", "was", "were", "do", "does", "did", "has", "have"})


_VERBS = frozenset(
    {"is", "are", "was", "were", "remain", "remains", "has", "have", "had", "belong", "belongs"}
)
"""Verbs that end a sentence's opening names, besides the question's relation words."""


_PHRASE_WORDS = frozenset(
    {"the", "a", "an", "and", "both", "all", "of", "for", "also", "known", "as"}
)
"""Lower-case words a sentence's opening list of names may hold ("The countries of X, Y and Z",
"X (also known as ...)")."""


_OPENERS = PASSING | NOT_NAMES
"""Capitalised words that open a sentence before its subject, no names ("In", "Sorry")."""


_PRONOUNS = frozenset({"it", "its", "itself", "they", "them", "their", "theirs"})
"""Words that may stand for the subject asked about."""


_AND = frozenset({"and"})


_LINKS = frozenset({"of", "with", "to", "in"})


_ADJACENCY = ("neighbo", "adjacen", "adjoin", "abut", "contiguous", "border", "bound")
"""Stems of words that say two places touch: a relation of their own beside any question's."""


_WHOLE = frozenset({"of", "in", "within", "inside"})


class Role(NamedTuple):
    """Answers a sentence names in no answering role, and whether the reading is unsure."""

    dropped: frozenset[Mention]
    uncertain: bool


def answer_type_words(asked: Sequence[Token]) -> frozenset[str]:
    """The words a question names the answer's type by, between its question word and its verb
    ("Which international organisations is ...", "What currency is ..."; one word where no
    auxiliary follows within four: "Which countries share ...")."""
    norms = [t.norm for t in asked]
    start = next((i + 1 for i, n in enumerate(norms) if n in _WH), None)
    if start is None:
        return frozenset()
    ahead = norms[start : start + 4]
    end = next((start + i for i, n in enumerate(ahead) if n in _AUXILIARIES), start + 1)
    return frozenset(n.removesuffix("s") for n in norms[start:end])


def relation_stems(
    asked: Sequence[Token], subject: tuple[str, ...], kinds: frozenset[str] | None = None
) -> tuple[str, ...]:
    """The question's relation words less its answer type's words (``kinds``, worked out when
    not given: "member"; "share", "land", "border")."""
    kinds = answer_type_words(asked) if kinds is None else kinds
    return tuple(sorted(relation_words(asked, subject) - kinds))


def _has_stem(tok: Token, stems: Sequence[str]) -> bool:
    return tok.word and any(tok.norm.startswith(s) for s in stems)


def _relational(tok: Token, stems: Sequence[str]) -> bool:
    """A word of the question's relation, or of adjacency."""
    return _has_stem(tok, stems) or _has_stem(tok, _ADJACENCY)


def no_answer_role(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    asked: Sequence[Token],
) -> tuple[bool, bool]:
    """(every named answer stands in a role that answers nothing, the reading is unsure): see
    `sentence_roles`."""
    if not asked or not subject:
        return False, False
    kinds = answer_type_words(asked)
    stems = relation_stems(asked, subject, kinds)
    own = subject_mentions(tokens, subject)
    dropped: set[Mention] = set()
    unsure = False
    said = _said_of_them(tokens, stems)
    for sentence in sorted({tokens[m.start].sentence for m in answers}):
        role = sentence_roles(tokens, sentence, found, own, stems, kinds, said_of_them=said)
        dropped |= role.dropped
        unsure = unsure or (role.uncertain and bool(role.dropped))
    if all(m in dropped for m in answers):
        return True, unsure
    return False, False


def sentence_roles(
    tokens: Sequence[Token],
    sentence: int,
    found: Sequence[Mention],
    own: Sequence[Mention],
    stems: Sequence[str],
    kinds: frozenset[str],
    *,
    said_of_them: bool = False,
) -> Role:
    """The true answers of one sentence that answer nothing. The sentence opens with a list of
    names (its grammatical subject) and a verb: (A) the list names another entity and not the
    subject, and the predicate puts it in the asked relation to a named entity that is not the
    subject either ("X is a member of Y", "X borders Y"), the subject unnamed and no pronoun for
    it: every answer of the sentence is about another entity; (B) the list names the subject and
    true answers beside it, and the predicate either states the relation with another object
    ("S and X share a land border with Y": the answer given is Y) or states another relation
    ("S and X are all part of Z"; unsure unless it names the whole they are part of): the true
    answers of the list are no answers, unless ``said_of_them``: another sentence says it of
    them ("They share a land border with each other."). ``own``: the subject's mentions;
    ``stems``: `relation_stems`; ``kinds``: `answer_type_words`."""
    span = [i for i, t in enumerate(tokens) if t.sentence == sentence]
    if not span:
        return Role(frozenset(), False)
    first, last = span[0], span[-1] + 1
    ours = {i for m in own for i in range(m.start, m.end)}
    names = [m for m in found if first <= m.start < last and not _overlaps(m, ours)]
    covered = {i for m in (*names, *own) for i in range(m.start, m.end)}
    verb = _verb_after_names(tokens, first, last, covered, stems, kinds)
    if verb is None:
        return Role(frozenset(), False)
    opening = [m for m in names if m.end <= verb]
    subject_opens = any(first <= i < verb for i in ours)
    if not opening:
        return Role(frozenset(), False)
    other = _object_of_relation(tokens, verb, last, stems, names, ours)
    if not subject_opens:
        told = any(first <= i < last for i in ours) or any(
            tokens[i].norm in _PRONOUNS for i in range(first, last)
        )
        if told or not isinstance(other, Mention):
            return Role(frozenset(), False)
        return Role(frozenset(m for m in names if m.owner < 0), False)
    beside = frozenset(m for m in opening if m.owner < 0)
    if not beside or not any(tokens[i].norm in _AND for i in range(first, verb)):
        return Role(frozenset(), False)  # no list beside the subject ("X: S is ...")
    if other is not None and other != "subject":
        return Role(beside, False)
    predicate = tokens[verb:last]
    if said_of_them or any(_relational(t, stems) for t in predicate):
        return Role(frozenset(), False)
    return Role(beside, not _names_a_whole(tokens, verb, last))


def _said_of_them(tokens: Sequence[Token], stems: Sequence[str]) -> bool:
    """Whether a sentence that opens with a pronoun states the asked relation ("They share a
    land border with each other.")."""
    opening: dict[int, Token] = {}
    for tok in tokens:
        opening.setdefault(tok.sentence, tok)
    return any(opening[t.sentence].norm in _PRONOUNS and _relational(t, stems) for t in tokens)


def _overlaps(m: Mention, positions: set[int]) -> bool:
    return any(i in positions for i in range(m.start, m.end))


def _verb_after_names(
    tokens: Sequence[Token],
    first: int,
    last: int,
    covered: set[int],
    stems: Sequence[str],
    kinds: frozenset[str],
) -> int | None:
    """Where the verb after a sentence's opening list of names stands, or None: the list holds
    names, capitalised words, type words and `_PHRASE_WORDS` only."""
    i = first
    while i < last:
        tok = tokens[i]
        upper = tok.word and tok.raw[:1].isupper()
        if i not in covered and upper and tok.norm in _OPENERS:
            break  # "In Russia — ruthenium is named after Ruthenia."
        if i in covered or tok.norm in _PHRASE_WORDS or tok.norm.removesuffix("s") in kinds:
            i += 1
            continue
        if upper and tok.norm not in _PRONOUNS | _VERBS:
            i += 1
            continue
        break
    if i in (first, last):
        return None
    tok = tokens[i]
    return i if tok.norm in _VERBS or _has_stem(tok, stems) else None


def _object_of_relation(
    tokens: Sequence[Token],
    verb: int,
    last: int,
    stems: Sequence[str],
    names: Sequence[Mention],
    ours: set[int],
) -> str | Mention | None:
    """The named entity the predicate puts in the asked relation ("a member of Y", "borders Y",
    "share a land border with Y"): its mention, "subject" where it is the subject, "unknown"
    where it is a capitalised name no table knows, None where the relation has no named
    object."""
    starts = {m.start: m for m in names}
    for j in range(verb, last):
        if not _has_stem(tokens[j], stems):
            continue
        k, linked = j + 1, j == verb
        while k < last and tokens[k].norm in _LINKS | ARTICLES:
            linked = linked or tokens[k].norm in _LINKS
            k += 1
        if not linked or k >= last:
            continue
        if k in ours:
            return "subject"
        if k in starts:
            return starts[k]
        if tokens[k].word and tokens[k].raw[:1].isupper():
            return "unknown"
    return None


def _names_a_whole(tokens: Sequence[Token], verb: int, last: int) -> bool:
    """Whether the predicate names a whole the list is said to be in or part of ("part of the
    European Union", "of the Indian subcontinent")."""
    for j in range(verb, last - 1):
        if tokens[j].norm not in _WHOLE:
            continue
        k = j + 1
        while k < last and tokens[k].norm in ARTICLES:
            k += 1
        if k < last and tokens[k].word and tokens[k].raw[:1].isupper():
            return True
    return False
