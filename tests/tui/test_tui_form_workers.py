"""The new-run form never waits for the workspace: Start's and Check's KG checks (the
predicates, KONTEST's transitive ones) and the cost estimate run on a worker thread, a key is
handled meanwhile, and the outcome is what the form gave when it read them on its own thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Button, Input, Select
from textual.worker import WorkerState
from tui_support import MEDIUM, Spy, make_app, notices_of, open_form

from kglens_tui.settings import Settings
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens import new_run
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.new_run import NewRunScreen

pytestmark = pytest.mark.tui


@pytest.fixture
def check_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(new_run.checked_estimate)
    monkeypatch.setattr(new_run, "checked_estimate", spy)
    return spy


async def _kontest_on_places(pilot) -> NewRunScreen:
    form = await open_form(pilot)
    form.query_one("#mode", Select).value = "kontest"
    form.query_one("#kg", Select).value = "places"
    await wait_for(pilot, lambda: bool(form.query_one("#transitive").display))
    return form


def _checks_done(app) -> bool:
    return not any(
        w.group in ("check", "cost") and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
        for w in app.workers
    )


async def test_start_checks_the_kg_on_a_worker_and_starts_the_same_run(
    tmp_path: Path, check_spy: Spy
) -> None:
    app = make_app(tmp_path / "w.db")
    started: list = []
    app.start_mode_run = lambda config, more=(): started.append(config)  # type: ignore[method-assign]
    async with app.run_test(size=MEDIUM) as pilot:
        form = await _kontest_on_places(pilot)
        gate = threading.Event()
        check_spy.gate = gate
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, check_spy.waiting.is_set)
            status = str(form.query_one("#form-status").render())
            assert status == "checking the settings against the KG…"
            focused = app.focused
            await pilot.press("tab")  # handled while the KG is read
            await wait_for(pilot, lambda: app.focused is not focused)
            assert not started and not gate.is_set()
        finally:
            gate.set()
        await wait_for(pilot, lambda: bool(started))
    assert check_spy.threads and threading.main_thread() not in check_spy.threads
    config = started[0]
    assert (config.mode, config.kg, config.transitive) == ("kontest", "places", ["located_in"])


async def test_a_check_made_after_the_form_was_closed_starts_nothing(
    tmp_path: Path, check_spy: Spy
) -> None:
    app = make_app(tmp_path / "w.db")
    started: list = []
    app.start_mode_run = lambda config, more=(): started.append(config)  # type: ignore[method-assign]
    async with app.run_test(size=MEDIUM) as pilot:
        await _kontest_on_places(pilot)
        gate = threading.Event()
        check_spy.gate = gate
        try:
            await pilot.press("ctrl+s")
            await wait_for(pilot, check_spy.waiting.is_set)
            await pilot.press("escape")  # the form was changed: it asks first
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        finally:
            gate.set()
        await wait_for(pilot, lambda: check_spy.done == 1 and _checks_done(app))
        assert isinstance(app.screen, HomeScreen)
    assert not started
    assert not any(n.severity == "error" for n in notices_of(app))


async def test_check_reads_the_kg_on_a_worker_and_says_the_settings_are_ready(
    tmp_path: Path, check_spy: Spy
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=MEDIUM) as pilot:
        form = await _kontest_on_places(pilot)
        form.query_one("#check").press()
        status = form.query_one("#form-status")
        await wait_for(pilot, lambda: "ready to start" in str(status.render()))
        assert str(status.render()).endswith(": settings checked, ready to start")
        assert app.screen is form
    assert check_spy.threads and threading.main_thread() not in check_spy.threads


async def test_a_kgs_subsets_are_read_on_a_worker_as_it_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(new_run.subset_names)
    monkeypatch.setattr(new_run, "subset_names", spy)
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=MEDIUM) as pilot:
        form = await open_form(pilot)
        kg, subset = form.query_one("#kg", Select), form.query_one("#subset", Select)
        kg.value = "places"
        await wait_for(pilot, lambda: not subset.disabled)
        gate = spy.gate = threading.Event()
        kg.value = "country"
        await wait_for(pilot, spy.waiting.is_set)
        assert subset.disabled and subset.value == ""  # every subject until the read is in
        await pilot.press("tab", "shift+tab")  # the form goes on meanwhile
        assert app.screen is form
        gate.set()
        await wait_for(pilot, lambda: not subset.disabled)
        assert "paper16" in [value for _, value in subset._options]
        assert subset.value == ""
        assert spy.threads and threading.main_thread() not in spy.threads  # the opening read too


async def test_the_form_shows_before_its_kgs_are_read_and_start_waits_for_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_spy: Spy
) -> None:
    """The form's opening read (the workspace's KGs, the chosen one's subsets) is on a worker:
    the form shows at once with the KG and subset fields waiting and Start unavailable (ctrl+s
    does nothing), keys and edits are handled meanwhile; once it is in, the settings' subset is
    chosen and the form as it opened holds the KG and subset read, so only the edit counts as
    a change (esc asks for it, and for nothing once it is undone)."""
    spy = Spy(new_run.read_choices)
    monkeypatch.setattr(new_run, "read_choices", spy)
    settings = Settings(
        ui_refresh_hz=20, run={"target": "sim", "kg": "country", "subset": "paper16"}
    )
    app = KGLensApp(tmp_path / "w.db", settings, welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and not app.setting_up)
        home = app.screen
        gate = spy.gate = threading.Event()
        try:
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen))
            form = app.screen
            await wait_for(pilot, spy.waiting.is_set)
            kg, subset = form.query_one("#kg", Select), form.query_one("#subset", Select)
            assert not form.loaded and kg.disabled and subset.disabled
            assert form.query_one("#start", Button).disabled
            assert form.check_action("start", ()) is None
            await pilot.press("ctrl+s")  # unavailable: nothing checked, nothing said
            seed = form.query_one("#seed", Input)
            seed.focus()
            await pilot.press("end", "9")  # handled while the KGs are read
            await wait_for(pilot, lambda: seed.value.endswith("9"))
            assert not check_spy.threads and str(form.query_one("#form-status").render()) == ""
        finally:
            gate.set()
        await wait_for(pilot, lambda: form.loaded)
        assert {"country", "places"} <= {value for _, value in kg._options}
        assert (kg.value, subset.value) == ("country", "paper16")
        assert not kg.disabled and not subset.disabled
        assert not form.query_one("#start", Button).disabled
        assert form.changed()  # the seed typed meanwhile, not the KG or subset read
        await pilot.press("backspace")
        assert not form.changed()
        await pilot.press("escape")  # nothing changed: no question
        await wait_for(pilot, lambda: app.screen is home)
    assert spy.threads and threading.main_thread() not in spy.threads


async def test_a_form_closed_before_its_kgs_are_read_drops_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spy = Spy(new_run.read_choices)
    monkeypatch.setattr(new_run, "read_choices", spy)
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=MEDIUM) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and not app.setting_up)
        home = app.screen
        gate = spy.gate = threading.Event()
        try:
            await pilot.press("n")
            await wait_for(pilot, spy.waiting.is_set)
            form = app.screen
            await pilot.press("escape")  # nothing changed yet: it closes
            await wait_for(pilot, lambda: app.screen is home)
        finally:
            gate.set()
        await wait_for(pilot, lambda: spy.done == 1)
        await wait_for(pilot, lambda: not any(w.node is form for w in app.workers))
        assert app.screen is home and not form.loaded
        assert not any(n.severity == "error" for n in notices_of(app))
