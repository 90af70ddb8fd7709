"""Drill-down on one edge of a run: every question asked, the reply, its verdict and the
verifier's reasoning, the triage trail, and alpha / beta / m / n after every iteration."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.blindspots import EdgeRow, edge_rows
from kglens_tui.analysis.errortypes import detect, error_type_of
from kglens_tui.analysis.rundata import HistoryPoint, RunData
from kglens_tui.analysis.triage import TriageEntry, current_entries
from kglens_tui.core.errors import NotFoundError
from kglens_tui.kg.graph import Neighbourhood
from kglens_tui.modes.kglens.config import PropagationMode
from kglens_tui.textfmt import counted


@dataclass(frozen=True)
class ReplyView:
    """One asked question with its reply.

    category is the verdict as logged; effective is the one the adjusted metrics use (a
    verifier override, or "excluded" for a KG error). error_type is set for incorrect replies.
    """

    observation_id: int
    iteration: int
    slot: int
    qtype: str
    generator: str
    question: str
    candidate: str
    expected: str
    expected_answers: list[list[str]]
    reply: str
    category: str
    effective: str
    verifier: str
    error: str
    detected: tuple[str, ...]
    error_type: str | None
    triage: tuple[TriageEntry, ...]


@dataclass(frozen=True)
class EdgeDetail:
    """Everything the drill-down screen shows for one edge."""

    edge: EdgeRow
    replies: list[ReplyView]
    history: list[HistoryPoint]
    triage: list[TriageEntry]
    retracted: frozenset[int]
    true_objects: list[str]
    neighbours: int
    """The edge's one-hop neighbours among the run's edges (`one_hop_neighbours`)."""
    neighbours_unused: str
    """How the run's propagation uses the neighbours when it does not add their outcomes to the
    edge's (learned: pooled through the model's effects; off: not at all); "" when it does (sum
    and degree)."""

    @property
    def neighbours_text(self) -> str:
        """ "3 neighbours", or "3 neighbours (pooled through the learned model, not summed)"."""
        said = counted(self.neighbours, "neighbour")
        return f"{said} ({self.neighbours_unused})" if self.neighbours_unused else said


def neighbours_unused(data: RunData) -> str:
    """`EdgeDetail.neighbours_unused` of the run."""
    cfg = data.run.config
    if not cfg.propagation:
        return "not used: propagation off"
    if cfg.propagation_mode == PropagationMode.LEARNED:
        return "pooled through the learned model, not summed"
    return ""


def one_hop_neighbours(data: RunData, pos: int) -> int:
    """How many of the run's edges share a node with the edge at run position ``pos``, whatever
    the run's propagation (the neighbourhood sum and degree propagation use)."""
    nb = data.neighbourhood
    if nb is None:
        kg = data.kg
        nb = Neighbourhood(kg.s[data.kg_pos], kg.o[data.kg_pos], len(kg.entity_keys))
    return len(nb.neighbours(pos))


def edge_detail(data: RunData, edge_id: int, *, adjusted: bool = True) -> EdgeDetail:
    """The drill-down of one run edge (KeyError when the edge is not in the run)."""
    pos = data.position_of.get(int(edge_id))
    if pos is None:
        raise NotFoundError(f"edge {edge_id} is not probed by run {data.run.id}")
    row = edge_rows(data, np.array([pos]), adjusted=adjusted)[0]
    log = [e for e in data.triage if e.edge_id == int(edge_id)]
    in_force = {e.id for e in current_entries(log)}
    retracted = frozenset(e.id for e in log if e.action != "retract" and e.id not in in_force)
    cat = data.categories(adjusted)
    detected = detect(data, adjusted)
    replies = []
    for i in np.flatnonzero(data.obs.pos == pos).tolist():
        oid = int(data.obs.id[i])
        replies.append(
            ReplyView(
                observation_id=oid,
                iteration=int(data.obs.iteration[i]),
                slot=int(data.obs.slot[i]),
                qtype=data.obs.qtype[i],
                generator=data.obs.generator[i],
                question=data.obs.question[i],
                candidate=data.candidate_label(i),
                expected=data.obs.expected[i],
                expected_answers=data.expected_answers(i),
                reply=data.obs.reply[i],
                category=str(data.obs.category[i]),
                effective=str(cat[i]),
                verifier=data.obs.verifier[i],
                error=data.obs.error[i],
                detected=detected.get(i, ()),
                error_type=error_type_of(data, i, detected) if cat[i] == "incorrect" else None,
                triage=tuple(e for e in log if e.observation_id == oid),
            )
        )
    kg = data.kg
    i = int(data.kg_pos[pos])
    true = kg.true_objects(int(kg.s[i]), int(kg.p[i]))
    return EdgeDetail(
        edge=row,
        replies=replies,
        history=data.history(pos, adjusted),
        triage=log,
        retracted=retracted,
        true_objects=[kg.labels[int(o)] for o in true.tolist()],
        neighbours=one_hop_neighbours(data, pos),
        neighbours_unused=neighbours_unused(data),
    )
