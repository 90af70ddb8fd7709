"""A KONTEST run another process drives (stored as going, its owner process alive) shows on its
live screen as followed, not as a stored run; once that process is gone it is a stored run
again (shown as interrupted)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from runs_support import _stopped_kontest_run
from tui_support import SHORT, make_app

from kglens_tui.store.owner import this_process
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.live_units import FOLLOWED
from kglens_tui.tui.screens.stored_run import StoredRun

pytestmark = pytest.mark.tui


def _set_owner(db: Path, run_id: int, status: str, owner: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE run SET status = ?, owner = ? WHERE id = ?", (status, owner, run_id))


def _progress(db: Path, run_id: int) -> tuple[str, str]:
    """(title, progress) of the run's live screen opened from the workspace."""
    app = make_app(db)
    shown: list[str] = []

    async def drive() -> None:
        async with app.run_test(size=SHORT) as pilot:
            await pilot.pause()
            app.open_run(run_id)
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
            screen = app.screen
            assert isinstance(screen.stored, StoredRun)

            def title() -> str:
                found = screen.query("#mode-title")
                return str(found.first().content) if found else ""

            await wait_for(pilot, lambda: f"Run {run_id}" in title())
            shown.extend([title(), str(screen.query_one("#mode-progress").content)])

    asyncio.run(drive())
    return shown[0], shown[1]


def test_a_run_another_process_drives_is_followed_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    run_id, _ = _stopped_kontest_run(db)
    _set_owner(db, run_id, "running", this_process())  # a live owner: this test's process
    title, progress = _progress(db, run_id)
    assert "running" in title
    assert FOLLOWED in progress and "stored run" not in progress
    _set_owner(db, run_id, "running", "nohost-x:1:1")  # another host: it may well be going
    title, progress = _progress(db, run_id)
    assert FOLLOWED in progress and "stored run" not in progress


def test_a_run_whose_process_is_gone_is_a_stored_run(tmp_path: Path) -> None:
    import socket

    db = tmp_path / "w.db"
    run_id, _ = _stopped_kontest_run(db)
    _set_owner(db, run_id, "running", f"{socket.gethostname()}:999999999:1")  # no such process
    title, progress = _progress(db, run_id)
    assert "interrupted" in title
    assert "stored run" in progress and FOLLOWED not in progress
