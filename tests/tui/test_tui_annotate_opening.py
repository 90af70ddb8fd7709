"""The annotation screen reads the workspace on worker threads (#37 item 2): it shows at once
with a placeholder, keys pressed before the items are read do nothing, and the items, the
guidelines a new annotator sees first and the progress fill in together after; each item's
stored label is read again off the UI thread as it shows."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import ITEMS, NAMES
from conftest import wait_for
from tui_support import SHORT, Spy, make_default_app, notices_of

from kglens_tui.annotate.labels import submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens import annotate as annotate_screen
from kglens_tui.tui.screens.annotate import AnnotateScreen, FlagScreen
from kglens_tui.tui.screens.annotate_home import AnnotationEntry

pytestmark = pytest.mark.tui


def _round(db: Path) -> None:
    conn = connect(db)
    specs = [
        ItemSpec(kg=kg, qtype=qtype, app_verdict=verdict, question=q, answers=a, response=r)
        for kg, qtype, verdict, q, a, r in ITEMS
    ]
    create_round_from_items(conn, "r", specs, annotators=NAMES, seed=1)
    conn.close()


async def test_keys_wait_for_the_items_read_off_the_ui_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _round(db)
    spy = Spy(annotate_screen.items_for_annotator)
    gate = spy.gate = threading.Event()
    monkeypatch.setattr(annotate_screen, "items_for_annotator", spy)
    app = make_default_app(db, AnnotationEntry("r", "ann1"))
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen))
        await wait_for(pilot, spy.waiting.is_set)
        screen = app.screen
        assert isinstance(screen, AnnotateScreen)
        assert not screen.loaded and screen.item is None
        assert "Reading the round" in str(screen.query_one("#ann-question").render())
        await pilot.press("y", "c", "s", "u", "f", "j", "k", "g", "down")
        await pilot.pause()
        assert app.screen is screen and not isinstance(app.screen, FlagScreen)
        assert screen.pending == 0 and not notices_of(app)
        assert screen.query_one("#ann-guidelines").collapsed  # g waited too
        gate.set()
        await wait_for(pilot, lambda: screen.loaded)
        assert all(t is not threading.main_thread() for t in spy.threads)
        assert screen.item is not None and len(screen.items) == len(ITEMS)
        assert str(screen.query_one("#ann-question").render()) == screen.item.question
        # nothing labelled yet: the guidelines are open (at 120 columns in the item's place)
        assert not screen.query_one("#ann-guidelines").collapsed
        assert screen.query_one("#ann-main").has_class("-guides")
        assert str(screen.query_one("#ann-count").render()) == f"0 of {len(ITEMS)} done"
        await pilot.press("g", "s")  # the keys work now: the item again, skipped
        await wait_for(pilot, lambda: screen.pending == 0 and screen.done_count() == 1)
        assert screen.index == 1


async def test_a_label_stored_elsewhere_is_read_off_the_ui_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each item shown has its stored label read again (another window may have changed it),
    on a worker: the item shows as held meanwhile, then what is stored, with a note."""
    db = tmp_path / "w.db"
    _round(db)
    spy = Spy(annotate_screen.current_label)
    monkeypatch.setattr(annotate_screen, "current_label", spy)
    app = make_default_app(db, AnnotationEntry("r", "ann1"))
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")  # the item in the guidelines' place
        await wait_for(pilot, lambda: spy.done >= 1)
        second = screen.items[1]
        other = connect(db)  # another window
        correct = "correct" if second.asks_response else None
        submit_label(other, second.item_id, "ann1", question_clear="no", response_correct=correct)
        other.close()
        gate = spy.gate = threading.Event()
        await pilot.press("j")
        await wait_for(pilot, spy.waiting.is_set)
        q1 = screen.query_one("#ann-q1")
        assert screen.item == second and "No ✔" not in str(q1.render())  # as held
        await pilot.press("down", "up")  # the screen goes on meanwhile
        assert screen.item == second and not notices_of(app)
        gate.set()
        await wait_for(pilot, lambda: "No ✔" in str(q1.render()))
        notes = [n.message for n in notices_of(app)]
        assert any("changed in another window: now " in n for n in notes), notes
        assert all(t is not threading.main_thread() for t in spy.threads)
