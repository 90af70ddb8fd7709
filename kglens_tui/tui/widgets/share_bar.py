"""A progress bar drawn from its exact share, whenever the share was set."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import ProgressBar
from textual.widgets._progress_bar import Bar, PercentageStatus


class ExactBar(Bar):
    """Textual's bar keeping its share exact: drawn to the nearest half cell of the width it
    has when drawn. Textual's rounds the share down to half a cell of the width the bar has
    when the share is set, so a share set before the layout settled drew another last half
    cell than the same share set after."""

    def _validate_percentage(self, percentage: float | None) -> float | None:
        return percentage


class ShareBar(ProgressBar):
    """A progress bar with an `ExactBar` and its percentage (no ETA)."""

    def compose(self) -> ComposeResult:
        yield (
            ExactBar(id="bar", bar_renderable=self.BAR_RENDERABLE)
            .data_bind(ProgressBar.percentage)
            .data_bind(ProgressBar.gradient)
        )
        if self.show_percentage:
            yield PercentageStatus(id="percentage").data_bind(ProgressBar.percentage)
