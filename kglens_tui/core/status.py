"""Run status: the one vocabulary every probing mode, the store and the screens share."""

from __future__ import annotations

from enum import StrEnum


class RunStatus(StrEnum):
    """A run's state as stored in `run.status` / `mode_run.status` and shown to users."""

    CREATED = "created"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"
    FINISHED = "finished"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    LOADING_MODEL = "loading model"
    """Live only: a local target loads its model before the first request."""
    PAUSING = "pausing"
    """A pause was asked for and the requests in flight are finishing (stored too, so that
    other processes see it)."""
    STOPPING = "stopping"
    """A stop was asked for and the requests in flight are finishing (stored too)."""

    @property
    def ended(self) -> bool:
        """True once the run will not go on by itself (it may still be resumed)."""
        return self in (
            RunStatus.STOPPED,
            RunStatus.FINISHED,
            RunStatus.FAILED,
            RunStatus.INTERRUPTED,
        )


ASK_AGAIN = "resume the run to ask them again"
"""Closes the stop reason of a run that finished with failed requests still to ask: such a run
is resumable (every mode's engine writes it; `nothing_to_resume` looks for it)."""
ASK_AGAIN_NOTES = (ASK_AGAIN, "resume to ask them again")
"""ASK_AGAIN and what KONTEST and fact-eval runs stored before it wrote in its place."""
