"""The clients a run talks to, built from its settings: the target, the generator or judge, and a
stand-in target for a stored run that is only looked at."""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsInt

from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient, ChatRequest, Completion
from kglens_tui.llm.pacing import PacedClient, Pacer
from kglens_tui.llm.targets import RUN_OPTIONS, TargetRequest, TargetSpec, target_kind
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.prices import uses_model


def target_client(config: ModeConfig, kg: KGIndex, edge_ids: Iterable[SupportsInt]) -> ChatClient:
    """The client for the run's target, given the run settings its kind takes (and the run's
    edges, for a kind that needs them, such as a simulated target)."""
    spec = TargetSpec.parse(config.target)
    kind = target_kind(spec)
    settings = {
        "timeout_s": config.timeout_s,
        "max_retries": config.max_retries,
        "max_in_flight": config.concurrency,
        "requests_per_minute": config.requests_per_minute,
        "seed": config.seed,
        "latency_s": config.sim_latency_s,
    }
    edges = None
    if kind.needs_edges:
        pos = [kg.edge_position(int(e)) for e in edge_ids]
        edges = [
            (
                int(kg.edge_ids[i]),
                kg.entity_keys[int(kg.s[i])],
                kg.pred_keys[int(kg.p[i])],
                kg.entity_keys[int(kg.o[i])],
            )
            for i in pos
        ]
    options = {k: settings[k] for k in kind.options if k in RUN_OPTIONS}
    request = TargetRequest(config.base_url, config.api_key_env, edges, options)
    client = kind.build(spec, request)
    if {"max_in_flight", "requests_per_minute"} <= set(kind.options):
        return client  # paces itself
    return PacedClient(client, Pacer(config.concurrency, config.requests_per_minute))


def helper_client(spec: str, config: ModeConfig) -> ChatClient | None:
    """The generator or judge client, or None for template / alias. It gets the run settings its
    kind takes (as the target does: a local model takes none of them); a kind that needs a run's
    edges (a simulated target) cannot serve as a helper (ValueError)."""
    if not uses_model(spec):
        return None
    parsed = TargetSpec.parse(spec)
    kind = target_kind(parsed)
    if kind.needs_edges:
        raise ValueError(f"{spec!r} cannot serve as a generator or verifier")
    settings = {
        "timeout_s": config.timeout_s,
        "max_retries": config.max_retries,
        "max_in_flight": config.concurrency,
    }
    options = {k: settings[k] for k in kind.options if k in settings}
    return kind.build(parsed, TargetRequest(config.base_url, config.api_key_env, None, options))


class ViewOnlyTarget:
    """Stands in for a target when a stored run is only looked at (never asked anything)."""

    def __init__(self, label: str, simulated: bool) -> None:
        self.label = label
        self.simulated = simulated

    async def complete(self, request: ChatRequest) -> Completion:  # pragma: no cover
        raise RuntimeError("this run is being viewed, not probed")

    async def aclose(self) -> None:
        return None
