"""A triage entry from the drill-down is written on a worker: while it is in flight the keys
that act on the run's data are dropped; once it is in, the reply shows its new state; a write
that fails is told once, literally, and changes nothing."""

from __future__ import annotations

import copy
import sqlite3
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import DataTable, Input
from tui_support import LARGE, Spy, make_default_app, notices_of

from kglens_tui.tui.screens import review_drill
from kglens_tui.tui.screens.dialogs import HelpScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.screens.review_drill import DrillDownScreen, ReasonScreen

pytestmark = pytest.mark.tui


async def _open_drill(pilot) -> DrillDownScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.loaded)
    await pilot.press("v")
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.loaded)
    await wait_for(pilot, lambda: app.screen.query_one("#rv-edges", DataTable).row_count > 0)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen))
    drill = app.screen
    await wait_for(pilot, lambda: drill.selected_reply() is not None)
    return drill


async def _give_reason(pilot, key: str, reason: str) -> None:
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReasonScreen))
    pilot.app.screen.query_one("#reason", Input).value = reason
    await pilot.press("enter")


def _triage_rows(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT action, observation_id, reason FROM triage").fetchall()
    finally:
        conn.close()


async def test_keys_on_the_data_are_dropped_while_a_verdict_override_is_written(
    stored_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(review_drill.mark_verifier_error)
    monkeypatch.setattr(review_drill, "mark_verifier_error", spy)
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        drill = await _open_drill(pilot)
        reply = drill.selected_reply()
        replies = drill.query_one("#dd-replies", DataTable)
        gate = threading.Event()
        spy.gate = gate
        try:
            await _give_reason(pilot, "v", "the reply is right")
            await wait_for(pilot, spy.waiting.is_set)
            assert drill.storing == 1
            assert not drill.check_action("verifier_error", ())
            # dropped while the entry is written: no second reason asked, no ego graph
            for key in ("v", "k", "n", "b", "t", "g"):
                await pilot.press(key)
            await pilot.press("question_mark")  # help still opens, after the keys above
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert not any(isinstance(s, ReasonScreen) for s in app.screen_stack)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is drill)
            assert "→" not in str(replies.get_row(str(reply.observation_id))[6])
        finally:
            gate.set()
        await wait_for(pilot, lambda: drill.storing == 0)
        await wait_for(pilot, lambda: any("overridden" in n.message for n in notices_of(app)))
        assert "→" in str(replies.get_row(str(reply.observation_id))[6])
        assert reply.observation_id in drill.data.overrides.verdicts
        assert drill.check_action("verifier_error", ())
    assert spy.threads and threading.main_thread() not in spy.threads
    assert _triage_rows(stored_db) == [
        ("verifier_error", reply.observation_id, "the reply is right")
    ]


async def test_a_triage_write_that_fails_is_told_once_literally_and_changes_nothing(
    stored_db: Path,
) -> None:
    conn = sqlite3.connect(stored_db)
    conn.execute(
        "CREATE TRIGGER no_triage BEFORE INSERT ON triage "
        "BEGIN SELECT RAISE(ABORT, '[b]triage refused[/b]'); END"
    )
    conn.commit()
    conn.close()
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        drill = await _open_drill(pilot)
        overrides, log, detail = (
            copy.deepcopy(drill.data.overrides),
            list(drill.data.triage),
            drill.detail,
        )
        head = str(drill.query_one("#dd-head").render())
        await _give_reason(pilot, "n", "a note")
        await wait_for(pilot, lambda: drill.storing == 0)
        errors = [n.message for n in notices_of(app) if n.severity == "error"]
        assert errors == ["[b]triage refused[/b]"]
        assert not any("Note saved" in n.message for n in notices_of(app))
        assert drill.data.overrides == overrides and drill.data.triage == log
        assert drill.detail is detail
        assert str(drill.query_one("#dd-head").render()) == head
        await pilot.press("n")  # the keys act again
        await wait_for(pilot, lambda: isinstance(app.screen, ReasonScreen))
    assert _triage_rows(stored_db) == []
