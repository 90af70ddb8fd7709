"""Charts in the TUI on a stored simulated run: the live screen's rates and requests/s, the
analysis screen's Fig. 6 grid and per-group bars; what they plot is checked against the stored
numbers, and snapshots of the grid and bar tabs at 160x48 and 80x24 (the live screen's, chart
included, are in test_tui_layout)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from conftest import copy_db, wait_for
from rich.console import Console
from tui_support import make_app

from kglens_tui.analysis.kgwide_render import win_text
from kglens_tui.core.intervals import wilson
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.store.connection import connect
from kglens_tui.tui.widgets.charts import BarChart, columns_for
from kglens_tui.tui.widgets.live_chart import LiveChart

pytestmark = pytest.mark.tui

BIG, SMALL = (160, 48), (80, 24)


@pytest.fixture(scope="module")
def stored_db(template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two stored runs (conftest's `template_db`) with a varied requests/s."""
    db = copy_db(template_db, tmp_path_factory.mktemp("charts") / "w.db")
    with sqlite3.connect(db) as conn:  # a varied requests/s per iteration
        conn.execute("UPDATE iteration SET seconds = 1.0 + iteration")
    return db


async def test_live_chart_plots_the_stored_rates_and_speed(stored_db: Path) -> None:
    app = make_app(stored_db)
    async with app.run_test(size=BIG) as pilot:
        app.open_run(1)
        await wait_for(
            pilot,
            lambda: (
                app.screen.query(LiveChart) and app.screen.query_one(LiveChart).rates is not None
            ),
        )
        chart = app.screen.query_one(LiveChart)
        assert chart.display and chart.region.height > 0
        conn = connect(stored_db)
        rows = conn.execute(
            "SELECT iteration, examined, win_rate, zero_sense_rate, all_sense_rate, requests, "
            "seconds FROM iteration WHERE run_id = 1 ORDER BY iteration"
        ).fetchall()
        snap = open_snapshot(conn, 1)
        assert [tuple(r[:5]) for r in rows] == [
            (i + 1, h.examined, h.win, h.zero_sense, h.all_sense)
            for i, h in enumerate(snap.history)
        ]
        assert chart.rates.xs == [r[0] for r in rows]
        by_name = {s.name: s for s in chart.rates.series}
        for col, name in ((2, "win"), (3, "zero-sense"), (4, "all-sense")):
            s = by_name[name]
            assert list(s.values) == [r[col] for r in rows]
            for r, low, high in zip(rows, s.low, s.high, strict=True):
                p = wilson(round(r[col] * r[1]), r[1])
                assert (low, high) == pytest.approx((p.low, p.high))
            last = rows[-1]
            assert f"n={last[1]:,}" in s.legend and f"{last[col] * 100:.1f}%" in s.legend
        speed = chart.speed.series
        assert chart.speed.xs == [r[0] for r in rows]
        assert list(speed.values) == pytest.approx([r[5] / r[6] for r in rows])
        assert f"n={rows[-1][5]} requests in {rows[-1][6]:.1f} s" in speed.legend
        # the drawn line: each plot column shows its iteration's value in the right row
        width = chart.query_one("#chart-rates").content_region.width
        console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        console.print(chart.rates)
        lines = console.export_text().splitlines()
        h = chart.rates.height
        win = by_name["win"].values
        for c, i in enumerate(columns_for(len(win), width - 6)):
            level = min(int(win[i] * 3 * h), 3 * h - 1)
            row = lines[h - 1 - level // 3]
            assert row[6 + c] in "▁─▔", (c, i, row)
        conn.close()


async def test_live_chart_hides_on_a_small_terminal(stored_db: Path) -> None:
    app = make_app(stored_db)
    async with app.run_test(size=SMALL) as pilot:
        app.open_run(1)
        await wait_for(pilot, lambda: bool(app.screen.query(LiveChart)))
        await pilot.pause()
        assert app.screen.query_one(LiveChart).region.height == 0
        assert app.screen.query_one("#blind").region.height > 0


def test_bar_chart_whisker_and_numbers() -> None:
    from kglens_tui.tui.widgets.charts import Bar

    bar = Bar("\x1b[31mred[/] pred", 0.5, 0.25, 0.75, "n=8")
    track = BarChart.track(bar, 8).plain
    assert track == "██├──┤  "
    console = Console(width=60, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(BarChart([bar]))
    text = console.export_text()
    assert "␛[31mred[/] pr…" in text and "50% [25%, 75%] n=8" in text


@pytest.mark.parametrize(
    ("per_s", "top"), [(0.42, "0.42"), (0.004, "<0.01"), (3.44, "3.4"), (12.6, "13")]
)
def test_the_requests_per_second_axis_reads_its_top_below_one_request_per_second(
    per_s: float, top: str
) -> None:
    """A probe slower than 1 request/s (SmolLM2 on a busy machine) reads 0.42 at the top of
    its axis, not 0 at both ends."""
    from kglens_tui.tui.widgets.live_chart import Throughput, speed_chart

    chart = speed_chart(Throughput([1, 2], [8, 8], [8 / per_s, 8 / per_s]), height=3)
    console = Console(width=40, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(chart)
    lines = console.export_text().splitlines()
    assert lines[0].split("┤")[0].strip() == top
    assert lines[2].split("┤")[0].strip() == "0"


def _plain(cell) -> str:
    return cell.plain if hasattr(cell, "plain") else str(cell)


async def test_analysis_grid_cells_equal_cross_table(stored_db: Path) -> None:
    from textual.widgets import DataTable

    from kglens_tui.analysis.grid import rate_text
    from kglens_tui.analysis.groups import chance_of, cross_table, group_table, yes_no_text
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.textfmt import pct, rate_ci
    from kglens_tui.tui.screens.analysis import AnalysisScreen

    conn = connect(stored_db)
    data = load_run_data(conn, 1)
    cross = cross_table(data, "subject", "predicate")
    preds = group_table(data, "predicate")
    keys = np.array([data.kg.pred_keys[int(data.kg.p[i])] for i in data.kg_pos])
    keep = data.included(True)
    chances = {r.key: chance_of(data, np.flatnonzero((keys == r.key) & keep)) for r in preds}
    app = make_app(stored_db)
    async with app.run_test(size=BIG) as pilot:
        app.push_screen(AnalysisScreen(1))
        await wait_for(pilot, lambda: bool(app.screen.query("#an-grid")))
        await pilot.press("f")
        await pilot.pause()
        grid = app.screen.query_one("#an-grid", DataTable)
        assert app.screen.focused is grid
        assert grid.row_count == len(cross.rows) == len({r.key for r in cross.rows})
        assert len(grid.columns) == 3 + len(cross.cols)
        checked = 0
        for r, row in enumerate(cross.rows):
            cells = [_plain(c) for c in grid.get_row_at(r)]
            assert cells[0] == row.label
            assert cells[1].strip() == rate_text(row.rates.zero_sense)
            chance = row.chance.zero_sense
            assert cells[2].strip() == ("—" if chance is None else f"{chance * 100:.0f}%")
            for c, col in enumerate(cross.cols):
                cell = cross.cells.get((row.key, col.key))
                shown = cells[3 + c]
                if cell is None:
                    assert shown == ""
                    continue
                p = cell.rates.zero_sense
                assert shown[1:].strip() == rate_text(p)
                checked += 1
        assert checked == len(cross.cells) > 20
        # the highlighted cell's line gives its intervals, chance and n
        await pilot.press("right", "right", "right", "down")
        await pilot.pause()
        row, col = cross.rows[1], cross.cols[0]  # column 3: after subject, all and chance
        cell = cross.cells.get((row.key, col.key))
        line = str(app.screen.query_one("#an-grid-cell").render())
        assert line.startswith(f"{row.label} × {col.label}: ")
        if cell is not None:
            assert f"n={cell.rates.examined} examined of {cell.edges} edges" in line
            zs = cell.rates.zero_sense
            assert f"zero-sense {rate_ci(zs.value, zs.low, zs.high)} (chance " in line
            assert f"(chance {pct(cell.chance.zero_sense)}) · win" in line
        # the subject's own columns describe its whole row
        await pilot.press("left")
        await pilot.pause()
        line = str(app.screen.query_one("#an-grid-cell").render())
        assert line.startswith(f"{row.label} × all predicates: ")
        assert f"(chance {pct(row.chance.zero_sense)})" in line
        # the bars show the predicate table's zero-sense rates, intervals, n and chance
        await pilot.press("b")
        await pilot.pause()
        bars = app.screen.bars.bars
        assert [b.label for b in bars] == [r.label for r in preds]
        for b, r in zip(bars, preds, strict=True):
            zs = r.rates.zero_sense
            assert (b.value, b.low, b.high) == (zs.value, zs.low, zs.high)
            want = chances[r.key].zero_sense
            chance = f" · chance {pct(want)}" if r.rates.examined else ""
            assert b.note == f"n={r.rates.examined}{chance}"
        # the table leads with the KG-wide win rate, and gives each rate what chance scores on
        # the group's questions under it (at 160 columns the Yes/No columns leave no room for a
        # chance column beside each rate)
        await pilot.press("t")
        await pilot.pause()
        table = app.screen.query_one("#an-table", DataTable)
        heads = [_plain(c.label) for c in table.columns.values()]
        assert heads[1:] == [
            "KG-wide win",
            "n",
            "win",
            "zero-sense ▼",  # the order: the surely worst zero-sense first
            "all-sense",
            "P(err)",
            "yes-rate",
            "bal.",
        ]
        for i, r in enumerate(preds):
            cells = [_plain(c) for c in table.get_row_at(i)]
            chance = chances[r.key]
            assert cells[0] == r.label
            if r.kg_wide is not None:  # the KG-wide win rate first, with chance and answers
                assert cells[1].startswith(win_text(r.kg_wide.rate) + "\nchance ")
                assert cells[1].endswith(f" n={r.kg_wide.rate.answers:,}")
            assert [c.split("\n")[1] for c in cells[3:6]] == [
                f"chance {pct(chance.win_rate)}",
                f"chance {pct(chance.zero_sense)}",
                f"chance {pct(chance.all_sense)}",
            ]
            yes, yes_ci, balanced = yes_no_text(r.yes_no)
            assert cells[7:] == [f"{yes}\n{yes_ci}", balanced]
    conn.close()


@pytest.mark.parametrize("key", ["f", "b"], ids=["grid", "bars"])
@pytest.mark.parametrize("size", [BIG, SMALL], ids=["160x48", "80x24"])
def test_snapshot_analysis_charts(snap_compare, stored_db: Path, size, key) -> None:
    from kglens_tui.tui.screens.analysis import AnalysisScreen

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(AnalysisScreen(1))
        await wait_for(pilot, lambda: bool(pilot.app.screen.query("#an-grid")))
        await pilot.press(key)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(make_app(stored_db), run_before=run_before, terminal_size=size)


async def test_live_rates_show_the_coin_band_replayed_under_the_runs_sampler(
    stored_db: Path,
) -> None:
    from kglens_tui.analysis.coin_baseline import coin_baseline
    from kglens_tui.tui.screens.live import LiveScreen, MetricCard

    conn = connect(stored_db)
    expected = coin_baseline(conn, 1)
    conn.close()
    assert expected is not None
    app = make_app(stored_db)
    async with app.run_test(size=BIG) as pilot:
        app.open_run(1)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen) and app.screen.coin)
        screen = app.screen
        assert screen.coin == expected  # the same replays `kglens report` shows
        first = expected.rates[screen.query(MetricCard).first().attr]
        await wait_for(  # drawn with the band (all the cards at once)
            pilot,
            lambda: (
                f"chance {first.mean * 100:.1f}%"
                in str(screen.query(MetricCard).first().query(".metric-detail").first().render())
            ),
        )
        for card in screen.query(MetricCard):
            band = expected.rates[card.attr]
            detail = str(card.query(".metric-detail").first().render())
            assert f"chance {band.mean * 100:.1f}%" in detail, detail
