"""Rules 22: answers the verifier cannot read, so their verdicts are uncertain (the judge or a
person decides). A reply that names nothing the tables know may still give the answer by a name
no source has: an old name ("Jahangirnagar, as the Mughals called it."), another language's
("Gazy szlachetne.", "Les îles Gilbert."), a nickname ("The buck.", "The Aussie dollar."), where
a made-up or generic phrase of known words ("The Swedish franc.", "A republic.") stays
confidently wrong; a true answer may be told of after such a name; a sign, a calendar, a word
made from the subject's own name or a qualifier in another language may be what no source has."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from kglens_tui.answers.mentions import Mention, NameTable, Token, name_tokens, tokenize
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.passing import COMPASS
from kglens_tui.answers.words import ARTICLES, COPULAS, NOT_NAMES, normalize
from kglens_tui.kg.answer_names import PARTICLES

_HEAD_END = re.compile(r"\s*(?:[,;:(\u2014\u2013]|\s-\s|[.!?](?:\s|$))")
"""Where the answer phrase that opens a reply ends: a comma, semicolon, colon, bracket, dash or
the end of its sentence."""

_GLOSS = re.compile(
    r"^(?:\([^()]*\)\s*)?(?:[\u2014\u2013-]\s*\S.*|,\s*the\s+\w+\s+of\s+\S.*"
    r"|,\s*(?:also\s+)?(?:as\s+(?:in\b|(?:\S+\s+){0,4}(?:calls?|called|say|says|said|put\s+it|knew"
    r"|known|names?|named|spel(?:t|led|ls?)|wrote|writes?|nicknamed|dubbed|logged|recorded|listed"
    r"|mapped|charted|styled|termed)\b)|called\b|known\s+as\b|aka\b"
    r"|(?:colloquially|informally|locally|affectionately|popularly|familiarly|in\s+slang"
    r"|for\s+short)\b).*)?\s*[.!?]?\s*$",
    re.IGNORECASE | re.DOTALL,
)
"""What may follow the answer phrase: nothing, a bracket, an apposition after a dash ("— the
City of Peace.") or of a part ("Mytikas, the top of Olympus."), or words that say whose name it
is ("as the poets would say", "as traders call it", "as in uranyl", "also called PST"; rules 25:
"as the traders dubbed it", "as it is nicknamed", "colloquially", "for short")."""

_NOT_NAME_WORDS = frozenset(
    {"i", "it", "its", "is", "was", "are", "were", "be", "he", "she", "they", "we", "you",
     "this", "that", "there", "not", "no", "none", "can", "cannot", "do", "does", "did",
     "know", "sure", "think", "believe", "guess", "unknown", "unsure"}
)  # fmt: skip
"""Words that make a phrase a sentence or a refusal, not a name."""

_PREPOSITIONS = frozenset({"in", "at", "on", "from", "near", "by", "of", "to", "for", "with"})

_FILLERS = frozenset({"the", "a", "an", "of", "and", "in", "on", "de", "du", "la", "le", "l"})

_MAX_WORDS = 5


_BRACKET = re.compile(r"\(([^()]*)\)")
"""A bracket and what it holds."""

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
"""Words that may follow a true answer told of and leave it at the end of its sentence."""


class Words:
    """The words of the names some tables hold (`NameTable.vocabulary`), looked up in each table's
    set (no union is built: a type's table holds thousands of words)."""

    def __init__(self, *sets: frozenset[str]) -> None:
        self._sets = sets

    def __contains__(self, word: object) -> bool:
        return any(word in words for words in self._sets)


def unknown_answer(
    text: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: Words,
    found: Sequence[Mention] = (),
) -> bool:
    """Whether a reply that gives no answer opens with an answer phrase the verifier cannot place
    (`_unplaced`) and says nothing else: what follows is nothing, a bracket, a dash's apposition
    or whose name it is (`_GLOSS`). Names found (``found``) may only be words inside that phrase
    ("Portuguese West Africa.", "The Aussie dollar.")."""
    head, rest = _head(text)
    if rest.strip(" .!?") and not _GLOSS.match(rest.strip()):
        return False
    bracket = _BRACKET.match(rest.strip())
    if (
        bracket
        and not found
        and not _a_place(normalize(head).split())
        and _unplaced(f"{head} {bracket[1]}", asked, subject, vocabulary)
    ):
        return True  # "The lira (lira yisraelit)."; not "Stockholm (Holmia)."
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
    vocabulary: Words,
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


def told_after(
    text: str,
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    rival: bool,
    opening: int,
) -> bool:
    """Whether every true answer (``answers``) comes after the opening phrase of ``opening``
    tokens and is told of: not right after a break or a word that restates it (`_RESTATED`),
    nor a verb of being ("..., is French."), and with more words after it in its sentence (an
    answer that ends the reply is offered: "Bergen, unnskyld, jeg mener Oslo."), or after "of"
    (the opening is a part of it: "Kibo — the summit cone of Kilimanjaro."), which alone
    unsettles a reply judged incorrect (``rival``: an opening name before a true one told of,
    "Lavoisier, though Priestley is often credited.", is an answer)."""
    for m in answers:
        if m.start <= opening or tokens[m.start - 1].norm in COPULAS:
            return False
        if rival and tokens[m.start - 1].norm != "of":
            return False
        after = [
            t
            for t in tokens[m.end :]
            if t.sentence == tokens[m.start].sentence and t.word and t.norm not in _TAIL
        ]
        at = _position(text, tokens, m.start)
        part_of = tokens[m.start - 1].norm == "of"  # "Kibo — the summit cone of Kilimanjaro."
        if not (after or part_of) or at is None or _RESTATED.search(text[:at]):
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


def _a_place(words: Sequence[str]) -> bool:
    """Whether folded words (an article first or not) are a place's English name (CLDR's
    countries and zone cities)."""
    from kglens_tui.kg.answer_names import english_place_names

    return bool(words) and " ".join(words[1:] if words[0] in ARTICLES else words) in (
        english_place_names()
    )


def _unplaced(
    head: str,
    asked: Sequence[Token],
    subject: Sequence[str],
    vocabulary: Words,
    only: str | None = None,
) -> bool:
    """Whether an answer phrase is one the verifier cannot place: at most five words, no digit,
    no word of a sentence or a refusal (`_NOT_NAME_WORDS`), not a place's English name (CLDR's
    countries and zone cities: "Rio de Janeiro."), and with a word that is neither a word of a
    name of the asked type (``vocabulary``), nor the question's (``asked``), nor one that starts
    as a name of the subject does ("Bhutanese" for Bhutan); ``only``: the words to look for it
    among (the capitalised ones)."""
    words = normalize(head).split()
    if not words or len(words) > _MAX_WORDS or any(c.isdigit() for c in head):
        return False
    if words[0] in NOT_NAMES or any(w in _NOT_NAME_WORDS for w in words):
        return False
    if _a_place(words):
        return False  # a place a reader knows ("Rio de Janeiro.", "Dar es Salaam.")
    known = frozenset(t.norm for t in asked)
    stems = {w[:4] for name in subject for w in normalize(name).split() if len(w) >= 4}
    if any(c.isdigit() for c in spell_out(head)):
        return False  # "The third period.": a number
    return any(
        all(
            form not in known and form not in vocabulary
            for form in (w, w.removesuffix("s"), w + "s", w + "es")
        )
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


def type_words(*tables: NameTable | None) -> Words:
    """The words of the names of some tables (`Words`)."""
    return Words(*(t.vocabulary() for t in tables if t is not None))


_OTHER_ERA = re.compile(
    r"\bcalendar\b|\b(?:B\.?E|A\.?H|S\.?H|A\.?P|B\.?S|A\.?M)\.?(?=\s*\d)|\d\s*(?:B\.?E|A\.?H|S\.?H)\b"
    r"|\b(?:Hijri|Shamsi|Jalali|Buddhist|Juche|Minguo|Heisei|Showa|Reiwa)\b"
)
"""A year of another calendar: the word "calendar", an era's letters by the number ("BE 2491",
"1326 AH") or an era's name."""


def another_era(text: str, asked: Sequence[Token]) -> bool:
    """Rules 22: whether a reply to a question about a year gives it in another calendar ("1298
    in the Solar Hijri calendar.", "BE 2491"): the rules do not convert calendars."""
    return (
        any(t.norm == "year" for t in asked)
        and any(c.isdigit() for c in text)
        and bool(_OTHER_ERA.search(text))
    )


def derived_from_subject(text: str, unshown: Sequence[str]) -> bool:
    """Rules 22: whether a reply is one word that a name of the subject the question does not
    show (``unshown``: its native names, no codes) opens and letters follow in it
    ("Österreicher", "日本人", "Brasileiro (ou brasileira)."): a word made from the subject's
    name in its own language (a demonym, a language) that no source lists; not one made from a
    name the question shows ("Nigerian" asked about Niger). Rules 24: or a phrase of at most
    three words with such a word in a bracket ("The lira (lira yisraelit)." asked of Israel, whose
    native name is Yisra'el: the answer's name in the subject's language); apostrophes aside."""
    word = _BRACKET.sub("", text).strip().rstrip(".!?").strip()
    if not word:
        return False
    candidates = [word]
    if " " in word:  # rules 24: a short phrase glossed in the subject's language
        bracket = _BRACKET.search(text)
        if bracket is None or len(word.split()) > _GLOSSED_MAX_WORDS or _DIGIT.search(word):
            return False
        candidates = bracket[1].split()
    names = [
        _plain(name)
        for name in unshown
        if " " not in name and not name.isupper() and (len(name) >= 4 or not name.isascii())
    ]
    if len(candidates) > 1 or candidates[0] != word:  # a gloss: the native name's last word too
        said = {_plain(w) for w in word.split()}
        names += [_plain(n.split()[-1]) for n in unshown if " " in n and len(n.split()[-1]) >= 4]
        names = [n for n in names if n not in said]
    return any(
        folded.startswith(name) and len(folded) > len(name)
        for folded in map(_plain, candidates)
        for name in names
    )


def _plain(word: str) -> str:
    """A word folded, without its accents and apostrophes ("Yisrā'el" is "yisrael")."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().replace("'", ""))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_GLOSSED_MAX_WORDS = 3
_DIGIT = re.compile(r"\d")


_OFFICES = frozenset(
    {"bishop", "archbishop", "governor", "monarch", "ruler", "sovereign", "regent", "mayor"}
)
"""Offices a reply may name a holder by, besides the titles of names (`TITLE_WORDS`)."""


def roles_only(text: str) -> bool:
    """Rules 22: whether a reply to "who" names several people only by their offices ("The two
    co-princes: the French president and the Bishop of Urgell."; not one: "The King of Sweden."
    names no one): title words joined by "and" and no two capitalised words in a row that are
    no title words (a person's name; particles and articles skipped: "Mohammed bin Salman", "The
    French president")."""
    from kglens_tui.answers.people import TITLE_WORDS

    words = re.findall(r"[^\W\d_][\w'-]*", text)
    offices = TITLE_WORDS | _OFFICES
    titled = [w for w in words if w.casefold().split("-")[-1].removesuffix("s") in offices]
    if len(titled) < 2 or "and" not in words:
        return False
    names = [
        w[:1].isupper() and w.casefold() not in offices
        for w in words
        if w.casefold() not in PARTICLES and w.casefold() not in ARTICLES
    ]
    return not any(a and b for a, b in zip(names, names[1:], strict=False))


def qualified_after(tokens: Sequence[Token], answers: Sequence[Mention], vocabulary: Words) -> bool:
    """Rules 22: whether every true answer is a currency's unit word alone that a word in lower
    case no name of the type has follows in its clause ("Le dollar américain." for the Canadian
    dollar): another language's qualifier, after the noun, that the rules cannot read."""
    from kglens_tui.kg.answer_names import currency_unit_words

    units = currency_unit_words()
    for m in answers:
        if m.end - m.start != 1 or m.end >= len(tokens):
            return False
        unit, after = tokens[m.start], tokens[m.end]
        if unit.norm not in units and unit.norm.removesuffix("s") not in units:
            return False
        if not (after.word and after.raw.islower() and after.clause == unit.clause):
            return False
        if after.norm in vocabulary or after.norm in _FILLERS or after.norm in _NOT_NAME_WORDS:
            return False
    return bool(answers)


_PART_WORDS = frozenset({"on", "of"})
"""Words by which a name says the entity lies on another ("Margherita Peak on Mount Stanley")."""


def part_of_answer(
    found: Sequence[Mention],
    rivals: NameTable | None,
    groups: tuple[tuple[str, ...], ...],
) -> bool:
    """Rules 24: whether the one rival a reply names has, in the KG, a name that says it lies on
    a true answer, or a true answer a name that says it lies on the rival ("Margherita Peak."
    asked of DR Congo, whose KG's Uganda entry "Margherita Peak on Mount Stanley" is the same
    summit as DR Congo's Pic Marguerite, also called Mount Stanley): the KG may hold one place
    twice, so the rules cannot decide."""
    owners = {m.owner for m in found if m.owner >= 0 and not m.negated}
    if len(owners) != 1 or rivals is None:
        return False
    true = {name_tokens(n)[0] for group in groups for n in group}
    rival = {tokens for tokens, owner in rivals.names() if owner in owners}
    return _lies_on(rival, true) or _lies_on(true, rival)


def _lies_on(names: set[tuple[str, ...]], others: set[tuple[str, ...]]) -> bool:
    """Whether one of ``names`` (tokens) is "A on B" or "A of B", B one of ``others`` of two
    words or more."""
    return any(
        word in _PART_WORDS and i > 0 and len(tokens) - i > 2 and tokens[i + 1 :] in others
        for tokens in names
        for i, word in enumerate(tokens)
    )


_PLACE_QUESTION = frozenset({"where", "located", "called", "named", "known"})
"""Words of a question that asks for a place or a name."""


def qualified_place(
    tokens: Sequence[Token], found: Sequence[Mention], asked: Sequence[Token]
) -> bool:
    """Rules 24: whether a reply to a question about a place or a name is only a capitalised
    word no table knows before a word of direction and a rival's name that ends the reply
    ("Portuguese West Africa." asked where Malange lies, "German South West Africa."): a
    colony's or a region's name the tables lack, which may be the answer's former name, so the
    rules cannot decide; not "Portuguese Mozambique." (Mozambique's)."""
    if not found or not any(t.norm in _PLACE_QUESTION for t in asked):
        return False
    first = 0
    while first < len(tokens) and (tokens[first].norm in ARTICLES or tokens[first].norm == "in"):
        first += 1
    if not 2 <= len(tokens) - first <= 5 or any(t.clause != tokens[0].clause for t in tokens):
        return False
    covered = {i for m in found for i in range(m.start, m.end)}
    rivals = [m for m in found if m.owner >= 0 and not m.negated]
    return (
        first not in covered
        and tokens[first].word
        and tokens[first].raw[:1].isupper()
        and all(
            i in covered or COMPASS.fullmatch(tokens[i].norm) is not None
            for i in range(first + 1, len(tokens))
        )
        and any(COMPASS.fullmatch(t.norm) is not None for t in tokens[first + 1 :])
        and bool(rivals)
        and max(m.end for m in rivals) == len(tokens)
    )
