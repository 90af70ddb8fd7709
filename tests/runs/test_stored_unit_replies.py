"""A stored KONTEST or fact-eval run shows its latest questions and replies as the engine that
asked them showed them: opened after it ended, resumed, or followed while another connection
(another process) drives it. The model's text stays data."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import wait_for
from tui_support import SMALL, make_app

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.runs.units import RECENT, QueryView
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens import stored_run
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.live_units import ReplyLog
from kglens_tui.tui.screens.stored_run import StoredRun

HOSTILE = "[bold]x[/] \x1b[2J"
"""Rich markup and a terminal escape (clear the screen), as a model might reply."""


class Varied:
    """Answers in turn a numbered Yes, a numbered No and `HOSTILE`; the ``fail``-th request
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
        text = (f"Yes ({n}).", f"No, not {n}.", HOSTILE)[n % 3]
        return Completion(text, 7, 2, 0.001)

    async def aclose(self) -> None:
        return None


KONTEST = KontestConfig(kg="country", relations=40, target="sim", concurrency=1)
"""240 questions (six a relation): more than the `RECENT` a live screen keeps."""
FACTEVAL = FactevalConfig(
    kg="country",
    facts=20,
    target="sim",
    concurrency=1,
    contexts=["none", "relevant", "antifactual"],
)
"""80 questions asked under three contexts: 240 replies, and a question cut by the last
`RECENT`."""


def _run(conn: sqlite3.Connection, config: Any, target: Varied, **kw: Any) -> Any:
    return run_blocking(prepare(conn, config=config, target=target, **kw))


@pytest.fixture
def other(conn: sqlite3.Connection, tmp_path: Path):
    """A second connection to the workspace: what another process (a screen) reads."""
    c = connect(tmp_path / "test.db")
    yield c
    c.close()


def _replies(recent: tuple[QueryView, ...]) -> list[str]:
    return [v.reply for v in recent]


@pytest.mark.parametrize("config", [KONTEST, FACTEVAL], ids=["kontest", "facteval"])
def test_a_finished_run_shows_what_its_live_screen_showed(
    conn: sqlite3.Connection, other: sqlite3.Connection, config: Any
) -> None:
    live = _run(conn, config, Varied(fail=230))
    assert live.status == "finished" and len(live.progress.recent) == RECENT
    stored = open_snapshot(other, live.run_id)
    # same questions and replies, labels and kinds, in the same order
    assert stored.progress.recent == live.progress.recent
    assert "server: HTTP 500 on request 230" in _replies(stored.progress.recent)
    assert HOSTILE in _replies(stored.progress.recent)  # as the model wrote it: data, never markup


def test_the_failed_request_shows_as_the_live_screen_showed_it(
    conn: sqlite3.Connection, other: sqlite3.Connection
) -> None:
    config = KontestConfig(kg="country", relations=5, target="sim", concurrency=1)
    live = _run(conn, config, Varied(fail=3))
    stored = open_snapshot(other, live.run_id)
    assert stored.progress.recent == live.progress.recent and len(stored.progress.recent) == 30
    failed = [v for v in stored.progress.recent if v.label == "error"]
    # seq12's first turn failed, so its second was not asked
    assert [v.reply for v in failed] == [
        "server: HTTP 500 on request 3",
        "not asked: the first turn failed",
    ]


def test_a_resumed_run_starts_its_feed_with_what_it_answered(
    conn: sqlite3.Connection, other: sqlite3.Connection
) -> None:
    config = KontestConfig(kg="country", relations=40, target="sim", concurrency=1)
    engine = prepare(conn, config=config, target=Varied())

    def stop_after_first_commit(snap) -> None:
        engine.request_stop()

    engine.on_progress = stop_after_first_commit
    first = run_blocking(engine)
    assert first.status == "stopped" and first.progress.recent
    resumed = prepare(other, resume=first.run_id, target=Varied())
    assert resumed.snapshot().progress.recent == first.progress.recent


@pytest.mark.parametrize("config", [KONTEST, FACTEVAL], ids=["kontest", "facteval"])
def test_a_run_driven_elsewhere_shows_each_commit(
    conn: sqlite3.Connection,
    other: sqlite3.Connection,
    monkeypatch: pytest.MonkeyPatch,
    config: Any,
) -> None:
    """A screen follows the run through its own connection (`StoredRun`): after each commit
    of the driving engine it shows what that engine's live feed shows."""
    monkeypatch.setattr(stored_run, "FOLLOW_S", 0.0)
    followed: list[StoredRun] = []
    seen: list[tuple[int, int]] = []

    def commit(snap) -> None:
        if not followed:  # the screen opens the run once it has a commit
            followed.append(StoredRun(open_snapshot(other, snap.run_id), config.mode, other))
        shown = followed[0].snapshot()
        assert shown.progress.recent == snap.progress.recent
        seen.append((shown.units_done, len(shown.progress.recent)))

    final = _run(conn, config, Varied(), on_progress=commit)
    assert len(seen) >= 3, seen  # several commits, each one read as it came
    assert seen == sorted(seen) and seen[0] < seen[-1]
    assert followed[0].snapshot().progress.recent == final.progress.recent


@pytest.mark.tui
def test_a_stored_runs_screen_shows_the_replies_literally(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    c = connect(db)
    config = KontestConfig(kg="country", relations=3, target="sim", concurrency=1)
    live = _run(c, config, Varied())
    c.close()
    app = make_app(db)

    async def drive() -> None:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            app.open_run(live.run_id)
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LiveScreen) and app.screen.query(ReplyLog),
            )
            log = app.screen.query_one("#mode-replies", ReplyLog)
            await wait_for(pilot, lambda: len(log.blocks) == 18)
            assert [b.plain.splitlines()[-1].split("→ ", 1)[1] for b in log.blocks] == [
                v.reply.strip().replace("\x1b", "␛") for v in live.progress.recent
            ]
            await pilot.press("r")  # the replies on the whole screen
            await wait_for(pilot, lambda: log.region.height > 12)
            await pilot.pause()
            lines = [strip.text for strip in log.lines]
            assert any("[bold]x[/] ␛[2J" in line for line in lines), lines
            assert not any("\x1b" in line for line in lines)

    asyncio.run(drive())
