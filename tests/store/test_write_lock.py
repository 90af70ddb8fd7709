"""Another process holding the workspace's write lock: imports and new probes wait with a visible
message, and give up after the lock wait ($KGLENS_LOCK_WAIT) with one clear line."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.store.connection import (
    LOCK_WAIT_ENV,
    LockTimeoutError,
    StoreError,
    connect,
    lock_wait_s,
)

HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "facts.csv"
    path.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    return path


@pytest.fixture
def other_process(conn) -> Iterator[subprocess.Popen]:
    """A second process that holds BEGIN IMMEDIATE on the test workspace until released."""
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, db],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "locked"
    yield proc
    proc.stdin.close()
    proc.wait()


def dump(conn) -> list[str]:
    return list(conn.iterdump())


def test_import_gives_up_after_the_lock_wait_and_changes_nothing(
    conn, tiny_kg_dir: Path, csv_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    before = dump(conn)
    holder = sqlite3.connect(conn.execute("PRAGMA database_list").fetchone()[2])
    holder.isolation_level = None
    holder.execute("BEGIN IMMEDIATE")
    monkeypatch.setenv(LOCK_WAIT_ENV, "0.3")
    notices: list[str] = []
    conn.lock_notice = notices.append
    with pytest.raises(LockTimeoutError) as info:
        import_kg(conn, csv_file, "facts")
    holder.execute("ROLLBACK")
    message = str(info.value)
    assert "\n" not in message
    assert "another process has held the workspace's write lock for more than 0.3s" in message
    assert LOCK_WAIT_ENV in message
    assert len(notices) == 1 and "waiting for another process" in notices[0]
    assert dump(conn) == before
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000  # restored


def test_import_waits_for_the_lock_then_imports(conn, csv_file: Path) -> None:
    holder = sqlite3.connect(conn.execute("PRAGMA database_list").fetchone()[2])
    holder.isolation_level = None
    holder.execute("BEGIN IMMEDIATE")
    waiting = threading.Event()
    conn.lock_notice = lambda message: waiting.set()
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(import_kg(conn, csv_file, "facts"))
        except Exception as exc:  # handed to the test thread, which asserts on it
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    assert waiting.wait(60), "the import never reported that it waits"
    # read through the holder: the import's connection is the worker thread's until it ends
    assert holder.execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0
    holder.execute("COMMIT")
    worker.join(60)
    assert not worker.is_alive()
    assert getattr(outcome[0], "edges", None) == 1, outcome
    assert conn.execute("SELECT name FROM kg").fetchone()[0] == "facts"


def test_cli_import_waits_visibly_then_gives_up_in_one_line(
    conn, other_process, csv_file: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from kglens_tui.cli.main import main

    db = conn.execute("PRAGMA database_list").fetchone()[2]
    before = dump(conn)
    monkeypatch.setenv(LOCK_WAIT_ENV, "0.5")
    assert main(["--db", db, "kg", "import", str(csv_file)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("note: waiting for another process to finish writing")
    assert lines[1].startswith(f"error: {db}: another process has held the workspace's write lock")
    assert dump(conn) == before


def test_cli_new_probe_waits_visibly_then_gives_up_in_one_line(
    conn, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from kglens_tui.cli.main import main

    ensure_kg(conn, "country")  # so the write that waits is the new run itself
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    before = dump(conn)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, db], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert proc.stdout.readline().strip() == b"locked"
        monkeypatch.setenv(LOCK_WAIT_ENV, "0.5")
        args = ["--db", db, "probe", "--no-tui", "--target", "sim", "--iterations", "2", "--quiet"]
        assert main(args) == 2
    finally:
        proc.stdin.close()
        proc.wait()
    lines = capsys.readouterr().err.splitlines()
    assert lines[-2].startswith("note: waiting for another process to finish writing")
    assert lines[-1].startswith(f"error: {db}: another process has held the workspace's write")
    assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
    assert dump(conn) == before


@pytest.mark.parametrize("raw", ["soon", "-1", "inf", "nan"])
def test_a_bad_lock_wait_setting_is_one_line(raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOCK_WAIT_ENV, raw)
    with pytest.raises(StoreError, match=rf"^\${LOCK_WAIT_ENV}: expected a number of seconds"):
        lock_wait_s()


def test_the_lock_wait_defaults_to_ten_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LOCK_WAIT_ENV, raising=False)
    assert lock_wait_s() == 600.0
    monkeypatch.setenv(LOCK_WAIT_ENV, "2.5")
    assert lock_wait_s() == 2.5
    assert connect(":memory:").lock_notice is None
