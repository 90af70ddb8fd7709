"""A toy probing mode, added as one module plus registration and no edit to the harness: it asks
each KG edge's statement and scores the reply yes or no. Imported by the harness tests (and by a
run's child process, which imports the module that registered the mode)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kglens_tui.llm.base import QuestionMeta
from kglens_tui.runs.answers import TOTALS_SQL, UnitAnswer, load_answers, write_answers
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.registry import register
from kglens_tui.runs.unit_mode import UnitMode
from kglens_tui.runs.units import ModeEngine, QueryView, UnitResult, ask

TOY = "toy"


@dataclass
class ToyConfig(ModeConfig):
    mode: str = TOY
    edges: int | None = 12
    """How many of the KG's active edges to ask (the first ones); None = all."""
    max_tokens: int = 8


@dataclass(frozen=True)
class ToyMetrics:
    yes: int
    answered: int

    def table(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        """Columns and rows for a live screen."""
        return ("answer", "n"), [("yes", str(self.yes)), ("answered", str(self.answered))]


class ToyEngine(ModeEngine):
    mode = TOY

    def __init__(self, conn, run, kg, target, **kwargs: Any) -> None:
        super().__init__(conn, run, kg, target, **kwargs)
        self.load_stored()
        self.load_totals(TOTALS_SQL)

    def units_total(self) -> int:
        return len(self.run.edge_ids)

    def units_done(self) -> int:
        return sum(not a.failed for a in self.answers.values())

    def load_stored(self) -> None:
        self.answers: dict[int, UnitAnswer] = load_answers(self.conn, self.run.id)

    def pending(self) -> list[int]:
        return [
            u for u in range(self.units_total()) if u not in self.answers or self.answers[u].failed
        ]

    async def run_unit(self, unit: int) -> UnitResult:
        kg = self.kg
        i = kg.edge_position(int(self.run.edge_ids[unit]))
        s, p, o = int(kg.s[i]), int(kg.p[i]), int(kg.o[i])
        question = f"Is it true that {kg.labels[s]} {kg.pred_labels[p]} {kg.labels[o]}?"
        meta = QuestionMeta(
            key=f"toy{unit}",
            edge_id=int(kg.edge_ids[i]),
            subject=kg.entity_keys[s],
            predicate=kg.pred_keys[p],
            object=kg.entity_keys[o],
            qtype="yes_no",
            expected="yes",
        )
        reply = await self.limited(
            lambda: ask(
                self.target,
                ({"role": "user", "content": question},),
                max_tokens=self.config.max_tokens,
                temperature=self.config.temperature,
                meta=meta,
            )
        )
        label = "" if reply.failed else ("yes" if reply.text.lower().startswith("yes") else "no")
        answer = UnitAnswer(
            unit,
            question,
            reply.text,
            label,
            reply.error,
            reply.prompt_tokens,
            reply.completion_tokens,
            reply.latency_ms,
            reply.retries,
        )
        view = QueryView(unit, "statement", question, reply.text or reply.error, label or "error")
        return UnitResult(unit, [answer], [reply], [view])

    def store(self, results: list[UnitResult]) -> None:
        write_answers(self.conn, self.run.id, [a for r in results for a in r.rows])

    def absorb(self, result: UnitResult) -> None:
        for answer in result.rows:
            self.answers[answer.unit] = answer

    def compute_metrics(self) -> ToyMetrics:
        answered = [a for a in self.answers.values() if not a.failed]
        return ToyMetrics(sum(a.label == "yes" for a in answered), len(answered))


class ToyMode(UnitMode):
    name = TOY
    label = "toy"
    config_type = ToyConfig
    engine_type = ToyEngine

    def plan(self, conn, kg, config: ToyConfig) -> list[int]:
        active = kg.edge_ids[kg.active_mask]
        if not len(active):
            raise ConfigError(f"KG '{kg.name}' has no active edge")
        return [int(e) for e in active[: config.edges]]

    def plan_edge_ids(self, plan: list[int]) -> list[int]:
        return sorted(plan)


MODE = register(ToyMode())
__all__ = ["MODE", "TOY", "ToyConfig", "ToyEngine", "ToyMetrics"]
