"""No crash from navigation, ever: keys pressed at random, with random short pauses, on home
while another process drives a run (so enter opens a run that is read on a worker and followed),
never end the app with a traceback."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import Static
from tui_support import SMALL, make_app, notices_of

from kglens_tui.modes.kglens import mode as probe_mode
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.record import KGLENS
from kglens_tui.runs.session import RunSession
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.stored_run import StoredRun

pytestmark = pytest.mark.tui

KEYS = {"enter": "\r", "escape": "\x1b", "n": "n", "question_mark": "?", "ctrl+p": "\x10"}
"""The keys pressed, with the character the terminal sends for each."""
PAUSES = (0.0, 0.0, 0.01, 0.03, 0.1, 0.4)
"""Seconds between two keys (0: the next key at once)."""
STEPS = 300
"""A few hundred keys (#37): about half a minute of typing."""


def _drive(session: RunSession) -> threading.Thread:
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(60) and not session.error, session.error
    return worker


@pytest.fixture
def other_process_run(tmp_path: Path):
    """A KGLens run its own process drives (this test's app only follows it), long enough to go
    on for the whole test; ended after it."""
    db = tmp_path / "w.db"
    config = RunConfig(
        kg="country",
        target="sim",
        iterations=2000,
        batch_size=4,
        concurrency=1,
        sim_latency_s=0.05,
        stop_on_convergence=False,
    )
    session = RunSession(db, KGLENS, config=config)
    worker = _drive(session)
    yield db, session
    session.abort("the test is over")
    worker.join(60)
    assert not worker.is_alive()


@pytest.fixture
def slow_open(monkeypatch: pytest.MonkeyPatch) -> list:
    """Reading a run takes a while, as a big run's does on a busy machine: the window in which
    escape comes before the live screen has mounted is wide. Each read first calls the hooks
    the test appends (from whichever thread reads)."""
    read = probe_mode.open_snapshot
    gate = threading.Event()
    hooks: list = []

    def slow(conn, run_id):
        for hook in hooks:
            hook()
        gate.wait(0.3)  # never set: the read takes 0.3 s more
        return read(conn, run_id)

    monkeypatch.setattr(probe_mode.KGLensMode, "open_snapshot", staticmethod(slow))
    return hooks


def _type(app, key: str) -> None:
    """A key as the terminal sends it: queued at once, whatever the app is busy with (Pilot's
    press waits for the app to be idle after each key, which a person does not)."""
    app.post_message(events.Key(key, KEYS[key]))


async def _navigate(app, pilot, seed: int, steps: int) -> list[str]:
    rng = random.Random(seed)
    pressed = []
    for _ in range(steps):
        if app._exit:  # the palette's enter may run "Quit KGLens": a clean end
            break
        key = rng.choice(list(KEYS))
        pressed.append(key)
        _type(app, key)
        await pilot.pause(rng.choice(PAUSES))
    return pressed


async def test_random_keys_on_home_while_another_process_drives_a_run_never_crash(
    other_process_run, slow_open
) -> None:
    db, session = other_process_run
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen._mark)
        pressed = await _navigate(app, pilot, 37, STEPS)
        assert "enter" in pressed and "escape" in pressed
    assert app.return_code in (0, None), app._exception
    assert app._exception is None
    assert not [n for n in notices_of(app) if n.severity == "error"]


async def test_the_palette_reopened_while_the_last_one_is_being_removed_opens(
    tmp_path: Path,
) -> None:
    """ctrl+p just after escape closed the palette, before Textual removed it (the random-keys
    test crashed on it under load: two widgets under one id)."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        for _ in range(3):
            app.action_command_palette()
            await wait_for(pilot, lambda: bool(app.screen.query(CommandList)))
            app.pop_screen()  # the palette is no longer the screen, but is still mounted
            app.action_command_palette()
            await wait_for(pilot, lambda: bool(app.screen.query(CommandList)))
            assert CommandPalette.is_open(app)
            app.pop_screen()
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
    assert app._exception is None


async def test_escape_as_a_run_opens_closes_its_screen_once_it_has_mounted(
    other_process_run, slow_open
) -> None:
    """The reported crash, without the randomness: enter on the run, escape at once."""
    db, session = other_process_run
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen._mark)
        loop = asyncio.get_running_loop()
        escapes = [0]

        def escape_while_it_reads() -> None:  # a person's escape as the run opens
            if escapes[0]:
                escapes[0] -= 1
                if threading.current_thread() is threading.main_thread():
                    _type(app, "escape")  # the read holds the UI: the key waits in its queue
                else:
                    loop.call_soon_threadsafe(_type, app, "escape")

        slow_open.append(escape_while_it_reads)
        for _ in range(5):
            escapes[0] = 1
            _type(app, "enter")
            await wait_for(pilot, lambda: app._exit or not escapes[0])
            await wait_for(pilot, lambda: app._exit or isinstance(app.screen, HomeScreen))
            assert not app._exit, app._exception
        slow_open.clear()
        # and the screen shows at once, before the run is read, then follows the run
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        screen = app.screen
        assert isinstance(screen._stored, StoredRun)
        title = screen.query_one("#run-title", Static)
        await wait_for(pilot, lambda: f"Run {session.run_id}" in str(title.content), 60)
        first = screen.snapshot().iteration
        await wait_for(pilot, lambda: screen.snapshot().iteration > first, 60)
    assert app._exception is None


async def test_a_run_that_cannot_be_read_is_a_notification_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.kg.bundled import ensure_kg
    from kglens_tui.modes.kglens.mode import prepare
    from kglens_tui.runs.runner import run_blocking
    from kglens_tui.store.connection import connect

    db = tmp_path / "w.db"

    def stored_run() -> None:
        conn = connect(db)
        ensure_kg(conn, "country")
        run_blocking(prepare(conn, config=RunConfig(kg="country", iterations=1, batch_size=4)))
        conn.close()

    await asyncio.to_thread(stored_run)

    def broken(conn, run_id):
        raise RuntimeError("[b]disk[/b] on fire")

    monkeypatch.setattr(probe_mode.KGLensMode, "open_snapshot", staticmethod(broken))
    app = make_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.open_run(1)
        await wait_for(pilot, lambda: bool(notices_of(app)))
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        (note,) = [n for n in notices_of(app) if n.severity == "error"]
        assert note.message == "[b]disk[/b] on fire" and not note.markup
    assert app._exception is None


async def test_a_screen_worker_that_fails_is_one_notification(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")

    def fails() -> None:
        raise ValueError("bad [red]value[/]")

    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.screen.run_worker(fails, thread=True, exit_on_error=False, description="a read")
        await wait_for(pilot, lambda: bool(notices_of(app)))
        (note,) = notices_of(app)
        assert note.message == "a read failed: bad [red]value[/]"
    assert app._exception is None


class _NotRead:
    """A run a screen shows before it is read."""

    error, live, run_id, mode = "", False, 99, "kontest"

    def snapshot(self) -> None:
        return None


async def test_a_screen_popped_before_it_has_mounted_waits_for_its_mount(tmp_path: Path) -> None:
    """The crash's mechanism, in one tick: escape handled before the screen pushed for enter
    has composed (the app busy meanwhile) used to remove it under its own `on_mount`
    (NoMatches '#replies', or 'HeaderTitle' on its Header)."""
    from kglens_tui.tui.screens.live import LiveScreen

    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        for screen in (LiveScreen(None), LiveScreen(None, stored=_NotRead())):
            app.push_screen(screen)
            app.pop_screen()  # in the same tick: nothing of it has mounted yet
            await wait_for(pilot, lambda: app._exit or isinstance(app.screen, HomeScreen))
            await pilot.pause()
            assert not app._exit, app._exception
    assert app._exception is None


async def test_a_back_key_handled_after_its_screen_closed_leaves_home_open(tmp_path: Path) -> None:
    """Escape typed twice on a screen over home: the second is handled once home is on top
    again (a busy machine), and must not close home and leave a blank app."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        home = app.screen
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: app.screen is not home)
        _type(app, "escape")
        _type(app, "escape")
        await wait_for(pilot, lambda: app.screen is home)
        await app.pop_screen()  # a late "app.pop_screen" binding of a closed screen
        await pilot.pause()
        assert app.screen is home and len(app.screen_stack) == 2
    assert app._exception is None


async def test_an_action_of_a_screen_already_closed_is_dropped(tmp_path: Path) -> None:
    """A palette command or typed-ahead key that reaches the new-run form after it closed (its
    fields gone) does nothing: no crash, home stays."""
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        home = app.screen
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is not home and app.screen.is_mounted)
        form = app.screen
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is home and not form.is_attached)
        assert await app.run_action("back", form)
        await pilot.pause()
        assert app.screen is home
    assert app._exception is None
