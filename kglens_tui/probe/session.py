"""A probing run in its own process, controlled and watched from a UI.

The UI calls `run()` from a worker thread. It starts the engine in a child process (so a CPU-hungry
run never competes with the UI for the GIL, and a crash in the engine cannot take the UI down),
receives a snapshot a few times a second, and forwards `pause()`, `resume()` and `stop()`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from kglens_tui.core.spawn import start_resource_tracker
from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.engine import ProbeEngine, ProbeSnapshot
from kglens_tui.probe.runner import drive, prepare
from kglens_tui.store.connection import connect

SNAPSHOT_EVERY_S = 0.2
"""How often the probe process sends its progress to the UI."""
INSIGHTS_EVERY_S = 1.0
"""How often those snapshots bring fresh blind spots, per-predicate rates and the random baseline
(the live screen redraws its tables at most as often)."""


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


async def _drive(
    db_path: str,
    config: RunConfig | None,
    resume: int | None,
    on_engine: Callable[[ProbeEngine], None],
    on_notice: Callable[[str], None],
) -> ProbeSnapshot:
    conn = connect(db_path, lock_notice=on_notice)
    try:
        engine = prepare(conn, config=config, resume=resume)
        on_engine(engine)
        return await drive(engine)
    finally:
        conn.close()


def _child_main(
    db_path: str, config_json: str | None, resume: int | None, pipe: Connection
) -> None:
    """The probe process: run the engine, stream snapshots, obey pause / resume / stop."""
    config = RunConfig.from_json(config_json) if config_json else None

    async def main() -> None:
        loop = asyncio.get_running_loop()
        holder: dict[str, ProbeEngine] = {}

        def on_command() -> None:
            try:
                command = pipe.recv()
            except EOFError:  # the UI went away: finish this iteration and stop
                command = "stop"
                loop.remove_reader(pipe.fileno())
            engine = holder.get("engine")
            if engine is None:
                return
            if isinstance(command, tuple):  # ("abort", reason)
                engine.abort(command[1])
                return
            {"pause": engine.pause, "resume": engine.resume, "stop": engine.request_stop}[command]()

        def on_engine(engine: ProbeEngine) -> None:
            holder["engine"] = engine
            pipe.send(("ready", engine.run.id))
            loop.add_reader(pipe.fileno(), on_command)

        async def stream() -> None:
            insights_at = -INSIGHTS_EVERY_S
            while True:
                await asyncio.sleep(SNAPSHOT_EVERY_S)
                if "engine" in holder:
                    insights = loop.time() - insights_at >= INSIGHTS_EVERY_S
                    if insights:
                        insights_at = loop.time()
                    pipe.send(("snapshot", holder["engine"].snapshot(insights=insights)))

        streamer = asyncio.ensure_future(stream())
        try:
            final = await _drive(
                db_path, config, resume, on_engine, lambda text: pipe.send(("notice", text))
            )
        finally:
            streamer.cancel()
        pipe.send(("done", final))

    try:
        asyncio.run(main())
    except Exception as exc:  # reported to the UI as one message, never as a traceback
        pipe.send(("error", _describe(exc)))
    finally:
        pipe.close()


class ProbeSession:
    """One run (new or resumed), driven by `run()` on the caller's worker thread."""

    def __init__(
        self,
        db_path: Path | str,
        *,
        config: RunConfig | None = None,
        resume: int | None = None,
    ) -> None:
        self.db_path = str(db_path)
        self.config = config
        self.resume_id = resume
        self.run_id: int | None = None
        self.error: str = ""
        self.notice: str = ""
        """The latest message from the probe process, e.g. that it waits for a write lock."""
        self._pipe: Connection | None = None
        self._queued: list[str | tuple[str, str]] = []
        """Commands given before the probe process started, sent as soon as it has."""
        self._process: multiprocessing.process.BaseProcess | None = None
        self._latest: ProbeSnapshot | None = None
        self._ready = threading.Event()
        self._send_lock = threading.Lock()

    def run(self) -> ProbeSnapshot | None:
        """Run to the end; errors are kept in `error`, never raised."""
        try:
            return self._run_in_child()
        except Exception as exc:
            self.error = _describe(exc)
            return None
        finally:
            self._ready.set()

    def _run_in_child(self) -> ProbeSnapshot | None:
        start_resource_tracker()
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=True)
        config_json = self.config.validate().to_json() if self.config is not None else None
        process = ctx.Process(
            target=_child_main,
            args=(self.db_path, config_json, self.resume_id, child),
            name="kglens-probe",
            daemon=True,
        )
        process.start()
        child.close()
        self._process = process
        with self._send_lock:
            self._pipe = parent
            for command in self._queued:
                parent.send(command)
            self._queued.clear()
        try:
            while True:
                if not parent.poll(0.5):
                    if not process.is_alive():
                        raise RuntimeError(
                            f"the probe process ended unexpectedly (exit code {process.exitcode})"
                        )
                    continue
                try:
                    kind, payload = parent.recv()
                except EOFError:
                    process.join(5)
                    raise RuntimeError(
                        f"the probe process ended unexpectedly (exit code {process.exitcode})"
                    ) from None
                if kind == "ready":
                    self.run_id = payload
                    self._ready.set()
                elif kind == "notice":
                    self.notice = payload
                elif kind == "snapshot":
                    self._latest = payload
                elif kind == "done":
                    self._latest = payload
                    return payload
                elif kind == "error":
                    self.error = payload
                    return None
        finally:
            with self._send_lock:
                self._pipe = None
            parent.close()
            process.join(10)
            if process.is_alive():
                process.kill()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the run exists (or setting it up failed)."""
        return self._ready.wait(timeout)

    def snapshot(self) -> ProbeSnapshot | None:
        """The latest progress, or None before the run exists."""
        return self._latest

    def _command(self, command: str | tuple[str, str]) -> None:
        """Send a command to the probe process, or keep it until the process has started (a
        pause or stop given early is never lost)."""
        with self._send_lock:
            if self._pipe is None:
                if self._process is None:
                    self._queued.append(command)
                return  # None after a start: the probe process already ended
            try:
                self._pipe.send(command)
            except (OSError, ValueError):
                return  # the probe process already ended

    pause_requested = False
    """The last of pause / resume asked (the engine's own state is the snapshot's status)."""

    def pause(self) -> None:
        """Hold before the next iteration (the current one finishes)."""
        self.pause_requested = True
        self._command("pause")

    def resume(self) -> None:
        self.pause_requested = False
        self._command("resume")

    def stop(self) -> None:
        """Finish and commit the current iteration, then end the run."""
        self._command("stop")

    def abort(self, reason: str) -> None:
        """End now: cancel the requests in flight, commit the whole iterations already answered
        and store the run as interrupted with this reason."""
        self._command(("abort", reason))

    def kill(self) -> None:
        """End the probe process at once (when `abort` was not obeyed in time); what it had
        committed stays, the iteration it was on is lost."""
        process = self._process
        if process is not None and process.is_alive():
            process.kill()
