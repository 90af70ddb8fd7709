"""What a run's helper LLMs cost: the calls of the question generator, the paraphraser and the
judge, counted apart from the target's and shown next to them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from kglens_tui.core.quick_frozen import quick_frozen
from kglens_tui.llm.base import ChatClient, ChatRequest, Completion, LLMError


class HelperRole(StrEnum):
    """Why a run called an LLM other than its target."""

    GENERATOR = "generator"
    PARAPHRASER = "paraphraser"
    JUDGE = "judge"


@quick_frozen
@dataclass(frozen=True)
class Usage:
    """What one request cost and how it went: its tokens, latency and retries, and the API
    failure ("" when the model answered). Every reply and stored row of a reply embeds one."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float | None = None
    retries: int = 0
    error: str = ""

    COLUMNS: ClassVar[tuple[str, ...]] = (
        "prompt_tokens",
        "completion_tokens",
        "latency_ms",
        "retries",
        "error",
    )
    """The stored columns of a reply's usage, in `values` order."""

    @property
    def failed(self) -> bool:
        """The request failed (an API failure, after its retries)."""
        return bool(self.error)

    def values(self) -> tuple[int, int, float | None, int, str]:
        """The fields in COLUMNS order, as stored."""
        return (
            self.prompt_tokens,
            self.completion_tokens,
            self.latency_ms,
            self.retries,
            self.error,
        )

    @classmethod
    def of(cls, done: Completion) -> Usage:
        """The usage of a request the model answered."""
        return cls(done.prompt_tokens, done.completion_tokens, done.latency_s * 1000, done.retries)

    @classmethod
    def failure(cls, exc: LLMError) -> Usage:
        """The usage of a request that failed: its retries and its error as "kind: message"."""
        return cls(retries=exc.retries, error=f"{exc.kind}: {exc}")


@quick_frozen
@dataclass(frozen=True)
class Counters:
    """Counts of requests: sent (failed and dropped ones included), failed (never a model
    answer), retries, tokens, and dropped (sent, but their replies went with an iteration or
    unit dropped whole: neither answers nor failures). A run's target's (`RunEngine.counters`),
    a helper role's, or those of a set of replies. The fields are in `target_usage.COLUMNS`
    order."""

    requests: int = 0
    errors: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    dropped: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def answered(self) -> int:
        """Requests the model answered (right, wrong, refused or unparseable)."""
        return self.requests - self.errors - self.dropped

    def values(self) -> tuple[int, int, int, int, int, int]:
        """The counts in field order."""
        return (
            self.requests,
            self.errors,
            self.retries,
            self.prompt_tokens,
            self.completion_tokens,
            self.dropped,
        )

    @classmethod
    def of(cls, replies: Iterable[tuple[Usage, bool]]) -> Counters:
        """The counts of these replies, each given as (its usage, whether it failed)."""
        requests = errors = retries = prompt = completion = 0
        for usage, failed in replies:
            requests += 1
            errors += failed
            retries += usage.retries
            prompt += usage.prompt_tokens
            completion += usage.completion_tokens
        return cls(requests, errors, retries, prompt, completion)

    def plus_one(self, usage: Usage, failed: bool) -> Counters:
        """These counts and one more request's (``failed``: the request or its verification
        failed)."""
        return Counters(
            self.requests + 1,
            self.errors + failed,
            self.retries + usage.retries,
            self.prompt_tokens + usage.prompt_tokens,
            self.completion_tokens + usage.completion_tokens,
            self.dropped,
        )

    def __add__(self, other: Counters) -> Counters:
        return Counters(*(a + b for a, b in zip(self.values(), other.values(), strict=True)))

    def __sub__(self, other: Counters) -> Counters:
        return Counters(*(a - b for a, b in zip(self.values(), other.values(), strict=True)))


@dataclass
class UsageLedger:
    """Helper usage of one engine: `stored` as committed, `pending` since the last commit."""

    stored: dict[str, Counters] = field(default_factory=dict)
    pending: dict[str, Counters] = field(default_factory=dict)

    def record(self, role: str, completion: Completion | None) -> None:
        """One call of `role`: its completion, or None when it failed."""
        call = (
            Counters(requests=1, errors=1)
            if completion is None
            else Counters(
                requests=1,
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
            )
        )
        self.pending[role] = self.pending.get(role, Counters()) + call

    def reject(self, role: str) -> None:
        """The last call of `role` answered, but out of the format asked for: a failed call."""
        self.pending[role] = self.pending.get(role, Counters()) + Counters(errors=1)

    def take(self) -> dict[str, Counters]:
        """The pending usage, moved to `stored` (call it when committing it)."""
        taken, self.pending = self.pending, {}
        for role, usage in taken.items():
            self.stored[role] = self.stored.get(role, Counters()) + usage
        return taken

    def totals(self) -> dict[str, Counters]:
        """Stored plus pending usage per role, in role order."""
        out: dict[str, Counters] = {}
        for part in (self.stored, self.pending):
            for role, usage in part.items():
                out[role] = out.get(role, Counters()) + usage
        return {r: out[r] for r in sorted(out, key=_role_order)}

    @property
    def requests(self) -> int:
        return sum(u.requests for u in self.totals().values())

    @property
    def tokens(self) -> int:
        return sum(u.tokens for u in self.totals().values())


def _role_order(role: str) -> tuple[int, str]:
    order = [r.value for r in HelperRole]
    return (order.index(role) if role in order else len(order), role)


class CountingClient:
    """A helper LLM whose every call is recorded in a ledger under its role."""

    def __init__(self, inner: ChatClient, role: HelperRole, ledger: UsageLedger) -> None:
        self.inner = inner
        self.role = role
        self.ledger = ledger
        self.label = inner.label
        self.simulated = inner.simulated

    async def complete(self, request: ChatRequest) -> Completion:
        try:
            done = await self.inner.complete(request)
        except LLMError:
            self.ledger.record(self.role, None)
            raise
        self.ledger.record(self.role, done)
        return done

    def reject(self) -> None:
        """Count the last reply as a failed call: it was out of the format asked for."""
        self.ledger.reject(self.role)

    async def aclose(self) -> None:
        await self.inner.aclose()


def counted(client: ChatClient | None, role: HelperRole, ledger: UsageLedger) -> ChatClient | None:
    """`client` wrapped so its calls are counted (None stays None)."""
    return None if client is None else CountingClient(client, role, ledger)


def calls_text(target: int, helpers: dict[str, Counters], what: str = "requests") -> str:
    """A target figure and the helpers' beside it: '640' without helper calls, else
    '640 target + 41 generator + 12 judge'; `what`: requests, errors or tokens."""
    extra = "".join(f" + {getattr(u, what):,} {role}" for role, u in helpers.items() if u.requests)
    return f"{target:,}" + (f" target{extra}" if extra else "")


def helpers_line(helpers: dict[str, Counters]) -> str:
    """One line per report: what the helper LLMs cost, apart from the target."""
    parts = [
        f"{role} {u.requests:,} requests ({u.errors:,} failed) · tokens {u.prompt_tokens:,} in / "
        f"{u.completion_tokens:,} out"
        for role, u in helpers.items()
        if u.requests
    ]
    return "helper LLM calls, not counted above: " + "; ".join(parts) if parts else ""
