"""A run's manifest: what makes it reproducible (the KG's content hash, the prompts' hashes, the
target, the settings that shape its questions, versions), the same for every mode."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from kglens_tui import __version__
from kglens_tui.core.verdict import VERIFIER_RULES
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.prompts import load_prompt
from kglens_tui.runs.record import Manifest, RunRecord
from kglens_tui.runs.spend import manifest_prices


def build_manifest(
    mode: str,
    kg: KGIndex,
    config: ModeConfig,
    target: ChatClient,
    prompts: Iterable[str],
    **extra: object,
) -> Manifest:
    """The manifest of a new run of ``mode``: ``prompts`` names the prompt files its questions
    use; ``extra`` adds the mode's own settings and facts (e.g. KGLens's sampler)."""
    return {
        "mode": mode,
        "kg": kg.name,
        "kg_content_hash": kg.content_hash,
        "prompts": {name: load_prompt(name).sha256 for name in prompts},
        "target": target.label,
        "target_simulated": bool(target.simulated),
        "generator": config.generator,
        "seed": config.seed,
        "verifier_rules": VERIFIER_RULES,
        "prices": manifest_prices(config),
        **extra,
        "kglens_version": __version__,
        "numpy_version": np.__version__,
    }


def check_kg_unchanged(run: RunRecord[ModeConfig], kg: KGIndex) -> None:
    """ConfigError when the run's KG changed since it started (its answers would be read
    against other edges)."""
    if run.manifest.get("kg_content_hash") not in (None, kg.content_hash):
        raise ConfigError(
            f"KG '{kg.name}' changed since run {run.id} started (content hash differs): "
            "start a new run"
        )
