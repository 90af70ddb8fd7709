"""The target's counters live once, in the shared run engine (`RunEngine.counters`), for
KGLens and a unit mode alike: every snapshot's `RunProgress` header carries them, and they are
what the run stored (`target_usage`)."""

from __future__ import annotations

import sqlite3

from toy_mode import ToyConfig

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.usage import Counters
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine, ProbeSnapshot, ReplyView
from kglens_tui.runs.lifecycle import RunEngine
from kglens_tui.runs.progress import RunProgress
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.runs.units import ModeEngine, ModeSnapshot, QueryView
from kglens_tui.store.target_usage import load_target_usage

EDGES = 12
FAIL = 5


class Counted:
    """Answers Yes with 7 prompt and 2 reply tokens after one retry; request ``fail`` fails
    after two retries."""

    label = "counted"
    simulated = False

    def __init__(self, fail: int = 0) -> None:
        self.calls = 0
        self.fail = fail

    async def complete(self, request: ChatRequest) -> Completion:
        self.calls += 1
        if self.calls == self.fail:
            raise LLMError("server", f"HTTP 500 on request {self.calls}", retries=2)
        return Completion("Yes.", 7, 2, 0.001, retries=1)

    async def aclose(self) -> None:
        return None


def test_a_unit_mode_counts_in_the_shared_engine(conn: sqlite3.Connection) -> None:
    engine = prepare(conn, config=ToyConfig(kg="country", edges=EDGES), target=Counted(FAIL))
    assert isinstance(engine, ModeEngine) and isinstance(engine, RunEngine)
    snap = run_blocking(engine)
    assert isinstance(snap, ModeSnapshot) and isinstance(snap.progress, RunProgress)
    answered = EDGES - 1
    assert (
        snap.progress.counters
        == engine.counters
        == Counters(
            requests=EDGES,
            errors=1,
            retries=answered + 2,
            prompt_tokens=7 * answered,
            completion_tokens=2 * answered,
        )
    )
    assert snap.status == snap.progress.status == "finished"
    assert len(snap.progress.recent) == EDGES
    assert all(isinstance(v, QueryView) for v in snap.progress.recent)
    assert load_target_usage(conn, snap.run_id) == engine.counters.values()
    stored = open_snapshot(conn, snap.run_id)
    assert stored.progress.counters == engine.counters


def test_a_kglens_run_counts_in_the_shared_engine(conn: sqlite3.Connection) -> None:
    config = RunConfig(
        kg="country", batch_size=8, iterations=2, concurrency=1, stop_on_convergence=False
    )
    engine = prepare(conn, config=config, target=Counted(FAIL))
    assert isinstance(engine, ProbeEngine)
    seen: list[Counters] = []
    engine.on_progress = lambda s: seen.append(s.progress.counters)
    snap = run_blocking(engine)
    assert isinstance(snap, ProbeSnapshot)
    requests = 2 * 8
    assert snap.progress.counters == engine.counters
    assert (engine.counters.requests, engine.counters.errors) == (requests, 1)
    assert engine.counters.retries == (requests - 1) + 2
    assert engine.counters.tokens == 9 * (requests - 1)
    assert seen[0].requests == 8 and seen[-1] == engine.counters, "each commit adds its own"
    assert all(isinstance(v, ReplyView) for v in snap.progress.recent)
    assert len(snap.progress.recent) == requests
    assert load_target_usage(conn, snap.run_id) == engine.counters.values()
    assert open_snapshot(conn, snap.run_id).progress.counters == engine.counters
