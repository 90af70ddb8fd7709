"""Palette commands made from a screen's key bindings, so every action of every screen is in
the command palette and the two cannot drift apart."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, partial
from typing import Any

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


SCREEN_NAMES = {
    "DrillDownScreen": "Edge drill-down",
    "ModeAnalysisScreen": "Run results",
    "NewRunScreen": "New run",
    "EgoScreen": "Ego graph",
    "RoundsScreen": "Annotation rounds",
    "AnnotateScreen": "Annotate",
    "ProgressScreen": "Annotation progress",
    "ReportScreen": "Annotation report",
}
"""The name a palette command gives its screen where the class's name is no word."""


def screen_name(screen: Screen[Any]) -> str:
    """A screen's name as the palette shows it beside a command's key ("Edge drill-down")."""
    name = type(screen).__name__
    if name in SCREEN_NAMES:
        return SCREEN_NAMES[name]
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name.removesuffix("Screen"))
    return words[:1] + words[1:].lower()


def screen_commands(app: App[Any], screen: Screen[Any]) -> Iterable[SystemCommand]:
    """One command per enabled binding that the screen or one of KGLens's own widgets declares,
    titled by its tooltip (a short footer label's full name) or else its description, with its
    key as help; the app's own keys are listed once by the app, and Textual's keys (cursor
    moves, text editing, focus, copy), even where a KGLens class inherits them, are left to the
    keyboard. A binding whose key a nearer node takes (home's enter "Open", under the runs
    table's own enter, which opens the run too) is listed as well."""
    seen: set[str] = set()
    # the chain `Screen.active_bindings` reads (focused widget up to the app, none past a
    # modal), without its one-binding-per-key merge, which drops the shadowed bindings
    for node, bindings in screen._modal_binding_chain:
        for _key, binding in bindings:
            if node is app or binding.action in APP_COMMANDS or binding.action in seen:
                continue
            if not binding.description:
                continue
            if (binding.action, binding.description) not in own_bindings(type(node)):
                continue
            if not app._check_action_state(binding.action, node):  # hidden or disabled
                continue
            seen.add(binding.action)
            title = screen_name(screen)
            yield SystemCommand(
                binding.tooltip or binding.description,
                f"{title} · key {app.get_key_display(binding)}",
                partial(app.run_action, binding.action, node),
            )
