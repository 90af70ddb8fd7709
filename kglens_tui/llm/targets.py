"""Target kinds by name: a target spec such as ``openai:gpt-4o-mini`` is parsed once into a
`TargetSpec`, and its kind (``openai``, ``local``, ``sim``, or one a plugin registers) builds the
client. A new kind is one module that calls `register_target` (or an entry point in the group
``kglens_tui.targets`` naming a `TargetKind`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kglens_tui.core.registry import Registry, UnknownNameError
from kglens_tui.llm.base import ChatClient

SPEC_HELP = (
    "use 'openai:MODEL', 'local:smollm2' (or 'local:PATH.gguf'), 'sim' or 'sim:SEED' (options of "
    "question form: 'sim:SEED,NAME=VALUE,...')"
)
RUN_OPTIONS = (
    "timeout_s",
    "max_retries",
    "max_in_flight",
    "requests_per_minute",
    "seed",
    "latency_s",
)
"""The client options a run's settings supply; a kind takes those it lists in `options`."""

Edges = Iterable[tuple[int, str, str, str]]


class UnknownTargetError(UnknownNameError, ValueError):
    """A spec names no registered target kind."""


@dataclass(frozen=True)
class TargetSpec:
    """A parsed ``kind[:argument]`` target spec."""

    kind: str
    arg: str = ""

    @classmethod
    def parse(cls, text: str) -> TargetSpec:
        """Split ``text`` at its first colon; the kind is case-insensitive."""
        kind = spec_kind(text)
        if not kind:
            raise ValueError(f"empty target kind in {text!r}; {SPEC_HELP}")
        return cls(kind, text.partition(":")[2].strip())

    def __str__(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg else self.kind


def spec_kind(text: str) -> str:
    """The kind of a spec ("openai" for "openai:gpt-4o"); "" when there is none."""
    return text.strip().partition(":")[0].strip().lower()


@dataclass(frozen=True)
class TargetRequest:
    """What a kind gets to build a client from, besides the spec."""

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    edges: Edges | None = None
    """The run's edges (id, subject, predicate, object), for kinds that need them."""
    options: dict[str, Any] = field(default_factory=dict)
    """Keyword options for the client's constructor."""


@dataclass(frozen=True)
class TargetKind:
    """How to build a client of one kind."""

    build: Callable[[TargetSpec, TargetRequest], ChatClient]
    options: tuple[str, ...] = ()
    """Which of RUN_OPTIONS a run passes on to `build`."""
    needs_edges: bool = False
    """Whether the client needs the run's edges (a simulated target does)."""
    check_arg: Callable[[str], object] | None = None
    """Raises ValueError for a spec argument the kind cannot build from (checked with a run's
    settings, before the run is stored)."""


TARGETS: Registry[TargetKind] = Registry(
    "target kind",
    "kglens_tui.targets",
    {k: "kglens_tui.llm.factory" for k in ("openai", "local", "sim", "simulated")},
    UnknownTargetError,
)


def register_target(name: str, kind: TargetKind, module: str | None = None) -> TargetKind:
    """Make ``kind`` available as ``name:...`` specs; ``module`` is where a run's process finds
    it (default: the module that defines its build function)."""
    return TARGETS.register(name.lower(), kind, module or kind.build.__module__)


def target_kind(spec: TargetSpec) -> TargetKind:
    """The kind a spec names; a ValueError that lists the known kinds if none."""
    try:
        return TARGETS.get(spec.kind)
    except UnknownTargetError:
        raise UnknownTargetError(
            f"unknown target {str(spec)!r}; {SPEC_HELP} (kinds: {', '.join(TARGETS.names())})"
        ) from None
