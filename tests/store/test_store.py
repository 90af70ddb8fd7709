from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kglens_tui.annotate.signing import pack_key
from kglens_tui.store.connection import (
    APPLICATION_ID,
    StoreError,
    connect,
    default_db_path,
    migrate,
    migrations,
    schema_version,
    transaction,
)


def test_new_database_is_migrated_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    assert schema_version(conn) == migrations()[-1][0]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"kg", "entity", "predicate", "edge", "subset"} <= tables


def test_reopening_does_not_migrate_again(tmp_path: Path) -> None:
    connect(tmp_path / "w.db").execute("INSERT INTO kg(name) VALUES ('keep')")
    conn = connect(tmp_path / "w.db")
    assert conn.execute("SELECT name FROM kg").fetchall()[0][0] == "keep"


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(StoreError, match="newer than this program"):
        connect(tmp_path / "w.db")


def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    with pytest.raises(RuntimeError), transaction(conn):
        conn.execute("INSERT INTO kg(name) VALUES ('gone')")
        raise RuntimeError("boom")
    assert conn.execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0


def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO entity(kg_id, key, label) VALUES (42, 'x', 'x')")


def test_db_location_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGLENS_DB", str(tmp_path / "elsewhere.db"))
    assert default_db_path() == tmp_path / "elsewhere.db"
    monkeypatch.delenv("KGLENS_DB")
    assert default_db_path().name == "kglens.db"


def test_not_a_database_gives_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="bad.db"):
        connect(bad)


def _contents(conn: sqlite3.Connection) -> tuple[list[tuple[str, ...]], dict[str, list[tuple]]]:
    """A workspace's schema (every object's type, name and SQL) and each table's rows, the
    signing key left out."""
    schema = [
        tuple(r)
        for r in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
    ]
    rows = {
        name: sorted((tuple(r) for r in conn.execute(f'SELECT * FROM "{name}"')), key=repr)
        for (kind, name, _, sql) in schema
        if kind == "table" and name != "workspace_secret" and "VIRTUAL" not in (sql or "")
    }
    return schema, rows


def test_a_new_workspace_is_the_migrated_schema_with_a_key_of_its_own(tmp_path: Path) -> None:
    """A new workspace is written from an image of the migrated schema: the same tables, views,
    triggers, indexes, rows and stamps as a database migrated step by step, and its own signing
    key (db/0025), as each workspace migrated had; nothing is left beside it."""
    tmp_path = tmp_path / "workspaces"
    tmp_path.mkdir()
    stepwise = sqlite3.connect(tmp_path / "stepwise.db", isolation_level=None)
    migrate(stepwise)
    first, second = connect(tmp_path / "a.db"), connect(tmp_path / "b.db")
    assert _contents(first) == _contents(stepwise)
    for conn in (first, stepwise):
        assert schema_version(conn) == migrations()[-1][0]
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    keys = [pack_key(c) for c in (first, second)] + [pack_key(stepwise)]
    assert len(set(keys)) == 3 and all(len(k) == 32 for k in keys)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "a.db",
        "b.db",
        "stepwise.db",
    ]


def test_a_file_already_there_is_opened_not_replaced(tmp_path: Path) -> None:
    """A workspace another process made meanwhile (or an empty file) is opened as it is."""
    made = connect(tmp_path / "w.db")
    made.execute("INSERT INTO kg(name) VALUES ('kept')")
    key = pack_key(made)
    made.close()
    again = connect(tmp_path / "w.db")
    assert again.execute("SELECT name FROM kg").fetchall()[0][0] == "kept"
    assert pack_key(again) == key
    (tmp_path / "empty.db").write_bytes(b"")
    empty = connect(tmp_path / "empty.db")  # an empty file is an empty database: migrated
    assert schema_version(empty) == migrations()[-1][0]
