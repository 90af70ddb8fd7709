"""The import dialog (`i` on the home screen) driven with Pilot: a bad file shows its one-line error
literally and leaves the workspace unchanged; the user fixes the path and retries; a write lock
held by another process is waited for with a visible message."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Input, Static
from tui_support import LARGE

from kglens_tui.settings import Settings
from kglens_tui.store.connection import LOCK_WAIT_ENV
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.dialogs import ImportScreen
from kglens_tui.tui.screens.home import HomeScreen

pytestmark = pytest.mark.tui


def status_text(app: KGLensApp) -> str:
    return str(app.screen.query_one("#import-status", Static).render())


def dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def open_dialog(pilot, app: KGLensApp, path: Path) -> None:
    await wait_for(pilot, lambda: not app.setting_up)  # the first start's KG import is in
    await pilot.press("i")
    await wait_for(pilot, lambda: isinstance(app.screen, ImportScreen))
    app.screen.query_one("#path", Input).value = str(path)
    await pilot.click("#import")


async def test_bad_file_shows_the_error_literally_then_a_fixed_path_imports(
    tmp_path: Path, tiny_kg_dir: Path
) -> None:
    db = tmp_path / "w.db"
    bad = tmp_path / "bad.csv"
    bad.write_text(
        'subject,predicate,object\nAustria,capital,"[/]Vienna\nGermany,capital,Berlin\n'
        "France,capital,Paris\nItaly,capital,Rome\n",
        encoding="utf-8",
    )
    nul = tmp_path / "nul.csv"
    nul.write_text("subject,predicate,object\nAustria,capi\0tal,[b]Vienna[/b]\n", "utf-8")
    good = tmp_path / "good.csv"
    good.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    app = KGLensApp(db, Settings(), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await wait_for(pilot, lambda: not app.setting_up)
        before = dump(db)
        await open_dialog(pilot, app, bad)
        await wait_for(pilot, lambda: "line 2" in status_text(app))
        assert status_text(app) == (
            f"{bad}, line 2, field 'object': a quoted value opens on this line and does not "
            "close on it (unbalanced quote?)"
        )
        assert isinstance(app.screen, ImportScreen)
        assert app.screen.query_one("#path", Input).has_focus

        app.screen.query_one("#path", Input).value = str(nul)
        await pilot.press("enter")  # the error put the cursor back on the path
        await wait_for(pilot, lambda: "U+0000" in status_text(app))
        assert status_text(app) == (
            f"{nul}, line 2, field 'predicate': control character U+0000 in 'capi␀tal' "
            "(not allowed)"
        )
        (tiny_kg_dir / "subsets.json").write_text('["c:AT"]', encoding="utf-8")
        app.screen.query_one("#path", Input).value = str(tiny_kg_dir)
        await pilot.press("enter")  # the error put the cursor back on the path
        await wait_for(pilot, lambda: "subsets.json" in status_text(app))
        assert status_text(app).startswith(f"{tiny_kg_dir}/subsets.json, line 1, field '(file)'")
        assert dump(db) == before

        app.screen.query_one("#path", Input).value = str(good)
        await pilot.press("enter")  # the error put the cursor back on the path
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
    conn = sqlite3.connect(db)
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM edge e JOIN kg ON kg.id = e.kg_id WHERE kg.name = 'good'"
        ).fetchone()[0]
        == 1
    )


async def test_missing_path_with_markup_is_shown_literally(tmp_path: Path) -> None:
    app = KGLensApp(tmp_path / "w.db", Settings(), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        await open_dialog(pilot, app, tmp_path / "[red]nothing[/]")
        await wait_for(pilot, lambda: "no such file" in status_text(app))
        assert status_text(app) == f"{tmp_path}/[red]nothing[/]: no such file or directory"


async def test_a_held_write_lock_is_waited_for_visibly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "w.db"
    good = tmp_path / "good.csv"
    good.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    app = KGLensApp(db, Settings(), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: not app.setting_up)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        monkeypatch.setenv(LOCK_WAIT_ENV, "0.3")
        before = dump(db)
        await open_dialog(pilot, app, good)
        await wait_for(pilot, lambda: "giving up" in status_text(app))
        assert "another process has held the workspace's write lock" in status_text(app)
        assert isinstance(app.screen, ImportScreen)
        assert dump(db) == before

        monkeypatch.setenv(LOCK_WAIT_ENV, "120")
        await pilot.press("enter")  # the error put the cursor back on the path
        await wait_for(pilot, lambda: "waiting for another process" in status_text(app))
        holder.execute("COMMIT")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        holder.close()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM kg WHERE name = 'good'").fetchone()[0] == 1


async def test_a_new_run_waits_visibly_for_a_held_write_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.tui.screens.live import LiveScreen

    db = tmp_path / "w.db"
    app = KGLensApp(db, Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: not app.setting_up)
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        monkeypatch.setenv(LOCK_WAIT_ENV, "120")
        try:
            app.start_run(RunConfig(kg="country", target="sim", iterations=2, batch_size=8))

            def title() -> str:
                found = app.screen.query("#run-title") if isinstance(app.screen, LiveScreen) else []
                return str(found.first(Static).render()) if found else ""

            await wait_for(pilot, lambda: "waiting for another process" in title(), timeout=60)
            assert app.session.snapshot() is None  # the run is not created while it waits
        finally:
            holder.execute("COMMIT")
            holder.close()
        await wait_for(pilot, lambda: not app._busy(), timeout=60)
        assert app.session.error == ""
        assert app.session.snapshot().iteration == 2


async def test_a_name_with_control_characters_is_refused(tmp_path: Path) -> None:
    good = tmp_path / "good.csv"
    good.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", Settings(), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, ImportScreen))
        app.screen.query_one("#name", Input).value = "evil\x1b[2J"
        app.screen.query_one("#path", Input).value = str(good)
        await pilot.click("#import")
        await wait_for(pilot, lambda: "control characters" in status_text(app))
        assert "evil␛[2J" in status_text(app)
        assert isinstance(app.screen, ImportScreen)
    conn = sqlite3.connect(tmp_path / "w.db")
    assert conn.execute("SELECT COUNT(*) FROM kg WHERE name LIKE 'evil%'").fetchone()[0] == 0


async def test_a_bundled_kg_s_name_is_refused_in_the_dialog(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    country = tmp_path / "country.csv"  # named after its file: the default KG's name
    country.write_text("subject,predicate,object\nAustria,capital,Vienna\n", encoding="utf-8")
    app = KGLensApp(db, Settings(), welcome=False)
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: not app.setting_up)
        before = dump(db)
        await open_dialog(pilot, app, country)
        await wait_for(pilot, lambda: "bundled" in status_text(app))
        assert status_text(app) == (
            "'country' is the name of a bundled KG (imported on first use): choose another"
        )
        assert isinstance(app.screen, ImportScreen) and dump(db) == before
