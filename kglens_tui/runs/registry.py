"""Probing modes by name: the built-in three, modes registered at run time, and plugins.

A mode is found by the name stored in `run.mode`. The built-in modes are imported on first use
(the harness imports no mode). A plugin package adds one through the entry-point group
``kglens_tui.modes`` (the entry point names an object with the `Mode` attributes) or by calling
`register`; a child process imports the module that registered a mode before looking it up, so
a mode registered in any importable module runs there too.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Awaitable
from importlib.metadata import entry_points
from typing import Any, Protocol

from kglens_tui.core.errors import KGLensError
from kglens_tui.llm.base import ChatClient

ENTRY_POINT_GROUP = "kglens_tui.modes"
BUILTIN = {
    "kglens": "kglens_tui.probe.mode",
    "kontest": "kglens_tui.modes.kontest_mode",
    "facteval": "kglens_tui.modes.facteval_mode",
}
"""Built-in mode name -> the module that registers it."""


class UnknownModeError(KGLensError, LookupError):
    """No mode of that name is registered."""


class Engine(Protocol):
    """What the harness drives: one run's loop, controlled from the same event loop."""

    def snapshot(self, insights: bool = True) -> Any: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def request_stop(self) -> None: ...
    def abort(self, reason: str) -> None: ...


class ConfigClass(Protocol):
    """A mode's settings dataclass, as a class: it reads a stored config back."""

    def __call__(self) -> Any: ...
    def from_json(self, text: str) -> Any: ...


class Mode(Protocol):
    """A probing mode: how to set up a run of it, drive it, and look at a stored one."""

    name: str
    """Stored in `run.mode`."""
    label: str
    """How lists and titles name it."""

    @property
    def config_type(self) -> ConfigClass:
        """Its settings dataclass (with `from_json`, `to_json` and `validate`)."""
        ...

    def prepare(
        self,
        conn: sqlite3.Connection,
        *,
        config: Any = None,
        resume: int | None = None,
        name: str = "",
        target: ChatClient | None = None,
    ) -> Engine:
        """An engine for a new run (config) or a stored one (resume)."""
        ...

    def drive(self, engine: Any) -> Awaitable[Any]:
        """Run the engine to its end, close its clients, return the final snapshot."""
        ...

    def open_snapshot(self, conn: sqlite3.Connection, run_id: int) -> Any:
        """A stored run's progress and metrics, without contacting its target."""
        ...


_MODES: dict[str, Mode] = {}
_MODULES: dict[str, str] = {}
_plugins_loaded = False


def register(mode: Mode, module: str | None = None) -> Mode:
    """Make ``mode`` available by its name (replacing one of the same name); ``module`` is where
    a child process finds it (default: the module that defines its class)."""
    _MODES[mode.name] = mode
    _MODULES[mode.name] = module or type(mode).__module__
    return mode


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in _MODES:
            register(ep.load(), ep.module)


def get_mode(name: str) -> Mode:
    """The mode called ``name``; UnknownModeError names the known ones."""
    if name not in _MODES and name in BUILTIN:
        importlib.import_module(BUILTIN[name])
    if name not in _MODES:
        _load_plugins()
    if name not in _MODES:
        raise UnknownModeError(
            f"no probing mode called {name!r} (known: {', '.join(mode_names())})"
        )
    return _MODES[name]


def mode_names() -> list[str]:
    """Every mode's name: the built-in ones first, then the registered and plugin ones."""
    _load_plugins()
    return list(BUILTIN) + sorted(n for n in _MODES if n not in BUILTIN)


def mode_module(name: str) -> str:
    """The module a child process imports to find the mode called ``name``."""
    get_mode(name)
    return _MODULES[name]


def mode_label(name: str) -> str:
    """How lists name a mode; an unknown mode (a plugin not installed here) shows its name."""
    try:
        return get_mode(name).label
    except UnknownModeError:
        return name
