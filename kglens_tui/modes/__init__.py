"""Two more probing modes on the same KGs and database as KGLens: KONTEST consistency testing
and LLM-facteval question types with abstention. Headless; a UI drives them through
`kglens_tui.runs.runner.prepare` / `kglens_tui.runs.session.RunSession` and renders `ModeSnapshot`s."""

from kglens_tui.modes.config import FACTEVAL, KONTEST, FactevalConfig, KontestConfig
from kglens_tui.modes.facteval.engine import FactevalMetrics
from kglens_tui.modes.kontest.metrics import KontestMetrics
from kglens_tui.runs.units import ModeEngine, ModeSnapshot, QueryView

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
