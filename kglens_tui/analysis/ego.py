"""An ego graph around an entity as plain data (paper Fig. 2): nodes with a radial layout and
edges with their expected error rate, for the terminal screen and the exports to draw."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.rundata import RunData
from kglens_tui.core.errors import NotFoundError
from kglens_tui.core.intervals import LEVEL, beta_interval


@dataclass(frozen=True)
class EgoNode:
    """A node; depth is its hop distance from the centre; (x, y) lie in [0, 1] with the centre
    at (0.5, 0.5) and depth d on a ring of radius 0.45 * d / radius."""

    key: str
    label: str
    type: str
    depth: int
    x: float
    y: float
    degree: int
    mean_error: float | None


@dataclass(frozen=True)
class EgoEdge:
    """An edge; the rate fields are None for edges the run does not probe (dead or outside
    its subset)."""

    edge_id: int
    source: str
    target: str
    predicate: str
    in_run: bool
    mean: float | None
    low: float | None
    high: float | None
    m: int
    n: int
    zero_sense: bool
    kg_error: bool


@dataclass(frozen=True)
class EgoGraph:
    """Nodes and edges within `radius` hops of `center`; truncated when max_edges cut edges."""

    center: str
    radius: int
    nodes: list[EgoNode]
    edges: list[EgoEdge]
    truncated: bool


def resolve_entity(data: RunData, entity: str) -> int:
    """The node index of an entity key, label or alias (case-insensitive); KeyError if none."""
    kg = data.kg
    try:
        return kg.node(entity)
    except KeyError:
        folded = entity.casefold()
        for i, label in enumerate(kg.labels):
            if label.casefold() == folded:
                return i
        for i, aliases in enumerate(kg.aliases):
            if any(a.casefold() == folded for a in aliases):
                return i
    raise NotFoundError(f"no entity '{entity}' in KG '{kg.name}'")


def ego_graph(
    data: RunData,
    entity: str,
    *,
    radius: int = 1,
    max_edges: int = 150,
    include_unprobed: bool = True,
    adjusted: bool = True,
    level: float = LEVEL,
) -> EgoGraph:
    """The KG around an entity: edges are taken hop by hop (nearer first; within a hop, probed
    edges with higher expected error first) until max_edges."""
    if radius < 1:
        raise ValueError("radius must be at least 1")
    kg = data.kg
    center = resolve_entity(data, entity)
    run_pos = {int(k): p for p, k in enumerate(data.kg_pos.tolist())}
    mean = data.mean_error(adjusted)
    state = data.state(adjusted)
    m, n = data.counts(adjusted)
    bad = data.kg_error_mask(adjusted)
    depth = {center: 0}
    frontier = [center]
    chosen: list[int] = []
    seen_edges: set[int] = set()
    truncated = False
    for hop in range(1, radius + 1):
        touching = np.flatnonzero(np.isin(kg.s, frontier) | np.isin(kg.o, frontier))
        new = [int(i) for i in touching.tolist() if int(i) not in seen_edges]
        if not include_unprobed:
            new = [i for i in new if i in run_pos]
        new.sort(key=lambda i: (i not in run_pos, -mean[run_pos[i]] if i in run_pos else 0.0, i))
        room = max_edges - len(chosen)
        if len(new) > room:
            new, truncated = new[:room], True
        chosen += new
        seen_edges.update(new)
        frontier = []
        for i in new:
            for node in (int(kg.s[i]), int(kg.o[i])):
                if node not in depth:
                    depth[node] = hop
                    frontier.append(node)
        if truncated or not frontier:
            break
    probed = [run_pos[i] for i in chosen if i in run_pos]
    bounds: dict[int, tuple[float, float]] = {}
    if probed:
        lows, highs = beta_interval(state.alpha[probed], state.beta[probed], level)
        bounds = {p: (float(lo), float(hi)) for p, lo, hi in zip(probed, lows, highs, strict=True)}
    edges = []
    incident: dict[int, list[float]] = {}
    degree: dict[int, int] = {}
    for i in chosen:
        s, o = int(kg.s[i]), int(kg.o[i])
        p = run_pos.get(i)
        for node in (s, o):
            degree[node] = degree.get(node, 0) + 1
            if p is not None and not bad[p]:
                incident.setdefault(node, []).append(float(mean[p]))
        edges.append(
            EgoEdge(
                edge_id=int(kg.edge_ids[i]),
                source=kg.entity_keys[s],
                target=kg.entity_keys[o],
                predicate=kg.pred_labels[int(kg.p[i])],
                in_run=p is not None,
                mean=None if p is None else float(mean[p]),
                low=None if p is None else bounds[p][0],
                high=None if p is None else bounds[p][1],
                m=0 if p is None else int(m[p]),
                n=0 if p is None else int(n[p]),
                zero_sense=bool(p is not None and m[p] == 0 and n[p] > 0 and not bad[p]),
                kg_error=p is not None and bool(bad[p]),
            )
        )
    rings: dict[int, list[int]] = {}
    for node, d in depth.items():
        rings.setdefault(d, []).append(node)
    nodes = []
    for d, members in sorted(rings.items()):
        members.sort(key=lambda x: (kg.types[x], kg.labels[x].casefold()))
        for k, node in enumerate(members):
            angle = 2 * math.pi * k / len(members)
            r = 0.45 * d / radius
            vals = incident.get(node)
            nodes.append(
                EgoNode(
                    key=kg.entity_keys[node],
                    label=kg.labels[node],
                    type=kg.types[node],
                    depth=d,
                    x=0.5 + r * math.cos(angle),
                    y=0.5 + r * math.sin(angle),
                    degree=degree.get(node, 0),
                    mean_error=float(np.mean(vals)) if vals else None,
                )
            )
    return EgoGraph(kg.entity_keys[center], radius, nodes, edges, truncated)
