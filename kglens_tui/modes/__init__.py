"""Two more probing modes on the same KGs and database as KGLens: KONTEST consistency testing
and LLM-facteval question types with abstention. Headless; a UI drives them through
`kglens_tui.runs.runner.prepare` / `kglens_tui.runs.session.RunSession` and renders `ModeSnapshot`s.

The names below are imported when first used: importing any module of `modes` (a command
reading KGLens's settings) does not import every mode's engine (and SciPy with it)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kglens_tui.modes.config import FACTEVAL, KONTEST, FactevalConfig, KontestConfig
    from kglens_tui.modes.facteval.engine import FactevalMetrics
    from kglens_tui.modes.kontest.metrics import KontestMetrics
    from kglens_tui.runs.units import ModeEngine, ModeSnapshot, QueryView

_HOMES = {
    "FACTEVAL": "kglens_tui.modes.config",
    "KONTEST": "kglens_tui.modes.config",
    "FactevalConfig": "kglens_tui.modes.config",
    "KontestConfig": "kglens_tui.modes.config",
    "FactevalMetrics": "kglens_tui.modes.facteval.engine",
    "KontestMetrics": "kglens_tui.modes.kontest.metrics",
    "ModeEngine": "kglens_tui.runs.units",
    "ModeSnapshot": "kglens_tui.runs.units",
    "QueryView": "kglens_tui.runs.units",
}
"""Each exported name -> the module defining it."""

__all__ = [
    "FACTEVAL",
    "KONTEST",
    "FactevalConfig",
    "FactevalMetrics",
    "KontestConfig",
    "KontestMetrics",
    "ModeEngine",
    "ModeSnapshot",
    "QueryView",
]


def __getattr__(name: str) -> object:
    """An exported name, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
