"""Two more probing modes on the same KGs and database as KGLens: KONTEST consistency testing
and LLM-facteval question types with abstention. Headless; a UI drives them through
`prepare_mode` / `ModeSession` and renders `ModeSnapshot`s."""

from kglens_tui.modes.config import FACTEVAL, KONTEST, FactevalConfig, KontestConfig
from kglens_tui.modes.engine import ModeEngine, ModeSnapshot, QueryView
from kglens_tui.modes.facteval import FactevalMetrics
from kglens_tui.modes.kontest_metrics import KontestMetrics
from kglens_tui.modes.runner import ModeSession, open_mode_snapshot, prepare_mode, run_blocking

__all__ = [
    "FACTEVAL",
    "KONTEST",
    "FactevalConfig",
    "FactevalMetrics",
    "KontestConfig",
    "KontestMetrics",
    "ModeEngine",
    "ModeSession",
    "ModeSnapshot",
    "QueryView",
    "open_mode_snapshot",
    "prepare_mode",
    "run_blocking",
]
