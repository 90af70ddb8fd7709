"""LLM-facteval as a registered mode: plan the questions of every type, store them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from rich.console import RenderableType

from kglens_tui.kg.graph import KGIndex
from kglens_tui.modes.config import FACTEVAL, FactevalConfig
from kglens_tui.modes.facteval.commands import GROUP
from kglens_tui.modes.facteval.compare import (
    facteval_compare_renderables,
    facteval_partners,
    load_run_scores,
)
from kglens_tui.modes.facteval.engine import FactevalEngine, FactevalMetrics, FactevalRow
from kglens_tui.modes.facteval.headline import NOTE, facteval_headline
from kglens_tui.modes.facteval.live import LIVE_HELP, live_panels
from kglens_tui.modes.facteval.plan import PlannedQuestion, plan_facteval
from kglens_tui.modes.facteval.report import facteval_run_panels
from kglens_tui.modes.results import UnitResults
from kglens_tui.modes.store import write_facteval_plan
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.panels import Panel
from kglens_tui.runs.prompts import PROMPT_NAMES
from kglens_tui.runs.record import RunRecord
from kglens_tui.runs.registry import register
from kglens_tui.runs.unit_mode import UnitMode


def _compare_tables(conn: sqlite3.Connection, runs: Sequence[int]) -> list[RenderableType]:
    """F1 and abstention per question type and context (Table 2), template- against LLM-written
    questions."""
    return [*facteval_compare_renderables(load_run_scores(conn, runs))]


class FactevalMode(
    UnitResults, UnitMode[FactevalConfig, list[PlannedQuestion], FactevalMetrics, FactevalRow]
):
    name = FACTEVAL
    label = "fact-eval"
    command = "facteval run"
    compare = "facteval compare"
    report = "facteval report"
    unit = "question"
    compare_tables = staticmethod(_compare_tables)
    partners = staticmethod(facteval_partners)
    config_type = FactevalConfig
    engine_type = FactevalEngine
    live_panels = staticmethod(live_panels)
    command_group = GROUP
    headline_note = NOTE
    live_help = LIVE_HELP
    prompts = tuple(n for n in PROMPT_NAMES if n.startswith("facteval_"))

    def question_sources(self, conn: sqlite3.Connection, run_id: int) -> dict[str, int]:
        """Each question by who wrote it."""
        rows = conn.execute(
            "SELECT generator, COUNT(*) FROM facteval_question WHERE run_id = ? "
            "GROUP BY generator ORDER BY 2 DESC, 1",
            (run_id,),
        ).fetchall()
        return {str(g): int(n) for g, n in rows}

    def headline_of(self, metrics: FactevalMetrics) -> Headline:
        return facteval_headline(metrics)

    def report_figures(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[FactevalConfig],
        metrics: FactevalMetrics,
        latest: int,
    ) -> list[Panel]:
        """Chance first, scores per question kind and context, per relation, Tables 6 and 7."""
        return facteval_run_panels(conn, run.id, metrics)

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


MODE = register(FactevalMode())
