"""Scoring LLM-facteval replies (section 2.2, A.2): abstention, fuzzy answer matching, and
precision over non-abstained answers, recall over all questions, F1.

Categories: correct, incorrect, abstained, unparseable (an answer that names nothing usable;
counted as a wrong, non-abstained answer) and error (the request failed; left out of every rate).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from kglens_tui.answers.mentions import NameTable, mentions, tokenize
from kglens_tui.answers.refusals import is_refusal
from kglens_tui.answers.verify import first_word_answer, mentions_any, named_answers, names_rival
from kglens_tui.answers.words import normalize
from kglens_tui.core.intervals import Proportion, f1_interval, f1_score, wilson

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


_ANSWER_IS = re.compile(
    r"\b(?:the )?(?:correct |final )?answer is\b(?!\s*(?:not\b|n't))\s*:?", re.IGNORECASE
)
"""Where a reply says what its answer is ("The answer is: X"; not "the answer is not X" or
"the answer isn't X", which deny rather than answer)."""
_ITEMS = re.compile(r"[,;/\n]|(?<=[.!?])\s")
_GENERIC = (
    "the of and a an in on de la le el du des da do st saint republic kingdom state states united "
    "island islands city county province region north south east west northern southern eastern "
    "western central new great upper lower"
)
GENERIC_WORDS = frozenset(_GENERIC.split())
"""Words that alone never make a short answer ("Republic" is not a short "Czech Republic")."""


def _final(reply: str) -> str:
    """The part after "the answer is", when the reply says so; else the whole reply."""
    parts = _ANSWER_IS.split(reply)
    return parts[-1] if len(parts) > 1 else reply


def short_answers(reply: str) -> list[str]:
    """The reply read as a list of short answers, normalised: split at commas, semicolons,
    slashes, line breaks and sentence ends ("German, Sotho." -> ["german", "sotho"])."""
    return [item for item in (normalize(part) for part in _ITEMS.split(reply)) if item]


def contained_answers(
    reply: str, groups: Sequence[Sequence[str]], other_names: Collection[str] = frozenset()
) -> set[int]:
    """The paper's second direction of fuzzy matching (LLM-facteval 2.2, "checks if the
    generated answer appears in the reference answers and vice versa"): the indexes of the
    groups (each a reference's names) inside one of whose names a short answer of the reply lies
    as whole words, so "Sotho" names "Southern Sotho".

    A short answer does not count when it is exactly a name of any group or of another entity
    (``other_names``, normalised: "Guinea" is a country of its own, not a short "Equatorial
    Guinea"), when it has only generic words ("Republic"), or when it lies inside the names of
    more than one group (ambiguous: "Sotho" in "Northern Sotho" and "Southern Sotho")."""
    names = [[n for n in (normalize(a) for a in g) if n] for g in groups]
    exact = {n for g in names for n in g}
    found: set[int] = set()
    for item in short_answers(reply):
        if item in exact or item in other_names or not set(item.split()) - GENERIC_WORDS:
            continue
        padded = f" {item} "
        hits = [i for i, g in enumerate(names) if any(padded in f" {n} " for n in g)]
        if len(hits) == 1:
            found.add(hits[0])
    return found


def named_choices(
    reply: str, choices: Sequence[Sequence[str]], other_names: Collection[str] = frozenset()
) -> list[int]:
    """Indexes of the choices a reply names. A choice named only inside a longer named choice
    ("Guinea" in "Equatorial Guinea") does not count; without any exact match, fuzzy matching,
    and without that, a short answer inside one choice's name (`contained_answers`)."""
    norm = normalize(reply)
    matched = {i: m for i, c in enumerate(choices) if (m := _matched_alias(norm, c)) is not None}
    if not matched:
        fuzzy = [i for i, c in enumerate(choices) if mentions_any(reply, c)]
        return fuzzy or sorted(contained_answers(reply, choices, other_names))
    return [
        i
        for i, m in matched.items()
        if not any(j != i and len(n) > len(m) and f" {m} " in f" {n} " for j, n in matched.items())
    ]


def denied_choices(reply: str, choices: Sequence[Sequence[str]]) -> set[int]:
    """Indexes of the choices a reply names only negated ("Paris, not Berlin": Berlin), as whole
    names (`kglens_tui.answers.mentions`): such a choice is not chosen."""
    tokens = tokenize(reply)
    if not tokens:
        return set()
    table = NameTable((name, i) for i, names in enumerate(choices) for name in names)
    found = mentions(tokens, table)
    return {m.owner for m in found} - {m.owner for m in found if not m.negated}


def score_mcq(
    reply: str,
    answers: Sequence[Sequence[str]],
    wrong: Sequence[Sequence[str]],
    other_names: Collection[str] = frozenset(),
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    also_true: Sequence[Sequence[str]] = (),
) -> str:
    """An MCQ reply: correct when it names a correct choice and no wrong one (after "the answer
    is", when the reply says so); a choice named only negated ("not Berlin") is not chosen, and,
    with ``rivals`` (every name of the answer's type), naming another entity of that type that is
    not the subject (``subject``: its names) nor another true object of the fact (``also_true``:
    their names; "English and French" for Canada's official language) is wrong too, as in
    `check_wh` (`names_rival`). ``other_names``: see `contained_answers`."""
    if not reply.strip():
        return UNPARSEABLE
    if is_abstention(reply):
        return ABSTAINED
    final = _final(reply)
    choices = [*answers, *wrong]
    named = named_choices(final, choices, other_names)
    denied = denied_choices(final, choices)
    chosen = [i for i in named if i not in denied]
    right = any(i < len(answers) for i in chosen)
    wrong_named = any(i >= len(answers) for i in chosen)
    if (
        right
        and not wrong_named
        and not names_rival(final, [*answers, *also_true], rivals, subject)
    ):
        return CORRECT
    return INCORRECT if named else UNPARSEABLE


def score_saq(
    reply: str,
    answers: Sequence[Sequence[str]],
    other_names: Collection[str] = frozenset(),
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
) -> tuple[str, int]:
    """An SAQ reply: correct when it names a correct answer, fuzzily both ways (an answer's name
    in the reply, not negated, `named_answers`, or a short answer of the reply in an answer's
    name, `contained_answers`), and no rival: with ``rivals`` (every name of the answer's type),
    a reply that also names, not negated, another entity of that type that is neither a correct
    answer nor the subject (``subject``: its names) is incorrect ("Arabic, English" for Kuwait's
    official language), the rule of `check_wh` (`names_rival`, after "the answer is" when the
    reply says so, what follows it decides). Also how many correct answers it names, right or wrong
    overall."""
    if not reply.strip():
        return UNPARSEABLE, 0
    if is_abstention(reply):
        return ABSTAINED, 0
    final = _final(reply)
    matched = len(
        named_answers(final, answers, rivals) | contained_answers(final, answers, other_names)
    )
    if not matched or names_rival(final, answers, rivals, subject):
        return INCORRECT, matched
    return CORRECT, matched


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
        """The harmonic mean of precision and recall (`core.intervals.f1_score`)."""
        return f1_score(self.correct, self.answered - self.correct, self.abstained)

    @property
    def abstention_rate(self) -> float | None:
        return self.abstained / self.total if self.total else None

    @property
    def precision_ci(self) -> Proportion:
        """Precision with its Wilson interval."""
        return wilson(self.correct, self.answered)

    @property
    def recall_ci(self) -> Proportion:
        """Recall with its Wilson interval."""
        return wilson(self.correct, self.total)

    @property
    def abstention_ci(self) -> Proportion:
        """Abstention rate with its Wilson interval."""
        return wilson(self.abstained, self.total)

    @property
    def f1_ci(self) -> tuple[float | None, float | None]:
        """F1's credible interval (`core.intervals.f1_interval`); none without an answer."""
        if self.f1 is None:
            return None, None
        return f1_interval(self.correct, self.answered - self.correct, self.abstained)


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
