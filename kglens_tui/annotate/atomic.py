"""One write transaction (BEGIN IMMEDIATE), retried while another process holds the lock."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from kglens_tui.store.connection import retry_busy, transaction

T = TypeVar("T")


def atomic(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run fn(conn) inside BEGIN IMMEDIATE ... COMMIT, retrying the whole of it on busy."""

    def attempt() -> T:
        try:
            with transaction(conn):
                return fn(conn)
        except sqlite3.OperationalError:
            if conn.in_transaction:  # a failed COMMIT leaves the transaction open
                conn.execute("ROLLBACK")
            raise

    return retry_busy(attempt)
