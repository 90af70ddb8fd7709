"""The annotation screen reads its round on a worker thread (#37 item 2): it shows at once with
a placeholder, keys before the items are read do nothing, and the items fill in after."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from annotate_support import ITEMS, NAMES
from conftest import wait_for
from tui_support import SHORT, make_default_app

from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens import annotate as annotate_screen
from kglens_tui.tui.screens.annotate import AnnotateScreen
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


async def test_the_screen_shows_before_its_items_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    _round(db)
    release = threading.Event()
    reading = threading.Event()
    real = annotate_screen.items_for_annotator

    def held(*args: object, **kwargs: object) -> object:
        reading.set()
        release.wait(60)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(annotate_screen, "items_for_annotator", held)
    app = make_default_app(db, AnnotationEntry("r", "ann1"))
    async with app.run_test(size=SHORT) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and reading.is_set())
        screen = app.screen
        assert isinstance(screen, AnnotateScreen)
        assert not screen.loaded and screen.item is None
        assert "Reading the round" in str(screen.query_one("#ann-question").render())
        await pilot.press("y", "j")  # nothing to answer yet: no error, nothing queued
        assert screen.pending == 0
        release.set()
        await wait_for(pilot, lambda: screen.loaded)
        assert screen.item is not None and len(screen.items) == len(ITEMS)
        assert "Reading the round" not in str(screen.query_one("#ann-question").render())
