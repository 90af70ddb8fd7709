"""The header every mode's snapshot starts with: the run's status, the target's counters and its
latest replies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from kglens_tui.llm.usage import Counters
from kglens_tui.textfmt import counted

ViewT_co = TypeVar("ViewT_co", covariant=True)
"""How a mode's live screen shows one reply (KGLens's `ReplyView`, a unit mode's `QueryView`)."""


@dataclass(frozen=True)
class RunProgress(Generic[ViewT_co]):
    """A run's progress as every mode has it: embedded by `ProbeSnapshot` and `ModeSnapshot`,
    read by the live screens and the commands' progress lines."""

    status: str
    """A `RunStatus` value."""
    counters: Counters
    """The target's requests, failures, retries, tokens and dropped requests, stored and this
    session's (`RunEngine.counters`); a KGLens run's count committed iterations only (see
    `ProbeSnapshot.uncommitted`)."""
    recent: tuple[ViewT_co, ...] = ()
    """The latest replies, oldest first."""


class WithProgress:
    """What a snapshot with a `RunProgress` header reads of it directly: its status (what
    every reader of a run's snapshot asks first)."""

    progress: RunProgress[object]

    @property
    def status(self) -> str:
        """The run's status (`RunProgress.status`)."""
        return self.progress.status


@dataclass(frozen=True)
class Advance:
    """How far a run is as its mode counts it (`Mode.advance`): ``done`` of ``total``
    ``unit``s (iterations, relations, questions)."""

    done: int
    total: int
    unit: str

    def __str__(self) -> str:
        return f"{self.done:,}/{counted(self.total, self.unit)}"
