"""The TUI's own settings checked before it starts (`theme`, the `[keys]` table): a name Textual
does not know, a key it never reports, or two actions on one key is one line naming where the
value came from. Kept here, not in `kglens_tui.settings`, which must not import textual.

Uses a few private Textual names (`_character_to_key`, `FUNCTIONAL_KEYS`, `_merge_bindings`):
textual is pinned, and tests/tui/test_app_settings.py would catch a change."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from textual._keyboard_protocol import FUNCTIONAL_KEYS
from textual.binding import Binding
from textual.keys import REPLACED_KEYS, Keys, _character_to_key, key_to_character
from textual.screen import Screen

from kglens_tui.settings import Settings, SettingsError

KEY_MODIFIERS = ("alt", "ctrl", "hyper", "meta", "shift", "super")
"""The modifiers of Textual's key names, in the order it writes them (sorted)."""
COMBINED_KEYS = frozenset(key.value for key in Keys)
"""Key names Textual reports as they are, e.g. ctrl+shift+up."""
NAMED_KEYS = frozenset(
    {key for key in COMBINED_KEYS if "+" not in key and not key.startswith("<")}
    | set(FUNCTIONAL_KEYS.values())
)
"""Keys Textual names by a word (f2, space, pagedown, escape, …), without modifiers."""


def key_problem(key: str) -> str:
    """Why Textual never reports ``key`` (one key of a keymap, a single character already
    named as Textual names it, e.g. question_mark for ?): "" when it is a key Textual knows."""
    if key in COMBINED_KEYS:
        return ""
    *modifiers, base = key.split("+")
    if not base or any(m not in KEY_MODIFIERS for m in modifiers):
        return (
            f"{key!r} is not a key: modifiers are {', '.join(KEY_MODIFIERS)}, written before "
            "the key, e.g. ctrl+n"
        )
    if len(set(modifiers)) < len(modifiers):
        return f"{key!r} repeats a modifier"
    if len(base) == 1 and not base.isalnum():
        return f"write {key!r} as {'+'.join([*sorted(modifiers), _character_to_key(base)])}"
    if modifiers != sorted(modifiers):
        return f"write {key!r} as {'+'.join([*sorted(modifiers), base])} (Textual's order)"
    if len(base) == 1 or base in NAMED_KEYS:
        return ""
    character = key_to_character(REPLACED_KEYS.get(base, base))
    if character is not None and _character_to_key(character) == base:
        return ""  # a character's name: question_mark, slash, full_stop, …
    return (
        f"{key!r} is not a key Textual knows: a character (q, ?), a key's name (f2, space, "
        "escape, question_mark), maybe after modifiers (ctrl+n, shift+f2)"
    )


def keymap_keys(value: str) -> list[str]:
    """The keys of a [keys] value, as Textual binds them (`App.set_keymap`): comma-separated,
    a single character by its name."""
    parts = [part.strip() for part in value.split(",")]
    return [_character_to_key(part) if len(part) == 1 else part for part in parts]


def _screen_name(screen: type[Screen[Any]]) -> str:
    """HomeScreen -> "home", NewRunScreen -> "new run"."""
    name = screen.__name__.removesuffix("Screen") or screen.__name__
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _keyed_screens() -> list[type[Screen[Any]]]:
    """The app's screens (of kglens_tui's modules imported so far: every one whose bindings
    have ids is imported with this module)."""
    found: list[type[Screen[Any]]] = []
    todo: list[type[Screen[Any]]] = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("kglens_tui.") and sub not in found:
                found.append(sub)
    return found


def check_keys(settings: Settings, app_bindings: list[Binding]) -> None:
    """SettingsError, naming where [keys] came from and its entry, for a binding id no screen
    has, a key Textual does not know, or a key another action of a screen (or of the app, on
    every screen) already has after the keymap applies."""
    if not settings.keys:
        return
    origin = settings.origins.get("keys", "settings")
    places = {  # where each entry is set: its own line of the settings file
        name: settings.place(f"keys.{name}") if f"keys.{name}" in settings.lines else origin
        for name in settings.keys
    }
    screens = {
        screen: [b for bs in screen._merge_bindings().key_to_bindings.values() for b in bs]
        for screen in _keyed_screens()
    }
    ids = {b.id for bindings in [*screens.values(), app_bindings] for b in bindings if b.id}
    keymap: dict[str, list[str]] = {}
    for name, value in settings.keys.items():
        entry = f"{places[name]}: [keys] {name}"
        if name not in ids:
            near = difflib.get_close_matches(name, sorted(ids), 1)
            hint = f"did you mean {near[0]}? " if near else ""
            raise SettingsError(
                f"{entry}: no binding of that name ({hint}bindings: {', '.join(sorted(ids))})"
            )
        keys = keymap_keys(value)
        for key in keys:
            problem = "a key is empty" if not key else key_problem(key)
            if problem:
                raise SettingsError(f"{entry} = {value!r}: {problem}")
        keymap[name] = keys
    for screen, bindings in screens.items():
        _check_clashes(keymap, settings.keys, places, screen, bindings, app_bindings)


def _check_clashes(
    keymap: dict[str, list[str]],
    values: dict[str, str],
    places: dict[str, str],
    screen: type[Screen[Any]],
    bindings: list[Binding],
    app_bindings: list[Binding],
) -> None:
    """SettingsError when a key the keymap gives on ``screen`` is also another action's there
    (the screen's or the app's), once the keymap applies as Textual applies it."""
    bound: dict[str, list[tuple[str, Binding, str]]] = {}
    """Each key's (action, binding, owner) on the screen, the keymap applied."""
    moved: set[tuple[str, str]] = set()
    for owner, binding in [("screen", b) for b in bindings] + [("app", b) for b in app_bindings]:
        action = binding.action
        if "." not in action.partition("(")[0]:
            action = f"{owner}.{action}"
        if binding.id not in keymap:
            bound.setdefault(binding.key, []).append((action, binding, owner))
        elif (owner, binding.id) not in moved:  # "a,enter" is two bindings: the keymap's keys
            moved.add((owner, binding.id))  # replace both
            for key in keymap[binding.id]:
                bound.setdefault(key, []).append((action, binding, owner))
    for name, keys in keymap.items():  # in the table's order: its first entry in the way
        for key in keys:
            here = bound.get(key, [])
            mine = [action for action, binding, _ in here if binding.id == name]
            others = [(b, owner) for action, b, owner in here if mine and action != mine[0]]
            if not others:
                continue
            other, owner = others[0]
            what = repr(other.description or other.action)
            where = "every screen" if owner == "app" else f"the {_screen_name(screen)} screen"
            if other.id in keymap:
                fix = f"[keys] {other.id} = {values[other.id]!r} gives it too"
            elif other.id:
                fix = f"choose another key, or move {what} too ([keys] {other.id} = ...)"
            else:
                fix = "choose another key ([keys] cannot move that one)"
            raise SettingsError(
                f"{places[name]}: [keys] {name} = {values[name]!r}: {key} is already {what} on "
                f"{where}; {fix}"
            )


def check_theme(settings: Settings, themes: Iterable[str]) -> None:
    """SettingsError, naming where the theme came from, when Textual has no theme of its name."""
    names = sorted(themes)
    if settings.theme in names:
        return
    near = difflib.get_close_matches(settings.theme, names, 1)
    hint = f"did you mean {near[0]}? " if near else ""
    raise SettingsError(
        f"{settings.origins.get('theme', 'settings')}: setting 'theme': no theme "
        f"{settings.theme!r} ({hint}themes: {', '.join(names)})"
    )
