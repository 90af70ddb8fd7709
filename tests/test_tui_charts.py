"""Charts in the TUI on a stored simulated run: the live screen's rates and requests/s, the
analysis screen's Fig. 6 grid and per-group bars; what they plot is checked against the stored
numbers, and snapshots at 160x48 and 80x24."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from rich.console import Console
from test_tui import _stored_run, make_app, wait_for

from kglens_tui.analysis.intervals import wilson
from kglens_tui.probe.runner import open_snapshot
from kglens_tui.store.connection import connect
from kglens_tui.tui.widgets.charts import BarChart, columns_for
from kglens_tui.tui.widgets.live_chart import LiveChart

BIG, SMALL = (160, 48), (80, 24)


@pytest.fixture(scope="module")
def stored_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("charts") / "w.db"
    _stored_run(db)
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
        await pilot.pause(0.1)
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


@pytest.mark.parametrize("size", [BIG, SMALL], ids=["160x48", "80x24"])
def test_snapshot_live_with_chart(snap_compare, stored_db: Path, size) -> None:
    async def run_before(pilot) -> None:
        pilot.app.open_run(1)
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(LiveChart)))
        await pilot.pause(0.3)

    assert snap_compare(make_app(stored_db), run_before=run_before, terminal_size=size)
