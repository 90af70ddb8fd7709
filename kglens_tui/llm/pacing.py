"""How fast a run may talk to its target: at most `max_in_flight` requests at once, their starts
spaced for a requests-per-minute limit. The OpenAI-compatible client paces itself with a
`Pacer`; every other target kind is wrapped in a `PacedClient`, so `--concurrency` and
`--requests-per-minute` mean the same for every target."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from kglens_tui.llm.base import ChatClient, ChatRequest, Completion

_LEFT: ContextVar[list[bool] | None] = ContextVar("kglens_request_left", default=None)
"""Set by `complete_counted` around one request; a pacer marks it when the request starts."""


async def complete_counted(client: ChatClient, request: ChatRequest, sent: list[int]) -> Completion:
    """``client.complete(request)``, adding 1 to ``sent[0]`` once the request has gone out: it
    came back (answer or error), or it was cancelled after its pacer let it start. A request
    cancelled while it waited for a slot or for the rate limit was never sent; a client that does
    not pace with a `Pacer` is taken to send at once."""
    left = [not isinstance(getattr(client, "pacer", None), Pacer)]
    token = _LEFT.set(left)
    cancelled = False
    try:
        return await client.complete(request)
    except asyncio.CancelledError:
        cancelled = True
        raise
    finally:
        _LEFT.reset(token)
        if left[0] or not cancelled:
            sent[0] += 1


class Pacer:
    """In-flight slots and start spacing, shared by every request of one client."""

    def __init__(
        self,
        max_in_flight: int,
        requests_per_minute: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        """``clock`` and ``sleep`` are the time the spacing is kept in (a test's own clock)."""
        if max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1")
        if requests_per_minute is not None and not 0 < requests_per_minute < float("inf"):
            raise ValueError("requests_per_minute must be a positive number")
        self.max_in_flight = max_in_flight
        self.requests_per_minute = requests_per_minute
        self._slots = asyncio.Semaphore(max_in_flight)
        self._interval_s = 60.0 / requests_per_minute if requests_per_minute else 0.0
        self._last_start = -float("inf")
        """When the last request went out, on ``clock``."""
        self._spacing = asyncio.Lock()
        """Held by the one request waiting for its start: the next one's wait begins from when
        this one really went out, not from when it was planned."""
        self._clock = clock
        self._sleep = sleep

    @property
    def last_start(self) -> float:
        """When the last request went out, on the pacer's clock (-inf before the first; kept
        only with a requests-per-minute limit)."""
        return self._last_start

    def turn(self, not_before: Callable[[], float] | None = None) -> _Turn:
        """Hold an in-flight slot, starting no earlier than the RPM spacing after the previous
        start and `not_before()` (a `time.monotonic()` instant, e.g. a server's Retry-After:
        read once the slot is held, so a pause that began while the request waited still holds
        it back) allow. The spacing is kept from the instant each request actually goes out: a
        sleep that overruns (a busy machine) delays the next ones instead of bunching them.
        Used as ``async with pacer.turn(): ...``."""
        return _Turn(self, not_before)

    async def _start(self, not_before: Callable[[], float] | None) -> None:
        """With a slot held: wait for the spacing and ``not_before``, then mark the request
        sent."""
        if self._interval_s:
            async with self._spacing:
                await self._wait(not_before)
                self._last_start = self._clock()
        elif not_before is not None:
            await self._wait(not_before)
        if (left := _LEFT.get()) is not None:
            left[0] = True  # the request goes out now

    async def _wait(self, not_before: Callable[[], float] | None) -> None:
        """Sleep until the spacing and ``not_before()`` allow a start, checking again after each
        sleep (the clock, not the sleep, says when the time has come)."""
        while True:
            now = self._clock()
            start = max(now, self._last_start + self._interval_s)
            if not_before is not None:
                start = max(start, not_before())
            if start <= now:
                return
            await self._sleep(start - now)


class _Turn:
    """One request's turn (`Pacer.turn`): a slot held from entry to exit. A class rather than a
    generator-based context manager: this runs once per request, and costs a tenth of one."""

    __slots__ = ("_not_before", "_pacer")

    def __init__(self, pacer: Pacer, not_before: Callable[[], float] | None) -> None:
        self._pacer = pacer
        self._not_before = not_before

    async def __aenter__(self) -> None:
        slots = self._pacer._slots
        await slots.acquire()
        try:
            await self._pacer._start(self._not_before)
        except BaseException:
            slots.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._pacer._slots.release()


class PacedClient:
    """A target client whose requests go through a `Pacer`; everything else is the inner
    client's."""

    def __init__(self, inner: ChatClient, pacer: Pacer) -> None:
        self.inner = inner
        self.pacer = pacer
        self.label = inner.label
        self.simulated = inner.simulated

    async def complete(self, request: ChatRequest) -> Completion:
        pacer = self.pacer
        if pacer._interval_s:
            async with pacer.turn():
                return await self.inner.complete(request)
        # no spacing to keep: a slot is all the request waits for (`Pacer.turn` without its
        # turn object and the calls around it: this runs once per request)
        slots = pacer._slots
        await slots.acquire()
        try:
            if (left := _LEFT.get()) is not None:
                left[0] = True  # the request goes out now
            return await self.inner.complete(request)
        finally:
            slots.release()

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("inner", "pacer"):
            raise AttributeError(name)  # copy and pickle look these up before __init__ ran
        return getattr(self.inner, name)
