"""The app's header: Textual's `Header`, whose title watcher tolerates a header taken down while it
runs. Textual 8.2's catches NoScreen there but not NoMatches, so a screen mounted as the app
quits (or closed as it mounted) could end the app with a traceback."""

from __future__ import annotations

from textual import events
from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.widget import Widget
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class TitleHeader(Header):
    """`Header` with a title watcher that does nothing once its title widget is gone."""

    def _on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # in place of Header's own watchers (the same, but safe)
        Widget._on_mount(self, event)

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoMatches, NoScreen):
                return  # taken down already: nothing to show the title in

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
