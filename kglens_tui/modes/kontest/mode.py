"""KONTEST as a registered mode: plan paraphrase pairs and paths, store the plan."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from rich.console import RenderableType

from kglens_tui.kg.graph import KGIndex
from kglens_tui.modes.config import KONTEST, KontestConfig
from kglens_tui.modes.kontest.commands import GROUP
from kglens_tui.modes.kontest.compare import (
    ensemble_renderables,
    kontest_partners,
    load_overlap,
    overlap_renderables,
    template3_partners,
)
from kglens_tui.modes.kontest.engine import KontestEngine
from kglens_tui.modes.kontest.headline import NOTE, kontest_headline
from kglens_tui.modes.kontest.live import LIVE_HELP, live_panels
from kglens_tui.modes.kontest.metrics import CONVERSATIONS, KontestMetrics
from kglens_tui.modes.kontest.plan import KontestPlan, plan_kontest
from kglens_tui.modes.kontest.report import kontest_panels
from kglens_tui.modes.results import UnitResults
from kglens_tui.modes.store import KontestQueryRow, write_kontest_plan
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.panels import Panel
from kglens_tui.runs.prompts import PROMPT_NAMES
from kglens_tui.runs.record import Manifest, RunRecord, manifest_count
from kglens_tui.runs.registry import register
from kglens_tui.runs.unit_mode import UnitMode


def _compare_tables(conn: sqlite3.Connection, runs: Sequence[int]) -> list[RenderableType]:
    """Errors per run, unique and shared (Fig. 4), then the weighted ensemble (Table 5)."""
    loaded, overlap = load_overlap(conn, runs)
    tables: list[RenderableType] = [*overlap_renderables(loaded, overlap)]
    if overlap.relations:
        tables += ensemble_renderables(conn, runs, template3_partners(conn, runs))
    return tables


class KontestMode(
    UnitResults, UnitMode[KontestConfig, KontestPlan, KontestMetrics, KontestQueryRow]
):
    name = KONTEST
    label = "KONTEST"
    command = "consistency run"
    compare = "consistency compare"
    report = "consistency report"
    unit = "relation"
    written = "second phrasings"
    compare_tables = staticmethod(_compare_tables)
    partners = staticmethod(kontest_partners)
    config_type = KontestConfig
    engine_type = KontestEngine
    live_panels = staticmethod(live_panels)
    command_group = GROUP
    headline_note = NOTE
    live_help = LIVE_HELP
    prompts = tuple(n for n in PROMPT_NAMES if n.startswith("kontest_"))

    def question_sources(self, conn: sqlite3.Connection, run_id: int) -> dict[str, int]:
        """Each relation's second phrasing (the one a paraphraser writes) by who wrote it."""
        rows = conn.execute(
            "SELECT generator, COUNT(DISTINCT relation) FROM kontest_query "
            "WHERE run_id = ? AND template = 2 GROUP BY generator ORDER BY 2 DESC, 1",
            (run_id,),
        ).fetchall()
        return {str(g): int(n) for g, n in rows}

    def headline_of(self, metrics: KontestMetrics) -> Headline:
        return kontest_headline(metrics)

    def report_figures(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[KontestConfig],
        metrics: KontestMetrics,
        latest: int,
    ) -> list[Panel]:
        """Chance first, Tables 3 and 4, per predicate, the ``latest`` inconsistencies."""
        return kontest_panels(metrics, latest, manifest_count(run, "gives_away_left_out"))

    def plan(self, conn: sqlite3.Connection, kg: KGIndex, config: KontestConfig) -> KontestPlan:
        plan = plan_kontest(conn, kg, config)
        if not plan.relations:
            raise ConfigError(f"nothing to test in KG '{kg.name}' with these settings")
        return plan

    def plan_requests(self, plan: KontestPlan) -> int:
        """Every relation is asked in each conversation, a question per turn."""
        return len(plan.relations) * sum(len(turns) for turns in CONVERSATIONS.values())

    def plan_notes(self, plan: KontestPlan) -> Manifest:
        return {"gives_away_left_out": plan.gives_away}

    def plan_edge_ids(self, plan: KontestPlan) -> list[int]:
        return sorted({r.edge_id for r in plan.relations if r.edge_id is not None})

    def write_plan(
        self, conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: KontestPlan
    ) -> None:
        write_kontest_plan(conn, kg, run_id, plan)


MODE = register(KontestMode())
