"""How much the order of the few-shot examples moves a model's Yes/No scores.

The same Yes/No questions (same edges, same true objects and hard negatives) are asked once with
each example order: the paper's (ending on "No."), reversed (ending on "Yes."), and shuffled per
question. Transport errors are left out, never counted as wrong answers.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass

import numpy as np

from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError
from kglens_tui.probe.bias import YesNoBias, yes_no_bias
from kglens_tui.probe.config import Difficulty
from kglens_tui.probe.engine import run_edge_positions
from kglens_tui.probe.questions import Question, QuestionFactory
from kglens_tui.runs.prompts import load_prompt

ORDERS = ("paper", "reversed", "shuffled")


@dataclass(frozen=True)
class OrderResult:
    order: str
    bias: YesNoBias
    errors: int


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
    return OrderResult(order, yes_no_bias(pairs), len(answers) - len(pairs))


async def run_prompt_order_study(
    client: ChatClient, questions: list[Question], seed: int = 0
) -> PromptOrderStudy:
    """Ask the same questions with each example order."""
    results = []
    for order in ORDERS:
        results.append(await _ask_all(client, questions, order, seed))
    return PromptOrderStudy(len(questions), tuple(results))
