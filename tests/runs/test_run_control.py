"""Pausing, resuming and stopping a run from wherever it is seen: the process that drives it
obeys requests left in the workspace, and every screen that shows a run offers p and s."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from run_targets import HangAfterThree, SlowYes
from runs_support import _answers, _status, _wait
from textual.widgets import DataTable, Static
from toy_mode import TOY, ToyConfig
from tui_support import SHORT, make_app, notices_of

from kglens_tui.cli.main import main
from kglens_tui.runs.control import RunControlError, ask_run
from kglens_tui.runs.messages import Pause
from kglens_tui.runs.session import RunSession
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.stored_run import StoredRun


def _drive(session: RunSession) -> threading.Thread:
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error
    return worker


def _toy(db: Path, target=SlowYes) -> RunSession:
    return RunSession(
        db, TOY, config=ToyConfig(kg="country", edges=200, concurrency=1), target_factory=target
    )


def test_a_second_pause_leaves_a_paused_run_paused(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    session = _toy(db)
    worker = _drive(session)
    session.pause()
    _wait(lambda: session.snapshot() is not None and session.snapshot().status == "paused", "held")
    session.pause()  # the engine said "pausing" for good before: nothing would set it back
    _wait(lambda: session.obeyed == 2, "the second pause obeyed")
    _wait(lambda: session.snapshot().status == "paused", "still paused")
    conn = connect(db)
    with pytest.raises(RunControlError, match=r"is paused already \(resume it to go on\)"):
        ask_run(conn, session.run_id, Pause())
    conn.close()
    assert main(["--db", str(db), "stop", str(session.run_id), "--now"]) == 0
    assert f"to stop run {session.run_id} now" in capsys.readouterr().out
    worker.join(60)
    assert session.snapshot().status == "stopped"


@pytest.mark.tui
async def test_the_live_screen_of_a_run_another_process_drives_follows_it_and_controls_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    session = _toy(db)
    worker = await asyncio.to_thread(_drive, session)
    run_id = session.run_id
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#runs"), 120)
        app.open_run(run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 120)
        screen = app.screen
        assert isinstance(screen.stored, StoredRun)
        # the screen shows at once and reads the run on a worker
        await wait_for(pilot, lambda: screen.latest() is not None, 60)
        done = screen.latest().units_done
        await wait_for(pilot, lambda: screen.latest().units_done > done + 1, 120)
        await pilot.press("p")
        await wait_for(pilot, lambda: screen.latest().status == "paused", 120)
        await pilot.press("p")
        await wait_for(pilot, lambda: screen.latest().status == "running", 120)
        await pilot.press("s")
        await wait_for(pilot, lambda: not worker.is_alive(), 120)
        await wait_for(pilot, lambda: screen.latest().status == "stopped", 120)
        await pilot.press("s")
        said = f"run {run_id} is stopped: no process is running it"
        await wait_for(pilot, lambda: said in [n.message for n in notices_of(app)], 120)

        def title() -> str:
            return str(screen.query_one("#mode-title", Static).content)

        # the title follows on the screen's next refresh (every 0.25 s): wait for it, not race it
        await wait_for(pilot, lambda: "stopped" in title(), 120)


@pytest.mark.tui
async def test_r_on_home_for_a_run_another_process_drives_goes_on_there(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    session = _toy(db)
    session.pause()
    worker = await asyncio.to_thread(_drive, session)
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: _status(db, session.run_id) == "paused", 120)
        # r acts on the listed run: home reads the list on a worker, and lists it paused
        runs = lambda: app.screen.query_one("#runs", DataTable)  # noqa: E731
        await wait_for(
            pilot,
            lambda: (
                app.screen.query("#runs")
                and runs().row_count == 1
                and "paused" in str(runs().get_row_at(0))
            ),
            120,
        )
        await pilot.press("r")
        await wait_for(pilot, lambda: _status(db, session.run_id) == "running", 120)
        assert app.session is None  # nothing resumed here: it went on where it runs
        await pilot.press("r")
        messages = [n.message for n in notices_of(app)]
        assert messages[-1].startswith(f"Run {session.run_id} goes on in process {session.pid}")
        session.stop()
        await asyncio.to_thread(worker.join, 60)


@pytest.mark.tui
async def test_home_shows_a_run_another_process_starts(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        runs = lambda: app.screen.query_one("#runs", DataTable)  # noqa: E731
        await wait_for(pilot, lambda: app.screen.query("#runs") and runs().row_count == 0)
        argv = ["--db", str(db), "run", "toy", "--quiet", "--set", "kg=country"]
        assert await asyncio.to_thread(main, argv) == 0
        await wait_for(pilot, lambda: runs().row_count == 1, 60)  # no ctrl+r


@pytest.mark.tui
async def test_a_live_screen_says_so_when_its_runs_process_dies(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        session = _toy(db, target=HangAfterThree)
        app._launch(session, "toy", LiveScreen(None, session=session))
        await wait_for(pilot, lambda: session.run_id is not None, 60)
        await wait_for(pilot, lambda: len(_answers(db, session.run_id)) == 3, 60)
        await wait_for(pilot, lambda: session.snapshot() is not None, 60)
        session.kill()
        title = lambda: str(app.screen.query_one("#mode-title", Static).content)  # noqa: E731
        await wait_for(pilot, lambda: "interrupted" in title(), 60)
        assert "ended unexpectedly" in title()
        await pilot.press("p")
        messages = [n.message for n in notices_of(app)]
        assert messages[-1] == f"run {session.run_id} is interrupted: no process is running it"


def test_a_running_run_with_no_owner_recorded_is_not_asked(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "toy", "--quiet", "--set", "kg=country"]) == 0
    conn = connect(db)
    conn.execute("UPDATE run SET status = 'running', owner = NULL")
    with pytest.raises(RunControlError, match="run 1 is stored as running but no process holds it"):
        ask_run(conn, 1, Pause())
    assert conn.execute("SELECT control FROM run").fetchone()[0] == ""
    conn.close()


@pytest.mark.tui
async def test_a_kglens_runs_death_says_interrupted_and_drops_what_was_in_flight(
    tmp_path: Path,
) -> None:
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.tui.screens.live import LiveScreen

    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=SHORT) as pilot:
        config = RunConfig(kg="country", subset="paper16", batch_size=8, concurrency=1)
        session = RunSession(db, "kglens", config=config, target_factory=HangAfterThree)
        app._launch(session, "kglens", LiveScreen(None, session))
        await wait_for(pilot, lambda: session.snapshot() is not None, 60)
        await wait_for(pilot, lambda: session.snapshot().uncommitted.answered == 3, 60)
        progress = lambda: str(app.screen.query_one("#progress", Static).content)  # noqa: E731
        await wait_for(pilot, lambda: "+3 not committed" in progress(), 60)
        assert "ETA" in progress()  # the time left while the run goes
        session.kill()
        messages = lambda: [n.message for n in notices_of(app)]  # noqa: E731
        said = f"Run {session.run_id} interrupted: the run's process ended unexpectedly"
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages()), 60)
        assert not any(m.startswith("The run failed") for m in messages())
        await wait_for(pilot, lambda: "not committed" not in progress(), 60)
        assert "ETA" not in progress()  # an ended run has no time left to show
