"""The annotator's view against what QA found: one annotator in two windows (a stale label, an
undo of the other window's change), y / n on a question not read to its end, the item's
number in the round beside its place, leaving with an answer not saved, a flag note holding a
control character, and a flag that does not make an item done."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Input
from tui_support import SMALL, make_default_app, notices_of

from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.labels import current_label, label_history, submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.annotate import AnnotateScreen, FlagScreen
from kglens_tui.tui.screens.annotate_home import AnnotationEntry, RoundsScreen
from kglens_tui.tui.screens.dialogs import ConfirmScreen

pytestmark = pytest.mark.tui

LONG_QUESTION = "Is " + "very " * 1000 + "long the end?"


def _round(db: Path, questions: list[str], qtype: str = "yes_no") -> list[int]:
    """A round of `questions` for three annotators; the item ids in ann1's order."""
    conn = connect(db)
    specs = [
        ItemSpec(
            kg="country",
            qtype=qtype,
            app_verdict="correct",
            question=q,
            answers=[["Vienna"]] if qtype == "wh" else [],
            response="Vienna." if qtype == "wh" else None,
        )
        for q in questions
    ]
    create_round_from_items(conn, "r1", specs, annotators=("ann1", "ann2", "ann3"), seed=1)
    ids = [i.item_id for i in items_for_annotator(conn, 1, "ann1")]
    conn.close()
    return ids


def _notes(app) -> list[str]:
    return [str(n.message) for n in notices_of(app)]


async def test_a_label_changed_in_another_window_is_shown_and_never_undone_unseen(
    tmp_path: Path,
) -> None:
    """Was: window 1 showed "Yes ✔ Saved." after window 2 stored No, and its u undid window
    2's label silently."""
    db = tmp_path / "w.db"
    ids = _round(db, ["Is Vienna in Austria?", "Is Graz in Austria?", "Is Linz in Austria?"])
    other = connect(db)  # the second window
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        q1 = screen.query_one("#ann-q1")
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.item.item_id == ids[1])
        submit_label(other, ids[0], "ann1", question_clear="no")  # window 2 on item 1
        await pilot.press("left")
        await wait_for(pilot, lambda: "No ✔" in str(q1.render()))
        assert "Yes ✔" not in str(q1.render())
        assert f"Item 1 of 3 · #{ids[0]} changed in another window: now No." in _notes(app)

        # window 2 changes it again; window 1 has not seen that: u refuses and says what it is
        submit_label(other, ids[0], "ann1", question_clear="yes")
        await pilot.press("u")
        refused = f"Undo refused: Item 1 of 3 · #{ids[0]} changed in another window: now Yes."
        await wait_for(pilot, lambda: refused in _notes(app))
        actions = [r.action for r in label_history(other, ids[0], "ann1")]
        assert actions == ["label", "label", "label"]  # no undo stored
        await wait_for(pilot, lambda: "Yes ✔" in str(q1.render()))  # now shows what is stored
        # seen now: u undoes that change, back to window 2's first No
        await pilot.press("u")
        await wait_for(pilot, lambda: screen.pending == 0 and "No ✔" in str(q1.render()))
    label = current_label(other, ids[0], "ann1")
    assert label is not None and label.state.question_clear == "no"
    other.close()


async def test_y_waits_until_the_question_has_been_read_to_its_end(tmp_path: Path) -> None:
    """Was: y on a question running 56 lines below the screen was saved at once."""
    db = tmp_path / "w.db"
    ids = _round(db, [LONG_QUESTION, "Is Graz in Austria?"])
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        box = screen.query_one("#ann-item")
        asks = screen.query_one("#ann-asks")
        await wait_for(pilot, lambda: box.display and "more lines below" in str(asks.border_title))
        await pilot.press("y")
        await wait_for(pilot, lambda: any("The question goes on below" in n for n in _notes(app)))
        note = next(n for n in _notes(app) if "The question goes on below" in n)
        assert re.fullmatch(
            r"The question goes on below \(\d+ more lines\): read it to its end "
            r"\(↓ / page down\) before judging it\.",
            note,
        )
        assert screen.item.item_id == ids[0] and screen.pending == 0
        assert screen.state_of(screen.item).question_clear is None
        await pilot.press("end")
        await wait_for(pilot, lambda: screen.seen(screen.item, "question"))
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.item.item_id == ids[1])
    conn = connect(db)
    label = current_label(conn, ids[0], "ann1")
    conn.close()
    assert label is not None and label.state.question_clear == "yes"


async def test_the_item_line_shows_the_round_number_beside_the_place(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    ids = _round(db, ["Is Vienna in Austria?", "Is Graz in Austria?"])
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        meta = app.screen.query_one("#ann-meta")
        await wait_for(pilot, lambda: str(meta.render()).startswith(f"Item 1 of 2 · #{ids[0]} ·"))


async def test_leaving_with_an_answer_not_saved_asks_first(tmp_path: Path) -> None:
    """Was: escape dropped the y given while c / x was still open, without a word."""
    db = tmp_path / "w.db"
    ids = _round(db, ["What is the capital of Austria?"], qtype="wh")
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        await pilot.press("y")
        await wait_for(pilot, lambda: "(draft)" in str(screen.query_one("#ann-q1").render()))
        assert screen.unsaved() == (
            f"Item 1 of 1 · #{ids[0]}: an answer is not saved yet (the other question is "
            "open). Leave and drop it?"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # stay: the draft is kept
        await wait_for(pilot, lambda: app.screen is screen)
        assert "(draft)" in str(screen.query_one("#ann-q1").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)


async def test_a_flag_note_with_a_control_character_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    ids = _round(db, ["Is Vienna in Austria?"])
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, FlagScreen))
        dialog = app.screen
        dialog.query_one(Input).value = "pasted \x1b[2J"
        await pilot.press("enter")
        error = dialog.query_one("#flag-error")
        await wait_for(pilot, lambda: "U+001B" in str(error.render()))
        assert app.screen is dialog
        # a flag alone does not make the item done, and the screen says so
        dialog.query_one(Input).value = "odd wording"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.pending == 0)
        state = str(screen.query_one("#ann-state").render())
        assert "a flag alone does not make it done" in state
        assert "0 of 1 done · 1 flagged" in str(screen.query_one("#ann-count").render())
    conn = connect(db)
    label = current_label(conn, ids[0], "ann1")
    conn.close()
    assert label is not None and label.state.note == "odd wording"


async def test_quitting_with_an_answer_not_saved_asks_first(tmp_path: Path) -> None:
    """Was: ctrl+q (the app's quit, before any screen sees the key) dropped the draft unasked."""
    db = tmp_path / "w.db"
    _round(db, ["What is the capital of Austria?"], qtype="wh")
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        await pilot.press("y")
        await wait_for(pilot, lambda: "(draft)" in str(screen.query_one("#ann-q1").render()))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "an answer is not saved yet" in app.screen.question
        await pilot.press("n")  # stay: the draft is kept, the app goes on
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running and "(draft)" in str(screen.query_one("#ann-q1").render())
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)


async def test_undos_queued_behind_one_with_nothing_to_undo_are_not_called_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: `u u u` on a one-label item, queued while the workspace is busy: the second undo
    stored nothing, and the third, whose `seen` named that never-stored revision, was refused
    as "changed in another window"."""
    import kglens_tui.tui.screens.annotate as annotate_screen

    db = tmp_path / "w.db"
    ids = _round(db, ["Is Vienna in Austria?", "Is Graz in Austria?"])
    app = make_default_app(db, AnnotationEntry("r1", "ann1"))
    gate = threading.Event()
    undo = annotate_screen.WRITES["undo"]

    def held_undo(*args: object, **kwargs: object) -> object:
        gate.wait()  # the workspace is busy until every undo is queued
        return undo(*args, **kwargs)

    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.item.item_id == ids[1])
        await pilot.press("left")
        monkeypatch.setitem(annotate_screen.WRITES, "undo", held_undo)
        await pilot.press("u", "u", "u")
        await wait_for(pilot, lambda: screen.pending == 3)
        gate.set()
        await wait_for(pilot, lambda: screen.pending == 0)
        await pilot.pause()
        assert not any("another window" in n for n in _notes(app)), _notes(app)
    assert [r.action for r in label_history(connect(db), ids[0], "ann1")] == ["label", "undo"]
