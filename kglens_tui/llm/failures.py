"""When a run must stop because its target fails: one rule for KGLens, KONTEST and facteval runs.

The rule (`FailureGuard`):

- an ``auth`` (HTTP 401/403: wrong or missing key) or ``not_found`` (HTTP 404: unknown model or
  wrong base URL) failure stops the run at once: no later request can succeed;
- so does a ``bad_request`` (HTTP 400, 422...) before any request of the session succeeded: the
  endpoint refuses what the run sends (a parameter it does not take), not one question (a 400
  after a success counts toward the share below, as one over-long prompt would);
- otherwise the run stops as soon as at least ``FAILED_SHARE`` (75%) of its last ``WINDOW`` (32)
  requests failed (after retries): the endpoint is down, overloaded or rejects every request;
- a run that ends having sent fewer than ``WINDOW`` requests in this session fails when that
  share of them failed;
- a run that ends having had more than ``MOSTLY_FAILED`` (half) of this session's requests fail
  fails too, however the failures were spread: its figures would rest on the few that did not
  (a resume asks the edges whose last request failed again).

A failed request is an API failure, never a model answer: the engines record it as an error
outcome, and it stops the run only through this rule. The cause is one line: the failure's
message (status, URL, the first part of the error body), after the share and kinds of the
failures when the share stopped the run.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, deque

from kglens_tui.core.error_kinds import ErrorKind
from kglens_tui.textfmt import counted

FATAL_KINDS: frozenset[str] = frozenset({ErrorKind.AUTH, ErrorKind.NOT_FOUND})
"""Failure kinds after which no later request can succeed."""
WINDOW = 32
"""How many of the latest requests the share is taken over."""
FAILED_SHARE = 0.75
"""The share of failed requests in the window that stops a run."""
MOSTLY_FAILED = 0.5
"""The share of a session's requests that, failed by its end, fails the run."""
STOP_REASON = "the target failed"
"""The stop reason of a run this rule stopped; the cause goes in the run's error."""
EXIT_STATUS = 1
"""Exit status of a command whose run this rule stopped."""


class FailureGuard:
    """Tracks the outcome of each request of one run session and decides when it must stop.

    `record` every request's outcome (its failure kind, or None when it succeeded); `cause` is
    "" while the run may go on, else the one-line cause; `tripped` is set at the same moment.
    """

    def __init__(self, window: int = WINDOW, share: float = FAILED_SHARE) -> None:
        self.window = window
        self.threshold = math.ceil(share * window)
        self.share = share
        self._recent: deque[str] = deque(maxlen=window)
        self._failed = 0
        self._latest = ""
        self.requests = 0
        self.failed = 0
        """Requests of the session that failed."""
        self.cause = ""
        self.tripped = asyncio.Event()
        self.succeeded = 0
        """Requests of the session that succeeded."""

    def record(self, kind: str | None, message: str = "") -> None:
        """Take one request's outcome: `kind` of its failure (an LLMError kind, or any other
        word for a failure that is not the transport's), None when it succeeded."""
        if len(self._recent) == self.window and self._recent[0]:
            self._failed -= 1
        self._recent.append(kind or "")
        self.requests += 1
        if not kind:
            self.succeeded += 1
            return
        self._failed += 1
        self.failed += 1
        self._latest = " ".join(message.split()) or kind
        if self.cause:
            return
        if kind in FATAL_KINDS or (kind == ErrorKind.BAD_REQUEST and not self.succeeded):
            self._trip(self._latest)
        elif self._failed >= self.threshold:
            self._trip(self._share_text())

    def finish(self) -> str:
        """The cause at the end of a session: a short session whose requests mostly failed also
        fails, and so does one where more than `MOSTLY_FAILED` of all its requests failed.
        Returns the cause ("" when the run did not fail)."""
        sent = len(self._recent)
        if not self.cause and sent and sent < self.window and self._failed >= self.share * sent:
            self._trip(self._share_text())
        if not self.cause and self.failed > MOSTLY_FAILED * self.requests:
            self._trip(
                f"{self.failed:,} of this session's {self.requests:,} requests failed, so its "
                f"figures would rest on the rest; latest: {self._latest}"
            )
        return self.cause

    @property
    def latest(self) -> str:
        """The latest failure's one-line message ("" before any)."""
        return self._latest

    def _share_text(self) -> str:
        kinds = Counter(k for k in self._recent if k)
        shown = ", ".join(f"{k} {n}" for k, n in kinds.most_common())
        return (
            f"{self._failed:,} of the last {counted(len(self._recent), 'request')} failed ({shown}); "
            f"latest: {self._latest}"
        )

    def _trip(self, cause: str) -> None:
        self.cause = cause
        self.tripped.set()
