"""How much the order of the few-shot examples moves a model's Yes/No scores.

The same Yes/No questions (same edges, same true objects and hard negatives) are asked once with
each example order: the paper's (ending on "No."), reversed (ending on "Yes."), and shuffled per
question. Transport errors are left out, never counted as wrong answers. Since every order
answers the same questions, whether the order matters is tested on the questions all three
answered (Cochran's Q), and the spread of accuracies gets a bootstrap interval over them.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass

import numpy as np

from kglens_tui.answers.bias import YesNoBias, yes_no_bias
from kglens_tui.answers.verify import first_word_answer
from kglens_tui.kg.graph import KGIndex
from kglens_tui.kg.positions import run_edge_positions
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError
from kglens_tui.modes.kglens.config import Difficulty
from kglens_tui.modes.kglens.questions import Question, QuestionFactory
from kglens_tui.runs.prompts import load_prompt

ORDERS = ("paper", "reversed", "shuffled")


@dataclass(frozen=True)
class OrderResult:
    order: str
    bias: YesNoBias
    errors: int
    right: tuple[bool | None, ...] = ()
    """Per question: whether its reply opened with the expected answer (None: transport
    error)."""
    said_yes: tuple[bool | None, ...] = ()
    """Per question: whether its reply opened with yes (None: transport error)."""


@dataclass(frozen=True)
class OrderTest:
    """Whether the order moves accuracy, over the questions every order answered."""

    paired: int
    """Questions answered under every order."""
    q: float
    """Cochran's Q statistic of accuracy (k - 1 degrees of freedom)."""
    p_value: float
    yes_q: float
    """The same of the yes-rate: an order can move which answers are right without moving
    accuracy (a model that echoes the last example)."""
    yes_p_value: float
    spread: float
    """Largest minus smallest accuracy on those questions (a fraction)."""
    spread_low: float
    spread_high: float
    """The spread's 95% bootstrap interval (questions resampled)."""


@dataclass(frozen=True)
class PromptOrderStudy:
    questions: int
    results: tuple[OrderResult, ...]

    @property
    def accuracy_spread(self) -> float | None:
        """Largest minus smallest accuracy across orders, in points (0-100)."""
        values = [r.bias.accuracy.value for r in self.results if r.bias.accuracy.value is not None]
        return (max(values) - min(values)) * 100 if values else None

    @property
    def balanced_spread(self) -> float | None:
        values = [v for v in (r.bias.balanced_accuracy for r in self.results) if v is not None]
        return (max(values) - min(values)) * 100 if values else None


def study_questions(
    conn: sqlite3.Connection, kg: KGIndex, subset: str | None, count: int, seed: int
) -> list[Question]:
    """`count` Yes/No questions on randomly chosen active edges of a loaded KG (seeded)."""
    positions = run_edge_positions(conn, kg, subset)
    rng = np.random.default_rng([seed, 31337])
    chosen = rng.choice(len(positions), size=min(count, len(positions)), replace=False)
    factory = QuestionFactory(kg, positions, Difficulty.EASY, seed)
    return [factory.make(int(pos), slot, 1) for slot, pos in enumerate(sorted(chosen.tolist()))]


async def _ask_all(
    client: ChatClient, questions: list[Question], order: str, seed: int
) -> OrderResult:
    prompt = load_prompt("answer_yes_no")
    reversed_prompt = prompt.examples_reversed()
    flips = np.random.default_rng([seed, 4242]).random(len(questions)) < 0.5

    async def ask(i: int, q: Question) -> tuple[str, str] | None:
        use = prompt
        if order == "reversed" or (order == "shuffled" and flips[i]):
            use = reversed_prompt
        try:
            reply = await client.complete(
                ChatRequest(messages=use.render(question=q.text), max_tokens=32, meta=q.meta)
            )
        except LLMError:
            return None
        return q.expected, reply.text

    answers = await asyncio.gather(*(ask(i, q) for i, q in enumerate(questions)))
    pairs = [a for a in answers if a is not None]
    given = [None if a is None else first_word_answer(a[1]) for a in answers]
    right = tuple(None if a is None else g == a[0] for a, g in zip(answers, given, strict=True))
    said_yes = tuple(None if a is None else g == "yes" for a, g in zip(answers, given, strict=True))
    return OrderResult(order, yes_no_bias(pairs), len(answers) - len(pairs), right, said_yes)


async def run_prompt_order_study(
    client: ChatClient, questions: list[Question], seed: int = 0
) -> PromptOrderStudy:
    """Ask the same questions with each example order."""
    results = []
    for order in ORDERS:
        results.append(await _ask_all(client, questions, order, seed))
    return PromptOrderStudy(len(questions), tuple(results))


BOOTSTRAP = 2000
"""Resamples of the questions for the spread's interval."""


def cochran_q(right: np.ndarray) -> tuple[float, float]:
    """Cochran's Q test that k related binary outcomes (columns) share one success rate, over
    the rows (questions): (Q, p-value from chi-squared with k - 1 degrees of freedom). Rows
    every column gets right or wrong carry no information and leave Q unchanged."""
    from scipy.stats import chi2

    x = np.asarray(right, dtype=np.float64)
    k = x.shape[1]
    cols, rows = x.sum(axis=0), x.sum(axis=1)
    total = float(x.sum())
    denominator = k * total - float((rows**2).sum())
    if denominator <= 0:
        return 0.0, 1.0
    q = (k - 1) * (k * float((cols**2).sum()) - total**2) / denominator
    return q, float(chi2.sf(q, k - 1))


def order_test(study: PromptOrderStudy, seed: int = 0) -> OrderTest | None:
    """Cochran's Q and the accuracy spread with its bootstrap interval, over the questions
    every order answered; None without such a question."""
    grid = [r.right for r in study.results]
    keep = [i for i in range(study.questions) if all(g[i] is not None for g in grid)]
    if not keep:
        return None
    x = np.array([[bool(g[i]) for g in grid] for i in keep], dtype=np.float64)
    q, p = cochran_q(x)
    yes = np.array([[bool(r.said_yes[i]) for r in study.results] for i in keep])
    yes_q, yes_p = cochran_q(yes)
    acc = x.mean(axis=0)
    rng = np.random.default_rng([seed, 5151])
    picks = rng.integers(0, len(keep), size=(BOOTSTRAP, len(keep)))
    means = x[picks].mean(axis=1)
    spreads = means.max(axis=1) - means.min(axis=1)
    low, high = np.quantile(spreads, [0.025, 0.975])
    return OrderTest(
        len(keep), q, p, yes_q, yes_p, float(acc.max() - acc.min()), float(low), float(high)
    )
