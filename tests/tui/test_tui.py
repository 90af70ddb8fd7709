"""The TUI driven headless with Pilot: start a simulated run from the form, watch it, pause,
resume, stop; the form (snapshots: tests/tui/test_tui_layout.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Button, Checkbox, Input, Select
from tui_support import LARGE, MEDIUM, SMALL, make_app, notices_of, open_form

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen, MetricCard
from kglens_tui.tui.screens.new_run import NewRunScreen

pytestmark = pytest.mark.tui


async def test_start_watch_pause_resume_stop(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=LARGE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await open_form(pilot)
        assert isinstance(app.screen, NewRunScreen)
        app.screen.query_one("#iterations", Input).value = "400"
        app.screen.query_one("#batch_size", Input).value = "8"
        # the run must still be going when the test pauses it: no stop on convergence
        app.screen.query_one("#stop_on_convergence", Checkbox).value = False
        app.screen.query_one("#target", Select).value = "sim"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        live = app.screen
        session = app.session
        await wait_for(
            pilot, lambda: (session.snapshot() or None) and session.snapshot().iteration >= 3
        )
        await pilot.pause(0.2)
        value = live.query(MetricCard).first().query_one(".metric-value").render()
        assert "%" in str(value)  # the win rate is on screen

        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().status == "paused")
        await pilot.pause(0.5)
        held = session.snapshot().iteration
        await pilot.pause(0.5)
        assert session.snapshot().iteration == held  # nothing moves while paused

        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().iteration > held)

        await pilot.press("s")
        await wait_for(pilot, lambda: not app._busy())
        final = session.snapshot()
        assert (final.status, final.stop_reason) == ("stopped", "stopped by user")
        assert final.stop_reason == "stopped by user"

    conn = sqlite3.connect(db)
    run_id, done, status = conn.execute("SELECT id, iterations_done, status FROM run").fetchone()
    assert status == "stopped"
    iterations = [
        r[0]
        for r in conn.execute(
            "SELECT iteration FROM iteration WHERE run_id = ? ORDER BY 1", (run_id,)
        )
    ]
    assert iterations == list(range(1, done + 1))
    obs = conn.execute(
        "SELECT COUNT(*), COUNT(DISTINCT iteration) FROM observation WHERE run_id = ?", (run_id,)
    ).fetchone()
    assert obs == (done * 8, done)
    assert done == final.iteration


def test_the_live_screen_takes_pause_and_stop_while_its_run_starts() -> None:
    from types import SimpleNamespace

    def screen(snapshot, error: str = "") -> SimpleNamespace:
        session = SimpleNamespace(snapshot=lambda: snapshot, error=error)
        return SimpleNamespace(session=session)

    assert LiveScreen._going(screen(None))  # type: ignore[arg-type]
    assert not LiveScreen._going(screen(None, "the KG is gone"))  # type: ignore[arg-type]
    assert not LiveScreen._going(SimpleNamespace(session=None))  # type: ignore[arg-type]
    ended = SimpleNamespace(status="finished")
    assert not LiveScreen._going(screen(ended))  # type: ignore[arg-type]


async def test_a_pause_pressed_while_the_run_starts_holds_it(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        app.screen.query_one("#target", Select).value = "sim"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        session = app.session
        await pilot.press("p")  # most often before the run's process has started
        # handled once the screen has taken the key (on a loaded machine after press returns)
        await wait_for(pilot, lambda: session.held, describe=lambda: notices_of(app))
        assert not any("not running" in n.message for n in notices_of(app))
        await wait_for(
            pilot, lambda: (s := session.snapshot()) and s.status == "paused", timeout=120
        )
        await pilot.press("s")
        await wait_for(pilot, lambda: not app._busy(), timeout=120)
        assert session.snapshot().status == "stopped"


async def test_form_reports_bad_settings(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        app.screen.query_one("#batch_size", Input).value = "0"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Batch size must be at least 1 (got 0)" in str(
            app.screen.query_one("#form-status").render()
        )
        assert isinstance(app.screen, NewRunScreen)


async def test_form_errors_are_literal_and_notified(tmp_path: Path) -> None:
    """A bad value quoted in the error shows as typed (never as markup), and as a notification
    too, since a small terminal may have the status line scrolled out of view."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot)
        app.screen.query_one("#max_requests", Input).value = "[red]x[/] \x1b[2J"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(notices_of(app)), 30)
        status = str(app.screen.query_one("#form-status").render())
        assert "[red]x[/]" in status and "\x1b" not in status and "␛[2J" in status
        assert any("[red]x[/]" in n.message for n in notices_of(app))


async def test_form_shows_the_chosen_modes_fields_and_explains_the_focused_one(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await open_form(pilot)
        await pilot.pause()
        screen = app.screen
        assert app.focused is screen.query_one("#mode", Select)
        help_line = screen.query_one("#field-help")
        assert "now KGLens: the settings every mode shares" in str(help_line.render())
        await pilot.press("tab")
        assert app.focused.id == "kg" and "knowledge graph" in str(help_line.render())
        shown = {w.id for w in screen.query(".form-grid > *") if w.display and w.id}
        assert {"sampler", "propagation", "stop_on_convergence"} <= shown
        assert "relations" not in shown
        screen.query_one("#mode", Select).focus()
        screen.query_one("#mode", Select).value = "kontest"  # its help follows the choice
        await wait_for(pilot, lambda: "now KONTEST" in str(help_line.render()))
        shown = {w.id for w in screen.query(".form-grid > *") if w.display and w.id}
        assert shown == {
            "mode",
            "relations",
            "template3",
            "kg",
            "subset",
            "predicates",
            "target",
            "more_targets",
            "concurrency",
            "requests_per_minute",
            "max_requests",
            "seed",
            "generator",
            # generated from KONTEST's settings type
            "temperature",
            "max_tokens",
            "timeout_s",
            "max_retries",
            "max_tokens_total",
            "max_cost",
            "sim_latency_s",
            "transitive",
            "max_paths",
        }
        screen.query_one("#mode", Select).value = "kglens"
        await pilot.pause()
        assert screen.build_config().stop_on_convergence
        screen.query_one("#stop_on_convergence").value = False
        assert not screen.build_config().stop_on_convergence
        screen.query_one("#predicates", Input).value = " capital, Official Language ,"
        assert screen.build_config().predicates == ["capital", "Official Language"]
        screen.query_one("#mode", Select).value = "kontest"
        assert screen.build_mode_config(screen.build_config()).predicates == [
            "capital",
            "Official Language",
        ]
        screen.query_one("#predicates", Input).value = "capitol"
        await pilot.pause()
        screen.query_one("#check", Button).press()  # the KG is read on a worker
        status = screen.query_one("#form-status")
        await wait_for(pilot, lambda: "no predicate 'capitol'" in str(status.render()))
        assert "in KG 'country'" in str(status.render())
        screen.query_one("#predicates", Input).value = ""
        assert screen.build_config().requests_per_minute is None
        screen.query_one("#requests_per_minute", Input).value = "30"
        assert screen.build_config().requests_per_minute == 30.0
        assert screen.build_mode_config(screen.build_config()).requests_per_minute == 30.0
        screen.query_one("#requests_per_minute", Input).value = "-5"
        with pytest.raises(ValueError, match="requests_per_minute must be a positive number"):
            screen.build_config()


async def test_form_reopens_with_the_last_started_runs_choices(tmp_path: Path) -> None:
    from kglens_tui.tui.screens.live import LiveScreen

    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        fresh = app.screen
        assert fresh.query_one("#mode", Select).value == "kglens"
        fresh.query_one("#mode", Select).value = "kontest"
        fresh.query_one("#target", Select).value = "sim"
        fresh.query_one("#relations", Input).value = "2"
        fresh.query_one("#api_key_env", Input).value = "MY_KEY"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
        await wait_for(pilot, lambda: not app._busy(), 60)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await open_form(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen))
        form = app.screen
        assert form is not fresh
        assert form.query_one("#mode", Select).value == "kontest"
        assert form.query_one("#target", Select).value == "sim"
        assert form.query_one("#api_key_env", Input).value == "MY_KEY"
    other = make_app(tmp_path / "w.db")
    async with other.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        assert other.screen.query_one("#mode", Select).value == "kglens", "per program only"


async def test_form_reports_unreachable_endpoint(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        screen = app.screen
        screen.query_one("#target", Select).value = "openai"
        screen.query_one("#base_url", Input).value = f"http://127.0.0.1:{port}/v1"
        screen.query_one("#model", Input).value = "some-model"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: "cannot reach" in str(screen.query_one("#form-status").render())
        )
        assert isinstance(app.screen, NewRunScreen)


async def test_quit_asks_while_a_run_is_active(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(
            RunConfig(
                kg="country",
                target="sim",
                iterations=100000,
                batch_size=4,
                stop_on_convergence=False,
            )
        )
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        await pilot.press("q")
        await wait_for(pilot, lambda: "ConfirmScreen" in type(app.screen).__name__)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        app.session.stop()
        await wait_for(pilot, lambda: not app._busy())


async def test_a_mode_run_with_default_settings_and_no_plan_opens_as_stored(
    tmp_path: Path,
) -> None:
    """A bare KONTEST run record opens on the mode's screen, as stored, without an error
    (resuming one: test_tui_mode_runs)."""
    from kglens_tui.tui.screens.live import LiveScreen
    from kglens_tui.tui.screens.stored_run import StoredRun

    db = tmp_path / "w.db"
    conn = connect(db)
    conn.execute("INSERT INTO kg(name) VALUES ('k')")
    conn.execute(
        "INSERT INTO run(kg_id, mode, config, manifest, target_label, edge_ids) "
        "VALUES (1, 'kontest', '{}', '{}', 'sim', x'')"
    )
    conn.close()
    app = make_app(db)
    async with app.run_test(size=LARGE) as pilot:
        app.open_run(1)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: bool(app.screen.query("HeaderTitle")))  # mounted whole
        await pilot.pause()  # its header's first title is set (a quit before it fails in Textual)
        assert isinstance(app.screen.stored, StoredRun)
        assert not [n for n in notices_of(app) if n.severity == "error"]


@pytest.mark.parametrize(
    ("mode", "facts", "metric_column"),
    [("kontest", "relations", "oracle"), ("facteval", "facts", "F1 [95%]")],
)
async def test_consistency_and_facteval_runs_from_the_form(
    tmp_path: Path, mode: str, facts: str, metric_column: str
) -> None:
    from kglens_tui.tui.screens.live import LiveScreen

    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await open_form(pilot)
        form = app.screen
        form.query_one("#mode", Select).value = mode
        form.query_one(f"#{facts}", Input).value = "3"
        form.query_one("#subset", Select).value = "paper16"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: not app._busy(), timeout=60)
        await wait_for(pilot, lambda: any(t.row_count for t in app.screen.query(".panel-table")))
        snap = app.session.snapshot()
        assert (
            snap.status == "finished" and snap.mode == mode and snap.progress.counters.requests > 0
        )
        table = app.screen.query_one(".panel-table")
        assert table.row_count > 0
        assert metric_column in [str(c.label) for c in table.columns.values()]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT mode, status FROM run").fetchall() == [(mode, "finished")]


async def test_p_twice_before_the_engine_answers_pauses_then_resumes(tmp_path: Path) -> None:
    """The toggle follows the engine's state, and the commands it has not obeyed yet, so a
    second p before the engine has paused resumes."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(
            RunConfig(
                kg="country",
                target="sim",
                iterations=400,
                batch_size=8,
                sim_latency_s=0.03,
                stop_on_convergence=False,
            )
        )
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        session = app.session
        await pilot.press("p", "p")
        assert session.held is False
        held = session.snapshot().iteration
        await wait_for(pilot, lambda: session.snapshot().iteration > held + 1)
        assert session.snapshot().status == "running"
        session.stop()
        await wait_for(pilot, lambda: not app._busy())


async def test_a_reopened_paused_run_resumes_on_p(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        app.start_run(
            RunConfig(
                kg="country",
                target="sim",
                iterations=400,
                batch_size=8,
                sim_latency_s=0.03,
                stop_on_convergence=False,
            )
        )
        await wait_for(pilot, lambda: app._busy() and app.session.snapshot() is not None)
        session = app.session
        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().status == "paused")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.open_run(session.run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        held = session.snapshot().iteration
        await pilot.press("p")
        await wait_for(pilot, lambda: session.snapshot().iteration > held)
        session.stop()
        await wait_for(pilot, lambda: not app._busy())


def _two_runs(db: Path) -> dict[str, str]:
    """Two finished KGLens runs; what home should show of each one's win rate: its interval
    and what chance scores on the run's questions, as logged (`groups.overall`, raw)."""
    from kglens_tui.analysis.groups import overall
    from kglens_tui.analysis.rundata import load_run_data
    from kglens_tui.cli.main import main
    from kglens_tui.core.intervals import wilson
    from kglens_tui.textfmt import pct, rate_ci

    for seed in ("1", "2"):
        argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "2"]
        assert main([*argv, "--target", f"sim:{seed}", "--subset", "paper16"]) == 0
    conn = connect(db)
    rows = conn.execute(
        "SELECT r.id, i.win_rate, i.examined FROM run r JOIN iteration i "
        "ON i.run_id = r.id AND i.iteration = r.iterations_done"
    ).fetchall()
    chance = {
        run_id: overall(load_run_data(conn, run_id), adjusted=False).chance.win_rate
        for run_id, _, _ in rows
    }
    conn.close()
    return {
        str(run_id): f"win {rate_ci(*wilson(round(win * n), n).bounds)} chance "
        f"{pct(chance[run_id])} · zero-sense"
        for run_id, win, n in rows
    }


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_home_shows_the_selected_runs_rates_with_intervals_and_n(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    db = tmp_path / "w.db"
    expected = await asyncio.to_thread(_two_runs, db)
    conn = connect(db)
    examined = dict(
        conn.execute(
            "SELECT r.id, i.examined FROM run r JOIN iteration i "
            "ON i.run_id = r.id AND i.iteration = r.iterations_done"
        ).fetchall()
    )
    examined = {str(k): v for k, v in examined.items()}
    conn.close()
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        detail = lambda: str(app.screen.query_one("#run-detail").content)  # noqa: E731
        await wait_for(pilot, lambda: detail().startswith("run 2 ·"))
        await wait_for(pilot, lambda: not app.screen.chance_pending)
        assert expected["2"] in detail() and "enter: its live screen" in detail()
        # the rates first, never cut: the KG-wide win rate, then those over the examined edges
        assert detail().startswith("run 2 · KG-wide win ")
        assert f" answers · over the {examined['2']} examined edges: {expected['2']}" in detail()
        assert "simulated (seed 2)" in detail()
        await pilot.press("down")
        await wait_for(pilot, lambda: detail().startswith("run 1 ·"))
        assert expected["1"] in detail() and "simulated (seed 1)" in detail()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_home_keeps_each_run_s_target_and_labels_the_examined_rates(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """`sim:1` and `sim:2` are told apart in the run list at 80 and 160 columns (their targets
    in short form, seed and all); the paper's rates in it are titled "(examined)" after the
    KG-wide win rate (at 80 columns none is shown)."""
    db = tmp_path / "w.db"
    await asyncio.to_thread(_two_runs, db)
    app = make_app(db)
    async with app.run_test(size=size) as pilot:
        runs = lambda: app.screen.query_one("#runs")  # noqa: E731
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and runs().row_count == 2)
        await wait_for(pilot, lambda: not app.screen.chance_pending)
        table = runs()
        titles = [str(c.label) for c in table.columns.values()]
        targets = {
            str(table.get_row_at(i)[0]): str(table.get_row_at(i)[titles.index("target")])
            for i in range(table.row_count)
        }
        assert {k: v.split("\n")[0] for k, v in targets.items()} == {
            "1": "sim (seed 1)",
            "2": "sim (seed 2)",
        }
        rates = [t for t in titles if t in ("win", "zero-sense", "all-sense") or "examined" in t]
        assert all(t.endswith(" (examined)") for t in rates)
        if size[0] >= 160:
            assert titles.index("KG-wide win") < titles.index("win (examined)")
            assert {"zero-sense (examined)", "all-sense (examined)"} <= set(titles)


async def test_home_selects_the_run_the_app_just_started_when_it_comes_back(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    await asyncio.to_thread(_two_runs, db)
    app = make_app(db)
    async with app.run_test(size=MEDIUM) as pilot:
        runs = lambda: app.screen.query_one("#runs")  # noqa: E731
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and runs().row_count == 2)
        await pilot.press("down")  # run 1 selected
        config = RunConfig(kg="country", subset="paper16", iterations=1, target="sim:4")
        app.start_run(config)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: not app._busy(), 60)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and runs().row_count == 3)
        assert app.screen.query_one("#runs").selected_key() == "3"  # r resumes the run just seen
        await pilot.press("down")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen.query_one("#runs").selected_key() == "2"  # then the user's choice stays
