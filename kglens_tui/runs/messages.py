"""What a run's child process and the UI say to each other over their pipe."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from kglens_tui.llm.usage import Counters
from kglens_tui.runs.progress import RunProgress


class RunSnapshot(Protocol):
    """What the harness reads of any mode's snapshot (KGLens's `ProbeSnapshot`, a unit mode's
    `ModeSnapshot`): an immutable copy of a run's progress, safe to hand to another thread."""

    @property
    def run_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def progress(self) -> RunProgress[object]: ...
    @property
    def stop_reason(self) -> str: ...
    @property
    def error(self) -> str: ...
    @property
    def helpers(self) -> dict[str, Counters]:
        """Calls of the generator, paraphraser or judge, apart from the target's."""
        ...


SnapshotT = TypeVar("SnapshotT", bound=RunSnapshot)
"""A mode's snapshot type."""
SnapshotT_co = TypeVar("SnapshotT_co", bound=RunSnapshot, covariant=True)
"""A mode's snapshot type where it is only given out (an engine, a mode)."""


def snapshot_as(snapshot: RunSnapshot | None, kind: type[SnapshotT]) -> SnapshotT | None:
    """``snapshot`` typed as its mode's ``kind`` (None stays None); TypeError when it is a
    snapshot of another kind."""
    if snapshot is None or isinstance(snapshot, kind):
        return snapshot
    raise TypeError(f"a {type(snapshot).__name__}, not a {kind.__name__}")


@dataclass(frozen=True)
class Ready:
    """The run exists (created or claimed for a resume)."""

    run_id: int


@dataclass(frozen=True)
class Notice:
    """Something the user should know while the run goes on (e.g. it waits for a write lock)."""

    text: str


@dataclass(frozen=True)
class Progress:
    """The engine's latest snapshot and control state, sent a few times a second and at once
    after each command it obeyed."""

    snapshot: RunSnapshot
    held: bool = False
    """Asked to pause and not resumed since."""
    stopping: bool = False
    """A stop was asked for (by the UI or another process)."""
    obeyed: int = 0
    """How many of the UI's commands the engine has obeyed so far."""


@dataclass(frozen=True)
class Done:
    """The run ended (finished, stopped, failed by the failure rule or interrupted)."""

    snapshot: RunSnapshot


@dataclass(frozen=True)
class Failed:
    """Setting up or driving the run raised: one line, never a traceback."""

    error: str


ChildMessage = Ready | Notice | Progress | Done | Failed


@dataclass(frozen=True)
class Pause:
    """Hold before the next iteration or unit."""


@dataclass(frozen=True)
class Resume:
    """Go on after a pause."""


@dataclass(frozen=True)
class Stop:
    """Finish and commit what is in flight, then end the run (``now``: drop what is in flight
    instead; a resume asks it again)."""

    now: bool = False


@dataclass(frozen=True)
class Abort:
    """End now: cancel what is in flight, commit what is answered, store as interrupted."""

    reason: str


Command = Pause | Resume | Stop | Abort
