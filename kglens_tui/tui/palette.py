"""Palette commands made from a screen's key bindings, so every action of every screen is in
the command palette and the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import App, SystemCommand
from textual.screen import Screen

APP_COMMANDS = frozenset(
    {"app.help", "app.quit_app", "app.new_run", "app.annotate", "app.import_kg"}
)
"""Actions the app lists once for every screen (see KGLensApp.get_system_commands)."""


def screen_commands(app: App, screen: Screen) -> Iterable[SystemCommand]:
    """One command per enabled binding that the screen or one of KGLens's own widgets declares,
    titled by its description, with its key as help; the app's own keys are listed once by the
    app, and Textual's widget keys (cursor moves, text editing) are left to the keyboard."""
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding, node = active.binding, active.node
        own = node is screen or (
            node is not app and type(node).__module__.startswith("kglens_tui.")
        )
        if not (own and active.enabled and binding.description):
            continue
        if binding.action in APP_COMMANDS or binding.action in seen:
            continue
        seen.add(binding.action)
        title = screen.__class__.__name__.removesuffix("Screen")
        yield SystemCommand(
            binding.description,
            f"{title} · key {app.get_key_display(binding)}",
            partial(app.run_action, binding.action, node),
        )
