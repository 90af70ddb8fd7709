"""The models a run calls by role and their prices (settings [prices] over the list prices):
what a budget and the cost estimate count by. Reads no run harness module, so the settings
checks (`runs.config`) can use it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from kglens_tui.llm.pricing import Price, price_for, price_table
from kglens_tui.llm.usage import HelperRole

TARGET = "target"


BUILT_IN_HELPERS = ("template", "alias", "")
"""Generator and verifier settings that call no model: the templates, the alias matcher."""


def uses_model(spec: str) -> bool:
    """Whether a generator or verifier setting calls a model (e.g. openai:MODEL)."""
    return spec not in BUILT_IN_HELPERS


class PricedSettings(Protocol):
    """What pricing reads of a run's settings: a mode's settings, or a stored run's as read
    (the generator and verifier are read where a mode has them)."""

    @property
    def target(self) -> str: ...
    @property
    def max_cost(self) -> float | None: ...


def configured_prices() -> dict[str, Price]:
    """The price table of the settings in force (file and variables)."""
    from kglens_tui.settings import load_settings

    return price_table(load_settings().prices)


def role_specs(config: PricedSettings) -> dict[str, str]:
    """Role -> the model spec it calls: the target, and the generator, paraphraser and judge
    where they call a model."""
    specs = {TARGET: str(config.target)}
    generator = str(getattr(config, "generator", "template"))
    if uses_model(generator):
        specs[HelperRole.GENERATOR.value] = generator
        specs[HelperRole.PARAPHRASER.value] = generator
    verifier = str(getattr(config, "verifier", "alias"))
    if uses_model(verifier):
        specs[HelperRole.JUDGE.value] = verifier
    return specs


def priced_roles(
    config: PricedSettings, prices: Mapping[str, Price]
) -> list[tuple[str, str, Price | None]]:
    """(role, spec, price or None) for every model the run calls."""
    return [(role, spec, price_for(spec, prices)) for role, spec in role_specs(config).items()]
