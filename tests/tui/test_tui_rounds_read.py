"""The rounds list, the annotator picker and an annotator's entry read the workspace on worker
threads (#37 item 2): each screen is up while its read is held, the keys that need what it
reads do nothing meanwhile, and what it read shows once it is in."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import NAMES, _hand_db
from conftest import wait_for
from tui_support import LARGE, Spy, make_default_app, notices_of

from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens import annotate_home
from kglens_tui.tui.screens.annotate import AnnotateScreen
from kglens_tui.tui.screens.annotate_home import AnnotationEntry, AnnotatorPickScreen, RoundsScreen

pytestmark = pytest.mark.tui


def _held(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[Spy, threading.Event]:
    """``annotate_home.<name>`` spied, its next call held until the event is set."""
    spy = Spy(getattr(annotate_home, name))
    monkeypatch.setattr(annotate_home, name, spy)
    gate = spy.gate = threading.Event()
    return spy, gate


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_the_rounds_are_read_off_the_ui_thread_and_keys_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy, gate = _held(monkeypatch, "round_lines")
    # no poll: its read of the third round could land between ctrl+r and the look before the
    # held read (the poll has tests of its own)
    monkeypatch.setattr(annotate_home, "REFRESH_S", 3600.0)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen))
        await wait_for(pilot, spy.waiting.is_set)
        screen = app.screen
        assert isinstance(screen, RoundsScreen) and not screen.loaded
        assert _text(screen, "#ann-banner") == "Reading the rounds…"
        await pilot.press("enter", "a", "p", "r", "d")  # nothing to act on yet
        await pilot.pause()
        assert app.screen is screen and not notices_of(app)
        gate.set()
        await wait_for(pilot, lambda: screen.loaded)
        table = screen.query_one("#ann-rounds-table")
        assert table.row_count == 2 and "n new round" in _text(screen, "#ann-banner")
        assert all(t is not threading.main_thread() for t in spy.threads)
        # ctrl+r reads again on a worker: the list stays as it was until the read is in
        conn = connect(db)
        spec = ItemSpec(kg="country", qtype="yes_no", app_verdict="correct", question="Q?")
        create_round_from_items(conn, "third", [spec], annotators=NAMES, seed=1)
        conn.close()
        spy.waiting.clear()
        gate = spy.gate = threading.Event()
        await pilot.press("ctrl+r")
        await wait_for(pilot, spy.waiting.is_set)
        await pilot.press("down")
        assert table.row_count == 2 and app.screen is screen
        gate.set()
        await wait_for(pilot, lambda: table.row_count == 3)
        await pilot.press("p")  # the keys work on what was read
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ProgressScreen")


async def test_a_failed_rounds_read_is_one_literal_line_in_the_banner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy = Spy(annotate_home.round_lines)
    spy.fail = OSError("disk [bold]gone[/]\nsecond line")
    monkeypatch.setattr(annotate_home, "round_lines", spy)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen))
        screen = app.screen
        await wait_for(pilot, lambda: "Could not" in _text(screen, "#ann-banner"))
        assert _text(screen, "#ann-banner") == (
            "Could not read the rounds: disk [bold]gone[/]⏎second line"
        )
        assert not notices_of(app) and app.screen is screen


async def test_the_picker_lists_the_annotators_once_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy, gate = _held(monkeypatch, "get_round")  # the picker reads it, the list does not
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotatorPickScreen))
        await wait_for(pilot, spy.waiting.is_set)
        picker = app.screen
        assert isinstance(picker, AnnotatorPickScreen) and not picker.loaded
        assert "Reading" in _text(picker, "#ann-names-hint")
        await pilot.press("down", "enter")  # no name to choose yet
        await pilot.pause()
        assert app.screen is picker
        gate.set()
        await wait_for(pilot, lambda: picker.loaded)
        assert _text(picker, "#ann-who-title") == "Who is annotating round 'r1'?"
        names = picker.query_one("#ann-names")
        assert names.option_count == len(NAMES)
        assert all(t is not threading.main_thread() for t in spy.threads)
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        assert app.screen.annotator == NAMES[1]


async def test_an_annotators_entry_opens_once_its_round_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    spy, gate = _held(monkeypatch, "entry_rounds")
    app = make_default_app(db, AnnotationEntry("r2", "ann2", bound=True))
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and spy.waiting.is_set())
        screen = app.screen
        await wait_for(pilot, lambda: screen.loaded)  # the list's own read is not held
        await pilot.press("down")
        await pilot.pause()
        assert app.screen is screen
        gate.set()
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        assert app.screen.annotator == "ann2"
        assert all(t is not threading.main_thread() for t in spy.threads)
