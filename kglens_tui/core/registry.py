"""Things found by name that a plugin can add: probing modes, target kinds, samplers.

Each kind of thing has one `Registry`. Built-in entries are imported on first use (their modules
call `register`); a plugin package adds one through the registry's entry-point group, or any
module calls `register`. A run's child process imports `plugin_modules()` of its parent before
it looks anything up, so an entry registered in any importable module works there too.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Generic, Protocol, TypeVar

from kglens_tui.core.errors import KGLensError

T = TypeVar("T")


class UnknownNameError(KGLensError, LookupError):
    """Nothing of that name is registered."""


class _Plugins(Protocol):
    def plugin_modules(self) -> list[str]: ...


_REGISTRIES: list[_Plugins] = []


class Registry(Generic[T]):
    """Entries of one kind by name: the built-in ones first, then registered and plugin ones."""

    def __init__(
        self,
        what: str,
        group: str,
        builtin: Mapping[str, str],
        error: type[UnknownNameError] = UnknownNameError,
    ) -> None:
        self.what = what
        """How an error names the kind ("probing mode", "target kind")."""
        self.group = group
        """The entry-point group plugins use."""
        self.builtin = dict(builtin)
        """Built-in name -> the module that registers it."""
        self.error = error
        self._entries: dict[str, T] = {}
        self._modules: dict[str, str] = {}
        self._plugins_loaded = False
        _REGISTRIES.append(self)

    def register(self, name: str, entry: T, module: str) -> T:
        """Make ``entry`` available as ``name`` (replacing one of the same name); ``module`` is
        what a child process imports to find it."""
        self._entries[name] = entry
        self._modules[name] = module
        return entry

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group=self.group):
            if ep.name not in self._entries:
                self.register(ep.name, ep.load(), ep.module)

    def get(self, name: str) -> T:
        """The entry called ``name``; the error names the known ones."""
        if name not in self._entries and name in self.builtin:
            importlib.import_module(self.builtin[name])
        if name not in self._entries:
            self._load_plugins()
        if name not in self._entries:
            raise self.error(f"no {self.what} called {name!r} (known: {', '.join(self.names())})")
        return self._entries[name]

    def names(self) -> list[str]:
        """Every name: the built-in ones first, then the others sorted."""
        self._load_plugins()
        return list(self.builtin) + sorted(n for n in self._entries if n not in self.builtin)

    def module(self, name: str) -> str:
        """The module a child process imports to find ``name``."""
        self.get(name)
        return self._modules[name]

    def plugin_modules(self) -> list[str]:
        """Modules of the entries registered outside the built-in ones."""
        builtin = set(self.builtin.values())
        return sorted({m for m in self._modules.values() if m not in builtin})


def plugin_modules() -> list[str]:
    """Every registry's non-built-in modules: what a child process imports to see what its
    parent registered at run time."""
    return sorted({m for r in _REGISTRIES for m in r.plugin_modules()})


def import_modules(modules: list[str]) -> None:
    """Import the modules `plugin_modules` listed (in a child process)."""
    for module in modules:
        importlib.import_module(module)
