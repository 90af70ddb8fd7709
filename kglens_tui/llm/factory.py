"""Build a chat client from a short spec: ``openai:gpt-4o-mini``, ``local:smollm2``, ``sim:3``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kglens_tui.llm.base import ChatClient

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
SPEC_HELP = "use 'openai:MODEL', 'local:smollm2' (or 'local:PATH.gguf'), 'sim' or 'sim:SEED'"


def make_client(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    edges: Iterable[tuple[int, str, str, str]] | None = None,
    **options: Any,
) -> ChatClient:
    """Create the client a spec names; extra keyword options go to the client's constructor.

    ``openai:MODEL`` talks to ``base_url`` (default: the OpenAI API); ``local:smollm2`` runs the
    bundled SmolLM2 with llama.cpp; ``sim`` / ``sim:SEED`` simulates a target and needs ``edges``.
    Raises ValueError for a malformed spec.
    """
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind == "openai":
        if not arg:
            raise ValueError(f"missing model name in {spec!r}; {SPEC_HELP}")
        from kglens_tui.llm.openai_compat import OpenAICompatClient

        return OpenAICompatClient(
            base_url or DEFAULT_OPENAI_BASE_URL, arg, api_key_env=api_key_env, **options
        )
    if kind == "local":
        from kglens_tui.llm.local_llama import LocalLlamaClient

        if arg in ("", "smollm2"):
            return LocalLlamaClient(**options)
        if arg.endswith(".gguf"):
            return LocalLlamaClient(model_path=Path(arg), **options)
        raise ValueError(f"unknown local model {arg!r} in {spec!r}; {SPEC_HELP}")
    if kind in ("sim", "simulated"):
        try:
            seed = int(arg) if arg else int(options.pop("seed", 0))
        except ValueError:
            raise ValueError(f"the seed in {spec!r} must be an integer; {SPEC_HELP}") from None
        if edges is None:
            raise ValueError("a simulated target needs the knowledge graph's edges (edges=...)")
        from kglens_tui.llm.simulated import SimulatedClient

        options.pop("seed", None)
        return SimulatedClient(edges, seed=seed, **options)
    raise ValueError(f"unknown target {spec!r}; {SPEC_HELP}")
