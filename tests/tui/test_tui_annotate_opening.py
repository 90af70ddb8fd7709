"""The annotation screen reads its round on a worker thread (#37 item 2): it shows at once with
a placeholder, keys pressed before the items are read do nothing, and the items, the guidelines
a new annotator sees first and the progress fill in together after."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import ITEMS, NAMES
from conftest import wait_for
from tui_support import SHORT, Spy, make_default_app

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
        assert screen.pending == 0 and not app._notifications
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
