"""KGLens (the paper's probing loop) as a registered mode."""

from __future__ import annotations

from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.runner import drive, open_snapshot, prepare
from kglens_tui.runs.record import KGLENS
from kglens_tui.runs.registry import register


class KGLensMode:
    name = KGLENS
    label = "KGLens"
    config_type = RunConfig
    prepare = staticmethod(prepare)
    drive = staticmethod(drive)
    open_snapshot = staticmethod(open_snapshot)


MODE = register(KGLensMode())
