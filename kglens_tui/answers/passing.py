"""Names told of in passing: a rival named as another's belief, a former state, a season, a
neighbour, another role, or a clause about something else than the question's answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from kglens_tui.answers.correction_words import DENYING, INTERJECTIONS, RETRACTING, marker_at
from kglens_tui.answers.mentions import Mention, Token
from kglens_tui.answers.people import TITLE_WORDS
from kglens_tui.answers.places import about_another_country
from kglens_tui.answers.words import ARTICLES, COPULAS, NOT_NAMES, SPEAKING, normalize, truth_table
from kglens_tui.kg.answer_names import PARTICLES


def rival_verdict(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    defining: frozenset[int] = frozenset(),
    relation: frozenset[str] = frozenset(),
    present: bool = False,
) -> tuple[bool, bool]:
    """(rival, uncertain): whether the reply names, not negated, an entity of the answer's type
    that is neither a true object nor the subject, as an answer: a rival mention whose span no
    true or subject name shares, not named in passing (`in_passing`: "Canberra, near Sydney"),
    in the first sentence that names a true object. A rival in another sentence ("Canberra. Sydney
    is the largest city."; "Portuguese. It is the only Portuguese-speaking country, beside
    Spanish-speaking ones.") does not count, but leaves the verdict uncertain; nor does one a
    later clause tells about (`_told_about`: "Only Spain; France is further away").
    ``relation``: the question's words of the relation asked (`relation_words`).
    ``found``: the mentions of the true objects' and the rivals' names (`mentions`).
    Rules 18: nor does a rival others are said to believe (`_others_belief`: "Canberra, though
    many guess Sydney"), one a clause of former time tells of where the question asks in the
    present (``present``; `_former_clause`: "The euro; before 2002 it was the French franc"),
    or one a clause tells about before a last sentence that is only a true name
    (`_concluding_sentence`: "Sydney or Melbourne were rivals; Canberra was the compromise.
    Canberra."). Rules 19: nor does a rival `_not_named_as_answer` reads as no answer, nor another
    rival in the clause of one told about ("Japan; Russia administers the nearby Kuril
    Islands"). Rules 21: nor does one the reply says the answer is or was called
    (`called_so`: "Ankara, or Angora as it was once called.")."""
    known = {(m.start, m.end) for m in found if m.owner < 0}
    if subject:
        known.update((start, end) for start, end, _ in truth_table((subject,)).matches(tokens))
    every_true = {tokens[m.start].sentence for m in found if m.owner < 0 and not m.negated}
    # the first sentence that gives a true answer, where the question's words define it if any
    # does, is the answer; the others tell more ("It is the only ...-speaking")
    chosen = (every_true & defining) or every_true
    true_sentences = {min(chosen)} if chosen else set()
    answered_elsewhere = bool(defining) and not every_true & defining
    passing: set[int] = set()
    rival = uncertain = False
    adjacency = not any(w.startswith(("border", "neighbo", "adjoin", "adjacen")) for w in relation)
    concluded = _concluding_sentence(tokens, found)
    told_clauses: set[int] = set()
    for m in sorted(found, key=lambda m: m.start):
        if m.owner < 0 or m.negated or (m.start, m.end) in known:
            continue
        if tokens[m.start].clause in told_clauses or _not_named_as_answer(
            tokens, m, found, relation
        ):
            uncertain = True
            continue
        if (
            in_passing(tokens, m, passing, adjacency)
            or _seasonal(tokens, m.end)
            or _former(tokens, m)
            or called_so(tokens, m.end)
            or _others_belief(tokens, m, found)
            or (present and _former_clause(tokens, m, found))
            or _object_of_the_answer(tokens, m, found, relation)
            or (
                tokens[m.start].sentence < concluded
                and _clause_about(tokens, m, found, relation, _clause_start(tokens, m))
            )
        ):
            passing.add(m.end)
            continue
        if _told_about(tokens, m, found, relation) or about_another_country(
            tokens, m, found, subject
        ):
            told_clauses.add(tokens[m.start].clause)  # rules 19: its clause is about it
            uncertain = True
            continue
        sentence = tokens[m.start].sentence
        # a rival where the question's words define the answer, and no true one is, answers
        elsewhere = not (answered_elsewhere and sentence in defining)
        if true_sentences and sentence not in true_sentences and elsewhere:
            uncertain = True
            continue
        rival = True
    return rival, uncertain and not rival


_BELIEVING = frozenset(
    {"think", "thinks", "thought", "guess", "guesses", "guessed", "assume", "assumes", "assumed",
     "believe", "believes", "believed", "suppose", "supposes", "supposed", "expect", "expects",
     "expected", "imagine", "imagines", "imagined", "say", "says", "said", "claim", "claims",
     "claimed", "answer", "answers", "answered", "pick", "picks", "picked"}
)  # fmt: skip
"""Verbs by which a clause tells what someone believes or says ("many guess Sydney")."""


_BELIEF_FILLERS = frozenset({"that", "its", "it", "is", "was", "to", "be", "the", "a", "an"})


def _others_belief(tokens: Sequence[Token], m: Mention, found: Sequence[Mention]) -> bool:
    """Rules 18: whether a rival is what others are said to believe or say, after a true answer
    named in an earlier clause ("Canberra is the capital, though many guess Sydney", "Canberra;
    tourists often say it's Sydney"): a verb of believing before it in its clause (maybe with
    "that", "it's" between), and no word of the speaker in that clause ("though I think
    Sydney" offers Sydney)."""
    return _after_the_answer(tokens, m, found) and said_by_others(tokens, m)


def said_by_others(tokens: Sequence[Token], m: Mention) -> bool:
    """Whether a verb of believing or saying stands before a mention in its clause (maybe with
    "that", "it's" between) and no word of the speaker's is in that clause ("many guess
    Sydney"; not "I think Sydney")."""
    clause = tokens[m.start].clause
    i = m.start - 1
    while i >= 0 and tokens[i].clause == clause and tokens[i].norm in _BELIEF_FILLERS:
        i -= 1
    if i < 0 or tokens[i].clause != clause or tokens[i].norm not in _BELIEVING:
        return False
    return not any(t.norm in SPEAKING for t in tokens if t.clause == clause)


OPINION_NAME = re.compile(
    r"\s*(?:i'd|i’d|i\s+would|i)\s+(?:say|think|guess|believe|reckon)\s+(?:it's\s+|it\s+is\s+)?"
    r"(?-i:[A-Z])[^,;.!?\u2014\u2013]*[,;.!?\u2014\u2013]",
    re.IGNORECASE,
)
"""Rules 20: an opening clause that is the speaker's pick of a capitalised name ("I'd say
Sydney, ...")."""


_FORMER_OPENERS = frozenset(
    {"before", "until", "till", "previously", "formerly", "earlier", "once", "originally",
     "prior", "historically"}
)  # fmt: skip


_PAST_VERBS = frozenset({"was", "were", "used", "had", "been"})


def _former_clause(tokens: Sequence[Token], m: Mention, found: Sequence[Mention]) -> bool:
    """Rules 18: whether a rival stands in a clause after a true answer's that opens with a word
    of former time and has a verb in the past ("The euro; before 2002 it was the French
    franc.", "Astana; previously the capital was Almaty"), or (rules 20) that it opens before a
    verb in the past with a word of former time after (`_EARLIER`): it tells what held before."""
    if not _after_the_answer(tokens, m, found):
        return False
    clause = tokens[m.start].clause
    words = [t.norm for t in tokens if t.clause == clause]
    if words[0] in _FORMER_OPENERS and bool(_PAST_VERBS.intersection(words)):
        return True
    # rules 20: the rival opens its clause before a verb in the past, and a word of former time
    # follows ("Ottawa; Kingston was the first capital of the Province of Canada.")
    after = [t.norm for t in tokens[m.end :] if t.clause == clause]
    return (
        tokens[m.start - 1].clause != clause
        and bool(after)
        and after[0] in _PAST_VERBS
        and bool(_EARLIER.intersection(after) or _FIRST in after)
    )


_FIRST = "+1"
"""How "first" before a noun reads once numbers are spelled out ("the first capital" is "the
capital 1": `spell_out`)."""


_EARLIER = frozenset(
    {"first", "former", "old", "original", "until", "till", "before", "once", "originally",
     "previously", "formerly", "earlier"}
)  # fmt: skip
"""Words of former time after a verb in the past ("was the first capital", "was the capital
until 1927")."""


def in_former_time(tokens: Sequence[Token], m: Mention) -> bool:
    """Rules 20: whether a mention after the reply's first sentence stands in a sentence that
    opens with a word of former time and in a clause with a verb in the past ("Joe Biden.
    Before that, Donald Trump was president."): it tells what held before, no answer now."""
    sentence = tokens[m.start].sentence
    if sentence == tokens[0].sentence:
        return False
    first = next(t for t in tokens if t.sentence == sentence)
    clause = [t.norm for t in tokens if t.clause == tokens[m.start].clause]
    return first.norm in _FORMER_OPENERS and bool(_PAST_VERBS.intersection(clause))


def _concluding_sentence(tokens: Sequence[Token], found: Sequence[Mention]) -> int:
    """Rules 18: the last sentence when it is only a true name (articles aside), not the first
    ("..., Canberra was the compromise. Canberra."); else -1."""
    last = tokens[-1].sentence
    if last == tokens[0].sentence:
        return -1
    first = next(i for i, t in enumerate(tokens) if t.sentence == last)
    while first < len(tokens) and tokens[first].norm in ARTICLES:
        first += 1
    stop = len(tokens)
    while stop > first and not tokens[stop - 1].word and not tokens[stop - 1].norm[:1].isalnum():
        stop -= 1
    if any(m.owner < 0 and not m.negated and (m.start, m.end) == (first, stop) for m in found):
        return last
    return -1


PASSING = frozenset(
    {"near", "from", "than", "between", "beside", "to", "like", "with", "by", "of", "in", "at",
     "on", "for", "about", "under", "over", "into", "across", "through", "via", "after",
     "before", "since", "until", "around", "alongside", "unlike", "toward", "towards", "as",
     "replaced", "replacing", "succeeded", "superseded", "formerly", "previously", "above",
     "below", "beyond", "behind", "besides", "except", "facing", "opposite", "against", "along",
     *("bordering", "neighbouring", "neighboring", "adjoining")}
)  # fmt: skip
"""Prepositions (and words of succession) before a name that mention it in passing, not as
the answer ("near Sydney", "such as Bengali", "which replaced the Deutsche Mark"; rules 9:
words of adjacency, "bordering Chile", unless the question asks about borders; rules 26:
"along the Oklahoma line")."""


_ADJACENCY = frozenset({"bordering", "neighbouring", "neighboring", "adjoining"})


_POSSESSIVES = frozenset({"its", "their", "his", "her", "our"})


COMPASS = re.compile(r"(?:north|south)(?:east|west)?(?:ern)?|(?:east|west)(?:ern)?|central")
"""Words of direction between a preposition and a name ("in the southwestern United States")."""


_SEASONAL = (
    ("in", "summer"),
    ("in", "the", "summer"),
    ("during", "summer"),
    ("in", "daylight"),
    ("during", "daylight"),
    ("for", "daylight"),
    ("daylight", "saving"),
    ("summer", "time"),
    ("dst",),
)
"""Words after a time zone that make it the summer one, beside the standard time asked for."""


def _seasonal(tokens: Sequence[Token], end: int) -> bool:
    """Whether the words after a mention say it holds in summer ("UTC+2 in summer")."""
    words = tuple(t.norm for t in tokens[end : end + 3])
    return any(words[: len(s)] == s for s in _SEASONAL)


_FORMER = frozenset({"before", "until", "till", "previously", "formerly", "earlier"})


def _former(tokens: Sequence[Token], m: Mention) -> bool:
    """Whether the words right after a rival say it held before ("the German mark before that",
    "Sydney until 1913")."""
    return (
        m.end < len(tokens)
        and tokens[m.end].clause == tokens[m.start].clause
        and tokens[m.end].norm in _FORMER
    )


_CALLING = frozenset({"called", "known", "named", "spelled", "spelt", "call", "calls", "name"})
"""Verbs by which a reply says what something is or was called."""
_CALLED_FILLERS = frozenset(
    {"it", "was", "is", "once", "formerly", "previously", "still", "then", "sometimes", "also",
     "often", "used", "to", "be", "been", "has", "had", "historically", "traditionally"}
)  # fmt: skip
"""Words between "as" and the verb of calling: "as it was once called", "as it used to be
known"."""
_CALLER_MAX_WORDS = 3


def called_so(tokens: Sequence[Token], end: int) -> bool:
    """Rules 21: whether the words right after a name ending at ``end`` say it is what the
    answer is or was called: "as it was once called", "as it is also known", "as the Chinese
    call it" ("Ankara, or Angora as it was once called."): another name of the answer, no
    second answer."""
    clause = tokens[end - 1].clause
    tail = [t.norm for t in tokens[end:] if t.clause == clause]
    if len(tail) < 3 or tail[0] != "as":
        return False
    rest = tail[1:]
    k = 0
    while k < len(rest) and rest[k] in _CALLED_FILLERS:
        k += 1
    if k and k < len(rest) and rest[k] in _CALLING and rest[0] == "it":
        return True  # as it was once called
    for j, word in enumerate(rest[: _CALLER_MAX_WORDS + 1]):
        if word in _CALLING:
            return j > 0 and rest[j + 1 : j + 2] == ["it"]  # as the Chinese call it
    return False


def in_passing(
    tokens: Sequence[Token], m: Mention, passing: set[int], adjacency: bool = True
) -> bool:
    """Whether a rival is named in passing: after a preposition ("near Sydney", "from the United
    Kingdom"; rules 25: and a title, "under King Charles III"), or listed after a rival named in passing ("between Sydney and Melbourne").
    ``adjacency``: whether words of adjacency ("bordering") name in passing (not where the
    question asks about borders)."""
    i = m.start - 1
    while (
        i >= 0
        and (
            tokens[i].norm in ARTICLES
            or tokens[i].norm in _POSSESSIVES
            or tokens[i].raw.endswith("'s")
            or COMPASS.fullmatch(tokens[i].norm)
            or (tokens[i].norm in TITLE_WORDS and tokens[i].raw[:1].isupper())
        )
        and tokens[i].clause == tokens[m.start].clause
    ):
        i -= 1  # "the", "Germany's", "southwestern": "like Germany's +49", "in the north of";
        # rules 25: a title ("serving under King Charles III")
    if i < 0:
        return False
    if tokens[i].norm in PASSING and tokens[i].clause == tokens[m.start].clause:
        return adjacency or tokens[i].norm not in _ADJACENCY
    if i + 1 in passing:  # "..., Melbourne" right after a rival named in passing
        return True
    return tokens[i].norm in ("and", "or") and i in passing


_CLAUSE_VERBS = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "may",
     "might", "must", "does", "do", "did", "isnt", "arent", "wasnt", "werent"}
)  # fmt: skip
"""Verbs of being, having and the modals: after a name that opens a clause, the clause tells
about that name ("France is further away", "Argentina and Bolivia have big deposits")."""


RELATIVES = frozenset({"where", "which", "who", "whose", "whom"})
"""Words that open a clause about something else ("..., where Hungarian is spoken")."""


_OPENERS = frozenset({"but", "though", "although", "whereas", "while", "and"})
"""Words that open a clause that goes on from the answer ("though Russia has occupied it")."""


_ADDING = frozenset({"also", "too", "likewise", "equally"})
"""Words by which a clause about a rival adds it as one more answer ("France is also one")."""


_NO_VERBS = frozenset({*PASSING, "maybe", "perhaps", "possibly", "probably", "likely", "too"})


def _a_verb(tokens: Sequence[Token], j: int) -> bool:
    """Whether the word at ``j``, right after a name that opens its clause, reads as that
    clause's verb (rules 10: "Bahrain lies across ...", "Canada and the US follow ..."): a word
    in lower case, no preposition or hedge, with more words of its clause after it."""
    tok = tokens[j]
    return (
        tok.word
        and tok.raw.islower()
        and tok.norm not in _NO_VERBS
        and j + 1 < len(tokens)
        and tokens[j + 1].clause == tok.clause
        and tokens[j + 1].word
    )


def _told_about(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], relation: frozenset[str]
) -> bool:
    """Whether a rival is what a later clause tells about, not an answer: a true answer, not
    negated, is named in an earlier clause of the sentence; the rival opens its clause (after
    articles, possessives, a relative word or a conjunction: "where Hungarian is spoken",
    "though Russia has occupied it"), alone or in a list of names ("Argentina and Bolivia", "Austria's +43 and Switzerland's +41"), right before a
    verb of being or having or a modal (`_CLAUSE_VERBS`) or another verb (`_a_verb`); and that clause has none of the
    question's words of the relation (not "Sydney is the capital"; without the question, which
    fact-eval's scorers do not pass, the rule cannot tell and the rival counts) and does not add
    the rival
    (`_ADDING`: not "France is also a neighbour"). Also any rival in a
    relative clause about another name than a true answer ("Rhodesia — not to be confused with
    Zambia, which was Northern Rhodesia")."""
    if not relation:
        return False  # without the question, a clause may restate its relation: a rival
    clause, sentence = tokens[m.start].clause, tokens[m.start].sentence
    if not any(
        t.owner < 0
        and not t.negated
        and tokens[t.start].sentence == sentence
        and tokens[t.start].clause < clause
        for t in found
    ):
        return False
    start = _clause_start(tokens, m)
    if tokens[start].norm in RELATIVES and start > 0 and tokens[start - 1].word:
        # "..., Zambia, which was Northern Rhodesia": about another name; rules 11: about the
        # answer ("Canberra, which replaced Melbourne") or a thing ("unlike water, which ...")
        return True
    if _another_role(tokens, start, m, relation):
        return True
    return _clause_about(tokens, m, found, relation, start)


def _clause_start(tokens: Sequence[Token], m: Mention) -> int:
    """Where the clause of a mention starts."""
    start = m.start
    while start > 0 and tokens[start - 1].clause == tokens[m.start].clause:
        start -= 1
    return start


def _clause_about(
    tokens: Sequence[Token],
    m: Mention,
    found: Sequence[Mention],
    relation: frozenset[str],
    start: int,
) -> bool:
    """Whether the clause of a rival, from ``start``, tells about it (`_told_about`): the rival
    opens it (after articles, relative words, conjunctions, other names) before a verb, and the
    clause neither adds it (`_ADDING`) nor has the question's relation words."""
    if not relation:
        return False
    clause = tokens[m.start].clause
    named = {i for x in found for i in range(x.start, x.end)}
    for i in range(start, m.start):
        tok = tokens[i]
        if not (
            tok.norm in ARTICLES
            or tok.norm in RELATIVES
            or tok.norm in _OPENERS
            or tok.norm in ("and", "or")
            or tok.raw.endswith(("'s", "'S"))
            or i in named
            or (tok.word and tok.raw[:1].isupper())
        ):
            return False
    ends = {x.start: x.end for x in found}
    j = m.end
    while True:
        if j < len(tokens) and tokens[j].clause != clause and tokens[j - 1].clause == clause:
            j = _after_parenthesis(tokens, j)  # rules 19: "X, in the south, is ..."
            clause = tokens[j].clause if j >= 0 else -1
        if not 0 <= j < len(tokens) or tokens[j].clause != clause:
            return False
        norm = tokens[j].norm
        if norm in _CLAUSE_VERBS:
            break
        if norm in ("and", "or") or norm in ARTICLES or tokens[j].raw.endswith(("'s", "'S")):
            j += 1
        elif j in ends:
            j = ends[j]
        elif tokens[j].word and tokens[j].raw[:1].isupper():
            j += 1  # a name no table knows, listed beside it
        elif _a_verb(tokens, j):
            break
        else:
            return False
    rest = {t.norm for t in tokens[j:] if t.clause == clause}
    if rest & _ADDING and not rest & _ANOTHER_FACT:
        return False  # "France is also a neighbour": one more answer
    return not relation & {w.removesuffix("s") for w in rest}


_ANOTHER_FACT = frozenset({"spoken", "understood", "taught", "heard", "accepted", "circulate"})
"""Rules 26: words by which a clause adding names tells another fact of them than the relation
asked ("Sesotho and English; Zulu and Xhosa are spoken too.": spoken, not official)."""


def _after_parenthesis(tokens: Sequence[Token], j: int) -> int:
    """Rules 19: the clause a name's clause goes on in after clauses that open with a
    preposition right after it ("Ho Chi Minh City, in the south, is the economic hub": the
    clause of "is"): where it starts; -1 if the clause at ``j`` opens with none. Rules 22: or
    after an apposition of a few words in lower case before a clause that opens with a verb
    ("Kanchenjunga, third-highest in the world, is on the Indian border")."""
    if tokens[j].norm not in PASSING:
        return _after_apposition(tokens, j)
    while j < len(tokens) and tokens[j].norm in PASSING:
        clause = tokens[j].clause
        while j < len(tokens) and tokens[j].clause == clause:
            j += 1
    return j if j < len(tokens) else -1


_APPOSITION_MAX_WORDS = 6


def _after_apposition(tokens: Sequence[Token], j: int) -> int:
    """Rules 22: where the clause after an apposition at ``j`` (at most six words, the first in
    lower case: "second-highest in Africa") starts, where that clause opens with a verb of
    `_CLAUSE_VERBS`; else -1."""
    clause = tokens[j].clause
    if not tokens[j].raw.islower():
        return -1
    k = j
    while k < len(tokens) and tokens[k].clause == clause:
        if k - j >= _APPOSITION_MAX_WORDS:
            return -1
        k += 1
    return k if k < len(tokens) and tokens[k].norm in _CLAUSE_VERBS else -1


_ROLE_MAX_WORDS = 4
"""At most this many words name the role of a clause "the President is ..." (`_another_role`)."""


_NO_ROLE = frozenset(
    {"it", "this", "that", "he", "she", "they", "answer", "one", "correct", "right", "real",
     "actual", "true", "proper", "official", "current", "latter", "former"}
)  # fmt: skip
"""Words by which such a clause names the answer again, not another role ("the answer is",
"the real one is", "it is")."""


def _another_role(
    tokens: Sequence[Token], start: int, m: Mention, relation: frozenset[str]
) -> bool:
    """Rules 11: whether a rival follows, right after a verb of being (and articles, titles), a few
    words that open its clause and name another role than the question's ("Canberra; the largest
    city is Sydney", "...; the President is ..." or "...; the head of state is ..." asked about
    the head of government): not the question's relation words (all of them, or all but one of
    three or more, as `defining_sentences` counts) and none that names the answer again (`_NO_ROLE`)."""
    k = m.start - 1
    while k > start and (tokens[k].norm in ARTICLES or tokens[k].norm in TITLE_WORDS):
        k -= 1  # "... is President Isaac Herzog"
    if k <= start or tokens[k].norm not in COPULAS:
        return False
    role = [t.norm for t in tokens[start:k] if t.norm not in ARTICLES and t.norm != "of"]
    need = len(relation) - (1 if len(relation) >= 3 else 0)
    return (
        0 < len(role) <= _ROLE_MAX_WORDS
        and all(t.word for t in tokens[start:k])
        and len({w.removesuffix("s") for w in role} & relation) < need
        and not set(role) & (_NO_ROLE | _OPENERS | RELATIVES | _ADDING)
    )


def believed_by_others(tokens: Sequence[Token], i: int, answers: Sequence[Mention]) -> bool:
    """Rules 19: whether the word at ``i`` lists what others are said to believe: a verb of
    believing (`_BELIEVING`) before it in its sentence, after a true answer's clause, and no
    word of the speaker's in the sentence up to it ("Rabat. Many people guess Casablanca, the
    largest city, or Marrakesh"; not "Rabat, though I'd guess Fez or Meknes")."""
    sentence = tokens[i].sentence
    k = i - 1
    while k >= 0 and tokens[k].sentence == sentence and tokens[k].norm not in _BELIEVING:
        k -= 1
    if k < 0 or tokens[k].sentence != sentence:
        return False
    said = [t.norm for t in tokens[: i + 1] if t.sentence == sentence]
    if any(w in SPEAKING for w in said):
        return False
    return any(tokens[m.start].clause < tokens[k].clause for m in answers)


def _after_the_answer(tokens: Sequence[Token], m: Mention, found: Sequence[Mention]) -> bool:
    """Whether a true answer, not negated, is named in an earlier clause than a mention's."""
    clause = tokens[m.start].clause
    return any(t.owner < 0 and not t.negated and tokens[t.start].clause < clause for t in found)


_BACK_PRONOUNS = frozenset({"it", "they", "he", "she"})
"""Pronouns by which a clause after the answer's tells about the answer."""


_NOT_DOING = _CLAUSE_VERBS | {"remains", "not", "isnt", "wasnt", "never"}


def _object_of_the_answer(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], relation: frozenset[str]
) -> bool:
    """Rules 20: whether a rival is what a verb of another relation does to the answer, in a
    clause after the true answer's that opens with a pronoun standing for it ("Germany; it
    borders Austria.", "The euro; it replaced the franc."): told of, no answer. Not after a verb
    of being or having ("it is Austria"), "not", or the question's relation words."""
    clause = tokens[m.start].clause
    if not _after_the_answer(tokens, m, found):
        return False
    words = [t for t in tokens[: m.start] if t.clause == clause]
    while words and words[0].norm in _OPENERS:
        words = words[1:]  # "..., and it borders Austria"
    if len(words) < 2 or words[0].norm not in _BACK_PRONOUNS:
        return False
    between = {t.norm.removesuffix("s") for t in words[1:]} | {t.norm for t in words[1:]}
    return (
        words[1].word and words[1].norm not in _NOT_DOING and not between & (relation | _NOT_DOING)
    )


def _not_named_as_answer(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], relation: frozenset[str]
) -> bool:
    """Rules 19: whether a rival in a clause after a true answer's is no name given as an
    answer, as a careful reader reads it: words written in lower case beside another word in
    lower case that does not offer them (`_NOT_BESIDE`: not "or sydney") where the reply writes
    the true answer with a capital ("In England — the south-western tip": "south", "western"
    are words, not regions; "the northern island" names no "Island"); one word of a longer name no
    table knows, beside another capitalised word of its clause that no mention covers and does
    not open its sentence ("South Tyrol", "Kuril Islands"); or a name standing alone as its
    clause in apposition to another role named just before in a few words after "the" ("...;
    the prime minister, Sanae Takaichi, heads the government")."""
    if not _after_the_answer(tokens, m, found):
        return False
    clause = tokens[m.start].clause
    covered = {i for x in found for i in range(x.start, x.end)}
    written_upper = any(
        t.owner < 0 and not t.negated and tokens[t.start].raw[:1].isupper() for t in found
    )
    if written_upper and all(t.raw[:1].islower() for t in tokens[m.start : m.end]):
        for j in (m.start - 1, m.end):
            if 0 <= j < len(tokens) and tokens[j].clause == clause and _a_common_word(tokens[j]):
                return True
    if m.end - m.start == 1:
        for j in (m.start - 1, m.end):
            if not 0 <= j < len(tokens) or j in covered or tokens[j].clause != clause:
                continue
            tok = tokens[j]
            opens = j == 0 or tokens[j - 1].sentence != tok.sentence
            if tok.word and tok.raw[:1].isupper() and not opens and tok.norm not in NOT_NAMES:
                return True
    return _apposed_to_a_role(tokens, m, clause, relation)


_NOT_BESIDE = frozenset(
    {"and", "or", "nor", "not", "either", "also", "then", "maybe", "perhaps", "possibly",
     "probably", "likely", "it", "its", "that", "this", "which", "what", *ARTICLES,
     *_CLAUSE_VERBS, *_BELIEVING}
)  # fmt: skip
"""Words beside a name in lower case that may still offer it ("or sydney", "is sydney", "was it
the euro": currencies and languages are written in lower case)."""


def _a_common_word(tok: Token) -> bool:
    """Whether a token is a word in lower case that does not offer the name beside it."""
    return tok.word and tok.raw[:1].islower() and tok.norm not in _NOT_BESIDE


def _apposed_to_a_role(
    tokens: Sequence[Token], m: Mention, clause: int, relation: frozenset[str]
) -> bool:
    """Rules 19: whether a mention is the whole of its clause, right after a clause of a few
    words in lower case after "the" that name a role ("the prime minister, Sanae Takaichi,"),
    not the question's relation (`_another_role`'s count)."""
    if any(t.clause == clause for t in (*tokens[: m.start], *tokens[m.end :])):
        return False
    role = [t for t in tokens[: m.start] if t.clause == clause - 1]
    need = len(relation) - (1 if len(relation) >= 3 else 0)
    return (
        bool(relation)
        and 1 < len(role) <= _ROLE_MAX_WORDS + 1
        and role[0].norm == "the"
        and all(t.word and t.raw.islower() for t in role)
        and not {t.norm for t in role[1:]} & (_NO_ROLE | ARTICLES)
        and len({t.norm.removesuffix("s") for t in role} & relation) < need
    )


_OPENING_END = re.compile(r"[^.!?;,:\n\u2014\u2013]*([.!?;,:\n\u2014\u2013])")
"""The opening clause and the mark that ends it."""


_HEADING_WORDS = frozenset(
    {"answer", "short", "quick", "final", "summary", "fun", "fact", "facts", "version", "tl",
     "dr", "tldr", "note", "in", "brief", "bottom", "line", "key", "point"}
)  # fmt: skip
"""Words of a heading before a dash ("Quick answer — ...", "Fun fact — ...")."""


def opening_stated(tokens: Sequence[Token], text: str, subject: Sequence[Mention]) -> bool:
    """Rules 18: whether the reply's opening clause states a name of its own: not asked ("Sydney?
    ..."), not opening with a preposition or "not" ("In Australia, ...", "Not Sydney. ..."), not
    only interjections ("Oh, ...") and not naming the subject ("Australia. ..."); rules 19: not
    ended by a colon, nor a heading before a dash, which give the answer after them ("Quick
    Answer: Canberra ...", "Fun fact — Tokyo was once Edo."; a name before a dash states it:
    "Mount Whitney — McKinley is in Alaska")."""
    if _ASKED_OPENING.match(text) or tokens[0].norm in PASSING | DENYING:
        return False
    end = _OPENING_END.match(text)
    clause = tokens[0].clause
    if end is not None and end.group(1) == ":":
        return False  # "Quick Answer: Canberra ..."
    opening = [t.norm for t in tokens if t.clause == clause]
    if (
        end is not None
        and end.group(1) in "\u2014\u2013"
        and all(w in _HEADING_WORDS for w in opening)
    ):
        return False  # "Quick answer — Canberra was founded in 1913."
    if all(w in INTERJECTIONS or w in NOT_NAMES for w in opening):
        return False  # "Oh, Canberra was purpose-built."
    return not any(tokens[m.start].clause == clause for m in subject)


def in_relative_clause(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
    """Rules 14: whether a mention sits in the clause that a relative word opens right after
    the reply's opening name ("Rishi Sunak, who beat Keir Starmer ...", "Henri Becquerel, whose
    work the Curies built on"): told about, not given; not where the clause says who the name
    is or names the question's relation ("Likud, whose leader X is prime minister")."""
    clause = tokens[m.start].clause
    if clause == tokens[0].clause:
        return False
    opening = next(i for i, t in enumerate(tokens) if t.clause == clause)
    between = tokens[opening + 1 : m.start]
    if between and all(t.norm in _IDENTIFYING for t in between):
        return False  # "Bibi, whose full name is Benjamin Netanyahu": the clause says who
    if relation & {t.norm.removesuffix("s") for t in tokens if t.clause == clause}:
        return False  # "Likud, whose leader Netanyahu is prime minister": it gives the answer
    return tokens[opening].norm in RELATIVES and tokens[opening - 1].clause == tokens[0].clause


_IDENTIFYING = frozenset(
    {"is", "was", "full", "real", "official", "name", "also", "known", "as", "called", "the"}
)
"""Words of a relative clause that says who the opening name is ("who is", "whose full name
is"): what it names is that name's own, not told of in passing."""


_OPENING_NAME_MAX_WORDS = 4
"""Rules 19: four, not three ("Ho Chi Minh City; Hanoi is more of a northern hub.")."""


INNER_PARTICLES = PARTICLES | {"es"}
"""Words in lower case inside a place's name ("Dar es Salaam", "Rio de Janeiro"; not "of":
"Part of Ukraine")."""


def opens_with_a_name(tokens: Sequence[Token], subject: Sequence[Mention]) -> bool:
    """Rules 11: whether the reply's first clause, to any stop (a dash too: "Sydney — ..."),
    is only capitalised words (rules 14: and name particles inside, "Dar es Salaam"), no more
    than `_OPENING_NAME_MAX_WORDS`, the first no word that
    is never a name (`NOT_NAMES`) nor an adverb, and not the subject's name."""
    first = [t for t in tokens if t.clause == tokens[0].clause]
    return (
        not any(m.start == 0 for m in subject)
        and len(first) <= _OPENING_NAME_MAX_WORDS
        and all(
            t.word
            and (t.raw[:1].isupper() or (0 < i < len(first) - 1 and t.norm in INNER_PARTICLES))
            for i, t in enumerate(first)
        )
        and first[0].norm not in NOT_NAMES
        and not first[0].norm.endswith("ly")
    )


def a_place(tokens: Sequence[Token]) -> bool:
    """Rules 20: whether the reply's opening clause is only a place's English name (CLDR's
    countries and zone cities), a name of another kind than a person's."""
    from kglens_tui.kg.answer_names import english_place_names

    words = " ".join(t.norm for t in tokens if t.clause == tokens[0].clause and t.word)
    return normalize(words) in english_place_names()


def a_name_sentence(
    tokens: Sequence[Token], subject: Sequence[Mention], found: Sequence[Mention]
) -> bool:
    """Rules 20: whether the reply's first sentence is only its opening clause, a name
    (`opens_with_a_name`) that the tables know or that is a place's English name (CLDR's
    countries and zone cities: "Almaty.", "Sydney."; not "Sure." or "Good question.") and more
    follows."""
    first = [t for t in tokens if t.sentence == 0]
    if len(first) == len(tokens) or any(t.clause != tokens[0].clause for t in first):
        return False
    if not opens_with_a_name(tokens, subject):
        return False
    return any(m.start == 0 and m.end == len(first) for m in found) or a_place(tokens)


def told_of(
    tokens: Sequence[Token],
    norms: Sequence[str],
    m: Mention,
    relation: frozenset[str],
    *,
    stated: bool = False,
    subject: Sequence[Mention] = (),
    last: int = 0,
) -> bool:
    """Rules 11: whether a later clause makes less of a true answer after the reply opened with
    another name ("Sydney; Canberra only hosts the parliament"): the answer opens a clause
    after the first, right before its verb (`clause_told`), the clause has a word that makes
    less of it (`LESSER`) and none of the question's relation words (not "Sydney; Canberra is
    the capital"; rules 17: unless that word makes less of the relation, `_lessened`: "La Paz —
    Sucre is only the historic capital"), and no word between takes the first name back
    (`RETRACTING`, a correction's first word). Rules 17: a clause that concedes the answer
    ("Istanbul, though Ankara is where parliament sits": `_conceded`) tells of it without a
    word of `LESSER`, where it has none of the relation words. Rules 18: so does any clause
    about it without the relation words, a word that makes it the answer (`_ANSWER_AGAIN`) or
    the subject's name, in the sentence of an opening that states a name (``stated``:
    `opening_stated`): "Almaty; Astana is the newer planned city", "Kangchenjunga; Everest
    belongs to China" (not "Sure. Canberra was purpose-built."); rules 20: or in the sentence
    after it, up to ``last``, where the opening sentence is only a name ("Almaty. Astana is the
    newer planned city.")."""
    if not relation or tokens[m.start].clause == tokens[0].clause:
        return False
    if any(
        t.norm in RETRACTING or t.norm in _UPDATING or marker_at(norms, i)
        for i, t in enumerate(tokens[: m.start])
    ):
        return False  # "Sydney... no, Canberra has been the capital since 1913"
    conceded = _conceded(tokens, m)
    rest = clause_told(tokens, m, conceded)
    if rest is None:
        return False
    if conceded:
        return not rest & relation  # rules 17: "Istanbul, though Ankara is where ... sits"
    if rest & LESSER and (_lessened(tokens, m, relation) or not rest & relation):
        return True
    # rules 18: a clause that tells about the answer without the relation, a word that names
    # it the answer or the subject, after an opening that states a name ("Almaty; Astana is the
    # newer planned city")
    if not stated or rest & (relation | _ANSWER_AGAIN) or tokens[m.start].sentence > last:
        return False  # rules 18: only in the opening name's sentence ("Sure. Canberra was ...")
    if rest & _POINTING_BACK:
        return False  # rules 19: "ACT — Canberra sits there.": the opening is the answer's place
    clause = tokens[m.start].clause
    return not any(tokens[s.start].clause == clause for s in subject)


_POINTING_BACK = frozenset({"there", "here", "role"})
"""Words by which a clause about the true answer points back at the opening as its place or
role ("Downing Street — Keir Starmer lives there.", "Federal City — Bern holds that role."): the
opening is no rival, and the clause gives the answer."""


_UPDATING = frozenset({"update", "updated", "updating"})
"""Words that bring newer facts to what the opening said ("Joe Biden — update: Donald Trump took
office again"): what follows is no name told of in passing."""


_ANSWER_AGAIN = frozenset(
    {"answer", "one", "correct", "right", "real", "actual", "true", "proper", "official",
     "current", "it", "instead", "rather", "actually"}
)  # fmt: skip
"""Words by which a clause about a name says it is the answer ("Canberra is the right one")."""


_ASKED_OPENING = re.compile(r"[^.!?;,:\n\u2014\u2013]*\?")
"""An opening clause put as a question ("Sydney? ...")."""


_CONCEDING = frozenset({"though", "although", "albeit", "while", "whereas", "whilst"})
"""Words that open a clause conceding something beside the answer given before ("Toronto —
though Ottawa hosts Parliament"; rules 20: "while", "whereas", "whilst": "Sydney, while Canberra
is the federal seat of parliament")."""


def _conceded(tokens: Sequence[Token], m: Mention) -> bool:
    """Rules 17: whether a mention follows, right after articles, a conceding word that opens
    its clause ("though Ottawa", "even though the Ottawa ...")."""
    i = m.start - 1
    while i >= 0 and tokens[i].norm in ARTICLES and tokens[i].clause == tokens[m.start].clause:
        i -= 1
    return (
        i > 0
        and tokens[i].norm in _CONCEDING
        and tokens[i].clause == tokens[m.start].clause
        and (tokens[i - 1].clause != tokens[i].clause or tokens[i - 1].norm == "even")
    )


def _lessened(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
    """Rules 17: whether the clause a mention opens makes less of the relation itself: a word
    of `LESSER` right before it, articles and words in lower case between ("Sucre is only the
    historic capital"; not "Canberra is the capital only")."""
    clause = tokens[m.start].clause
    lesser = False
    for t in tokens[m.end :]:
        if t.clause != clause:
            break
        norm = t.norm.removesuffix("s")
        if norm in relation:
            return lesser
        if t.norm in LESSER:
            lesser = True
        elif lesser and not (t.word and t.raw.islower()):
            lesser = False
    return False


def clause_told(
    tokens: Sequence[Token], m: Mention, conceded: bool = False
) -> frozenset[str] | None:
    """The words (less a plural -s) from a mention to the end of its clause when the mention
    opens its clause (after articles; rules 17: after a conceding word too when ``conceded``)
    right before a verb (`_CLAUSE_VERBS`, `_a_verb`): the clause tells about what it names; else
    None."""
    clause = tokens[m.start].clause
    if m.end >= len(tokens) or tokens[m.end].clause != clause:
        return None
    opening = {"even", *_CONCEDING} if conceded else set()
    if any(
        t.clause == clause and t.norm not in ARTICLES and t.norm not in opening
        for t in tokens[: m.start]
    ):
        return None
    if not (tokens[m.end].norm in _CLAUSE_VERBS or _a_verb(tokens, m.end)):
        return None
    return frozenset(t.norm.removesuffix("s") for t in tokens[m.end :] if t.clause == clause)


LESSER = frozenset({"only", "just", "merely", "simply", "mainly", "mostly"})
"""Words by which a clause makes less of what it tells about ("Canberra only hosts ...")."""


class _Shared(NamedTuple):
    dropped: frozenset[Mention]
    kept: frozenset[Mention]


def shared_with_subject(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    relation: frozenset[str] = frozenset(),
) -> _Shared:
    """True mentions by a name the subject shares (Djibouti, the capital of Djibouti): a
    possessive one ("Djibouti's capital") or one after a preposition ("It is in Djibouti") is
    the subject, not the answer (dropped), as is one inside a longer name of the subject ("São
    Tomé" in "São Tomé and Príncipe's capital"), and (rules 11) one that opens its clause right
    before a verb, in a clause without the question's relation words (``relation``: "Monaco is a
    city-state" tells about the subject; not "Monaco is its own capital"); the others count, but
    only the rules' best reading (kept: the verdict is uncertain if nothing else answers)."""
    if not subject:
        return _Shared(frozenset(), frozenset())
    spans = {(start, end) for start, end, _ in truth_table((subject,)).matches(tokens)}
    dropped, kept = set(), set()
    for m in found:
        if m.owner < 0 and any(
            a <= m.start and m.end <= b and b - a > m.end - m.start for a, b in spans
        ):
            dropped.add(m)  # inside the subject's longer name: "São Tomé and Príncipe's"
            continue
        if m.owner >= 0 or (m.start, m.end) not in spans:
            continue
        if (
            tokens[m.end - 1].raw.endswith(("'s", "'S"))
            or _after_preposition(tokens, m.start)
            or _subject_told_about(tokens, m, relation)
        ):
            dropped.add(m)
        else:
            kept.add(m)
    return _Shared(frozenset(dropped), frozenset(kept))


def _subject_told_about(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
    """Whether a clause tells about what a mention names (`clause_told`) without the question's
    relation words."""
    rest = clause_told(tokens, m) if relation else None
    return rest is not None and not rest & relation


LOCATIVE = frozenset({"in", "within", "inside", "throughout", "across"})
"""Prepositions after which a place's name is where something is ("official in Indonesia"), not
what it is ("the city of Luxembourg")."""


def _after_preposition(tokens: Sequence[Token], start: int) -> bool:
    """Whether a preposition of place (`LOCATIVE`), maybe with an article, stands right before
    a token of its clause ("official in Indonesia", "in the Gambia")."""
    i = start - 1
    while i >= 0 and tokens[i].norm in ARTICLES and tokens[i].clause == tokens[start].clause:
        i -= 1
    return i >= 0 and tokens[i].clause == tokens[start].clause and tokens[i].norm in LOCATIVE


_FORMER_BEFORE = frozenset({"old", "former", "previous", "earlier"})
"""Words of former time that, in lower case before a name, make it what was ("the old sol")."""


def called_former(tokens: Sequence[Token], m: Mention) -> bool:
    """Rules 22: whether a name that does not open the reply follows a word of former time in
    lower case ("The inti — it replaced the old sol in 1985."): it is told of as what was, no
    answer."""
    return (
        m.start > 0
        and any(t.norm not in ARTICLES for t in tokens[: m.start - 1])  # not "The old kwacha."
        and tokens[m.start - 1].norm in _FORMER_BEFORE
        and tokens[m.start - 1].raw.islower()
        and tokens[m.start - 1].clause == tokens[m.start].clause
    )


_NOMINAL = (("in", "name", "only"), ("only", "in", "name"), ("on", "paper"), ("nominally",))
"""Rules 26: words by which a clause says its name holds only in name ("Dodoma is the capital
in name only")."""


_OPENING_MAX_WORDS = 4
"""At most this many words in a first clause that offers a candidate (`answered_aside`)."""


def answered_aside(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    relation: frozenset[str],
    subject: tuple[str, ...],
) -> tuple[bool, bool]:
    """Rules 26: (another answer, uncertain): whether the reply's first clause offers a
    candidate that is no true answer (a name alone, a short noun phrase, or a name said to be the
    relation asked; uncertain unless it names a rival the tables know, not the subject) and
    names the true answers only aside (`_aside`: in a clause that concedes, a relative clause,
    or one that makes less of them) ("Berzelius, in whose lab Arfwedson was a student.", "The sucre,
    though US dollars circulate widely.", "Sydney is the capital; Canberra is just where
    parliament sits.")."""
    first = tokens[0].clause
    if any(tokens[m.start].clause == first for m in answers):
        return False, False
    norms = [t.norm for t in tokens]
    if any(n in RETRACTING or marker_at(norms, i) for i, n in enumerate(norms)):
        return False, False  # a correction: "Melbourne... no, Canberra only since 1927."
    if not all(_aside(tokens, m, relation) for m in answers):
        return False, False
    opening = [t for t in tokens if t.clause == first]
    if not (_a_name_alone(opening) or _a_noun_phrase(opening) or _said_to_be(opening, relation)):
        return False, False
    own = {(a, b) for a, b, _ in truth_table((subject,)).matches(tokens)} if subject else set()
    known = any(
        m.owner >= 0 and tokens[m.start].clause == first and (m.start, m.end) not in own
        for m in found
        if not m.negated
    )
    return True, not known


def _a_name_alone(opening: Sequence[Token]) -> bool:
    """Whether a first clause is only a name: at most `_OPENING_MAX_WORDS` capitalised words,
    particles inside aside ("Dar es Salaam", "Berzelius")."""
    return (
        0 < len(opening) <= _OPENING_MAX_WORDS
        and opening[0].norm not in NOT_NAMES
        and all(
            t.word
            and (t.raw[:1].isupper() or 0 < k < len(opening) - 1 and t.norm in INNER_PARTICLES)
            for k, t in enumerate(opening)
        )
    )


def _aside(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
    """Whether a true answer's clause gives it aside: it says it holds only in name
    (`_NOMINAL`), or, without the question's relation words ("Perth, though Canberra is the
    capital" restates it) and words of naming ("Bibi, whose full name is ..." says who the
    opening name is), opens with a conceding or relative word (maybe after a preposition: "in
    whose lab") or makes less of it ("Canberra is just where parliament sits")."""
    clause = [t for t in tokens if t.clause == tokens[m.start].clause]
    norms = tuple(t.norm for t in clause)
    if any(norms[k : k + len(p)] == p for p in _NOMINAL for k in range(len(norms))):
        return True
    words = {n.removesuffix("s") for n in norms}
    if words & relation or words & _CALLING:
        return False
    opener = norms[1] if norms[0] in PASSING and len(norms) > 1 else norms[0]
    return opener in _CONCEDING or opener in RELATIVES or bool(words & LESSER)


def _a_noun_phrase(opening: Sequence[Token]) -> bool:
    """Whether a first clause is an article and at most `_OPENING_MAX_WORDS` words without a
    verb ("The sucre")."""
    return (
        1 < len(opening) <= _OPENING_MAX_WORDS
        and opening[0].norm in ARTICLES
        and all(t.word and t.norm not in _CLAUSE_VERBS for t in opening)
    )


def _said_to_be(opening: Sequence[Token], relation: frozenset[str]) -> bool:
    """Whether a first clause is capitalised words, a verb of being, and articles and the
    question's relation words to its end ("Sydney is the capital")."""
    k = 0
    while k < len(opening) and opening[k].word and opening[k].raw[:1].isupper():
        k += 1
    if not k or k >= len(opening) or opening[k].norm not in COPULAS:
        return False
    rest = [t.norm.removesuffix("s") for t in opening[k + 1 :] if t.norm not in ARTICLES]
    return bool(rest) and all(w in relation for w in rest)
