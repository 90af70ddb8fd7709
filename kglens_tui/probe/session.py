"""A probing run on its own thread and event loop, controlled from another thread (a UI).

The UI calls `run()` from a worker thread, polls `snapshot()` a few times a second, and calls
`pause()`, `resume()` and `stop()` from its own thread; those hop onto the engine's loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

from kglens_tui.llm.base import ChatClient
from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.engine import ProbeEngine, ProbeSnapshot
from kglens_tui.probe.runner import prepare
from kglens_tui.store.connection import connect


class ProbeSession:
    """One run (new or resumed) driven on the calling thread by `run()`."""

    def __init__(
        self,
        db_path: Path | str,
        *,
        config: RunConfig | None = None,
        resume: int | None = None,
        target_factory: Callable[[], ChatClient] | None = None,
    ) -> None:
        self.db_path = db_path
        self.config = config
        self.resume_id = resume
        self.target_factory = target_factory
        self.engine: ProbeEngine | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._last: ProbeSnapshot | None = None
        self.error: str = ""

    def run(self) -> ProbeSnapshot | None:
        """Set up and run to the end on this thread; errors are kept in `error`, not raised."""
        try:
            return asyncio.run(self._main())
        except Exception as exc:  # reported to the UI as a message, never as a traceback
            self.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            return None
        finally:
            self._ready.set()

    async def _main(self) -> ProbeSnapshot:
        self._loop = asyncio.get_running_loop()
        conn = connect(self.db_path)
        target = self.target_factory() if self.target_factory else None
        try:
            self.engine = prepare(conn, config=self.config, resume=self.resume_id, target=target)
            self._ready.set()
            try:
                result = await self.engine.run_to_end()
            finally:
                for client in (self.engine.target, self.engine.generator, self.engine.judge):
                    if client is not None:
                        await client.aclose()
            self._last = result
            return result
        finally:
            conn.close()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the run exists (or setting it up failed)."""
        return self._ready.wait(timeout)

    @property
    def run_id(self) -> int | None:
        return self.engine.run.id if self.engine is not None else None

    def snapshot(self) -> ProbeSnapshot | None:
        """The latest progress, or None before the run exists."""
        if self.engine is None:
            return self._last
        return self.engine.snapshot()

    def _call(self, method: str) -> None:
        if self.engine is None or self._loop is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(getattr(self.engine, method))

    def pause(self) -> None:
        """Hold before the next iteration (the current one finishes)."""
        self._call("pause")

    def resume(self) -> None:
        self._call("resume")

    def stop(self) -> None:
        """Finish and commit the current iteration, then end the run."""
        self._call("request_stop")
