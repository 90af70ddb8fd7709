"""What a run's helper LLMs cost: the calls of the question generator, the paraphraser and the
judge, counted apart from the target's and shown next to them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kglens_tui.llm.base import ChatClient, ChatRequest, Completion, LLMError


class HelperRole(StrEnum):
    """Why a run called an LLM other than its target."""

    GENERATOR = "generator"
    PARAPHRASER = "paraphraser"
    JUDGE = "judge"


@dataclass
class Usage:
    """Requests (failed ones included), failed requests and tokens of one role."""

    requests: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        self.requests += other.requests
        self.errors += other.errors
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


@dataclass
class UsageLedger:
    """Helper usage of one engine: `stored` as committed, `pending` since the last commit."""

    stored: dict[str, Usage] = field(default_factory=dict)
    pending: dict[str, Usage] = field(default_factory=dict)

    def record(self, role: str, completion: Completion | None) -> None:
        """One call of `role`: its completion, or None when it failed."""
        usage = self.pending.setdefault(role, Usage())
        usage.requests += 1
        if completion is None:
            usage.errors += 1
        else:
            usage.prompt_tokens += completion.prompt_tokens
            usage.completion_tokens += completion.completion_tokens

    def reject(self, role: str) -> None:
        """The last call of `role` answered, but out of the format asked for: a failed call."""
        self.pending.setdefault(role, Usage()).errors += 1

    def take(self) -> dict[str, Usage]:
        """The pending usage, moved to `stored` (call it when committing it)."""
        taken, self.pending = self.pending, {}
        for role, usage in taken.items():
            self.stored.setdefault(role, Usage()).add(usage)
        return taken

    def totals(self) -> dict[str, Usage]:
        """Stored plus pending usage per role, in role order."""
        out: dict[str, Usage] = {}
        for part in (self.stored, self.pending):
            for role, usage in part.items():
                out.setdefault(role, Usage()).add(usage)
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


def calls_text(target: int, helpers: dict[str, Usage], what: str = "requests") -> str:
    """A target figure and the helpers' beside it: '640' without helper calls, else
    '640 target + 41 generator + 12 judge'; `what`: requests, errors or tokens."""
    extra = "".join(f" + {getattr(u, what):,} {role}" for role, u in helpers.items() if u.requests)
    return f"{target:,}" + (f" target{extra}" if extra else "")


def helpers_line(helpers: dict[str, Usage]) -> str:
    """One line per report: what the helper LLMs cost, apart from the target."""
    parts = [
        f"{role} {u.requests:,} requests ({u.errors:,} failed) · tokens {u.prompt_tokens:,} in / "
        f"{u.completion_tokens:,} out"
        for role, u in helpers.items()
        if u.requests
    ]
    return "helper LLM calls, not counted above: " + "; ".join(parts) if parts else ""
