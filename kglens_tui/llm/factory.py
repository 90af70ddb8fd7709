"""Build a chat client from a short spec: ``openai:gpt-4o-mini``, ``local:smollm2``, ``sim:3``,
or any kind registered in `kglens_tui.llm.targets`. The built-in kinds are defined here."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kglens_tui.llm.base import ChatClient
from kglens_tui.llm.sim_effects import parse_sim_arg
from kglens_tui.llm.targets import (
    SPEC_HELP,
    TargetKind,
    TargetRequest,
    TargetSpec,
    register_target,
    target_kind,
)

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"


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
    Raises ValueError for a malformed spec or an unknown kind.
    """
    parsed = TargetSpec.parse(spec)
    request = TargetRequest(base_url, api_key_env, edges, dict(options))
    return target_kind(parsed).build(parsed, request)


def _openai(spec: TargetSpec, request: TargetRequest) -> ChatClient:
    if not spec.arg:
        raise ValueError(f"missing model name in {str(spec)!r}; {SPEC_HELP}")
    from kglens_tui.llm.openai_compat import OpenAICompatClient

    return OpenAICompatClient(
        request.base_url or DEFAULT_OPENAI_BASE_URL,
        spec.arg,
        api_key_env=request.api_key_env,
        **request.options,
    )


def _local(spec: TargetSpec, request: TargetRequest) -> ChatClient:
    """The bundled SmolLM2 or a .gguf file, refused at once when it is not installed (so a run
    that could not load it is never stored)."""
    import kglens_tui.llm.local_llama as local_llama
    from kglens_tui.llm.local_llama import INSTALL_HINT, LocalLlamaClient, LocalModelUnavailable

    if (spec.arg in ("", "smollm2") or spec.arg.endswith(".gguf")) and not (
        local_llama.local_available(spec.arg)
    ):
        raise LocalModelUnavailable(
            f"{str(spec)!r}: the local model is not installed or not found; {INSTALL_HINT}"
        )
    if spec.arg in ("", "smollm2"):
        return LocalLlamaClient(**request.options)
    if spec.arg.endswith(".gguf"):
        return LocalLlamaClient(model_path=Path(spec.arg), **request.options)
    raise ValueError(f"unknown local model {spec.arg!r} in {str(spec)!r}; {SPEC_HELP}")


def _simulated(spec: TargetSpec, request: TargetRequest) -> ChatClient:
    """``sim[:SEED][,NAME=VALUE...]``: the seed, else the ``seed`` option (0), and the effects of
    question form (`kglens_tui.llm.sim_effects.SimEffects`)."""
    from kglens_tui.llm.simulated import SimulatedClient

    options = dict(request.options)
    seed, effects = parse_sim_arg(spec.arg)
    default_seed = options.pop("seed", 0)
    if request.edges is None:
        raise ValueError("a simulated target needs the knowledge graph's edges (edges=...)")
    chosen = int(default_seed) if seed is None else seed
    return SimulatedClient(request.edges, seed=chosen, effects=effects, **options)


OPENAI = register_target(
    "openai",
    TargetKind(
        _openai,
        options=("timeout_s", "max_retries", "max_in_flight", "requests_per_minute", "seed"),
    ),
)
LOCAL = register_target("local", TargetKind(_local))
SIMULATED = TargetKind(
    _simulated, options=("latency_s",), needs_edges=True, check_arg=parse_sim_arg
)
register_target("sim", SIMULATED)
register_target("simulated", SIMULATED)
