"""At 80x24 the review, compare and mode-live tables cut long names with "…" and never a
number: each table is built with `LiteralDataTable.fill` from cells fitted to the screen
(`fit_rows`), as home's lists are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import wait_for
from rich.text import Text
from tui_support import make_default_app

from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.widgets.literal_table import cut_cell, fit_rows

pytestmark = pytest.mark.tui

SMALL = (80, 24)
LONG = "Lorem" + "x" * 80 + "END"
NUMBER = re.compile(r"^[\d,.%/\[\]–\- ]+$")


def plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A KG whose entities have 88-character names, probed twice (two simulated models)."""
    folder = tmp_path_factory.mktemp("long")
    db, tsv = folder / "w.db", folder / "long.tsv"
    names = [f"{LONG}{n}" for n in range(4)]
    lines = ["subject\tpredicate\tobject"]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            lines += [f"{a}\tlikes\t{b}", f"{b}\thates\t{a}"]
    tsv.write_text("\n".join(lines) + "\n")
    assert main(["--db", str(db), "kg", "import", str(tsv), "--name", "long"]) == 0
    conn = connect(db)
    for target in ("sim", "sim:1"):  # HARD: the two models know different edges
        config = RunConfig(kg="long", target=target, iterations=2, difficulty="hard")
        run_blocking(prepare(conn, config=config))
    conn.close()
    return db


async def _open(pilot, screen) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen and bool(screen.query("HeaderTitle")))


def _assert_fits(table, width: int) -> list[list[str]]:
    """The table's cells as shown (every line of each), checked to fit the screen."""
    assert table.max_scroll_x == 0
    assert sum(c.get_render_width(table) for c in table.columns.values()) <= width
    rows = [[plain(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
    for row in rows:
        for cell, column in zip(row, table.columns.values(), strict=True):
            for line in cell.split("\n"):
                assert len(line) <= column.width, (line, column.width)
    return rows


def test_fit_rows_cuts_only_the_named_columns_with_an_ellipsis() -> None:
    rows = fit_rows(["n", "name"], [["1,234,567", "a" * 40]], 20, [(1, 3)])
    assert rows == [["1,234,567", "a" * 6 + "…"]]
    text = Text("12.5% [3.0–40.1]\nchance 50.0%", "red")
    assert cut_cell(text, 12).plain == "12.5% [3.0–…\nchance 50.0%"
    assert fit_rows(["x"], [["1,234,567"]], 5, []) == [["1,234,567"]]  # no cut: scrolls


async def test_at_80x24_the_review_cuts_facts_with_an_ellipsis_and_no_number(
    long_names: Path,
) -> None:
    app = make_default_app(long_names)
    async with app.run_test(size=SMALL) as pilot:
        screen = ReviewScreen(1)
        await _open(pilot, screen)
        table = screen.query_one("#rv-edges")
        await wait_for(pilot, lambda: table.row_count > 0)
        await pilot.pause()
        rows = _assert_fits(table, SMALL[0] - 2)
        for edge, m, n, error, cri, _flags, fact in rows:
            assert fact.startswith("Lorem") and fact.endswith("…")
            assert all(NUMBER.match(x) for x in (edge, m, n, error, cri))
            assert cri.startswith("[") and cri.endswith("]")


async def test_at_80x24_compare_gives_table_3_whole_and_cuts_names_with_an_ellipsis(
    long_names: Path,
) -> None:
    app = make_default_app(long_names)
    async with app.run_test(size=SMALL) as pilot:
        screen = CompareScreen(2)
        await _open(pilot, screen)
        grid = screen.query_one("#cmp-grid")
        await wait_for(pilot, lambda: grid.row_count == 2)
        await pilot.pause()
        rows = _assert_fits(grid, SMALL[0] - 2)
        for (model, cell), run in zip(rows, (1, 2), strict=True):
            assert model.startswith("sim (seed ")  # its seed kept: models told apart
            # on one line where the table fits so, else a line each: never cut
            assert "…" not in cell
            assert re.search(r"\d+\.\d% \[[\d.]+–[\d.]+\]", cell)
            # the KG-wide rate's chance and n, the examined rate's n and chance, then the run
            assert re.search(r"chance \d+\.\d% · n=[\d,]+(\n| · )examined ", cell)
            assert re.search(rf"n=[\d,]+ · chance \d+\.\d%(\n| · )run {run}$", cell)
        shown = 0
        for side in ("#cmp-a-only", "#cmp-b-only"):
            table = screen.query_one(side)
            for edge, subject, _predicate, obj, a, b in _assert_fits(table, SMALL[0] - 2):
                shown += 1
                assert edge.isdigit() and subject.endswith("…") and obj.endswith("…")
                assert re.fullmatch(r"\d+/\d+ \d+\.\d%", a) and re.fullmatch(r"\d+/\d+ \d+\.\d%", b)
        assert shown  # the two models differ on some edge
