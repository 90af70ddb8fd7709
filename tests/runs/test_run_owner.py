"""A run knows which process probes it: a killed run shows as interrupted, and a run that a live
process holds is never resumed by a second one."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui.analysis.report import RUN_COLUMNS, run_rows
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.record import STALE_REASON, RunBusyError, load_run, set_status
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.store.owner import _start_time, is_alive, owner_pid, this_process


def _tag(proc: subprocess.Popen) -> str:
    return f"{socket.gethostname()}:{proc.pid}:{_start_time(proc.pid)}"


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def _run(conn: sqlite3.Connection, iterations: int = 2) -> int:
    config = RunConfig(
        kg="country", target="sim", batch_size=8, iterations=iterations, stop_on_convergence=False
    )
    engine = prepare(conn, config=config)
    run_blocking(engine)
    return engine.run.id


def _hold(conn: sqlite3.Connection, run_id: int, owner: str) -> None:
    conn.execute("UPDATE run SET status = 'running', owner = ? WHERE id = ?", (owner, run_id))
    conn.commit()


def test_owner_tags_tell_live_dead_and_unknown_processes(sleeper: subprocess.Popen) -> None:
    assert is_alive(this_process()) is True
    live = _tag(sleeper)
    assert is_alive(live) is True and owner_pid(live) == sleeper.pid
    sleeper.kill()
    sleeper.wait()
    assert is_alive(live) is False
    assert is_alive(f"{socket.gethostname()}:{sleeper.pid}:1") is False, "pid reused: not it"
    assert is_alive("another-host.example:1:1") is None
    assert is_alive("garbage") is None and is_alive(None) is None


def test_a_killed_run_is_listed_as_interrupted(
    conn: sqlite3.Connection, sleeper: subprocess.Popen
) -> None:
    run_id = _run(conn)
    dead = _tag(sleeper)
    sleeper.kill()
    sleeper.wait()
    _hold(conn, run_id, dead)
    (row,) = [r for r in run_rows(conn) if r[0] == str(run_id)]
    assert row[RUN_COLUMNS.index("status")] == f"interrupted · {STALE_REASON}"
    assert open_snapshot(conn, run_id).status == "interrupted"
    assert load_run(conn, run_id).status == "running", "listing never rewrites the run"
    conn.execute("UPDATE run SET status = 'paused' WHERE id = ?", (run_id,))
    conn.commit()
    (row,) = [r for r in run_rows(conn) if r[0] == str(run_id)]
    assert row[RUN_COLUMNS.index("status")] == f"interrupted · {STALE_REASON}", (
        "paused, then killed"
    )


def test_a_run_held_by_a_live_process_is_not_resumed(
    conn: sqlite3.Connection, sleeper: subprocess.Popen
) -> None:
    run_id = _run(conn, iterations=2)
    before = load_run(conn, run_id)
    _hold(conn, run_id, _tag(sleeper))
    engine = prepare(conn, resume=run_id)
    with pytest.raises(RunBusyError, match=f"process {sleeper.pid}"):
        run_blocking(engine)
    after = load_run(conn, run_id)
    assert (after.status, after.owner) == ("running", _tag(sleeper)), "left untouched"
    assert after.iterations_done == before.iterations_done
    (row,) = [r for r in run_rows(conn) if r[0] == str(run_id)]
    assert row[RUN_COLUMNS.index("status")].startswith("running")


def test_cli_resume_of_a_held_run_says_which_process_drives_it(
    tmp_path: Path, sleeper: subprocess.Popen, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every resume command (the mode's own, as `kglens resume`) leaves a run another live
    process drives to it, and says which."""
    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = _run(conn)
    _hold(conn, run_id, _tag(sleeper))
    before = conn.execute("SELECT status, owner, updated_at FROM run").fetchone()
    code = main(["--db", str(db), "probe", "--no-tui", "--resume", str(run_id), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"run {run_id} goes on in process {sleeper.pid}" in " ".join(out.split())
    assert conn.execute("SELECT status, owner, updated_at FROM run").fetchone() == before
    conn.close()


def test_a_finished_run_releases_its_owner(conn: sqlite3.Connection) -> None:
    run_id = _run(conn)
    run = load_run(conn, run_id)
    assert run.status == "finished" and run.owner is None


def test_marking_another_process_s_run_keeps_its_owner(
    conn: sqlite3.Connection, sleeper: subprocess.Popen
) -> None:
    """The TUI marks its probe child's run interrupted on quit while the child still finishes
    its iteration: the child must keep owning the run, so nobody else can claim it meanwhile."""
    run_id = _run(conn)
    child = _tag(sleeper)
    _hold(conn, run_id, child)
    set_status(conn, run_id, "interrupted", "quit during the run")
    assert load_run(conn, run_id).owner == child
    engine = prepare(conn, resume=run_id)
    with pytest.raises(RunBusyError):
        run_blocking(engine)
    _hold(conn, run_id, this_process())
    set_status(conn, run_id, "stopped", "stopped by user")
    assert load_run(conn, run_id).owner is None, "the owner releases its own run"


def test_a_killed_but_unreaped_process_is_dead() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    tag = _tag(proc)
    proc.kill()
    stat = Path(f"/proc/{proc.pid}/stat")
    deadline = time.monotonic() + 60  # exited, but not waited for: a zombie keeps its stat
    while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
        assert time.monotonic() < deadline, "the killed process never exited"
        time.sleep(0.01)
    try:
        assert is_alive(tag) is False
    finally:
        proc.wait()


def test_pause_resume_and_stop_never_wait_on_the_workspace_lock(
    conn: sqlite3.Connection,
) -> None:
    """Another process holding the write lock must not hold up a pressed key: the status the
    key leads to is stored at the engine's next poll, not by the key itself."""
    import threading

    config = RunConfig(kg="country", target="sim", batch_size=8, iterations=2)
    engine = prepare(conn, config=config)
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # the write lock, as a long commit elsewhere holds it
    try:
        keys = threading.Thread(
            target=lambda: (engine.pause(), engine.resume(), engine.pause(), engine.request_stop())
        )
        keys.start()
        keys.join(60)  # a generous deadline so a regression fails instead of hanging
        assert not keys.is_alive(), "a control call waited on the workspace"
        assert engine.stopping
    finally:
        locker.execute("ROLLBACK")
        locker.close()


def test_a_followed_run_whose_process_dies_shows_as_interrupted(
    conn: sqlite3.Connection, sleeper: subprocess.Popen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live screen following a run another process drives sees that process die, though
    nothing in the run's row changes (kill -9 leaves it 'running')."""
    from kglens_tui.tui.screens import stored_run

    monkeypatch.setattr(stored_run, "FOLLOW_S", 0.0)
    run_id = _run(conn)
    _hold(conn, run_id, _tag(sleeper))
    followed = stored_run.StoredRun(open_snapshot(conn, run_id), "kglens", conn)
    assert followed.snapshot().status == "running"
    sleeper.kill()
    sleeper.wait()
    assert followed.snapshot().status == "interrupted"
