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
from rich.text import Text
from textual.color import Color
from textual.widgets import Static
from textual_plotext.plot import Plot
from tui_support import make_app

from kglens_tui.core.intervals import wilson
from kglens_tui.modes.kglens.rate_text import win_text
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import counted
from kglens_tui.tui.widgets.bar_plot import Bar, BarPlot, draw_bars, numbers
from kglens_tui.tui.widgets.live_chart import LiveChart
from kglens_tui.tui.widgets.plots import (
    Line,
    PlotCanvas,
    PlotChart,
    PlotData,
    band_colour,
    draw,
)

pytestmark = pytest.mark.tui

BIG, SMALL = (160, 48), (80, 24)


@pytest.fixture(scope="module")
def stored_db(template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two stored runs (conftest's `template_db`) with a varied requests/s."""
    db = copy_db(template_db, tmp_path_factory.mktemp("charts") / "w.db")
    with sqlite3.connect(db) as conn:  # a varied requests/s per iteration
        conn.execute("UPDATE iteration SET seconds = 1.0 + iteration")
    return db


def _figure(data: PlotData, width: int = 60, height: int = 12) -> list[Text]:
    """The plot of `data` as the widget draws it (theme colours as in textual-dark), by line."""
    plt = Plot()
    draw(plt, data, width, height, lambda spec: Color.parse(THEME.get(spec, spec)).rgb, BG)
    plt.theme("clear")
    return Text.from_ansi(plt.build()).split()


def _y_ticks(lines: list[Text]) -> list[str]:
    """The y axis's tick labels, top first."""
    return [line.plain.split("┤")[0].strip() for line in lines if "┤" in line.plain]


def _rows_in(lines: list[Text], rgb: tuple[int, int, int]) -> list[int]:
    """The lines holding a cell drawn in colour `rgb`."""
    return [
        r
        for r, line in enumerate(lines)
        if any(
            span.style
            and not isinstance(span.style, str)
            and span.style.color is not None
            and tuple(span.style.color.get_truecolor()) == rgb
            and line.plain[span.start : span.end].strip()
            for span in line.spans
        )
    ]


THEME = {"$success": "#4EBF71", "$error": "#B93C5B", "$primary": "#0178D4", "$warning": "#FEA62B"}
BG = (18, 18, 18)


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
        conn.close()
        assert [tuple(r[:5]) for r in rows] == [
            (i + 1, h.examined, h.win, h.zero_sense, h.all_sense)
            for i, h in enumerate(snap.history)
        ]
        rates, speed = chart.rates, chart.speed
        assert rates is not None and speed is not None
        assert rates.xs == tuple(float(r[0]) for r in rows)
        by_name = {s.name: s for s in rates.lines}
        for col, name in ((2, "win"), (3, "zero-sense"), (4, "all-sense")):
            s = by_name[name]
            assert s.low is not None and s.high is not None
            assert list(s.values) == [r[col] for r in rows]
            for r, low, high in zip(rows, s.low, s.high, strict=True):
                p = wilson(round(r[col] * r[1]), r[1])
                assert (low, high) == pytest.approx((p.low, p.high))
            last = rows[-1]
            assert f"n={last[1]:,}" in s.legend and f"{last[col] * 100:.1f}%" in s.legend
        (line,) = speed.lines
        assert speed.xs == tuple(float(r[0]) for r in rows)
        assert list(line.values) == pytest.approx([r[5] / r[6] for r in rows])
        assert f"n={rows[-1][5]} requests in {rows[-1][6]:.1f} s" in line.legend
        # drawn on screen with real axes: percent ticks, the iterations, the legend's numbers
        canvas = chart.query_one("#chart-rates PlotCanvas", PlotCanvas)
        shown = canvas.render()
        assert isinstance(shown, Text)
        lines = shown.split()
        assert _y_ticks(lines) == ["100%", "50%", "0%"]
        assert "iteration" in shown.plain
        assert [t for t in lines[-2].plain.split() if t] == [str(r[0]) for r in rows]
        legend = str(chart.query_one("#chart-rates .plot-legend", Static).render())
        assert f"win {rows[-1][2] * 100:.1f}%" in legend
        assert f"zero-sense {rows[-1][3] * 100:.1f}%" in legend
        # a chart whose data did not change is not drawn again
        assert not chart.query_one("#chart-rates", PlotChart).show(rates)


async def test_the_live_chart_is_not_drawn_again_while_its_data_stays(
    stored_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redraw ticks on a finished run draw neither plot again (a plot costs tens of ms)."""
    from kglens_tui.tui.screens.live import LiveScreen

    drawn: list[str | None] = []
    ticks: list[int] = []
    render, refresh_view = PlotCanvas.render, LiveScreen.refresh_view

    def counted_render(self: PlotCanvas):
        drawn.append(self.parent.id if self.parent is not None else None)
        return render(self)

    def counted_refresh(self: LiveScreen) -> None:
        ticks.append(1)
        refresh_view(self)

    monkeypatch.setattr(PlotCanvas, "render", counted_render)
    monkeypatch.setattr(LiveScreen, "refresh_view", counted_refresh)
    app = make_app(stored_db)
    async with app.run_test(size=BIG) as pilot:
        app.open_run(1)
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, LiveScreen)
                and app.screen.settled
                and {"chart-rates", "chart-speed"} <= set(drawn)
            ),
        )
        before, at = len(drawn), len(ticks)
        await wait_for(pilot, lambda: len(ticks) >= at + 10)
        await pilot.pause()
        assert len(drawn) == before, drawn[before:]


async def test_live_chart_hides_on_a_small_terminal(stored_db: Path) -> None:
    app = make_app(stored_db)
    async with app.run_test(size=SMALL) as pilot:
        app.open_run(1)
        await wait_for(pilot, lambda: bool(app.screen.query(LiveChart)))
        await pilot.pause()
        assert app.screen.query_one(LiveChart).region.height == 0
        assert app.screen.query_one("#blind").region.height > 0


def test_bars_have_an_axis_a_whisker_and_literal_names() -> None:
    """A bar in its heat colour up to its rate, the interval as a whisker beside it and only
    its end over it (inverted), so that the bar ends at its rate in plain text too (a copied
    screen read 100% [87%, 100%] as a bar to 87%: trial 3); a percent axis under the bars; a
    hostile name shows literally."""
    bars = [Bar("\x1b[31mred[/] pred", 0.5, 0.25, 0.75, "n=8"), Bar("none", None, None, None)]
    plt = Plot()
    draw_bars(plt, bars, 60, "zero-sense rate", 15)
    plt.theme("clear")
    lines = Text.from_ansi(plt.build()).split()
    first = lines[0].plain
    label, track = first.split("┤", 1)
    assert label.strip() == "␛[31mred[/] pr…"
    assert "\x1b" not in "".join(line.plain for line in lines)
    left, whisker = track.index("├"), track.rindex("┤")
    end = track.rindex("█") + 1
    assert set(track[:left]) == set(track[left + 1 : end]) == {"█"}
    assert set(track[end:whisker]) == {"─"}
    # the bar ends in the middle of the track, the whisker a quarter either side
    width = len(track.rstrip()) / 0.75
    assert left / width == pytest.approx(0.25, abs=0.05)
    assert end / width == pytest.approx(0.5, abs=0.05)
    over = [s for s in lines[0].spans if s.style and not isinstance(s.style, str)]
    assert any(s.style.reverse and "├" in first[s.start : s.end] for s in over)
    assert lines[1].plain.split("┤")[0].strip() == "none" and "█" not in lines[1].plain
    assert [t for t in lines[3].plain.split() if t] == ["0%", "20%", "40%", "60%", "80%", "100%"]
    assert lines[4].plain.strip() == "zero-sense rate"
    assert numbers(bars[0]) == "  50% [25%, 75%] n=8" and numbers(bars[1]) == " —"


@pytest.mark.parametrize(
    ("per_s", "ticks"),
    [
        (0.42, ["0.6", "0.4", "0.2", "0.0"]),
        (0.004, ["0.004", "0.002", "0.000"]),
        (0.75, ["0.75", "0.50", "0.25", "0.00"]),
        (3.44, ["4", "2", "0"]),
        (12.6, ["15", "10", "5", "0"]),
    ],
)
def test_the_requests_per_second_axis_has_distinct_ticks_below_one_request_per_second(
    per_s: float, ticks: list[str]
) -> None:
    """A probe slower than 1 request/s (SmolLM2 on a busy machine) reads 0.2, 0.4 up its axis,
    not 0 at both ends: every tick but the lowest is above 0, and no two read alike."""
    from kglens_tui.tui.widgets.live_chart import Throughput, speed_chart

    data = speed_chart(Throughput([1, 2, 3], [8, 8, 8], [8 / per_s] * 3))
    lines = _figure(data, 40, 10)
    shown = _y_ticks(lines)
    assert shown == ticks
    assert len(set(shown)) == len(shown)
    assert all(float(t) > 0 for t in shown[:-1])
    # the area reaches the tick at the value: drawn in the theme's warning colour
    assert _rows_in(lines, Color.parse(THEME["$warning"]).rgb)


@pytest.mark.parametrize("unit", ["plain", "percent"])
def test_tick_labels_read_apart_at_every_scale(unit: str) -> None:
    """For any top from 0.0013 to 9,000 and any room for ticks, the axis rises from 0 at one
    round step to at or above the top, and no two tick labels read alike."""
    from kglens_tui.tui.widgets.plots import tick_label, y_ticks

    for top in (0.0013, 0.004, 0.02, 0.07, 0.42, 0.75, 0.999, 1.0, 3.44, 12.6, 95.0, 9000.0):
        for most in range(1, 9):
            ticks = y_ticks(top, most)
            assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) - 1 <= max(most, 1)
            step = ticks[1] - ticks[0]
            labels = [tick_label(t, step, unit) for t in ticks]
            assert len(set(labels)) == len(labels), (top, most, labels)
            assert all(float(label.rstrip("%").replace(",", "")) > 0 for label in labels[1:])


def test_an_interval_band_is_drawn_behind_its_line() -> None:
    """The band covers the rows between its bounds in the line's colour blended toward the
    background; a line without bounds has none."""
    xs = tuple(float(x) for x in range(1, 11))
    banded = Line("win", "$success", (0.5,) * 10, (0.2,) * 10, (0.8,) * 10)
    band_rgb = band_colour(Color.parse(THEME["$success"]).rgb, BG)
    lines = _figure(PlotData(xs, (banded,), 1.0, "percent"), 60, 14)
    rows = _rows_in(lines, band_rgb)
    line_rows = _rows_in(lines, Color.parse(THEME["$success"]).rgb)
    assert len(rows) >= 4 and line_rows
    assert min(rows) < min(line_rows) and max(rows) > max(line_rows)
    top = next(r for r, line in enumerate(lines) if line.plain.startswith("100%"))
    zero = next(r for r, line in enumerate(lines) if line.plain.lstrip().startswith("0%"))
    assert top < min(rows) and max(rows) < zero  # nothing above 80% nor below 20%
    bare = Line("win", "$success", (0.5,) * 10)
    assert not _rows_in(_figure(PlotData(xs, (bare,), 1.0, "percent"), 60, 14), band_rgb)


def test_names_in_a_plot_legend_stay_literal() -> None:
    """A series name from a file or a model shows as written: no markup, no terminal control."""
    name = "\x1b[31m[bold red]m[/]\nx\u202e"
    data = PlotData((0.0, 1.0), (Line(name, "#1f77b4", (0.1, 0.2), legend="[i]0.2[/i]"),), 1.0)
    legend = PlotChart.legend(data, lambda spec: Color.parse(spec).rgb)
    assert legend.plain == "━ ␛[31m[bold red]m[/]⏎x⇄ [i]0.2[/i]"
    assert "\x1b" not in "".join(line.plain for line in _figure(data))


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
            edges = counted(cell.edges, "edge")
            assert f"n={cell.rates.examined:,} examined of {edges}" in line
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
        bars = app.screen.query_one("#an-bars", BarPlot).bars
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


async def test_a_live_screen_asked_while_it_mounts_or_after_it_closed_raises_nothing(
    stored_db: Path,
) -> None:
    """The chart's data is None until its plots are mounted, and a live screen whose widgets
    are gone (closed as it mounted: the app quitting) returns from `on_mount` quietly; both
    raised NoMatches on a busy machine."""
    app = make_app(stored_db)
    async with app.run_test(size=BIG) as pilot:
        app.open_run(1)
        await wait_for(pilot, lambda: bool(app.screen.query(LiveChart)))
        chart = app.screen.query_one(LiveChart)
        unmounted = LiveChart()
        assert (unmounted.rates, unmounted.speed) == (None, None)
        await wait_for(pilot, lambda: chart.rates is not None)
        screen = app.screen
        await screen.query_one("#replies").remove()
        screen.on_mount()  # type: ignore[attr-defined]
