"""Classify model replies as correct / incorrect / refused / unparseable (KGLens QAV, sec. 2.3).

Yes/No replies are verified by their first word ("No, I don't know." is a refusal; "I think
yes" a hedged Yes). Wh replies by whole entity names (`mentions`): a true object counts when
named as itself, not inside a longer name of another entity of its type, not negated, and no
other entity of its type but the subject is named beside it (not negated); signed
numbers and UTC offsets by their sign; codes only as written; a fuzzy fallback for misspellings.
Answers given with doubt keep their verdict and carry a hedged flag. All functions are pure.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from kglens_tui.answers.mentions import (
    Mention,
    NameTable,
    TableUnion,
    Token,
    clean_quotes,
    has_hedge,
    mentions,
    name_tokens,
    negated,
    tokenize,
)
from kglens_tui.answers.numbers import ORDINALS, foreign_number_readings, spell_out
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import (
    PARTICLES,
    TITLES,
    AnswerNames,
    bare_fold,
    country_names,
    currency_unit_words,
    subdivision_letters,
)

FUZZY_THRESHOLD = 0.9
_FUZZY_MIN_CHARS = 5

_YES_WORDS = frozenset({"yes", "yeah", "yep", "yup", "true", "correct", "affirmative"})
_NO_WORDS = frozenset({"no", "nope", "false", "incorrect", "negative"})

_LEAD_JUNK = re.compile(r"^[\s\"'`*_#>~\-–—•·:(\[{“”‘’«»]+")
_PREFIX = re.compile(
    r"^(?:final\s+answer|short\s+answer|answer|response|assistant|reply|a)\s*[:\-–—]\s*",
    re.IGNORECASE,
)
_ANSWER_IS = re.compile(
    r"^(?:the\s+)?(?:short\s+|final\s+)?answer\s+is\s*:?\s*[\"'*_“‘]*(yes|no)\b", re.IGNORECASE
)
_FIRST_WORD = re.compile(r"^([A-Za-z]+)")
_NO_INFO = re.compile(
    r"^no\s+(?:\w+\s+)?(?:information|data|records?|details|knowledge|idea)\b", re.IGNORECASE
)

_KNOWS_NOT = re.compile(
    r"[\s,.!:;\-–—]*(?:i\s+(?:do\s+not|don't|dont)\s+know\b|i\s+(?:have\s+)?no\s+idea\b|"
    r"i(?:'m|\s+am)\s+not\s+(?:sure|certain)\b|i\s+(?:cannot|can't|can\s+not)\s+(?:say|tell)\b|"
    r"(?:i'm\s+|i\s+am\s+)?sorry\b)",
    re.IGNORECASE,
)
"""What after a first "No," says the reply does not know."""
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n")
_HEDGED_YES_NO = re.compile(
    r"^(?:i(?:'m|\s+am)\s+not\s+(?:sure|certain)[\s,.;]*(?:but\s+)?)?"
    r"(?:i\s+(?:think|believe|guess)|probably|possibly|perhaps|maybe|most\s+likely)"
    r"(?:\s+(?:that|so))?[\s,:]*(?:the\s+answer\s+is\s*:?\s*)?[\"'*]*(yes|no|not)\b",
    re.IGNORECASE,
)
"""A hedge, then the answer: "I think yes", "Probably not", "I'm not sure, but I think no"."""

_REFUSAL_PATTERNS = [
    r"\bi(?:'m| am)\s+(?:so\s+|very\s+)?sorry\b",
    r"^sorry\b",
    r"\bapologi[sz]e\b",
    r"\bas an ai\b",
    r"\bas a (?:large )?language model\b",
    r"\bi (?:do not|don't|dont) know\b",
    r"\bno idea\b",
    r"\bi (?:do not|don't) have (?:any |enough |specific |real-time |access )",
    r"\bi (?:cannot|can't|can not)\b",
    r"\bi(?:'m| am) (?:unable|not able) to\b",
    r"\bi(?:'m| am) not (?:sure|certain|aware)\b",
    r"\bi(?:'m| am) (?:unsure|uncertain)\b",
    r"\bi(?:'m| am) (?:blanking|drawing a blank)\b",
    r"\bi (?:could not|couldn't|could n't|was unable to) find\b",
    r"\bunable to (?:find|provide|determine|answer|verify|confirm)\b",
    r"\bno (?:reliable |available |specific |public |known )?information "
    r"(?:is )?(?:available|about|on|regarding)\b",
    r"\bthere is no (?:known |public |available |reliable )?(?:information|record|data)\b",
    r"\bnot (?:enough|sufficient) information\b",
    r"\b(?:my )?knowledge cut-?off\b",
    r"\bi (?:do not|don't) have the capability\b",
    r"\bi(?:'m| am) (?:just )?an ai\b",
    r"^(?:unknown|n/?a|none)\.?$",
]
_REFUSAL = re.compile(f"(?=[isanutmk])(?:{'|'.join(_REFUSAL_PATTERNS)})", re.IGNORECASE)
"""Every pattern starts with one of the letters of the lookahead, which lets the search skip
the other positions at once (three times faster, the same matches)."""
_REFUSAL_WINDOW = 240
_CLAUSE_SPLIT = re.compile(r"[.!?;,\n]+\s*|\s+\bbut\b\s*", re.IGNORECASE)

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|neither|nor|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|"
    r"rather|instead|incorrect|false|but|however)\b|n't\b",
    re.IGNORECASE,
)


def is_refusal(text: str) -> bool:
    """Whether a reply declines to answer ("I'm sorry, but I couldn't find...", "As an AI...")."""
    head = clean_quotes(text.strip())[:_REFUSAL_WINDOW]
    return bool(head) and _REFUSAL.search(head) is not None


def _strip_lead(text: str) -> str:
    """Drop leading whitespace, markdown, quotes and 'Answer:'-style prefixes."""
    current = text
    while True:
        stripped = _PREFIX.sub("", _LEAD_JUNK.sub("", current))
        if stripped == current:
            return current
        current = stripped


def _yes_no_of(body: str) -> tuple[str | None, int]:
    """(yes / no / None, where the answer word ends) of a reply's opening."""
    match = _ANSWER_IS.match(body)
    if match:
        return match.group(1).lower(), len(body)
    match = _FIRST_WORD.match(body)
    if not match or _NO_INFO.match(body):
        return None, 0
    word = match.group(1).lower()
    if word in _YES_WORDS:
        return "yes", match.end()
    if word in _NO_WORDS:
        return "no", match.end()
    return None, 0


def _read_yes_no(text: str) -> tuple[str | None, bool]:
    """(yes / no / None, hedged) of a reply: its first word, unless what follows says it does not
    know ("No, I don't know." answers nothing); or the word after a hedge ("I think yes")."""
    body = _strip_lead(clean_quotes(text))
    answer, end = _yes_no_of(body)
    if answer is not None:
        if _KNOWS_NOT.match(body, end):
            return None, False
        stop = _SENTENCE_END.search(body, end)
        return answer, has_hedge(body, stop.start() if stop else None)
    hedge = _HEDGED_YES_NO.match(body)
    if hedge:
        return ("yes" if hedge.group(1).lower() == "yes" else "no"), True
    return None, False


def first_word_answer(text: str) -> str | None:
    """The yes/no answer a reply opens with: "yes", "no" or None (see `check_yes_no`)."""
    return _read_yes_no(text)[0]


@lru_cache(maxsize=1 << 14)
def check_yes_no(reply: str, expected: str) -> Checked:
    """Verify a Yes/No reply by its first word against ``expected`` ("yes" or "no"); a hedged
    answer ("I think yes", "Probably not") counts with the hedged flag. Kept (at most 16,384):
    a model's Yes/No replies repeat ("Yes.", "No, it is not.")."""
    want = expected.strip().lower()
    if want not in ("yes", "no"):
        raise ValueError(f"expected must be 'yes' or 'no', not {expected!r}")
    if not reply or not reply.strip():
        return Checked(Verdict.UNPARSEABLE)
    answer, hedged = _read_yes_no(reply)
    if answer is not None:
        return Checked(Verdict.CORRECT if answer == want else Verdict.INCORRECT, hedged)
    if is_refusal(reply):
        return Checked(Verdict.REFUSED)
    return Checked(Verdict.UNPARSEABLE)


def verify_yes_no(reply: str, expected: str) -> Verdict:
    """The verdict of `check_yes_no`."""
    return check_yes_no(reply, expected).verdict


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Lower-case, strip accents, turn punctuation into spaces and collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", clean_quotes(text))
    no_marks = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = no_marks.casefold().replace("'", "").replace("&", " and ")
    return " ".join(re.sub(r"[^\w]+|_", " ", folded).split())


_DERIVED_SUFFIXES = frozenset({"n", "an", "ian", "ns", "ans", "ese", "ish", "i", "ic", "ia"})


def _is_derived_form(window: str, alias: str) -> bool:
    """Whether one string is the other plus a demonym-like suffix (Dominica/Dominican)."""
    short, long = sorted((window, alias), key=len)
    return long.startswith(short) and long[len(short) :] in _DERIVED_SUFFIXES


def _derived_window(window: Sequence[Token], words: str, alias: tuple[str, ...], text: str) -> bool:
    """Whether the words, or their first or last word, are a derived form of the name rather than
    a misspelling of it ("Tajikistan is" is not "Tajikistani": it is the country and a verb)."""
    return (
        _is_derived_form(words, text)
        or _is_derived_form(window[0].norm, alias[0])
        or _is_derived_form(window[-1].norm, alias[-1])
    )


def mentions_any(reply: str, aliases: Iterable[str], *, fuzzy: bool = True) -> bool:
    """Whether the text names one of the aliases as a whole name (negated or not; see
    `mentions`), or with ``fuzzy`` a near spelling of one."""
    tokens = tokenize(reply)
    if not tokens:
        return False
    table = _truth_table((tuple(aliases),))
    found = mentions(tokens, table)
    return bool(found) or (fuzzy and _fuzzy_answer(tokens, table, None, found, deny=False))


class Checked(NamedTuple):
    """A verdict, whether the reply hedged ("I think it is Canberra", "probably Yes"), and
    whether the rules could not decide it (the verdict is then their best reading)."""

    verdict: Verdict
    hedged: bool = False
    uncertain: bool = False


@lru_cache(maxsize=4096)
def _truth_table(true_answers: tuple[tuple[str, ...], ...]) -> NameTable:
    """The true objects' names; owner -1 - i for the i-th object (`_names_table`)."""
    return TableUnion([_names_table(names) for names in true_answers], lambda i: -1 - i)


@lru_cache(maxsize=16384)
def _names_table(names: tuple[str, ...]) -> NameTable:
    """One object's names (owner 0), tokenised once for every question it answers."""
    return NameTable((name, 0) for name in names)


def _as_tuples(answers: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(group) for group in answers)


def _clauses(reply: str) -> list[str]:
    return [c for c in _CLAUSE_SPLIT.split(reply) if c and c.strip()]


def _guesses(reply: str) -> bool:
    """Whether a clause that does not refuse offers a guess ("..., but I think it's X"; not
    "..., as my information may be out of date"; rules 9: nor one that a later clause of its
    sentence declines, "I'd probably get it wrong, so I'll abstain")."""
    for sentence in _SENTENCES.split(reply):
        clauses = _clauses(sentence)
        for i, clause in enumerate(clauses):
            if (
                has_hedge(clause)
                and not is_refusal(clause)
                and not declines_by_meaning(clause)
                and not any(is_refusal(c) or declines_by_meaning(c) for c in clauses[i + 1 :])
            ):
                return True
    return _NAMED_GUESS.search(reply) is not None


_NAMED_GUESS = re.compile(
    r"\b(?:possibly|maybe|perhaps|probably|likely)\s+(?:it's\s+|it\s+is\s+)?"
    r"(?-i:(?!(?:I|It|He|She|They|We|You|That|This|The|Not|No)\b)[A-Z])",
    re.IGNORECASE,
)
"""Rules 20: a word of guessing right before a capitalised word ("I'm not certain — possibly
Wavel Ramkalawan, but don't rely on that."): a guess that names a candidate, whatever doubt or
caveat stands around it."""


_ASKED_BACK = re.compile(r"[^.!?\n]*\?")


def _asks_a_guess(text: str, asked: Sequence[Token]) -> bool:
    """Whether a sentence put as a question offers a candidate (rules 10: "Not sure. Could it
    be Sydney?", "Not sure. 1870-something?"): a number, or a name no table knows inside the
    question (`_offers_a_name`; not "¿Dónde?"); a refusal that asks one guesses."""
    for m in _ASKED_BACK.finditer(clean_quotes(text)):
        part = m.group(0)
        if any(c.isdigit() for c in part):
            return True
        if _offers_a_name(tokenize(part), asked):
            return True
    return False


def _offers_a_name(tokens: Sequence[Token], asked: Sequence[Token]) -> bool:
    """Whether a reply names something no table knows, as a candidate: a capitalised word (not
    all capitals: "AI", "UTC") inside a sentence, not the question's ("I'll hold off, though
    Sydney comes to mind.", "I'm afraid it's Sydney.")."""
    question = {t.norm for t in asked}
    for i, tok in enumerate(tokens):
        if not tok.word or i == 0 or tokens[i - 1].sentence != tok.sentence:
            continue
        raw = tok.raw
        titled = raw[:1].isupper() and any(c.islower() for c in raw[1:])
        if titled and tok.norm not in question and tok.norm not in _NAME_NEIGHBOURS:
            return True
    return False


@lru_cache(maxsize=4096)
def _fuzzy_names(truth: NameTable) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(tokens, text) of the true names long enough, and all letters, for fuzzy matching."""
    return tuple(
        (alias, " ".join(alias))
        for alias, _ in truth.names()
        if len("".join(alias)) >= _FUZZY_MIN_CHARS and all(a.isalpha() for a in alias)
    )


def _window_words(tokens: Sequence[Token], start: int, size: int, covered: set[int]) -> str | None:
    """The words of ``size`` tokens from ``start``, when they are words of one clause that no
    exact name covers; else None."""
    window = tokens[start : start + size]
    if any(t.clause != window[0].clause or not t.word for t in window):
        return None
    if covered.intersection(range(start, start + size)):
        return None
    return " ".join(t.norm for t in window)


@lru_cache(maxsize=4096)
def _fuzzy_by_initial(
    truth: NameTable,
) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """`_fuzzy_names` by the first letter of their first word."""
    out: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for alias, text in _fuzzy_names(truth):
        out.setdefault(alias[0][:1], []).append((alias, text))
    return {initial: tuple(names) for initial, names in out.items()}


def _fuzzy_answer(
    tokens: Sequence[Token],
    truth: NameTable,
    rivals: NameTable | None,
    taken: list[Mention],
    *,
    deny: bool = True,
    alone: frozenset[str] | None = None,
) -> bool:
    """A near spelling of a true name ("Ouagadougouu") in words no exact name covers, which
    no rival name resembles as much, and (with ``deny``) which no negation denies; with
    ``alone`` (the words of the true names), one that stands alone (`_isolated`)."""
    by_initial: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        if t.word:
            by_initial.setdefault(t.norm[:1], []).append(i)
    named = _fuzzy_by_initial(truth)
    candidates = [c for initial in by_initial for c in named.get(initial, ())]
    if not candidates:
        return False
    covered = {i for m in taken for i in range(m.start, m.end)}
    windows: dict[tuple[int, int], str | None] = {}
    for alias, text in candidates:
        n = len(alias)
        for size in {max(n - 1, 1), n, n + 1}:
            for start in by_initial[alias[0][:1]]:
                if start + size > len(tokens):
                    break
                key = (start, size)
                if key not in windows:
                    windows[key] = _window_words(tokens, start, size, covered)
                words = windows[key]
                if words is None:
                    continue
                window = tokens[start : start + size]
                if not _same_initials(window, alias) or not _same_title(window, alias):
                    continue
                score = _similarity(words, text)
                if score < FUZZY_THRESHOLD or _derived_window(window, words, alias, text):
                    continue
                if (deny and negated(tokens, start)) or _rival_as_close(
                    words, score, rivals, {name for name, _ in truth.names()}
                ):
                    continue
                if alone is not None and not _isolated(
                    tokens, Mention(start, start + size, -1, False), alone
                ):
                    continue
                return True
    return False


_INFLECTED_MIN_CHARS = 8
_ENDING_MAX_CHARS = 1
_NEW_ENDING_MAX_CHARS = 2
"""Rules 20: the name's last letter may give way to two ("Warszawie", the Polish locative of
Warszawa)."""


@lru_cache(maxsize=4096)
def _latin_words(truth: NameTable) -> dict[str, tuple[str, ...]]:
    """Rules 18: the true names (answer-only names among them) of one word in plain Latin
    letters once folded, at least `_INFLECTED_MIN_CHARS` long, by their first five letters."""
    out: dict[str, list[str]] = {}
    for alias, _ in truth.names():
        word = alias[0]
        if (
            len(alias) == 1
            and word.isascii()
            and word.isalpha()
            and len(word) >= _INFLECTED_MIN_CHARS
        ):
            out.setdefault(word[:5], []).append(word)
    return {head: tuple(words) for head, words in out.items()}


def _inflected_answer(
    tokens: Sequence[Token], truth: NameTable, rivals: NameTable | None, taken: list[Mention]
) -> bool:
    """Rules 18: whether a word no name covers, standing alone (no capitalised word beside it),
    is a true name of one word in Latin letters of `_INFLECTED_MIN_CHARS` letters or more with
    another last letter, or one more or less ("Warszawę", the Polish accusative of Warszawa;
    rules 20: or two for its last, "Warszawie";
    not "Colombo" for a "Colombia", nor "Dominican Republic" for a "Dominicana"), not negated,
    where no rival's name is as near."""
    words = _latin_words(truth)
    if not words:
        return False
    covered = {i for m in taken for i in range(m.start, m.end)}
    for i, tok in enumerate(tokens):
        word = tok.norm
        if i in covered or not tok.word or len(word) < _INFLECTED_MIN_CHARS:
            continue
        if any(
            0 <= k < len(tokens)
            and tokens[k].clause == tok.clause
            and tokens[k].word
            and tokens[k].raw[:1].isupper()
            and tokens[k].norm not in _NAME_NEIGHBOURS
            for k in (i - 1, i + 1)
        ):
            continue  # a word of a longer name ("Dominican Republic")
        for name in words.get(word[:5], ()):
            if word == name or abs(len(word) - len(name)) > _ENDING_MAX_CHARS:
                continue
            stem = 0
            while stem < min(len(word), len(name)) and word[stem] == name[stem]:
                stem += 1
            if (
                len(name) - stem > _ENDING_MAX_CHARS
                or len(word) - stem > _NEW_ENDING_MAX_CHARS
                or negated(tokens, i)
            ):
                continue
            ratio = SequenceMatcher(None, word, name, autojunk=False).ratio()
            if _rival_as_close(word, max(_similarity(word, name), ratio), rivals, set()):
                continue  # rules 20: the plain ratio where _similarity rounds it to nought
            return True
    return False


_SURNAME_MIN_CHARS = 6


@lru_cache(maxsize=4096)
def _surnames(short: NameTable) -> NameTable:
    """The one-word short names (surnames) of at least `_SURNAME_MIN_CHARS` letters, whose near
    spellings name the person where they stand alone ("Zelensky" for Zelenskyy); rules 11: also
    a one-word title before such a word ("King Abdulla" for King Abdallah)."""
    return NameTable(
        (" ".join(alias), owner)
        for alias, owner in short.names()
        if len(alias[-1]) >= _SURNAME_MIN_CHARS
        and alias[-1].isalpha()
        and (len(alias) == 1 or (len(alias) == 2 and alias[0] in _TITLE_WORDS))
    )


def _same_initials(window: Sequence[Token], alias: tuple[str, ...]) -> bool:
    """Whether the first and the last word start as the name's do (a misspelling keeps them:
    "Ouagadogou", "Kuala Lumpar"; "Burundi" is not "Urundi", "or metals" not "poor metals")."""
    if window[0].norm[:1] != alias[0][:1]:
        return False
    return len(window) == 1 or len(alias) == 1 or window[-1].norm[:1] == alias[-1][:1]


def _same_title(window: Sequence[Token], alias: tuple[str, ...]) -> bool:
    """Whether the words keep the title of a title-and-name alias as written (rules 11: "King
    Abdulla" is near "King Abdallah"; "Maria X" is not "Mme X"; rules 18: a title of seven
    letters or more with up to two letters of another language's ending, "Presidenta",
    "Presidente")."""
    if len(alias) != 2 or alias[0] not in _TITLE_WORDS:
        return True
    if len(window) != 2:
        return False
    word, title = window[0].norm, alias[0]
    return word == title or _ending_of(word, title)


def _ending_of(word: str, title: str) -> bool:
    """Whether ``word`` is ``title`` (seven letters or more) with up to two letters of another
    language's ending ("Presidenta", "Presidente")."""
    return (
        len(title) >= _TITLE_STEM_MIN_CHARS
        and word.startswith(title)
        and len(word) - len(title) <= _TITLE_ENDING_MAX_CHARS
    )


def _a_foreign_title(word: str) -> bool:
    """Rules 20: whether a word is a title word in another language's ending (`_ending_of`:
    "Presidente Pedro Sánchez"), which belongs to no name beside it."""
    return any(_ending_of(word, title) for title in _TITLE_WORDS if title != word)


_TITLE_STEM_MIN_CHARS = 7
_TITLE_ENDING_MAX_CHARS = 2


_ONE_LETTER_MIN_CHARS = 8


def _similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio; rules 12: a name of 8 letters or more with one letter changed
    ("Lyubljana") is as near as `FUZZY_THRESHOLD` however short."""
    if (
        len(a) == len(b) >= _ONE_LETTER_MIN_CHARS
        and sum(x != y for x, y in zip(a, b, strict=True)) == 1
    ):
        return max(FUZZY_THRESHOLD, 1 - 1 / len(a))
    total = len(a) + len(b)
    if total and 2 * min(len(a), len(b)) / total < FUZZY_THRESHOLD:
        return 0.0  # too unlike in length (SequenceMatcher's real_quick_ratio, sooner)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.quick_ratio() < FUZZY_THRESHOLD:
        return 0.0
    return matcher.ratio()


def _rival_as_close(
    words: str, score: float, rivals: NameTable | None, true_names: set[tuple[str, ...]]
) -> bool:
    """Whether some other entity's name is at least as near to the words as the true name is."""
    if rivals is None:
        return False
    return any(
        _similarity(words, " ".join(name)) >= score
        for name, _ in rivals.names()
        if name not in true_names
    )


def _rival_verdict(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    subject: tuple[str, ...],
    defining: frozenset[int] = frozenset(),
    relation: frozenset[str] = frozenset(),
    present: bool = False,
) -> tuple[bool, bool]:
    """(rival, uncertain): whether the reply names, not negated, an entity of the answer's type
    that is neither a true object nor the subject, as an answer: a rival mention whose span no
    true or subject name shares, not named in passing (`_in_passing`: "Canberra, near Sydney"),
    in the first sentence that names a true object. A rival in another sentence ("Canberra. Sydney
    is the largest city."; "Portuguese. It is the only Portuguese-speaking country, beside
    Spanish-speaking ones.") does not count, but leaves the verdict uncertain; nor does one a
    later clause tells about (`_told_about`: "Only Spain; France is further away").
    ``relation``: the question's words of the relation asked (`_relation_words`).
    ``found``: the mentions of the true objects' and the rivals' names (`mentions`).
    Rules 18: nor does a rival others are said to believe (`_others_belief`: "Canberra, though
    many guess Sydney"), one a clause of former time tells of where the question asks in the
    present (``present``; `_former_clause`: "The euro; before 2002 it was the French franc"),
    or one a clause tells about before a last sentence that is only a true name
    (`_concluding_sentence`: "Sydney or Melbourne were rivals; Canberra was the compromise.
    Canberra."). Rules 19: nor does a rival `_not_named_as_answer` reads as no answer, nor another
    rival in the clause of one told about ("Japan; Russia administers the nearby Kuril
    Islands")."""
    known = {(m.start, m.end) for m in found if m.owner < 0}
    if subject:
        known.update((start, end) for start, end, _ in _truth_table((subject,)).matches(tokens))
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
            _in_passing(tokens, m, passing, adjacency)
            or _seasonal(tokens, m.end)
            or _former(tokens, m)
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
        if _told_about(tokens, m, found, relation) or _about_another_country(
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
    return _after_the_answer(tokens, m, found) and _said_by_others(tokens, m)


def _said_by_others(tokens: Sequence[Token], m: Mention) -> bool:
    """Whether a verb of believing or saying stands before a mention in its clause (maybe with
    "that", "it's" between) and no word of the speaker's is in that clause ("many guess
    Sydney"; not "I think Sydney")."""
    clause = tokens[m.start].clause
    i = m.start - 1
    while i >= 0 and tokens[i].clause == clause and tokens[i].norm in _BELIEF_FILLERS:
        i -= 1
    if i < 0 or tokens[i].clause != clause or tokens[i].norm not in _BELIEVING:
        return False
    return not any(t.norm in _SPEAKING for t in tokens if t.clause == clause)


_OPINION_NAME = re.compile(
    r"\s*(?:i'd|i’d|i\s+would|i)\s+(?:say|think|guess|believe|reckon)\s+(?:it's\s+|it\s+is\s+)?"
    r"(?-i:[A-Z])[^,;.!?\u2014\u2013]*[,;.!?\u2014\u2013]",
    re.IGNORECASE,
)
"""Rules 20: an opening clause that is the speaker's pick of a capitalised name ("I'd say
Sydney, ...")."""
_SPEAKERS = frozenset({"we", "wed", "weve", "us", "our"})
"""Words by which the speaker, with others, says what they believe."""


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


def _in_former_time(tokens: Sequence[Token], m: Mention) -> bool:
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
    while first < len(tokens) and tokens[first].norm in _ARTICLES:
        first += 1
    stop = len(tokens)
    while stop > first and not tokens[stop - 1].word and not tokens[stop - 1].norm[:1].isalnum():
        stop -= 1
    if any(m.owner < 0 and not m.negated and (m.start, m.end) == (first, stop) for m in found):
        return last
    return -1


@lru_cache(maxsize=1)
def _country_names() -> tuple[NameTable, frozenset[str]]:
    """The English names of countries (CLDR, pycountry) as a table, and the same folded."""
    from kglens_tui.kg.answer_names import english_territory_names

    names = english_territory_names()
    return NameTable((name, i) for i, name in enumerate(sorted(names))), frozenset(names)


def _about_another_country(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether a rival is told about another country than the one asked about, named before it
    in its clause ("Austria next door uses the euro", "South Korea is +82"), where the subject
    is a country and the answer no country (a country the reply names as a candidate is none
    told about)."""
    if not subject or m.start == 0:
        return False
    table, folded = _country_names()
    if not {normalize(n) for n in subject} & folded:
        return False
    clause = tokens[m.start].clause
    start = m.start
    while start > 0 and tokens[start - 1].clause == clause:
        start -= 1
    if start == m.start:
        return False
    taken = {i for f in found for i in range(f.start, f.end)}
    taken.update(i for a, b, _ in _truth_table((subject,)).matches(tokens) for i in range(a, b))
    return any(
        not taken.intersection(range(start + a, start + b))
        for a, b, _ in table.matches(tokens[start : m.start])
    )


_PASSING = frozenset(
    {"near", "from", "than", "between", "beside", "to", "like", "with", "by", "of", "in", "at",
     "on", "for", "about", "under", "over", "into", "across", "through", "via", "after",
     "before", "since", "until", "around", "alongside", "unlike", "toward", "towards", "as",
     "replaced", "replacing", "succeeded", "superseded", "formerly", "previously", "above",
     "below", "beyond", "behind", "besides", "except", "facing", "opposite", "against",
     *("bordering", "neighbouring", "neighboring", "adjoining")}
)  # fmt: skip
"""Prepositions (and words of succession) before a name that mention it in passing, not as
the answer ("near Sydney", "such as Bengali", "which replaced the Deutsche Mark"; rules 9:
words of adjacency, "bordering Chile", unless the question asks about borders)."""
_ADJACENCY = frozenset({"bordering", "neighbouring", "neighboring", "adjoining"})
_POSSESSIVES = frozenset({"its", "their", "his", "her", "our"})
_ARTICLES = frozenset({"the", "a", "an"})


_COMPASS = re.compile(r"(?:north|south)(?:east|west)?(?:ern)?|(?:east|west)(?:ern)?|central")
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


def _in_passing(
    tokens: Sequence[Token], m: Mention, passing: set[int], adjacency: bool = True
) -> bool:
    """Whether a rival is named in passing: after a preposition ("near Sydney", "from the United
    Kingdom"), or listed after a rival named in passing ("between Sydney and Melbourne").
    ``adjacency``: whether words of adjacency ("bordering") name in passing (not where the
    question asks about borders)."""
    i = m.start - 1
    while (
        i >= 0
        and (
            tokens[i].norm in _ARTICLES
            or tokens[i].norm in _POSSESSIVES
            or tokens[i].raw.endswith("'s")
            or _COMPASS.fullmatch(tokens[i].norm)
        )
        and tokens[i].clause == tokens[m.start].clause
    ):
        i -= 1  # "the", "Germany's", "southwestern": "like Germany's +49", "in the north of"
    if i < 0:
        return False
    if tokens[i].norm in _PASSING and tokens[i].clause == tokens[m.start].clause:
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
_RELATIVES = frozenset({"where", "which", "who", "whose", "whom"})
"""Words that open a clause about something else ("..., where Hungarian is spoken")."""
_OPENERS = frozenset({"but", "though", "although", "whereas", "while", "and"})
"""Words that open a clause that goes on from the answer ("though Russia has occupied it")."""
_ADDING = frozenset({"also", "too", "likewise", "equally"})
"""Words by which a clause about a rival adds it as one more answer ("France is also one")."""


_NO_VERBS = frozenset({*_PASSING, "maybe", "perhaps", "possibly", "probably", "likely", "too"})


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
    if tokens[start].norm in _RELATIVES and start > 0 and tokens[start - 1].word:
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
            tok.norm in _ARTICLES
            or tok.norm in _RELATIVES
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
        if norm in ("and", "or") or norm in _ARTICLES or tokens[j].raw.endswith(("'s", "'S")):
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
    if rest & _ADDING:
        return False  # "France is also a neighbour": one more answer
    return not relation & {w.removesuffix("s") for w in rest}


def _after_parenthesis(tokens: Sequence[Token], j: int) -> int:
    """Rules 19: the clause a name's clause goes on in after clauses that open with a
    preposition right after it ("Ho Chi Minh City, in the south, is the economic hub": the
    clause of "is"): where it starts; -1 if the clause at ``j`` opens with none."""
    if tokens[j].norm not in _PASSING:
        return -1
    while j < len(tokens) and tokens[j].norm in _PASSING:
        clause = tokens[j].clause
        while j < len(tokens) and tokens[j].clause == clause:
            j += 1
    return j if j < len(tokens) else -1


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
    three or more, as `_defining` counts) and none that names the answer again (`_NO_ROLE`)."""
    k = m.start - 1
    while k > start and (tokens[k].norm in _ARTICLES or tokens[k].norm in _TITLE_WORDS):
        k -= 1  # "... is President Isaac Herzog"
    if k <= start or tokens[k].norm not in _COPULAS:
        return False
    role = [t.norm for t in tokens[start:k] if t.norm not in _ARTICLES and t.norm != "of"]
    need = len(relation) - (1 if len(relation) >= 3 else 0)
    return (
        0 < len(role) <= _ROLE_MAX_WORDS
        and all(t.word for t in tokens[start:k])
        and len({w.removesuffix("s") for w in role} & relation) < need
        and not set(role) & (_NO_ROLE | _OPENERS | _RELATIVES | _ADDING)
    )


def _believed_by_others(tokens: Sequence[Token], i: int, answers: Sequence[Mention]) -> bool:
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
    if any(w in _SPEAKING for w in said):
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
            if tok.word and tok.raw[:1].isupper() and not opens and tok.norm not in _NOT_NAMES:
                return True
    return _apposed_to_a_role(tokens, m, clause, relation)


_NOT_BESIDE = frozenset(
    {"and", "or", "nor", "not", "either", "also", "then", "maybe", "perhaps", "possibly",
     "probably", "likely", "it", "its", "that", "this", "which", "what", *_ARTICLES,
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
        and not {t.norm for t in role[1:]} & (_NO_ROLE | _ARTICLES)
        and len({t.norm.removesuffix("s") for t in role} & relation) < need
    )


def _names_rival(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether the reply names a rival as an answer (`_rival_verdict`)."""
    return _rival_verdict(tokens, found, subject)[0]


def names_rival(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None,
    subject: Sequence[str] = (),
) -> bool:
    """Whether a reply names, not negated, a rival: an entity of the answer's type (``rivals``,
    every name of that type, as `TypeNames.table` gives) that is neither a true object nor the
    subject (``subject``: its names). The rule by which `check_wh` finds "Arabic and English"
    incorrect for Kuwait's official language, for any mode that verifies open answers."""
    if rivals is None:
        return False
    tokens = tokenize(reply)
    if not tokens:
        return False
    found = mentions(tokens, _truth_table(_as_tuples(true_answers)), rivals)
    return _names_rival(tokens, found, tuple(subject))


def named_answers(
    reply: str, true_answers: Sequence[Sequence[str]], rivals: NameTable | None = None
) -> set[int]:
    """Indexes of the true answers a reply names the way `check_wh` counts a true object: one of
    its names, not negated and not inside a longer name of another true answer or of a rival
    ("Northern Sotho" does not name "Sotho"), or a near spelling of one that no negation denies
    and no rival name resembles as much."""
    tokens = tokenize(reply)
    if not tokens:
        return set()
    groups = _as_tuples(true_answers)
    truth = _truth_table(groups)
    found = mentions(tokens, truth) if rivals is None else mentions(tokens, truth, rivals)
    named = {-1 - m.owner for m in found if m.owner < 0 and not m.negated}
    for i, group in enumerate(groups):
        if i not in named and _fuzzy_answer(tokens, _truth_table((group,)), rivals, found):
            named.add(i)
    return named


def check_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    *,
    question: str = "",
    answer_only: Sequence[AnswerNames] = (),
) -> Checked:
    """`_check_wh`; a reply with words in an alphabet whose Latin spelling is its
    transliteration (Cyrillic, Greek) that names no true answer as written is also read in
    anyascii's Latin letters ("гора Эльбрус" is "gora El'brus"), and correct if that names one.
    A reply that is only the letters of a true top-level domain ("DE" for ".de") is correct,
    uncertain (`_BARE_CODE`)."""
    if "~~" in reply:  # rules 14: what a reply strikes out it takes back ("~~Lima~~ Cusco")
        reply = _STRUCK.sub(" ", reply)
    if _FLAG.search(reply):  # rules 16: a flag is its country's ISO code ("🇫🇷" is "FR")
        reply = _FLAG.sub(_flag_code, reply)
    got = _check_wh(
        reply, true_answers, rivals, subject, question=question, answer_only=answer_only
    )
    if got.verdict is Verdict.CORRECT:
        return got
    bare = _BARE_CODE.fullmatch(reply)
    if bare and any(n.casefold() == "." + bare[1].casefold() for g in true_answers for n in g):
        return Checked(Verdict.CORRECT, got.hedged, uncertain=True)  # "DE" for ".de"
    for reading in _readings(reply, true_answers):
        if reading is not None:
            again = _check_wh(
                reading, true_answers, rivals, subject, question=question, answer_only=answer_only
            )
            if again.verdict is Verdict.CORRECT:
                return Checked(Verdict.CORRECT, got.hedged or again.hedged, again.uncertain)
    if _given_name_alone(reply, true_answers, answer_only, rivals):
        return Checked(Verdict.CORRECT, got.hedged, uncertain=True)
    cities = _with_cities(true_answers, question)
    if cities is not None:
        again = _check_wh(
            reply, cities, rivals, subject, question=question, answer_only=answer_only
        )
        if again.verdict is Verdict.CORRECT:  # rules 20: "In Paris." for France
            return Checked(Verdict.CORRECT, got.hedged or again.hedged, uncertain=True)
    signed = _with_territory_signs(reply, true_answers, subject)
    if signed is not None:
        again = _check_wh(
            reply, signed, rivals, subject, question=question, answer_only=answer_only
        )
        if again.verdict is Verdict.CORRECT:  # rules 20: "$" asked of Mexico
            return Checked(Verdict.CORRECT, got.hedged or again.hedged, uncertain=True)
    if not _ALPHABET_WORD.search(reply):
        return got
    latin = _transliterated(reply)
    again = _check_wh(
        latin, true_answers, rivals, subject, question=question, answer_only=answer_only
    )
    return again if again.verdict is Verdict.CORRECT else got


_EVENT_WHERE = re.compile(r"\s*where\s+(?:was|were|did)\b", re.IGNORECASE)
"""A question that asks where something happened."""


def _with_cities(true_answers: Sequence[Sequence[str]], question: str) -> list[list[str]] | None:
    """Rules 20: to a question that asks where something happened ("Where was radium
    discovered?"), the true countries with the English names of their tz zones' cities among
    their names (`territory_cities`: "In Paris." for France says where in it), or None where no
    true answer is a country, or where there are several (a place in one lists none). Not where a place is ("Where is Bayern located?": a city in the
    country may be in the place asked about). A city says more than the question asks, so a
    reply correct only by one is uncertain (`check_wh`)."""
    if _EVENT_WHERE.match(question) is None or len(true_answers) != 1:
        return None  # a part of one of several places lists none of them
    from kglens_tui.kg.answer_names import territory_cities, territory_codes

    out = []
    for group in true_answers:
        codes = {code for name in group for code in territory_codes(name)}
        out.append([*group, *(c for code in sorted(codes) for c in territory_cities(code))])
    return out if any(len(a) > len(b) for a, b in zip(out, true_answers, strict=True)) else None


def _with_territory_signs(
    reply: str, true_answers: Sequence[Sequence[str]], subject: Sequence[str]
) -> list[list[str]] | None:
    """Rules 20: the true answers with the signs of the asked territory's currencies among
    them (`territory_currency_signs`: "$" of the Mexican peso asked of Mexico, "kr" of the
    Norwegian krone, "C$" of the Canadian dollar) that the reply writes apart from letters (not
    the "$" of "US$"), where a true answer is one of its currencies by ISO 4217 code; else None.
    Other currencies share such signs ("$" is the US dollar's), so a reply correct only by them
    is uncertain (`check_wh`)."""
    codes = [n for group in true_answers for n in group if len(n) == 3 and n.isupper()]
    if not codes or not subject:
        return None
    from kglens_tui.kg.answer_names import territory_codes, territory_currency_signs

    territories = {code for name in subject for code in territory_codes(name)}
    if len(territories) != 1:
        return None
    signs = territory_currency_signs(territories.pop())
    if not any(code in signs for code in codes):
        return None
    written = {
        n: sorted(s for s in signs.get(n, ()) if _standing_alone(s, reply))
        for group in true_answers
        for n in group
    }
    if not any(written.values()):
        return None
    return [[*group, *(s for n in group for s in written[n])] for group in true_answers]


def _standing_alone(sign: str, reply: str) -> bool:
    """Whether ``sign`` is written in ``reply`` with no letter or digit right beside it."""
    return re.search(rf"(?<![^\W_]){re.escape(sign)}(?![^\W_])", reply) is not None


_NAME_WORD = re.compile(r"[^\W\d_]+")
_PATRONYMIC_WORDS = frozenset({"bin", "ibn", "bint"})
_PATRONYMIC_MIN_WORDS = 3
"""A given name, "bin" and the father's name at least."""


def _consonants(word: str) -> str:
    """A word's consonants in Latin letters, a doubled one once, and its number of vowel runs
    ("Muhammad", "Mohamed": "mhmd3"; "Zayid", "Zayed": "zd1"; not "Sulaiman" for "Salman"): the
    skeleton Arabic names keep through their transliterations."""
    letters = [c for c in normalize(word) if c.isalpha()]
    consonants = [c for c in letters if c not in _VOWELS]
    runs = sum(
        1
        for k, c in enumerate(letters)
        if c in _VOWELS and (k == 0 or letters[k - 1] not in _VOWELS)
    )
    kept = "".join(c for k, c in enumerate(consonants) if k == 0 or consonants[k - 1] != c)
    return f"{kept}{runs}"


_VOWELS = frozenset("aeiouy")


def _skeletons(text: str) -> list[tuple[str, int, int]]:
    """(consonants, start, end) of each word of a name, "Abd", "al" and the next word joined
    ("Abd al-Aziz", "Abdul Aziz" and "Abdulaziz" are one word, "bdlz")."""
    words = [(m[0], m.start(), m.end()) for m in _NAME_WORD.finditer(text)]
    out: list[tuple[str, int, int]] = []
    k = 0
    while k < len(words):
        word, start, end = words[k]
        joined = word
        while _consonants(joined)[:-1] in ("bd", "bdl") and k + 1 < len(words):
            k += 1
            joined += words[k][0]
            end = words[k][2]
        skeleton = _consonants(joined)
        out.append((skeleton, start, end))
        k += 1
    return out


def _patronymic_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 20: the reply with a name written as a true Arabic name ("X bin Y ...") in another
    transliteration ("Mohamed bin Zayed" for Muhammad bin Zayid, "Salman bin Abdulaziz" for
    Salman bin Abd al-Aziz) written as the true name: the given name, "bin" and the father's
    name at least, each with the same consonants (`_skeletons`), in order; or None."""
    for group in true_answers:
        for name in group:
            if not _PATRONYMIC_WORDS & {w.casefold() for w in name.split()}:
                continue
            true = [s for s, _, _ in _skeletons(name)]
            words = _skeletons(reply)
            for i, (skeleton, start, _) in enumerate(words):
                if skeleton != true[0]:
                    continue
                n = 0
                while i + n < len(words) and n < len(true) and words[i + n][0] == true[n]:
                    n += 1
                if n >= _PATRONYMIC_MIN_WORDS:
                    return reply[:start] + name + reply[words[i + n - 1][2] :]
    return None


_AND = r"(and|&|und|et|y|e|og|och|en|i|a)"
""""And" in English and other languages a list of two people may be joined by."""


def _shared_surname_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 20: the reply with the surname two true people share written after each of their
    given names where the reply writes it once ("Marie and Pierre Curie", "Marie Curie &
    Pierre" are "Marie Curie and Pierre Curie"), or None."""
    if len(true_answers) < 2:
        return None
    split = {
        (tuple(name.split()[:-1]), name.split()[-1])
        for group in true_answers
        for name in group
        if len(name.split()) >= 2
    }
    text = reply
    for given, surname in split:
        for other, same in split:
            if same != surname or other == given:
                continue
            first, second, last = map(re.escape, (" ".join(given), " ".join(other), surname))
            text = re.sub(
                rf"\b{first}\s+{_AND}\s+{second}\s+{last}\b",
                f"{' '.join(given)} {surname} \\1 {' '.join(other)} {surname}",
                text,
            )
            text = re.sub(
                rf"\b{first}\s+{last}\s+{_AND}\s+{second}\b(?!\s+[A-Z])",
                f"{' '.join(given)} {surname} \\1 {' '.join(other)} {surname}",
                text,
            )
    return text if text != reply else None


_ADJECTIVE = re.compile(r"\s*(?:it\s+is\s+|it's\s+)?([a-z]{3,}?)(eous|ous)\s*[.!]?\s*", re.I)
"""A reply that is one word with the ending of English adjectives of matter ("Gaseous.")."""


def _adjective_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """Rules 20: a reply that is only the adjective of a true answer that is a common noun of
    one word, in lower case ("Gaseous." for "gas"), read as that noun; or None."""
    match = _ADJECTIVE.fullmatch(reply)
    if match is None:
        return None
    stem = match[1].casefold()
    nouns = {n for group in true_answers for n in group if n.isalpha() and n.islower()}
    return stem if stem in nouns else None


_LIST_JOIN = re.compile(r"(\s*,\s*|\s+and\s+|\s+or\s+)", re.IGNORECASE)


def _listed_numbers_reading(reply: str) -> str | None:
    """Rules 20: the reply with each item of a list of numbers in words written as digits on
    its own ("One-one-two and one-one-zero." is "112 and 110.", not one number joined by
    "and"), or None where that changes nothing."""
    if not _LIST_JOIN.search(reply):
        return None
    reading = "".join(
        part if k % 2 else spell_out(part) for k, part in enumerate(_LIST_JOIN.split(reply))
    )
    return reading if reading != reply and reading != spell_out(reply) else None


def _readings(reply: str, true_answers: Sequence[Sequence[str]]) -> Iterator[str | None]:
    """Other readings of a reply, each made only when those before it were tried: a bare number
    with the true answers' word (`_numbered_reading`), a short year (`_year_reading`) and, where
    a true answer is a number, number words of other languages (rules 19: "Le cent douze.")."""
    yield _numbered_reading(reply, true_answers)
    yield _year_reading(reply, true_answers)
    yield _shared_surname_reading(reply, true_answers)
    yield _patronymic_reading(reply, true_answers)
    yield _adjective_reading(reply, true_answers)
    if any(n[:1].isdigit() or n[:1] == "+" for group in true_answers for n in group):
        yield _listed_numbers_reading(reply)
        yield from foreign_number_readings(reply)


_FLAG = re.compile("([\U0001f1e6-\U0001f1ff])([\U0001f1e6-\U0001f1ff])")
"""A flag emoji: two regional indicator symbols, the letters of an ISO 3166-1 code."""


def _flag_code(match: re.Match[str]) -> str:
    return " " + "".join(chr(ord(c) - 0x1F1E6 + ord("A")) for c in match.groups()) + ", "


_STRUCK = re.compile(r"~~[^~]+~~")
"""Text struck out in Markdown."""
_LONE_WORD = re.compile(r"\s*([^\W\d_]+)\s*[.!]?\s*")
"""A reply that is one word of letters, maybe with a full stop."""
_AS_CALLED = re.compile(
    r"\s*([^\W\d_]+)\s*,\s*as\s+(?-i:[a-z])[^\d.!?]*?\b(?:calls?|called|known)\b"
    r"(?:\s+(?-i:[a-z])[^\d.!?]*)?\s*[.!]?\s*",
    re.IGNORECASE,
)
"""Rules 20: one word, then a clause in lower case saying that is how people call the person
("Marcelo, as everyone calls him.", "Samia, as she is widely known."): the word alone."""


def _given_name_alone(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    answer_only: Sequence[AnswerNames],
    rivals: NameTable | None,
) -> bool:
    """Rules 13: whether the reply is only a true person's given name (`AnswerNames.given`:
    "Anwar." for Anwar Ibrahim; rules 20: or that and how people call the person,
    `_AS_CALLED`) that no name of the rivals' table holds but a true one. The rules' best
    reading, uncertain."""
    match = _LONE_WORD.fullmatch(reply) or _AS_CALLED.fullmatch(reply)
    if match is None:
        return False
    word = name_tokens(match[1])[0]
    if len(word) != 1 or not any(
        name_tokens(g)[0] == word for names in answer_only for g in names.given
    ):
        return False
    true = {name_tokens(n)[0] for group in true_answers for n in group}
    return rivals is None or all(
        tokens in true for tokens, _ in rivals.names() if word[0] in tokens
    )


_BARE_NUMBER = re.compile(
    r"\s*(?:(?:the|it\s+is|it's|its)\s+)?([+\-\u2212\u2013]?\d{1,2}(?::\d{2})?|[+\-\u2212\u2013]\d{4})"
    r"(?:st|nd|rd|th)?\s*[.!]?\s*",
    re.IGNORECASE,
)
"""A reply that is only a number or an ordinal ("18", "6th", "Seven.", "-4", "+0530")."""
_BARE_ORDINAL = re.compile(rf"\b({'|'.join(ORDINALS)})\b(?=\W*$)", re.IGNORECASE)
"""An ordinal word that ends the reply ("The sixth.")."""


def _ordinal_digits(match: re.Match[str]) -> str:
    return f"{ORDINALS.index(match[1].casefold()) + 1}th"


_NUMBERED = re.compile(r"([^\W\d_]+) ?[+-]?\d+(?::\d{2})?")
"""A name that is a word and a number ("group 18", "period 6", "UTC+05:30")."""


def _numbered_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """A reply that is only a number read with the word every true answer's name puts before
    its number ("18" is "group 18", "6th" "period 6", "-4" "UTC-4", "+0530" (ISO 8601's basic
    format) "UTC+05:30"), or None. An offset needs its sign (or is zero)."""
    if (
        len(reply) >= 40
        or not true_answers
        or not any(_NUMBERED.fullmatch(n) for n in true_answers[0])
    ):
        return None
    plain = _BARE_ORDINAL.sub(_ordinal_digits, reply)
    match = _BARE_NUMBER.fullmatch(spell_out(plain))
    if match is None:
        return None
    words = set()
    for group in true_answers:
        named = next((m for name in group if (m := _NUMBERED.fullmatch(name))), None)
        if named is None:
            return None
        words.add(named[1].casefold())
    if len(words) != 1:
        return None
    word = words.pop()
    number = match[1].replace("\u2212", "-").replace("\u2013", "-")
    if word == "utc":
        if number[0] not in "+-" and number.strip("0:"):
            return None
        if len(number) == 5 and ":" not in number:  # +0530
            number = f"{number[:3]}:{number[3:]}"
        return f"UTC{number}"
    return f"{word} {int(number)}" if number.isdigit() else None


_SHORT_YEAR = re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’])")
"""A year by its last two digits after an apostrophe ("'47")."""


def _year_reading(reply: str, true_answers: Sequence[Sequence[str]]) -> str | None:
    """The reply with a year written by its last two digits ("in August '47") read as the true
    answer's year that ends so (1947), or None: the century goes without saying."""
    if "'" not in reply and "’" not in reply:
        return None
    years = {
        n[2:]: n for group in true_answers for n in group if re.fullmatch(r"1\d{3}|20\d{2}", n)
    }
    if not years:
        return None
    found = False

    def full(match: re.Match[str]) -> str:
        nonlocal found
        year = years.get(match[1])
        found = found or year is not None
        return year or match[0]

    text = _SHORT_YEAR.sub(full, reply)
    return text if found else None


_BARE_CODE = re.compile(r"\s*([A-Za-z]{2,3})[\s.!]*")
"""A reply that is only a code of two or three letters: a top-level domain without its dot is
that domain (the rules' best reading: uncertain, as the code may be the country's own)."""
_EJECTIVE_ALPHABETS = "\u0530-\u058f\u10a0-\u10ff\u1c90-\u1cbf"
"""Armenian and Georgian (with Mtavruli): anyascii marks their ejectives with an apostrophe."""
_ALPHABETS = "\u0370-\u03ff\u0400-\u04ff" + _EJECTIVE_ALPHABETS
"""Greek, Cyrillic and (rules 16) Armenian and Georgian: alphabets whose transliteration by
anyascii is their words' usual Latin spelling ("ირაკლი კობახიძე" is "irak'li k'obakhidze")."""
_ALPHABET_WORD = re.compile(f"[{_ALPHABETS}]{{2}}")
"""Two letters of those alphabets."""


@lru_cache(maxsize=1024)
def _transliterated(text: str) -> str:
    from anyascii import anyascii

    return _ALPHABET_RUN.sub(lambda m: _latin_spelling(anyascii(m.group(0)), m.group(0)), text)


def _latin_spelling(latin: str, written: str) -> str:
    """anyascii's reading, less the apostrophes it puts after Georgian and Armenian ejectives
    ("k'obakhidze" is written "Kobakhidze")."""
    return latin.replace("'", "") if _EJECTIVE_SCRIPTS.search(written) else latin


_EJECTIVE_SCRIPTS = re.compile(f"[{_EJECTIVE_ALPHABETS}]")


_ALPHABET_RUN = re.compile(f"[{_ALPHABETS}\u0300-\u036f]+")


_HEADING = re.compile(
    r"^\s*[*_#>]*\s*(?:tl;?\s?dr|quick\s+answer|short\s+answer|final\s+answer|answer|in\s+short"
    r"|summary|bottom\s+line)\s*[*_]*\s*[:\u2014\u2013]\s*[*_]*\s*(?=\S)",
    re.IGNORECASE,
)
"""Rules 19: a heading before the answer ("TL;DR: Canberra.", "**Quick answer —** ..."): no part
of what the reply says."""


def _check_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    *,
    question: str = "",
    answer_only: Sequence[AnswerNames] = (),
) -> Checked:
    """Verify a Wh reply as a careful reader does: correct when it gives a true object (any of
    its names) as its answer, as a whole entity, not negated, and no rival. ``rivals``: names of
    every entity of the object's type; a longer rival name that contains a true name ("South
    Sudan" for "Sudan") is not the answer, and a reply that also names as an answer, not negated,
    a rival that is no true object ("Arabic and English", "Left or right") is incorrect (one
    named in passing is not: `_rival_verdict`). ``subject``: the names of the entity asked
    about, never a rival ("Zambia gained independence from the United Kingdom").

    ``question``: its own words never count as an answer (`_echo`: "The capital of Djibouti." is
    no answer). ``answer_only``: per true object, names a reply may use that the KG lacks
    (`kglens_tui.kg.answer_names`): matched exactly, never by spelling. A correction ("Abuja...
    sorry, I mean Lagos", "often assumed to be X, but it is Y") is judged by what the reply ends
    on (`_correction`).

    Without a true mention the reply is incorrect if it names a rival or offers a guess, else
    refused if it declines to answer (also without the usual words when it names no candidate:
    "That information is not available to me."), else incorrect. Hedged: it expresses doubt or
    declines. Uncertain: the rules cannot decide (a rival in a sentence of its own beside the
    answer; the answer only by a name it shares with the subject).
    """
    if not reply or not reply.strip():
        return Checked(Verdict.UNPARSEABLE)
    reply = _HEADING.sub("", reply, count=1) or reply
    tokens = tokenize(reply)
    if not tokens:  # a shrug alone ("🤷") declines; rules 20: so does a lone dash
        declined = _SHRUG.search(reply) or _BLANK_MARK.fullmatch(reply)
        return Checked(Verdict.REFUSED if declined else Verdict.UNPARSEABLE)
    groups = _as_tuples(true_answers)
    subject_names = tuple(subject)
    extra = _answer_only_names(groups, tuple(answer_only), _shown(subject_names, question))
    truth = _truth_table(groups) if not extra[0] else _truth_table(extra[0])
    tables = (truth, extra[1], rivals)
    asked = _question_tokens(question) if question else ()
    allowed = _name_words(groups) if extra[1] is not None else frozenset()
    runs = _echo_runs(tokens, asked)
    pairs = _two_word_names(groups) if extra[1] is not None else frozenset()
    found = _found(tokens, tables, runs, allowed, subject_names, pairs)
    relation = _relation_words(asked, subject_names) if asked else frozenset()
    marker, cut = _correction(tokens, found, frozenset(t.norm for t in asked), relation)
    if _withdrawn_and_declined(tokens, found, frozenset(t.norm for t in asked)):
        return Checked(Verdict.REFUSED)
    text = hedge_text = reply
    if cut:
        hedge_text = " ".join(t.raw for t in tokens[marker:])  # "actually, I think it is X"
        tokens = tokens[cut:]
        runs = _echo_runs(tokens, asked)
        found = _found(tokens, tables, runs, allowed, subject_names, pairs)
        text = " ".join(t.raw for t in tokens)
    shared = _shared_with_subject(tokens, found, subject_names, relation)
    glossed = _codes_of_other_currencies(text, tokens, found, truth)
    qualified = _qualified_units(tokens, found, groups)
    addressed = _addressed(tokens, found, tuple(answer_only))
    addressed |= _named_as_a_country(tokens, found, tuple(answer_only))
    found = _without_own_countries(tokens, found, tuple(answer_only))
    answers = [
        m
        for m in found
        if m.owner < 0
        and not m.negated
        and m not in shared.dropped
        and m not in glossed
        and m not in qualified
        and m not in addressed
    ]
    refusing = is_refusal(text)
    hedged = refusing or has_hedge(hedge_text)
    fuzzy_table = _truth_table(groups)
    echoed = [Mention(i, i + 1, 0, False) for i in sorted(_echo(runs))]
    # rules 11: the subject's name is no near spelling of an answer ("the people of Fiji" is
    # no "Fijian")
    subject_named = _subject_mentions(tokens, subject_names)
    taken = [*found, *echoed, *subject_named]
    if (
        answers
        or _fuzzy_answer(tokens, fuzzy_table, rivals, taken)
        or (
            extra[1] is not None
            and _fuzzy_answer(tokens, _surnames(extra[1]), rivals, taken, alone=allowed)
        )
        or (bool(extra[0]) and _inflected_answer(tokens, truth, rivals, taken))
    ):
        defining = _defining(tokens, asked, subject_names)
        rival, uncertain = _rival_verdict(
            tokens, found, subject_names, defining, relation, _asks_in_present(asked)
        )
        if not rival and defining and answers:
            rival = _defined_by_another(tokens, defining, answers, found, subject_names)
        if not rival and len(groups) == 1:
            one = _asks_for_one(asked)
            rival = _offers_others(tokens, text, answers, found, subject_names, truth, one)
        elif (
            not rival
            and answers
            and (
                _unknown_item(tokens, answers, found, subject_names, text, (fuzzy_table, rivals))
                or _offers_others(
                    tokens, text, answers, found, subject_names, truth, only_or=True
                )  # rules 20: "Pretoria or Johannesburg, I think."
            )
        ):
            rival = uncertain = True
        if not rival and answers and _another_number(tokens, answers, found, groups):
            rival = True
        if (
            not rival
            and answers
            and _answered_by_another(tokens, text, answers, asked, relation, subject_names, found)
        ):
            rival = True
        uncertain = uncertain or (bool(answers) and all(m in shared.kept for m in answers))
        return Checked(Verdict.INCORRECT if rival else Verdict.CORRECT, hedged, uncertain)
    # a rival told about another country is no candidate ("No idea; New Zealand's is ...")
    offered = [
        m
        for m in found
        if not m.negated
        and m not in shared.dropped
        and not (m.owner >= 0 and _about_another_country(tokens, m, found, subject_names))
    ]
    # the words of "I do not know" in another language are no names ("Ich habe keine Ahnung."),
    # nor is a word of regret beside them ("Sajnos nem tudom.": rules 14)
    plain = _DONT_KNOW.sub(".", _without_regret(clean_quotes(text))) if _knows_not(text) else text
    if (
        not offered
        and not _guesses(text)
        and not _bare_name(plain)
        and not _asks_a_guess(plain, asked)
        and (
            refusing
            or (
                not _other_than_subject(tokens, found, subject_names)
                and declines(text)
                and not _offers_a_name(tokens if plain is text else tokenize(plain), asked)
            )
        )
    ):
        return Checked(Verdict.REFUSED)
    unknown = not found and not subject_named and _unknown_name(plain)
    return Checked(Verdict.INCORRECT, hedged, unknown)


def _unknown_name(text: str) -> bool:
    """Whether a reply that names nothing the verifier knows, neither a true answer nor a rival
    nor the subject, is only a name, or is written wholly in a script other than Latin (rules 12: "Edo.", "NPT",
    "Газ.", "富士山"): it may be a name of the answer that no source has, so the rules cannot
    decide (uncertain: the judge or a person does)."""
    letters = [c for c in text if c.isalpha()]
    if letters and not any("LATIN" in unicodedata.name(c, "") for c in letters):
        return True
    stripped = text.strip()
    return _name_clause(stripped) and not _SENTENCES.search(stripped.rstrip(".!?"))


def _subject_mentions(tokens: Sequence[Token], subject: tuple[str, ...]) -> list[Mention]:
    """Where the reply names the subject asked about."""
    if not subject:
        return []
    return [Mention(a, b, 0, False) for a, b, _ in _truth_table((subject,)).matches(tokens)]


_BRACKETED_CODE = re.compile(r"([^\W\d_]+)\s*\(\s*([A-Z]{2,3})\s*\)")
"""A word, then a code in brackets: "the Saudi Arabian pound (SAR)"."""


def _codes_of_other_currencies(
    text: str, tokens: Sequence[Token], found: Sequence[Mention], truth: NameTable
) -> set[Mention]:
    """True mentions by a code in brackets that is given as another currency's code: the word
    before the bracket is a currency's unit word (CLDR's English names: "pound", "dollar",
    "franc") that no true name has ("the Saudi Arabian pound (SAR)" is no riyal; "the Saudi
    riyal (SAR)" and "the Saudi currency (SAR)" are)."""
    codes = {
        tokens[m.start].raw: m
        for m in found
        if m.owner < 0 and m.end - m.start == 1 and tokens[m.start].raw.isupper()
    }
    if not codes or "(" not in text:
        return set()
    glossing: dict[str, set[bool]] = {}
    for word, code in _BRACKETED_CODE.findall(text):
        if code in codes:
            glossing.setdefault(code, set()).add(_another_unit(word.casefold(), truth))
    other = {code for code, kinds in glossing.items() if kinds == {True}}
    return {m for m in found if m.end - m.start == 1 and tokens[m.start].raw in other}


def _qualified_units(
    tokens: Sequence[Token], found: Sequence[Mention], groups: tuple[tuple[str, ...], ...]
) -> frozenset[Mention]:
    """True mentions that are a currency's unit word alone after a capitalised word of its
    clause that no true name has ("the Zimbabwe dollar" is no US dollar; "the US dollar" is)."""
    units = currency_unit_words()
    words = _name_words(groups)
    out = set()
    for m in found:
        if m.owner >= 0 or m.end - m.start != 1 or m.start == 0:
            continue
        unit = tokens[m.start].norm
        if unit not in units and unit.removesuffix("s") not in units:
            continue
        before = tokens[m.start - 1]
        if (
            before.word
            and before.clause == tokens[m.start].clause
            and before.raw[:1].isupper()
            and before.norm not in words
            and before.norm not in _NAME_NEIGHBOURS
            and before.norm not in _ARTICLES
            and before.norm not in PARTICLES
            and before.norm not in _FOREIGN_ARTICLES
        ):
            out.add(m)
    return frozenset(out)


_SUBDIVISION_CODE = re.compile(r"([A-Z]{2})-([A-Z0-9]{1,3})")


def _addressed(
    tokens: Sequence[Token], found: Sequence[Mention], answer_only: tuple[AnswerNames, ...]
) -> frozenset[Mention]:
    """Rules 18: true mentions of a subdivision followed, after a comma and ending the clause,
    by the code letters of another subdivision of its country (ISO 3166-2, as written):
    an address, a place inside that other one ("Washington, D.C." names no state of
    Washington)."""
    others = _other_subdivisions(answer_only)
    if not others:
        return frozenset()
    out = set()
    for m in found:
        k = m.end
        if (
            m.owner < 0
            and k < len(tokens)
            and tokens[k].clause != tokens[k - 1].clause
            and tokens[k].raw in others
            and (k + 1 == len(tokens) or tokens[k + 1].clause != tokens[k].clause)
        ):
            out.add(m)
    return frozenset(out)


_COUNTRY_WORDS = frozenset({"country", "nation", "republic", "kingdom"})
"""Words by which a reply says the name after "of" is a country's."""


def _named_as_a_country(
    tokens: Sequence[Token], found: Sequence[Mention], answer_only: tuple[AnswerNames, ...]
) -> frozenset[Mention]:
    """Rules 20: true mentions of a subdivision (an ISO 3166-2 code among its answer-only
    names) that the reply calls a country's name ("The country of Georgia." for the US state):
    they name the country of that name, no answer."""
    if not any(_SUBDIVISION_CODE.fullmatch(n) for names in answer_only for n in names.names):
        return frozenset()
    return frozenset(
        m
        for m in found
        if m.owner < 0
        and m.start >= 2
        and tokens[m.start - 1].norm == "of"
        and tokens[m.start - 2].norm in _COUNTRY_WORDS
    )


def _without_own_countries(
    tokens: Sequence[Token], found: list[Mention], answer_only: tuple[AnswerNames, ...]
) -> list[Mention]:
    """Rules 20: ``found`` less the rival that follows a true subdivision after a comma and
    ends the clause where it names that subdivision's country (ISO 3166-2; its English names
    and codes, `country_names`): an address ("Illinois, USA.", "Washington, US."), no second
    answer."""
    countries = {
        match[1]
        for names in answer_only
        for name in names.names
        if (match := _SUBDIVISION_CODE.fullmatch(name))
    }
    if not countries:
        return found
    own = frozenset().union(*(country_names(c) for c in countries))
    after = {m.end for m in found if m.owner < 0 and not m.negated}
    dropped = {
        m
        for m in found
        if m.owner >= 0
        and m.start in after
        and tokens[m.start - 1].clause != tokens[m.start].clause
        and (m.end == len(tokens) or tokens[m.end].clause != tokens[m.start].clause)
        and bare_fold(" ".join(t.raw for t in tokens[m.start : m.end])) in own
    }
    return [m for m in found if m not in dropped] if dropped else found


@lru_cache(maxsize=4096)
def _other_subdivisions(answer_only: tuple[AnswerNames, ...]) -> frozenset[str]:
    """The ISO 3166-2 letters of the other subdivisions of the countries of the true
    subdivisions (their codes among their answer-only names)."""
    codes = {
        match.groups()
        for names in answer_only
        for name in names.names
        if (match := _SUBDIVISION_CODE.fullmatch(name))
    }
    own = {letters for _, letters in codes}
    return frozenset(
        letters
        for country, _ in codes
        for letters in subdivision_letters(country)
        if letters not in own
    )


_FOREIGN_ARTICLES = frozenset(
    {"il", "lo", "les", "los", "las", "die", "das", "het", "os", "as", "um", "uma", "un", "una",
     "une", "ein", "eine", "en", "ett", "der", "dem"}
)  # fmt: skip
"""Articles of other languages, capitalised where they open a reply ("La peseta."; rules 20:
German "der", "dem")."""


def _another_unit(word: str, truth: NameTable) -> bool:
    """Whether a word is a currency's unit word that no true name contains."""
    units = currency_unit_words()
    if word not in units and word.removesuffix("s") not in units:
        return False
    return not any(word in name or word.removesuffix("s") in name for name, _ in truth.names())


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+(\S.*)$", re.MULTILINE)
_BARE_NAME = re.compile(r"^\s*(?:[A-Z][\w'’-]*\s*){1,3}[?.!]*\s*$")
_NOT_NAMES = frozenset(
    {"sorry", "unknown", "none", "no", "yes", "hmm", "well", "okay", "ok", "i", "maybe",
     "perhaps", "probably", "thanks", "thank", "note", "answer", "n/a", "na", "it", "that",
     "pass", "skip", "dunno", "blank", "stumped"}
)  # fmt: skip


def _bare_name(text: str) -> bool:
    """Whether a clause of the reply is only a name, offered as the answer ("Sydney, though I am
    not sure": not a refusal, whether or not the KG knows the name; "Unfortunately, ..." is no
    name)."""
    return any(_name_clause(clause) for clause in _clauses(text))


def _name_clause(clause: str) -> bool:
    """Whether a clause is only a name: capitalised words, the first no word that is never a
    name (`_NOT_NAMES`: "Sorry", "Well") nor an adverb ("Unfortunately")."""
    first = clause.split()[0].strip("?.!").casefold() if clause.split() else ""
    return bool(_BARE_NAME.match(clause)) and first not in _NOT_NAMES and not first.endswith("ly")


_ASKING_AGAIN = (("was", "it"), ("is", "it"), ("maybe",), ("perhaps",))


def _asked_again(tokens: Sequence[Token], i: int, answers: Sequence[Mention]) -> bool:
    """Rules 20: whether the "or" at ``i`` opens a question about another candidate after the
    answer's sentence ("Porto-Novo. Hmm, or was it Cotonou?")."""
    if not any(m.end <= i for m in answers):
        return False
    after = [t.norm for t in tokens[i + 1 : i + 3]]
    return any(after[: len(words)] == list(words) for words in _ASKING_AGAIN)


def _offers_others(
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
    Cotonou?": `_asked_again`); ``only_or``: only candidates joined by "or" that are places'
    English names (`_a_place`: "Pretoria or Johannesburg" to a question with several answers;
    other words may be true names the tables miss, "Either Scheele or Priestley")."""
    spans = _named_spans(tokens, found, subject)
    sentences = {tokens[m.start].sentence for m in answers}
    ends = {m.end for m in answers}
    starts = {m.start for m in answers}
    passing = {m.end - 1 for m in found if m.owner >= 0 and _in_passing(tokens, m, set())}
    for i, tok in enumerate(tokens):
        if tok.norm not in ("or", "and") or (only_or and tok.norm != "or"):
            continue
        if tok.sentence not in sentences and not _asked_again(tokens, i, answers):
            continue
        before = _skip_fillers(tokens, i - 1, -1)
        if before in passing:  # "like San Marino by Italy or the Vatican by Rome"
            continue
        if _believed_by_others(tokens, i, answers):
            continue  # rules 19: "Rabat. Many people guess Casablanca ... or Marrakesh"

        after_at = _skip_fillers(tokens, i + 1, 1)
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
            if other.word and other.raw[:1].isupper() and (not only_or or _a_place(tokens[j:])):
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
        named += [(a, b) for a, b, _ in _truth_table((subject,)).matches(tokens)]
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
            words = [i for i in where if tokens[i].norm not in ("and", "or", *_ARTICLES)]
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


def _relation_words(asked: Sequence[Token], subject: tuple[str, ...]) -> frozenset[str]:
    """The words a question names its relation by ("capital", "head" and "state"): its words
    less question words and the subject's names."""
    if not asked:
        return frozenset()
    named = {
        i for start, end, _ in _truth_table((subject,)).matches(asked) for i in range(start, end)
    }
    return frozenset(
        t.norm.removesuffix("s")
        for i, t in enumerate(asked)
        if t.word and i not in named and t.norm not in _QUESTION_WORDS
    )


def _defining(
    tokens: Sequence[Token], asked: Sequence[Token], subject: tuple[str, ...]
) -> frozenset[int]:
    """The sentences of a reply that use the question's relation words, every one (all but one
    of three or more: "calling code" for "international calling code"), of the subject ("Ireland's
    head of state", "the capital of Cameroon"; not "the capital of the DR Congo" asked about the
    Congo, nor "the head of government" asked about the head of state): where the reply says
    what the answer is."""
    relation = _relation_words(asked, subject)
    if not relation or not subject:
        return frozenset()
    words: dict[int, set[str]] = {}
    for t in tokens:
        if t.word:
            words.setdefault(t.sentence, set()).add(t.norm.removesuffix("s"))
    need = len(relation) - (1 if len(relation) >= 3 else 0)
    anchored = set()
    for start, end, _ in _truth_table((subject,)).matches(tokens):
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


_COPULAS = frozenset({"is", "was", "remains"})


def _defined_by_another(
    tokens: Sequence[Token],
    defining: frozenset[int],
    answers: Sequence[Mention],
    found: Sequence[Mention],
    subject: tuple[str, ...],
) -> bool:
    """Whether the sentences that define the answer (`_defining`) name no true answer but a name
    no table knows, next to their verb of being ("Douala is the capital of Cameroon ...;
    several ministries are also based in Yaoundé"): the reply answers with it, and names the
    true one in passing."""
    if any(tokens[m.start].sentence in defining for m in answers):
        return False
    spans = _named_spans(tokens, found, subject)
    for i, tok in enumerate(tokens):
        if tok.norm not in _COPULAS or tok.sentence not in defining:
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
                and (other.norm not in _NAME_NEIGHBOURS and other.norm not in _QUESTION_WORDS)
            ):
                return True
    return False


_PRESENT = frozenset({"is", "are", "does", "do"})
_PAST = frozenset({"was", "were", "did"})


def _asks_in_present(asked: Sequence[Token]) -> bool:
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


def _asks_for_one(asked: Sequence[Token]) -> bool:
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
            for start, end, _ in _truth_table((subject,)).matches(tokens)
            for i in range(start, end)
        )
    return spans


def _unknown_item(
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
    for _, text in _fuzzy_names(truth) if end > start else ():
        score = _similarity(words, text)
        if score >= FUZZY_THRESHOLD and not _rival_as_close(words, score, rivals, names):
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


def _another_number(
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
        if not _in_passing(tokens, Mention(i, i + 1, 0, False), set()):
            return True
    return False


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
    its own ("Canberra and Sydney is the largest city" names Sydney as something else)."""
    if before is None or after is None:
        return False
    clause = tokens[i].clause
    if before + 1 in ends and after not in spans:
        j = after
        while j < len(tokens) and tokens[j].clause == clause and tokens[j].word:
            if not (tokens[j].raw[:1].isupper() or tokens[j].norm in PARTICLES):
                return False
            j += 1
        return (
            j > after
            and tokens[after].raw[:1].isupper()
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


def _other_than_subject(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether the reply names something other than the subject asked about ("I'm not familiar
    with a place called Zanzan." names only the subject, Zanzan)."""
    if not found or not subject:
        return bool(found)
    spans = {(start, end) for start, end, _ in _truth_table((subject,)).matches(tokens)}
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


def _answered_by_another(
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
    `_name_clause`, and a true answer a later clause tells about is no answer, `_told_of`; rules 14:
    nor is one in a relative clause after the opening name, `_in_relative_clause`; rules 19:
    nor one others are said to believe after an opening that states a name, `_said_by_others`:
    "Casablanca. Many people guess Rabat, but ..."). A reply that
    opens with the preposition
    the question asks with ("From Holland." to "From which state ...?"), or (rules 9) with "in"
    to a question that asks "Where", opens with no name."""
    clauses = _clauses(text)
    if not clauses or answers[0].start == 0:
        return False
    named = _subject_mentions(tokens, subject)
    if not (_name_clause(clauses[0]) or _opens_with_a_name(tokens, named)):
        # rules 20: the speaker's own pick, then what others say ("I'd say Sydney, though many
        # say Canberra.")
        return _OPINION_NAME.match(text) is not None and all(
            tokens[m.start].clause != tokens[0].clause and _said_by_others(tokens, m)
            for m in answers
        )
    if tokens[0].norm in _PASSING and any(t.norm == tokens[0].norm for t in asked):
        return False
    if tokens[0].norm in _LOCATIVE and asked and asked[0].norm == "where":
        return False  # "In Peru." to "Where is ... located?" (rules 9)
    if all(t.norm in _RETRACTING for t in tokens if t.clause == tokens[0].clause):
        return False  # rules 20: "Przepraszam, to Canberra.": a word of regret is no name
    if asked and asked[0].norm == "who" and _a_place(tokens):
        return False  # rules 20: "Paris, 1898: Marie and Pierre Curie." names no candidate
    passing: set[int] = set()
    stated = _opening_stated(tokens, text, named)
    # rules 20: an opening sentence that is only a name states it as the answer, and the next
    # sentence may tell of the true one ("Almaty. Astana is the newer planned city.")
    last = 1 if stated and _a_name_sentence(tokens, named, found) else 0
    norms = [t.norm for t in tokens]
    present = _asks_in_present(asked)
    for m in sorted(answers, key=lambda m: m.start):
        if not (
            _in_passing(tokens, m, passing)
            or _told_of(tokens, norms, m, relation, stated=stated, subject=named, last=last)
            or _in_relative_clause(tokens, m, relation)
            or (stated and _said_by_others(tokens, m))
            or _doubted(tokens, m.start)
            or (present and _in_former_time(tokens, m))
        ):
            return False
        passing.add(m.end)
    return True


_OPENING_END = re.compile(r"[^.!?;,:\n\u2014\u2013]*([.!?;,:\n\u2014\u2013])")
"""The opening clause and the mark that ends it."""


_HEADING_WORDS = frozenset(
    {"answer", "short", "quick", "final", "summary", "fun", "fact", "facts", "version", "tl",
     "dr", "tldr", "note", "in", "brief", "bottom", "line", "key", "point"}
)  # fmt: skip
"""Words of a heading before a dash ("Quick answer — ...", "Fun fact — ...")."""


def _opening_stated(tokens: Sequence[Token], text: str, subject: Sequence[Mention]) -> bool:
    """Rules 18: whether the reply's opening clause states a name of its own: not asked ("Sydney?
    ..."), not opening with a preposition or "not" ("In Australia, ...", "Not Sydney. ..."), not
    only interjections ("Oh, ...") and not naming the subject ("Australia. ..."); rules 19: not
    ended by a colon, nor a heading before a dash, which give the answer after them ("Quick
    Answer: Canberra ...", "Fun fact — Tokyo was once Edo."; a name before a dash states it:
    "Mount Whitney — McKinley is in Alaska")."""
    if _ASKED_OPENING.match(text) or tokens[0].norm in _PASSING | _DENYING:
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
    if all(w in _INTERJECTIONS or w in _NOT_NAMES for w in opening):
        return False  # "Oh, Canberra was purpose-built."
    return not any(tokens[m.start].clause == clause for m in subject)


def _in_relative_clause(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
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
    return tokens[opening].norm in _RELATIVES and tokens[opening - 1].clause == tokens[0].clause


_IDENTIFYING = frozenset(
    {"is", "was", "full", "real", "official", "name", "also", "known", "as", "called", "the"}
)
"""Words of a relative clause that says who the opening name is ("who is", "whose full name
is"): what it names is that name's own, not told of in passing."""


_OPENING_NAME_MAX_WORDS = 4
"""Rules 19: four, not three ("Ho Chi Minh City; Hanoi is more of a northern hub.")."""
_INNER_PARTICLES = PARTICLES | {"es"}
"""Words in lower case inside a place's name ("Dar es Salaam", "Rio de Janeiro"; not "of":
"Part of Ukraine")."""


def _opens_with_a_name(tokens: Sequence[Token], subject: Sequence[Mention]) -> bool:
    """Rules 11: whether the reply's first clause, to any stop (a dash too: "Sydney — ..."),
    is only capitalised words (rules 14: and name particles inside, "Dar es Salaam"), no more
    than `_OPENING_NAME_MAX_WORDS`, the first no word that
    is never a name (`_NOT_NAMES`) nor an adverb, and not the subject's name."""
    first = [t for t in tokens if t.clause == tokens[0].clause]
    return (
        not any(m.start == 0 for m in subject)
        and len(first) <= _OPENING_NAME_MAX_WORDS
        and all(
            t.word
            and (t.raw[:1].isupper() or (0 < i < len(first) - 1 and t.norm in _INNER_PARTICLES))
            for i, t in enumerate(first)
        )
        and first[0].norm not in _NOT_NAMES
        and not first[0].norm.endswith("ly")
    )


def _a_place(tokens: Sequence[Token]) -> bool:
    """Rules 20: whether the reply's opening clause is only a place's English name (CLDR's
    countries and zone cities), a name of another kind than a person's."""
    from kglens_tui.kg.answer_names import english_place_names

    words = " ".join(t.norm for t in tokens if t.clause == tokens[0].clause and t.word)
    return normalize(words) in english_place_names()


def _a_name_sentence(
    tokens: Sequence[Token], subject: Sequence[Mention], found: Sequence[Mention]
) -> bool:
    """Rules 20: whether the reply's first sentence is only its opening clause, a name
    (`_opens_with_a_name`) that the tables know or that is a place's English name (CLDR's
    countries and zone cities: "Almaty.", "Sydney."; not "Sure." or "Good question.") and more
    follows."""
    first = [t for t in tokens if t.sentence == 0]
    if len(first) == len(tokens) or any(t.clause != tokens[0].clause for t in first):
        return False
    if not _opens_with_a_name(tokens, subject):
        return False
    return any(m.start == 0 and m.end == len(first) for m in found) or _a_place(tokens)


def _told_of(
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
    after the first, right before its verb (`_clause_told`), the clause has a word that makes
    less of it (`_LESSER`) and none of the question's relation words (not "Sydney; Canberra is
    the capital"; rules 17: unless that word makes less of the relation, `_lessened`: "La Paz —
    Sucre is only the historic capital"), and no word between takes the first name back
    (`_RETRACTING`, a correction's first word). Rules 17: a clause that concedes the answer
    ("Istanbul, though Ankara is where parliament sits": `_conceded`) tells of it without a
    word of `_LESSER`, where it has none of the relation words. Rules 18: so does any clause
    about it without the relation words, a word that makes it the answer (`_ANSWER_AGAIN`) or
    the subject's name, in the sentence of an opening that states a name (``stated``:
    `_opening_stated`): "Almaty; Astana is the newer planned city", "Kangchenjunga; Everest
    belongs to China" (not "Sure. Canberra was purpose-built."); rules 20: or in the sentence
    after it, up to ``last``, where the opening sentence is only a name ("Almaty. Astana is the
    newer planned city.")."""
    if not relation or tokens[m.start].clause == tokens[0].clause:
        return False
    if any(
        t.norm in _RETRACTING or t.norm in _UPDATING or _marker_at(norms, i)
        for i, t in enumerate(tokens[: m.start])
    ):
        return False  # "Sydney... no, Canberra has been the capital since 1913"
    conceded = _conceded(tokens, m)
    rest = _clause_told(tokens, m, conceded)
    if rest is None:
        return False
    if conceded:
        return not rest & relation  # rules 17: "Istanbul, though Ankara is where ... sits"
    if rest & _LESSER and (_lessened(tokens, m, relation) or not rest & relation):
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


def _marker_at(norms: Sequence[str], i: int) -> bool:
    """Whether a correction's words (`_MARKERS_BY_FIRST`) start at ``i``."""
    return any(
        tuple(norms[i : i + len(marker)]) == marker
        for marker in _MARKERS_BY_FIRST.get(norms[i], ())
    )


_CONCEDING = frozenset({"though", "although", "albeit", "while", "whereas", "whilst"})
"""Words that open a clause conceding something beside the answer given before ("Toronto —
though Ottawa hosts Parliament"; rules 20: "while", "whereas", "whilst": "Sydney, while Canberra
is the federal seat of parliament")."""


def _conceded(tokens: Sequence[Token], m: Mention) -> bool:
    """Rules 17: whether a mention follows, right after articles, a conceding word that opens
    its clause ("though Ottawa", "even though the Ottawa ...")."""
    i = m.start - 1
    while i >= 0 and tokens[i].norm in _ARTICLES and tokens[i].clause == tokens[m.start].clause:
        i -= 1
    return (
        i > 0
        and tokens[i].norm in _CONCEDING
        and tokens[i].clause == tokens[m.start].clause
        and (tokens[i - 1].clause != tokens[i].clause or tokens[i - 1].norm == "even")
    )


def _lessened(tokens: Sequence[Token], m: Mention, relation: frozenset[str]) -> bool:
    """Rules 17: whether the clause a mention opens makes less of the relation itself: a word
    of `_LESSER` right before it, articles and words in lower case between ("Sucre is only the
    historic capital"; not "Canberra is the capital only")."""
    clause = tokens[m.start].clause
    lesser = False
    for t in tokens[m.end :]:
        if t.clause != clause:
            break
        norm = t.norm.removesuffix("s")
        if norm in relation:
            return lesser
        if t.norm in _LESSER:
            lesser = True
        elif lesser and not (t.word and t.raw.islower()):
            lesser = False
    return False


def _clause_told(
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
        t.clause == clause and t.norm not in _ARTICLES and t.norm not in opening
        for t in tokens[: m.start]
    ):
        return None
    if not (tokens[m.end].norm in _CLAUSE_VERBS or _a_verb(tokens, m.end)):
        return None
    return frozenset(t.norm.removesuffix("s") for t in tokens[m.end :] if t.clause == clause)


_LESSER = frozenset({"only", "just", "merely", "simply", "mainly", "mostly"})
"""Words by which a clause makes less of what it tells about ("Canberra only hosts ...")."""


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


class _Shared(NamedTuple):
    dropped: frozenset[Mention]
    kept: frozenset[Mention]


def _shared_with_subject(
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
    spans = {(start, end) for start, end, _ in _truth_table((subject,)).matches(tokens)}
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
    """Whether a clause tells about what a mention names (`_clause_told`) without the question's
    relation words."""
    rest = _clause_told(tokens, m) if relation else None
    return rest is not None and not rest & relation


_LOCATIVE = frozenset({"in", "within", "inside", "throughout", "across"})
"""Prepositions after which a place's name is where something is ("official in Indonesia"), not
what it is ("the city of Luxembourg")."""


def _after_preposition(tokens: Sequence[Token], start: int) -> bool:
    """Whether a preposition of place (`_LOCATIVE`), maybe with an article, stands right before
    a token of its clause ("official in Indonesia", "in the Gambia")."""
    i = start - 1
    while i >= 0 and tokens[i].norm in _ARTICLES and tokens[i].clause == tokens[start].clause:
        i -= 1
    return i >= 0 and tokens[i].clause == tokens[start].clause and tokens[i].norm in _LOCATIVE


def _found(
    tokens: Sequence[Token],
    tables: tuple[NameTable, NameTable | None, NameTable | None],
    runs: Sequence[tuple[int, int]],
    allowed: frozenset[str] = frozenset(),
    subject: tuple[str, ...] = (),
    pairs: frozenset[tuple[str, str]] = frozenset(),
) -> list[Mention]:
    """Mentions of the true, answer-only short and rival names, less the echoes of the question
    (`_echoed`; ``runs``: `_echo_runs`) and short names with another name around them
    (`_isolated`; ``allowed``: the words of the true answers' names), a short name's mention
    spanning the words of the true names beside it ("Philip Abelson" for Philip H. Abelson) or
    the middle names a reply adds (`_middle_names`; ``pairs``: `_two_word_names`)."""
    truth, short, rivals = tables
    chosen = [t for t in (truth, short, rivals) if t is not None]
    found = mentions(tokens, *chosen)
    echoed = _echoed(tokens, runs, found, subject)
    short_spans = {(a, b) for a, b, _ in short.matches(tokens)} if short is not None else set()
    kept = []
    starts = {m.start for m in found}
    for m in found:
        if (m.start, m.end) in echoed or _direction(tokens, m):
            continue
        if _direction_of(tokens, m, found, starts):
            continue
        if m.owner < 0 and (m.start, m.end) in short_spans:
            span = _isolated(tokens, m, allowed) or _middle_names(tokens, m, allowed, pairs)
            if not span:
                continue
            m = Mention(span[0], span[1], m.owner, m.negated)
        kept.append(m)
    return kept


def _direction(tokens: Sequence[Token], m: Mention) -> bool:
    """Whether a mention is a word of direction before "of" ("650 km north of London", rules
    10: "north-east of Madrid"), no place named "North" or "North East"."""
    return (
        m.end < len(tokens)
        and tokens[m.end].norm == "of"
        and all(
            _COMPASS.fullmatch(t.norm) is not None and t.raw.islower()
            for t in tokens[m.start : m.end]
        )
    )


def _direction_of(
    tokens: Sequence[Token], m: Mention, found: Sequence[Mention], starts: set[int]
) -> bool:
    """Whether a mention is a word of direction before another name ("Eastern Chile",
    "North-western Spain": rules 9), no place named "Northern" or "Western"; not a word of a
    longer name ("North Korea")."""
    if m.end - m.start != 1 or _COMPASS.fullmatch(tokens[m.start].norm) is None:
        return False
    j = m.end
    while j < len(tokens) and _COMPASS.fullmatch(tokens[j].norm):
        j += 1
    if j == len(tokens) or j not in starts or tokens[j].clause != tokens[m.start].clause:
        return False
    return not any(f.start <= m.start and f.end > m.end for f in found)


_MIDDLE_NAMES_MAX = 2


def _middle_names(
    tokens: Sequence[Token],
    m: Mention,
    allowed: frozenset[str],
    pairs: frozenset[tuple[str, str]],
) -> tuple[int, int] | None:
    """The span of a person's two-word name with up to two middle names a reply adds ("Carl
    Gustaf Mosander" for Carl Mosander), where the short name ``m`` is the name's last word and
    nothing but the name's first word and capitalised words of two letters or more stand
    before it (none after it); None otherwise. Only for a name of two words: a middle name
    added to one that has its own ("George Walker Bush" for George H. W. Bush) may name
    another person."""
    if m.end - m.start != 1 or not pairs:
        return None
    last = tokens[m.start].norm
    clause = tokens[m.start].clause
    right = _isolated(tokens, Mention(m.start, m.end, m.owner, m.negated), allowed, left=False)
    if right is None:
        return None
    for k in range(1, _MIDDLE_NAMES_MAX + 1):
        first = m.start - k - 1
        if first < 0:
            return None
        middle = tokens[first + 1 : m.start]
        if any(
            t.clause != clause
            or not t.word
            or not t.raw[:1].isupper()
            or len(t.norm) < 2
            or t.norm in _NAME_NEIGHBOURS
            or t.norm in _TITLE_WORDS
            for t in middle
        ):
            return None
        head = tokens[first]
        if head.clause == clause and (head.norm, last) in pairs:
            before = tokens[first - 1] if first > 0 else None
            if (
                before is not None
                and before.clause == clause
                and before.raw[:1].isupper()
                and before.norm not in _NAME_NEIGHBOURS | _TITLE_WORDS
            ):
                return None  # another name before it
            return first, right[1]
    return None


@lru_cache(maxsize=4096)
def _two_word_names(groups: tuple[tuple[str, ...], ...]) -> frozenset[tuple[str, str]]:
    """(first word, last word) of each true name of two words, no particle among them."""
    out = set()
    for group in groups:
        for name in group:
            words = name_tokens(name)[0]
            if len(words) == 2 and not set(words) & PARTICLES:
                out.add((words[0], words[1]))
    return frozenset(out)


def _echoed(
    tokens: Sequence[Token],
    runs: Sequence[tuple[int, int]],
    found: Sequence[Mention],
    subject: tuple[str, ...],
) -> set[tuple[int, int]]:
    """Spans of mentions that only repeat the question: inside a run of its words (``runs``:
    `_echo_runs`), the name of the subject ("The capital of Djibouti.") or one of several
    options the question lists and the reply reads back in its order."""
    if not runs:
        return set()
    subject_spans = (
        {(a, b) for a, b, _ in _truth_table((subject,)).matches(tokens)} if subject else set()
    )
    out = set()
    for start, end in runs:
        inside = [m for m in found if start <= m.start and m.end <= end]
        spans = {(m.start, m.end) for m in inside}
        if len(spans) >= 2:
            out.update(spans)
        else:
            out.update(span for span in spans if span in subject_spans)
    return out


ECHO_MIN_TOKENS = 3
"""A run of this many tokens as in the question is an echo of it, not an answer."""


def _echo_runs(tokens: Sequence[Token], asked: Sequence[Token]) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of at least `ECHO_MIN_TOKENS` reply tokens that the question
    has in the same order ("the capital of Djibouti")."""
    if len(asked) < ECHO_MIN_TOKENS:
        return []
    words = [t.norm for t in asked]
    where: dict[str, list[int]] = {}
    for j, word in enumerate(words):
        where.setdefault(word, []).append(j)
    runs: list[tuple[int, int]] = []
    n = len(tokens)
    for i in range(n):
        longest = 0
        for j in where.get(tokens[i].norm, ()):
            k = 1
            while i + k < n and j + k < len(words) and tokens[i + k].norm == words[j + k]:
                k += 1
            longest = max(longest, k)
        if longest >= ECHO_MIN_TOKENS and not any(a <= i and i + longest <= b for a, b in runs):
            runs.append((i, i + longest))
    return runs


def _echo(runs: Sequence[tuple[int, int]]) -> set[int]:
    """Positions of the reply's tokens inside the echo runs (`_echo_runs`)."""
    return {i for start, end in runs for i in range(start, end)}


def _isolated(
    tokens: Sequence[Token], m: Mention, allowed: frozenset[str], *, left: bool = True
) -> tuple[int, int] | None:
    """Whether a short name ("Macron", "King Salman") stands alone: the capitalised words and
    name particles right around it in its clause are words of the true answer's names
    ("Donald Trump" for Donald J. Trump) or their other spellings (`_spelled_like`), none of
    another name ("Brigitte Macron"): the span of the name with those words, or None. Without
    ``left`` only the words after it are looked at."""
    clause = tokens[m.start].clause
    span = [m.start, m.end]
    sides = ((-1, m.start - 1), (1, m.end)) if left else ((1, m.end),)
    for step, i in sides:
        while 0 <= i < len(tokens) and tokens[i].clause == clause and tokens[i].word:
            tok = tokens[i]
            particle = tok.norm in PARTICLES
            if not (particle or tok.raw[:1].isupper()) or (
                not particle
                and (
                    tok.norm in _NAME_NEIGHBOURS
                    or tok.norm in _TITLE_WORDS
                    or _a_foreign_title(tok.norm)
                )
            ):
                break
            if tok.norm not in allowed and not _spelled_like(tok.norm, allowed):
                return None
            if step < 0:
                span[0] = i
            else:
                span[1] = i + 1
            i += step
    return span[0], span[1]


_TITLE_WORDS = frozenset(w for title in TITLES for w in title.split())
"""Words of titles, which belong to no name ("Prime Minister Benjamin Netanyahu")."""


_SHORT_FORM_MIN_CHARS = 3


def _spelled_like(word: str, allowed: frozenset[str]) -> bool:
    """Whether a word is another spelling of a word of the true names: the same first letter
    and at least 0.8 alike ("Benjamin" for "Benyamin" Netanyahu), at least four letters; or
    (rules 13) its short form, its first `_SHORT_FORM_MIN_CHARS` letters or more ("Chris" for
    Christopher, beside the surname)."""
    if len(word) >= _SHORT_FORM_MIN_CHARS and any(
        len(w) > len(word) and w.startswith(word) for w in allowed
    ):
        return True
    return len(word) >= 4 and any(
        w[:1] == word[:1]
        and len(w) >= 4
        and (
            (ratio := SequenceMatcher(None, word, w).ratio()) >= 0.8
            or (ratio >= _SKELETON_RATIO and _skeleton(word) == _skeleton(w))
        )
        for w in allowed
    )


_SKELETON_RATIO = 0.7
_VOWELS = frozenset("aeiouy")


def _skeleton(word: str) -> str:
    """Rules 18: a word's consonants in order, a doubled one once: romanisations of one name
    differ in their vowels and doubled letters ("Mohammed", "Muhammad": "mhmd")."""
    out: list[str] = []
    for c in word:
        if c not in _VOWELS and (not out or out[-1] != c):
            out.append(c)
    return "".join(out)


_NAME_NEIGHBOURS = frozenset(
    {"the", "a", "an", "is", "it", "he", "she", "his", "her", "its", "i", "and", "or", "in",
     "of", "as", "was", "has", "currently", "answer", "yes", "no", "mr", "mrs", "ms", "dr",
     "sir", "majesty", "highness", "excellency", "im", "id", "ill", "ive", "maybe", "perhaps",
     "possibly", "probably", "likely", "surely", "certainly", "definitely", "w", "we", "v",
     "ve"}
)  # fmt: skip
"""Capitalised words that belong to no name (a sentence may start with them; "I'd", "I'll";
rules 20: "in" of Polish, Czech, Slovak and Slovene, "W Warszawie")."""

_STRONG_CORRECTIONS = (
    ("sorry", "i", "mean"),
    ("sorry", "i", "meant"),
    ("correction",),
    ("final", "answer"),
    ("scratch", "that"),
    ("my", "mistake"),
    ("no", "wait"),
    ("or", "rather"),
    ("let", "me", "correct"),
    ("on", "second", "thought"),
    ("correct", "myself"),
    ("actually", "its"),
    ("actually", "it", "is"),
    ("actually", "it", "was"),
    ("actually", "i", "think"),
    ("actually", "i", "believe"),
)
"""Words after which the reply takes back what it said: what follows is its answer (rules 10:
"final answer"; rules 11: "actually it was", as "actually it is")."""
_TAKING_BACK = (
    ("strike", "that"),
    ("make", "that"),
    ("let", "me", "rephrase"),
    ("let", "me", "revise"),
    ("let", "me", "restate"),
    ("let", "me", "rethink"),
    ("let", "me", "try", "again"),
    ("i", "stand", "corrected"),
    ("i", "should", "say"),
    ("i", "should", "have", "said"),
    ("i", "misspoke"),
    ("i", "mixed"),
    ("i", "confused"),
    ("i", "was", "confusing"),
    ("i", "got", "that", "wrong"),
    ("i", "got", "it", "wrong"),
    ("i", "was", "wrong"),
    ("my", "bad"),
    ("my", "error"),
    ("i", "take", "that", "back"),
    ("i", "retract"),
    ("hang", "on"),
    ("erratum",),
    ("edit",),
    ("disregard", "that"),
    ("ignore", "that"),
    ("forget", "that"),
    ("je", "voulais", "dire"),
    ("je", "veux", "dire"),
    ("quise", "decir"),
    ("queria", "decir"),
    ("quiero", "decir"),
    ("volevo", "dire"),
    ("quis", "dizer"),
    ("queria", "dizer"),
    ("ich", "meine"),
    ("ich", "meinte"),
    ("ich", "wollte", "sagen"),
    ("ik", "bedoel"),
    ("ik", "bedoelde"),
    ("chodzilo", "mi", "o"),
    ("mialem", "na", "mysli"),
    ("mialam", "na", "mysli"),
    ("myslel", "jsem"),
    ("myslela", "jsem"),
    ("myslel", "som"),
    ("myslela", "som"),
    ("jag", "menade"),
    ("jeg", "mente"),
    ("tarkoitin",),
    ("ugy", "ertem"),
    ("am", "vrut", "sa", "spun"),
    ("demek", "istedim"),
    ("maksud", "saya"),
    ("maksudku",),
    ("y", "toi", "la"),
    ("revised",),
    ("то", "есть"),
    ("correcting", "myself"),
    ("id", "revise"),
    ("i", "would", "revise"),
    ("yani",),
    ("on", "checking"),
    ("on", "closer", "inspection"),
    ("on", "second", "look"),
    ("need", "to", "correct"),
    ("have", "to", "correct"),
    ("myslim",),
    ("mislim",),
    ("имам", "предвид"),
    ("imam", "predvid"),
)
"""Words of a speaker taking their words back (rules 13: "strike that", "let me rephrase", "I
stand corrected", "I should say", "I confused it with", "my bad"; rules 14: "hang on", "edit:",
"erratum", "disregard that", "d'oh", "I meant" in French, Spanish, Italian, Portuguese, German
and Dutch; rules 15: "[Revised]", Russian "то есть"; not "more precisely" or "strictly
speaking", which narrow an answer: "Canberra — more precisely, the ACT"; rules 17: "correcting
myself", "I'd revise", Turkish "yani", "on checking", "on closer inspection"; rules 19: "I
need to correct that", Czech, Slovak and Serbo-Croatian "I mean" ("myslím", "mislim") and
Bulgarian "имам предвид" (and its Latin letters), where a candidate follows; rules 18: "I
meant" in Polish, Czech, Slovak, the Nordic languages, Finnish, Hungarian, Romanian, Turkish,
Indonesian and Vietnamese): a correction only
where what follows them offers an answer (`_offered_back`: rules 14), not in "Canberra, I should
say, is the capital" or "Forget that Sydney is bigger"."""
_UPDATES = (("update",),)
"""Rules 20: a word that brings newer facts takes back what came before where what follows
gives a candidate as the answer now (`_updated_to`: "Donald Trump. Update: Joe Biden is the
president now."), not where it gives none ("Canberra. Update: no change since 1913.") or tells
of another ("Canberra. Update: Sydney is still the biggest city.")."""
_NEWER = frozenset({"now", "currently", "current", "again", "instead", "today", "since"})
"""Words by which a clause gives its candidate as the answer now."""


def _updated_to(
    tokens: Sequence[Token], end: int, found: Sequence[Mention], relation: frozenset[str]
) -> bool:
    """Rules 20: whether what follows an update's word at ``end`` opens (after a stop and
    articles) with a candidate (a mention, or capitalised words) whose clause, going on with a
    verb, has the question's relation words or a word of `_NEWER`."""
    start = end
    while start < len(tokens) and tokens[start].norm in _ARTICLES:
        start += 1
    if (
        start >= len(tokens)
        or tokens[start].clause == tokens[end - 1].clause
        or tokens[start].norm in _AFTER_A_DENIAL
    ):
        return False  # "Update your records ...", "Update: I'm not sure whether ..."
    mention = next((m for m in found if m.start == start and not m.negated), None)
    stop = start
    while stop < len(tokens) and tokens[stop].word and tokens[stop].raw[:1].isupper():
        stop += 1
    if mention is None and stop == start:
        return False
    rest = _clause_told(tokens, mention or Mention(start, stop, 0, False))
    return rest is not None and bool(rest & (relation | _NEWER))


_MEANING = (
    ("i", "mean"),
    ("i", "meant"),
    ("i", "mean", "to", "say"),
    ("i", "meant", "to", "say"),
)
"""Rules 20: "I mean" takes back what came before only where what follows offers an answer
(`_offered_back`) or names a candidate the tables know ("Sydney, I mean Canberra"), not where it
says more about the answer ("Canberra; I meant to add that it was purpose-built.", "Bern (I meant
the city, not the canton)")."""
_WEAK_CORRECTIONS = (
    ("actually",),
    ("in", "fact"),
    ("but", "it", "is"),
    ("but", "its"),
    ("but", "it", "was"),
    ("but", "the", "answer", "is"),
    ("but", "the", "correct", "answer", "is"),
    ("but", "really"),
    ("id", "go", "with"),
    ("ill", "go", "with"),
    ("i", "would", "go", "with"),
    ("i", "will", "go", "with"),
    ("id", "pick"),
    ("ill", "pick"),
    ("if", "i", "had", "to", "pick"),
    ("if", "i", "had", "to", "choose"),
    ("my", "answer", "is"),
    ("my", "final", "answer", "is"),
    ("reconsider",),
    ("on", "reflection"),
    ("come", "to", "think", "of", "it"),
    ("now", "its"),
    ("now", "it", "is"),
)
"""Words that may correct: what follows is the answer when it names a candidate (rules 9:
"I'd reconsider", "on reflection", "come to think of it"; rules 20: "now it's", after what held
before: "Canberra was the capital until 2020; now it's Sydney.")."""
_OR_RATHER = (
    ("mejor", "dicho"),
    ("o", "meglio"),
    ("ou", "melhor"),
    ("ou", "plutot"),
    ("oder", "besser", "gesagt"),
    ("oder", "vielmehr"),
    ("beter", "gezegd"),
    ("of", "liever"),
    ("a", "wlasciwie"),
    ("eller", "snarare"),
    ("eller", "rettere", "sagt"),
    ("tai", "oikeastaan"),
)
"""Rules 18: "or rather" in Spanish, Italian, Portuguese, French, German, Dutch, Polish, the
Nordic languages and Finnish; rules 19: they narrow an answer as often as they correct it
("Deutschland, oder besser gesagt Süddeutschland"), so they take it back only for a name the
tables know ("Kraków, a właściwie Warszawa"; rules 20: or a place's English name, `_a_place`:
"Canberra, ou plutôt Sydney")."""


_DENIAL_CLAUSES = (
    ("不", "对"),
    ("不", "對"),
    ("い", "え"),
    ("い", "い", "え"),
    ("아", "니"),
    ("아", "니", "요"),
)
"""Rules 17: Chinese "不对" (wrong), Japanese "いえ", "いいえ" and Korean "아니", "아니요" (no),
written a letter a token: standing as a clause of their own after the reply's first clause
("東京… いえ、京都です。", "Dodoma. 不对，是达累斯萨拉姆。"), they take back what came before, and
what follows is the answer, as after a strong correction."""


_MARKERS_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _marker in (
    *_STRONG_CORRECTIONS,
    *_MEANING,
    *_UPDATES,
    *_WEAK_CORRECTIONS,
    *_OR_RATHER,
    *_TAKING_BACK,
    *_DENIAL_CLAUSES,
):
    _MARKERS_BY_FIRST.setdefault(_marker[0], []).append(_marker)


@lru_cache(maxsize=4096)
def _question_tokens(question: str) -> tuple[Token, ...]:
    """A question's tokens, worked out once (a run asks each question many times)."""
    return tokenize(question)


_RETRACTING_ELSEWHERE = frozenset(
    {"przepraszam", "entschuldigung", "scusa", "scusate", "scusi", "desculpa", "desculpe",
     "disculpa", "disculpe", "excusez", "izvini", "izvinite", "oprostite", "prominte",
     "anteeksi", "bocsanat", "forlat", "undskyld", "beklager", "maaf", "samahani", "nie", "nei",
     "hayir"}
)  # fmt: skip
"""Rules 18: "sorry" and "no" in more languages, written as one word (Polish "przepraszam",
German "Entschuldigung", Italian "scusa", Polish "nie", Norwegian "nei", Turkish "hayır")."""
_ALSO_NOT = frozenset({"nie"})
"""Words of `_RETRACTING_ELSEWHERE` that also mean "not": they take back only as a clause of
their own ("Sydney, nie, Canberra"; not "Canberra, nie Sydney")."""
_RETRACTING_SINCE_14 = frozenset(
    {"doh", "nope", "nein", "nej", "pardon", "perdon", *_RETRACTING_ELSEWHERE}
)
"""Retracting words of rules 14, 15, 17 and 18: they take a candidate back only where what follows
offers an answer as `_offered_back` reads it ("Nope — Canberra."; not "Nope — Sydney is just the
biggest city.")."""
_RETRACTING = frozenset({"no", "sorry", "wait", "oops", "whoops", *_RETRACTING_SINCE_14})
"""Words that, opening a clause right after a candidate ("Solid — sorry, liquid.", "Period 5...
no, period 6.", "Hanoi. Wait, or is it ..."; rules 15: "nope", and "no" in German and the Nordic
languages; not Dutch "nee", which folds like "née"; rules 17: "pardon", Spanish "perdón"; rules
18: `_RETRACTING_ELSEWHERE`), take that candidate back when what follows offers another
(`_retracted`)."""


_INTERJECTIONS = frozenset({"actually", "er", "erm", "um", "uh", "hmm", "oh", "ah", "well", "anzi"})
"""Words that may come before a retracting word in its clause ("Ararat... actually no, ...";
rules 15: Italian "anzi no")."""


def _opens_clause(tokens: Sequence[Token], i: int) -> bool:
    """Whether token ``i`` opens its clause, but for interjections before it."""
    j = i - 1
    while j >= 0 and tokens[j].clause == tokens[i].clause:
        if tokens[j].norm not in _INTERJECTIONS:
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
        and t.norm not in _NAME_NEIGHBOURS
        and i > 0
        and tokens[i - 1].sentence == t.sentence
        and not _denied(tokens, i, i + 1)
        for i, t in enumerate(tokens[start:], start)
    )


_DENYING = frozenset({"not", "nicht", "niet", "inte", "ikke", "never"})
"""Words that deny the name right after them ("nope, not Istanbul", "nein, nicht Sydney")."""
_DENIED_AFTER = frozenset({"isnt", "wasnt", "not", "niet", "nicht", "inte", "ikke"})
"""Words that, after a name and a verb of being, deny it ("Istanbul isn't the capital",
"Sydney is het niet")."""


def _denied(tokens: Sequence[Token], start: int, end: int) -> bool:
    """Rules 15: whether the name at ``start:end`` is denied: by "not" (or the German, Dutch or
    Nordic word) right before it, or by its clause after it ("Istanbul isn't the capital",
    "Sydney is not it")."""
    if (start > 0 and tokens[start - 1].norm in _DENYING) or negated(tokens, start):
        return True
    clause = tokens[start].clause
    return any(t.norm in _DENIED_AFTER for t in tokens[end:] if t.clause == clause)


def _retracted(
    tokens: Sequence[Token],
    found: Sequence[Mention],
    asked: frozenset[str],
    relation: frozenset[str] = frozenset(),
) -> tuple[int, int]:
    """The last clause-opening "no", "sorry" or "wait" (`_RETRACTING`) after a candidate named,
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
        if tok.norm not in _RETRACTING or (
            tok.norm in _ALSO_NOT and i + 1 < len(tokens) and tokens[i + 1].clause == tok.clause
        ):
            continue  # Polish "nie Sydney" is "not Sydney"
        end = i + 1
        while end < len(tokens) and tokens[end].norm in _RETRACTING:
            end += 1  # "no, sorry, Scotland"
        if end >= len(tokens) or not any(m.end <= i and not m.negated for m in found):
            continue
        if tok.norm in _DENIALS and _denial_about_else(tokens, i, end, found, asked, relation):
            continue  # rules 20: "Canberra. No, I don't remember who designed it — ..."
        if tok.norm == "no" and _a_determiner(tokens, i):
            continue  # rules 20: "Canberra. Update: no change since 1913."
        offered = (
            _offered_back(tokens, end, found)
            if tok.norm in _RETRACTING_SINCE_14
            else _offers_candidate(tokens, found, end, asked)
        )
        if offered:
            best = (i, end)
    return best


_DENIALS = frozenset({"no", "nope", "nein", "nej"})
"""Words of denial that, standing as a clause of their own, take back what came before."""


_AFTER_A_DENIAL = frozenset(
    {"it", "its", "i", "im", "id", "ive", "the", "that", "thats", "this", "sorry", "wait",
     "actually", "not", "way", "no", "nope", "oops", "that's", "they", "he", "she", "we", "you"}
)  # fmt: skip
"""Words a "no" that denies may run on into without a comma ("No it's Canberra", "no wait")."""


def _a_determiner(tokens: Sequence[Token], i: int) -> bool:
    """Rules 20: whether the "no" at ``i`` is a determiner before a word in lower case of its
    clause that is no pronoun, article or interjection ("no change since 1913", "no doubt"):
    it denies nothing said before."""
    if i + 1 >= len(tokens) or tokens[i + 1].clause != tokens[i].clause:
        return False
    after = tokens[i + 1]
    return after.word and after.raw[:1].islower() and after.norm not in _AFTER_A_DENIAL


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
    said = _NOT_KNOWING.search(" ".join(clause)) or _NOT_SURE.search(" ".join(clause))
    if said is not None:
        after = re.findall(r"\w+", " ".join(clause)[said.end() :].casefold())
        return any(w not in _GENERIC_OBJECT and w not in asked for w in after)
    start = end
    while start < len(tokens) and tokens[start].norm in _ARTICLES:
        start += 1
    first = next((m for m in found if m.start == start), None)
    stop = start
    while stop < len(tokens) and tokens[stop].word and tokens[stop].raw[:1].isupper():
        stop += 1  # a name no table knows ("Sydney" of a table of capitals)
    if first is None and stop == start:
        return False
    rest = _clause_told(tokens, first or Mention(start, stop, 0, False))
    return rest is not None and bool(rest & _LESSER) and not rest & relation


def _doubted(tokens: Sequence[Token], at: int) -> bool:
    """Rules 20: whether the sentence at ``at`` says, before "whether" or "if", that the speaker
    is not sure or does not know ("Update: I'm not certain whether Keir Starmer took over."):
    what it names after is wondered about, not given."""
    sentence = [t for t in tokens if t.sentence == tokens[at].sentence]
    words = [t.norm for t in sentence]
    at_word = next((k for k in range(len(words)) if k and words[k] in ("whether", "if")), None)
    if at_word is None:
        return False
    said = " ".join(t.raw for t in sentence[:at_word])
    return _NOT_SURE.search(said) is not None or _NOT_KNOWING.search(said) is not None


_NOT_SURE = re.compile(r"\bi(?:'m|’m|\s+am)\s+(?:\w+\s+)?not\s+(?:sure|certain)\b", re.IGNORECASE)
"""The speaker saying they are not sure (of what follows)."""


def _withdrawn_and_declined(
    tokens: Sequence[Token], found: Sequence[Mention], asked: frozenset[str]
) -> bool:
    """Rules 18: whether a "no" standing as a clause of its own after a candidate takes it back
    and what follows names nothing, offers no candidate (`_offers_candidate`) and says it does
    not know ("Luang Prabang — no, that's the old royal capital. I honestly don't know the
    current one."; not "Canberra. No, I don't think it's Sydney."; rules 19: not where what it
    does not know is something else, `_bare_not_knowing`): the reply is refused."""
    for i in range(1, len(tokens)):
        if (
            tokens[i].norm not in _DENIALS
            or not _opens_clause(tokens, i)
            or (i + 1 < len(tokens) and tokens[i + 1].clause == tokens[i].clause)
            or any(m.end > i for m in found)
            or _offers_candidate(tokens, found, i + 1, asked)
        ):
            continue
        rest = " ".join(t.raw for t in tokens[i + 1 :])
        if rest and _bare_not_knowing(rest, asked) and not _guesses(rest):
            return True
    return False


_GENERIC_OBJECT = frozenset(
    {"the", "a", "an", "it", "that", "this", "one", "answer", "current", "actual", "right",
     "correct", "real", "present", "new", "now", "today", "anymore", "either", "for", "sure",
     "honestly", "really"}
)  # fmt: skip
"""Words after a verb of not knowing that give it no object of its own ("I don't know the
current one"; not "I don't know its population")."""
_SHORT_REFUSAL_WORDS = 4


def _bare_not_knowing(rest: str, asked: frozenset[str]) -> bool:
    """Rules 19: whether what follows a denial says the speaker does not know the answer itself:
    a sentence whose "I don't know" (or cannot say, tell, recall) has no object but the
    question's own words and generic ones ("I honestly don't know the current one."), or a short
    refusal ("No idea."); not "I don't know its population offhand" or "I can't imagine it
    moving", which say nothing against the answer given."""
    if len(rest.split()) <= _SHORT_REFUSAL_WORDS and (is_refusal(rest) or _knows_not(rest)):
        return True
    for sentence in re.split(r"[.!?;\n]+", rest):
        found = _NOT_KNOWING.search(sentence)
        if found is None:
            continue
        after = re.findall(r"\w+", sentence[found.end() :].casefold())
        if all(w in _GENERIC_OBJECT or w in asked for w in after):
            return True
    return False


_NOT_KNOWING = re.compile(
    r"\bi\s+(?:\w+\s+)?(?:do\s+not|don't|dont|cannot|can't|cant)\s+(?:\w+\s+)?"
    r"(?:know|say|tell|recall|remember)\b",
    re.IGNORECASE,
)
"""The speaker saying they do not know or cannot say, an adverb maybe inside ("I honestly don't
know")."""


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
            if tokens[k].norm not in _COPULAS:
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
    words = [w for w in after if w not in _ARTICLES]
    return (
        named
        and copula > start
        and bool(words)
        and all(w in relation or w in _RIGHT for w in words)
        and bool(set(words) & relation)
    )


def _correction(
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
    clause (`_DENIAL_CLAUSES`), as after a strong marker, and at a name the reply ends on that it
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
    ):
        if other[1] > best[1]:
            best = other
    for i in range(1, len(norms)):
        for marker in _MARKERS_BY_FIRST.get(norms[i], ()):
            end = i + len(marker)
            if tuple(norms[i:end]) != marker or end >= len(norms):
                continue
            if marker in _UPDATES:
                if _updated_to(tokens, end, found, relation) and end > best[1]:
                    best = (i, end)  # rules 20: "Donald Trump. Update: Joe Biden is ..."
                continue
            if marker in _MEANING:
                named = any(m.start >= end and not m.negated for m in found)
                if (named or _offered_back(tokens, end, found)) and end > best[1]:
                    best = (i, end)
                continue
            if marker in _TAKING_BACK:
                if _offered_back(tokens, end, found) and end > best[1]:
                    best = (i, end)
                continue
            if marker in _DENIAL_CLAUSES and not _a_clause_alone(tokens, i, end):
                continue
            if marker in _OR_RATHER:
                named = any(m.start >= end and not m.negated for m in found)
                if (named or _a_place(tokens[end:])) and end > best[1]:
                    best = (i, end)  # rules 20: a place's English name ("ou plutôt Sydney")
                continue
            strong = (
                marker in _STRONG_CORRECTIONS
                or marker in _DENIAL_CLAUSES
                or _only_a_name(tokens[end:])
                or _only_a_name(_after_it_was(tokens[end:]))
                or _name_restating(tokens[end:], relation)
                or _opinion_naming(tokens[end:])
            )
            if (
                strong
                and any(t.word for t in tokens[end:])
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
        if not words or words[0] not in _COPULAS:
            continue
        rest = [w for w in words[1:] if w not in _ARTICLES]
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


_BACK_FILLERS = frozenset({"that", "this", "it", "myself", "to"})
"""Words that may stand between a taking-back marker and the answer ("let me revise that:";
rules 17: "I'd revise that to")."""
_CONCLUDING = frozenset({"so", "thus", "hence", "therefore"})
"""Words that may open the last clause, the answer a taking-back marker offers ("on checking,
..., so Great Britain")."""
_BACK_TAIL = frozenset({"now", "today", "instead", "then"})
"""Words that may follow the answer a taking-back marker offers ("it's Erna Solberg now")."""
_BACK_BEFORE = frozenset({"is", "was", "its", "be"})
"""Words right before an answer that ends what follows the marker ("the capital is Sydney")."""
_CHANGED_TO = frozenset({"switched", "changed", "moved", "converted", "renamed", "went"})
"""Verbs of change before "to" and an answer that ends what follows the marker ("they switched
to the Australian dollar"; not "it is close to Sydney")."""


def _offered_back(tokens: Sequence[Token], end: int, found: Sequence[Mention]) -> bool:
    """Rules 14: whether what follows a taking-back marker from ``end`` offers an answer: after
    `_BACK_FILLERS`, or in its last clause (after "so": rules 17), only a name
    (`_a_name_with_particles`), "it was" and a name, or only a mention the tables know ("solid",
    "1957"); or (rules 17) its first clause is only a name and the next opens with a relative
    word ("I'd revise that to Norway, where ..."); or it ends on a mention right
    after "is" or
    "was", or "to" after a verb of change ("Edit: they switched to the Australian dollar."). Not
    in a sentence with "if" ("If you meant the largest city, I should say Sydney.")."""
    sentence = tokens[end - 1].sentence
    if any(t.norm == "if" and t.sentence == sentence for t in tokens[:end]):
        return False  # "If you meant the largest city, I should say Sydney."
    stop = len(tokens)
    while stop > end + 1 and tokens[stop - 1].norm in _BACK_TAIL:
        stop -= 1
    tail = list(tokens[end:stop])
    while len(tail) > 1 and tail[0].norm in _BACK_FILLERS:
        tail = tail[1:]
    last = [t for t in tokens[end:stop] if t.clause == tokens[stop - 1].clause]
    while len(last) > 1 and last[0].norm in _CONCLUDING:
        last = last[1:]
    head = [t for t in tail if t.clause == tail[0].clause] if tail else []
    if (
        0 < len(head) < len(tail)
        and tail[len(head)].norm in _RELATIVES
        and _a_name_with_particles(head)
    ):
        return True  # rules 17: a name and a relative clause about it ("Norway, where ...")
    for seq in (tail, last):
        if not seq or seq[0].norm in _DENYING:
            continue  # "Nope. Not Sydney."
        if _a_name_with_particles(seq) or _a_name_with_particles(_after_it_was(seq)):
            return True
        first = stop - len(seq)
        while first < stop and (
            tokens[first].norm in _ARTICLES or tokens[first].norm in _FOREIGN_ARTICLES
        ):
            first += 1  # rules 20: "nein, Entschuldigung, der Schweizer Franken"
        if any(m.start == first and m.end == stop and not m.negated for m in found):
            return True
    for m in found:
        if m.end == stop and m.start > end and not m.negated:
            before = m.start - 1
            while before > end and tokens[before].norm in _ARTICLES:
                before -= 1
            if tokens[before].norm in _BACK_BEFORE or (
                tokens[before].norm == "to" and tokens[before - 1].norm in _CHANGED_TO
            ):
                return True
    return False


def _a_name_with_particles(seq: Sequence[Token]) -> bool:
    """`_only_a_name`, name particles inside left out ("Ojos del Salado")."""
    inner = tuple(
        t for k, t in enumerate(seq) if not (0 < k < len(seq) - 1 and t.norm in _INNER_PARTICLES)
    )
    return _only_a_name(inner)


def _after_it_was(tail: Sequence[Token]) -> Sequence[Token]:
    """Rules 14: what follows "it was", "it is" or "it's" opening a correction's words ("on
    reflection, it was Berzelius"); nothing when they do not open them."""
    if len(tail) >= 2 and tail[0].norm == "it" and tail[1].norm in _COPULAS:
        return tail[2:]
    if tail and tail[0].norm == "its":
        return tail[1:]
    return ()


def _only_a_name(tail: Sequence[Token]) -> bool:
    """Whether what follows a correction is only a name ("actually, the Deutsche Mark.")."""
    words = [t for t in tail if t.norm not in _ARTICLES]
    return 0 < len(words) <= 4 and all(t.word and t.raw[:1].isupper() for t in words)


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
    if not k or k >= len(tail) or tail[k].norm not in _COPULAS:
        return False
    rest = {t.norm.removesuffix("s") for t in tail[k + 1 :] if t.sentence == tail[k].sentence}
    return bool(rest & relation)


_DECLINES = re.compile(
    r"(?=[iadtuwbnchesl])(?:"  # the first letters of the alternatives: a fast search (`_REFUSAL`)
    r"\b(?:information|answer|data|details|it|this|that)\s+(?:is|are|was|remains)\s+"
    r"(?:not|n't|never)\s+(?:\w+\s+){0,2}?(?:available|known(?!\s+(?:to|as|for)\b)|certain|"
    r"clear|public|disclosed|recorded|documented|determined|specified)\b|"
    r"\b(?:unknown|unclear|undetermined|undisclosed|unavailable)\b|"
    r"\b(?:i|we)\s+(?:lack|have\s+no)\s+(?:the\s+|any\s+|enough\s+)?(?:information|data|"
    r"knowledge|details|access)\b|\bbeyond\s+(?:my|what\s+i)\b|"
    r"\bno\s+way\s+(?:for\s+me\s+)?to\s+(?:know|tell|say)\b|"
    r"\b(?:cannot|can't|could\s*not|couldn't)\s+be\s+(?:determined|answered|found|confirmed|"
    r"verified|known|said)\b|\bi'?m\s+afraid\b|\b(?:would|will)\s+(?:need|have)\s+to\s+"
    r"(?:check|look)\b|\bhard\s+to\s+say\b|\bnot\s+something\s+i\b|"
    r"\b(?:escapes|eludes|stumps|beats)\s+me\b|\bstumped\b|"
    r"\bsit\s+(?:this|that)(?:\s+one)?\s+out\b|\bleave\s+it\s+(?:there|at\s+that)\b|"
    r"\bcan(?:'?t|not)\s+place\s+(?:it|that|this|them)\b|"
    r"\b(?:not|haven'?t|have\s+not|hasn'?t)\s+(?:got\s+)?(?:the\s+|a\s+)?(?:faintest|foggiest|"
    r"slightest|remotest)\b|\b(?:no|not\s+a|haven'?t\s+(?:got\s+)?a)\s+clue\b|"
    r"\b(?:be|been|am|i'?m)\s+(?:just\s+|only\s+|simply\s+)?(?:making\s+(?:it|that|this|one|"
    r"something|things)\s+up|making\s+up|inventing|fabricating)\b)|"
    r"^\W*no\s+(?:\w+\s+)?(?:information|data|records?|answer)\W*$",
    re.IGNORECASE,
)
"""Words that decline where the reply names no candidate (rules 17: the speaker would be
making an answer up, "I'd be making it up.", "I'd only be inventing one")."""


_DONT_KNOW_WORDS = {
    "French": r"je\s+ne\s+(?:le\s+)?sais\s+pas|je\s+ne\s+saurais\s+(?:pas\s+)?(?:vous\s+|te\s+)?(?:le\s+)?dire|"
    r"je\s+l'ignore|je\s+n'en\s+sais\s+rien|aucune\s+id[ée]e",
    "Spanish": r"(?:yo\s+)?no\s+(?:lo\s+)?s[ée]|no\s+sabr[íi]a(?:\s+decir(?:lo)?)?|no\s+tengo\s+(?:ni\s+)?idea|"
    r"ni\s+idea|lo\s+siento|desconozco",
    "Portuguese": r"(?:eu\s+)?n[ãa]o\s+(?:o\s+)?sei|n[ãa]o\s+saberia(?:\s+dizer)?|n[ãa]o\s+fa[çc]o\s+ideia|"
    r"desconhe[çc]o",
    "Italian": r"(?:io\s+)?non\s+(?:lo\s+)?so|non\s+saprei(?:\s+dir(?:e|lo))?|non\s+ne\s+ho\s+idea",
    "German": r"(?:ich\s+)?wei(?:ß|ss)\s+(?:es\s+|das\s+)?(?:leider\s+)?nicht|"
    r"(?:das\s+|es\s+)?wei(?:ß|ss)\s+ich\s+(?:es\s+|das\s+)?(?:leider\s+)?nicht|keine\s+ahnung|"
    r"(?:das\s+|es\s+)?kann\s+ich\s+(?:leider\s+)?nicht\s+sagen",
    "Dutch": r"(?:ik\s+)?weet\s+(?:het\s+)?niet|(?:dat\s+)?weet\s+ik\s+niet|geen\s+idee",
    "Scandinavian": r"(?:jag\s+)?vet\s+(?:det\s+)?(?:tyvärr\s+)?inte|(?:det\s+)?vet\s+jag\s+(?:tyvärr\s+)?inte|"
    r"ingen\s+(?:aning|anelse)|(?:jeg\s+)?(?:ved|vet)\s+(?:det\s+)?(?:desværre\s+|dessverre\s+)?ikke|"
    r"(?:det\s+)?(?:ved|vet)\s+jeg\s+(?:desværre\s+|dessverre\s+)?ikke",
    "Finnish, Hungarian, Romanian": r"(?:min[äa]\s+|sit[äa]\s+)?en\s+tied[äa]|ei\s+(?:mit[äa][äa]n\s+)?aavistustakaan|"
    r"(?:[ée]n\s+|ezt\s+|azt\s+)?nem\s+tudom|fogalmam\s+sincs|(?:eu\s+)?nu\s+[șşs]tiu|habar\s+n-am|n-am\s+habar|"
    r"nu\s+am\s+(?:nicio\s+)?idee",
    "Polish, Czech, Slovak": r"(?:ja\s+|tego\s+|to\s+)?nie\s+wiem|nie\s+mam\s+poj[ęe]cia|"
    r"(?:to\s+|já\s+|ja\s+)?(?:nev[íi]m|neviem)|"
    r"nem[áa]m\s+(?:pon[ěe]t[íi]|tu[šs]en[íi]e|ani\s+pon[ěe]t[íi])",
    "Turkish": r"(?:ben\s+|bunu\s+)?bilmiyorum|bilemiyorum|bilemem|hi[çc]\s*bir\s+fikrim\s+yok",
    "Vietnamese, Indonesian, Malay": r"(?:t[ôo]i\s+)?kh[ôo]ng\s+bi[ếe]t|"
    r"(?:saya\s+|aku\s+)?(?:tidak|tak|nggak|gak)\s+(?:tahu|pasti|yakin)|entahlah",
    "Swahili, Tagalog": r"(?:mimi\s+)?sijui|hindi\s+ko\s+alam",
    "Slavic in Cyrillic": r"не\s+знаю|не\s+знам|не\s+(?:могу|можу)\s+(?:сказать|сказати)|"
    r"понятия\s+не\s+имею|не\s+відомо|затрудняюсь\s+ответить",
    "Greek": r"δεν\s+(?:το\s+)?(?:ξέρω|ξερω|γνωρίζω|γνωριζω)",
    "Baltic": r"(?:aš\s+)?nežinau|(?:es\s+)?nezinu|(?:ma\s+|mina\s+)?ei\s+tea",
    "South Slavic in Latin script": r"(?:ja\s+)?ne\s+znam|(?:jaz\s+)?ne\s+vem|nemam\s+(?:pojma|ideju)",
    "Catalan, Galician, Basque": r"no\s+ho\s+s[ée]|non\s+(?:o\s+)?sei|ez\s+dakit",
    "Icelandic": r"(?:ég\s+)?veit\s+(?:það\s+)?(?:ekki|ég\s+(?:það\s+)?ekki)|veit\s+ég\s+(?:það\s+)?ekki",
    "Albanian, Maltese, Esperanto": r"nuk\s+(?:e\s+)?di|ma\s+nafx|mi\s+ne\s+scias",
    "Welsh, Irish": r"(?:dwi|dw\s+i|rwy|dydw\s+i|dydy\s+i)\s+ddim\s+yn\s+gwybod|"
    r"níl\s+a\s+fhios\s+agam",
    "Afrikaans": r"(?:ek\s+)?weet\s+(?:dit\s+)?(?:ongelukkig\s+)?nie",
    "Turkic": r"bilmir[əe]m|bilmayman|білмеймін|билбейм",
    "Hausa, Zulu, Xhosa, Somali": r"ban\s+sani\s+ba|angazi|andazi|ma\s+(?:garanayo|aqaan)",
    "Belarusian, Mongolian, Tajik": r"не\s+ведаю|мэдэхгүй|намедонам",
    "No information: French, German, Italian, Portuguese, Spanish, Polish": r"(?:je\s+)?n'ai\s+pas\s+"
    r"(?:(?:cette|d'|l')\s*)?informations?|(?:dazu\s+|darüber\s+)?(?:habe\s+ich|ich\s+habe)\s+"
    r"(?:dazu\s+|darüber\s+)?keine\s+(?:informationen|angaben|daten)|non\s+ho\s+(?:(?:questa|"
    r"nessuna)\s+|quest'|l')?informazion[ei]|n[ãa]o\s+tenho\s+(?:(?:essa|esta|a|nenhuma)\s+)?"
    r"informa[çc](?:[ãa]o|[õo]es)|no\s+tengo\s+(?:(?:esa|esta|la|ninguna)\s+)?informaci[óo]n|"
    r"nie\s+mam\s+(?:(?:tej|tych|żadnych|zadnych)\s+)?informacji",
}
"""Per language, saying one does not know or cannot say (rules 12: a small grammar of the
negation and the verb "know" or "say" in the languages with most speakers, written as rules, not
taken from replies; rules 13: "no idea" as the Nordic, Finnish, Hungarian, Romanian, Czech and
Slovak languages say it; rules 14: "I do not know" in the Baltic, South Slavic, Celtic, Turkic,
Indic, Ethiopic, Caucasian and South-East Asian languages and others, and an adverb of regret
inside the Nordic and German word orders; rules 18: the pronoun "that" before the Czech, Slovak,
Polish, Finnish, Hungarian and Turkish phrases, Hindi's "no information", and "I have no (this)
information" in French, German, Italian, Portuguese, Spanish and Polish; rules 19: Serbo-Croatian
"nemam pojma", Indonesian and Malay "tidak pasti", "tidak yakin"). These scripts have word
boundaries;
`_DONT_KNOW_UNSPACED`'s do not."""
_DONT_KNOW_UNSPACED = {
    "Arabic, Persian, Urdu": r"لا\s+(?:أعرف|اعرف|أدري|ادري)|نمی\u200c?\s?دانم|نہیں\s+(?:پتا|پتہ|معلوم)|"
    r"معلوم\s+نہیں",
    "Hebrew": r"לא\s+(?:יודע|יודעת)|אין\s+לי\s+מושג",
    "Hindi, Bengali": r"नहीं\s+(?:पता|मालूम|जानता|जानती)|(?:पता|मालूम|जानकारी)\s+नहीं|জানি\s+না",
    "Thai": r"ไม่(?:รู้|ทราบ)",
    "Georgian, Armenian": r"არ\s*ვიცი|չգիտեմ",
    "Indic and Sinhala": r"தெரியாது|తెలియదు|ಗೊತ್ತಿಲ್ಲ|(?:അ|ക്ക)റിയില്ല|माही(?:त|ती)\s+नाही|थाहा\s+छैन|"
    r"ખબર\s+નથી|ਪਤਾ\s+ਨਹੀਂ|දන්නේ\s+නැහැ|නොදනිමි",
    "Amharic": r"አላውቅም",
    "Burmese, Khmer, Lao": r"မသိ(?:ဘူး|ပါ)|មិន\s*ដឹង|ບໍ່\s*ຮູ້",
    "Japanese, Chinese, Korean": r"わかりません|分かりません|知りません|わからない|分からない|知らない|"
    r"不(?:太|大)?(?:知道|清楚|确定|確定|記得|记得)|모르겠|모릅니다",
}
_DONT_KNOW = re.compile(
    rf"\b(?:{'|'.join(_DONT_KNOW_WORDS.values())})\b|"
    rf"(?:{'|'.join(_DONT_KNOW_UNSPACED.values())})|"
    r"\byour\s+guess\s+is\s+as\s+good\s+as\s+mine\b",
    re.IGNORECASE,
)
"""Saying one does not know in other languages than English ("Je ne sais pas.", "No lo sé.",
"Не знаю.", "わかりません", "Saya tidak tahu."), or by the idiom "your guess is as good as
mine": a refusal where the reply names no candidate."""
_REGRET = re.compile(
    r"\b(?:sajnos|sajnálom|leider|desværre|dessverre|tyvärr|valitettavasti|niestety|bohužel|žiaľ|"
    r"lamentablemente|desafortunadamente|purtroppo|infelizmente|malheureusement|helaas|deja|"
    r"diemžēl|kahjuks|nažalost|žal|fatkeqësisht|maalesef|ne\s+yaz[ıi]k\s+ki|"
    r"к\s+сожалению|на\s+жаль|δυστυχώς|ho\s+sento|lo\s+siento|désolée?|mi\s+dispiace|"
    r"desculpe|entschuldigung|przepraszam|promiňte|bocsánat|því\s+miður|sorry|pardon|"
    r"prepáčte|ongelukkig|jammer|ngiyaxolisa|uxolo|barkatu|perd[óo]n|disculp[ae]|lo\s+lamento|"
    r"pardonnez-moi|es\s+tut\s+mir\s+leid|het\s+spijt\s+me|förlåt|beklager|undskyld|anteeksi|"
    r"przykro\s+mi|omlouvám\s+se|izvinite|izvini|oprostite|вибачте|извините|простите|συγγνώμη|"
    r"özür\s+dilerim|maaf|xin\s+lỗi|samahani|paumanhin|mae'n\s+ddrwg\s+gen\s+i|ma\s+dispiace)\b|"
    r"மன்னிக்கவும்|ക്ഷമിക്കണം|ይቅርታ|ბოდიში|ներողություն|क्षमा\s+करें|माफ़\s+कीजिए|ক্ষমা\s+করবেন|"
    r"ขอโทษ|معذرة|عذرا|متأسفم|סליחה|申し訳ありません|すみません|ごめんなさい|죄송합니다|미안합니다|"
    r"对不起|抱歉",
    re.IGNORECASE,
)
"""Words of regret that come with "I do not know" ("Sajnos", "Leider", "Lo siento",
"மன்னிக்கவும்"): no name beside a refusal (rules 14; rules 15: "sorry" in more languages)."""


def _without_regret(text: str) -> str:
    """The text less its words of regret, which may stand inside a phrase of not knowing (rules
    18: Finnish "En valitettavasti tiedä", Czech "To bohužel nevím")."""
    return _REGRET.sub(" ", text)


def _knows_not(text: str) -> bool:
    """Whether the text says it does not know in another language (`_DONT_KNOW`), a word of
    regret inside the phrase or not (`_without_regret`)."""
    return _DONT_KNOW.search(text) is not None or (
        _REGRET.search(text) is not None and _DONT_KNOW.search(_without_regret(text)) is not None
    )


_BLANK_MARK = re.compile(r"\s*[\u2014\u2013-]+\s*")
"""Rules 20: a reply that is only a dash: what a person writes for "I do not know" (a lone "?"
asks back: unparseable, as the bench labels it)."""
_SHRUG = re.compile(r"¯\\?_\(ツ\)_/¯|\U0001F937[\U0001F3FB-\U0001F3FF\u200d\u2640\u2642\ufe0f]*")
"""A shrug (the emoticon, the emoji): "I do not know", when nothing else is said or what else
is said declines too ("🤷 Wollongong?" offers a name)."""


def declines(text: str) -> bool:
    """Whether a reply that names no candidate declines in other words than the usual refusals
    ("That information is not available to me.", "It is unknown.", "I lack the data."), in
    another language ("Je ne sais pas.": `_DONT_KNOW`), by a shrug (`_SHRUG`), or without any
    set words (`declines_by_meaning`)."""
    clean = clean_quotes(text)
    return (
        _DECLINES.search(clean) is not None
        or _knows_not(clean)
        or declines_by_meaning(text)
        or (_SHRUG.search(clean) is not None and _shrug_only(_SHRUG.sub(" ", clean)))
    )


def _shrug_only(rest: str) -> bool:
    """Whether what a reply says beside a shrug declines too, or says nothing."""
    return not any(c.isalnum() for c in rest) or declines(rest)


_ABOUT_ANSWERING = re.compile(
    r"^(?:know(?:s|ing|ledge)?$|sure|certain|confiden|recall|remember|memory|mind|record|"
    r"information|info|data|detail|source|reference|atlas|encyclop|answer|repl|respon|say|"
    r"tell|provid|give|giving|nam|comment|speculat|guess|verif|confirm|check|look|consult|"
    r"side|opinion|position|stance|familiar|reliabl|accura|up-to-date|date|"
    r"help|pick|choos|risk|recogni|figure|map$|maps$)"
)
"""Words about knowing or answering (stems): "record", "answering", "naming", "reliably"; rules
9: "help", "pick", "choose", "risk", "recognise", "figures", "map"; not "known", which mostly
speaks of the world ("not known to exist in nature")."""
_DECLINE_MAX_WORDS = 20
"""A sentence that declines is short; a longer one without a candidate tells about something
else."""
_HOLDING_BACK = frozenset(
    {"not", "no", "never", "nothing", "none", "nobody", "without", "cannot", "cant", "wont",
     "dont", "doesnt", "couldnt", "wouldnt", "shouldnt", "unable", "lack", "lacking", "outside",
     "beyond", "out", "outdated", "hold", "refrain", "abstain", "avoid", "withhold", "leave", "rather", "prefer",
     "hazy", "fuzzy", "vague", "too", "best", "better", "should", "need", "have", "recommend",
     "suggest", "advise", "point", "refer", "only", "taking", "take", "unsure", "uncertain",
     "misleading"}
)  # fmt: skip
"""Words that hold an answer back: negation, limits ("outside", "beyond", "too hazy"),
withholding ("hold off", "rather", "refrain"), sending the reader elsewhere ("best checked",
"have to look", "consult"), taking no side; rules 9: "it would be misleading to name one"."""
_DECLINING = frozenset(
    {"unanswered", "unanswerable", "refrain", "abstain", "withhold", "blank", "pass", "skip",
     "stumped"}
)  # fmt: skip
"""Words that decline on their own ("leave it unanswered", "I'll pass", "I'll skip it",
"drawing a blank")."""
_SPEAKER = frozenset({"i", "me", "my", "myself", "im", "id", "ive", "ill"})
"""The speaker (rules 10): a sentence that holds back and speaks of the one replying tells what
the replier can say ("That's one I never memorised.", "It is beyond me."), not about the world."""
_SPEAKING = _SPEAKER | _SPEAKERS
"""The speaker's words, alone or with others."""
_SENTENCES = re.compile(r"[.!?;\n]+")


def declines_by_meaning(text: str) -> bool:
    """Whether some sentence of a reply declines by what it says, not by set phrases (issue
    #34's rule: a refusal is recognised without keywords where the reply offers no candidate):
    it speaks of knowing or answering (`_ABOUT_ANSWERING`: "record", "naming", "answering",
    "reliably", "checked") or of the speaker (`_SPEAKER`) and holds the answer back (`_HOLDING_BACK`: a negation, "outside",
    "best", "hold off", "taking a side"), or uses a word that declines on its own
    (`_DECLINING`: "unanswered", "I'll pass", "drawing a blank"). "That's outside what I can
    reliably provide.", "No reliable record of that comes to mind.", "That's best checked in a
    specialised reference.", "Naming one would mean taking a side." decline; "It is a city in
    Australia." or "It is not Sydney." do not. The caller makes sure no candidate is offered."""
    for sentence in _SENTENCES.split(clean_quotes(text).casefold()):
        words = [w.replace("'", "") for w in re.findall(r"[a-z][a-z'-]*", sentence)]
        if len(words) > _DECLINE_MAX_WORDS:
            continue
        if any(w in _DECLINING for w in words):
            return True
        if any(w in _HOLDING_BACK or w.endswith("nt") for w in words) and any(
            _ABOUT_ANSWERING.match(w) or w in _SPEAKER for w in words
        ):
            return True
    return False


@lru_cache(maxsize=4096)
def _name_words(groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    """Every word of the true answers' names."""
    return frozenset(w for group in groups for name in group for w in name_tokens(name)[0])


def _padded(extra: tuple[AnswerNames, ...], n: int) -> tuple[AnswerNames, ...]:
    return (*extra[:n], *[AnswerNames()] * (n - len(extra)))


@lru_cache(maxsize=4096)
def _shown(subject: tuple[str, ...], question: str) -> tuple[str, ...]:
    """The subject's names the question shows (all of them without a question): a name of the
    subject the question does not show ("Burma" when asked about "Myanmar") is no echo."""
    if not question:
        return subject
    asked = f" {normalize(question)} "
    return tuple(n for n in subject if f" {normalize(n)} " in asked)


def _answer_only_names(
    groups: tuple[tuple[str, ...], ...],
    extra: tuple[AnswerNames, ...],
    subject: tuple[str, ...],
) -> tuple[tuple[tuple[str, ...], ...], NameTable | None]:
    """(true names with the answer-only names, or () when there are none; the table of short
    answer-only names, or None). An answer-only name of the subject the question shows
    (``subject``: `_shown`) is left out."""
    if not extra:
        return (), None
    return _answer_only_cached(groups, extra, subject)


@lru_cache(maxsize=4096)
def _answer_only_cached(
    groups: tuple[tuple[str, ...], ...],
    extra: tuple[AnswerNames, ...],
    subject: tuple[str, ...],
) -> tuple[tuple[tuple[str, ...], ...], NameTable | None]:
    own = {normalize(n) for n in subject}
    full = tuple(
        (*group, *(n for n, folded in _normalized(names.names) if folded not in own))
        for group, names in zip(groups, _padded(extra, len(groups)), strict=True)
    )
    short = NameTable(
        (name, -1 - i)
        for i, names in enumerate(extra)
        for name, folded in _normalized(names.short)
        if folded not in own
    )
    return full, (short if short.size else None)


@lru_cache(maxsize=16384)
def _normalized(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(name, `normalize`'s form) of an entity's answer-only names, worked out once; a name's
    signs are kept ("GH₵" is not the subject's code "GH")."""
    return tuple((name, normalize(name) + _signs(name)) for name in names)


def _signs(name: str) -> str:
    """The symbols (currency signs) of a name that `normalize` drops, as a suffix."""
    signs = "".join(c for c in name if unicodedata.category(c) == "Sc")
    return f" {signs}" if signs else ""


def verify_wh(
    reply: str,
    true_answers: Sequence[Sequence[str]],
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
) -> Verdict:
    """The verdict of `check_wh`."""
    return check_wh(reply, true_answers, rivals, subject).verdict


def parse_judge_reply(text: str) -> Verdict:
    """Read an LLM judge's yes/no verdict on a response (A.6 answer-verification prompt)."""
    if not text or not text.strip():
        return Verdict.UNPARSEABLE
    answer = first_word_answer(text)
    if answer is None:
        norm = normalize(text)
        if re.search(r"\b(?:incorrect|not correct|wrong|is false)\b", norm):
            answer = "no"
        elif re.search(r"\b(?:correct|is true|right)\b", norm):
            answer = "yes"
    if answer is None:
        return Verdict.UNPARSEABLE
    return Verdict.CORRECT if answer == "yes" else Verdict.INCORRECT


def self_contradiction(reply: str, expected: str, candidate_label: str = "") -> bool:
    """Heuristic: the first word is wrong but the explanation affirms the expected answer.

    E.g. "No, the Australian dollar (AUD) is the official currency of Nauru." to a question
    whose answer is Yes. With ``candidate_label`` the explanation must also mention it.
    """
    answer = first_word_answer(reply)
    want = expected.strip().lower()
    if answer is None or answer == want:
        return False
    body = _strip_lead(clean_quotes(reply))
    explanation = re.sub(r"^[A-Za-z]+[\s,.!:;\-–—]*", "", body, count=1).strip()
    if len(explanation.split()) < 3:
        return False
    if candidate_label and not mentions_any(explanation, [candidate_label], fuzzy=False):
        return False
    polarity = "no" if _NEGATION.search(explanation) else "yes"
    return polarity == want
