"""Catching up the search index (db/0010, db/0021): the replies a run commits are indexed when
it ends, in one statement, rather than one by one as the probing loop commits them."""

from __future__ import annotations

import sqlite3

from kglens_tui.store.connection import retry_busy, transaction


def indexed_upto(conn: sqlite3.Connection) -> int:
    """The last observation id the search index holds (higher ones are pending)."""
    row = conn.execute("SELECT upto FROM search_indexed WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


def index_pending(conn: sqlite3.Connection) -> int:
    """Index every pending observation (one write transaction); returns how many."""

    def catch_up() -> int:
        with transaction(conn):
            upto = indexed_upto(conn)
            cur = conn.execute(
                "INSERT INTO observation_fts(rowid, question, reply) "
                "SELECT id, question, reply FROM observation WHERE id > ? ORDER BY id",
                (upto,),
            )
            conn.execute(
                "UPDATE search_indexed SET upto = MAX(upto, "
                "COALESCE((SELECT MAX(id) FROM observation), 0)) WHERE id = 1"
            )
            return max(cur.rowcount, 0)

    return retry_busy(catch_up)
