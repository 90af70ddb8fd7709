"""KG statistics: the paper's Table 2 and more, and an entity's edges."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field


@dataclass
class PredicateStats:
    key: str
    label: str
    active: bool
    edges: int
    subjects: int
    multi_valued_subjects: int
    objects: int


@dataclass
class KGStats:
    name: str
    entities: int
    nodes: int
    active_edges: int
    dead_edges: int
    predicates: int
    active_predicates: int
    subject_types: dict[str, int]
    multi_valued_share: float
    dated_edges: int
    per_predicate: list[PredicateStats] = field(default_factory=list)
    subsets: dict[str, int] = field(default_factory=dict)


def kg_stats(conn: sqlite3.Connection, kg_id: int) -> KGStats:
    """Counts for one KG; nodes are entities that take part in at least one edge."""
    name = conn.execute("SELECT name FROM kg WHERE id = ?", (kg_id,)).fetchone()[0]
    q = conn.execute
    entities = q("SELECT COUNT(*) FROM entity WHERE kg_id = ?", (kg_id,)).fetchone()[0]
    nodes = q(
        "SELECT COUNT(*) FROM (SELECT subject_id AS n FROM edge WHERE kg_id = ?1 "
        "UNION SELECT object_id FROM edge WHERE kg_id = ?1)",
        (kg_id,),
    ).fetchone()[0]
    per = []
    for row in q(
        """
        SELECT p.key, p.label, p.active, COUNT(e.id), COUNT(DISTINCT e.subject_id),
               COUNT(DISTINCT e.object_id)
        FROM predicate p LEFT JOIN edge e ON e.predicate_id = p.id
        WHERE p.kg_id = ? GROUP BY p.id ORDER BY COUNT(e.id) DESC, p.key
        """,
        (kg_id,),
    ):
        per.append(PredicateStats(row[0], row[1], bool(row[2]), row[3], row[4], 0, row[5]))
    multi = dict(
        q(
            """
            SELECT p.key, COUNT(*) FROM (
                SELECT predicate_id, subject_id FROM edge WHERE kg_id = ?
                GROUP BY predicate_id, subject_id HAVING COUNT(*) > 1
            ) m JOIN predicate p ON p.id = m.predicate_id GROUP BY p.key
            """,
            (kg_id,),
        ).fetchall()
    )
    for ps in per:
        ps.multi_valued_subjects = multi.get(ps.key, 0)
    pairs = sum(ps.subjects for ps in per)
    multi_pairs = sum(ps.multi_valued_subjects for ps in per)
    types = dict(
        q(
            "SELECT en.type, COUNT(DISTINCT en.id) FROM edge e JOIN entity en ON en.id = e.subject_id "
            "WHERE e.kg_id = ? GROUP BY en.type ORDER BY 2 DESC",
            (kg_id,),
        ).fetchall()
    )
    dated = q(
        "SELECT COUNT(*) FROM edge WHERE kg_id = ? AND (start_time IS NOT NULL OR "
        "end_time IS NOT NULL OR point_in_time IS NOT NULL)",
        (kg_id,),
    ).fetchone()[0]
    subsets = dict(
        q(
            "SELECT s.name, COUNT(m.entity_id) FROM subset s LEFT JOIN subset_member m "
            "ON m.subset_id = s.id WHERE s.kg_id = ? GROUP BY s.id ORDER BY s.name",
            (kg_id,),
        ).fetchall()
    )
    return KGStats(
        name=name,
        entities=entities,
        nodes=nodes,
        active_edges=sum(ps.edges for ps in per if ps.active),
        dead_edges=sum(ps.edges for ps in per if not ps.active),
        predicates=len(per),
        active_predicates=sum(1 for ps in per if ps.active),
        subject_types=types,
        multi_valued_share=multi_pairs / pairs if pairs else 0.0,
        dated_edges=dated,
        per_predicate=per,
        subsets=subsets,
    )


@dataclass
class EntityEdge:
    direction: str  # "out" or "in"
    predicate: str
    other_key: str
    other_label: str
    active: bool
    dates: str


@dataclass
class EntityView:
    key: str
    label: str
    aliases: list[str]
    type: str
    groups: list[str]
    description: str
    edges: list[EntityEdge]


def find_entity(conn: sqlite3.Connection, kg_id: int, query: str) -> list[sqlite3.Row]:
    """Entities matching a key exactly, else a label or alias (case-insensitive)."""
    rows = conn.execute(
        "SELECT * FROM entity WHERE kg_id = ? AND key = ?", (kg_id, query)
    ).fetchall()
    if rows:
        return rows
    rows = conn.execute(
        "SELECT * FROM entity WHERE kg_id = ? AND label = ? COLLATE NOCASE", (kg_id, query)
    ).fetchall()
    if rows:
        return rows
    folded = query.casefold()
    return [
        r
        for r in conn.execute(
            "SELECT * FROM entity WHERE kg_id = ? AND aliases LIKE ?", (kg_id, f"%{query}%")
        )
        if any(a.casefold() == folded for a in json.loads(r["aliases"]))
    ]


def entity_view(conn: sqlite3.Connection, entity_id: int) -> EntityView:
    """An entity with all its outgoing and incoming edges."""
    e = conn.execute("SELECT * FROM entity WHERE id = ?", (entity_id,)).fetchone()
    edges = []
    for direction, mine, other in (
        ("out", "subject_id", "object_id"),
        ("in", "object_id", "subject_id"),
    ):
        for r in conn.execute(
            f"""
            SELECT p.label, o.key, o.label, p.active, e.start_time, e.end_time, e.point_in_time
            FROM edge e JOIN predicate p ON p.id = e.predicate_id JOIN entity o ON o.id = e.{other}
            WHERE e.{mine} = ? ORDER BY p.label, o.label
            """,
            (entity_id,),
        ):
            dates = " ".join(
                f"{tag} {val}"
                for tag, val in (("from", r[4]), ("until", r[5]), ("at", r[6]))
                if val
            )
            edges.append(EntityEdge(direction, r[0], r[1], r[2], bool(r[3]), dates))
    return EntityView(
        key=e["key"],
        label=e["label"],
        aliases=json.loads(e["aliases"]),
        type=e["type"],
        groups=json.loads(e["groups"]),
        description=e["description"],
        edges=edges,
    )


@dataclass(frozen=True)
class KGSummary:
    """One KG of the workspace, for listings: sizes, where it came from and its snapshot date."""

    name: str
    entities: int
    edges: int
    active_edges: int
    source: str
    snapshot_date: str


def kg_summaries(conn: sqlite3.Connection) -> list[KGSummary]:
    """One line per KG in the workspace."""
    rows = conn.execute(
        """
        SELECT k.name, k.source, COALESCE(k.snapshot_date, ''),
               (SELECT COUNT(*) FROM entity WHERE kg_id = k.id),
               (SELECT COUNT(*) FROM edge WHERE kg_id = k.id),
               (SELECT COUNT(*) FROM edge e JOIN predicate p ON p.id = e.predicate_id
                WHERE e.kg_id = k.id AND p.active = 1)
        FROM kg k ORDER BY k.name
        """
    ).fetchall()
    return [KGSummary(r[0], r[3], r[4], r[5], r[1], r[2]) for r in rows]


def kg_names(conn: sqlite3.Connection) -> list[str]:
    """The names of the workspace's KGs, sorted (no counts: cheap)."""
    return [r[0] for r in conn.execute("SELECT name FROM kg ORDER BY name")]


def subset_names(conn: sqlite3.Connection, kg_name: str) -> list[str]:
    """Named subsets of a KG."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT s.name FROM subset s JOIN kg k ON k.id = s.kg_id WHERE k.name = ? ORDER BY s.name",
            (kg_name,),
        )
    ]
