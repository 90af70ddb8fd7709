"""Every screen at the smallest supported terminal (80x24) and at a large one (160x48): snapshots
of what a person sees, plus checks that nothing a screen needs is out of reach at 80x24. The
stored runs and the annotation rounds are built once for the module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import wait_for
from layout_support import SCREENS, RunBefore, _keys, _settled, app_for_screen
from tui_support import SMALL, notices_of

from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.tui

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", SCREENS)
def test_snapshot(snap_compare, templates: dict, tmp_path: Path, name: str, size: str) -> None:
    app, run_before = app_for_screen(templates, name, tmp_path)
    assert snap_compare(app, run_before=run_before, terminal_size=SIZES[size])


@pytest.mark.parametrize("name", ["annotate_wh", "annotate_yes_no"])
async def test_at_80x24_an_item_shows_its_reply_and_both_questions_without_scrolling(
    templates: dict, tmp_path: Path, name: str
) -> None:
    """A new annotator sees the whole item at 80x24: the reply, each question with its keys
    and the line that says what is left to do, none of it below the fold."""
    app, run_before = app_for_screen(templates, name, tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        item = screen.query_one("#ann-item")
        wh = name == "annotate_wh"
        parts = ["#ann-question", "#ann-q1", "#ann-state"]
        parts += ["#ann-response", "#ann-q2"] if wh else []
        for selector in parts:
            widget = screen.query_one(selector)
            assert widget.display and widget.region.height > 0, selector
            assert item.region.contains_region(widget.region), (selector, widget.region)
            assert screen.region.contains_region(widget.region), (selector, widget.region)
        assert item.max_scroll_y == 0, "part of an ordinary item is below the fold"
        if wh:
            assert "x  Incorrect" in str(screen.query_one("#ann-q2").render())


async def test_live_tables_put_the_numbers_first(templates: dict, tmp_path: Path) -> None:
    app, run_before = app_for_screen(templates, "live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        blind = app.screen.query_one("#blind")
        labels = [str(c.label) for c in blind.columns.values()]
        assert labels[:3] == ["P(err)", "m", "n"]
        assert blind.row_count > 0
        assert all(len(str(blind.get_row_at(i)[3])) <= 18 for i in range(blind.row_count))
        progress = str(app.screen.query_one("#progress").render())
        assert re.search(r"convergence: stable \d of 5 iterations", progress), progress


async def test_replies_written_at_another_width_wrap_again_at_the_panes(
    templates: dict, tmp_path: Path
) -> None:
    """Replies written while the layout was not settled (the pane a cell narrower for a moment
    on a busy machine) wrap again at the pane's width on the next redraw."""
    from textual.widgets import RichLog

    app, run_before = app_for_screen(templates, "live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        width = screen._reply_width()
        log = screen.query_one("#replies", RichLog)
        log.clear()
        log.write("a reply wrapped at a width the pane no longer has", width=width - 1)
        screen._wrapped_at = width - 1
        await wait_for(pilot, lambda: screen._wrapped_at == width and screen.settled)
        assert "a reply wrapped" not in "".join(s.text for s in log.lines)


async def test_the_narrow_rates_box_holds_a_rate_of_100_percent_on_one_line(
    templates: dict, tmp_path: Path
) -> None:
    """At 80x24 the three rates share a box: 100.0% and its interval must stay on its line, or
    the n under them falls out of the box."""
    from types import SimpleNamespace

    from rich.text import Text

    from kglens_tui.tui.screens.live import _compact_rates

    app, run_before = app_for_screen(templates, "live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        room = app.screen.query_one("#rates").content_size.width
    rates = SimpleNamespace(win=1.0, zero_sense=0.0, all_sense=1.0, examined=4)
    text = _compact_rates(SimpleNamespace(rates=rates, baseline=None))
    widest = max(len(line) for line in Text.from_markup(text).plain.splitlines())
    assert widest <= room, (widest, room)


@pytest.mark.parametrize("name", SCREENS)
async def test_every_action_of_every_screen_is_in_the_palette(
    templates: dict, tmp_path: Path, name: str
) -> None:
    """Each described binding the screen declares and enables is a palette command, titled by
    its tooltip (a short footer label's full name) or its description: also one whose key a
    focused widget takes (home's enter "Open" under the runs table's enter)."""
    from textual.binding import Binding

    from kglens_tui.tui.palette import APP_COMMANDS

    def written(cls: type) -> list[Binding]:
        """The bindings kglens classes write in their BINDINGS (read here directly, not
        through the screen's binding map or the palette's own filter)."""
        out = []
        for klass in cls.__mro__:
            if klass.__module__.startswith("kglens_tui."):
                for b in klass.__dict__.get("BINDINGS", []):
                    out.append(b if isinstance(b, Binding) else Binding(*b))
        return out

    app, run_before = app_for_screen(templates, name, tmp_path)
    async with app.run_test(size=SIZES["160x48"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        titles = {c.title for c in app.get_system_commands(screen)}
        declared = [
            b
            for b in written(type(screen))
            if b.description
            and b.action not in APP_COMMANDS
            and app._check_action_state(b.action, screen)
        ]
        assert declared, f"{name} declares no action of its own"
        missing = [b.tooltip or b.description for b in declared]
        missing = [t for t in missing if t not in titles]
        assert missing == [], missing
        assert {"Help", "Quit KGLens"} & titles


async def test_a_palette_command_runs_its_binding(templates: dict, tmp_path: Path) -> None:
    app, run_before = app_for_screen(templates, "home", tmp_path)
    async with app.run_test(size=SIZES["160x48"]) as pilot:
        await run_before(pilot)
        runs = app.screen.query_one("#runs")
        await wait_for(pilot, lambda: "1" in {k.value for k in runs.rows}, 60)  # filled
        runs.select_key("1")  # a KGLens run (the top one is KONTEST)
        await wait_for(pilot, lambda: runs.selected_key() == "1", 60)
        review = next(c for c in app.get_system_commands(app.screen) if c.title == "Review")
        assert "key v" in review.help
        app.call_next(review.callback)
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), 60)
        # ends only once the screen has mounted whole (its header's title set, its edges
        # listed): quitting while it mounts raises inside Textual's Header
        await wait_for(pilot, lambda: app.screen.query("HeaderTitle"), 60)
        await wait_for(pilot, lambda: app.screen.query_one("#rv-edges").row_count > 0, 60)
        await pilot.pause()


async def test_q_quits_from_the_mode_live_screen_as_from_the_others(
    templates: dict, tmp_path: Path
) -> None:
    app, run_before = app_for_screen(templates, "mode_live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        assert isinstance(app.screen, LiveScreen)
        await pilot.press("q")
        await wait_for(pilot, lambda: app._exit, 60)  # no run is active: no question asked


async def test_the_compare_screens_run_b_select_fits_80_columns(
    templates: dict, tmp_path: Path
) -> None:
    app, run_before = app_for_screen(templates, "compare", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        select = app.screen.query_one("#cmp-b")
        assert select.region.width >= 30 and select.region.right <= 80, select.region


async def test_at_80x24_the_compare_screen_shows_the_kg_wide_difference_first(
    templates: dict, tmp_path: Path
) -> None:
    """The KG-wide difference (interval and p) is the diff's first line, on the screen at
    80x24 under Table 3, and the change over the examined edges follows, labelled so; the
    screen scrolls to what does not fit (it was cut off below)."""
    app, run_before = app_for_screen(templates, "compare", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        await wait_for(pilot, lambda: screen.loaded)
        status = screen.query_one("#cmp-status")
        text = str(status.render())
        assert text.startswith("KG-wide win rate, run 1 → run 2: difference "), text
        assert "], p = " in text.splitlines()[0] + text.splitlines()[1]
        assert text.index("examined edges: B−A") > text.index("KG-wide win rate")
        footer = screen.query_one("Footer").region.y
        assert status.region.y < footer  # its first line is in view
        grid = screen.query_one("#cmp-grid")  # Table 3's models told apart by their seeds
        models = {str(grid.get_row_at(i)[0]) for i in range(grid.row_count)}
        assert models == {"sim (seed 3)", "sim (seed 7)"}
        body = screen.query_one("#cmp")
        assert body.max_scroll_y > 0
        body.scroll_end(animate=False)
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y)


async def test_at_80x24_the_annotation_report_scrolls_with_the_keyboard(
    templates: dict, tmp_path: Path
) -> None:
    app, run_before = app_for_screen(templates, "report", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        report = app.screen.query_one("#ann-report")
        assert report.max_scroll_y > 0, "the report fits: nothing to scroll"
        await pilot.press("pagedown")
        await pilot.pause()
        assert report.scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert report.scroll_y == report.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert report.scroll_y == 0


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["home", "mode_live", "drill_down"])
async def test_the_help_scrolls_to_its_last_line_above_its_close_button(
    templates: dict, tmp_path: Path, name: str, size: str
) -> None:
    """The help text scrolls with the keyboard in a pane that has the focus; its last line (the
    settings file and workspace) comes into view, and Close stays on screen below the pane."""
    from textual.widgets import Button, Static

    from kglens_tui.tui.screens.dialogs import HelpScreen

    app, run_before = app_for_screen(templates, name, tmp_path)
    async with app.run_test(size=SIZES[size]) as pilot:
        await run_before(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await _settled(pilot)
        help_screen = app.screen
        body = help_screen.query_one("#help-body")
        last = help_screen.query_one("#help-where", Static)
        close = help_screen.query_one("#close", Button)
        assert "Settings file:" in str(last.render()) and "Workspace:" in str(last.render())
        assert app.focused is body
        if size == "80x24":
            assert body.max_scroll_y > 0, "the help fits at 80x24: nothing to scroll"
            assert not body.region.contains_region(last.region)
            await pilot.press("pagedown")
            await wait_for(pilot, lambda: body.scroll_y > 0)
        await pilot.press("end")
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y)
        await _settled(pilot)
        assert body.region.contains_region(last.region), (body.region, last.region)
        assert help_screen.region.contains_region(close.region), close.region
        assert close.region.y >= body.region.bottom
        await pilot.press("home")
        await wait_for(pilot, lambda: body.scroll_y == 0)


async def test_the_palette_lists_no_key_a_kglens_widget_inherits_from_textual(
    templates: dict, tmp_path: Path
) -> None:
    """Home's runs table is a KGLens DataTable: its cursor keys, and the screen's focus and copy
    keys, all inherited from Textual, stay off the palette; what KGLens declares is listed."""
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import DataTable

    from kglens_tui.tui.widgets.literal_table import LiteralDataTable

    app, run_before = app_for_screen(templates, "home", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        assert isinstance(app.focused, LiteralDataTable)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        inherited = {b.description for b in DataTable.BINDINGS + Screen.BINDINGS}
        inherited |= {"Cursor up", "Bottom", "Home", "Copy selected text", "Focus Next"}
        assert not inherited & commands.keys(), inherited & commands.keys()
        assert not [h for h in commands.values() if h.endswith(("key home", "key ^c"))]
        assert {"Resume", "Refresh", "Review"} <= commands.keys()

        class SortedTable(LiteralDataTable):
            """A KGLens table with a key of its own."""

            __module__ = "kglens_tui.tui.widgets.sorted_table"
            BINDINGS = [Binding("o", "sort", "Sort rows")]

            def action_sort(self) -> None:
                pass

        table = SortedTable()
        await app.screen.mount(table)
        table.focus()
        await wait_for(pilot, lambda: app.focused is table)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands.get("Sort rows") == "Home · key o"
        assert not inherited & commands.keys()


# the screens of tests/tui/test_tui_layout.py whose footers this file holds to 80 columns, and a
# few more states of them: a key can come or go with the state
FOOTER_SCREENS: dict[str, tuple[str, RunBefore | None]] = {
    "home": ("home", None),
    "review": ("review", None),
    "review_search": ("review", _keys("slash")),
    "analysis": ("analysis", None),
    "drill_down": ("drill_down", None),
    "mode_live": ("mode_live", None),
    "mode_live_replies": ("mode_live", _keys("r")),
    "rounds": ("rounds", None),
    "annotate_first": ("annotate_first", None),
    "annotate_yes_no": ("annotate_yes_no", None),
    "annotate_wh": ("annotate_wh", None),
    "progress": ("progress", None),
    "report": ("report", None),
    "adjudication": ("adjudication", None),
}


@pytest.mark.parametrize("name", FOOTER_SCREENS)
async def test_at_80x24_every_footer_key_shows_whole_left_of_the_palette_key(
    templates: dict, tmp_path: Path, name: str
) -> None:
    """Every key a footer shows fits at 80 columns, whole ("key label", a space between), left
    of the command palette's key; Help is among them (Quit too where the screen has it)."""
    from textual.widgets import Input
    from textual.widgets._footer import FooterKey

    screen_name, then = FOOTER_SCREENS[name]
    app, run_before = app_for_screen(templates, screen_name, tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        if then is not None:
            await then(pilot)
        await _settled(pilot)
        keys = list(app.screen.query(FooterKey))
        palette = [k for k in keys if k.has_class("-command-palette")]
        assert len(palette) == 1 and palette[0].region.right <= 80
        shown = [k for k in keys if k not in palette]
        if not isinstance(app.focused, Input):  # one takes ? as a character
            assert "Help" in [k.description for k in shown]
        if name == "home":
            assert [k.description for k in shown][-1] == "Quit"
        for key in shown:
            text = key.render().plain
            assert text.strip() == f"{key.key_display} {key.description}", text
            assert key.region.width >= len(text), (text, key.region)
            assert key.region.x >= 0 and key.region.right <= palette[0].region.x, (
                text,
                key.region,
            )


async def test_at_80x24_the_mode_live_screen_shows_the_questions_and_replies(
    templates: dict, tmp_path: Path
) -> None:
    """Under the metrics, the KONTEST live screen keeps rows for what the model was asked and
    answered; r gives them the whole screen, r again brings the metrics back."""
    from textual.widgets import RichLog

    app, run_before = app_for_screen(templates, "mode_live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        log = screen.query_one("#mode-replies", RichLog)
        top, metrics = screen.query_one("#mode-top"), screen.query_one(".panel-table")
        footer = screen.query_one("Footer")
        await wait_for(pilot, lambda: len(log.lines) > 0)
        await _settled(pilot)

        def visible_lines() -> list[str]:
            """The log's lines in its visible region."""
            top = int(log.scroll_y)
            return [s.text for s in log.lines[top : top + log.scrollable_content_region.height]]

        assert log.region.height >= 3, log.region
        assert screen.region.contains_region(log.region) and log.region.bottom <= footer.region.y
        assert metrics.region.height >= 9 and metrics.region.bottom <= log.region.y
        assert any("→" in line for line in visible_lines()), visible_lines()
        assert any("[atomic" in line or "[seq" in line for line in visible_lines())
        short = log.region.height

        await pilot.press("r")
        await wait_for(pilot, lambda: not top.display and log.region.height > short)
        assert log.region.height >= 15, log.region
        assert log.region.bottom <= footer.region.y
        await pilot.press("r")
        await wait_for(pilot, lambda: top.display and metrics.region.height >= 9)
        assert log.region.height == short


async def test_questions_written_on_a_narrow_screen_are_wrapped_again_when_it_widens(
    templates: dict, tmp_path: Path
) -> None:
    """A question written at 80 columns takes one line at 160 once the screen widens (the log
    keeps what it shows and wraps it again to its new width)."""
    from textual.widgets import RichLog

    app, run_before = app_for_screen(templates, "mode_live", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        log = app.screen.query_one("#mode-replies", RichLog)
        await wait_for(pilot, lambda: len(log.lines) > 0)
        narrow = len(log.lines)
        await pilot.resize_terminal(*SIZES["160x48"])
        await wait_for(pilot, lambda: log.region.width > 100 and len(log.lines) < narrow)
        questions = [s.text for s in log.lines if "[atomic" in s.text or "[seq" in s.text]
        assert questions and all(q.rstrip().endswith("?") for q in questions), questions


async def test_home_open_is_in_the_palette_and_opens_the_selected_run(
    templates: dict, tmp_path: Path
) -> None:
    """Home's enter is the runs table's own key; opening the selected run is a palette command
    all the same, with enter as its key."""
    from textual.binding import Binding

    from kglens_tui.tui.screens.live import LiveScreen

    app, run_before = app_for_screen(templates, "home", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        runs = app.screen.query_one("#runs")
        await wait_for(pilot, lambda: "1" in {k.value for k in runs.rows}, 60)
        runs.select_key("1")  # a KGLens run
        await wait_for(pilot, lambda: runs.selected_key() == "1", 60)
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Open")
        assert command.help == f"Home · key {app.get_key_display(Binding('enter', 'open_run'))}"
        app.call_next(command.callback)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
        await wait_for(pilot, lambda: getattr(app.screen, "coin", None) is not None, 60)
        await _settled(pilot)


async def test_at_80x24_no_answer_goes_to_an_item_the_guidelines_cover(
    templates: dict, tmp_path: Path
) -> None:
    """A new annotator at 80x24 first sees the guidelines in the item's place: y then stores
    nothing (it says g shows the item); after g, y answers the item now in view."""
    app, run_before = app_for_screen(templates, "annotate_first", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        item = screen.query_one("#ann-item")
        assert not item.display
        first = screen.item
        await pilot.press("y", "s", "u")
        await _settled(pilot)
        assert screen.done_count() == 0 and screen.pending == 0 and screen.item is first
        assert any("g shows it" in str(n.message) for n in notices_of(app))
        await pilot.press("g")
        await wait_for(pilot, lambda: item.display and item.region.height > 0)
        await pilot.press("y", *("c" if first.asks_response else ()))
        await wait_for(pilot, lambda: screen.done_count() == 1 and screen.pending == 0)


async def test_at_80x24_the_adjudication_details_are_under_the_list_and_page_with_the_keys(
    templates: dict, tmp_path: Path
) -> None:
    """At 80 columns the selected item's details take the width under the list (side by side,
    they had a dozen columns); page down / up scroll them, the cursor stays on its item."""
    from textual.containers import VerticalScroll

    app, run_before = app_for_screen(templates, "adjudication", tmp_path)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await run_before(pilot)
        screen = app.screen
        items = screen.query_one("#adj-items")
        detail = screen.query_one("#adj-detail", VerticalScroll)
        assert detail.region.width >= 76 and detail.region.y >= items.region.bottom, (
            detail.region,
            items.region,
        )
        assert detail.max_scroll_y > 0, "the details fit: nothing to page"
        row = items.cursor_row
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: detail.scroll_y > 0)
        await pilot.press("pageup")
        await wait_for(pilot, lambda: detail.scroll_y == 0)
        assert items.cursor_row == row


async def test_the_help_shows_a_workspace_path_with_a_backtick_or_markup_as_written() -> None:
    from textual.app import App
    from textual.widgets import Static

    from kglens_tui.tui.screens.dialogs import HelpScreen

    where = "Settings file: /tmp/k`s[bold]x[/].toml\nWorkspace: /tmp/w`b.db"
    app = App()
    async with app.run_test(size=SMALL) as pilot:
        await app.push_screen(HelpScreen("# Keys\n\n`q` quits", where))
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        shown = str(app.screen.query_one("#help-where", Static).render())
        assert "/tmp/k`s[bold]x[/].toml" in shown and "/tmp/w`b.db" in shown
