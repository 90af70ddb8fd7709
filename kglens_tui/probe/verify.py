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
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from kglens_tui.core.verdict import Verdict
from kglens_tui.probe.mentions import (
    Mention,
    NameTable,
    Token,
    clean_quotes,
    has_hedge,
    mentions,
    negated,
    tokenize,
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
_REFUSAL = re.compile("|".join(_REFUSAL_PATTERNS), re.IGNORECASE)
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
    previous = None
    current = text
    while previous != current:
        previous = current
        current = _LEAD_JUNK.sub("", current)
        current = _PREFIX.sub("", current)
    return current


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


def check_yes_no(reply: str, expected: str) -> Checked:
    """Verify a Yes/No reply by its first word against ``expected`` ("yes" or "no"); a hedged
    answer ("I think yes", "Probably not") counts with the hedged flag."""
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
    """The true objects' names; owner -1 - i for the i-th object."""
    return NameTable((name, -1 - i) for i, names in enumerate(true_answers) for name in names)


def _as_tuples(answers: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(group) for group in answers)


def _clauses(reply: str) -> list[str]:
    return [c for c in _CLAUSE_SPLIT.split(reply) if c and c.strip()]


def _guesses(reply: str) -> bool:
    """Whether a clause that does not refuse offers a guess ("..., but I think it's X")."""
    return any(has_hedge(clause) and not is_refusal(clause) for clause in _clauses(reply))


@lru_cache(maxsize=4096)
def _fuzzy_names(truth: NameTable) -> tuple[tuple[tuple[str, ...], str], ...]:
    """(tokens, text) of the true names long enough, and all letters, for fuzzy matching."""
    return tuple(
        (alias, " ".join(alias))
        for alias, _ in truth.names()
        if len("".join(alias)) >= _FUZZY_MIN_CHARS and all(a.isalpha() for a in alias)
    )


def _fuzzy_answer(
    tokens: Sequence[Token],
    truth: NameTable,
    rivals: NameTable | None,
    taken: list[Mention],
    *,
    deny: bool = True,
) -> bool:
    """A near spelling of a true name ("Ouagadougouu") in words no exact name covers, which
    no rival name resembles as much, and (with ``deny``) which no negation denies."""
    initials = {t.norm[:1] for t in tokens if t.word}
    candidates = [(a, text) for a, text in _fuzzy_names(truth) if a[0][:1] in initials]
    if not candidates:
        return False
    covered = {i for m in taken for i in range(m.start, m.end)}
    true_names = {alias for alias, _ in truth.names()}
    for alias, text in candidates:
        n = len(alias)
        for size in {max(n - 1, 1), n, n + 1}:
            for start in range(0, len(tokens) - size + 1):
                window = tokens[start : start + size]
                if not _same_initials(window, alias):
                    continue
                if any(t.clause != window[0].clause or not t.word for t in window):
                    continue
                if covered.intersection(range(start, start + size)):
                    continue
                words = " ".join(t.norm for t in window)
                score = _similarity(words, text)
                if score < FUZZY_THRESHOLD or _derived_window(window, words, alias, text):
                    continue
                if (deny and negated(tokens, start)) or _rival_as_close(
                    words, score, rivals, true_names
                ):
                    continue
                return True
    return False


def _same_initials(window: Sequence[Token], alias: tuple[str, ...]) -> bool:
    """Whether the first and the last word start as the name's do (a misspelling keeps them:
    "Ouagadogou", "Kuala Lumpar"; "Burundi" is not "Urundi", "or metals" not "poor metals")."""
    if window[0].norm[:1] != alias[0][:1]:
        return False
    return len(window) == 1 or len(alias) == 1 or window[-1].norm[:1] == alias[-1][:1]


def _similarity(a: str, b: str) -> float:
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < FUZZY_THRESHOLD or matcher.quick_ratio() < FUZZY_THRESHOLD:
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


def _names_rival(
    tokens: Sequence[Token], found: Sequence[Mention], subject: tuple[str, ...]
) -> bool:
    """Whether the reply names, not negated, an entity of the answer's type that is neither a
    true object nor the subject: a rival mention whose span no true or subject name shares.
    ``found``: the mentions of the true objects' and the rivals' names (`mentions`)."""
    known = {(m.start, m.end) for m in found if m.owner < 0}
    if subject:
        known.update((start, end) for start, end, _ in _truth_table((subject,)).matches(tokens))
    return any(m.owner >= 0 and not m.negated and (m.start, m.end) not in known for m in found)


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
) -> Checked:
    """Verify a Wh reply: correct when it names a true object (any of its names) as a whole
    entity, not negated, and no rival. ``rivals``: names of every entity of the object's type; a
    longer rival name that contains a true name ("South Sudan" for "Sudan") is not the answer,
    and a reply that also names, not negated, a rival that is no true object ("Arabic and
    English", "Left or right") is incorrect. ``subject``: the names of the entity asked about,
    never a rival ("Zambia gained independence from the United Kingdom").

    Without a true mention the reply is incorrect if it names a rival or offers a guess, else
    refused if it declines to answer, else incorrect. Hedged: it expresses doubt or declines.
    """
    if not reply or not reply.strip():
        return Checked(Verdict.UNPARSEABLE)
    tokens = tokenize(reply)
    if not tokens:
        return Checked(Verdict.UNPARSEABLE)
    truth = _truth_table(_as_tuples(true_answers))
    found = mentions(tokens, truth) if rivals is None else mentions(tokens, truth, rivals)
    refusing = is_refusal(reply)
    hedged = refusing or has_hedge(reply)
    if any(m.owner < 0 and not m.negated for m in found) or _fuzzy_answer(
        tokens, truth, rivals, found
    ):
        rival = _names_rival(tokens, found, tuple(subject))
        return Checked(Verdict.INCORRECT if rival else Verdict.CORRECT, hedged)
    if refusing and not any(not m.negated for m in found) and not _guesses(reply):
        return Checked(Verdict.REFUSED)
    return Checked(Verdict.INCORRECT, hedged)


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
