"""Probing modes by name: the built-in three, modes registered at run time, and plugins.

A mode is found by the name stored in `run.mode`. The built-in modes are imported on first use
(the harness imports no mode). A plugin package adds one through the entry-point group
``kglens_tui.modes`` (the entry point names an object with the `Mode` attributes) or by calling
`register` (see `kglens_tui.core.registry`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from kglens_tui.core.registry import Registry, UnknownNameError
from kglens_tui.llm.base import ChatClient
from kglens_tui.runs.commands import CommandGroup
from kglens_tui.runs.config import ConfigT_co, ModeConfig
from kglens_tui.runs.headline import Headline
from kglens_tui.runs.messages import Command, RunSnapshot, SnapshotT_co
from kglens_tui.runs.panels import LiveLayout, Panel
from kglens_tui.runs.progress import Advance

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kglens_tui.runs.record import RunRecord  # it imports this module

ENTRY_POINT_GROUP = "kglens_tui.modes"
BUILTIN = {
    "kglens": "kglens_tui.modes.kglens.mode",
    "kontest": "kglens_tui.modes.kontest.mode",
    "facteval": "kglens_tui.modes.facteval.mode",
}
"""Built-in mode name -> the module that registers it."""
DEFAULT_MODE = "kglens"
"""The mode a new run takes where none is chosen (the app's first run, the form's own
fields): `default_mode`."""


class UnknownModeError(UnknownNameError):
    """No mode of that name is registered."""


class Engine(Protocol[SnapshotT_co]):
    """What the harness drives: one run's loop, controlled from the same event loop; its
    snapshots are of type ``SnapshotT_co`` (its mode's)."""

    mode: str
    """The name of its mode."""

    @property
    def run(self) -> RunRecord[ModeConfig]: ...
    def snapshot(self, insights: bool = True) -> SnapshotT_co: ...
    def progress_snapshot(self) -> SnapshotT_co: ...
    def obey(self, command: Command) -> None: ...
    @property
    def held(self) -> bool: ...
    @property
    def stopping(self) -> bool: ...


class Mode(Protocol[ConfigT_co, SnapshotT_co]):
    """A probing mode: how to set up a run of it, drive it, and look at a stored one. Generic
    over its settings (``ConfigT_co``) and snapshot (``SnapshotT_co``) types; the harness holds
    every mode as a `Mode[ModeConfig, RunSnapshot]` and a mode checks the settings it is given
    (a `ConfigError` for another mode's)."""

    name: str
    """Stored in `run.mode`."""
    label: str
    """How lists and titles name it."""
    compare: str
    """The command (its words after ``kglens``) that sets runs of the mode side by side; ""
    when it has none."""
    report: str
    """The command (its words after ``kglens``) that shows a stored run's report; "" when it
    has none."""
    observations: bool
    """Whether its runs store each reply as an `observation` row (edge, question, reply,
    verdict): what search, annotation rounds, re-verification and the runs list's rate columns
    read. A mode without them gives its figures as a `headline` and its `results`."""
    headline_note: str
    """How `kglens runs` words the mode's `headline` in the note under the list ("" none)."""

    @property
    def command(self) -> str:
        """The command (its words after ``kglens``) that starts a run of the mode; with
        ``--resume RUN`` it continues a stored one (`kglens run NAME` by default)."""
        ...

    @property
    def config_type(self) -> type[ConfigT_co]:
        """Its settings dataclass: `ModeConfig` and the mode's own fields."""
        ...

    def prepare(
        self,
        conn: sqlite3.Connection,
        *,
        config: ModeConfig | None = None,
        resume: int | None = None,
        name: str = "",
        target: ChatClient | None = None,
        generator: ChatClient | None = None,
        on_progress: Callable[[SnapshotT_co], None] | None = None,
    ) -> Engine[SnapshotT_co]:
        """An engine for a new run (config) or a stored one (resume); ``target`` and
        ``generator`` replace the clients its settings name; ``on_progress`` gets a snapshot
        after each commit."""
        ...

    def drive(self, engine: Engine[RunSnapshot]) -> Awaitable[SnapshotT_co]:
        """Run the engine (one its `prepare` made) to its end, close its clients, return the
        final snapshot."""
        ...

    def advance(self, snapshot: RunSnapshot) -> Advance:
        """How far a run of the mode is (its snapshot), as the command line's progress and
        final lines say it."""
        ...

    def progress_lines(self, snapshot: RunSnapshot) -> list[str]:
        """The mode's figures under the command line's progress line (none: [])."""
        ...

    def quit_question(self, snapshot: RunSnapshot | None) -> str:
        """What quitting the app while a run of the mode is active asks: what it drops (what is in
        flight) and keeps."""
        ...

    quit_ending: str
    """What the app says of that run while a confirmed quit ends it ("dropping the iteration in
    progress")."""

    def start_note(self, config: ModeConfig) -> str:
        """What the command line's start line says of a run's own settings after its KG, edges
        and target ("" none), e.g. KGLens's difficulty and sampler."""
        ...

    def open_snapshot(self, conn: sqlite3.Connection, run_id: int) -> SnapshotT_co:
        """A stored run's progress and metrics, without contacting its target."""
        ...

    def headline(self, conn: sqlite3.Connection, run_id: int) -> Headline | None:
        """A stored run's headline figures, each rate with its interval, n and what chance
        scores, for home's detail and `kglens runs`; None when they cannot be read, or when the
        runs list's rate columns hold them (`observations`)."""
        ...

    def results(
        self, conn: sqlite3.Connection, run_id: int, compare: bool
    ) -> tuple[str, list[RenderableType]] | None:
        """A stored run's results as a screen shows them: a title and tables, the run's report
        or (``compare``) its comparison with the runs it is compared with by default; None when
        the mode shows a stored run on its live screen. LookupError / ValueError: nothing to
        show (no such run, nothing to compare with)."""
        ...

    # what the live screen shows of a run of the mode
    live_layout: LiveLayout
    """The parts its live screen is made of: its declared panels (a unit mode's), or a
    probe's (KGLens's)."""
    live_help: str
    """What the live screen's help says of the mode's figures (markdown, under the keys)."""

    def first_run(self, config: ModeConfig, local: bool) -> ModeConfig:
        """The app's first run of the mode (its welcome, when it is the `default_mode`) from
        its default settings ``config`` (``local``: on the local model): what shows the
        mode's figures soonest there."""
        ...

    def live_panels(self, snapshot: RunSnapshot) -> list[Panel]:
        """What the live screen shows of one of its snapshots (a run live or stored) beside
        the progress: its figures as tables of literal text; none for another mode's snapshot.
        KGLens declares its blind spots (its layout, `LiveLayout.PROBE`, lays them out beside
        parts of its own: rate cards, per-predicate rates, a chart)."""
        ...

    def report_panels(self, conn: sqlite3.Connection, run_id: int, latest: int = 15) -> list[Panel]:
        """A stored run's report as tables and lines of literal text, shown by one renderer
        per medium: `kglens report RUN` and the mode's `report` command, its results screen and
        its HTML report (``latest``: how many of its latest findings to list); none when the
        mode's report is its own (KGLens's, read from its observations). LookupError: no run
        ``run_id`` of the mode."""
        ...

    @property
    def command_group(self) -> CommandGroup | None:
        """Its own commands on the command line (`kglens consistency ...`); None when it has
        none beyond `kglens run NAME` and the shared ones (KGLens's are top-level)."""
        ...


AnyMode = Mode[ModeConfig, RunSnapshot]
"""A mode of any settings and snapshot types, as the registry holds it."""

MODES: Registry[AnyMode] = Registry("probing mode", ENTRY_POINT_GROUP, BUILTIN, UnknownModeError)


def register(mode: AnyMode, module: str | None = None) -> AnyMode:
    """Make ``mode`` available by its name (replacing one of the same name); ``module`` is where
    a child process finds it (default: the module that defines its class)."""
    return MODES.register(mode.name, mode, module or type(mode).__module__)


def get_mode(name: str) -> AnyMode:
    """The mode called ``name``; UnknownModeError names the known ones."""
    return MODES.get(name)


def default_mode() -> AnyMode:
    """The mode a new run takes where none is chosen (`DEFAULT_MODE`)."""
    return get_mode(DEFAULT_MODE)


def mode_of_config(config: object) -> AnyMode:
    """The mode whose settings ``config`` holds; UnknownModeError when none has that type."""
    for name in mode_names():
        mode = get_mode(name)
        config_type: object = mode.config_type
        if type(config) is config_type:
            return mode
    raise UnknownModeError(f"no probing mode takes settings of type {type(config).__name__}")


def mode_names() -> list[str]:
    """Every mode's name: the built-in ones first, then the registered and plugin ones."""
    return MODES.names()


def mode_module(name: str) -> str:
    """The module a child process imports to find the mode called ``name``."""
    return MODES.module(name)


def find_mode(name: str) -> AnyMode | None:
    """The mode called ``name``; None for an unknown one (a stored run of a plugin not installed
    here)."""
    try:
        return get_mode(name)
    except UnknownModeError:
        return None


def stores_observations(name: str) -> bool:
    """Whether runs of the mode called ``name`` store observation rows (`Mode.observations`);
    False for an unknown mode."""
    mode = find_mode(name)
    return mode is not None and mode.observations


def observing_modes() -> list[str]:
    """The modes whose runs store observation rows (`Mode.observations`): what annotation
    rounds sample and the rates analyses and comparisons read."""
    return [name for name in mode_names() if stores_observations(name)]


def mode_of_label(label: str) -> AnyMode | None:
    """The mode lists name ``label`` (`mode_label`); None for an unknown one."""
    for name in mode_names():
        if mode_label(name) == label:
            return get_mode(name)
    return None


def mode_label(name: str) -> str:
    """How lists name a mode; an unknown mode (a plugin not installed here) shows its name."""
    mode = find_mode(name)
    return name if mode is None else mode.label
