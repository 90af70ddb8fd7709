"""Lists of candidates and answers given by another name: a reply that offers several names
or numbers, defines the subject by another, or names an unknown item where one is asked."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from kglens_tui.answers.correction_words import RETRACTING
from kglens_tui.answers.mentions import Mention, NameTable, Token, negated, tokenize
from kglens_tui.answers.numbers import spell_out
from kglens_tui.answers.passing import (
    LOCATIVE,
    OPINION_NAME,
    PASSING,
    a_name_sentence,
    a_place,
    believed_by_others,
    called_so,
    in_former_time,
    in_passing,
    in_relative_clause,
    opening_stated,
    opens_with_a_name,
    said_by_others,
    told_of,
)
from kglens_tui.answers.refusals import doubted
from kglens_tui.answers.spelling import FUZZY_THRESHOLD, fuzzy_names, rival_as_close, similarity
from kglens_tui.answers.subject_clause import located_in_answer
from kglens_tui.answers.words import (
    ARTICLES,
    COPULAS,
    NAME_NEIGHBOURS,
    NOT_NAMES,
    split_clauses,
    subject_mentions,
    truth_table,
)
from kglens_tui.kg.answer_names import PARTICLES

_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(\S.*)$", re.MULTILINE)


_BARE_NAME = re.compile(r"^\s*(?:[A-Z][\w'’-]*\s*){1,3}[?.!]*\s*$")


def bare_name(text: str) -> bool:
    """Whether a clause of the reply is only a name, offered as the answer ("Sydney, though I am
    not sure": not a refusal, whether or not the KG knows the name; "Unfortunately, ..." is no
    name)."""
    return any(name_clause(clause) for clause in split_clauses(text))


def name_clause(clause: str) -> bool:
    """Whether a clause is only a name: capitalised words, the first no word that is never a
    name (`NOT_NAMES`: "Sorry", "Well") nor an adverb ("Unfortunately")."""
    first = clause.split()[0].strip("?.!").casefold() if clause.split() else ""
    return bool(_BARE_NAME.match(clause)) and first not in NOT_NAMES and not first.endswith("ly")


_ASKING_AGAIN = (("was", "it"), ("is", "it"), ("maybe",), ("perhaps",))


_OR_ALONE_MAX = 3
"""Rules 25: at most this many words after an "or" that opens a sentence of its own offer another
candidate ("Or Kolkata?"; not "Or Angora, as it was called.")."""


def _asked_again(tokens: Sequence[Token], i: int, answers: Sequence[Mention]) -> bool:
    """Rules 20: whether the "or" at ``i`` opens a question about another candidate after the
    answer's sentence ("Porto-Novo. Hmm, or was it Cotonou?"; rules 25: or opens a short sentence
    of its own, `_OR_ALONE_MAX`: "New Delhi. Or Kolkata?"; rules 28: after one word, "Quito.
    Well, or Cuenca.")."""
    if not any(m.end <= i for m in answers):
        return False
    if i > 0 and (tokens[i - 1].sentence != tokens[i].sentence or _after_one_word(tokens, i)):
        rest = [t for t in tokens[i + 1 :] if t.sentence == tokens[i].sentence]
        if len(rest) <= _OR_ALONE_MAX:  # rules 25: "New Delhi. Or Kolkata?"
            return True
    after = [t.norm for t in tokens[i + 1 : i + 3]]
    return any(after[: len(words)] == list(words) for words in _ASKING_AGAIN)


def _after_one_word(tokens: Sequence[Token], i: int) -> bool:
    """Rules 28: whether the "or" at ``i`` opens a sentence after one word in a clause of its own
    ("Quito. Well, or Cuenca.", "Bueno, or Cuenca.")."""
    return (
        i > 1
        and tokens[i - 2].sentence != tokens[i].sentence
        and tokens[i - 1].sentence == tokens[i].sentence
        and tokens[i - 1].clause != tokens[i].clause
        and tokens[i - 1].word
    )


def _or_after_one_word(tokens: Sequence[Token], i: int) -> bool:
    """Rules 28: `_after_one_word`, the "or" not asking again ("Well, or Cuenca.")."""
    return _after_one_word(tokens, i) and not _asking_words(tokens, i)


def _asking_words(tokens: Sequence[Token], i: int) -> int:
    """Rules 21: how many words after the "or" at ``i`` ask again ("or was it Almaty?"), that
    the candidate follows."""
    after = [t.norm for t in tokens[i + 1 : i + 3]]
    return next((len(w) for w in _ASKING_AGAIN if after[: len(w)] == list(w)), 0)


def offers_others(
    tokens: Sequence[Token],
    text: str,
    answers: Sequence[Mention],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    truth: NameTable,
    asks_for_one: bool = False,
    *,
    only_or: bool = False,
) -> bool:
    """Whether a reply to a question with one true answer offers other candidates beside it,
    names the KG may not know: "Canberra or Sydney", "Canberra, and also Sydney", "1868 or
    1895", an item listed beside it where the question asks for one thing (``asks_for_one``:
    "What is the capital...?" "Sucre and Cochabamba"; `_listed_beside`), or a list of
    items one per line ("- Canberra / - Sydney"). A capitalised word joined by "or" (or by "and"
    right after the true name) that is no true, subject or denied name is another candidate.
    Rules 20: so is one asked about after the answer's sentence ("Porto-Novo. Hmm, or was it
    Cotonou?": `_asked_again`; rules 21: the candidate after its asking words, "Astana... or
    was it Almaty?"); ``only_or``: only candidates joined by "or" that are places'
    English names (`a_place`: "Pretoria or Johannesburg" to a question with several answers;
    other words may be true names the tables miss, "Either Scheele or Priestley"). Rules 21: a
    name the reply says the answer is or was called is none (`called_so`: "Ankara, or Angora as
    it was once called.")."""
    spans = _named_spans(tokens, found, subject)
    sentences = {tokens[m.start].sentence for m in answers}
    ends = {m.end for m in answers}
    starts = {m.start for m in answers}
    passing = {m.end - 1 for m in found if m.owner >= 0 and in_passing(tokens, m, set())}
    for i, tok in enumerate(tokens):
        if tok.norm not in ("or", "and") or (only_or and tok.norm != "or"):
            continue
        if tok.sentence not in sentences and not _asked_again(tokens, i, answers):
            continue
        before = _skip_fillers(tokens, i - 1, -1)
        if _or_after_one_word(tokens, i):  # rules 28: "Sydney. Well, or Canberra."
            before = i - 2
        if before in passing:  # "like San Marino by Italy or the Vatican by Rome"
            continue
        if believed_by_others(tokens, i, answers):
            continue  # rules 19: "Rabat. Many people guess Casablanca ... or Marrakesh"

        after_at = _skip_fillers(tokens, i + 1 + _asking_words(tokens, i), 1)
        after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
        if tok.norm == "and" and (before is None or before + 1 not in ends or after != "also"):
            # "X and also Y" adds a candidate; "X and Y" may list true answers, but not where
            # the question asks for one thing (`_listed_beside`)
            if asks_for_one and _listed_beside(tokens, i, before, after_at, spans, ends, starts):
                return True
            continue
        for j in (after_at, before):
            if j is None or j in spans:
                continue
            other = tokens[j]
            if negated(tokens, j):
                continue
            if (
                other.word
                and other.raw[:1].isupper()
                and (not only_or or a_place(tokens[j:]))
                and not called_so(tokens, _name_end(tokens, j))
            ):
                return True
            if only_or:
                continue
            if tok.norm == "or" and _other_number(tokens, i, j, ends, starts):
                return True
    if asks_for_one and _comma_list(tokens, sentences, spans):
        return True
    if asks_for_one and "(" in text and _listed_beside_glosses(text, truth, subject):
        return True
    if only_or:
        return False
    items = _LIST_ITEM.findall(text)
    if len(items) >= 2:
        named = [item for item in items if truth.matches(tokenize(item))]
        others = [item for item in items if item[:1].isupper() and item not in named]
        return bool(named) and bool(others)
    return False


def _name_end(tokens: Sequence[Token], j: int) -> int:
    """The end of the run of capitalised words of one clause from ``j`` ("La Plata")."""
    k = j + 1
    while (
        k < len(tokens)
        and tokens[k].clause == tokens[j].clause
        and tokens[k].word
        and tokens[k].raw[:1].isupper()
    ):
        k += 1
    return k


_GLOSS = re.compile(r"\s*\([^()]*\)")
"""A bracketed gloss ("Sucre (constitutional)")."""


def _listed_beside_glosses(text: str, truth: NameTable, subject: tuple[str, ...]) -> bool:
    """Whether, read without its bracketed glosses, the reply lists an item no table knows beside
    a true answer (`_listed_beside`: "Sucre (constitutional) and La Paz (seat of government)")."""
    plain = _GLOSS.sub("", text)
    if plain == text:
        return False
    tokens = tokenize(plain)
    named = [(a, b) for a, b, _ in truth.matches(tokens)]
    if subject:
        named += [(a, b) for a, b, _ in truth_table((subject,)).matches(tokens)]
    spans = {k for a, b in named for k in range(a, b)}
    ends = {b for _, b in named}
    starts = {a for a, _ in named}
    return any(True for _ in _listed_after_and(tokens, spans, ends, starts))


def _comma_list(tokens: Sequence[Token], sentences: set[int], spans: set[int]) -> bool:
    """Whether a sentence that names a true answer is nothing but a list of names, split by
    commas (an "and" or "or" may join the last), two or more of them no true, subject or denied
    name ("Berlin, Munich, Hamburg, Cologne."; not "Ottawa, Ontario, Canada.")."""
    for sentence in sentences:
        clauses: dict[int, list[int]] = {}
        for i, tok in enumerate(tokens):
            if tok.sentence == sentence:
                clauses.setdefault(tok.clause, []).append(i)
        if len(clauses) < 3:
            continue
        unknown = 0
        for where in clauses.values():
            words = [i for i in where if tokens[i].norm not in ("and", "or", *ARTICLES)]
            if not words or len(words) > 3:
                break
            if not all(tokens[i].word and tokens[i].raw[:1].isupper() for i in words):
                break
            if not any(i in spans for i in words):
                unknown += 1
        else:
            if unknown >= 2:
                return True
    return False


_QUESTION_WORDS = frozenset(
    {"what", "which", "who", "whom", "whose", "where", "when", "how", "is", "are", "was", "were",
     "do", "does", "did", "the", "a", "an", "of", "in", "for", "to", "by", "from", "with", "on",
     "at", "also", "known", "as", "its", "it", "this", "that", "and", "or", "name", "s"}
)  # fmt: skip
"""Words of a question that are no words of the relation it asks about."""


def relation_words(asked: Sequence[Token], subject: tuple[str, ...]) -> frozenset[str]:
    """The words a question names its relation by ("capital", "head" and "state"): its words
    less question words and the subject's names."""
    if not asked:
        return frozenset()
    named = {
        i for start, end, _ in truth_table((subject,)).matches(asked) for i in range(start, end)
    }
    return frozenset(
        t.norm.removesuffix("s")
        for i, t in enumerate(asked)
        if t.word and i not in named and t.norm not in _QUESTION_WORDS
    )


def defining_sentences(
    tokens: Sequence[Token], asked: Sequence[Token], subject: tuple[str, ...]
) -> frozenset[int]:
    """The sentences of a reply that use the question's relation words, every one (all but one
    of three or more: "calling code" for "international calling code"), of the subject ("Ireland's
    head of state", "the capital of Cameroon"; not "the capital of the DR Congo" asked about the
    Congo, nor "the head of government" asked about the head of state): where the reply says
    what the answer is."""
    relation = relation_words(asked, subject)
    if not relation or not subject:
        return frozenset()
    words: dict[int, set[str]] = {}
    for t in tokens:
        if t.word:
            words.setdefault(t.sentence, set()).add(t.norm.removesuffix("s"))
    need = len(relation) - (1 if len(relation) >= 3 else 0)
    anchored = set()
    for start, end, _ in truth_table((subject,)).matches(tokens):
        near: range | None = None
        if tokens[end - 1].raw.endswith(("'s", "'")):  # "Ireland's head of state"
            near = range(end, min(end + 4, len(tokens)))
        else:  # "the capital of Cameroon" (not "of the DR Congo": another country)
            at = start - 1 - (start >= 2 and tokens[start - 1].norm == "the")
            if at >= 0 and tokens[at].norm in ("of", "in"):
                near = range(max(at - 4, 0), at)
        if near and any(tokens[i].norm.removesuffix("s") in relation for i in near):
            anchored.add(tokens[start].sentence)
    return frozenset(
        s for s, seen in words.items() if s in anchored and len(relation & seen) >= need
    )


def defined_by_another(
    tokens: Sequence[Token],
    defining: frozenset[int],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    subject: tuple[str, ...],
) -> bool:
    """Whether the sentences that define the answer (`defining_sentences`) name no true answer but
    a name no table knows, next to their verb of being ("Douala is the capital of Cameroon ...;
    several ministries are also based in Yaoundé"): the reply answers with it, and names the
    true one in passing."""
    if any(tokens[m.start].sentence in defining for m in answers):
        return False
    spans = _named_spans(tokens, found, subject)
    for i, tok in enumerate(tokens):
        if tok.norm not in COPULAS or tok.sentence not in defining:
            continue
        for j in (i - 1, _skip_fillers(tokens, i + 1, 1)):
            if j is None or not 0 <= j < len(tokens) or j in spans:
                continue
            other = tokens[j]
            if other.sentence != tok.sentence or not other.word or negated(tokens, j):
                continue
            if (
                other.raw[:1].isupper()
                and any(c.islower() for c in other.raw[1:])
                and (other.norm not in NAME_NEIGHBOURS and other.norm not in _QUESTION_WORDS)
            ):
                return True
    return False


_PRESENT = frozenset({"is", "are", "does", "do"})


_PAST = frozenset({"was", "were", "did"})


def asks_in_present(asked: Sequence[Token]) -> bool:
    """Whether a question's first verb of being or doing is in the present ("What currency is
    used ...?"; not "What was ... formerly called?")."""
    return _first_verb_in(asked, _PRESENT, _PAST)


def _first_verb_in(asked: Sequence[Token], these: frozenset[str], others: frozenset[str]) -> bool:
    """Whether the question's first word of ``these`` or ``others`` is one of ``these``."""
    for tok in asked:
        if tok.norm in these:
            return True
        if tok.norm in others:
            return False
    return False


_ONE = frozenset({"is", "was", "does", "did"})


_MANY = frozenset({"are", "were", "do"})


def asks_for_one_thing(asked: Sequence[Token]) -> bool:
    """Whether a question asks for one thing: its first verb of being is singular ("What is the
    capital", "In what year was"; not "What are the official languages", "Which countries
    share")."""
    return _first_verb_in(asked, _ONE, _MANY)


def _named_spans(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> set[int]:
    """Positions of the tokens inside a found name or a name of the subject."""
    spans = {i for m in found for i in range(m.start, m.end)}
    if subject:
        spans.update(
            i
            for start, end, _ in truth_table((subject,)).matches(tokens)
            for i in range(start, end)
        )
    return spans


def unknown_item(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    text: str = "",
    near: tuple[NameTable, NameTable | None] | None = None,
) -> bool:
    """Whether a reply to a question with several true answers lists, joined by "and" to a true
    one, an item no table knows ("South Africa's capitals are Pretoria and Johannesburg."): a
    list with a wrong item is incorrect, but the item may be a name the sources lack, so the
    verdict is uncertain (`check_wh`). Rules 9: an item that a true name in brackets glosses is
    that answer ("Spain and Hexagone (France)"); rules 12: so is an item that ``near`` (the true
    names, the rivals) finds a near spelling of a true name ("Bunsen and Gustav Kirchof")."""
    spans = _named_spans(tokens, found, subject)
    ends = {m.end for m in answers}
    starts = {m.start for m in answers}
    for after in _listed_after_and(tokens, spans, ends, starts):
        if after is not None and _glossed(tokens, after, starts, text):
            continue
        if (
            after is not None
            and after not in spans  # else the unknown item is the one before "and"
            and near is not None
            and _misspelt_item(tokens, after, *near)
        ):
            continue
        return True
    return False


_ITEM_MAX_WORDS = 6


def _misspelt_item(
    tokens: Sequence[Token], start: int, truth: NameTable, rivals: NameTable | None
) -> bool:
    """Whether the listed item at ``start`` (its words to the next "and", "or" or clause end),
    whole, is a near spelling of a true name that no rival resembles as much."""
    end = start
    while (
        end < len(tokens)
        and end - start < _ITEM_MAX_WORDS
        and tokens[end].word
        and tokens[end].clause == tokens[start].clause
        and tokens[end].norm not in ("and", "or")
    ):
        end += 1
    words = " ".join(t.norm for t in tokens[start:end])
    names = {name for name, _ in truth.names()}
    for _, text in fuzzy_names(truth) if end > start else ():
        score = similarity(words, text)
        if score >= FUZZY_THRESHOLD and not rival_as_close(words, score, rivals, names):
            return True
    return False


def _glossed(tokens: Sequence[Token], item: int, starts: set[int], text: str) -> bool:
    """Whether the item at ``item`` is followed straight by a true answer in brackets ("Hexagone
    (France)")."""
    k = item
    while k < len(tokens) and tokens[k].clause == tokens[item].clause:
        k += 1
    if k == item or k not in starts:
        return False
    return re.search(rf"\b{re.escape(tokens[k - 1].raw)}\s*\(", text) is not None


_YEAR = re.compile(r"1\d{3}|20\d{2}")


_SIGNED_DIGITS = re.compile(r"[+-]?\d+")


def another_number(
    tokens: Sequence[Token],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    groups: tuple[tuple[str, ...], ...],
) -> bool:
    """Whether a reply to a question whose true answers are numbers of digits alone, no years
    (emergency numbers; rules 14: or all with a sign, oxidation states "+2"), lists, in a
    sentence that gives a true one, another number of as many digits as a
    true one, not named in passing ("911 for police, 939 for fire, 907 for ambulance": 907 is
    none of them)."""
    numbers = {n for group in groups for n in group if _SIGNED_DIGITS.fullmatch(n)}
    if not numbers or any(not any(_SIGNED_DIGITS.fullmatch(n) for n in group) for group in groups):
        return False
    if all(_YEAR.fullmatch(n) for n in numbers):
        return False  # years: a reply tells of other dates ("1868; on Earth 1895")
    signed = {n[:1] in "+-" for n in numbers}
    if len(signed) != 1:
        return False
    sizes = {len(n) for n in numbers}
    sentences = {tokens[m.start].sentence for m in answers}
    named = {i for m in found for i in range(m.start, m.end)}
    for i, tok in enumerate(tokens):
        if (
            i in named
            or tok.sentence not in sentences
            or tok.word
            or not _SIGNED_DIGITS.fullmatch(tok.raw)
            or (tok.raw[:1] in "+-") not in signed
            or len(tok.raw) not in sizes
            or tok.raw in numbers
            or negated(tokens, i)
        ):
            continue
        if not in_passing(tokens, Mention(i, i + 1, 0, False), set()):
            return True
    return False


def _item_after_a_true_one(
    tokens: Sequence[Token], last: int, ends: set[int], spans: set[int]
) -> bool:
    """Rules 26: whether the capitalised words ending at ``last`` no table knows open their
    clause right after a clause that is only a true answer in capitalised words: the list's item
    before its "and" ("English, Malay, Tamil, Mandarin and Hokkien": Mandarin after Tamil; not
    "1898, Ramsay and Travers")."""
    if last in spans or not tokens[last].raw[:1].isupper():
        return False
    clause = tokens[last].clause
    k = last
    while k > 0 and tokens[k - 1].clause == clause:
        k -= 1
        if k in spans or not tokens[k].raw[:1].isupper():
            return False
    if k == 0 or k not in ends:
        return False
    before = [j for j in range(k) if tokens[j].clause == tokens[k - 1].clause]
    return all(j in spans and tokens[j].raw[:1].isupper() for j in before)


def _listed_beside(
    tokens: Sequence[Token],
    i: int,
    before: int | None,
    after: int | None,
    spans: set[int],
    ends: set[int],
    starts: set[int],
) -> bool:
    """Whether the "and" at ``i`` joins a true answer and a list item no table knows: a run of
    capitalised words in the same clause that stands as an item, ending the clause ("Pretoria
    and Johannesburg.") or opening it ("...: La Paz and Sucre"), not the subject of a clause of
    its own ("Canberra and Sydney is the largest city" names Sydney as something else); rules
    22: words in lower case after an article, beside a true answer written so ("the rand and the
    pula"; not "the kuna, and before it the Croatian dinar"); rules 26: or beside an unknown
    item listed after a true one (`_item_after_a_true_one`)."""
    if before is None or after is None:
        return False
    clause = tokens[i].clause
    if (before + 1 in ends or _item_after_a_true_one(tokens, before, ends, spans)) and (
        after not in spans
    ):
        lower = tokens[before].raw.islower() and tokens[after - 1].norm in ARTICLES
        j = after
        while j < len(tokens) and tokens[j].clause == clause and tokens[j].word:
            if not (lower or tokens[j].raw[:1].isupper() or tokens[j].norm in PARTICLES):
                return False
            j += 1
        return (
            j > after
            and (lower or tokens[after].raw[:1].isupper())
            and (j == len(tokens) or tokens[j].clause != clause)
            and not negated(tokens, after)
        )
    if after in starts and before not in spans:
        j = before
        while j >= 0 and tokens[j].clause == clause and tokens[j].word:
            if not (tokens[j].raw[:1].isupper() or tokens[j].norm in PARTICLES):
                return False
            j -= 1
        first = j + 1
        return (
            first <= before
            and first > 0
            and tokens[first].raw[:1].isupper()
            and tokens[j].clause != clause
            and not negated(tokens, first)
        )
    return False


def other_than_subject(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether the reply names something other than the subject asked about ("I'm not familiar
    with a place called Zanzan." names only the subject, Zanzan)."""
    if not found or not subject:
        return bool(found)
    spans = {(start, end) for start, end, _ in truth_table((subject,)).matches(tokens)}
    return any((m.start, m.end) not in spans for m in found)


def _other_number(
    tokens: Sequence[Token], i: int, j: int, ends: set[int], starts: set[int]
) -> bool:
    """Whether the number at ``j`` is another candidate beside a true number across the "or" at
    ``i`` ("in 1868 or 1895")."""
    other = tokens[j]
    if other.word or not other.norm[1:].isdigit():
        return False
    true_at = i + 1 if j < i else i
    if j < i:
        return true_at in starts and not tokens[true_at].word
    return i in ends and not tokens[i - 1].word


def answered_by_another(
    tokens: Sequence[Token],
    text: str,
    answers: Sequence[Mention],
    asked: Sequence[Token] = (),
    relation: frozenset[str] = frozenset(),
    subject: tuple[str, ...] = (),
    found: Sequence[Mention] = (),
) -> bool:
    """Whether the reply opens with a bare name that is no true one and names the true answers
    only in passing ("Sydney, near Canberra."; "X, a blend of English and Spanish": a name
    listed after one in passing is in passing too; rules 11: "Sorry, ..." opens with no name,
    `name_clause`, and a true answer a later clause tells about is no answer, `told_of`; rules 14:
    nor is one in a relative clause after the opening name, `in_relative_clause`; rules 19:
    nor one others are said to believe after an opening that states a name, `said_by_others`:
    "Casablanca. Many people guess Rabat, but ..."). A reply that
    opens with the preposition
    the question asks with ("From Holland." to "From which state ...?"), or (rules 9) with "in"
    to a question that asks "Where", opens with no name."""
    clauses = split_clauses(text)
    if not clauses or answers[0].start == 0:
        return False
    if _A_COUNT.fullmatch(spell_out(clauses[0])) and not clauses[0].strip()[:1].isdigit():
        return False  # rules 22: "Eleven, from UTC+2 ... to UTC+12 ...": a count, no name
    named = subject_mentions(tokens, subject)
    if not (name_clause(clauses[0]) or opens_with_a_name(tokens, named)):
        # rules 20: the speaker's own pick, then what others say ("I'd say Sydney, though many
        # say Canberra.")
        return OPINION_NAME.match(text) is not None and all(
            tokens[m.start].clause != tokens[0].clause and said_by_others(tokens, m)
            for m in answers
        )
    if tokens[0].norm in PASSING and any(t.norm == tokens[0].norm for t in asked):
        return False
    if tokens[0].norm in LOCATIVE and asked and asked[0].norm == "where":
        return False  # "In Peru." to "Where is ... located?" (rules 9)
    if located_in_answer(tokens, answers, found, asked):
        return False  # rules 24: "Berkeley, in the United States."
    if all(t.norm in RETRACTING for t in tokens if t.clause == tokens[0].clause):
        return False  # rules 20: "Przepraszam, to Canberra.": a word of regret is no name
    if asked and asked[0].norm == "who" and a_place(tokens):
        return False  # rules 20: "Paris, 1898: Marie and Pierre Curie." names no candidate
    passing: set[int] = set()
    stated = opening_stated(tokens, text, named)
    # rules 20: an opening sentence that is only a name states it as the answer, and the next
    # sentence may tell of the true one ("Almaty. Astana is the newer planned city.")
    last = 1 if stated and a_name_sentence(tokens, named, found) else 0
    norms = [t.norm for t in tokens]
    present = asks_in_present(asked)
    for m in sorted(answers, key=lambda m: m.start):
        if not (
            in_passing(tokens, m, passing)
            or told_of(tokens, norms, m, relation, stated=stated, subject=named, last=last)
            or in_relative_clause(tokens, m, relation)
            or (stated and said_by_others(tokens, m))
            or doubted(tokens, m.start)
            or (present and in_former_time(tokens, m))
        ):
            return False
        passing.add(m.end)
    return True


_A_COUNT = re.compile(r"\s*\d{1,2}\s*")
"""An opening clause that is only a small number (in words): how many answers follow."""


_FILLERS = frozenset({"the", "a", "an", "also", "maybe", "perhaps", "possibly", "even"})


def _listed_after_and(
    tokens: Sequence[Token], spans: set[int], ends: set[int], starts: set[int]
) -> Iterator[int | None]:
    """For each "and" that lists an item beside a named one (`_listed_beside`), the position of
    the item after it (fillers skipped; None at the reply's end)."""
    for i, tok in enumerate(tokens):
        if tok.norm != "and":
            continue
        before = _skip_fillers(tokens, i - 1, -1)
        after = _skip_fillers(tokens, i + 1, 1)
        if _listed_beside(tokens, i, before, after, spans, ends, starts):
            yield after


def _skip_fillers(tokens: Sequence[Token], i: int, step: int) -> int | None:
    while 0 <= i < len(tokens) and tokens[i].norm in _FILLERS:
        i += step
    return i if 0 <= i < len(tokens) else None
