"""The smallest shape of a probing mode: one question per planned KG edge, one label per reply.

A mode of this shape says what to ask about an edge (`EdgeUnitEngine.question`), how to label a
reply (`label`) and what its metrics are (`compute_metrics`), and which edges a new run asks
(`EdgeUnitMode.plan`). The harness asks, stores the answers (`unit_answer`, `runs.answers`),
knows what is left and what failed, resumes, budgets, pauses and stops (`tests/toy_mode.py` is
one in full).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Generic

from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient, QuestionMeta
from kglens_tui.runs.answers import (
    TOTALS_SQL,
    UnitAnswer,
    load_answers,
    load_latest_answers,
    write_answers,
)
from kglens_tui.runs.config import ConfigT
from kglens_tui.runs.record import RunRecord
from kglens_tui.runs.unit_mode import UnitMode
from kglens_tui.runs.units import (
    MetricsT,
    ModeEngine,
    ModeSnapshot,
    QueryView,
    UnitResult,
    ask,
)


def answer_view(answer: UnitAnswer, kind: str) -> QueryView:
    """How the live screen shows one unit's answer, asked now or stored: the reply, or the API
    failure labelled error. The texts stay as the model wrote them (the screen shows them
    literally)."""
    return QueryView(
        answer.unit,
        kind,
        answer.question,
        answer.reply or answer.usage.error,
        answer.label or "error",
    )


class EdgeUnitEngine(ModeEngine[ConfigT, MetricsT, UnitAnswer], Generic[ConfigT, MetricsT]):
    """Unit i asks about the run's i-th edge (its edge ids, sorted); answers in `unit_answer`."""

    kind = "edge"
    """How the live screen names a question of this mode."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[ConfigT],
        kg: KGIndex,
        target: ChatClient,
        *,
        generator: ChatClient | None = None,
        on_progress: Callable[[ModeSnapshot[MetricsT]], None] | None = None,
    ) -> None:
        super().__init__(conn, run, kg, target, generator=generator, on_progress=on_progress)
        self.answers: dict[int, UnitAnswer] = {}
        self.load_stored()
        self.load_totals(TOTALS_SQL)

    # what the mode provides
    def question(self, unit: int, edge: int) -> tuple[str, QuestionMeta]:
        """The question about edge ``edge`` (a position in the KG's arrays) and what it
        asks, for the record."""
        raise NotImplementedError

    def label(self, reply: str) -> str:
        """The mode's label for a reply that came back."""
        raise NotImplementedError

    # the rest
    async def run_unit(self, unit: int) -> UnitResult[UnitAnswer]:
        question, meta = self.question(unit, self.kg.edge_position(int(self.run.edge_ids[unit])))
        reply = await self.limited(
            lambda: ask(
                self.target,
                ({"role": "user", "content": question},),
                max_tokens=self.config.max_tokens,
                temperature=self.config.temperature,
                meta=meta,
            )
        )
        label = "" if reply.failed else self.label(reply.text)
        answer = UnitAnswer(unit, question, reply.text, label, reply.usage)
        return UnitResult(unit, [answer], [reply], [answer_view(answer, self.kind)])

    def units_total(self) -> int:
        return len(self.run.edge_ids)

    def units_done(self) -> int:
        return sum(not a.failed for a in self.answers.values())

    def load_stored(self) -> None:
        self.answers = load_answers(self.conn, self.run.id)

    def stored_views(self, limit: int) -> list[QueryView]:
        return [
            answer_view(a, self.kind) for a in load_latest_answers(self.conn, self.run.id, limit)
        ]

    def pending(self) -> list[int]:
        return [
            u for u in range(self.units_total()) if u not in self.answers or self.answers[u].failed
        ]

    def store(self, results: list[UnitResult[UnitAnswer]]) -> None:
        write_answers(self.conn, self.run.id, [a for r in results for a in r.rows])

    def absorb(self, result: UnitResult[UnitAnswer]) -> None:
        for answer in result.rows:
            self.answers[answer.unit] = answer


class EdgeUnitMode(UnitMode[ConfigT, Sequence[int], MetricsT, UnitAnswer]):
    """The `Mode` of an `EdgeUnitEngine`: `plan` returns the KG edge ids a new run asks."""

    engine_type: type[ModeEngine[ConfigT, MetricsT, UnitAnswer]]

    def plan_edge_ids(self, plan: Sequence[int]) -> list[int]:
        return sorted({int(e) for e in plan})
