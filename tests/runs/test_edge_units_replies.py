"""A plugin's edge-unit mode (`EdgeUnitEngine`, here tests/toy_mode.py) opened from storage
shows its last questions and replies as its live screen showed them, read with one LIMIT
query in plan order; the model's text stays data."""

from __future__ import annotations

import asyncio
import html
import re
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from toy_mode import ToyConfig
from tui_support import SMALL, make_app

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.runs.units import RECENT, ModeSnapshot
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.live_units import ReplyLog

HOSTILE = "[bold red]x[/] \x1b[31m\ncorrect     forged\tline"
"""Rich markup, a terminal escape (red text) and a newline and tab that would forge an entry
of the log, as a model might reply."""
EDGES = RECENT + 40
"""More units than a live screen keeps."""
FAIL = EDGES - 5


class Varied:
    """Replies in turn a numbered Yes, a numbered No and `HOSTILE`; the ``fail``-th request
    fails (an API error, shown as such)."""

    label = "varied"
    simulated = False

    def __init__(self, fail: int = 0) -> None:
        self.calls = 0
        self.fail = fail

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        n = self.calls
        if n == self.fail:
            raise LLMError("server", f"HTTP 500 on request {n}", retries=1)
        return Completion((f"Yes ({n}).", f"No, not {n}.", HOSTILE)[n % 3], 7, 2, 0.001)

    async def aclose(self) -> None:
        return None


def _run(conn: sqlite3.Connection, edges: int = EDGES, fail: int = FAIL) -> ModeSnapshot:
    config = ToyConfig(kg="country", edges=edges, concurrency=1)
    return run_blocking(prepare(conn, config=config, target=Varied(fail)))


@pytest.fixture
def other(conn: sqlite3.Connection, tmp_path: Path):
    """A second connection to the workspace: what another process (a screen) reads."""
    c = connect(tmp_path / "test.db")
    yield c
    c.close()


def test_a_stored_plugin_run_shows_what_its_live_screen_showed(
    conn: sqlite3.Connection, other: sqlite3.Connection
) -> None:
    live = _run(conn)
    assert live.status == "finished" and live.units_total == EDGES
    assert len(live.progress.recent) == RECENT
    stored = open_snapshot(other, live.run_id)
    # the same questions, replies, labels and kinds, in the same (plan) order
    assert stored.progress.recent == live.progress.recent
    assert [v.unit for v in stored.progress.recent] == list(range(EDGES - RECENT, EDGES))
    replies = {v.reply: v.label for v in stored.progress.recent}
    assert replies[f"server: HTTP 500 on request {FAIL}"] == "error"
    assert HOSTILE in replies  # as the model wrote it: data, never markup
    assert {v.kind for v in stored.progress.recent} == {"statement"}


def test_stored_replies_are_read_with_one_limit_query(
    conn: sqlite3.Connection, other: sqlite3.Connection
) -> None:
    live = _run(conn, edges=30, fail=0)
    engine = _engine(other, live.run_id)
    statements: list[str] = []
    other.set_trace_callback(statements.append)
    try:
        views = engine.stored_views(5)
    finally:
        other.set_trace_callback(None)
    assert [v.unit for v in views] == [25, 26, 27, 28, 29]
    assert [v.reply for v in views] == [v.reply for v in live.progress.recent[-5:]]
    reads = [s for s in statements if "unit_answer" in s]
    assert len(reads) == 1 and "LIMIT" in reads[0], statements


def _engine(conn: sqlite3.Connection, run_id: int):
    """The stored run's engine, as `open_snapshot` builds it (no target contacted)."""
    from kglens_tui.kg.graph import load_kg
    from kglens_tui.runs.clients import ViewOnlyTarget
    from kglens_tui.runs.record import load_run
    from kglens_tui.runs.registry import get_mode

    mode = get_mode("toy")
    run = load_run(conn, run_id, mode.name)
    return mode.engine_type(conn, run, load_kg(conn, run.kg_name), ViewOnlyTarget("t", True))


@pytest.mark.tui
def test_a_stored_plugin_runs_screen_shows_its_replies_literally(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    c = connect(db)
    live = _run(c, edges=9, fail=0)
    c.close()
    app = make_app(db)

    async def drive() -> None:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            app.open_run(live.run_id)
            await wait_for(
                pilot, lambda: isinstance(app.screen, LiveScreen) and app.screen.query(ReplyLog)
            )
            log = app.screen.query_one("#mode-replies", ReplyLog)
            await wait_for(pilot, lambda: len(log.blocks) == 9)
            assert all(len(b.plain.splitlines()) == 2 for b in log.blocks)  # question, reply
            assert [b.plain.splitlines()[-1].split("→ ", 1)[1] for b in log.blocks] == [
                v.reply.strip().replace("\x1b", "␛").replace("\n", "⏎").replace("\t", "␉")
                for v in live.progress.recent
            ]
            await pilot.press("r")  # the replies on the whole screen
            await wait_for(pilot, lambda: log.region.height > 12)
            await pilot.pause()
            lines = [strip.text for strip in log.lines]
            assert any("[bold red]x[/] ␛[31m⏎correct     forged␉line" in line for line in lines)
            assert not any("\x1b" in line for line in lines)
            svg = app.export_screenshot()
            drawn = html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")
            assert "→ [bold red]x[/] ␛[31m⏎correct" in drawn and "\x1b" not in svg

    asyncio.run(drive())
