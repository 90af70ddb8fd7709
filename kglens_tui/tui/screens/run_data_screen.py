"""A screen about one run whose analysis data (log, KG, triage) is read once, on a worker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from kglens_tui.analysis.logged import read_logged
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.screens.workers import on_stack

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

READ_GROUP = "run-data"
"""The worker that reads the screen's run."""


class RunDataScreen(ReadsOnWorkers, Screen[Any]):
    """Base of the review and analysis screens: the run is read on a worker thread (a big run
    takes seconds: the UI never waits for it), the screen says "reading run N…" meanwhile and
    fills in with `data_ready`; `data` is shared with screens opened from this one. A read that
    fails is told once by the app (`ReportsWorkerErrors`) and closes the screen."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    def __init__(self, run_id: int, data: RunData | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self._data = data

    @property
    def loaded(self) -> bool:
        """Whether the run's data is in."""
        return self._data is not None

    @property
    def data(self) -> RunData:
        """The run's data (only once `loaded`)."""
        if self._data is None:
            raise RuntimeError(f"run {self.run_id} is not read yet")
        return self._data

    def reading_text(self) -> str:
        return f"reading run {self.run_id}…"

    def start_reading(self) -> None:
        """From the screen's on_mount: `data_ready` at once if the data came with the screen,
        else once a worker read it."""
        if self._data is not None:
            self.data_ready()
            return
        run_id = self.run_id
        read_then(
            self,
            lambda conn: read_logged(load_run_data(conn, run_id)),
            self._data_read,
            f"reading run {run_id}",
            group=READ_GROUP,
        )

    def _data_read(self, data: RunData) -> None:
        self._data = data
        self.data_ready()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed read closes the screen (Textual calls `ReportsWorkerErrors`' handler after
        this one: the failure is told there)."""
        failed = event.worker.group == READ_GROUP and event.state is WorkerState.ERROR
        if failed and on_stack(self) and self.app.screen is self:
            self.app.pop_screen()

    def data_ready(self) -> None:
        """Fill the screen from `data` (once, when it is in)."""
