"""Quitting with a run active: every way to quit asks first, saying what quitting keeps; a
confirmed quit says what it waits for, cancels the requests in flight, commits what is whole
(a probe's committed iterations, its iteration in progress dropped; a fact-eval run's answered
units) and stores the run as interrupted."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import LARGE, make_default_app

from kglens_tui.modes.config import FactevalConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.messages import RunSnapshot
from kglens_tui.runs.session import RunSession
from kglens_tui.tui import app as app_module
from kglens_tui.tui.app import QUIT_REASON
from kglens_tui.tui.screens.dialogs import ConfirmScreen, QuittingScreen
from kglens_tui.tui.screens.live import LiveScreen

pytestmark = pytest.mark.tui


def slow_probe() -> RunConfig:
    # 0.3 s per simulated answer: requests are always in flight when the quit comes
    return RunConfig(
        kg="country",
        target="sim",
        iterations=100000,
        batch_size=4,
        stop_on_convergence=False,
        sim_latency_s=0.3,
    )


async def test_every_quit_asks_while_a_run_is_active(tmp_path: Path) -> None:
    app = make_default_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(slow_probe())
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        quits = [c for c in app.get_system_commands(app.screen) if "Quit" in c.title]
        assert [c.callback for c in quits] == [app.action_quit_app]  # Textual's own is gone
        for way in ("q", "ctrl+q", "ctrl+c", "palette"):
            if way == "palette":
                await app.run_action("quit")  # what Textual's palette and keymaps call
            else:
                await pilot.press(way)
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        assert app._busy()
        app.session.stop()
        await wait_for(pilot, lambda: not app._busy())


@pytest.fixture
def patient_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quit that waits for the run as long as it takes: a loaded machine can hold the run's
    process past the 1.5 s grace, and the kill's words would replace those a test reads."""
    monkeypatch.setattr(app_module, "QUIT_GRACE_S", 600.0)


@pytest.mark.usefixtures("patient_quit")
async def test_quit_ends_a_probe_run_and_keeps_its_iterations(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(slow_probe())
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        await wait_for(pilot, lambda: app.session.snapshot().iteration >= 2)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert isinstance(app.screen, QuittingScreen)
        assert f"run {app.session.run_id}" in app.screen.text
        await wait_for(pilot, lambda: app.return_code is not None)
    conn = sqlite3.connect(db)
    run_id, done, status, reason = conn.execute(
        "SELECT id, iterations_done, status, stop_reason FROM run"
    ).fetchone()
    assert (status, reason) == ("interrupted", QUIT_REASON)
    assert done >= 2
    iterations = [
        r[0]
        for r in conn.execute(
            "SELECT iteration FROM iteration WHERE run_id = ? ORDER BY 1", (run_id,)
        )
    ]
    assert iterations == list(range(1, done + 1))
    assert (
        conn.execute("SELECT COUNT(*) FROM observation WHERE run_id = ?", (run_id,)).fetchone()[0]
        == done * 4
    )


@pytest.mark.usefixtures("patient_quit")
async def test_the_quit_question_says_the_iteration_in_progress_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A KGLens iteration is committed whole or not at all: the quit question says its replies
    in so far are dropped (and how many), and what quitting stores agrees."""
    db = tmp_path / "w.db"
    app = make_default_app(db)
    asked: list[RunSnapshot | None] = []  # the snapshot the question was made from
    question_of = app_module.quit_question

    def spy(session: RunSession) -> str:
        snap = session.snapshot()
        asked.append(snap)
        session.snapshot = lambda: snap  # type: ignore[method-assign]
        try:
            return question_of(session)
        finally:
            del session.snapshot  # the class's again

    monkeypatch.setattr(app_module, "quit_question", spy)
    config = dataclasses.replace(slow_probe(), batch_size=8, concurrency=2)
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(config)
        session = app.session

        def replies_in() -> int:
            snap = session.snapshot()
            return snap.uncommitted.requests if snap is not None else 0

        await wait_for(pilot, lambda: replies_in() >= 1)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        # committed iterations when the question was made (the run goes on meanwhile)
        asked_at = asked[-1].iteration  # type: ignore[union-attr]
        question = " ".join(app.screen.question.split())
        shown = re.search(r"The iteration in progress \((\d+) replies in\) is dropped", question)
        assert shown is not None, question
        assert "committed iterations are kept" in question and "press s" in question
        assert "what is already answered is committed" not in question
        await pilot.press("y")
        assert "dropping the iteration in progress" in app.screen.text
        await wait_for(pilot, lambda: app.return_code is not None)
    conn = sqlite3.connect(db)
    done, status = conn.execute("SELECT iterations_done, status FROM run").fetchone()
    assert status == "interrupted"
    observations = conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0]
    assert observations == done * 8  # nothing of the iteration in progress
    (dropped,) = conn.execute("SELECT dropped FROM target_usage").fetchone()
    if done == asked_at:  # the iteration the question named was the one dropped
        assert dropped >= int(shown.group(1))  # the replies it had in, and any still in flight
    else:  # it was committed while the question was open (the run goes on): a later one went
        assert done > asked_at and dropped >= 0


async def test_quit_ends_a_facteval_run_and_keeps_its_answers(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_default_app(db)
    config = FactevalConfig(
        kg="country", subset="paper16", facts=60, concurrency=2, sim_latency_s=0.3
    )
    async with app.run_test(size=LARGE) as pilot:
        app.start_mode_run(config)
        await wait_for(pilot, lambda: app._busy() and app.session.run_id is not None)
        session = app.session
        await wait_for(
            pilot, lambda: (session.snapshot() or None) and session.snapshot().units_done >= 2
        )
        await app.run_action("quit")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "every answered unit is kept" in app.screen.question
        await pilot.press("y")
        await wait_for(pilot, lambda: app.return_code is not None)
    conn = sqlite3.connect(db)
    status, reason, units_done = conn.execute(
        "SELECT status, stop_reason, iterations_done FROM run"
    ).fetchone()
    assert (status, reason) == ("interrupted", QUIT_REASON)
    questions = conn.execute("SELECT COUNT(*) FROM facteval_question").fetchone()[0]
    answered = conn.execute(
        "SELECT COUNT(DISTINCT question_id) FROM facteval_answer WHERE category != 'error'"
    ).fetchone()[0]
    assert 2 <= answered < questions  # what was answered is kept, the rest was not asked
    assert units_done >= 2


async def test_an_app_that_ends_without_quitting_ends_its_paused_run(tmp_path: Path) -> None:
    """However the app ends (a crash, the end of a test), the run going does not outlive it: it
    is stored as interrupted and its probe process ends."""
    db = tmp_path / "w.db"
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(slow_probe())
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        session = app.session
        session.pause()
    await asyncio.to_thread(session._ready.wait)  # the worker thread's run() has returned
    for _ in range(600):
        if session._process is not None and not session._process.is_alive():
            break
        await asyncio.sleep(0.05)
    assert not session._process.is_alive()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status, stop_reason FROM run").fetchone() == (
        "interrupted",
        QUIT_REASON,
    )
    conn.close()


async def test_a_quit_signal_asks_nothing_and_keeps_the_run_as_a_confirmed_quit(
    tmp_path: Path,
) -> None:
    """SIGTERM / SIGHUP (`KGLensApp.quit_on_signal`) while a run is active: no question, the run
    ends as on a confirmed quit (its iterations kept, stored as interrupted) and the app exits."""
    db = tmp_path / "w.db"
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(slow_probe())
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        await wait_for(pilot, lambda: app.session.snapshot().iteration >= 1)
        await pilot.press("q")  # a question open when the signal comes
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        app.quit_on_signal()
        assert isinstance(app.screen, QuittingScreen)
        app.quit_on_signal()  # a second signal changes nothing
        await wait_for(pilot, lambda: app.return_code is not None)
    conn = sqlite3.connect(db)
    done, status, reason = conn.execute(
        "SELECT iterations_done, status, stop_reason FROM run"
    ).fetchone()
    assert (status, reason) == ("interrupted", QUIT_REASON) and done >= 1
