"""A screen about one run whose analysis data (log, KG, triage) is loaded once, on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from kglens_tui.analysis.rundata import RunData, load_run_data

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp


class RunDataScreen(Screen):
    """Base of the review and analysis screens: `data` loads the run lazily and is shareable."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    def __init__(self, run_id: int, data: RunData | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self._data = data

    @property
    def data(self) -> RunData:
        """The run's data, loaded once and shared with screens opened from this one."""
        if self._data is None:
            self._data = load_run_data(self.app.db(), self.run_id)
        return self._data
