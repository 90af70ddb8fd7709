"""Several targets asked the same questions: the settings of each further target's run."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, TypeVar

from kglens_tui.llm.targets import TargetSpec
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

C = TypeVar("C", bound="DataclassInstance")

PLAN_FIELD = "plan_of"
"""The setting of a mode whose questions depend on its answers (KGLens's sampler): a further
target then asks the first run's stored questions. A mode without it plans from its KG, seed and
settings alone, so the same settings are the same questions."""


def _same(spec: str) -> str:
    """A spec as compared for repeats: its kind lower-cased, spaces around the parts dropped."""
    parsed = TargetSpec.parse(spec)
    return f"{parsed.kind}:{parsed.arg}" if parsed.arg else parsed.kind


def further_targets(specs: list[str], config: ModeConfig) -> list[str]:
    """The further targets given beside ``config``'s, each checked as the first one is
    (`check_new_run`: a known kind, no hidden characters) and none repeated; ConfigError names
    the first bad one, before any run starts."""
    first = _same(config.target)
    seen = {first}
    out: list[str] = []
    for raw in specs:
        spec = raw.strip()
        if not spec:
            raise ConfigError("more targets: an empty target (give a target spec, e.g. sim:1)")
        try:
            same = _same(spec)
        except ValueError as exc:
            raise ConfigError(f"more targets: {exc}") from None
        if same == first:
            raise ConfigError(f"more targets: {spec} is the first target already")
        if same in seen:
            raise ConfigError(f"more targets: {spec} is given twice")
        try:
            check_new_run(dataclasses.replace(config, target=spec))
        except ConfigError as exc:
            raise ConfigError(f"more targets: {spec}: {exc}") from None
        seen.add(same)
        out.append(spec)
    return out


def on_one_plan(config: C, target: str, leader: int | None) -> C:
    """``config`` for ``target``, asking the questions of run ``leader`` (the first target's):
    through `PLAN_FIELD` where the mode has it (unless the first run itself asks an earlier
    run's questions: then every target asks those), else the same settings."""
    names = {f.name for f in dataclasses.fields(config)}
    if PLAN_FIELD in names and leader is not None and getattr(config, PLAN_FIELD) is None:
        return dataclasses.replace(config, target=target, **{PLAN_FIELD: leader})
    return dataclasses.replace(config, target=target)
