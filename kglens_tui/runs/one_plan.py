"""Several targets asked the same questions: the settings of each further target's run."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, TypeVar

from kglens_tui.llm.targets import TargetSpec
from kglens_tui.runs.config import ConfigError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

C = TypeVar("C", bound="DataclassInstance")

PLAN_FIELD = "plan_of"
"""The setting of a mode whose questions depend on its answers (KGLens's sampler): a further
target then asks the first run's stored questions. A mode without it plans from its KG, seed and
settings alone, so the same settings are the same questions."""


def further_targets(specs: list[str], first: str) -> list[str]:
    """The further targets given (blanks dropped), each a valid spec and none the first's or
    another's twice; ConfigError names the first bad one."""
    seen = {first.strip()}
    out: list[str] = []
    for raw in specs:
        spec = raw.strip()
        if not spec:
            continue
        try:
            TargetSpec.parse(spec)
        except ValueError as exc:
            raise ConfigError(f"more targets: {exc}") from None
        if spec in seen:
            raise ConfigError(f"more targets: {spec} is given twice")
        seen.add(spec)
        out.append(spec)
    return out


def on_one_plan(config: C, target: str, leader: int | None) -> C:
    """``config`` for ``target``, asking the questions of run ``leader`` (the first target's):
    through `PLAN_FIELD` where the mode has it, else the same settings."""
    names = {f.name for f in dataclasses.fields(config)}
    if PLAN_FIELD in names and leader is not None:
        return dataclasses.replace(config, target=target, **{PLAN_FIELD: leader})
    return dataclasses.replace(config, target=target)
