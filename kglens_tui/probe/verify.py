"""Classify model replies as correct / incorrect / refused / unparseable (KGLens QAV, sec. 2.3).

Yes/No replies are verified by their first word; Wh replies by alias matching on normalised text
(word boundaries, accents and case ignored) with a fuzzy fallback for minor misspellings. All
functions are pure and fast.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from enum import StrEnum
from functools import lru_cache


class Verdict(StrEnum):
    """Outcome of verifying one reply."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    REFUSED = "refused"
    UNPARSEABLE = "unparseable"
    ERROR = "error"
    """The request failed (transport/API error); not the model's fault."""

    @property
    def is_failure(self) -> bool:
        """Whether the edge counts as failed (KGLens marks refusals as failures)."""
        return self in (Verdict.INCORRECT, Verdict.REFUSED, Verdict.UNPARSEABLE)


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

_REFUSAL_PATTERNS = [
    r"\bi(?:'m| am)\s+(?:so\s+|very\s+)?sorry\b",
    r"^sorry\b",
    r"\bapologi[sz]e\b",
    r"\bas an ai\b",
    r"\bas a (?:large )?language model\b",
    r"\bi (?:do not|don't|dont) know\b",
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

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|neither|nor|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|"
    r"rather|instead|incorrect|false|but|however)\b|n't\b",
    re.IGNORECASE,
)


_APOSTROPHES = str.maketrans(dict.fromkeys("\u2018\u2019\u02bb\u02bc\u0060\u00b4\u2032", "'"))


def _clean_quotes(text: str) -> str:
    """Map typographic apostrophes (’ ‘ ʻ ʼ ` ´) to ASCII '."""
    return text.translate(_APOSTROPHES)


def is_refusal(text: str) -> bool:
    """Whether a reply declines to answer ("I'm sorry, but I couldn't find...", "As an AI...")."""
    head = _clean_quotes(text.strip())[:_REFUSAL_WINDOW]
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


def first_word_answer(text: str) -> str | None:
    """The yes/no answer carried by the first word of a reply: "yes", "no" or None."""
    body = _strip_lead(_clean_quotes(text))
    match = _ANSWER_IS.match(body)
    if match:
        return match.group(1).lower()
    match = _FIRST_WORD.match(body)
    if not match or _NO_INFO.match(body):
        return None
    word = match.group(1).lower()
    if word in _YES_WORDS:
        return "yes"
    if word in _NO_WORDS:
        return "no"
    return None


def verify_yes_no(reply: str, expected: str) -> Verdict:
    """Verify a Yes/No reply by its first word against ``expected`` ("yes" or "no")."""
    want = expected.strip().lower()
    if want not in ("yes", "no"):
        raise ValueError(f"expected must be 'yes' or 'no', not {expected!r}")
    if not reply or not reply.strip():
        return Verdict.UNPARSEABLE
    answer = first_word_answer(reply)
    if answer is not None:
        return Verdict.CORRECT if answer == want else Verdict.INCORRECT
    if is_refusal(reply):
        return Verdict.REFUSED
    return Verdict.UNPARSEABLE


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Lower-case, strip accents, turn punctuation into spaces and collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", _clean_quotes(text))
    no_marks = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = no_marks.casefold().replace("'", "").replace("&", " and ")
    return " ".join(re.sub(r"[^\w]+|_", " ", folded).split())


_DERIVED_SUFFIXES = frozenset({"n", "an", "ian", "ns", "ans", "ese", "ish", "i", "ic", "ia"})


def _is_derived_form(window: str, alias: str) -> bool:
    """Whether one string is the other plus a demonym-like suffix (Dominica/Dominican)."""
    short, long = sorted((window, alias), key=len)
    return long.startswith(short) and long[len(short) :] in _DERIVED_SUFFIXES


def _fuzzy_contains(tokens: list[str], alias: str) -> bool:
    """Whether some window of reply tokens is within FUZZY_THRESHOLD of ``alias``."""
    alias_tokens = alias.split()
    n = len(alias_tokens)
    for size in {max(n - 1, 1), n, n + 1}:
        for start in range(0, max(len(tokens) - size + 1, 0)):
            window = " ".join(tokens[start : start + size])
            matcher = SequenceMatcher(None, window, alias, autojunk=False)
            if matcher.real_quick_ratio() < FUZZY_THRESHOLD:
                continue
            if matcher.quick_ratio() < FUZZY_THRESHOLD or matcher.ratio() < FUZZY_THRESHOLD:
                continue
            if not _is_derived_form(window, alias):
                return True
    return False


def mentions_any(reply: str, aliases: Iterable[str], *, fuzzy: bool = True) -> bool:
    """Whether the reply mentions an alias (normalised whole words, plurals, or fuzzily)."""
    norm = normalize(reply)
    if not norm:
        return False
    padded = f" {norm} "
    candidates = [a for a in (normalize(x) for x in aliases) if a]
    for alias in candidates:
        if any(f" {alias}{plural} " in padded for plural in ("", "s", "es")):
            return True
    if not fuzzy:
        return False
    tokens = norm.split()
    return any(
        _fuzzy_contains(tokens, alias)
        for alias in candidates
        if len(alias.replace(" ", "")) >= _FUZZY_MIN_CHARS
    )


def _non_refusal_text(reply: str) -> str:
    """The reply without its refusing sentences ("I couldn't find information about X.")."""
    sentences = re.split(r"(?<=[.!?;])\s+|\n+", reply)
    return " ".join(s for s in sentences if not is_refusal(s))


def verify_wh(reply: str, true_answers: Sequence[Sequence[str]]) -> Verdict:
    """Verify a Wh reply: correct when it names any true object (any of its aliases).

    A refusal is ``refused`` unless a sentence outside the refusing ones names a true object.
    """
    if not reply or not reply.strip():
        return Verdict.UNPARSEABLE
    aliases = [alias for answer in true_answers for alias in answer]
    if is_refusal(reply):
        return (
            Verdict.CORRECT
            if mentions_any(_non_refusal_text(reply), aliases)
            else (Verdict.REFUSED)
        )
    return Verdict.CORRECT if mentions_any(reply, aliases) else Verdict.INCORRECT


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
    body = _strip_lead(_clean_quotes(reply))
    explanation = re.sub(r"^[A-Za-z]+[\s,.!:;\-–—]*", "", body, count=1).strip()
    if len(explanation.split()) < 3:
        return False
    if candidate_label and not mentions_any(explanation, [candidate_label], fuzzy=False):
        return False
    polarity = "no" if _NEGATION.search(explanation) else "yes"
    return polarity == want
