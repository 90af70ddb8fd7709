"""Open the workspace database: WAL, foreign keys, busy timeout, migrations by user_version.

A workspace carries KGLens's PRAGMA application_id from its creation on; a file that is not one
(another application's SQLite database) is refused before anything is written to it."""

from __future__ import annotations

import functools
import math
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar
from urllib.request import pathname2url

import platformdirs

from kglens_tui.core.errors import KGLensError
from kglens_tui.shipped import shipped_dir

DB_ENV = "KGLENS_DB"
BUSY_TIMEOUT_MS = 10_000
LOCK_WAIT_ENV = "KGLENS_LOCK_WAIT"
LOCK_WAIT_S = 600.0
"""How long a write transaction waits for another process's write lock before it gives up, in
seconds; $KGLENS_LOCK_WAIT overrides it."""
_LOCK_POLL_MS = 200
APPLICATION_ID = 0x4B474C4E
"""PRAGMA application_id of a KGLens workspace: "KGLN" (stamped at creation; a workspace made
before it was, application_id 0 with only KGLens tables, is stamped when next opened to write)."""
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

T = TypeVar("T")


class StoreError(KGLensError):
    """The workspace database cannot be opened or is newer than this program."""


class LockTimeoutError(StoreError):
    """Another process held the workspace's write lock for longer than the lock wait."""


class WorkspaceConnection(sqlite3.Connection):
    """A workspace connection. `lock_notice`, when set, is called once (with a one-line message)
    when a write transaction has to wait for another process's write lock."""

    lock_notice: Callable[[str], None] | None = None


def default_db_path() -> Path:
    """The workspace database: $KGLENS_DB, else kglens.db in the per-user data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("kglens", appauthor=False)) / "kglens.db"


def migrations() -> list[tuple[int, str, str]]:
    """The numbered SQL migrations shipped in kglens_tui.db, as (version, name, sql), in order."""
    return list(_shipped_migrations())


@functools.cache
def _shipped_migrations() -> tuple[tuple[int, str, str], ...]:
    """`migrations`, read from the package once a process (every connection checks them)."""
    found = []
    for item in shipped_dir("db").iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append((int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    for expected, (version, name, _) in enumerate(found, start=1):
        if version != expected:
            raise StoreError(f"migration {name} is out of sequence: expected number {expected:04d}")
    return tuple(found)


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in PRAGMA user_version."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the database in one transaction (a failure leaves the
    file as it was) and stamp KGLens's application_id with them."""
    steps = migrations()
    latest = steps[-1][0] if steps else 0
    current = check_not_newer(conn, latest)
    stamped = application_id(conn) == APPLICATION_ID
    if current == latest and stamped:
        return current
    begin_write(conn)
    try:
        current = schema_version(conn)  # another process may have migrated meanwhile
        for version, _name, sql in steps:
            if version <= current:
                continue
            for statement in _split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
        if application_id(conn) != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return schema_version(conn)


def check_not_newer(conn: sqlite3.Connection, latest: int | None = None) -> int:
    """The database's schema version; StoreError when it is newer than this program's."""
    if latest is None:
        steps = migrations()
        latest = steps[-1][0] if steps else 0
    current = schema_version(conn)
    if current > latest:
        raise StoreError(
            f"the database has schema version {current}, newer than this program's {latest}: "
            "upgrade kglens"
        )
    return current


def application_id(conn: sqlite3.Connection) -> int:
    """The database's PRAGMA application_id (0: none set)."""
    return int(conn.execute("PRAGMA application_id").fetchone()[0])


@functools.cache
def workspace_tables() -> frozenset[str]:
    """Every table a KGLens workspace of the latest schema holds (its FTS tables' shadow tables
    included): the migrations applied to an empty database in memory."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for _version, _name, sql in migrations():
            for statement in _split_sql(sql):
                conn.execute(statement)
        return frozenset(_tables(conn))
    finally:
        conn.close()


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [
        str(row[0])
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]


def check_workspace(conn: sqlite3.Connection, db_path: Path | str) -> None:
    """Refuse, in one line and before anything is written, a database that is not a KGLens
    workspace: another application_id, or none (0) with any table a KGLens workspace of some
    version would not hold. An empty database (a new workspace) passes."""
    found = application_id(conn)
    if found == APPLICATION_ID:
        return
    if found != 0:
        raise StoreError(
            f"{db_path}: not a KGLens workspace (an SQLite database of another application, "
            f"application_id {found}); it was left as it was"
        )
    tables = _tables(conn)
    if not tables:
        return
    foreign = sorted(set(tables) - workspace_tables())
    version = schema_version(conn)
    if version == 0 or foreign or "kg" not in tables:
        shown = ", ".join(foreign[:3] or sorted(tables)[:3])
        hint = ""
        if version > 0 and "kg" in tables:  # an older kglens's workspace with tables added?
            hint = (
                f"; if it is a workspace of an older kglens with tables added by hand, mark it "
                f"as KGLens's with: sqlite3 {db_path} 'PRAGMA application_id = {APPLICATION_ID}'"
            )
        raise StoreError(
            f"{db_path}: not a KGLens workspace (an SQLite database with other tables: {shown}); "
            f"it was left as it was{hint}"
        )


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


def connect(
    path: Path | str | None = None,
    *,
    migrate_schema: bool = True,
    lock_notice: Callable[[str], None] | None = None,
    read_only: bool = False,
) -> WorkspaceConnection:
    """Open (creating if needed) the workspace database in autocommit mode with WAL on.
    `lock_notice` is told when a write waits for another process (see `begin_write`). A file
    that is not a KGLens workspace is refused (`check_workspace`) before anything is written.
    `read_only`: open an existing workspace only to read it (`connect_read_only`)."""
    db_path = Path(path) if path is not None else default_db_path()
    if read_only:
        return connect_read_only(db_path)
    on_disk = str(db_path) != ":memory:"
    if on_disk:
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file where a folder should be, no permission...
            why = "a file is in the way" if isinstance(exc, FileExistsError) else exc.strerror
            raise StoreError(
                f"{db_path}: cannot make the workspace's folder {db_path.parent} ({why})"
            ) from exc
        if migrate_schema:
            _create_from_image(db_path)
    try:
        conn = sqlite3.connect(
            str(db_path),
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
            factory=WorkspaceConnection,
        )
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{db_path}: cannot open the workspace database: {exc}") from exc
    try:
        conn.lock_notice = lock_notice
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        check_workspace(conn, db_path)  # before the first write (WAL is one)
        check_not_newer(conn)
        conn.execute("PRAGMA foreign_keys = ON")
        if on_disk:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if migrate_schema:
            migrate(conn)
    except sqlite3.OperationalError as exc:
        conn.close()
        if "readonly" not in str(exc) and "unable to open" not in str(exc):
            raise StoreError(f"{db_path}: cannot open the workspace database: {exc}") from exc
        raise StoreError(
            f"{db_path}: cannot open the workspace database to write to it ({exc}); if the file "
            "or its folder is read-only, commands that only read it (runs, report, search, "
            "export...) still can"
        ) from exc
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{db_path}: cannot open the workspace database: {exc}") from exc
    except BaseException:
        conn.close()
        raise
    return conn


@functools.cache
def _schema_image() -> bytes:
    """An empty workspace of the latest schema, as file bytes: every migration applied to a
    database in memory, once a process. Its workspace key (db/0025) is replaced in each copy."""
    conn = sqlite3.connect(":memory:", isolation_level=None, factory=WorkspaceConnection)
    try:
        migrate(conn)
        return conn.serialize()
    finally:
        conn.close()


def _create_from_image(db_path: Path) -> None:
    """Create a new workspace at `db_path` as a copy of `_schema_image` with a key of its own,
    made whole beside it and linked into place, so no process sees it half made; nothing when a
    file (or anything) is there already, or when it cannot be made here (`connect` then creates
    and migrates it as before). A new workspace took 19 ms of CPU to migrate, its copy 1 ms."""
    if os.path.lexists(db_path):
        return
    part = db_path.with_name(f".{db_path.name}.{os.getpid()}.{time.monotonic_ns()}.new")
    try:
        try:
            with open(part, "xb") as fh:
                fh.write(_schema_image())
            image = sqlite3.connect(str(part), isolation_level=None)
            try:
                image.execute(
                    "UPDATE workspace_secret SET value = randomblob(32) WHERE name = ?",
                    (PACK_KEY_NAME,),
                )
            finally:
                image.close()
            os.link(part, db_path)
        finally:
            part.unlink(missing_ok=True)
    except (OSError, sqlite3.Error):
        return  # another process made it first, or this folder takes no links: connect makes it


PACK_KEY_NAME = "pack_key"
"""The workspace_secret row of the annotation packs' signing key (db/0025_workspace_secret.sql)."""


def connect_read_only(db_path: Path) -> WorkspaceConnection:
    """Open an existing workspace to read it and nothing else: no WAL switch, no migration, no
    stamp, and SQLite refuses any write. A workspace this program would have to migrate says so.
    A file or folder this process may not write (an archive, a shared copy) is opened read-only
    by SQLite, and immutable when even that cannot open it (a WAL workspace whose folder cannot
    take its -shm file: nothing can be writing to it then)."""
    if not db_path.is_file():
        raise StoreError(f"no workspace at {db_path}")
    writable = os.access(db_path, os.W_OK) and os.access(db_path.parent, os.W_OK)
    uri = f"file:{pathname2url(str(db_path.resolve()))}"
    tries = [(str(db_path), False)] if writable else []
    tries += [(f"{uri}?mode=ro", True), (f"{uri}?mode=ro&immutable=1", True)]
    problem: sqlite3.DatabaseError | None = None
    for target, as_uri in tries:
        conn = sqlite3.connect(
            target,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            check_same_thread=False,
            factory=WorkspaceConnection,
            uri=as_uri,
        )
        try:
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            check_workspace(conn, db_path)
            current = check_not_newer(conn)
        except sqlite3.OperationalError as exc:  # e.g. the -shm file cannot be made
            conn.close()
            problem = exc
            continue
        except sqlite3.DatabaseError as exc:  # not an SQLite file
            conn.close()
            raise StoreError(f"{db_path}: cannot open the workspace database: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        latest = migrations()[-1][0]
        if current < latest:
            conn.close()
            raise StoreError(
                f"{db_path}: the workspace has schema version {current} and this kglens reads "
                f"version {latest}; a command that only reads does not migrate it: open it once "
                "with a command that writes (e.g. `kglens` itself) where it may be changed"
            )
        conn.execute("PRAGMA query_only = ON")
        return conn
    raise StoreError(f"{db_path}: cannot open the workspace database to read it: {problem}")


@contextmanager
def transaction(
    conn: sqlite3.Connection, *, immediate: bool = True
) -> Iterator[sqlite3.Connection]:
    """One transaction: BEGIN IMMEDIATE (write lock up front, see `begin_write`), COMMIT, or
    ROLLBACK on any error."""
    if immediate:
        begin_write(conn)
    else:
        conn.execute("BEGIN")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def lock_wait_s() -> float:
    """The lock wait in seconds: $KGLENS_LOCK_WAIT, else LOCK_WAIT_S."""
    raw = os.environ.get(LOCK_WAIT_ENV)
    if raw is None or not raw.strip():
        return LOCK_WAIT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise StoreError(f"${LOCK_WAIT_ENV}: expected a number of seconds, 0 or more, got {raw!r}")
    return value


def begin_write(conn: sqlite3.Connection, wait_s: float | None = None) -> None:
    """BEGIN IMMEDIATE. While another process holds the write lock, wait for it (up to `wait_s`,
    default `lock_wait_s()`), telling the connection's `lock_notice` once; then give up with
    LockTimeoutError, one line saying why."""
    limit = lock_wait_s() if wait_s is None else wait_s
    deadline = time.monotonic() + limit
    told = False
    conn.execute(f"PRAGMA busy_timeout = {_LOCK_POLL_MS}")
    try:
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise
            notice = getattr(conn, "lock_notice", None)
            if not told and notice is not None:  # told even when the wait is already over
                told = True
                notice(
                    f"waiting for another process to finish writing to the workspace "
                    f"(up to {limit:g}s, ${LOCK_WAIT_ENV})…"
                )
            if time.monotonic() >= deadline:
                raise LockTimeoutError(
                    f"{_db_file(conn)}: another process has held the workspace's write lock for "
                    f"more than {limit:g}s, giving up (set ${LOCK_WAIT_ENV} to wait longer)"
                )
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _db_file(conn: sqlite3.Connection) -> str:
    row = conn.execute("PRAGMA database_list").fetchone()
    return str(row[2]) if row is not None and row[2] else ":memory:"


def retry_busy(fn: Callable[[], T], *, attempts: int = 50, delay_s: float = 0.05) -> T:
    """Run fn, retrying when SQLite reports the database locked past the busy timeout."""
    for attempt in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            if attempt == attempts - 1:
                raise
            time.sleep(delay_s * (1 + attempt % 5))
    raise AssertionError("unreachable")
