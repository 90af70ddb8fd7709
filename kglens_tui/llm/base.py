"""Shared types for the chat clients: requests, completions, errors and the client protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from kglens_tui.core.error_kinds import ERROR_KINDS, ErrorKind
from kglens_tui.core.errors import KGLensError
from kglens_tui.core.quick_frozen import quick_frozen
from kglens_tui.core.safetext import storable

RETRYABLE_KINDS: frozenset[str] = frozenset(
    {
        ErrorKind.TIMEOUT,
        ErrorKind.RATE_LIMIT,
        ErrorKind.SERVER,
        ErrorKind.MALFORMED,
        ErrorKind.CONNECTION,
    }
)
"""Kinds that are worth retrying: the same request may succeed later."""


@quick_frozen
@dataclass(frozen=True)
class QuestionMeta:
    """What the probe knows about one question; simulated targets use it, real ones ignore it."""

    key: str
    """Unique, deterministic id of this ask, e.g. ``"run3:it7:edge42:0"``."""
    edge_id: int
    subject: str
    """Entity key of the subject, e.g. ``"country:AUT"``."""
    predicate: str
    object: str
    """The edge's true object key."""
    qtype: str
    """A `QuestionType` value."""
    expected: str = ""
    """``"yes"``/``"no"`` for yes_no questions, ``""`` for wh questions."""
    candidate_label: str = ""
    """Object label asked about in a yes_no question."""
    true_labels: tuple[str, ...] = ()
    """Labels (and aliases) of T(s, p), for wh questions."""
    wrong_labels: tuple[str, ...] = ()
    """Some false candidates, used for simulated wrong answers."""
    template: int = 0
    """KONTEST's phrasing of the fact: 1 or 2 (its two templates), 3 (the unseen one); 0 for a
    question of another mode."""
    context: str = ""
    """Fact-eval's context before the question: "relevant", "irrelevant", "antifactual"; ""
    for none."""
    llm_written: bool = False
    """Whether a generator (an LLM) wrote the question rather than a template."""


@quick_frozen
@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request in OpenAI message format."""

    messages: tuple[dict[str, str], ...]
    max_tokens: int = 64
    temperature: float = 0.0
    meta: QuestionMeta | None = None


@dataclass(frozen=True)
class Completion:
    """A model reply with its token usage and timing."""

    text: str
    """The reply as `storable` text (a lone surrogate an endpoint escaped becomes U+FFFD)."""
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    retries: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", storable(self.text))


class LLMError(KGLensError):
    """A transport or API failure that persisted after retries; never a model (answer) error.

    ``kind`` is one of :data:`ERROR_KINDS`; ``retries`` is how many retries were made.
    """

    def __init__(self, kind: str, message: str, *, retries: int = 0) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown LLMError kind {kind!r}")
        message = storable(message)
        super().__init__(message)
        self.kind = ErrorKind(kind)
        self.message = message
        self.retries = retries

    def __reduce__(self) -> tuple[object, ...]:
        return (self.__class__, (self.kind, self.message), {"retries": self.retries})

    @property
    def retryable(self) -> bool:
        """Whether the failure was transient in nature (rate limit, 5xx, timeout, ...)."""
        return self.kind in RETRYABLE_KINDS

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"LLMError(kind={self.kind!r}, message={self.message!r}, retries={self.retries})"


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers chat requests: a remote endpoint, a local model or a simulation."""

    label: str
    simulated: bool

    async def complete(self, request: ChatRequest) -> Completion:
        """Answer one request; raise :class:`LLMError` on a transport/API failure."""
        ...

    async def aclose(self) -> None:
        """Release connections, threads or model memory."""
        ...


def user_messages(system: str | None, user: str) -> tuple[dict[str, str], ...]:
    """Build a minimal message tuple: an optional system prompt followed by one user turn."""
    head: tuple[dict[str, str], ...] = ({"role": "system", "content": system},) if system else ()
    return head + ({"role": "user", "content": user},)
