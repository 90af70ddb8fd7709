"""LLM-facteval's Tables 6 and 7: how close the questions an LLM wrote are to the template ones
(validity), and how varied each kind of question is (diversity).

- **Similarity (Table 6)**: sentence BLEU-4 of each LLM-written question against the template
  question it replaced (the same fact, type and format), averaged per question type and format,
  with its 95% interval (normal, over the questions). 1 is the template word for word.
- **Diversity (Table 7)**: self-BLEU (Zhu et al. 2018): each question's BLEU-4 against every
  other question of its group as references, averaged; lower is more varied. Per question type,
  format and who wrote the questions (template or LLM); a group of more than SELF_BLEU_SAMPLE
  questions is measured on an evenly spread sample of that many (the cost grows with the square).

BLEU here is Papineni et al.'s with the brevity penalty, over lower-cased word and punctuation
tokens, smoothed by Chen and Cherry's method 1 (a zero n-gram match counts as 0.1) so that one
short question gets a score: the figures are comparable within this tool, not with other BLEU
implementations' to the decimal.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kglens_tui.runs.panels import Panel, numbered_rows
from kglens_tui.textfmt import rate_ci

MAX_N = 4
SMOOTHING = 0.1
SELF_BLEU_SAMPLE = 200
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.casefold())


def _ngrams(words: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def _score(
    grams: Sequence[Counter[tuple[str, ...]]],
    length: int,
    most: Callable[[int, tuple[str, ...]], int],
    ref_lengths: Iterable[int],
) -> float:
    """BLEU-4 of a candidate of ``length`` tokens from its n-gram counts (``grams[n - 1]``),
    ``most(n, gram)`` (the highest count of ``gram`` in any reference) and the references'
    lengths."""
    log_sum = 0.0
    for n in range(1, MAX_N + 1):
        counts = grams[n - 1]
        total = sum(counts.values())
        if total == 0:
            log_sum += math.log(SMOOTHING / 1.0)
            continue
        matched = sum(min(count, most(n, gram)) for gram, count in counts.items())
        log_sum += math.log((matched if matched else SMOOTHING) / total)
    closest = min(ref_lengths, key=lambda r: (abs(r - length), r))
    penalty = 1.0 if length > closest else math.exp(1 - closest / length)
    return penalty * math.exp(log_sum / MAX_N)


def _all_ngrams(words: Sequence[str]) -> list[Counter[tuple[str, ...]]]:
    return [_ngrams(words, n) for n in range(1, MAX_N + 1)]


def bleu(candidate: Sequence[str], references: Sequence[Sequence[str]]) -> float:
    """Sentence BLEU-4 of a tokenised candidate against tokenised references (0 to 1)."""
    if not candidate or not references:
        return 0.0
    most: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(MAX_N)]
    for ref in references:
        for n, counts in enumerate(_all_ngrams(ref)):
            for gram, count in counts.items():
                most[n][gram] = max(most[n][gram], count)
    return _score(
        _all_ngrams(candidate),
        len(candidate),
        lambda n, gram: most[n - 1][gram],
        (len(r) for r in references),
    )


def self_bleu(questions: Sequence[str]) -> float | None:
    """Mean BLEU of each question against all the others (None with fewer than two). Each
    question's n-grams are counted once, and each n-gram's two highest counts (with their
    questions) give its highest count among the others of any question: `bleu` of each against
    the rest, in time linear in the questions rather than quadratic."""
    if len(questions) < 2:
        return None
    if len(questions) > SELF_BLEU_SAMPLE:
        step = (len(questions) - 1) / (SELF_BLEU_SAMPLE - 1)
        questions = [questions[round(i * step)] for i in range(SELF_BLEU_SAMPLE)]
    tokenised = [tokens(q) for q in questions]
    grams = [_all_ngrams(words) for words in tokenised]
    top: list[dict[tuple[str, ...], list[tuple[int, int]]]] = [{} for _ in range(MAX_N)]
    for i, counts_by_n in enumerate(grams):
        for n, counts in enumerate(counts_by_n):
            for gram, count in counts.items():
                best = top[n].setdefault(gram, [])
                best.append((count, i))
                best.sort(reverse=True)
                del best[2:]
    lengths = [len(words) for words in tokenised]
    scores = []
    for i, words in enumerate(tokenised):
        if not words:
            scores.append(0.0)
            continue

        def most(n: int, gram: tuple[str, ...], i: int = i) -> int:
            return next((count for count, j in top[n - 1].get(gram, ()) if j != i), 0)

        scores.append(_score(grams[i], len(words), most, lengths[:i] + lengths[i + 1 :]))
    return sum(scores) / len(scores)


@dataclass(frozen=True)
class Mean:
    """A mean over n values with its 95% normal interval."""

    value: float
    low: float
    high: float
    n: int


def mean_of(values: Sequence[float]) -> Mean | None:
    if not values:
        return None
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return Mean(mean, max(0.0, mean - half), min(1.0, mean + half), n)


def _rows(conn: sqlite3.Connection, run_id: int) -> list[tuple[str, str, str, str, str]]:
    return [
        (str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4] or ""))
        for r in conn.execute(
            "SELECT qtype, format, question, generator, template FROM facteval_question "
            "WHERE run_id = ? ORDER BY idx",
            (run_id,),
        )
    ]


def _kind(qtype: str, fmt: str) -> str:
    return qtype.upper() if fmt == "statement" else f"{qtype.upper()} {fmt}"


def similarity_panel(conn: sqlite3.Connection, run_id: int) -> Panel | None:
    """Table 6 for a run whose generator wrote questions (None when it wrote none, or they were
    stored before the template was kept beside them)."""
    groups: dict[str, list[float]] = {}
    for qtype, fmt, question, generator, template in _rows(conn, run_id):
        if generator.startswith("llm:") and template:
            score = bleu(tokens(question), [tokens(template)])
            groups.setdefault(_kind(qtype, fmt), []).append(score)
    if not groups:
        return None
    rows = []
    for kind, values in sorted(groups.items()):
        m = mean_of(values)
        assert m is not None
        rows.append((kind, rate_ci(m.value, m.low, m.high), f"{m.n:,}"))
    return Panel(
        "similarity",
        "Table 6: LLM-written questions against the template ones (BLEU-4, 95% interval)",
        ("question", "BLEU-4 [95% interval]", "n"),
        numbered_rows(rows),
        caption="Higher is closer to the human-written template for the same fact: the "
        "generator kept the question valid. n: LLM-written questions.",
        align="lrr",
    )


def diversity_panel(conn: sqlite3.Connection, run_id: int) -> Panel | None:
    """Table 7: self-BLEU per question type, format and writer (None with no group of two)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for qtype, fmt, question, generator, _template in _rows(conn, run_id):
        writer = "LLM" if generator.startswith("llm:") else "template"
        groups.setdefault((_kind(qtype, fmt), writer), []).append(question)
    scored = [(key, self_bleu(qs), len(qs)) for key, qs in sorted(groups.items())]
    rows = [
        (kind, writer, f"{100 * score:.1f}%", f"{n:,}")
        for (kind, writer), score, n in scored
        if score is not None
    ]
    if not rows:
        return None
    return Panel(
        "diversity",
        "Table 7: diversity of the questions (self-BLEU-4; lower is more varied)",
        ("question", "written by", "self-BLEU-4", "n"),
        numbered_rows(rows),
        caption=f"Each question's BLEU-4 against the others of its group, averaged (groups of "
        f"over {SELF_BLEU_SAMPLE} on an even sample of {SELF_BLEU_SAMPLE}).",
        align="llrr",
    )
