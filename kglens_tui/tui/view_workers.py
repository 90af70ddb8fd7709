"""Views a screen makes on thread workers from what it already holds (the live screen's figures
from a snapshot; any reading of the workspace inside goes through its own connection): how a
screen starts one and takes what it made. Reads of the workspace are `reads.read_then`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from kglens_tui.tui.screens.workers import on_stack

T = TypeVar("T")


def make_in_thread(
    screen: Screen[Any],
    make: Callable[[], object],
    group: str,
    description: str,
    *,
    exclusive: bool = False,
) -> Worker[Any]:
    """Run ``make`` on a thread worker of ``group`` (its failure is not an app error)."""
    return screen.run_worker(
        make,
        thread=True,
        exclusive=exclusive,
        group=group,
        exit_on_error=False,
        description=description,
    )


def made_view(
    screen: Screen[Any], event: Worker.StateChanged, group: str, kind: type[T]
) -> T | None:
    """What a `make_in_thread` worker of ``group`` made, once it succeeded, when it is a
    ``kind`` and the screen is still open (a view made after it closed is dropped); a failure
    is told by the app, a notification with the error as literal text
    (`KGLensApp.worker_failed`)."""
    if event.worker.group != group:
        return None
    if event.state is WorkerState.ERROR:
        screen.app.worker_failed(event.worker)  # type: ignore[attr-defined]
        return None
    result = event.worker.result
    if event.state is not WorkerState.SUCCESS or not isinstance(result, kind):
        return None
    return result if on_stack(screen) else None
