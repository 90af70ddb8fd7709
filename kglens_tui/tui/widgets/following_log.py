"""A log that keeps following its newest line when its size changes."""

from __future__ import annotations

from textual import events
from textual.widgets import RichLog


class FollowingLog(RichLog):
    """A `RichLog` that, following its newest lines (``auto_scroll``), scrolls to the end again
    when it is resized: a pane made a line shorter after the last write (a title grown by a
    line, a terminal resized) would otherwise hide the newest line."""

    def on_resize(self, event: events.Resize) -> None:
        if self.auto_scroll:
            self.scroll_end(animate=False)
