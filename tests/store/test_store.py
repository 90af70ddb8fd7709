from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kglens_tui.store.connection import (
    StoreError,
    connect,
    default_db_path,
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
