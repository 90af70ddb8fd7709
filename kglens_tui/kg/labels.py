"""A KG's entity and predicate labels by database id, as the unit modes show their facts."""

from __future__ import annotations

import sqlite3


def label_maps(conn: sqlite3.Connection, kg_id: int) -> dict[str, dict[int, str]]:
    """Entity and predicate labels by database id."""
    return {
        "entity": dict(conn.execute("SELECT id, label FROM entity WHERE kg_id = ?", (kg_id,))),
        "predicate": dict(
            conn.execute("SELECT id, label FROM predicate WHERE kg_id = ?", (kg_id,))
        ),
    }
