"""The live screen shows what a run's mode declares, not what its name picks: its help
(`Mode.live_help`: the toy mode's is its own, not KONTEST's or fact-eval's), its units with a
failed request (`ModeSnapshot.units_failed`), and the app's default mode (its settings and first
run) is the registry's."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from conftest import wait_for
from rich.console import Console
from toy_mode import TOY, ToyConfig
from tui_support import SMALL, make_app, open_form

from kglens_tui.runs import registry
from kglens_tui.runs.registry import get_mode
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.dialogs import HelpScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.live_units import UNITS_KEYS, UNITS_NOTE, mode_view

pytestmark = pytest.mark.tui


def _toy_run(db: Path):
    """A finished toy run of four edges stored in ``db``, and its final snapshot."""
    conn = connect(db)
    try:
        return run_blocking(prepare(conn, config=ToyConfig(kg="country", edges=4, target="sim")))
    finally:
        conn.close()


async def test_a_toy_runs_live_help_is_its_own(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    final = await asyncio.to_thread(_toy_run, db)
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.open_run(final.run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen) and app.screen.settled)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.text
    assert text.startswith("## toy run\n") and UNITS_KEYS in text and UNITS_NOTE in text
    for other in ("kontest", "facteval"):
        own = get_mode(other).live_help
        assert own and own not in text
    assert "KONTEST" not in text and "Fact-eval" not in text


def test_each_unit_modes_help_says_only_its_own_figures() -> None:
    kontest, facteval = get_mode("kontest").live_help, get_mode("facteval").live_help
    assert "incons. / n" in kontest and "Fact-eval" not in kontest
    assert "F1" in facteval and "KONTEST" not in facteval
    assert get_mode(TOY).live_help == ""


async def test_the_progress_counts_the_units_failed_the_snapshot_declares(tmp_path: Path) -> None:
    final = await asyncio.to_thread(_toy_run, tmp_path / "w.db")
    console = Console(width=120)
    shown = mode_view(final, (), "", False, False, 80, 0, console)
    assert "done 4 of 4\n" in shown.progress and "with a failed request" not in shown.progress
    failed = dataclasses.replace(final, units_failed=3)  # the toy's metrics name no such count
    shown = mode_view(failed, (), "", False, False, 80, 0, console)
    assert "done 4 of 4 · 3 with a failed request\n" in shown.progress


def test_a_new_runs_settings_are_the_registrys_default_modes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "w.db")
    assert type(app.run_defaults()) is get_mode("kglens").config_type
    monkeypatch.setattr(registry, "DEFAULT_MODE", TOY)
    assert type(app.run_defaults()) is ToyConfig
    assert app.run_defaults().edges == ToyConfig().edges
    first = app.welcome_config()  # the toy declares no first-run change (`Mode.first_run`)
    assert type(first) is ToyConfig and first.max_tokens == ToyConfig().max_tokens


async def test_the_form_builds_kglens_settings_whatever_the_default_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form's own fields are KGLens's (`RunConfig`): with another default mode it opens and
    builds KGLens settings from them (it raised TypeError on the toy's settings)."""
    monkeypatch.setattr(registry, "DEFAULT_MODE", TOY)
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_form(pilot)
        assert screen.base == "kglens"
        config = screen.build_config()
        assert type(config) is get_mode("kglens").config_type
