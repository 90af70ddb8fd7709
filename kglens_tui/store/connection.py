"""Open the workspace database: WAL, foreign keys, busy timeout, migrations by user_version."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import platformdirs

from kglens_tui.shipped import shipped_dir

DB_ENV = "KGLENS_DB"
BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

T = TypeVar("T")


class StoreError(Exception):
    """The workspace database cannot be opened or is newer than this program."""


def default_db_path() -> Path:
    """The workspace database: $KGLENS_DB, else kglens.db in the per-user data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("kglens", appauthor=False)) / "kglens.db"


def migrations() -> list[tuple[int, str, str]]:
    """The numbered SQL migrations shipped in kglens_tui.db, as (version, name, sql), in order."""
    found = []
    for item in shipped_dir("db").iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append((int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    for expected, (version, name, _) in enumerate(found, start=1):
        if version != expected:
            raise StoreError(f"migration {name} is out of sequence: expected number {expected:04d}")
    return found


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in PRAGMA user_version."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the database, each in its own transaction."""
    steps = migrations()
    latest = steps[-1][0] if steps else 0
    current = schema_version(conn)
    if current > latest:
        raise StoreError(
            f"the database has schema version {current}, newer than this program's {latest}: "
            "upgrade kglens"
        )
    for version, _name, sql in steps:
        if version <= current:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(conn) >= version:  # another process migrated meanwhile
                conn.execute("ROLLBACK")
                continue
            for statement in _split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return schema_version(conn)


def _split_sql(script: str) -> list[str]:
    """Split a migration script into complete statements (no implicit COMMIT like executescript)."""
    statements, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                statements.append(buf.strip())
            buf = ""
    if buf.strip() and not buf.strip().startswith("--"):
        statements.append(buf.strip())
    return statements


def connect(path: Path | str | None = None, *, migrate_schema: bool = True) -> sqlite3.Connection:
    """Open (creating if needed) the workspace database in autocommit mode with WAL on."""
    db_path = Path(path) if path is not None else default_db_path()
    if str(db_path) != ":memory:":
        db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(
            str(db_path),
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
        )
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if str(db_path) != ":memory:":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if migrate_schema:
            migrate(conn)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{db_path}: cannot open the workspace database: {exc}") from exc
    return conn


@contextmanager
def transaction(
    conn: sqlite3.Connection, *, immediate: bool = True
) -> Iterator[sqlite3.Connection]:
    """One transaction: BEGIN IMMEDIATE (write lock up front), COMMIT, or ROLLBACK on any error."""
    conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def retry_busy(fn: Callable[[], T], *, attempts: int = 50, delay_s: float = 0.05) -> T:
    """Run fn, retrying when SQLite reports the database locked past the busy timeout."""
    for attempt in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if attempt == attempts - 1:
                raise
            time.sleep(delay_s * (1 + attempt % 5))
    raise AssertionError("unreachable")
