"""Scoring LLM-facteval replies (section 2.2, A.2): abstention, fuzzy answer matching, and
precision over non-abstained answers, recall over all questions, F1.

Categories: correct, incorrect, abstained, unparseable (an answer that names nothing usable;
counted as a wrong, non-abstained answer) and error (the request failed; left out of every rate).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kglens_tui.probe.verify import first_word_answer, is_refusal, mentions_any, normalize

CORRECT, INCORRECT, ABSTAINED, UNPARSEABLE, ERROR = (
    "correct",
    "incorrect",
    "abstained",
    "unparseable",
    "error",
)
CATEGORIES = (CORRECT, INCORRECT, ABSTAINED, UNPARSEABLE, ERROR)

ABSTENTION_PHRASES: tuple[str, ...] = (
    "cannot predict",
    "can not predict",
    "unable to predict",
    "unable to answer",
    "unable to determine",
    "cannot answer",
    "cannot be determined",
    "cannot determine",
    "without more knowledge",
    "without more information",
    "without more context",
    "not enough information",
    "insufficient information",
    "no information",
    "i am sorry",
    "i'm sorry",
    "i do not know",
    "i don't know",
    "i am not sure",
    "i'm not sure",
    "not possible to determine",
    "unknown",
)
"""Phrases that mark an MCQ or SAQ reply as abstained (the paper's curated list, extended)."""
_PHRASES = tuple(f" {normalize(p)} " for p in ABSTENTION_PHRASES)


def is_abstention(reply: str) -> bool:
    """Whether a reply declines to answer: an abstention phrase or a refusal."""
    padded = f" {normalize(reply)} "
    return any(p in padded for p in _PHRASES) or is_refusal(reply)


_VERDICT = re.compile(r"\b(not correct|not true|incorrect|correct|true|false|unknown)\b")
_VERDICT_ANSWER = {"correct": "yes", "true": "yes", "unknown": "unknown"}


def tfq_answer(reply: str) -> str | None:
    """'yes' (correct), 'no' (incorrect), 'unknown' or None: the first word, else the first
    verdict word of the reply's first sentence ("The sentence is CORRECT.")."""
    words = normalize(reply).split()
    if not words:
        return None
    if words[0] == "unknown":
        return "unknown"
    answer = first_word_answer(reply)
    if answer is not None:
        return answer
    first = re.split(r"(?<=[.!?])\s|\n", reply.strip(), maxsplit=1)[0]
    match = _VERDICT.search(normalize(first))
    return _VERDICT_ANSWER.get(match.group(1), "no") if match else None


def score_tfq(reply: str, truth: str) -> str:
    """A TFQ reply: CORRECT / INCORRECT (or yes / no, true / false), UNKNOWN abstains."""
    answer = tfq_answer(reply)
    if answer == "unknown":
        return ABSTAINED
    if answer is None:
        if not reply.strip():
            return UNPARSEABLE
        return ABSTAINED if is_abstention(reply) else UNPARSEABLE
    return CORRECT if (answer == "yes") == (truth == "true") else INCORRECT


def _matched_alias(reply_norm: str, aliases: Sequence[str]) -> str | None:
    """The longest alias named in the (normalised) reply as whole words."""
    padded = f" {reply_norm} "
    found = [a for a in (normalize(x) for x in aliases) if a and f" {a} " in padded]
    return max(found, key=len) if found else None


def named_choices(reply: str, choices: Sequence[Sequence[str]]) -> list[int]:
    """Indexes of the choices a reply names. A choice named only inside a longer named choice
    ("Guinea" in "Equatorial Guinea") does not count; without any exact match, fuzzy matching."""
    norm = normalize(reply)
    matched = {i: m for i, c in enumerate(choices) if (m := _matched_alias(norm, c)) is not None}
    if not matched:
        return [i for i, c in enumerate(choices) if mentions_any(reply, c)]
    return [
        i
        for i, m in matched.items()
        if not any(j != i and len(n) > len(m) and f" {m} " in f" {n} " for j, n in matched.items())
    ]


_ANSWER_IS = re.compile(r"\b(?:the )?(?:correct |final )?answer is\s*:?", re.IGNORECASE)


def score_mcq(reply: str, answers: Sequence[Sequence[str]], wrong: Sequence[Sequence[str]]) -> str:
    """An MCQ reply: correct when it names a correct choice and no wrong one (after "the answer
    is", when the reply says so)."""
    if not reply.strip():
        return UNPARSEABLE
    if is_abstention(reply):
        return ABSTAINED
    final = _ANSWER_IS.split(reply)
    named = named_choices(final[-1] if len(final) > 1 else reply, [*answers, *wrong])
    right = any(i < len(answers) for i in named)
    wrong_named = any(i >= len(answers) for i in named)
    if right and not wrong_named:
        return CORRECT
    return INCORRECT if named else UNPARSEABLE


def score_saq(reply: str, answers: Sequence[Sequence[str]]) -> tuple[str, int]:
    """An SAQ reply: correct when it names any correct answer; also how many it names."""
    if not reply.strip():
        return UNPARSEABLE, 0
    if is_abstention(reply):
        return ABSTAINED, 0
    matched = sum(mentions_any(reply, group) for group in answers)
    return (CORRECT if matched else INCORRECT), matched


@dataclass(frozen=True)
class Scores:
    """Counts and rates of one group of answers (a question type, format and context)."""

    qtype: str
    format: str
    context: str
    correct: int = 0
    incorrect: int = 0
    abstained: int = 0
    unparseable: int = 0
    errors: int = 0

    @property
    def answered(self) -> int:
        """Non-abstained answers (wrong and unparseable ones included)."""
        return self.correct + self.incorrect + self.unparseable

    @property
    def total(self) -> int:
        """Every question the model replied to (API failures excluded)."""
        return self.answered + self.abstained

    @property
    def precision(self) -> float | None:
        """Accuracy over non-abstained answers (eq. 1)."""
        return self.correct / self.answered if self.answered else None

    @property
    def recall(self) -> float | None:
        """Accuracy over all questions (eq. 2)."""
        return self.correct / self.total if self.total else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def abstention_rate(self) -> float | None:
        return self.abstained / self.total if self.total else None


ALL = "all"


def score_groups(rows: Iterable[tuple[str, str, str, str]]) -> list[Scores]:
    """Scores per (qtype, format, context) from (qtype, format, context, category) rows, plus an
    'all' row per context, in a stable order."""
    counts: Counter[tuple[str, str, str, str]] = Counter()
    for qtype, fmt, context, category in rows:
        counts[(qtype, fmt, context, category)] += 1
        counts[(ALL, ALL, context, category)] += 1
    keys = sorted({k[:3] for k in counts}, key=lambda k: (k[0] == ALL, k))
    return [
        Scores(
            *key,
            correct=counts[(*key, CORRECT)],
            incorrect=counts[(*key, INCORRECT)],
            abstained=counts[(*key, ABSTAINED)],
            unparseable=counts[(*key, UNPARSEABLE)],
            errors=counts[(*key, ERROR)],
        )
        for key in keys
    ]
