"""A resume writes the run's status once, however it arrives: from the UI driving the run, or
from another process through the workspace, to a run paused or still pausing."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from conftest import wait_for

from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs import lifecycle
from kglens_tui.runs.runner import prepare


class Gated:
    """Answers "Yes." once the test lets a request through (all of them once ``opened``)."""

    label = "gated"
    simulated = False

    def __init__(self) -> None:
        self.waiting = 0
        self.passes = asyncio.Semaphore(0)
        self.opened = False

    async def complete(self, request: ChatRequest) -> Completion:
        self.waiting += 1
        if not self.opened:
            await self.passes.acquire()
        self.waiting -= 1
        return Completion("Yes.", 3, 1, 0.0)

    def open(self) -> None:
        self.opened = True
        for _ in range(self.waiting):
            self.passes.release()

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize("how", ["this process", "another process", "while pausing"])
def test_a_resume_stores_running_once(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    writes: list[str] = []
    store = lifecycle.mark_going

    def recorded(c: sqlite3.Connection, run_id: int, status: str) -> None:
        writes.append(str(status))
        store(c, run_id, status)

    monkeypatch.setattr(lifecycle, "mark_going", recorded)
    target = Gated()
    config = RunConfig(kg="country", batch_size=2, iterations=3, stop_on_convergence=False)
    engine = prepare(conn, config=config, target=target)

    def stored() -> str:
        return conn.execute("SELECT status FROM run WHERE id = ?", (engine.run.id,)).fetchone()[0]

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        await wait_for(None, lambda: target.waiting == 2, describe="the first batch out")
        engine.pause()
        if how == "while pausing":
            await wait_for(
                None, lambda: stored() == "pausing", describe="pausing stored by the poll"
            )
            engine.resume()
            await wait_for(
                None, lambda: stored() == "running", describe="running stored by the poll"
            )
            mark = writes.index("pausing")
            target.open()
        else:
            target.passes.release()
            target.passes.release()
            await wait_for(None, lambda: stored() == "paused", describe="paused once idle")
            mark = writes.index("paused")
            if how == "another process":
                conn.execute("UPDATE run SET control = 'resume' WHERE id = ?", (engine.run.id,))
            else:
                engine.resume()
            await wait_for(None, lambda: target.waiting == 2, describe="the next batch out")
            target.open()
        final = await task
        assert final.status == "finished" and final.iteration == 3
        assert writes[mark + 1 :] == ["running"], writes

    asyncio.run(go())
