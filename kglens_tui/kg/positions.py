"""The edges a run of any mode probes: their positions in a loaded KG's arrays."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import numpy as np

from kglens_tui.kg.graph import KGIndex, predicate_indexes, subset_nodes


def run_edge_positions(
    conn: sqlite3.Connection,
    kg: KGIndex,
    subset: str | None,
    predicates: Sequence[str] = (),
) -> np.ndarray:
    """Positions (into the KG arrays) of the edges a run probes: active, within the subset, of
    the named predicates (keys or labels; none named = every predicate)."""
    mask = kg.active_mask.copy()
    if subset:
        mask &= np.isin(kg.entity_db_ids[kg.s], subset_nodes(conn, kg.kg_id, subset))
    if predicates:
        mask &= np.isin(kg.p, predicate_indexes(kg, predicates, active=True))
    return np.flatnonzero(mask)
