"""KGLens (the paper's probing loop) as a registered mode: how a run is set up (clients, the
edges it asks about, the run row), driven to its end, and looked at when stored."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

import numpy as np
from rich.console import RenderableType

from kglens_tui.answers.bias import bias_from_counts
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg, predicate_keys
from kglens_tui.kg.positions import run_edge_positions
from kglens_tui.llm.base import ChatClient
from kglens_tui.modes.kglens.config import Difficulty, RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine, ProbeSnapshot, start_run
from kglens_tui.modes.kglens.live import LIVE_HELP, live_panels
from kglens_tui.modes.kglens.plan import follow, plan_leader
from kglens_tui.modes.kglens.progress import probe_figures, rate_items
from kglens_tui.modes.kglens.questions import wh_allowed
from kglens_tui.modes.kglens.runstore import load_kglens_run, refuse_before_rolling_floor
from kglens_tui.runs.clients import ViewOnlyTarget, helper_client, target_client
from kglens_tui.runs.commands import CommandGroup
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.manifest import check_kg_unchanged
from kglens_tui.runs.messages import RunSnapshot, snapshot_as
from kglens_tui.runs.panels import LiveLayout, Panel
from kglens_tui.runs.progress import Advance
from kglens_tui.runs.record import KGLENS, load_run_to_resume
from kglens_tui.runs.registry import Engine, register
from kglens_tui.textfmt import counted


async def drive(engine: Engine[RunSnapshot]) -> ProbeSnapshot:
    """Run an engine (one `prepare` made) to its end, then close its target, generator and
    judge clients."""
    if not isinstance(engine, ProbeEngine):
        raise TypeError(f"a KGLens run is driven by its own engine, not {engine!r}")
    try:
        return await engine.run_to_end()
    finally:
        for client in (engine.target, engine.generator, engine.judge):
            if client is not None:
                await client.aclose()


def prepare(
    conn: sqlite3.Connection,
    *,
    config: ModeConfig | None = None,
    resume: int | None = None,
    name: str = "",
    on_progress: Callable[[ProbeSnapshot], None] | None = None,
    target: ChatClient | None = None,
    generator: ChatClient | None = None,
) -> ProbeEngine:
    """An engine for a new run (config) or an existing one (resume); ``target`` and
    ``generator`` replace the clients the settings name."""
    if resume is not None:
        run = load_run_to_resume(conn, resume, KGLENS, RunConfig)
        refuse_before_rolling_floor(conn, resume, "resuming it")
        kg = load_kg(conn, run.kg_name)
        config = run.config
        check_kg_unchanged(run, kg)
        client = target or target_client(config, kg, run.edge_ids)
        made, judge = _helpers(config)
    else:
        if not isinstance(config, RunConfig):
            raise ConfigError(f"a KGLens run takes RunConfig settings, not {type(config).__name__}")
        config.validate()
        leader = None if config.plan_of is None else plan_leader(conn, config.plan_of)
        if leader is not None:
            config = follow(config, leader)
        check_new_run(config)
        ensure_kg(conn, config.kg)
        kg = load_kg(conn, config.kg)
        extra: dict[str, int] = {}
        if leader is not None:
            check_kg_unchanged(leader, kg)
            positions = np.array([kg.edge_position(int(e)) for e in leader.edge_ids], np.int64)
        else:
            config.predicates = predicate_keys(kg, config.predicates)
            positions = run_edge_positions(conn, kg, config.subset, config.predicates)
        if config.difficulty is Difficulty.WH and leader is None:
            allowed = wh_allowed(kg, positions, config.wh_max_objects)
            if not allowed.any():
                raise ValueError(
                    f"no edge of KG '{kg.name}' in this selection allows a Wh question "
                    f"(a predicate with a Wh template and fewer than {config.wh_max_objects} "
                    "objects per subject): use --difficulty easy or hard"
                )
            extra["wh_left_out"] = int((~allowed).sum())
            positions = positions[allowed]
        client = target or target_client(config, kg, kg.edge_ids[positions])
        made, judge = _helpers(config)  # before the run is stored: a failed start stores none
        run = start_run(conn, config, client, kg, positions, name=name, manifest_extra=extra)
    return ProbeEngine(
        conn,
        run,
        kg,
        client,
        generator=generator or made,
        judge=judge,
        on_progress=on_progress,
    )


def _helpers(config: RunConfig) -> tuple[ChatClient | None, ChatClient | None]:
    """The run's generator and judge clients (None for the templates / the alias matcher, and
    no generator for a run that asks another run's questions as they were worded)."""
    generator = None if config.plan_of is not None else helper_client(config.generator, config)
    return generator, helper_client(config.verifier, config)


def open_snapshot(conn: sqlite3.Connection, run_id: int) -> ProbeSnapshot:
    """A run's progress rebuilt from the database, without contacting its target."""
    run = load_kglens_run(conn, run_id)
    kg = load_kg(conn, run.kg_name)
    engine = ProbeEngine(conn, run, kg, ViewOnlyTarget(run.target_label, run.simulated))
    (engine.status, engine.stop_reason), engine.error = run.shown, run.error
    engine.stats.started = time.monotonic()
    return engine.snapshot()


class KGLensMode:
    name = KGLENS
    label = "KGLens"
    command = "probe"
    compare = "compare"
    report = "report"
    observations = True
    command_group: CommandGroup | None = None
    """None: its commands (`probe`, `report`, `compare`...) are top-level."""
    headline_note = ""
    """Empty: its figures are the runs list's rate columns, with their own notes."""
    config_type = RunConfig
    prepare = staticmethod(prepare)
    drive = staticmethod(drive)
    open_snapshot = staticmethod(open_snapshot)

    @staticmethod
    def planned_requests(conn: sqlite3.Connection | None, config: RunConfig) -> int:
        """Every iteration asks a full batch (the budget aside)."""
        return int(config.iterations) * int(config.batch_size)

    @staticmethod
    def advance(snapshot: RunSnapshot) -> Advance:
        """Committed iterations of those planned (a resume that asks again what failed in the
        last one adds one)."""
        snap = snapshot_as(snapshot, ProbeSnapshot)
        assert snap is not None
        return Advance(snap.iteration, max(snap.iteration, snap.iterations_total), "iteration")

    quit_ending = "dropping the iteration in progress"

    @staticmethod
    def quit_question(snapshot: RunSnapshot | None) -> str:
        """An iteration is committed whole or not at all: the one in progress is dropped with the
        replies it has in (counted when the snapshot says so); `s` commits it instead."""
        tally = getattr(snapshot, "uncommitted", None)
        replies = (
            f" ({counted(tally.requests, 'reply', 'replies')} in)"
            if tally is not None and tally.requests
            else ""
        )
        return (
            f"A run is active. Quit? The iteration in progress{replies} is dropped (a resume asks "
            "it again); committed iterations are kept and the run can be resumed. To keep that "
            "iteration, answer n and press s: the run stops once its replies are in."
        )

    @staticmethod
    def start_note(config: ModeConfig) -> str:
        """Its difficulty, and its sampler or the earlier run whose questions it asks."""
        if not isinstance(config, RunConfig):
            return ""
        plan = config.plan_of
        asks = f"run {plan}'s questions" if plan is not None else str(config.sampler)
        return f"{config.difficulty}, {asks}"

    @staticmethod
    def progress_lines(snapshot: RunSnapshot) -> list[str]:
        """Each rate with its 95% interval and what chance scores on the questions asked so
        far (as of the snapshot's insights), and n; the answer-bias warning when the Yes/No
        replies lean one way and tell no knowledge (as `kglens report` gives it)."""
        snap = snapshot_as(snapshot, ProbeSnapshot)
        assert snap is not None
        warning = bias_from_counts(snap.yes_no).warning()
        return [*rate_items(probe_figures(snap, snap.baseline)), *([warning] if warning else [])]

    @staticmethod
    def headline(conn: sqlite3.Connection, run_id: int) -> Headline | None:
        """None: a KGLens run's figures are the runs list's rate columns."""
        return None

    @staticmethod
    def results(
        conn: sqlite3.Connection, run_id: int, compare: bool
    ) -> tuple[str, list[RenderableType]] | None:
        """None: a stored KGLens run opens on its live screen."""
        return None

    @staticmethod
    def first_run(config: ModeConfig, local: bool) -> ModeConfig:
        """For the local model small batches (first metrics within a minute on a CPU) and open
        questions (SmolLM2's Yes/No answers carry no knowledge, it says No to nearly
        everything; its open answers do, by predicate, and the first run should show that)."""
        if local and isinstance(config, RunConfig):
            config.batch_size = min(config.batch_size, 16)
            config.difficulty = Difficulty.WH
        return config

    live_layout = LiveLayout.PROBE
    live_help = LIVE_HELP

    live_panels = staticmethod(live_panels)

    @staticmethod
    def report_panels(conn: sqlite3.Connection, run_id: int, latest: int = 15) -> list[Panel]:
        """None: a KGLens run's report is `kglens report RUN`'s, read from its observations."""
        return []


MODE = register(KGLensMode())
