"""`kglens bench curves`: the study's CSV read back gives the study's own curves, bad files stop
with one line, and the terminal chart draws the chosen truth and metric."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from sampling_support import tiny_truth
from tui_support import MEDIUM

from kglens_tui.bench.sampling_csv import CurvesFileError, read_curves
from kglens_tui.bench.sampling_report import curve_data, write_csv
from kglens_tui.bench.sampling_study import PAPER_METHODS, run_study


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    result = run_study(tiny_truth(), PAPER_METHODS[:3], budget_epochs=5, batch_size=8, seeds=(0, 1))
    path = tmp_path_factory.mktemp("curves") / "curves.csv"
    write_csv(result, path)
    return result, path


def test_the_csv_gives_back_the_studys_curves(study) -> None:
    result, path = study
    loaded = read_curves(path)
    assert loaded.truths == (result.setting,)
    for metric in result.metric_names:
        if metric not in loaded.metrics:  # no value at all (k above the graph's 40 edges)
            assert all(np.isnan(c.mean).all() for c in curve_data(result, metric))
            continue
        for want, got in zip(
            curve_data(result, metric), loaded.curves[result.setting][metric], strict=True
        ):
            assert got.method == want.method
            assert got.requests.tolist() == want.requests.tolist()
            for a, b in ((got.mean, want.mean), (got.low, want.low), (got.high, want.high)):
                assert np.allclose(a, b, rtol=1e-5, atol=1e-9, equal_nan=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "curves.csv:1: header: expected truth, method, seed, requests, epochs"),
        ("truth,method,seed,requests,epochs,g_top100\n", "curves.csv:2: row: no curve"),
        ("truth,method,seed,requests,epochs,g_top100\nas-is,bf,0,64,0.1\n",
         "curves.csv:2: row: 5 fields, the header has 6"),
        ("truth,method,seed,requests,epochs,g_top100\nas-is,bf,0,x,0.1,0.5\n",
         "curves.csv:2: requests: not a number: 'x'"),
    ],
)  # fmt: skip
def test_a_bad_file_stops_with_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "curves.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CurvesFileError) as info:
        read_curves(path)
    assert str(info.value) == f"{tmp_path}/{message}" or str(info.value).startswith(
        f"{tmp_path}/{message}"
    )


@pytest.mark.tui
def test_the_terminal_chart_follows_the_selectors(study) -> None:
    from textual.widgets import Select, Static

    from kglens_tui.tui.curves_ui import CurvesApp, metric_title
    from kglens_tui.tui.widgets.plots import PlotChart

    result, path = study
    loaded = read_curves(path)
    app = CurvesApp(loaded)

    async def drive() -> None:
        async with app.run_test(size=MEDIUM) as pilot:
            await pilot.pause()
            chart = app.query_one("#chart", PlotChart).data
            first = loaded.metrics[0]
            assert chart is not None and chart.x_label == "requests"
            assert [s.name for s in chart.lines] == [m.name for m in result.methods]
            assert list(chart.xs) == loaded.curves[loaded.truths[0]][first][0].requests.tolist()
            app.query_one("#metric", Select).value = "mse_top200"
            await pilot.pause()
            assert app.metric == "mse_top200"
            chart = app.query_one("#chart", PlotChart).data
            assert chart is not None
            want = loaded.curves[loaded.truths[0]]["mse_top200"][0].mean
            got = chart.lines[0].values
            assert [v is None for v in got] == np.isnan(want).tolist()
            caption = str(app.query_one("#caption", Static).content)
            assert metric_title("mse_top200") == "MSE@200" and "MSE@200" in caption

    asyncio.run(drive())


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.tui
def test_snapshot_curves(snap_compare, study, size) -> None:
    from kglens_tui.tui.curves_ui import CurvesApp

    _, path = study
    app = CurvesApp(read_curves(path))
    app.study = type(app.study)(Path("curves.csv"), app.study.metrics, app.study.curves)
    assert snap_compare(app, terminal_size=size)


@pytest.mark.tui
def test_names_from_the_file_are_shown_literally(tmp_path: Path) -> None:
    from textual.widgets import Select, Static

    from kglens_tui.tui.curves_ui import CurvesApp
    from kglens_tui.tui.widgets.plots import PlotChart

    path = tmp_path / "curves.csv"
    path.write_text(
        "truth,method,seed,requests,epochs,[b]g_top1[/b]\n"
        "[red]t[/],[bold]m[/],0,0,0,0.1\n[red]t[/],[bold]m[/],0,8,0.5,0.4\n",
        encoding="utf-8",
    )
    app = CurvesApp(read_curves(path))

    async def drive() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            shown = " ".join(
                str(o[0])
                for s in app.query(Select)
                for o in s._options  # noqa: SLF001
            )
            assert "[red]t[/]" in shown and "[b]g_top1[/b]" in shown
            chart = app.query_one("#chart", PlotChart)
            assert chart.data is not None and chart.data.lines[0].name == "[bold]m[/]"
            legend = str(chart.query_one(".plot-legend", Static).render())
            assert legend.startswith("━ [bold]m[/] 0.400")

    asyncio.run(drive())
