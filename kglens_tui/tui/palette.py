"""Palette commands made from a screen's key bindings, so every action of every screen is in
the command palette and the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, partial

from textual.app import App, SystemCommand
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.screen import Screen

APP_COMMANDS = frozenset(
    {"app.help", "app.quit_app", "app.new_run", "app.annotate", "app.import_kg"}
)
"""Actions the app lists once for every screen (see KGLensApp.get_system_commands)."""


@cache
def own_bindings(cls: type[DOMNode]) -> frozenset[tuple[str, str]]:
    """(action, description) of each binding that a KGLens class in `cls`'s ancestry declares
    in its own BINDINGS; what it inherits from Textual's classes (cursor keys, focus moves,
    copy) is left out. Matched by action and description, so a user's keymap cannot hide it."""
    declared: set[tuple[str, str]] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("kglens_tui.") or "BINDINGS" not in vars(klass):
            continue
        for bindings in BindingsMap(vars(klass)["BINDINGS"]).key_to_bindings.values():
            declared.update((b.action, b.description) for b in bindings)
    return frozenset(declared)


def screen_commands(app: App, screen: Screen) -> Iterable[SystemCommand]:
    """One command per enabled binding that the screen or one of KGLens's own widgets declares,
    titled by its description, with its key as help; the app's own keys are listed once by the
    app, and Textual's keys (cursor moves, text editing, focus, copy), even where a KGLens
    class inherits them, are left to the keyboard."""
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding, node = active.binding, active.node
        own = node is not app and (binding.action, binding.description) in own_bindings(type(node))
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
