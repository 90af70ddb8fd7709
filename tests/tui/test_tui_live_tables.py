"""The live screen's lists can be browsed while the run goes: the blind spots update in place
(the cursor stays on its edge across iterations), enter opens a blind spot's drill-down, and at
80x24 the blind spots get the side pane's rows on the whole width (t shows the per-predicate
rates instead, r the questions and replies)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import HUGE, SMALL, make_app, notices_of

from kglens_tui.core.status import RunStatus
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.review_drill import DrillDownScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui


async def _live(pilot) -> LiveScreen:
    app = pilot.app
    config = app.default_config()
    config.iterations, config.stop_on_convergence = 5000, False  # goes on for the whole test
    config.batch_size = config.concurrency = 4
    app.start_run(config)
    await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen) and app.screen.is_mounted, 60)
    return app.screen


async def _settled_paused(pilot, screen: LiveScreen) -> None:
    """After a pause: what was in flight is committed and its redraw is on the tables."""
    await wait_for(
        pilot,
        lambda: (
            (now := screen.snapshot()) is not None
            and now.status == RunStatus.PAUSED
            and screen._tables_iteration == now.iteration
        ),
        120,
    )


async def test_the_blind_spot_cursor_stays_on_its_edge_and_opens_its_drill_down(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=HUGE) as pilot:
        screen = await _live(pilot)
        blind = screen.query_one("#blind", LiteralDataTable)
        await wait_for(pilot, lambda: blind.row_count >= 4, 120)
        blind.focus()
        await pilot.press("down", "down")
        key = blind.selected_key()
        assert key is not None
        snap = screen.snapshot()
        assert snap is not None
        start, seen, kept = snap.iteration, set(), 0
        while kept < 10:  # ten redraws of the table, each a new iteration
            await wait_for(pilot, lambda: screen._tables_iteration not in seen | {None}, 120)
            seen.add(screen._tables_iteration)
            if key not in [k.value for k in blind.rows]:  # no longer among the top ones
                key = blind.selected_key()
                continue
            assert blind.selected_key() == key, (screen._tables_iteration, start)
            assert blind.cursor_row == blind.get_row_index(key)
            kept += 1
        screen.session.pause()  # hold the run: the drill-down reads it as stored
        # what was in flight is committed first, and its redraw may move the edge off the table
        await _settled_paused(pilot, screen)
        key = blind.selected_key()
        assert key is not None
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen), 120)
        assert app.screen.edge_id == int(key)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert blind.selected_key() == key
    assert app._exception is None


async def test_at_80x24_the_blind_spots_get_at_least_five_rows_and_t_shows_the_predicates(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        screen = await _live(pilot)
        blind = screen.query_one("#blind", LiteralDataTable)
        preds = screen.query_one("#preds", LiteralDataTable)
        await wait_for(pilot, lambda: blind.row_count >= 6, 120)
        await pilot.pause()
        assert blind.display and not preds.display
        assert blind.size.height - 1 >= 5  # rows under its header
        await pilot.press("t")
        await wait_for(pilot, lambda: preds.display and not blind.display)
        await wait_for(pilot, lambda: preds.row_count > 0, 120)
        assert preds.size.height > 5
        await pilot.press("t")
        await wait_for(pilot, lambda: blind.display and not preds.display)
    assert app._exception is None


async def test_at_80x24_a_blind_spot_s_fact_is_whole_and_r_shows_the_replies_in_its_place(
    tmp_path: Path,
) -> None:
    """The table has the whole width below 130 columns: its last column (the object) ends
    inside it; `r` shows the questions and replies in its place, `r` or `t` a table again."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        screen = await _live(pilot)
        blind = screen.query_one("#blind", LiteralDataTable)
        pane = screen.query_one("#replies-pane")
        await wait_for(pilot, lambda: blind.row_count >= 1, 120)
        await pilot.pause()
        assert not pane.display
        columns = list(blind.columns.values())
        assert [str(c.label) for c in columns][-3:] == ["subject", "predicate", "object"]
        used = sum(c.get_render_width(blind) for c in columns)
        assert used <= blind.scrollable_content_region.width
        await pilot.press("r")
        await wait_for(pilot, lambda: pane.display and not screen.query_one("#side").display)
        await pilot.press("r")
        await wait_for(pilot, lambda: not pane.display and blind.display)
        await pilot.press("r", "t")
        preds = screen.query_one("#preds", LiteralDataTable)
        await wait_for(pilot, lambda: preds.display and not pane.display)
    assert app._exception is None


async def test_the_per_predicate_rates_read_while_hidden_show_once_the_screen_widens(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        screen = await _live(pilot)
        preds = screen.query_one("#preds", LiteralDataTable)
        await wait_for(pilot, lambda: screen.pred_rows is not None, 120)
        screen.session.pause()  # no further read: what shows is what was read while hidden
        await wait_for(pilot, lambda: screen.snapshot().status == "paused", 120)
        await wait_for(pilot, lambda: screen._preds_worker is None, 120)
        assert preds.row_count == 0 and not preds.display
        await pilot.resize_terminal(160, 48)
        await wait_for(pilot, lambda: preds.display and preds.row_count == len(screen.pred_rows))
    assert app._exception is None


async def test_c_copies_the_selected_blind_spot_and_in_its_drill_down_the_selected_reply(
    tmp_path: Path,
) -> None:
    """`c` puts the selected blind spot (live screen) and the selected question and reply
    (drill-down) on the clipboard, and a notification says literally what was copied."""
    from kglens_tui.modes.kglens.live import blind_spot_text

    app = make_app(tmp_path / "w.db")
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=HUGE) as pilot:
        screen = await _live(pilot)
        blind = screen.query_one("#blind", LiteralDataTable)
        await wait_for(pilot, lambda: blind.row_count >= 2, 120)
        screen.session.pause()
        await _settled_paused(pilot, screen)
        blind.focus()
        await pilot.press("down")
        key = blind.selected_key()
        spot = next(b for b in screen.snapshot().blind_spots if str(b.edge_id) == key)
        await pilot.press("c")
        assert copied == [blind_spot_text(spot)]
        assert spot.subject in copied[0] and f"edge {spot.edge_id}" in copied[0]
        told = [n for n in notices_of(app) if str(n.message).startswith("Copied the")]
        assert told and not told[-1].markup and spot.subject in str(told[-1].message)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DrillDownScreen), 120)
        drill = app.screen
        await wait_for(pilot, lambda: drill.selected_reply() is not None, 120)
        await pilot.press("c")
        reply = drill.selected_reply()
        assert reply is not None and len(copied) == 2
        assert copied[1].startswith(f"Q: {reply.question}\nReply: {reply.reply}\nVerdict: ")
