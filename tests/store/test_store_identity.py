"""Only its own databases: a workspace carries KGLens's application_id from creation; another
application's SQLite file is refused in one line and left byte-identical by any command; a
workspace made before the stamp is still accepted (and stamped); a migration that fails leaves
the file as it was."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
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
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a folder", encoding="utf-8")
    return {
        "a file for its folder": (in_the_way / "w.db", "cannot make the workspace's folder"),
        "foreign": (foreign(tmp_path / "theirs.db"), "not a KGLens workspace"),
        "not sqlite": (text, "cannot open the workspace database"),
        "newer": (newer, "newer than this program's"),
        "a directory": (folder, "cannot open the workspace database"),
    }


@pytest.mark.parametrize(
    "kind", ["foreign", "not sqlite", "newer", "a directory", "a file for its folder"]
)
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


# --- read-only commands open the workspace read-only ---------------------------------------------

READ_ONLY_COMMANDS = [
    ["runs"],
    ["kg", "list"],
    ["report", "1"],
    ["search", "capital"],
    ["review", "1"],
    ["analyze", "1"],
    ["compare", "1"],
    ["export", "1", "--csv", "{out}/edges.csv", "--html", "{out}/report.html"],
    ["ego", "1", "Austria"],
    ["annotate", "rounds"],
    ["annotate", "progress", "r1"],
    ["annotate", "report", "r1"],
    ["annotate", "export", "r1", "--annotator", "ann1", "-o", "{out}/pack.jsonl"],
]


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with a finished run and an annotation round, made once."""
    db = tmp_path_factory.mktemp("probed") / "w.db"
    probe = [
        "--db",
        str(db),
        "probe",
        "--no-tui",
        "--quiet",
        "--target",
        "sim",
        "--iterations",
        "2",
    ]
    assert main(probe) == 0
    round_ = ["--db", str(db), "annotate", "round", "create", "--name", "r1", "--runs", "1"]
    assert main([*round_, "--annotators", "ann1,ann2", "--per-kg", "4", "--majority", "1"]) == 0
    conn = sqlite3.connect(db)  # all of it in the file itself, so that a copy of it is whole
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


@pytest.fixture
def locked_copy(probed: Path, tmp_path: Path) -> Iterator[Path]:
    """A copy of the workspace in a folder nobody may change, root included (chattr +i on the
    file and the folder: no -wal, -shm or journal can be made beside it)."""
    folder = tmp_path / "archive"
    folder.mkdir()
    copy = folder / "w.db"
    copy.write_bytes(probed.read_bytes())
    locked = subprocess.run(["chattr", "+i", str(copy), str(folder)], capture_output=True)
    if locked.returncode != 0:
        pytest.skip(f"chattr +i is not available here: {locked.stderr!r}")
    try:
        yield copy
    finally:
        subprocess.run(["chattr", "-i", str(copy), str(folder)], check=True)


@pytest.mark.parametrize("command", READ_ONLY_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_read_only_command_reads_a_workspace_nobody_may_change(
    locked_copy: Path, tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = digest(locked_copy)
    argv = [part.format(out=tmp_path) for part in command]
    code = main(["--db", str(locked_copy), *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "Traceback" not in out.err and "error" not in out.err
    assert digest(locked_copy) == before
    assert sorted(p.name for p in locked_copy.parent.iterdir()) == ["w.db"]


def test_a_read_only_command_leaves_a_workspace_it_may_change_as_it_was(
    probed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "w.db"
    copy.write_bytes(probed.read_bytes())
    before = digest(copy)
    for command in READ_ONLY_COMMANDS:
        argv = [part.format(out=tmp_path) for part in command]
        assert main(["--db", str(copy), *argv]) == 0, capsys.readouterr().err
    assert digest(copy) == before
    assert not (tmp_path / "w.db-wal").exists()


def test_a_read_only_command_on_a_workspace_to_migrate_says_so_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    _legacy(path, 5)
    before = digest(path)
    assert main(["--db", str(path), "runs"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a command that only reads does not migrate it" in err[0], err
    assert digest(path) == before
    assert main(["--db", str(path), "kg", "import", str(_csv(tmp_path))]) == 0  # a writer migrates
    assert main(["--db", str(path), "runs"]) == 0


def test_a_write_to_a_workspace_nobody_may_change_is_one_line(
    locked_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = digest(locked_copy)
    assert main(["--db", str(locked_copy), "kg", "import", str(_csv(tmp_path))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and str(locked_copy) in err[0], err
    assert digest(locked_copy) == before


def _csv(folder: Path) -> Path:
    path = folder / "facts.csv"
    path.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["kg", "import", "{csv}"],
        ["probe", "--no-tui", "--quiet", "--target", "sim", "--iterations", "1"],
    ],
    ids=["kg import", "probe"],
)
def test_a_write_to_a_read_only_file_in_a_folder_it_may_change_is_one_line(
    probed: Path, tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The file alone cannot change (its folder can): connect() succeeds, the first write fails."""
    copy = tmp_path / "w.db"
    copy.write_bytes(probed.read_bytes())
    csv = _csv(tmp_path)
    if subprocess.run(["chattr", "+i", str(copy)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        before = digest(copy)
        code = main(["--db", str(copy), *(part.format(csv=csv) for part in command)])
        out = capsys.readouterr()
        assert code == 2
        err = out.err.strip().splitlines()
        assert err[-1].startswith(f"error: {copy}: ") and "Traceback" not in out.err, out.err
        assert "read" in err[-1]
        assert digest(copy) == before
    finally:
        subprocess.run(["chattr", "-i", str(copy)], check=True)


def test_an_older_workspace_with_a_table_added_by_hand_says_how_to_mark_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    _legacy(path, 5)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE my_notes (body TEXT)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError) as refused:
        connect(path)
    assert "other tables: my_notes" in str(refused.value)
    assert f"PRAGMA application_id = {APPLICATION_ID}" in str(refused.value)
    assert digest(path) == before
    marked = sqlite3.connect(path)
    marked.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # as the message says
    marked.commit()
    marked.close()
    conn = connect(path)
    assert schema_version(conn) == migrations()[-1][0]
    assert conn.execute("SELECT COUNT(*) FROM my_notes").fetchone()[0] == 0
    conn.close()


@pytest.mark.parametrize("command", [[], ["annotate", "tui"]], ids=["kglens", "annotate-tui"])
def test_the_tui_on_a_workspace_nobody_may_change_is_one_line(
    locked_copy: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = digest(locked_copy)
    assert main(["--db", str(locked_copy), *command]) == 2
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {locked_copy}: "), out.err
    assert "commands that only read it" in lines[0] and "Traceback" not in out.err + out.out
    assert digest(locked_copy) == before
