"""Test targets that a run's child process builds (`RunSession(target_factory=...)`).

A run's process is started with "spawn": it unpickles the target factory by importing the module
that defines it. Defined in a test module, the factory made every such process import that test
module with all it imports (the terminal UI, other test modules), about a second per run. This
module imports nothing heavy, so a run's process starts as fast as a real one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from kglens_tui.llm.base import ChatRequest, Completion, LLMError


class YesTarget:
    """Answers "Yes" after ``delay_s``; counts its requests in this process."""

    label = "yes-sayer"
    simulated = True

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s

    async def complete(self, request):
        await asyncio.sleep(self.delay_s)
        return Completion(text="Yes.", prompt_tokens=3, completion_tokens=1, latency_s=0.0)

    async def aclose(self) -> None:
        return None


class SlowYes(YesTarget):
    """Slow enough (per answer) to be paused, stopped or killed in the middle of a run."""

    def __init__(self) -> None:
        super().__init__(delay_s=0.05)


class GatedYes(YesTarget):
    """Answers "Yes" to the first ``free`` requests, then only once the file ``gate`` exists: a
    request in flight waits for it (a run asked to stop stays stopping until the gate opens)."""

    def __init__(self, gate: str, free: int = 1) -> None:
        super().__init__()
        self.gate, self.free = Path(gate), free

    async def complete(self, request):
        self.free -= 1
        while self.free < 0 and not self.gate.exists():
            await asyncio.sleep(0.02)
        return await super().complete(request)


class HangAfterThree(YesTarget):
    """Answers three questions, then never again (the process is killed meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = 0
        self.hanging = 0
        """Requests that came after the third and wait for ever."""

    async def complete(self, request):
        if self.answered >= 3:
            self.hanging += 1
            await asyncio.Event().wait()
        self.answered += 1
        return await super().complete(request)


class ScriptedTarget:
    """Answers the last user message from a dict ("Yes." by default); ``after`` overrides the
    answer to a question asked right after another one; questions in ``fail`` raise LLMError."""

    simulated = False

    def __init__(
        self,
        replies: Mapping[str, str] | None = None,
        *,
        after: Mapping[tuple[str, str], str] | None = None,
        fail: Iterable[str] = (),
        reply_fn: Callable[[list[str]], str] | None = None,
        label: str = "scripted",
    ) -> None:
        self.replies = dict(replies or {})
        self.after = dict(after or {})
        self.fail = set(fail)
        self.reply_fn = reply_fn
        self.label = label
        self.asked: list[tuple[str, ...]] = []
        self.messages: list[tuple[dict[str, str], ...]] = []

    async def complete(self, request: ChatRequest) -> Completion:
        users = [m["content"] for m in request.messages if m["role"] == "user"]
        self.asked.append(tuple(users))
        self.messages.append(request.messages)
        if users[-1] in self.fail:
            raise LLMError("server", "HTTP 500 from the scripted target", retries=2)
        if self.reply_fn is not None:
            text = self.reply_fn(users)
        elif len(users) > 1 and (users[-2], users[-1]) in self.after:
            text = self.after[(users[-2], users[-1])]
        else:
            text = self.replies.get(users[-1], "Yes.")
        return Completion(text, 12, 2, 0.001)

    async def aclose(self) -> None:
        return None


class EveryNthFails(YesTarget):
    """Answers "Yes", but every ``n``-th request fails (a server error), to be retried. Neither
    waits, so replies come back in the order asked (a failure that came back before the answers
    around it would look like a failing target to the run's guard)."""

    simulated = False

    def __init__(self, n: int = 5) -> None:
        super().__init__()
        self.n, self.calls = n, 0

    async def complete(self, request):
        self.calls += 1
        if self.calls % self.n == 0:
            raise LLMError("server", "HTTP 503 from the test target", retries=0)
        return Completion(text="Yes.", prompt_tokens=3, completion_tokens=1, latency_s=0.0)
