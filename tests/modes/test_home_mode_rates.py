"""Home's detail line for a KONTEST and a fact-eval run gives its headline figure as for a KGLens
run: the rate with its 95% interval, n and what chance scores on the same questions, worked out
from the run's stored metrics by the functions its report uses."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import wait_for
from tui_support import make_app

from kglens_tui.core.intervals import wilson
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.facteval.headline import facteval_headline
from kglens_tui.modes.kontest.headline import kontest_headline
from kglens_tui.modes.kontest.metrics import ALL
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci


def _mode_runs(db: Path) -> dict[str, object]:
    """A finished KONTEST run (1) and fact-eval run (2), simulated: their stored metrics."""
    conn = connect(db)
    run_blocking(prepare(conn, config=KontestConfig(kg="country", relations=12, target="sim:1")))
    run_blocking(
        prepare(
            conn,
            config=FactevalConfig(
                kg="country", target="sim:2", facts=6, qtypes=["tfq", "mcq"], contexts=["none"]
            ),
        )
    )
    metrics = {str(i): open_snapshot(conn, i).metrics for i in (1, 2)}
    conn.close()
    return metrics


def test_mode_headline_has_the_rate_its_interval_n_and_chance(tmp_path: Path) -> None:
    metrics = _mode_runs(tmp_path / "w.db")
    kontest = metrics["1"]
    o = kontest.oracle(ALL)
    assert o.valid > 0
    line = kontest_headline(kontest).line
    assert line.startswith(
        f"inconsistent {rate_ci(*wilson(o.inconsistent, o.valid).bounds)} of n={o.valid:,} "
        f"valid tests · chance: a coin {pct(kontest.coin_error_rate(ALL))}"
    )
    assert (
        f"at its yes-rate ({pct(kontest.chance.p_yes)}) "
        f"{pct(kontest.coin_error_rate(ALL, at_yes_rate=True))}"
    ) in line
    assert line.endswith(", a constant answer 0.0%")  # never inconsistent: the strongest guess
    facteval = metrics["2"]
    (total,) = [s for s in facteval.scores if s.qtype == "all"]
    best = facteval.chance_of("all", "all", "none").best
    assert best is not None and total.total > 0
    assert facteval_headline(facteval).line == (
        f"F1 (context none) {rate_ci(total.f1, *total.f1_ci)} chance {pct(best.value)} "
        f"n={total.total:,}"
    )


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.tui
async def test_home_detail_of_a_mode_run_has_its_headline(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "w.db"
    metrics = await asyncio.to_thread(_mode_runs, db)
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        detail = lambda: str(app.screen.query_one("#run-detail").content)  # noqa: E731
        await wait_for(pilot, lambda: detail().startswith("run 2 ·"))
        await wait_for(pilot, lambda: not app.screen.chance_pending)
        await wait_for(pilot, lambda: "F1" in detail())
        assert detail().startswith(f"run 2 · {facteval_headline(metrics['2']).line}\n")
        await pilot.press("down")
        await wait_for(pilot, lambda: detail().startswith("run 1 ·"))
        assert detail().startswith(f"run 1 · {kontest_headline(metrics['1']).line}\n")
        assert "rates: its results" not in detail()


@pytest.mark.tui
async def test_home_detail_shows_the_headline_a_plugin_mode_declares(tmp_path: Path) -> None:
    """The toy mode's own headline line on home, as `kglens runs` shows its lines: what the
    mode declares (`Mode.headline`), not what home knows of KONTEST and fact-eval metrics."""
    from toy_mode import TOY

    from kglens_tui.cli.main import main

    db = tmp_path / "w.db"
    argv = ["--db", str(db), "run", TOY, "--set", "kg=country", "--set", "edges=4", "--quiet"]
    assert await asyncio.to_thread(main, argv) == 0
    app = make_app(db)
    async with app.run_test(size=(160, 48)) as pilot:
        detail = lambda: str(app.screen.query_one("#run-detail").content)  # noqa: E731
        await wait_for(pilot, lambda: detail().startswith("run 1 · toy yes "))
        assert detail().startswith("run 1 · toy yes 4 of 4\n")
