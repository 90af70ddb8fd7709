"""Several targets on one plan: a run that asks the questions another KGLens run asked (its
plan), iteration by iteration and slot by slot, instead of drawing its own, so that two models
are compared on the same questions (`analysis.paired`).

The plan's run leads: its sampler chose each batch from its own posterior, and each of its floor
visits stores its pass of the rolling census (`probe.design`). A follower asks the same questions
with the same floor visits, so its KG-wide estimate rests on the same census as the leader's,
and the two estimates' difference can be taken answer by answer.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass

from kglens_tui.kg.graph import KGIndex
from kglens_tui.modes.kglens.config import RunConfig, Scheduling
from kglens_tui.modes.kglens.runstore import (
    KGLensRun,
    load_kglens_run,
    refuse_before_rolling_floor,
)
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.record import RunNotFoundError

PLAN_SETTINGS = (
    "kg",
    "subset",
    "predicates",
    "difficulty",
    "seed",
    "sampler",
    "design_floor",
    "batch_size",
    "wh_max_objects",
    "prompt_order",
    "generator",
    "epsilon",
    "blind_spots",
    "propagation",
    "propagation_mode",
    "propagation_weight",
)
"""What a run that follows a plan takes from the plan's run: what decides the questions and how
they are put, and how the posterior and blind spots are kept (so that those compare too)."""


def plan_leader(conn: sqlite3.Connection, run_id: int) -> KGLensRun:
    """The KGLens run whose questions a new run is to ask; ConfigError naming what is wrong."""
    try:
        leader = load_kglens_run(conn, run_id)
    except RunNotFoundError as exc:
        raise ConfigError(f"plan_of: {exc}") from None
    if leader.config.plan_of is not None:
        raise ConfigError(
            f"plan_of: run {run_id} follows run {leader.config.plan_of}'s plan: "
            f"give {leader.config.plan_of}"
        )
    if leader.iterations_done < 1:
        raise ConfigError(f"plan_of: run {run_id} has asked nothing yet")
    try:
        refuse_before_rolling_floor(conn, run_id, "following its plan")
    except ConfigError as exc:
        raise ConfigError(f"plan_of: {exc}") from None
    return leader


def follow(config: RunConfig, leader: KGLensRun) -> RunConfig:
    """``config`` with the leader's `PLAN_SETTINGS`, as many iterations as the leader made,
    synchronous and without stopping on convergence (the whole plan is asked)."""
    taken = {name: getattr(leader.config, name) for name in PLAN_SETTINGS}
    return dataclasses.replace(
        config,
        **taken,
        plan_of=leader.id,
        iterations=leader.iterations_done,
        stop_on_convergence=False,
        scheduling=Scheduling.SYNC,
    )


@dataclass(frozen=True)
class PlannedAsk:
    """One question the leader asked, as stored."""

    slot: int
    pos: int
    edge_id: int
    qtype: str
    generator: str
    text: str
    candidate: int | None
    """KG node asked about (Yes/No)."""
    expected: str
    expected_answers: tuple[tuple[str, ...], ...]
    floor_pass: int | None
    """The floor's pass when the question is a floor visit (None: a pick or a retry)."""


class Plan:
    """Reads the leader's questions and draws an iteration at a time."""

    def __init__(self, conn: sqlite3.Connection, leader: KGLensRun, kg: KGIndex) -> None:
        self.conn = conn
        self.leader = leader
        self._node_of = kg.node_of_entity
        self._pos_of = {int(e): i for i, e in enumerate(leader.edge_ids.tolist())}

    @property
    def iterations(self) -> int:
        return self.leader.iterations_done

    def asks(self, iteration: int) -> list[PlannedAsk]:
        """The leader's questions of one iteration, in slot order (none past its last)."""
        rows = self.conn.execute(
            "SELECT slot, edge_id, qtype, generator, question, candidate_id, expected, "
            "expected_answers, floor_pass FROM observation "
            "WHERE run_id = ? AND iteration = ? ORDER BY slot",
            (self.leader.id, iteration),
        ).fetchall()
        return [
            PlannedAsk(
                slot=int(r[0]),
                pos=self._pos_of[int(r[1])],
                edge_id=int(r[1]),
                qtype=r[2],
                generator=r[3],
                text=r[4],
                candidate=None if r[5] is None else self._node_of[int(r[5])],
                expected=r[6],
                expected_answers=tuple(tuple(g) for g in json.loads(r[7] or "[]")),
                floor_pass=r[8],
            )
            for r in rows
        ]
