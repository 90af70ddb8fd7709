"""What kind of failure a request to a model ended in: the one vocabulary the clients raise,
the store keeps (`observation.error`), the failure rule counts and screens show. Never a model's
wrong answer: that is a verdict (`kglens_tui.core.verdict`)."""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    """What kind of transport or API failure an :class:`LLMError` is (stored as its value)."""

    TIMEOUT = "timeout"
    RATE_LIMIT = "rate_limit"
    SERVER = "server"
    MALFORMED = "malformed"
    CONNECTION = "connection"
    AUTH = "auth"
    NOT_FOUND = "not_found"
    BAD_REQUEST = "bad_request"


ERROR_KINDS: frozenset[str] = frozenset(ErrorKind)
"""The values of :attr:`LLMError.kind`."""
