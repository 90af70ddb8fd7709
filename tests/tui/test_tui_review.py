"""The review, drill-down, analysis and comparison screens driven with Pilot on stored simulated
runs: triage from the drill-down (snapshots: tests/tui/test_tui_layout.py)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import DataTable, Input, Static
from tui_support import LARGE, make_default_app, notices_of

from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.screens.review_drill import DrillDownScreen, ReasonScreen

pytestmark = pytest.mark.tui


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_review_drill_down_and_verifier_error(stored_db: Path) -> None:
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        edges = review.query_one("#rv-edges", DataTable)
        assert edges.row_count > 0
        metrics_before = text_of(review, "#rv-metrics")

        await pilot.press("z")
        await pilot.pause()
        assert review.kind == "zero_sense"
        await pilot.press("r")
        await pilot.pause()
        edge_id = review.selected_edge()
        await pilot.press("enter")
        await pilot.pause()
        drill = app.screen
        assert isinstance(drill, DrillDownScreen)
        assert drill.edge_id == edge_id
        replies = drill.query_one("#dd-replies", DataTable)
        assert replies.row_count > 0
        assert drill.query_one("#dd-history", DataTable).row_count > 0
        before = drill.detail.edge
        reply = drill.selected_reply()
        assert reply is not None

        def said(text: str) -> bool:
            return any(text in n.message for n in notices_of(app))

        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReasonScreen)
        app.screen.query_one("#reason", Input).value = "the reply is right"
        await pilot.press("enter")
        await wait_for(pilot, lambda: said("Verdict overridden"))  # stored on a worker
        assert app.screen is drill

        conn = sqlite3.connect(stored_db)
        row = conn.execute("SELECT action, observation_id, value, reason FROM triage").fetchone()
        conn.close()
        flipped = "incorrect" if reply.category == "correct" else "correct"
        assert row == ("verifier_error", reply.observation_id, flipped, "the reply is right")

        after = drill.detail.edge
        step = 1 if flipped == "correct" else -1
        assert (after.m, after.n) == (before.m + step, before.n - step)
        assert after.overridden == 1
        assert f"m {after.m} n {after.n}" in text_of(drill, "#dd-head")
        assert "→" in str(replies.get_row(str(reply.observation_id))[6])

        await pilot.press("t")
        await pilot.pause()
        app.screen.query_one("#reason", Input).value = "2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: said("Error type tagged"))
        conn = sqlite3.connect(stored_db)
        tag = conn.execute(
            "SELECT observation_id, value FROM triage WHERE action = 'error_type'"
        ).fetchone()
        conn.close()
        assert tag == (reply.observation_id, "obsolete_knowledge")

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is review
        assert "1 overridden" in str(
            review.query_one("#rv-edges", DataTable).get_row(str(edge_id))[5]
        )

        # the raw column (n, rates, intervals, chance) is as it was (columns: two spaces apart)
        def raw_column(text: str) -> list[str]:
            return [re.split(r"\s{2,}", line.strip())[-1] for line in text.splitlines()]

        after = text_of(review, "#rv-metrics")
        assert raw_column(after) == raw_column(metrics_before)
        assert raw_column(after)[0] == "raw (triage ignored)"
        assert raw_column(after)[3].endswith(" edges")  # n: the examined edges


async def test_analysis_and_compare_open_from_home(stored_db: Path) -> None:
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        assert isinstance(app.screen, AnalysisScreen)
        table = app.screen.query_one("#an-table", DataTable)
        assert table.row_count > 0
        await pilot.press("g")
        await pilot.pause()
        assert app.screen.by == "region"
        await pilot.press("y")
        await pilot.pause()
        assert app.screen.by == "year"
        await pilot.press("escape")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded)
        assert app.screen.run_b is not None
        assert app.screen.query_one("#cmp-grid", DataTable).row_count == 2


async def test_review_filters_by_entity_group_and_fact_date(stored_db: Path) -> None:
    from textual.widgets import Select

    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        review = app.screen
        edges = review.query_one("#rv-edges", DataTable)
        everything = edges.row_count
        review.query_one("#rv-group", Select).value = "region:Oceania"
        await pilot.pause()
        subjects = {str(edges.get_row_at(i)[6]) for i in range(edges.row_count)}
        assert 0 < edges.row_count < everything
        assert subjects <= {"Australia"}  # the only Oceanian country of the paper's 16
        review.query_one("#rv-group", Select).value = "__all__"
        review.query_one("#rv-dates", Select).value = "dated"
        await pilot.pause()
        dated = edges.row_count
        predicates = {str(edges.get_row_at(i)[7]) for i in range(dated)}
        assert 0 < dated < everything
        assert "capital" not in predicates  # capitals carry no date in the bundled KG


async def test_review_offers_to_re_check_verdicts_from_an_earlier_verifier(stored_db: Path) -> None:
    """A run without today's verifier rules says so above its list, and V re-checks its
    replies: each changed verdict becomes a triage entry and the note goes."""

    from kglens_tui.tui.screens.dialogs import ConfirmScreen

    conn = connect(stored_db)
    conn.execute("UPDATE run SET manifest = json_remove(manifest, '$.verifier_rules') WHERE id = 1")
    flipped = conn.execute(
        "UPDATE observation SET category = CASE category WHEN 'correct' THEN 'incorrect' "
        "ELSE 'correct' END WHERE run_id = 1 AND category IN ('correct', 'incorrect') "
        "AND id % 7 = 0"
    ).rowcount
    conn.commit()
    conn.close()
    assert flipped > 0
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await app.push_screen(ReviewScreen(1))
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        review = app.screen
        stale = review.query_one("#rv-stale", Static)
        await wait_for(pilot, lambda: stale.display)
        assert "earlier verifier" in text_of(review, "#rv-stale")
        await pilot.press("V")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not stale.display, 60)
    conn = connect(stored_db)
    stored = conn.execute("SELECT COUNT(*) FROM triage WHERE run_id = 1").fetchone()[0]
    conn.close()
    assert stored == flipped


@pytest.mark.parametrize("screen_class", [ReviewScreen, AnalysisScreen])
async def test_a_run_screen_says_it_reads_the_run_then_fills_in(
    stored_db: Path, monkeypatch: pytest.MonkeyPatch, screen_class: type
) -> None:
    """The run is read on a worker thread: the screen shows "reading run 1…" at once (the UI
    does not wait for the read), then fills in."""
    import threading

    from kglens_tui.tui.screens import run_data_screen

    release = threading.Event()
    real = run_data_screen.load_run_data

    def held(conn, run_id):  # type: ignore[no-untyped-def]
        assert threading.current_thread() is not threading.main_thread()
        release.wait(30)
        return real(conn, run_id)

    monkeypatch.setattr(run_data_screen, "load_run_data", held)
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await app.push_screen(screen_class(1))
        screen = app.screen
        title = "#rv-title" if screen_class is ReviewScreen else "#an-title"
        await wait_for(pilot, lambda: screen.is_mounted)
        assert text_of(screen, title) == "reading run 1…"
        assert not screen.loaded
        release.set()
        await wait_for(pilot, lambda: screen.loaded)
        table = "#rv-edges" if screen_class is ReviewScreen else "#an-table"
        await wait_for(pilot, lambda: screen.query_one(table, DataTable).row_count > 0)
        assert "reading" not in text_of(screen, title)


@pytest.mark.parametrize("screen_class", [ReviewScreen, AnalysisScreen])
async def test_a_run_that_cannot_be_read_is_told_once_literally(
    stored_db: Path, monkeypatch: pytest.MonkeyPatch, screen_class: type
) -> None:
    from kglens_tui.tui.screens import run_data_screen

    def broken(conn, run_id):  # type: ignore[no-untyped-def]
        raise ValueError("run [b]1[/b] is unreadable")

    monkeypatch.setattr(run_data_screen, "load_run_data", broken)
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        home = app.screen
        await app.push_screen(screen_class(1))
        await wait_for(pilot, lambda: app.screen is home and notices_of(app))
        await pilot.pause()
        told = [str(n.message) for n in notices_of(app)]
        assert told == ["reading run 1 failed: run [b]1[/b] is unreadable"], told


def _keys(table: DataTable) -> list[str]:
    return [str(row.key.value) for row in table.ordered_rows]


def _titles(table: DataTable) -> list[str]:
    return [str(c.label) for c in table.columns.values()]


async def _click_title(pilot, table: DataTable, index: int) -> None:
    """Click a column's title (the table's header row)."""
    columns = list(table.columns.values())
    x = sum(c.get_render_width(table) for c in columns[:index]) + 1
    await pilot.click(table, offset=(x, 0))


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_the_analysis_table_orders_by_a_clicked_title_or_s(
    stored_db: Path, size: tuple[int, int]
) -> None:
    from kglens_tui.analysis.groups import group_table
    from kglens_tui.analysis.rundata import load_run_data

    conn = connect(stored_db)
    data = load_run_data(conn, 1)
    order = {s: [r.key for r in group_table(data, sort=s)] for s in ("zero_sense", "win", "name")}
    conn.close()
    app = make_default_app(stored_db)
    async with app.run_test(size=size) as pilot:
        app.push_screen(AnalysisScreen(1))
        await wait_for(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.is_mounted and bool(screen.query("#an-table")))
        table = screen.query_one("#an-table", DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        await pilot.pause()
        narrow = "rate [95% interval] ▼zero-sense" in _titles(table)
        assert narrow == (size[0] == 80)
        # the order is said: the surely worst zero-sense first
        assert _keys(table) == order["zero_sense"]
        assert narrow or "zero-sense ▼" in _titles(table)
        await pilot.press("S")  # the next order: win
        await wait_for(pilot, lambda: _keys(table) == order["win"])
        assert ("rate [95% interval] ▼win" if narrow else "win ▼") in _titles(table)
        # a click on the group's title: by name; again: reversed
        await _click_title(pilot, table, 0)
        await wait_for(pilot, lambda: _keys(table) == order["name"])
        await _click_title(pilot, table, 0)
        await wait_for(pilot, lambda: _keys(table) == order["name"][::-1])
        assert screen.order == ("name", True)
        assert ("rate [95% interval] ▲name" if narrow else "predicate ▲") in _titles(table)
        if narrow:  # the rates' title: the next rate
            await _click_title(pilot, table, 1)
            await wait_for(pilot, lambda: _keys(table) == order["zero_sense"])
        else:  # a rate's title
            await _click_title(pilot, table, _titles(table).index("zero-sense"))
            await wait_for(pilot, lambda: _keys(table) == order["zero_sense"])
            assert "zero-sense ▼" in _titles(table)


async def test_a_triage_entry_is_stored_on_a_worker_and_the_drill_down_follows_it(
    stored_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry is written through a connection of a worker thread (a run writing to the
    workspace may hold it): keys are handled meanwhile, and once it is in, the drill-down
    shows it as when it was written on the UI thread."""
    import threading

    from tui_support import Spy

    from kglens_tui.tui.screens import review_drill
    from kglens_tui.tui.screens.dialogs import HelpScreen

    spy = Spy(review_drill.add_note)
    monkeypatch.setattr(review_drill, "add_note", spy)
    app = make_default_app(stored_db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.loaded)
        await wait_for(pilot, lambda: app.screen.query_one("#rv-edges", DataTable).row_count > 0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen))
        drill = app.screen
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ReasonScreen))
        app.screen.query_one("#reason", Input).value = "[b]asked twice[/b]"
        gate = threading.Event()
        spy.gate = gate
        try:
            await pilot.press("enter")
            await wait_for(pilot, spy.waiting.is_set)
            assert drill.storing == 1
            await pilot.press("question_mark")  # handled while the entry is written
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is drill)
        finally:
            gate.set()
        await wait_for(pilot, lambda: any("Note saved" in n.message for n in notices_of(app)))
        assert drill.storing == 0
        assert "note" in text_of(drill, "#dd-triage")
        assert "[b]asked twice[/b]" in text_of(drill, "#dd-triage")  # literally
    assert spy.threads and threading.main_thread() not in spy.threads
    conn = sqlite3.connect(stored_db)
    rows = conn.execute("SELECT action, edge_id, reason FROM triage").fetchall()
    conn.close()
    assert rows == [("note", drill.edge_id, "[b]asked twice[/b]")]
