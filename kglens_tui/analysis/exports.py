"""Exports of a run's results: the PKG as GEXF / GraphML (networkx, for Gephi) with the expected
error rate as an edge attribute, edges and replies as CSV / JSONL, group tables as CSV, and the
KG-corrections list built from kg_error triage. Every file goes through `core.safewrite`: written
whole or not at all, an existing file replaced only with force, never through a symbolic link."""

from __future__ import annotations

import csv
import json
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from kglens_tui.analysis.blindspots import EdgeRow, edge_rows
from kglens_tui.analysis.colours import heat_rgb
from kglens_tui.analysis.drilldown import edge_detail
from kglens_tui.analysis.errortypes import detect, error_type_of
from kglens_tui.analysis.filters import EdgeFilter, filter_mask
from kglens_tui.analysis.groups import RATES, GroupRow
from kglens_tui.analysis.rundata import RunData
from kglens_tui.analysis.triage import current_entries, triage_log
from kglens_tui.core.question_type import WH
from kglens_tui.core.safetext import csv_cell, visible
from kglens_tui.core.safewrite import atomic_output, write_text

EDGE_FIELDS = tuple(EdgeRow.__dataclass_fields__)


def pkg_graph(
    data: RunData, *, adjusted: bool = True, include_unprobed: bool = False, viz: bool = False
) -> nx.MultiDiGraph:
    """The PKG as a networkx multigraph keyed by entity keys; edge keys are edge ids.

    Probed edges carry error_rate (posterior mean), ci_low, ci_high, alpha, beta, m, n and flags;
    with include_unprobed, the KG's other edges (dead or outside the run's subset) come with
    in_run = False and no rate. viz adds GEXF colours on the heat scale and uses edge ids as GEXF
    edge ids (GEXF only).
    """
    kg = data.kg
    graph = nx.MultiDiGraph(name=kg.name, run=data.run.id, target=data.run.target_label)
    rows = edge_rows(data, np.arange(data.n_edges), adjusted=adjusted)
    positions = np.arange(len(kg.s)) if include_unprobed else data.kg_pos
    for i in positions.tolist():
        for node in (int(kg.s[i]), int(kg.o[i])):
            key = kg.entity_keys[node]
            if key not in graph:
                graph.add_node(
                    key,
                    label=kg.labels[node],
                    type=kg.types[node],
                    groups=";".join(kg.groups[node]),
                )
    in_run = set(data.kg_pos.tolist())
    for r in rows:
        attrs = {
            "edge_id": r.edge_id,
            "predicate": r.predicate_key,
            "label": r.predicate,
            "in_run": True,
            "error_rate": r.mean,
            "ci_low": r.low if r.low is not None else r.mean,
            "ci_high": r.high if r.high is not None else r.mean,
            "alpha": r.alpha,
            "beta": r.beta,
            "m": r.m,
            "n": r.n,
            "examined": r.examined,
            "zero_sense": r.zero_sense,
            "flips": r.flips,
            "confirmed": r.confirmed,
            "kg_error": r.kg_error,
        }
        for name in ("start", "end", "point_in_time"):
            value = getattr(r, name)
            if value:
                attrs[name] = value
        if viz:
            red, green, blue = heat_rgb(r.mean)
            attrs["viz"] = {"color": {"r": red, "g": green, "b": blue, "a": 1.0}}
            attrs["id"] = str(r.edge_id)
        graph.add_edge(r.subject_key, r.object_key, key=r.edge_id, **attrs)
    if include_unprobed:
        for i in positions.tolist():
            if i in in_run:
                continue
            graph.add_edge(
                kg.entity_keys[int(kg.s[i])],
                kg.entity_keys[int(kg.o[i])],
                key=int(kg.edge_ids[i]),
                edge_id=int(kg.edge_ids[i]),
                predicate=kg.pred_keys[int(kg.p[i])],
                label=kg.pred_labels[int(kg.p[i])],
                in_run=False,
            )
    return graph


def _xml_safe(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph with every string made `visible`: XML 1.0 cannot hold control characters, and a
    label from a model or a KG file may carry them."""
    safe = nx.relabel_nodes(graph, lambda key: visible(key) if isinstance(key, str) else key)
    safe.graph.update({k: visible(v) for k, v in safe.graph.items() if isinstance(v, str)})
    items = [attrs for _, attrs in safe.nodes(data=True)]
    items += [attrs for *_, attrs in safe.edges(keys=True, data=True)]
    for attrs in items:
        attrs.update({k: visible(v) for k, v in attrs.items() if isinstance(v, str)})
    return safe


def write_gexf(data: RunData, path: Path, *, force: bool = False, **options: bool) -> Path:
    """Write the PKG as GEXF (with heat colours) for Gephi."""
    graph = _xml_safe(pkg_graph(data, viz=True, **options))
    with atomic_output(path, force=force, binary=True) as fh:
        nx.write_gexf(graph, fh)
    return Path(path)


def write_graphml(data: RunData, path: Path, *, force: bool = False, **options: bool) -> Path:
    """Write the PKG as GraphML."""
    graph = _xml_safe(pkg_graph(data, **options))
    with atomic_output(path, force=force, binary=True) as fh:
        nx.write_graphml(graph, fh)
    return Path(path)


def _filtered_rows(data: RunData, flt: EdgeFilter | None, adjusted: bool) -> list[EdgeRow]:
    return edge_rows(
        data, np.flatnonzero(filter_mask(data.kg, data.kg_pos, flt)), adjusted=adjusted
    )


def write_edges_csv(
    data: RunData,
    path: Path,
    flt: EdgeFilter | None = None,
    *,
    adjusted: bool = True,
    force: bool = False,
) -> Path:
    """One row per run edge (EdgeRow fields), in run order."""
    rows = _filtered_rows(data, flt, adjusted)
    with atomic_output(path, force=force, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(EDGE_FIELDS)
        for r in rows:
            writer.writerow([csv_cell(getattr(r, f)) for f in EDGE_FIELDS])
    return Path(path)


def write_edges_jsonl(
    data: RunData,
    path: Path,
    flt: EdgeFilter | None = None,
    *,
    adjusted: bool = True,
    force: bool = False,
) -> Path:
    """One JSON object per run edge (EdgeRow fields)."""
    rows = _filtered_rows(data, flt, adjusted)
    with atomic_output(path, force=force) as fh:
        for r in rows:
            fh.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")
    return Path(path)


REPLY_FIELDS = (
    "run_id",
    "observation_id",
    "iteration",
    "slot",
    "edge_id",
    "subject",
    "predicate",
    "object",
    "qtype",
    "question",
    "candidate",
    "expected",
    "expected_answers",
    "reply",
    "category",
    "effective",
    "verifier",
    "error_type",
    "detected",
)


def reply_records(data: RunData, *, adjusted: bool = True) -> list[dict[str, Any]]:
    """Every reply of the run with its logged and effective verdict and error type."""
    cat = data.categories(adjusted)
    detected = detect(data, adjusted)
    out = []
    for i in range(len(data.obs)):
        subj, pred, obj = data.edge_label(int(data.obs.pos[i]))
        out.append(
            {
                "run_id": data.run.id,
                "observation_id": int(data.obs.id[i]),
                "iteration": int(data.obs.iteration[i]),
                "slot": int(data.obs.slot[i]),
                "edge_id": int(data.obs.edge_id[i]),
                "subject": subj,
                "predicate": pred,
                "object": obj,
                "qtype": data.obs.qtype[i],
                "question": data.obs.question[i],
                "candidate": data.candidate_label(i),
                "expected": data.obs.expected[i],
                "expected_answers": data.expected_answers(i),
                "reply": data.obs.reply[i],
                "category": str(data.obs.category[i]),
                "effective": str(cat[i]),
                "verifier": data.obs.verifier[i],
                "error_type": error_type_of(data, i, detected) if cat[i] == "incorrect" else None,
                "detected": list(detected.get(i, ())),
            }
        )
    return out


def write_replies_jsonl(
    data: RunData, path: Path, *, adjusted: bool = True, force: bool = False
) -> Path:
    """One JSON object per reply (REPLY_FIELDS)."""
    records = reply_records(data, adjusted=adjusted)
    with atomic_output(path, force=force) as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return Path(path)


def write_replies_csv(
    data: RunData, path: Path, *, adjusted: bool = True, force: bool = False
) -> Path:
    """One CSV row per reply; list fields are JSON-encoded."""
    records = reply_records(data, adjusted=adjusted)
    with atomic_output(path, force=force, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(REPLY_FIELDS)
        for rec in records:
            writer.writerow(
                [
                    csv_cell(json.dumps(v, ensure_ascii=False) if isinstance(v, list) else v)
                    for v in (rec[f] for f in REPLY_FIELDS)
                ]
            )
    return Path(path)


GROUP_FIELDS = (
    "key",
    "label",
    "edges",
    "kg_wide_win",
    "kg_wide_win_low",
    "kg_wide_win_high",
    "kg_wide_win_chance",
    "kg_wide_answers",
    "kg_wide_win_capped",
    "examined",
    *(f"{rate}{part}" for _, rate, _ in RATES for part in ("", "_low", "_high", "_chance")),
    "mean_error",
    "yes_rate",
    "yes_rate_low",
    "yes_rate_high",
    "yes_no_answered",
    "balanced_accuracy",
)
"""A group table's CSV columns: the group, its KG-wide win rate first (`GroupRow.kg_wide`;
`kg_wide_win_capped` true where the estimate fell outside 0-1 and is held at the nearest end, as
the report's "†" marks it), then the paper's rates over its examined edges, its mean posterior error and Yes/No figures."""


def write_groups_csv(rows: list[GroupRow], path: Path, *, force: bool = False) -> Path:
    """A group table as CSV (`GROUP_FIELDS`): the group's KG-wide win rate with its interval,
    chance and answers (`GroupRow.kg_wide`) first, then the edges examined, the rates over them
    with their interval bounds and what chance scores on the group's questions
    (`GroupRow.chance`), the mean posterior error, and the yes-rate of its Yes/No replies with
    its interval and n and their balanced accuracy (chance 0.5; `GroupRow.yes_no`), all
    fractions (empty where none was examined or answered)."""
    with atomic_output(path, force=force, newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(GROUP_FIELDS)
        for r in rows:
            cells: list[object] = [csv_cell(r.key), csv_cell(r.label), r.edges]
            wide = r.kg_wide
            if wide is None:
                cells += ["", "", "", "", "", ""]
            else:
                win_low, win_high = wide.rate.win_interval()
                cells += [csv_cell(v) for v in (wide.rate.win, win_low, win_high, wide.chance_win)]
                cells += [wide.rate.answers, str(wide.rate.capped).lower()]
            cells.append(r.rates.examined)
            for _, metric, base in RATES:
                p = r.rates.get(metric)
                chance = getattr(r.chance, base)
                cells += [csv_cell(v) for v in (p.value, p.low, p.high, chance)]
            yes = r.yes_no.yes_rate
            low, high = yes.interval or (None, None)
            cells.append(csv_cell(r.mean_error))
            cells += [csv_cell(v) for v in (yes.value, low, high)]
            cells += [yes.n, csv_cell(r.yes_no.balanced_accuracy)]
            writer.writerow(cells)
    return Path(path)


@dataclass(frozen=True)
class Correction:
    """A fact the KG should fix. kind: "edge" (the stated fact is wrong or outdated),
    "missing_fact" (a Yes/No reply rejected a candidate the KG calls false, and was right),
    "missing_answer" (a Wh reply named an answer the KG lacks) or "wrong_fact" (a Yes/No reply
    rejected the KG's fact, and was right)."""

    entry_id: int
    kind: str
    edge_id: int
    subject: str
    predicate: str
    object: str
    candidate: str
    run_id: int | None
    observation_id: int | None
    question: str
    reply: str
    reason: str
    author: str
    created_at: str


def kg_corrections(conn: sqlite3.Connection, kg_id: int) -> list[Correction]:
    """Every kg_error in force on a KG (edge-wide and per reply), oldest first."""
    out = []
    for e in current_entries(triage_log(conn, kg_id=kg_id)):
        if e.action != "kg_error":
            continue
        edge = conn.execute(
            "SELECT s.label, p.label, o.label FROM edge x JOIN entity s ON s.id = x.subject_id "
            "JOIN predicate p ON p.id = x.predicate_id JOIN entity o ON o.id = x.object_id "
            "WHERE x.id = ?",
            (e.edge_id,),
        ).fetchone()
        question = reply = candidate = ""
        kind = "edge"
        if e.observation_id is not None:
            obs = conn.execute(
                "SELECT o.qtype, o.question, o.reply, o.expected, c.label FROM observation o "
                "LEFT JOIN entity c ON c.id = o.candidate_id WHERE o.id = ?",
                (e.observation_id,),
            ).fetchone()
            question, reply, candidate = obs[1], obs[2], obs[4] or ""
            if obs[0] == WH:
                kind = "missing_answer"
            elif obs[3] == "no":
                kind = "missing_fact"
            else:
                kind = "wrong_fact"
        out.append(
            Correction(
                entry_id=e.id,
                kind=kind,
                edge_id=e.edge_id,
                subject=edge[0],
                predicate=edge[1],
                object=edge[2],
                candidate=candidate,
                run_id=e.run_id,
                observation_id=e.observation_id,
                question=question,
                reply=reply,
                reason=e.reason,
                author=e.author,
                created_at=e.created_at,
            )
        )
    return out


def write_corrections(
    conn: sqlite3.Connection, kg_id: int, path: Path, *, force: bool = False
) -> Path:
    """The KG-corrections list as CSV, or JSONL when the path ends in .jsonl."""
    items = kg_corrections(conn, kg_id)
    path = Path(path)
    fields = tuple(Correction.__dataclass_fields__)
    with atomic_output(path, force=force, newline="") as fh:
        if path.suffix == ".jsonl":
            for c in items:
                fh.write(json.dumps(asdict(c), ensure_ascii=False) + "\n")
        else:
            writer = csv.writer(fh)
            writer.writerow(fields)
            for c in items:
                writer.writerow([csv_cell(getattr(c, f)) for f in fields])
    return path


def write_edge_detail_json(
    data: RunData, edge_id: int, path: Path, *, adjusted: bool = True, force: bool = False
) -> Path:
    """One edge's drill-down (questions, replies, history, triage) as JSON."""
    detail = edge_detail(data, edge_id, adjusted=adjusted)
    payload = asdict(detail)
    payload["retracted"] = sorted(detail.retracted)
    return write_text(path, json.dumps(payload, ensure_ascii=False, indent=2), force=force)
