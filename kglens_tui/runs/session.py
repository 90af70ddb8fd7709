"""A run of any mode in its own process, controlled and watched from a UI.

The UI calls `run()` from a worker thread. It starts the mode's engine in a child process (so a
CPU-hungry run never competes with the UI for the GIL, and a crash in the engine cannot take the
UI down), receives a snapshot a few times a second, and forwards pause, resume, stop and abort.
Both sides speak the dataclasses of `kglens_tui.runs.messages`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.registry import import_modules, plugin_modules
from kglens_tui.core.spawn import start_resource_tracker
from kglens_tui.llm.base import ChatClient
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.messages import (
    Abort,
    Command,
    Done,
    Failed,
    Notice,
    Pause,
    Progress,
    Ready,
    Resume,
    RunSnapshot,
    Stop,
)
from kglens_tui.runs.registry import Engine, get_mode, mode_module
from kglens_tui.store.connection import connect

SNAPSHOT_EVERY_S = 0.2
"""How often the run's process sends its progress to the UI."""
INSIGHTS_EVERY_S = 1.0
"""How often those snapshots bring the costly parts (KGLens: fresh blind spots, per-predicate
rates and the random baseline); the live screens redraw their tables at most as often."""


UI_GONE = "the program that started it ended"
"""Why a run stops when its UI (TUI or CLI) went away without a word: resume continues it."""


STOP_NOW = "Stopping now: what is in flight is dropped (a resume asks it again)."
"""What a UI says when a second stop ends the run without waiting for its requests in flight."""


class RunProcessEnded(KGLensError):
    """The run's process ended without a word (killed, or crashed): `kglens resume` continues."""


def describe(exc: BaseException) -> str:
    """One line for an exception: the message of one a user can act on, else type and message
    (an unexpected failure)."""
    if isinstance(exc, KGLensError) and str(exc):
        return str(exc)
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _tell(pipe: Connection, message: object) -> bool:
    """Send to the UI; False when it is gone (nothing is lost: the run's state is stored)."""
    try:
        pipe.send(message)
    except OSError:  # BrokenPipeError, ConnectionResetError: the UI's end is closed
        return False
    return True


def _child_main(
    db_path: str,
    modules: list[str],
    mode_name: str,
    config_json: str | None,
    resume: int | None,
    target_factory: Callable[[], ChatClient] | None,
    pipe: Connection,
) -> None:
    """The run's process: set the run up, drive it, stream snapshots, obey commands. Ctrl-C in
    a terminal reaches the whole process group; the UI decides what it means, so it is ignored
    here. SIGTERM is not: multiprocessing ends a daemon child with it when its parent exits, and
    waits for it to go."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    async def main() -> None:
        import_modules(modules)
        mode = get_mode(mode_name)
        config = mode.config_type.from_json(config_json) if config_json else None
        loop = asyncio.get_running_loop()
        holder: dict[str, Engine[RunSnapshot]] = {}
        obeyed = 0

        def report(insights: bool) -> bool:
            engine = holder["engine"]
            progress = Progress(
                engine.snapshot(insights=insights), engine.held, engine.stopping, obeyed
            )
            return _tell(pipe, progress)

        def on_command() -> None:
            nonlocal obeyed
            try:
                command: Command = pipe.recv()
            except EOFError:  # the UI went away: keep what is in flight, stop as resumable
                loop.remove_reader(pipe.fileno())
                holder["engine"].obey(Abort(UI_GONE))
                return
            holder["engine"].obey(command)
            obeyed += 1
            report(insights=False)  # the UI sees the new state at once

        async def stream() -> None:
            insights_at = -INSIGHTS_EVERY_S
            while True:
                await asyncio.sleep(SNAPSHOT_EVERY_S)
                insights = loop.time() - insights_at >= INSIGHTS_EVERY_S
                if insights:
                    insights_at = loop.time()
                if not report(insights):
                    holder["engine"].obey(Abort(UI_GONE))
                    return

        def notice(text: str) -> None:
            _tell(pipe, Notice(text))

        conn = connect(db_path, lock_notice=notice)
        try:
            target = target_factory() if target_factory is not None else None
            engine = mode.prepare(conn, config=config, resume=resume, target=target)
            holder["engine"] = engine
            _tell(pipe, Ready(engine.run.id))
            loop.add_reader(pipe.fileno(), on_command)
            while not engine.stopping and pipe.poll():  # given before the run started
                on_command()  # (a pause holds it before its first question)
            streamer = asyncio.ensure_future(stream())
            try:
                final = await mode.drive(engine)
            finally:
                streamer.cancel()
        finally:
            # the run has ended: a command or the UI closing its end (once it has Done) must not
            # reach the engine after its workspace is closed
            loop.remove_reader(pipe.fileno())
            conn.close()
        _tell(pipe, Done(final))

    try:
        asyncio.run(main())
    except Exception as exc:  # reported to the UI as one message, never as a traceback
        _tell(pipe, Failed(describe(exc)))
    finally:
        pipe.close()


class RunSession:
    """One run (new or resumed) of one mode, driven by `run()` on the caller's worker thread.

    ``target_factory`` (a picklable callable, e.g. a class) builds the target in the run's
    process instead of the client its settings name."""

    def __init__(
        self,
        db_path: Path | str,
        mode: str,
        *,
        config: ModeConfig | None = None,
        resume: int | None = None,
        target_factory: Callable[[], ChatClient] | None = None,
    ) -> None:
        self.db_path = str(db_path)
        self.mode = mode
        self.config = config
        self.resume_id = resume
        self.target_factory = target_factory
        self.run_id: int | None = None
        self.error: str = ""
        self.crashed = False
        """True when the run's process ended without a word (killed): its run is resumable."""
        self.notice: str = ""
        """The latest notice from the run's process, e.g. that it waits for a write lock."""
        self.pid: int | None = None
        """The run's process id, once started."""
        self._pipe: Connection | None = None
        self._queued: list[Command] = []
        """Commands given before the run's process started, sent as soon as it has."""
        self._process: multiprocessing.process.BaseProcess | None = None
        self._latest: RunSnapshot | None = None
        self._ready = threading.Event()
        self._finished = threading.Event()
        self._send_lock = threading.Lock()
        self._sent = 0
        """Commands given so far (the engine says how many it has obeyed)."""
        self.obeyed = 0
        """How many of them the engine has obeyed, as it last said."""
        self.held = False
        """The engine is asked to pause (what is in flight finishes first): as it last said, or
        as the commands it has not obeyed yet will leave it."""
        self.stopping = False
        """A stop was asked for (by this UI or another process), in the same way."""

    live = True
    """A session drives its run (a stored run shown on the same screen is not live)."""

    def run(self) -> RunSnapshot | None:
        """Run to the end and return the final snapshot (one of the session's mode: `snapshot_as`
        types it), None on an error; errors are kept in `error`, never raised."""
        try:
            return self._run_in_child()
        except Exception as exc:
            self.error = describe(exc)
            return None
        finally:
            self._ready.set()
            self._finished.set()

    def _run_in_child(self) -> RunSnapshot | None:
        start_resource_tracker()
        modules = [mode_module(self.mode), *plugin_modules()]
        config_json = self.config.validate().to_json() if self.config is not None else None
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=True)
        process = ctx.Process(
            target=_child_main,
            args=(
                self.db_path,
                modules,
                self.mode,
                config_json,
                self.resume_id,
                self.target_factory,
                child,
            ),
            name=f"kglens-{self.mode}",
            daemon=True,
        )
        process.start()
        child.close()
        with self._send_lock:  # a command given meanwhile is queued, then sent here
            self._process, self.pid = process, process.pid
            self._pipe = parent
            for command in self._queued:
                parent.send(command)
            self._queued.clear()
        try:
            return self._receive(parent, process)
        finally:
            with self._send_lock:
                self._pipe = None
            parent.close()
            process.join(10)
            if process.is_alive():
                process.kill()

    def _receive(
        self, parent: Connection, process: multiprocessing.process.BaseProcess
    ) -> RunSnapshot | None:
        gone = "the run's process ended unexpectedly (exit code {})"
        self.crashed = False
        while True:
            if not parent.poll(0.5):
                # what it sent just before it ended may have come after the wait above
                if not process.is_alive() and not parent.poll(0):
                    self.crashed = True
                    raise RunProcessEnded(gone.format(process.exitcode))
                continue
            try:
                message = parent.recv()
            except EOFError:
                process.join(5)
                self.crashed = True
                raise RunProcessEnded(gone.format(process.exitcode)) from None
            if isinstance(message, Ready):
                self.run_id = message.run_id
                self._ready.set()
            elif isinstance(message, Notice):
                self.notice = message.text
            elif isinstance(message, Progress):
                self._latest = message.snapshot
                with self._send_lock:
                    self.obeyed = message.obeyed
                    if message.obeyed >= self._sent:  # else a command is on its way
                        self.held, self.stopping = message.held, message.stopping
            elif isinstance(message, Done):
                self._latest = message.snapshot
                return message.snapshot
            elif isinstance(message, Failed):
                self.error = message.error
                return None

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the run exists (or setting it up failed)."""
        return self._ready.wait(timeout)

    @property
    def finished(self) -> bool:
        """`run` has returned: the run's process has ended (or never started)."""
        return self._finished.is_set()

    def snapshot(self) -> RunSnapshot | None:
        """The latest progress (as `run` returns it), or None before the run exists."""
        return self._latest

    def _command(self, command: Command) -> None:
        """Send a command to the run's process, or keep it until the process has started (a
        pause or stop given early is never lost)."""
        with self._send_lock:
            if self._pipe is None:
                if self._process is not None:
                    return  # the run's process already ended
                self._queued.append(command)
            else:
                try:
                    self._pipe.send(command)
                except (OSError, ValueError):
                    return  # the run's process already ended
            self._sent += 1
            self._expect(command)

    def _expect(self, command: Command) -> None:
        """The control state the engine will be in once it obeys ``command``."""
        if isinstance(command, Stop | Abort):
            self.held, self.stopping = False, True
        elif not self.stopping:  # a stopping engine ignores pause and resume
            self.held = isinstance(command, Pause)

    def pause(self) -> None:
        """Hold before the next iteration or unit (what is in flight finishes)."""
        self._command(Pause())

    def resume(self) -> None:
        self._command(Resume())

    def toggle_pause(self) -> bool:
        """Pause a going run, resume a held one; True when it paused."""
        held = self.held
        if held:
            self.resume()
        else:
            self.pause()
        return not held

    def stop(self, now: bool = False) -> None:
        """Finish and commit what is in flight, then end the run (``now``: drop what is in
        flight instead, as stopped; a resume asks it again)."""
        self._command(Stop(now))

    def abort(self, reason: str) -> None:
        """End now: cancel the requests in flight, commit what is whole (a KGLens run drops
        its iteration in progress; a unit mode keeps each answered unit) and store the run as
        interrupted with this reason."""
        self._command(Abort(reason))

    def kill(self) -> None:
        """End the run's process at once (when `abort` was not obeyed in time); what it had
        committed stays, what was in flight is lost."""
        process = self._process
        if process is not None and process.is_alive():
            process.kill()
