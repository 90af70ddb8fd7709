"""Create or resume a KONTEST / facteval run, drive it, or look at it without its target."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError
from pathlib import Path

from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.llm.base import ChatClient
from kglens_tui.modes.config import FACTEVAL, KONTEST, FactevalConfig, KontestConfig
from kglens_tui.modes.engine import ModeEngine, ModeSnapshot
from kglens_tui.modes.facteval import FactevalEngine
from kglens_tui.modes.facteval_plan import PlannedQuestion, plan_facteval
from kglens_tui.modes.kontest import KontestEngine
from kglens_tui.modes.kontest_plan import KontestPlan, plan_kontest
from kglens_tui.modes.store import create_mode_run, load_mode_run, plan_edge_ids
from kglens_tui.probe.runner import ViewOnlyTarget, helper_client, target_client
from kglens_tui.store.connection import connect

ENGINES: dict[str, type[ModeEngine]] = {KONTEST: KontestEngine, FACTEVAL: FactevalEngine}


def _plan(
    conn: sqlite3.Connection, kg: KGIndex, config: KontestConfig | FactevalConfig
) -> KontestPlan | list[PlannedQuestion]:
    """The new run's plan, or a ValueError when it would ask nothing."""
    if isinstance(config, KontestConfig):
        plan = plan_kontest(conn, kg, config)
        if not plan.relations:
            raise ValueError(f"nothing to test in KG '{kg.name}' with these settings")
        return plan
    questions = plan_facteval(conn, kg, config)
    if not questions:
        raise ValueError(f"no questions to ask in KG '{kg.name}' with these settings")
    return questions


def prepare_mode(
    conn: sqlite3.Connection,
    *,
    config: KontestConfig | FactevalConfig | None = None,
    resume: int | None = None,
    name: str = "",
    target: ChatClient | None = None,
    generator: ChatClient | None = None,
    on_progress: Callable[[ModeSnapshot], None] | None = None,
) -> ModeEngine:
    """An engine for a new run (config: its mode decides KONTEST or facteval) or a stored one
    (resume: asks what is missing and what failed). ``target`` and ``generator`` replace the
    clients the config names."""
    if resume is not None:
        run = load_mode_run(conn, resume)
        kg = load_kg(conn, run.kg_name)
        if run.manifest.get("kg_content_hash") not in (None, kg.content_hash):
            raise ValueError(
                f"KG '{kg.name}' changed since run {run.id} started (content hash differs): "
                "start a new run"
            )
        client = target or target_client(run.config, kg, run.edge_ids)
    else:
        if config is None:
            raise ValueError("a new run needs a config")
        config.validate()
        ensure_kg(conn, config.kg)
        kg = load_kg(conn, config.kg)
        plan = _plan(conn, kg, config)
        client = target or target_client(config, kg, plan_edge_ids(plan))
        run = load_mode_run(conn, create_mode_run(conn, kg, config, client, plan, name=name))
    return ENGINES[run.mode](
        conn,
        run,
        kg,
        client,
        generator=generator or helper_client(run.config.generator, run.config),
        on_progress=on_progress,
    )


async def drive(engine: ModeEngine) -> ModeSnapshot:
    """Run an engine to its end and close its clients."""
    try:
        return await engine.run_to_end()
    finally:
        for client in (engine.target, engine.generator):
            if client is not None:
                await client.aclose()


def run_blocking(engine: ModeEngine) -> ModeSnapshot:
    """Run an engine to its end on a fresh event loop (for the CLI and tests)."""
    return asyncio.run(drive(engine))


def open_mode_snapshot(conn: sqlite3.Connection, run_id: int) -> ModeSnapshot:
    """A stored run's progress and metrics, without contacting its target."""
    run = load_mode_run(conn, run_id)
    kg = load_kg(conn, run.kg_name)
    engine = ENGINES[run.mode](conn, run, kg, ViewOnlyTarget(run.target_label, run.simulated))
    engine.status, engine.stop_reason, engine.error = run.status, run.stop_reason, run.error
    return engine.snapshot()


class ModeSession:
    """One mode run driven by `run()` on the caller's worker thread (a UI's), with `snapshot()`,
    `pause()`, `resume()` and `stop()` safe to call from any other thread."""

    def __init__(
        self,
        db_path: Path | str,
        *,
        config: KontestConfig | FactevalConfig | None = None,
        resume: int | None = None,
        target_factory: Callable[[], ChatClient] | None = None,
    ) -> None:
        self.db_path = str(db_path)
        self.config = config
        self.resume_id = resume
        self.target_factory = target_factory
        self.run_id: int | None = None
        self.error = ""
        self._engine: ModeEngine | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._final: ModeSnapshot | None = None
        self._latest: ModeSnapshot | None = None
        self._queued: list[tuple[str, tuple]] = []
        """Commands given before the engine existed, applied as soon as it does."""
        self._lock = threading.Lock()

    live = True
    """A session drives its run (a stored run shown on the same screen is not live)."""

    def run(self) -> ModeSnapshot | None:
        """Run to the end; errors are kept in `error`, never raised."""
        try:
            self._final = asyncio.run(self._main())
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        finally:
            self._ready.set()
        return self._final

    async def _main(self) -> ModeSnapshot:
        conn = connect(self.db_path)
        try:
            target = self.target_factory() if self.target_factory else None
            engine = prepare_mode(conn, config=self.config, resume=self.resume_id, target=target)
            with self._lock:
                self._engine, self.run_id = engine, engine.run.id
                self._loop = asyncio.get_running_loop()
                for method, args in self._queued:
                    getattr(engine, method)(*args)
                self._queued.clear()
            self._ready.set()
            return await drive(engine)
        finally:
            conn.close()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the run exists (or setting it up failed)."""
        return self._ready.wait(timeout)

    def snapshot(self) -> ModeSnapshot | None:
        """The latest progress, or None before the run exists. Taken on the run's own event
        loop, so the engine's state is never read while it changes."""
        if self._final is not None:
            return self._final
        loop, engine = self._loop, self._engine
        if loop is None or engine is None or loop.is_closed():
            return self._latest

        async def take() -> ModeSnapshot:
            return engine.snapshot()

        try:
            self._latest = asyncio.run_coroutine_threadsafe(take(), loop).result(timeout=1.0)
        except (TimeoutError, RuntimeError, CancelledError):
            return self._latest
        return self._latest

    def _call(self, method: str, *args: object) -> None:
        """Call an engine method on the run's event loop, or keep the call until the engine
        exists (a pause or stop given early is never lost)."""
        with self._lock:
            loop, engine = self._loop, self._engine
            if engine is None:
                if self._final is None and not self.error:
                    self._queued.append((method, args))
                return
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(getattr(engine, method), *args)
            except RuntimeError:
                return  # the run's event loop closed meanwhile: the run has ended

    pause_requested = False
    """The last of pause / resume asked (the engine's own state is the snapshot's status)."""

    def pause(self) -> None:
        self.pause_requested = True
        self._call("pause")

    def resume(self) -> None:
        self.pause_requested = False
        self._call("resume")

    def stop(self) -> None:
        """Finish the units in flight, commit them, then end the run."""
        self._call("request_stop")

    def abort(self, reason: str) -> None:
        """End now: cancel the units in flight, commit the finished ones and store the run as
        interrupted with this reason."""
        self._call("abort", reason)
