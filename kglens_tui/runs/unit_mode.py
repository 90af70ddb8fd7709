"""A mode made of planned test units (KONTEST, fact-eval, a plugin's): plan, ask, score, commit.

A unit mode subclasses `UnitMode` (what to plan and how to store the plan) and `ModeEngine` (how to
ask and score one unit, store its rows, and compute the metrics), then calls `register`. The
harness does the rest: the run row and manifest, ownership and resume, budgets of failures,
commits, the child process, pause / resume / stop and the stored view.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np
from rich.console import RenderableType

from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import KGIndex, load_kg, predicate_keys
from kglens_tui.llm.base import ChatClient
from kglens_tui.runs.clients import ViewOnlyTarget, helper_client, target_client
from kglens_tui.runs.commands import CommandGroup
from kglens_tui.runs.config import ConfigError, ConfigT, ModeConfig, check_new_run
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.manifest import build_manifest, check_kg_unchanged
from kglens_tui.runs.messages import RunSnapshot, snapshot_as
from kglens_tui.runs.panel_rich import panel_renderables
from kglens_tui.runs.panels import LiveLayout, Panel
from kglens_tui.runs.progress import Advance
from kglens_tui.runs.record import (
    Manifest,
    RunRecord,
    create_run,
    load_run_as,
    load_run_to_resume,
)
from kglens_tui.runs.registry import Engine
from kglens_tui.runs.unit_report import head_panels, sources_panels
from kglens_tui.runs.units import MetricsT, ModeEngine, ModeSnapshot, RowT
from kglens_tui.store.connection import transaction

PlanT = TypeVar("PlanT")
"""What a new run of a unit mode asks (its relations, its questions, its edges)."""


class UnitMode(Generic[ConfigT, PlanT, MetricsT, RowT]):
    """The `Mode` of a unit engine; subclasses set the class attributes and `plan`. Generic over
    the mode's settings, plan, metrics and stored rows."""

    name = ""
    label = ""
    compare = ""
    report = ""
    observations = False
    unit = "unit"
    """What the mode's plan is made of, as progress lines count it."""
    config_type: type[ConfigT]
    engine_type: type[ModeEngine[ConfigT, MetricsT, RowT]]
    prompts: tuple[str, ...] = ()
    """Prompt names whose hashes go into the manifest."""
    command_group: CommandGroup | None = None
    """Its own commands on the command line (see `Mode.command_group`); none here."""
    headline_note = ""
    """How `kglens runs` words its headline (see `Mode.headline_note`); none here."""

    @property
    def command(self) -> str:
        """`kglens run NAME` (a mode with a command of its own sets it)."""
        return f"run {self.name}"

    def advance(self, snapshot: RunSnapshot) -> Advance:
        """Units done of those planned."""
        snap = snapshot_as(snapshot, ModeSnapshot)
        assert snap is not None
        return Advance(snap.units_done, snap.units_total, self.unit)

    def progress_lines(self, snapshot: RunSnapshot) -> list[str]:
        """None: the progress line has the counts."""
        return []

    quit_ending = "keeping the answered units"

    def quit_question(self, snapshot: RunSnapshot | None) -> str:
        """Each answered unit is committed: only those in flight are dropped."""
        return (
            "A run is active. Quit? Its units in flight are dropped (a resume asks them again); "
            "every answered unit is kept and the run can be resumed."
        )

    written = "questions"
    """What `question_sources` counts, as its report words it."""

    def question_sources(self, conn: sqlite3.Connection, run_id: int) -> dict[str, int]:
        """A run's questions by who wrote them ("llm:MODEL", "template", or "template (why the
        LLM's was not used)"), most first; none for a mode whose questions are all templates."""
        return {}

    def start_note(self, config: ModeConfig) -> str:
        """None: its progress says how many units it asks."""
        return ""

    def plan(self, conn: sqlite3.Connection, kg: KGIndex, config: ConfigT) -> PlanT:
        """What a new run asks; ConfigError (or ValueError) when it would ask nothing."""
        raise NotImplementedError

    def plan_edge_ids(self, plan: PlanT) -> list[int]:
        """The KG edges a plan asks about, sorted and distinct."""
        raise NotImplementedError

    def plan_requests(self, plan: PlanT) -> int | None:
        """The target requests a plan makes when every unit is asked once (None: unknown)."""
        return None

    def headline(self, conn: sqlite3.Connection, run_id: int) -> Headline | None:
        """`headline_of` the stored run's metrics; None when it cannot be read."""
        try:
            metrics = self.open_snapshot(conn, run_id).metrics
            return None if metrics is None else self.headline_of(metrics)
        except (LookupError, ValueError, TypeError):
            return None

    def headline_of(self, metrics: MetricsT) -> Headline | None:
        """A run's headline figures from its metrics (see `Mode.headline`); none here."""
        return None

    def results(
        self, conn: sqlite3.Connection, run_id: int, compare: bool
    ) -> tuple[str, list[RenderableType]] | None:
        """Its report (`report_panels`, as the command line prints it) or, with ``compare``,
        its `comparison` (see `Mode.results`)."""
        if compare:
            return self.comparison(conn, run_id)
        title = f"{self.label[:1].upper()}{self.label[1:]} run {run_id}"
        shown = panel_renderables(self.report_panels(conn, run_id))
        return (f"{title} ({self.report})" if self.report else title), shown

    def comparison(
        self, conn: sqlite3.Connection, run_id: int
    ) -> tuple[str, list[RenderableType]] | None:
        """None: a unit mode without a comparison of its runs."""
        return None

    def report_panels(self, conn: sqlite3.Connection, run_id: int, latest: int = 15) -> list[Panel]:
        """The run's settings, status and requests (`head_panels`), the mode's figures
        (`report_figures`), and its questions by who wrote them (`question_sources`)."""
        run = load_run_as(conn, run_id, self.name, self.config_type)
        snap = self.open_snapshot(conn, run_id)
        return [
            *head_panels(conn, run, snap, self.label),
            *self.report_figures(conn, run, snap.metrics, latest),
            *sources_panels(self.question_sources(conn, run_id), self.written),
        ]

    def report_figures(
        self, conn: sqlite3.Connection, run: RunRecord[ConfigT], metrics: MetricsT, latest: int
    ) -> list[Panel]:
        """A stored run's figures in its report, each rate with its interval and chance
        (``latest``: how many of its latest findings to list); none here."""
        return []

    def first_run(self, config: ModeConfig, local: bool) -> ModeConfig:
        """The default settings, unchanged."""
        return config

    live_layout = LiveLayout.PANELS
    live_help = ""
    """Nothing of its own: the live screen's help has its keys and what every unit mode's
    progress means."""

    def live_panels(self, snapshot: RunSnapshot) -> list[Panel]:
        """None: a unit mode whose live screen shows its progress and replies only (see
        `Mode.live_panels`)."""
        return []

    def planned_requests(self, conn: sqlite3.Connection | None, config: ModeConfig) -> int | None:
        """`plan_requests` of the plan a new run of ``config`` would make (read only: nothing
        is stored; the KG is imported first where it is a bundled one not imported yet); None
        without a connection to read it through."""
        if conn is None:
            return None
        ensure_kg(conn, config.kg)
        plan = self.plan(conn, load_kg(conn, config.kg), dataclasses.replace(self.given(config)))
        return self.plan_requests(plan)

    def write_plan(self, conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: PlanT) -> None:
        """Store the plan inside the caller's transaction (nothing when the edges say it all)."""

    def manifest(self, kg: KGIndex, config: ConfigT, target: ChatClient) -> Manifest:
        """What makes a run reproducible: KG hash, prompt hashes, settings, versions."""
        return build_manifest(self.name, kg, config, target, self.prompts)

    def plan_notes(self, plan: PlanT) -> Manifest:
        """Counts about the plan the manifest keeps (what was left out and why); none here."""
        return {}

    def create_run(
        self,
        conn: sqlite3.Connection,
        kg: KGIndex,
        config: ConfigT,
        target: ChatClient,
        plan: PlanT,
        name: str = "",
    ) -> int:
        """Store a new run with its plan; the run row goes away again if the plan cannot be
        stored."""
        run_id = create_run(
            conn,
            kg.kg_id,
            config,
            {**self.manifest(kg, config, target), **self.plan_notes(plan)},
            target.label,
            bool(target.simulated),
            np.array(self.plan_edge_ids(plan), dtype=np.int64),
            name=name,
            mode=self.name,
        )
        try:
            with transaction(conn):
                self.write_plan(conn, kg, run_id, plan)
        except BaseException:
            conn.execute("DELETE FROM run WHERE id = ?", (run_id,))
            raise
        return run_id

    def prepare(
        self,
        conn: sqlite3.Connection,
        *,
        config: ModeConfig | None = None,
        resume: int | None = None,
        name: str = "",
        target: ChatClient | None = None,
        generator: ChatClient | None = None,
        on_progress: Callable[[ModeSnapshot[MetricsT]], None] | None = None,
    ) -> ModeEngine[ConfigT, MetricsT, RowT]:
        """An engine for a new run (config) or a stored one (resume: asks what is missing and
        what failed). ``target`` and ``generator`` replace the clients the settings name."""
        if resume is not None:
            run = load_run_to_resume(conn, resume, self.name, self.config_type)
            kg = load_kg(conn, run.kg_name)
            check_kg_unchanged(run, kg)
            client = target or target_client(run.config, kg, run.edge_ids)
            helper = generator or helper_client(run.config.generator, run.config)
        else:
            if config is None:
                raise ConfigError("a new run needs its settings")
            config = self.given(config)
            config.validate()
            check_new_run(config)
            ensure_kg(conn, config.kg)
            kg = load_kg(conn, config.kg)
            if config.predicates:
                config.predicates = predicate_keys(kg, config.predicates)
            plan = self.plan(conn, kg, config)
            client = target or target_client(config, kg, self.plan_edge_ids(plan))
            # the generator is built before the run is stored: a run that cannot start stores none
            helper = generator or helper_client(config.generator, config)
            run_id = self.create_run(conn, kg, config, client, plan, name=name)
            run = load_run_as(conn, run_id, self.name, self.config_type)
        engine = self.engine_type(
            conn,
            run,
            kg,
            client,
            generator=helper,
            on_progress=on_progress,
        )
        if resume is not None:  # its feed starts with what it answered before
            engine.load_recent()
        return engine

    def given(self, config: ModeConfig) -> ConfigT:
        """``config`` as this mode's settings; ConfigError when it holds another mode's."""
        if not isinstance(config, self.config_type):
            raise ConfigError(
                f"a {self.label} run takes {self.config_type.__name__} settings, "
                f"not {type(config).__name__}"
            )
        return config

    async def drive(self, engine: Engine[RunSnapshot]) -> ModeSnapshot[MetricsT]:
        """Run an engine (one `prepare` made) to its end and close its clients."""
        if not isinstance(engine, self.engine_type):
            raise TypeError(f"a {self.label} run is driven by its own engine, not {engine!r}")
        try:
            return await engine.run_to_end()
        finally:
            for client in (engine.target, engine.generator):
                if client is not None:
                    await client.aclose()

    def open_snapshot(self, conn: sqlite3.Connection, run_id: int) -> ModeSnapshot[MetricsT]:
        """A stored run's progress and metrics, and its latest questions and replies as the
        engine that asked them showed them, without contacting its target. Read again while
        another process drives the run (`StoredRun`), it has what that process committed."""
        run = load_run_as(conn, run_id, self.name, self.config_type)
        kg = load_kg(conn, run.kg_name)
        engine = self.engine_type(conn, run, kg, ViewOnlyTarget(run.target_label, run.simulated))
        (engine.status, engine.stop_reason), engine.error = run.shown, run.error
        engine.load_recent()
        return engine.snapshot()
