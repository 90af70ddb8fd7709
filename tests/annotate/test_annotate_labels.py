"""Labels: append-only revisions, undo / skip / flag, idempotent retries, blind item lists,
progress, and five processes writing to one database at once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.labels import (
    StaleLabel,
    current_label,
    flag_item,
    label_history,
    skip_item,
    submit_label,
    undo_label,
)
from kglens_tui.annotate.progress import item_seconds, progress
from kglens_tui.annotate.rounds import ItemSpec, RoundSettings, create_round_from_items
from kglens_tui.store.connection import connect

NAMES = ("ann1", "ann2", "ann3", "ann4", "ann5")


def _items(n: int) -> list[ItemSpec]:
    return [
        ItemSpec(
            kg="country",
            qtype="wh" if k % 2 else "yes_no",
            question=f"question {k}?",
            app_verdict="correct" if k % 3 else "incorrect",
            answers=[["Vienna", "Wien"]] if k % 2 else [],
            response="Vienna." if k % 2 else None,
        )
        for k in range(n)
    ]


def _ids(conn: sqlite3.Connection, round_id: int) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT id FROM annotation_item WHERE round_id = ? ORDER BY position", (round_id,)
        )
    ]


@pytest.fixture
def small(conn):
    rnd = create_round_from_items(conn, "small", _items(4), annotators=NAMES)
    return rnd, _ids(conn, rnd.id)


def test_submit_undo_skip_flag_are_revisions(conn, small) -> None:
    _, (yn, wh, *_) = small
    submit_label(conn, wh, "ann1", question_clear="yes", response_correct="correct", seconds=4)
    flag_item(conn, wh, "ann1", "  answer list looks incomplete ", seconds=1)
    submit_label(conn, wh, "ann1", question_clear="no", response_correct="incorrect", seconds=2)
    now = current_label(conn, wh, "ann1")
    assert now.revision == 3 and now.state.question_clear == "no"
    assert now.state.flag and now.state.note == "answer list looks incomplete"  # kept
    assert undo_label(conn, wh, "ann1").state.question_clear == "yes"
    assert undo_label(conn, wh, "ann1").state.flag is False  # the flag is undone too
    cleared = undo_label(conn, wh, "ann1")
    assert cleared.state.question_clear is None and not cleared.state.done
    assert undo_label(conn, wh, "ann1") is None  # nothing left to undo
    history = label_history(conn, wh, "ann1")
    assert [r.action for r in history] == ["label", "flag", "label", "undo", "undo", "undo"]
    assert [r.undoes for r in history[3:]] == [3, 2, 1]
    assert item_seconds(conn, wh, "ann1") == pytest.approx(7.0)

    skipped = skip_item(conn, yn, "ann2", seconds=3)
    assert skipped.state.skipped and skipped.state.done and skipped.state.question_clear is None
    assert current_label(conn, yn, "ann3") is None


def test_undo_reverts_only_the_revision_the_caller_saw(conn, small) -> None:
    """Was: one annotator's two windows; window 1's undo reverted window 2's newer label."""
    _, (yn, _, third, _) = small
    mine = submit_label(conn, yn, "ann1", question_clear="yes")
    theirs = submit_label(conn, yn, "ann1", question_clear="no")  # another window
    before = list(conn.iterdump())
    with pytest.raises(StaleLabel) as err:
        undo_label(conn, yn, "ann1", seen=mine.client_rev)
    assert str(err.value) == f"item #{yn} changed in another window: now No"
    assert err.value.now.question_clear == "no"
    assert list(conn.iterdump()) == before
    with pytest.raises(StaleLabel, match="now not rated"):
        undo_label(conn, third, "ann1", seen="x")
    undone = undo_label(conn, yn, "ann1", seen=theirs.client_rev)
    assert undone is not None and undone.state.question_clear == "yes"
    assert undo_label(conn, third, "ann1", seen="") is None


def test_labels_are_validated(conn, small) -> None:
    _, (yn, wh, *_) = small
    with pytest.raises(AnnotationError, match="question_clear must be 'yes' or 'no'"):
        submit_label(conn, yn, "ann1", question_clear="maybe")
    with pytest.raises(AnnotationError, match="response_correct must be empty for a Yes/No"):
        submit_label(conn, yn, "ann1", question_clear="yes", response_correct="correct")
    with pytest.raises(AnnotationError, match="response_correct must be 'correct'"):
        submit_label(conn, wh, "ann1", question_clear="yes")
    with pytest.raises(AnnotationError, match="no annotator 'zed'"):
        submit_label(conn, yn, "zed", question_clear="yes")
    with pytest.raises(AnnotationError, match="no annotation item #999"):
        submit_label(conn, 999, "ann1", question_clear="yes")
    with pytest.raises(AnnotationError, match="seconds"):
        submit_label(conn, yn, "ann1", question_clear="yes", seconds=-1)
    assert conn.execute("SELECT COUNT(*) FROM annotation_label").fetchone()[0] == 0


def test_retry_with_the_same_revision_id_is_stored_once(conn, small) -> None:
    _, (yn, *_) = small
    first = submit_label(conn, yn, "ann1", question_clear="yes", rev_id="r-1")
    again = submit_label(conn, yn, "ann1", question_clear="yes", rev_id="r-1")
    assert again == first
    assert conn.execute("SELECT COUNT(*) FROM annotation_label").fetchone()[0] == 1
    with pytest.raises(AnnotationError, match="already used"):
        submit_label(conn, yn, "ann2", question_clear="yes", rev_id="r-1")


def test_revisions_cannot_be_changed_or_deleted(conn, small) -> None:
    rnd, (yn, *_) = small
    submit_label(conn, yn, "ann1", question_clear="yes")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE annotation_label SET question_clear = 'no'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM annotation_label")
    conn.execute("DELETE FROM annotation_round WHERE id = ?", (rnd.id,))  # whole round: allowed
    assert conn.execute("SELECT COUNT(*) FROM annotation_label").fetchone()[0] == 0


def test_items_for_an_annotator_are_blind(conn, small) -> None:
    rnd, (yn, wh, *_) = small
    submit_label(conn, wh, "ann2", question_clear="no", response_correct="incorrect")
    submit_label(conn, wh, "ann1", question_clear="yes", response_correct="correct")
    items = items_for_annotator(conn, rnd.id, "ann1")
    assert sorted(i.item_id for i in items) == sorted(_ids(conn, rnd.id))
    assert [i.position for i in items] == [1, 2, 3, 4]
    for it in items:
        assert not hasattr(it, "app_verdict")
        assert it.label is None or it.label.annotator == "ann1"
    mine = next(i for i in items if i.item_id == wh)
    assert mine.label.state.question_clear == "yes" and mine.done
    assert mine.asks_response and mine.answers_text == "Vienna, Wien"
    yes_no = next(i for i in items if i.item_id == yn)
    assert yes_no.answers == [] and yes_no.response is None and not yes_no.asks_response
    with pytest.raises(AnnotationError, match="no annotator 'nobody'"):
        items_for_annotator(conn, rnd.id, "nobody")


def test_progress_counts_done_of_total_and_time(conn, small) -> None:
    rnd, (yn, wh, third, _) = small
    submit_label(conn, yn, "ann1", question_clear="yes", seconds=6)
    submit_label(conn, wh, "ann1", question_clear="yes", response_correct="correct", seconds=10)
    skip_item(conn, third, "ann1", seconds=2)
    flag_item(conn, third, "ann1", "typo")
    rows = {p.annotator: p for p in progress(conn, rnd.id)}
    p = rows["ann1"]
    assert (p.total, p.labelled, p.skipped, p.flagged, p.done) == (4, 2, 1, 1, 3)
    assert p.seconds_per_item == pytest.approx(6.0)
    assert rows["ann2"].done == 0 and rows["ann2"].seconds_per_item is None


def test_overlap_with_a_calibration_set(conn) -> None:
    settings = RoundSettings(per_kg=None, majority=2, raters_per_item=3, calibration_size=4)
    rnd = create_round_from_items(conn, "overlap", _items(20), annotators=NAMES, settings=settings)
    per_item = dict(
        conn.execute(
            "SELECT s.item_id, COUNT(*) FROM annotation_assignment s GROUP BY s.item_id"
        ).fetchall()
    )
    calibration = {r[0] for r in conn.execute("SELECT id FROM annotation_item WHERE calibration")}
    assert len(calibration) == 4
    assert all(per_item[i] == (5 if i in calibration else 3) for i in per_item)
    loads = [p.total for p in progress(conn, rnd.id)]
    assert sum(loads) == 4 * 5 + 16 * 3 and max(loads) - min(loads) <= 1
    first = items_for_annotator(conn, rnd.id, "ann3")[:4]
    assert all(i.calibration for i in first)  # calibration items come first
    with pytest.raises(AnnotationError, match="majority must be between 1 and the 3 raters"):
        create_round_from_items(
            conn,
            "bad",
            _items(2),
            annotators=NAMES,
            settings=RoundSettings(per_kg=None, majority=4, raters_per_item=3),
        )


WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from kglens_tui.store.connection import connect
    from kglens_tui.annotate.labels import submit_label

    db, name, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    conn = connect(db)
    ids = [r[0] for r in conn.execute("SELECT id, qtype FROM annotation_item ORDER BY id")]
    qtypes = dict(conn.execute("SELECT id, qtype FROM annotation_item"))
    (go.parent / f"ready-{name}").touch()
    while not go.exists():
        time.sleep(0.005)
    for n, item in enumerate(ids):
        wh = qtypes[item] == "wh"
        kwargs = dict(
            question_clear="yes" if n % 4 else "no",
            response_correct=("correct" if n % 3 else "incorrect") if wh else None,
            seconds=1.5,
            rev_id=f"{name}:{item}",
        )
        submit_label(conn, item, name, **kwargs)
        if n % 10 == 0:  # a client retrying after a lost reply: must not store twice
            submit_label(conn, item, name, **kwargs)
    print("ok")
    """
)


def test_five_processes_submit_1000_labels_at_once(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    conn = connect(db)
    rnd = create_round_from_items(conn, "busy", _items(200), annotators=NAMES)
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(db), name, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in NAMES
    ]
    deadline = time.monotonic() + 120  # all five connected: then they start together
    while not all((tmp_path / f"ready-{name}").exists() for name in NAMES):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
        time.sleep(0.01)
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out.strip() == "ok"
    assert conn.execute("SELECT COUNT(*) FROM annotation_label").fetchone()[0] == 1000
    dupes = conn.execute(
        "SELECT COUNT(*) FROM (SELECT item_id, annotator_id FROM annotation_label "
        "GROUP BY item_id, annotator_id HAVING COUNT(*) > 1)"
    ).fetchone()[0]
    assert dupes == 0
    assert conn.execute("SELECT COUNT(*) FROM annotation_current").fetchone()[0] == 1000
    assert all(p.done == 200 for p in progress(conn, rnd.id))
    conn.close()


@pytest.mark.parametrize("seconds", [-1.0, float("nan"), float("inf"), 86_400.5, 1e12])
def test_an_impossible_time_is_refused_and_stores_nothing(conn, seconds: float) -> None:
    rnd = create_round_from_items(
        conn, "times", [ItemSpec(kg="k", qtype="yes_no", question="Q?", app_verdict="correct")]
    )
    item_id = conn.execute("SELECT id FROM annotation_item").fetchone()[0]
    name = rnd.annotators[0]
    with pytest.raises(AnnotationError, match=r"seconds must be a finite number .* 0 to 86,400"):
        submit_label(conn, item_id, name, question_clear="yes", seconds=seconds)
    assert label_history(conn, item_id, name) == []
    submit_label(conn, item_id, name, question_clear="yes", seconds=86_400)  # a day: allowed
