"""Full-text search over the questions and replies of KGLens runs (the FTS5 index of migration
0010, queried through sqlite-utils, which ranks the hits and quotes the query so that FTS syntax a
user types, such as quotes, `*` or `NEAR(`, is searched for as words)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import sqlite_utils

from kglens_tui.core.errors import KGLensError

DEFAULT_LIMIT = 50


class SearchError(KGLensError, ValueError):
    """A query that cannot be searched (empty, or nothing searchable in it)."""


@dataclass(frozen=True)
class Hit:
    """One matching question and reply with the fact it asked about."""

    observation_id: int
    run_id: int
    iteration: int
    edge_id: int
    subject: str
    predicate: str
    object: str
    qtype: str
    question: str
    reply: str
    category: str


def search(
    conn: sqlite3.Connection, query: str, run_id: int | None = None, limit: int = DEFAULT_LIMIT
) -> list[Hit]:
    """Observations whose question or reply contains every word of `query`, best match first."""
    if not any(ch.isalnum() for ch in query):
        raise SearchError("nothing to search for: type at least one word")
    if limit < 1:
        raise SearchError(f"limit must be at least 1 (got {limit})")
    where, args = ("run_id = :run", {"run": run_id}) if run_id is not None else (None, None)
    table = sqlite_utils.Database(conn).table("observation")
    try:
        ids = [
            int(row["id"])
            for row in table.search(
                query, columns=["id"], limit=limit, where=where, where_args=args, quote=True
            )
        ]
    except sqlite3.OperationalError as exc:
        raise SearchError(f"cannot search for {query!r}: {exc}") from exc
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT id, run_id, iteration, edge_id, subject, predicate, object, qtype, question, reply, "
        f"category FROM observation_labelled WHERE id IN ({marks})",
        ids,
    ).fetchall()
    by_id = {int(r[0]): Hit(*r) for r in rows}
    return [by_id[i] for i in ids if i in by_id]
