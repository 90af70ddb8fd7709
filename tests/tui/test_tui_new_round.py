"""A round made in the TUI (n on the rounds screen: a form over what `kglens annotate round
create` takes), and rounds made elsewhere showing up in the open list without a key."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Input, SelectionList, Static
from textual.widgets._footer import FooterKey
from tui_support import MEDIUM, SMALL, make_default_app, notices_of

from kglens_tui.annotate.rounds import create_round, list_rounds
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens import annotate_home, new_round
from kglens_tui.tui.screens.annotate_home import AnnotationEntry, RoundsScreen
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.new_round import NewRoundScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with one finished simulated KGLens run (32 answered observations) and one
    KONTEST-free history: the form offers that run."""
    db = tmp_path_factory.mktemp("new-round") / "w.db"
    conn = connect(db)
    config = RunConfig(
        kg="country", subset="paper16", target="sim", difficulty="hard", iterations=2, batch_size=16
    )
    run_blocking(prepare(conn, config=config))
    conn.close()
    return db


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "w.db"
    shutil.copy(template, copy)
    return copy


def _rounds(db: Path):
    conn = connect(db)
    try:
        return list_rounds(conn)
    finally:
        conn.close()


def _table(app) -> LiteralDataTable:
    return app.screen.query_one("#ann-rounds-table", LiteralDataTable)


async def _open_form(app, pilot) -> NewRoundScreen:
    await pilot.press("a")
    await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewRoundScreen))
    form = app.screen
    runs = form.query_one("#round-runs", SelectionList)
    await wait_for(pilot, lambda: runs.option_count == 1)
    return form


async def _fill(pilot, form: NewRoundScreen, **values: str) -> None:
    """Set fields as typing would; their Changed messages are handled before the next key."""
    for field, value in values.items():
        form.query_one(f"#round-{field}", Input).value = value
    await pilot.pause()


def _status(form: NewRoundScreen) -> str:
    return str(form.query_one("#round-status", Static).render())


async def test_a_round_made_in_the_form_is_stored_listed_and_selected(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = connect(db)
    create_round(conn, "earlier", runs=[1], per_kg=4)
    conn.close()
    threads: list[str] = []

    def spied(*args, **kw):
        threads.append(threading.current_thread().name)
        return create_round(*args, **kw)

    monkeypatch.setattr(new_round, "create_round", spied)
    app = make_default_app(db)
    async with app.run_test(size=MEDIUM) as pilot:
        form = await _open_form(app, pilot)
        prompt = str(form.query_one("#round-runs", SelectionList).get_option_at_index(0).prompt)
        assert prompt == "run 1 · simulated (seed 0) · country · 32 answered"
        await _fill(pilot, form, name="pilot [b]two[/b]", **{"per-kg": "10", "seed": "3"})
        await _fill(pilot, form, annotators="x, y ,z")
        form.query_one("#round-runs", SelectionList).focus()
        await pilot.press("space")  # picks the run under the cursor
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        stored = _rounds(db)
        assert [r.name for r in stored] == ["earlier", "pilot [b]two[/b]"]
        assert len(threads) == 1 and threads[0] != threading.main_thread().name  # on a worker
        rnd = stored[-1]
        assert (rnd.items, rnd.seed, rnd.annotators) == (10, 3, ("x", "y", "z"))
        assert rnd.settings.per_kg == 10 and rnd.settings.majority == 2
        assert rnd.source["runs"] == [1]
        # the same round as `kglens annotate round create` samples: same seed, same items
        conn = connect(db)
        twin = create_round(conn, "twin", runs=[1], per_kg=10, seed=3, annotators=["x", "y", "z"])
        items = "SELECT observation_id FROM annotation_item WHERE round_id = ? ORDER BY position"
        assert [r[0] for r in conn.execute(items, (rnd.id,))] == [
            r[0] for r in conn.execute(items, (twin.id,))
        ]
        conn.close()
        table = _table(app)
        await wait_for(pilot, lambda: table.selected_key() == str(rnd.id))
        assert "pilot [b]two[/b]" in str(table.get_row(str(rnd.id))[1])
        messages = [str(n.message) for n in notices_of(app)]
        assert any(
            m.startswith(f"round {rnd.id} 'pilot [b]two[/b]': 10 items (country: ")
            and m.endswith(" Wh)")
            and "Yes/No" in m
            for m in messages
        ), messages


async def test_bad_input_shows_every_error_at_once_and_stores_nothing(db: Path) -> None:
    app = make_default_app(db)
    async with app.run_test(size=MEDIUM) as pilot:
        form = await _open_form(app, pilot)
        await _fill(pilot, form, name="  ", annotators="ann1, ann1", seed="x", **{"per-kg": "-3"})
        await pilot.click("#create")
        await wait_for(pilot, lambda: "Seed" in _status(form), describe=lambda: _status(form))
        status = _status(form)
        for error in (
            "Name is required",
            "Runs: choose at least one run to sample from",
            "Items per KG must be at least 0 (0 = all) (got -3)",
            "Annotators: annotator named twice: ann1",
            "Seed must be a whole number (got 'x')",
        ):
            assert error in status, status
        assert "--" not in status  # the form's labels, never the CLI's flags
        await _fill(
            pilot, form, name="bad\x1bname", annotators="ann1, [b]", seed="0", **{"per-kg": "many"}
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Name:" in _status(form), describe=lambda: _status(form))
        status = _status(form)
        assert "Name: 'bad␛name' holds the control character U+001B" in status, status
        assert "Items per KG must be a whole number (0 = all) (got 'many')" in status
        assert "Annotators" not in status  # "[b]" is a name, shown literally
        assert isinstance(app.screen, NewRoundScreen)
        assert _rounds(db) == []
        # a name taken: create_round's own error, in the form, nothing more stored
        conn = connect(db)
        create_round(conn, "taken", runs=[1], per_kg=2)
        conn.close()
        await _fill(pilot, form, name="taken", **{"per-kg": "0"})
        form.query_one("#round-runs", SelectionList).select(1)
        await pilot.pause()
        form.query_one("#round-name", Input).focus()
        await pilot.press("enter")  # enter in a field creates too
        await wait_for(
            pilot, lambda: "already exists" in _status(form), describe=lambda: _status(form)
        )
        assert not form.writing and isinstance(app.screen, NewRoundScreen)
        assert [r.name for r in _rounds(db)] == ["taken"]


async def test_escape_on_a_changed_form_asks_before_discarding(db: Path) -> None:
    app = make_default_app(db)
    async with app.run_test(size=MEDIUM) as pilot:
        form = await _open_form(app, pilot)
        await pilot.press("escape")  # unchanged: closes at once
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRoundScreen))
        form = app.screen
        await pilot.press("x")  # typed in the name
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is form)
        assert form.query_one("#round-name", Input).value == "x"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
    assert _rounds(db) == []


async def test_a_round_made_elsewhere_appears_in_the_open_list(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = connect(db)
    create_round(conn, "first", runs=[1], per_kg=4)
    conn.close()
    threads: list[str] = []
    read = annotate_home.read_round_lines

    def spied(*args):
        threads.append(threading.current_thread().name)
        return read(*args)

    monkeypatch.setattr(annotate_home, "read_round_lines", spied)
    app = make_default_app(db)
    async with app.run_test(size=MEDIUM) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        table = _table(app)
        assert table.row_count == 1 and table.selected_key() == "1"
        conn = connect(db)  # another process's connection: the CLI, `kglens serve`
        create_round(conn, "from [i]elsewhere[/i]", runs=[1], per_kg=6, annotators=["solo"])
        conn.close()
        await wait_for(pilot, lambda: table.row_count == 2)
        assert str(table.get_row("2")[1]) == "from [i]elsewhere[/i]"
        assert table.selected_key() == "1"  # the cursor stays on its round
        assert threads and threading.main_thread().name not in threads  # read on a worker
        banner = str(app.screen.query_one("#ann-banner", Static).render())
        assert "n new round" in banner


async def test_annotators_only_cannot_make_a_round(db: Path) -> None:
    app = make_default_app(db, AnnotationEntry())
    async with app.run_test(size=MEDIUM) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        screen = app.screen
        assert screen.check_action("new_round", ()) is False
        assert not any(
            b.binding.action == "new_round" and b.enabled for b in screen.active_bindings.values()
        )
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        banner = str(screen.query_one("#ann-banner", Static).render())
        assert "Press n" not in banner and "coordinator" in banner
        footer = [k.description for k in screen.query(FooterKey)]
        assert "New" not in footer and "Quit" in footer  # their way out
        await pilot.press("q")
        await wait_for(pilot, lambda: app._exit)
    assert _rounds(db) == []


async def test_the_coordinator_footer_shows_n_and_q_still_quits(db: Path) -> None:
    app = make_default_app(db)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        footer = [k.description for k in app.screen.query(FooterKey)]
        assert "New" in footer and "Quit" not in footer  # esc goes back to home, which shows it
        commands = {c.title for c in app.get_system_commands(app.screen)}
        assert "New round" in commands
        banner = str(app.screen.query_one("#ann-banner", Static).render())
        assert "Press n to create one" in banner
        await pilot.press("q")
        await wait_for(pilot, lambda: app._exit)
