"""A toy target kind and a toy sampler, each added as one module-level registration with no
edit to the harness, the CLI or the TUI. Imported by tests/core/test_plugins.py (and by a run's child
process, which imports the modules its parent registered plugins from)."""

from __future__ import annotations

import numpy as np

from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.llm.targets import TargetKind, TargetRequest, TargetSpec, register_target
from kglens_tui.modes.kglens.samplers import SampleRequest, register_sampler

PARROT = "parrot"
FIRST = "first-unasked"


class ParrotClient:
    """Answers every question with the word its spec names (``parrot:Yes``)."""

    simulated = True

    def __init__(self, word: str) -> None:
        self.word = word or "Yes"
        self.label = f"{PARROT}:{self.word}"
        self.requests = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.requests += 1
        return Completion(self.word, prompt_tokens=1, completion_tokens=1, latency_s=0.0)

    async def aclose(self) -> None:
        return None


def build_parrot(spec: TargetSpec, request: TargetRequest) -> ParrotClient:
    return ParrotClient(spec.arg)


def first_unasked(request: SampleRequest) -> np.ndarray:
    """The lowest allowed positions among the edges asked least often: a sweep in KG order."""
    asked = request.state.m + request.state.n
    order = np.lexsort((np.arange(len(asked)), asked))
    return order[request.allowed[order]][: request.k]


register_target(PARROT, TargetKind(build_parrot))
register_sampler(FIRST, first_unasked)
