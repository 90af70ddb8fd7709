"""Hostile text (markup, terminal escapes, control characters, NUL, 100 kB) in KG names, labels,
model names, replies and annotations: every screen shows it literally and nothing reaches the
terminal as control. Each screen is opened with Pilot and its rendered text checked."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for, write_jsonl
from textual.widgets import RichLog
from textual.widgets._toast import Toast
from tui_support import HUGE

from kglens_tui.annotate.adjudication import adjudicate
from kglens_tui.annotate.labels import flag_item, submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.settings import Settings
from kglens_tui.store.connection import connect
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.annotate import AnnotateScreen
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen
from kglens_tui.tui.screens.annotate_progress import ProgressScreen
from kglens_tui.tui.screens.annotate_report import ReportScreen
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.dialogs import ImportScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

pytestmark = pytest.mark.tui

ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\x1b[?1049l\x00\u202e\x9b"
"""Sets the window title, clears the screen, leaves the alternate screen; NUL, RTL override, CSI."""
MARKUP = "[/] [bold red]x[/] [ [/INST] [link=http://x]y[/link] \\"
KG_NAME = "evil[/]kg[b]"
MODEL = "evil[/]model[b]"
COUNTRY = "Evil[/]land"
LONG = "L" * 100_000
NAMES = ("ann[/]1", "ann2", "ann3", "ann4", "ann5")
# Rendered text must never hold a control character (the SVG keeps newlines between lines).
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")


class HostileTarget:
    """A target whose name and every reply are hostile."""

    label = f"{MODEL} {ESCAPES}"
    simulated = False

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        replies = (
            f"Yes.\n[/INST] {MARKUP} {ESCAPES}",
            f"No {ESCAPES} [/]",
            f"{COUNTRY} {MARKUP}",
            f"[bold]Cap{ESCAPES}[/bold]" + "\n" * 200 + "after newlines",
        )
        return Completion(replies[self.calls % len(replies)], 10, 5, 0.0)

    async def aclose(self) -> None:
        return None


def _hostile_kg(path: Path) -> Path:
    d = path / "kg"
    d.mkdir()
    countries = [("c:E", COUNTRY), ("c:B", "Bad[bold]ia"), ("c:C", "Cee")]
    entities = [
        {"id": key, "label": label, "type": "country", "groups": ["region:[/]zone"]}
        for key, label in countries
    ]
    entities += [{"id": f"city:{k}", "label": f"Cap[red]{k}", "type": "city"} for k, _ in countries]
    entities += [{"id": "lang:x", "label": "Lang[/]x", "type": "language"}]
    entities += [{"id": "lang:y", "label": "Why", "type": "language"}]
    write_jsonl(d / "entities.jsonl", entities)
    write_jsonl(
        d / "predicates.jsonl",
        [{"id": "capital", "label": "capital[/]of"}, {"id": "lang", "label": "official[b]lang"}],
    )
    triples = [{"subject": k, "predicate": "capital", "object": f"city:{k}"} for k, _ in countries]
    triples += [{"subject": k, "predicate": "lang", "object": "lang:x"} for k, _ in countries]
    triples += [{"subject": "c:C", "predicate": "lang", "object": "lang:y"}]
    write_jsonl(d / "triples.jsonl", triples)
    return d


def _build(db: Path, tmp: Path) -> None:
    conn = connect(db)
    import_kg(conn, _hostile_kg(tmp), KG_NAME)
    # Labels as a legacy workspace or another tool may have stored them: escapes, NUL, 100 kB.
    conn.execute(
        "UPDATE entity SET label = label || ? WHERE key IN ('c:E', 'city:c:E')", (" " + ESCAPES,)
    )
    conn.execute("UPDATE entity SET label = ? WHERE key = 'c:C'", ("Cee" + LONG,))
    conn.commit()
    for seed in (1, 2):
        engine = prepare(
            conn,
            config=RunConfig(
                kg=KG_NAME, target="sim", difficulty="hard", iterations=3, batch_size=4, seed=seed
            ),
            target=HostileTarget(),
        )
        run_blocking(engine)
    conn.execute("UPDATE run SET stop_reason = ? WHERE id = 2", (f"stopped {MARKUP} {ESCAPES}",))
    conn.commit()
    specs = [
        ItemSpec(
            kg=KG_NAME,
            qtype="wh",
            app_verdict="correct",
            question=f"What is the capital of {COUNTRY} {ESCAPES}?",
            answers=[[f"Cap[red]{ESCAPES}", "[/]"]],
            response=f"It is [/] {MARKUP} {ESCAPES}",
        ),
        ItemSpec(
            kg=KG_NAME,
            qtype="yes_no",
            app_verdict="incorrect",
            question=f"Is {MARKUP} {ESCAPES} right?",
            expected="yes",
            response=f"No.\n[/INST]{ESCAPES}",
        ),
    ]
    create_round_from_items(conn, f"round[/]{ESCAPES}", specs, annotators=NAMES, seed=1)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY id")]
    for item_id in ids:
        for k, name in enumerate(NAMES):
            wh = conn.execute(
                "SELECT qtype FROM annotation_item WHERE id = ?", (item_id,)
            ).fetchone()[0]
            submit_label(
                conn,
                item_id,
                name,
                question_clear="yes" if k % 2 else "no",
                response_correct=("correct" if k < 2 else "incorrect") if wh == "wh" else None,
                seconds=3.0,
            )
    flag_item(conn, ids[0], NAMES[0], f"note {MARKUP} {ESCAPES}", seconds=1.0)
    adjudicate(
        conn,
        ids[0],
        reason=f"because {MARKUP} {ESCAPES}",
        adjudicator=f"lead[/]{ESCAPES}",
        response_correct="correct",
    )
    conn.close()


@pytest.fixture(scope="module")
def hostile_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile")
    db = tmp / "w.db"
    _build(db, tmp)
    return db


@pytest.fixture
def hostile_db(hostile_template: Path, tmp_path: Path) -> Path:
    db = tmp_path / "w.db"
    src, dst = sqlite3.connect(hostile_template), sqlite3.connect(db)
    src.backup(dst)
    src.close()
    dst.close()
    return db


def assert_literal(app: KGLensApp, *expected: str) -> str:
    """The screen holds no control character and shows each expected string as written."""
    shown = app.export_screenshot()
    bad = FORBIDDEN.search(shown)
    assert bad is None, f"{type(app.screen).__name__} sends {bad.group()!r} to the terminal"
    text = re.sub(r"<[^>]+>", "", shown).replace("&#160;", " ")
    text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    for piece in expected:
        assert piece in text, f"{type(app.screen).__name__} does not show {piece!r}"
    return text


async def _show(pilot, screen) -> None:
    pilot.app.push_screen(screen)
    await pilot.pause()
    await _until(pilot, lambda: getattr(screen, "loaded", True))  # read on a worker
    await pilot.pause()


async def _until(pilot, condition) -> None:
    """Let the app work until ``condition()`` holds, then one more turn to draw what it shows."""
    await wait_for(pilot, condition)
    await pilot.pause()


async def test_every_probe_screen_shows_hostile_text_literally(hostile_db: Path) -> None:
    app = KGLensApp(hostile_db, Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=HUGE, notifications=True) as pilot:
        await pilot.pause()
        assert_literal(app, KG_NAME, MODEL, "␛]0;PWNED")
        await pilot.press("n")
        await pilot.pause()
        assert_literal(app)
        await pilot.press("escape")
        await pilot.pause()
        home = app.screen
        app.open_run(2)
        await _until(pilot, lambda: app.screen is not home)
        assert_literal(app, MODEL, "[bold red]x[/]", "␛]0;PWNED␇␛[2J")
        log = app.screen.query_one("#replies", RichLog)
        await wait_for(pilot, lambda: any("after newlines" in line.text for line in log.lines))
        assert len(log.lines) < 100  # 200 newlines of a reply take one line, not the pane
        assert not any("⏎⏎⏎" in line.text for line in log.lines)
        # the blind spots KGLens declares (`Mode.live_panels`) name the edges as written
        blind = app.screen.query_one("#blind", LiteralDataTable)
        await wait_for(pilot, lambda: blind.row_count > 0)
        names = {cell.plain for row in blind.ordered_rows for cell in blind.get_row(row.key)[4:]}
        assert names & {"capital[/]of", "official[b]lang"}
        assert not any(FORBIDDEN.search(name) for name in names), names
        await pilot.press("escape")
        await pilot.pause()
        await _show(pilot, ReviewScreen(1))
        assert_literal(app, MODEL, KG_NAME, "capital[/]of")
        review = app.screen
        shown: list[str] = []
        # every blind spot's drill-down, until one shows a reply with markup in it (which edges
        # hold such replies is the sampler's draw)
        for spot in range(8):
            await pilot.press("enter")
            await _until(pilot, lambda: type(app.screen).__name__ == "DrillDownScreen")
            shown.append(assert_literal(app, *(["␛]0;PWNED"] if spot == 0 else [])))
            for _ in range(4):
                await pilot.press("down")
                await pilot.pause()
                shown.append(assert_literal(app))
            if any("[/] [bold red]x[/] [ [/" in t for t in shown):
                break
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is review)
            await pilot.press("down")
            await pilot.pause()
        assert any("[/] [bold red]x[/] [ [/" in t for t in shown), spot
        await pilot.press("g")
        await _until(pilot, lambda: type(app.screen).__name__ == "EgoScreen")
        assert_literal(app, "capital[/]of")
        await _show(pilot, AnalysisScreen(1))
        assert_literal(app)
        for key in ("g", "y", "p"):
            await pilot.press(key)
            await pilot.pause()
            assert_literal(app)
        await _show(pilot, CompareScreen(1, 2))
        await _until(pilot, lambda: app.screen.loaded)  # read on a worker
        assert_literal(app, MODEL)
        app.notify(f"toast {MARKUP} {ESCAPES}")
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause()
        assert_literal(app, "toast [/] [bold")


async def test_annotation_screens_show_hostile_text_literally(hostile_db: Path) -> None:
    app = KGLensApp(hostile_db, Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=HUGE) as pilot:
        await pilot.pause()
        await _show(pilot, RoundsScreen())
        assert_literal(app, "round[/]␛]0;PWNED")
        await _show(pilot, AnnotateScreen(1, NAMES[0]))
        assert_literal(app, "[/]")
        await pilot.press("right")
        await pilot.pause()
        assert_literal(app)
        await _show(pilot, ProgressScreen(1))
        assert_literal(app, "ann[/]1")
        await _show(pilot, ReportScreen(1))
        assert_literal(app, "ann[/]1")
        await _show(pilot, AdjudicationScreen(1, None))
        assert_literal(app, "[bold red]x[/]")


async def test_import_dialog_shows_a_hostile_path_literally(hostile_db: Path) -> None:
    app = KGLensApp(hostile_db, Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=HUGE) as pilot:
        await _show(pilot, ImportScreen(hostile_db))
        path = app.screen.query_one("#path")
        path.value = "/nonexistent/[/]x[bold]"
        path.focus()
        await pilot.press("enter")
        await pilot.pause()
        status = app.screen.query_one("#import-status").render()
        assert "/nonexistent/[/]x[bold]: no such file" in str(status)
        assert_literal(app, "/nonexistent/[/]x[bold]: no such file")


def test_a_crashed_app_exits_non_zero(
    hostile_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kglens_tui.tui import app as app_module
    from kglens_tui.tui.screens.home import HomeScreen

    def boom(self: HomeScreen) -> None:
        raise RuntimeError("a screen broke")

    monkeypatch.setattr(HomeScreen, "on_mount", boom)
    assert app_module.run_app(str(hostile_db), headless=True) == 1


class _Shown:
    """A finished mode session as its live screen polls it."""

    live = False
    error = f"failed {MARKUP} {ESCAPES}"

    def __init__(self, snap) -> None:
        self._snap = snap
        self.mode, self.run_id = snap.mode, snap.run_id

    def snapshot(self):
        return self._snap


@pytest.fixture(params=["kontest", "facteval"])
def mode_snapshot(hostile_db: Path, request: pytest.FixtureRequest):
    from kglens_tui.modes import FactevalConfig, KontestConfig
    from kglens_tui.runs.runner import prepare
    from kglens_tui.runs.runner import run_blocking as run_mode

    conn = connect(hostile_db)
    config = (
        KontestConfig(kg=KG_NAME, relations=None)
        if request.param == "kontest"
        else FactevalConfig(kg=KG_NAME, facts=None, qtypes=["tfq", "saq"], contexts=["none"])
    )
    yield run_mode(prepare(conn, config=config, target=HostileTarget()))
    conn.close()


async def test_mode_live_screen_shows_hostile_text_literally(
    hostile_db: Path, mode_snapshot
) -> None:
    from kglens_tui.tui.screens.live import LiveScreen

    app = KGLensApp(hostile_db, Settings(run={"target": "sim"}), welcome=False)
    async with app.run_test(size=HUGE) as pilot:
        await _show(pilot, LiveScreen(None, stored=_Shown(mode_snapshot)))
        assert_literal(app, MODEL, "␛]0;PWNED")


def test_xml_exports_parse_with_hostile_labels(hostile_db: Path, tmp_path: Path) -> None:
    """XML 1.0 cannot hold control characters: GEXF and GraphML show them visibly instead."""
    import xml.etree.ElementTree as ET

    from kglens_tui.analysis.exports import write_gexf, write_graphml
    from kglens_tui.analysis.rundata import load_run_data

    conn = connect(hostile_db)
    data = load_run_data(conn, 1)
    for write in (write_gexf, write_graphml):
        path = write(data, tmp_path / f"pkg.{write.__name__}")
        text = path.read_text(encoding="utf-8")
        ET.fromstring(text)
        assert "Evil[/]land ␛]0;PWNED␇" in text
    conn.close()
