"""Only its own databases: a workspace carries KGLens's application_id from creation; another
application's SQLite file is refused in one line and left byte-identical by any command; a
workspace made before the stamp is still accepted (and stamped); a migration that fails leaves
the file as it was."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from kglens_tui.cli import main
from kglens_tui.store import connection as connection_module
from kglens_tui.store.connection import (
    APPLICATION_ID,
    LockTimeoutError,
    StoreError,
    begin_write,
    connect,
    migrations,
    schema_version,
)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def foreign(path: Path, *, table: str = "notes", app_id: int = 0) -> Path:
    """Another application's SQLite file: one table with a row, its own application_id."""
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute(f"INSERT INTO {table} (body) VALUES ('theirs')")
    conn.execute(f"PRAGMA application_id = {app_id}")
    conn.commit()
    conn.close()
    return path


def test_a_new_workspace_carries_the_application_id(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert schema_version(conn) == migrations()[-1][0]
    conn.close()


@pytest.mark.parametrize(
    ("table", "app_id", "says"),
    [
        ("notes", 0, "other tables: notes"),
        ("run", 0, "other tables: run"),  # a table name a workspace also has
        ("notes", 0x12345, "application_id 74565"),
    ],
)
def test_a_foreign_database_is_refused_and_left_as_it_was(
    tmp_path: Path, table: str, app_id: int, says: str
) -> None:
    path = foreign(tmp_path / "theirs.db", table=table, app_id=app_id)
    before = digest(path)
    with pytest.raises(StoreError) as refused:
        connect(path)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path}: not a KGLens workspace")
    assert says in message
    assert digest(path) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("theirs")] == ["theirs.db"]


def test_another_application_id_is_refused_even_with_no_table(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 7")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match="application_id 7"):
        connect(path)
    assert digest(path) == before


def test_a_file_that_is_not_sqlite_is_one_line_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just text, " * 200, encoding="utf-8")
    before = digest(path)
    with pytest.raises(StoreError, match="cannot open the workspace database"):
        connect(path)
    assert digest(path) == before


COMMANDS = [
    ["runs"],
    ["kg", "list"],
    ["kg", "stats", "country"],
    ["search", "Vienna"],
    ["report", "1"],
    ["annotate", "rounds"],
    ["export", "1", "--csv", "out.csv"],
    ["annotate", "progress", "r1"],
    ["review", "1"],
    ["probe", "--target", "sim", "--iterations", "1", "--quiet", "--no-tui"],
    ["kg", "import", "facts.csv"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_command_on_a_foreign_database_refuses_in_one_line(
    tmp_path: Path,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "facts.csv").write_text("subject,predicate,object\nA,b,C\n", encoding="utf-8")
    path = foreign(tmp_path / "theirs.db")
    before = digest(path)
    assert main(["--db", str(path), *command]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        f"error: {path}: not a KGLens workspace (an SQLite database with other tables: notes); "
        "it was left as it was"
    ), err
    assert digest(path) == before
    assert not (tmp_path / "theirs.db-wal").exists() and not (tmp_path / "out.csv").exists()


def _legacy(path: Path, upto: int) -> None:
    """A workspace as a version before the stamp left it: migrations 1..upto, application_id 0."""
    conn = sqlite3.connect(path, isolation_level=None)
    for version, _name, sql in migrations()[:upto]:
        for statement in connection_module._split_sql(sql):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


@pytest.mark.parametrize("upto", [1, 5, len(migrations())])
def test_a_workspace_made_before_the_stamp_is_accepted_and_stamped(
    tmp_path: Path, upto: int
) -> None:
    path = tmp_path / "old.db"
    _legacy(path, upto)
    conn = connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert schema_version(conn) == migrations()[-1][0]
    conn.close()


def test_a_migration_that_fails_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    _legacy(path, 5)
    before = list(sqlite3.connect(path).iterdump())
    steps = migrations()
    broken = (*steps[-1][:2], steps[-1][2] + "\nCREATE TABLE kg (clash INTEGER);\n")
    monkeypatch.setattr(connection_module, "migrations", lambda: [*steps[:-1], broken])
    with pytest.raises(StoreError, match="table kg already exists"):
        connect(path)
    check = sqlite3.connect(path)
    assert list(check.iterdump()) == before
    assert check.execute("PRAGMA user_version").fetchone()[0] == 5
    assert check.execute("PRAGMA application_id").fetchone()[0] == 0
    check.close()


def test_the_waiting_notice_comes_even_when_the_wait_is_already_over(tmp_path: Path) -> None:
    """The notice is given before the deadline is checked: a write that waited at all says so,
    then gives up (a loaded machine may pass a short lock wait in the first busy attempt)."""
    conn = connect(tmp_path / "w.db")
    holder = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    notices: list[str] = []
    conn.lock_notice = notices.append
    with pytest.raises(LockTimeoutError, match="more than 0s"):
        begin_write(conn, wait_s=0)
    holder.execute("ROLLBACK")
    assert len(notices) == 1 and notices[0].startswith("waiting for another process")
    conn.close()
    holder.close()


def _bad_workspaces(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Workspaces the TUI cannot open, by kind, with what the one line says."""
    text = tmp_path / "notes.txt"
    text.write_text("not a database " * 100, encoding="utf-8")
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    folder = tmp_path / "folder.db"
    folder.mkdir()
    return {
        "foreign": (foreign(tmp_path / "theirs.db"), "not a KGLens workspace"),
        "not sqlite": (text, "cannot open the workspace database"),
        "newer": (newer, "newer than this program's"),
        "a directory": (folder, "cannot open the workspace database"),
    }


@pytest.mark.parametrize("kind", ["foreign", "not sqlite", "newer", "a directory"])
@pytest.mark.parametrize("command", [[], ["annotate", "tui"]], ids=["kglens", "annotate-tui"])
def test_the_tui_says_a_bad_workspace_in_one_line(
    tmp_path: Path, kind: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, says = _bad_workspaces(tmp_path)[kind]
    before = digest(path) if path.is_file() else None
    assert main(["--db", str(path), *command]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], out.err
    assert "Traceback" not in out.err + out.out
    if before is not None:
        assert digest(path) == before
