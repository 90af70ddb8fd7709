"""LLM-facteval as a registered mode: plan the questions of every type, store them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from rich.console import RenderableType

from kglens_tui.kg.graph import KGIndex
from kglens_tui.modes.config import FACTEVAL, FactevalConfig
from kglens_tui.modes.facteval.compare import (
    facteval_compare_renderables,
    facteval_partners,
    load_run_scores,
)
from kglens_tui.modes.facteval.engine import FactevalEngine, FactevalMetrics, FactevalRow
from kglens_tui.modes.facteval.plan import PlannedQuestion, plan_facteval
from kglens_tui.modes.headline import stored_headline_lines
from kglens_tui.modes.results import unit_results
from kglens_tui.modes.store import write_facteval_plan
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.prompts import PROMPT_NAMES
from kglens_tui.runs.registry import register
from kglens_tui.runs.unit_mode import UnitMode


class FactevalMode(UnitMode[FactevalConfig, list[PlannedQuestion], FactevalMetrics, FactevalRow]):
    name = FACTEVAL
    label = "fact-eval"
    compare = "facteval compare"
    report = "facteval report"
    config_type = FactevalConfig
    engine_type = FactevalEngine
    prompts = tuple(n for n in PROMPT_NAMES if n.startswith("facteval_"))

    def plan(
        self, conn: sqlite3.Connection, kg: KGIndex, config: FactevalConfig
    ) -> list[PlannedQuestion]:
        questions = plan_facteval(conn, kg, config)
        if not questions:
            raise ConfigError(f"no questions to ask in KG '{kg.name}' with these settings")
        return questions

    def plan_requests(self, plan: list[PlannedQuestion]) -> int:
        """Every question is asked once in each of its contexts."""
        return sum(len(q.contexts) for q in plan)

    def plan_edge_ids(self, plan: list[PlannedQuestion]) -> list[int]:
        return sorted({q.edge_id for q in plan if q.edge_id is not None})

    def write_plan(
        self, conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: list[PlannedQuestion]
    ) -> None:
        write_facteval_plan(conn, kg, run_id, plan)

    def headline(self, conn: sqlite3.Connection, run_id: int) -> str | None:
        return stored_headline_lines(conn, run_id)

    def results(
        self, conn: sqlite3.Connection, run_id: int, compare: bool
    ) -> tuple[str, list[RenderableType]]:
        return unit_results(
            conn,
            run_id,
            compare,
            label=self.label,
            commands=(self.report, self.compare),
            unit="question",
            partners=facteval_partners,
            tables=_compare_tables,
        )


def _compare_tables(conn: sqlite3.Connection, runs: Sequence[int]) -> list[RenderableType]:
    """F1 and abstention per question type and context (Table 2), template- against LLM-written
    questions."""
    return [*facteval_compare_renderables(load_run_scores(conn, runs))]


MODE = register(FactevalMode())
