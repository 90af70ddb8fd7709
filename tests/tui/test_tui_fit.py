"""What a screen shows fits the terminal (80x24 and 160x48) with long text: an annotator reads a
long reply whole before judging it and sees their name; home's runs keep their room beside many
KGs, long names are cut with "…" (whole in the line under the lists), the status stays
readable; the analysis table gives every rate, interval, n and chance within 80 columns; home
and review give what chance scores beside each rate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import wait_for
from rich.text import Text
from tui_support import make_default_app, notices_of

from kglens_tui.analysis.groups import RATES, group_table, overall, yes_no_text
from kglens_tui.analysis.kgwide import kg_wide
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.rate_text import win_text
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.annotate import AnnotateScreen
from kglens_tui.tui.screens.annotate_home import AnnotationEntry
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.tui

SMALL, BIG = (80, 24), (160, 48)
LONG_REPLY = "Yes " + "A" * 3000
LONG_KG = "L" * 190 + "END"
ANNOTATORS = ("a1", "[red]a2", "a3")


def plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


# the annotator's view


def _long_reply_round(db: Path) -> None:
    conn = connect(db)
    spec = ItemSpec(
        kg="country",
        qtype="wh",
        app_verdict="incorrect",
        question="Which standard time zones (UTC offsets, without daylight saving time) does "
        "Belgium (also known as Kingdom of Belgium) use?",
        answers=[["UTC+01:00", "UTC+1"], ["Central European Time", "CET"], ["Europe/Brussels"]],
        response=LONG_REPLY,
    )
    create_round_from_items(conn, "long", [spec], annotators=ANNOTATORS, seed=1)
    conn.close()


@pytest.mark.parametrize("size", [SMALL, BIG])
async def test_a_long_reply_is_read_whole_before_it_is_judged(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 80x24 (and 160x48) the whole reply is there, wrapped, to scroll through; the rule over
    the two questions says how much of the item is below; c waits until the reply's end has
    been on screen; the annotator's name shows whole, literally."""
    db = tmp_path / "w.db"
    _long_reply_round(db)
    app = make_default_app(db, AnnotationEntry("long", "[red]a2"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")  # the guidelines, shown to a new annotator, give way to the item
        box = screen.query_one("#ann-item")
        asks = screen.query_one("#ann-asks")
        await wait_for(pilot, lambda: box.display and box.max_scroll_y > 0)
        # the name: literal, whole, on the screen
        who = screen.query_one("#ann-who")
        assert str(who.render()) == "Annotator [red]a2"
        assert who.region.width >= len("Annotator [red]a2")
        assert screen.region.contains_region(who.region)
        # the reply, wrapped, none of it cut
        response = screen.query_one("#ann-response")
        shown = str(response.render())
        assert shown.startswith("AI's response\nYes") and shown.count("A") == 3000 + 1
        assert response.region.height >= len(LONG_REPLY) // box.region.width

        # the rule over the questions says what is below; c waits for the reply's end
        def below() -> int | None:
            found = re.search(r"↓ (\d+) more lines", str(asks.border_title))
            return int(found.group(1)) if found else None

        # the count follows the layout, which a loaded machine may settle in more than one pass
        await wait_for(pilot, lambda: below() == round(box.max_scroll_y) > 0)
        await pilot.press("y", "c")
        await wait_for(pilot, lambda: any("goes on below" in n.message for n in notices_of(app)))
        item = screen.item
        assert screen.state_of(item).response_correct is None and not screen.reply_seen(item)
        await pilot.press("end")
        await wait_for(pilot, lambda: box.scroll_y == box.max_scroll_y and not asks.border_title)
        await wait_for(pilot, lambda: screen.reply_seen(item))
        assert response.region.bottom <= asks.region.y  # its last line is in view
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.done_count() == 1)
    conn = connect(db)
    (stored,) = items_for_annotator(conn, 1, "[red]a2")
    conn.close()
    assert stored.label is not None
    assert (stored.label.state.question_clear, stored.label.state.response_correct) == (
        "yes",
        "correct",
    )


# home, analysis and review on a workspace of many KGs and runs


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight KGs (one named with 193 characters) and 21 KGLens runs: the first failed with a
    long error, the last on the long-named KG."""
    folder = tmp_path_factory.mktemp("crowded")
    db = folder / "w.db"
    tsv = folder / "tiny.tsv"
    tsv.write_text(
        "subject\tpredicate\tobject\nalpha\tlikes\tbeta\nbeta\tlikes\tgamma\n"
        "gamma\tlikes\talpha\nalpha\thates\tgamma\nbeta\thates\talpha\n"
    )
    for name in (*(f"tiny{n}" for n in range(1, 7)), LONG_KG):
        assert main(["--db", str(db), "kg", "import", str(tsv), "--name", name]) == 0
    conn = connect(db)
    for seed in range(20):
        config = RunConfig(
            kg="country", subset="paper16", target=f"sim:{seed}", iterations=1, batch_size=8
        )
        run_blocking(prepare(conn, config=config))
    run_blocking(prepare(conn, config=RunConfig(kg=LONG_KG, target="sim", iterations=1)))
    conn.execute(
        "UPDATE run SET status = 'failed', stop_reason = '', error = ? WHERE id = 1",
        ("the target failed: " + "connection refused; " * 20,),
    )
    conn.commit()
    conn.close()
    return db


def _copy(db: Path, tmp_path: Path) -> Path:
    import sqlite3

    dst = tmp_path / "w.db"
    src, out = sqlite3.connect(db), sqlite3.connect(dst)
    src.backup(out)
    src.close()
    out.close()
    return dst


def _rows_shown(table) -> int:
    """Rows of a DataTable in view (its header aside)."""
    heights = [row.height for row in table.ordered_rows]
    room, shown = table.scrollable_content_region.height - table.header_height, 0
    for height in heights:
        if room < height:
            break
        room -= height
        shown += 1
    return shown


async def _home(pilot) -> HomeScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
    await wait_for(pilot, lambda: app.screen.query_one("#runs").row_count == 21)
    await wait_for(pilot, lambda: not app.screen.chance_pending)
    await pilot.pause()
    return app.screen


async def _mounted(pilot, screen_type: type, selector: str) -> None:
    """The pushed screen once mounted whole (its header's title set, ``selector`` there)."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, screen_type))
    await wait_for(pilot, lambda: bool(app.screen.query(selector)))
    await wait_for(pilot, lambda: bool(app.screen.query("HeaderTitle")))


async def test_at_80x24_home_gives_the_runs_room_beside_eight_kgs(
    crowded: Path, tmp_path: Path
) -> None:
    app = make_default_app(_copy(crowded, tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        home = await _home(pilot)
        runs, kgs = home.query_one("#runs"), home.query_one("#kgs")
        assert kgs.row_count == 8 and _rows_shown(kgs) < 8  # the KG list scrolls
        assert _rows_shown(runs) >= 5, runs.region
        assert home.region.contains_region(runs.region)
        for table in (runs, kgs):  # every column on the screen, nothing to scroll sideways
            assert table.max_scroll_x == 0, table.id
        # the status is readable; long KG names end in "…"
        cells = {key.value: [plain(c) for c in runs.get_row(key)] for key in runs.rows}
        status = [plain(c.label) for c in runs.columns.values()].index("status")
        assert cells["2"][status] == "finished · iteration limit"
        assert cells["1"][status].endswith("…")
        assert any(cell.startswith("LLL") and cell.endswith("…") for cell in cells["21"])
        # the selected run's rates with interval, n and chance, within the detail's lines
        runs.select_key("2")
        detail = home.query_one("#run-detail")
        await wait_for(pilot, lambda: str(detail.content).startswith("run 2 · KG-wide win"))
        conn = connect(crowded)
        total = overall(load_run_data(conn, 2), adjusted=False)
        conn.close()
        text = str(detail.content)
        for name, field, chance in RATES:
            p = total.rates.get(field)
            assert (
                f"{name} {rate_ci(*p.bounds)} chance {pct(getattr(total.chance, chance))}" in text
            )
        assert f"over the {total.rates.examined} examined edges" in text
        assert detail.region.bottom <= home.query_one("Footer").region.y


async def test_at_160x48_long_names_are_cut_and_shown_whole_below(
    crowded: Path, tmp_path: Path
) -> None:
    app = make_default_app(_copy(crowded, tmp_path))
    async with app.run_test(size=BIG) as pilot:
        home = await _home(pilot)
        runs, kgs = home.query_one("#runs"), home.query_one("#kgs")
        for table in (runs, kgs):
            assert table.max_scroll_x == 0, table.id
        kg_titles = [plain(c.label) for c in kgs.columns.values()]
        assert kg_titles == ["name", "entities", "edges", "active edges", "source", "snapshot"]
        long_row = [plain(c) for c in kgs.get_row(LONG_KG)]
        assert long_row[0].endswith("…") and long_row[1:4] == ["3", "5", "5"]
        # the rates with interval, n and chance in the list; the status whole
        titles = [plain(c.label) for c in runs.columns.values()]
        assert titles == [
            "run",
            "mode",
            "KG",
            "status",
            "KG-wide win",
            "win (examined)",
            "zero-sense (examined)",
            "all-sense (examined)",
            "target",
        ]
        row = [plain(c) for c in runs.get_row("2")]
        conn = connect(crowded)
        total = overall(load_run_data(conn, 2), adjusted=False)
        wide = kg_wide(load_run_data(conn, 2), adjusted=False)
        conn.close()
        assert wide is not None
        assert row[3].split("\n")[0] == "finished · iteration limit"
        assert (
            row[4]
            == f"{win_text(wide.rate)}\nchance {pct(wide.chance_win)} · n={wide.rate.answers:,}"
        )
        for cell, (_, field, chance) in zip(row[5:8], RATES, strict=True):
            n = f" · n={total.rates.examined}" if field == RATES[0][1] else ""
            assert cell == (
                f"{rate_ci(*total.rates.get(field).bounds)}\n"
                f"chance {pct(getattr(total.chance, chance))}{n}"  # as `kglens runs`
            )
        # the KG list's highlighted KG whole under the lists
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: kgs.has_focus)
        kgs.select_key(LONG_KG)
        detail = home.query_one("#run-detail")
        await wait_for(pilot, lambda: LONG_KG in str(detail.content))
        assert str(detail.content).startswith(f"KG {LONG_KG} · 3 entities")
        await pilot.press("tab")
        await wait_for(pilot, lambda: str(detail.content).startswith("run "))


async def test_at_80x24_the_analysis_table_gives_every_rate_interval_n_and_chance(
    crowded: Path, tmp_path: Path
) -> None:
    app = make_default_app(_copy(crowded, tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await _home(pilot)
        app.push_screen(AnalysisScreen(2))
        await _mounted(pilot, AnalysisScreen, "#an-table")
        screen = app.screen
        table = screen.query_one("#an-table")
        await wait_for(pilot, lambda: table.row_count > 0)
        await pilot.press("t")
        await pilot.pause()
        assert table.max_scroll_x == 0 and screen.region.contains_region(table.region)
        titles = [plain(c.label) for c in table.columns.values()]
        assert titles == ["predicate", "rate [95% interval] ▼zero-sense", "chance", "Yes/No"]
        conn = connect(crowded)
        rows = group_table(load_run_data(conn, 2), "predicate")
        conn.close()
        assert any(group.kg_wide is not None for group in rows)
        for i, group in enumerate(rows):
            label, rates, chance, yes_no = (plain(c).split("\n") for c in table.get_row_at(i))
            yes, yes_ci, balanced = yes_no_text(group.yes_no)
            assert yes_no == (["—"] if yes == "—" else [f"yes {yes}", yes_ci, f"bal. {balanced}"])
            # the Yes/No column leaves a long label its start, cut with "…"
            assert label[0] == group.label or group.label.startswith(label[0].removesuffix("…"))
            assert label[1] == f"n={group.rates.examined} of {group.edges}"
            # the KG-wide win rate first, with its chance and answers, then the examined rates
            # (a dash where the floor has not answered one of the predicate's edges yet)
            wide = group.kg_wide
            if wide is None:
                assert label[2] == "— answers" and rates[0].split() == ["KG-wide", "—"]
            else:
                assert label[2] == f"{wide.rate.answers:,} answers"
                assert rates[0].split() == ["KG-wide", *win_text(wide.rate).split()]
                assert chance[0].strip() == pct(1 - wide.chance_error)
            for line, chance_line, (name, field, chance_field) in zip(
                rates[1:], chance[1:], RATES, strict=True
            ):
                p = group.rates.get(field)
                assert line.split() == [name, *rate_ci(*p.bounds).split()]
                assert chance_line.strip() == pct(getattr(group.chance, chance_field))
        # the line beside the grouping is whole
        mode = screen.query_one("#an-mode")
        assert "o toggles" in str(mode.render())
        assert mode.region.height == mode.virtual_size.height  # every line of it shows
        assert screen.query_one("#an-controls").region.contains_region(mode.region)
        # at 24 rows the grouping is said in a line (p g y s choose it) in place of its
        # 3-row Select, with no blank lines between the panels: 3 groups whole (4 lines each)
        by, by_text = screen.query_one("#an-by"), screen.query_one("#an-by-text")
        assert not by.display and by_text.display and mode.region.height == 1
        assert str(by_text.render()) == "by predicate ·"
        assert table.region.height - 1 >= 3 * 4, table.region  # its header aside
        await pilot.press("g")
        await wait_for(pilot, lambda: str(by_text.render()) == "by region (subject) ·")
        await pilot.resize_terminal(*BIG)  # a tall screen: the Select again
        await wait_for(pilot, lambda: by.display and not by_text.display)
        assert by.region.height == 3 and screen.region.contains_region(by.region)


@pytest.mark.parametrize("size", [SMALL, BIG])
async def test_the_review_header_leads_with_the_kg_wide_rate_then_the_examined_ones(
    crowded: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_default_app(_copy(crowded, tmp_path))
    async with app.run_test(size=size) as pilot:
        await _home(pilot)
        app.push_screen(ReviewScreen(2))
        await _mounted(pilot, ReviewScreen, "#rv-metrics")
        metrics = app.screen.query_one("#rv-metrics")
        await wait_for(
            pilot,
            lambda: (
                "chance" in str(metrics.render())
                and metrics.region.height == len(str(metrics.render()).splitlines())
            ),
            describe=lambda: (str(metrics.render()), metrics.region),
        )
        lines = str(metrics.render()).splitlines()
        assert metrics.region.height == len(lines) == 7  # no line wraps
        assert max(len(line) for line in lines) <= size[0] - 2
        conn = connect(crowded)
        data = load_run_data(conn, 2)
        adj, raw = overall(data, adjusted=True), overall(data, adjusted=False)
        conn.close()
        cells = [re.split(r"\s{2,}", line.strip()) for line in lines]
        assert cells[0] == ["with overrides", "raw (triage ignored)"]
        # the KG-wide win rate leads; the paper's rates follow under "examined"
        wide = [row.kg_wide for row in (adj, raw)]
        assert all(w is not None for w in wide)
        assert cells[1] == [
            "KG-wide",
            *(f"{win_text(w.rate)} chance {pct(w.chance_win)}" for w in wide if w is not None),
        ]
        assert cells[2][0] == "answers"
        assert [c.partition(" ")[0] for c in cells[2][1:]] == [
            f"{w.rate.answers:,}" for w in wide if w is not None
        ]
        assert cells[3] == ["examined", *(f"{row.rates.examined:,} edges" for row in (adj, raw))]
        for line, (name, field, chance) in zip(cells[4:], RATES, strict=True):
            assert line == [
                name,
                *(
                    f"{rate_ci(*row.rates.get(field).bounds)} chance "
                    f"{pct(getattr(row.chance, chance))}"
                    for row in (adj, raw)
                ),
            ]


# the layout helpers


def test_fit_widths_cuts_the_named_columns_in_turn() -> None:
    from kglens_tui.tui.format import fit_widths

    assert fit_widths([3, 50, 10], 70, [(1, 20)]) == [3, 50, 10]
    assert fit_widths([3, 50, 10], 40, [(1, 20), (2, 4)]) == [3, 27, 10]
    assert fit_widths([3, 50, 10], 20, [(1, 20), (2, 4), (1, 8)]) == [3, 13, 4]
    assert fit_widths([3, 50, 10], 10, [(1, 20), (2, 4), (1, 8)]) == [3, 8, 4]
    assert fit_widths([3, 50, 10], 5, [(1, 20)]) == [3, 20, 10]  # no column below its least


def test_runs_layout_keeps_every_column_within_the_width() -> None:
    from kglens_tui.tui.screens.home import runs_layout

    row = {
        "run": "7",
        "mode": "KGLens",
        "KG": LONG_KG,
        "status": "failed · " + "x" * 200,
        "iterations": "3/4",
        "requests": "24 (24 failed)",
        "examined": "12",
        "win": "25.0% [8.9–53.2]",
        "zero-sense": "66.7% [39.1–86.2]",
        "all-sense": "16.7% [4.7–44.8]",
        "target": "openai:" + "m" * 80,
        "difficulty": "hard",
        "sampler": "thompson",
    }
    for width in (80, 100, 120, 160, 200):
        columns, rows, height = runs_layout([row], {"7": None}, width)
        used = sum(
            2 + max([len(title), *(len(line) for line in plain(cells).split("\n"))])
            for title, cells in zip(columns, rows[0], strict=True)
        )
        assert used <= width - 4, (width, used)
        if height == 2 and "win (examined)" in columns:  # each rate with its chance
            assert "chance — · n=12" in plain(rows[0][columns.index("win (examined)")])
        if height == 2:  # the KG-wide win rate leads: not worked out yet
            assert plain(rows[0][columns.index("KG-wide win")]) == "…\n"
        assert plain(rows[0][columns.index("KG")]).endswith("…")
