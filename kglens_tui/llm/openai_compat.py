"""Client for any OpenAI-compatible chat endpoint, with our own retry, backoff and rate limits."""

from __future__ import annotations

import asyncio
import email.utils
import functools
import json
import math
import os
import random
import ssl
import time
from collections.abc import Mapping
from typing import Any, cast
from urllib.parse import parse_qsl

import aiohttp
import openai

from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.pacing import Pacer
from kglens_tui.llm.urls import check_base_url
from kglens_tui.textfmt import counted

PLACEHOLDER_KEY = "not-needed"
"""Sent as the API key when the named environment variable is unset (local servers need none)."""

_SERVER_DETAIL_CHARS = 200

SDK_TELEMETRY_HEADERS = (
    "X-Stainless-Lang",
    "X-Stainless-Package-Version",
    "X-Stainless-OS",
    "X-Stainless-Arch",
    "X-Stainless-Runtime",
    "X-Stainless-Runtime-Version",
    "X-Stainless-Async",
)
"""Headers the openai SDK adds to every request to describe this machine: not sent (endpoints
need none of them, and each costs CPU on every request)."""


@functools.cache
def _shared_ssl_context() -> ssl.SSLContext:
    """One verifying TLS context for every client (building one costs ~0.1-0.2 s)."""
    cafile = os.environ.get("SSL_CERT_FILE")
    capath = os.environ.get("SSL_CERT_DIR")
    if not cafile and not capath:
        try:
            import certifi

            cafile = certifi.where()
        except ImportError:
            cafile = None
    return ssl.create_default_context(cafile=cafile, capath=capath)


class _Malformed(Exception):
    """A 2xx response whose body is not a usable chat completion."""


class OpenAICompatClient:
    """Chat client for an OpenAI-compatible ``/chat/completions`` endpoint.

    The SDK's own retries are disabled; this class retries rate limits, 5xx, timeouts, connection
    failures and malformed bodies with bounded exponential backoff (full jitter), honouring
    ``Retry-After`` / ``retry-after-ms``. Authentication, not-found and bad-request errors raise
    :class:`LLMError` at once. ``temperature`` and ``max_tokens``, when given, override the
    values of each request. A base URL that carries credentials is refused (BaseURLError), so
    no error message or label can show them.
    """

    simulated = False

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        temperature: float | None = None,
        max_tokens: int | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 5,
        max_in_flight: int = 16,
        requests_per_minute: float | None = None,
        seed: int | None = None,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 20.0,
        max_retry_after_s: float = 60.0,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.pacer = Pacer(max_in_flight, requests_per_minute)
        self.base_url = check_base_url(base_url.strip()).rstrip("/")
        # a query string (e.g. ?api-version=...) goes with every request, after the path
        endpoint, _, query = self.base_url.partition("?")
        endpoint = endpoint.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.max_in_flight = max_in_flight
        self.requests_per_minute = requests_per_minute
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.max_retry_after_s = max_retry_after_s
        self.label = f"openai:{model} @ {self.base_url}"
        self._key_from_env = bool(os.environ.get(api_key_env))
        self._client = openai.AsyncOpenAI(
            api_key=os.environ.get(api_key_env) or PLACEHOLDER_KEY,
            base_url=endpoint,
            default_query=dict(parse_qsl(query, keep_blank_values=True)) or None,
            timeout=timeout_s,
            max_retries=0,
            http_client=openai.DefaultAioHttpClient(verify=_shared_ssl_context()),
            # the SDK drops a default header whose value is Omit() (typed as str there)
            default_headers=cast(
                "dict[str, str]", dict.fromkeys(SDK_TELEMETRY_HEADERS, openai.Omit())
            ),
        )
        self._rng = random.Random(seed)
        self._pause_until = 0.0
        self._token_param = "max_tokens"
        # an absolute URL spares the SDK two URL parses per request
        self._chat_path = f"{endpoint}/chat/completions"

    async def aclose(self) -> None:
        """Close the underlying HTTP connection pool."""
        await self._client.close()

    async def complete(self, request: ChatRequest) -> Completion:
        """Send one chat request, retrying transient failures; ``latency_s`` includes retries."""
        started = time.perf_counter()
        retries = 0
        while True:
            try:
                text, prompt_tokens, completion_tokens = await self._attempt(request)
            except LLMError as err:
                if not err.retryable:
                    err.retries = retries
                    raise
                if retries >= self.max_retries:
                    note = f" (gave up after {retries + 1} attempts)" if retries else ""
                    raise LLMError(err.kind, err.message + note, retries=retries) from None
                await asyncio.sleep(self._backoff_delay(retries))
                retries += 1
                continue
            return Completion(
                text=text,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                latency_s=time.perf_counter() - started,
                retries=retries,
            )

    async def list_models(self) -> list[str]:
        """Return the model ids the endpoint lists (one attempt, no retries)."""
        try:
            page = await self._client.models.list()
        except openai.APIError as exc:
            raise self._translate(exc) from None
        return [m.id for m in page.data]

    async def _attempt(self, request: ChatRequest) -> tuple[str, int, int]:
        """One HTTP attempt, holding an in-flight slot; maps every failure to an LLMError."""
        async with self.pacer.turn(not_before=lambda: self._pause_until):
            max_tokens = self.max_tokens if self.max_tokens is not None else request.max_tokens
            temperature = self.temperature if self.temperature is not None else request.temperature
            body = await self._post_chat(request, max_tokens, temperature)
        try:
            return _parse_chat_body(body)
        except _Malformed as exc:
            raise LLMError("malformed", f"{self.base_url} sent a malformed reply: {exc}") from None

    async def _post_chat(self, request: ChatRequest, max_tokens: int, temperature: float) -> str:
        """POST the chat request and return the raw body; falls back to max_completion_tokens."""
        while True:
            token_arg = {self._token_param: max_tokens}
            try:
                # The SDK's generic post: same client, auth, errors and timeouts as
                # chat.completions.create, without its per-call parameter transformation
                # (a third of the CPU per request); the body is parsed by _parse_chat_body.
                # The body goes as ready JSON bytes: the SDK neither copies nor re-encodes it.
                body = {
                    "model": self.model,
                    "messages": request.messages,
                    "temperature": temperature,
                    **token_arg,
                }
                return await self._client.post(
                    self._chat_path, content=json.dumps(body).encode(), cast_to=str
                )
            except openai.BadRequestError as exc:
                wants_new_param = "max_completion_tokens" in str(exc.body or exc.message)
                if self._token_param == "max_tokens" and wants_new_param:
                    self._token_param = "max_completion_tokens"
                    continue
                raise self._translate(exc) from None
            except openai.APIError as exc:
                self._note_retry_after(exc)
                raise self._translate(exc) from None

    def _note_retry_after(self, exc: openai.APIError) -> None:
        """After a 429/503 with Retry-After, pause every request of this client until then."""
        if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (429, 503):
            return
        delay = parse_retry_after(exc.response.headers)
        if delay is not None:
            delay = min(max(delay, 0.0), self.max_retry_after_s)
            self._pause_until = max(self._pause_until, time.monotonic() + delay)

    def _backoff_delay(self, retries: int) -> float:
        """Full-jitter exponential backoff; never shorter than a pending Retry-After pause."""
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * (2**retries))
        delay = self._rng.uniform(0.0, ceiling)
        pending = self._pause_until - time.monotonic()
        return max(delay, pending, 0.0)

    def _translate(self, exc: openai.APIError) -> LLMError:
        """Map an SDK exception to an LLMError with a clear message that never contains the key."""
        where = self.base_url
        if isinstance(exc, openai.APITimeoutError) and _really_timed_out(exc):
            return LLMError("timeout", f"{where} did not answer within {self.timeout_s:g} s")
        cut = _cut_reply(exc)
        if cut is not None:  # it was reached: it answered, then the body stopped
            return LLMError("connection", f"{where} broke off its reply mid-body ({cut})")
        if isinstance(exc, openai.APITimeoutError):
            # the aiohttp transport reports refused, closed and reset connections as timeouts
            reason = describe_connection_error(exc.__cause__ or exc)
            return LLMError("connection", f"cannot reach {where}: {reason}")
        if isinstance(exc, openai.APIConnectionError):
            return LLMError("connection", f"cannot reach {where}: {describe_connection_error(exc)}")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = self._redact(_server_detail(exc))
            suffix = f" ({detail})" if detail else ""
            if status in (401, 403):
                key_hint = (
                    f"the endpoint refused the API key in ${self.api_key_env}"
                    if self._key_from_env
                    else f"the endpoint needs an API key: set ${self.api_key_env}"
                )
                return LLMError("auth", f"{where}: HTTP {status}: {key_hint}{suffix}")
            if status == 404:
                return LLMError(
                    "not_found",
                    f"{where}: HTTP 404: model '{self.model}' is unknown there, "
                    f"or the base URL is wrong{suffix}",
                )
            if status == 429:
                return LLMError("rate_limit", f"{where}: HTTP 429 rate limited{suffix}")
            if status >= 500 or status in (408, 409):
                kind = "timeout" if status == 408 else "server"
                return LLMError(kind, f"{where}: HTTP {status} server error{suffix}")
            return LLMError("bad_request", f"{where}: HTTP {status} bad request{suffix}")
        if isinstance(exc, openai.APIResponseValidationError):
            return LLMError("malformed", f"{where} sent a malformed reply")
        return LLMError("malformed", f"{where}: unexpected API error: {type(exc).__name__}")

    def _redact(self, text: str) -> str:
        """Remove the API key from server-provided text, in case a server echoes it."""
        key = self._client.api_key
        if key and key != PLACEHOLDER_KEY and len(key) >= 4:
            text = text.replace(key, "***")
        return text


def _parse_chat_body(text: str) -> tuple[str, int, int]:
    """Extract (content, prompt_tokens, completion_tokens) from a chat completion body."""
    try:
        data = json.loads(text)
    except ValueError:
        raise _Malformed("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise _Malformed("the body is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        error = data.get("error")
        if error:
            raise _Malformed(f"no choices, error: {str(error)[:_SERVER_DETAIL_CHARS]}")
        raise _Malformed("the response has no choices")
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict)]
        content = "".join(p for p in parts if isinstance(p, str))
    if not isinstance(content, str):
        raise _Malformed("the message content is missing or null")
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return content, _as_int(usage.get("prompt_tokens")), _as_int(usage.get("completion_tokens"))


def _as_int(value: Any) -> int:
    """Token counts as int, 0 when absent or not a number."""
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return 0


def _server_detail(exc: openai.APIStatusError) -> str:
    """A short server-provided error message, if the body has one."""
    body = exc.body
    message: object = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
    elif isinstance(body, str):
        message = body
    text = " ".join(str(message).split()) if message else ""
    return text[:_SERVER_DETAIL_CHARS]


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = lowered.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        if math.isfinite(seconds):
            return max(seconds, 0.0)
    value = lowered.get("retry-after")
    if value:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(when.timestamp() - time.time(), 0.0)
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and its causes / contexts, outermost first."""
    seen: set[int] = set()
    out: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def _cut_reply(exc: BaseException) -> str | None:
    """How a reply was cut short (its body ended before its length, or a chunked body broke
    off), or None when the failure was not that."""
    for e in _chain(exc):
        if isinstance(e, aiohttp.ClientPayloadError):
            if "content length" in " ".join(str(c) for c in _chain(e)).lower():
                return "fewer bytes came than its Content-Length said"
            return "the connection closed before the body was whole"
    return None


def _really_timed_out(exc: BaseException) -> bool:
    """Whether an SDK timeout error is a timeout: the aiohttp transport maps every failed or
    dropped connection to a connect timeout, but a real one has a TimeoutError among its causes."""
    chain = _chain(exc)
    if any(isinstance(e, TimeoutError) for e in chain):
        return True
    return not any(isinstance(e, aiohttp.ClientError) for e in chain)


def describe_connection_error(exc: BaseException) -> str:
    """A short human reason for a connection failure, e.g. ``"connection refused"``."""
    chain = _chain(exc)
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return "connection refused"
    if any(isinstance(e, ssl.SSLError | ssl.CertificateError) for e in chain):
        return "TLS/SSL handshake failed"
    joined = " ".join(str(e).lower() for e in chain)
    if "refused" in joined or "all connection attempts failed" in joined:
        return "connection refused"
    if "name or service not known" in joined or "nodename nor servname" in joined:
        return "host not found"
    if "getaddrinfo" in joined or "name resolution" in joined:
        return "host not found"
    if "certificate" in joined or "ssl handshake" in joined:
        return "TLS/SSL handshake failed"
    if "unreachable" in joined or "no route to host" in joined:
        return "network unreachable"
    if "timed out" in joined:
        return "connection timed out"
    if "reset" in joined or "disconnected" in joined or "closed" in joined:
        return "the server closed the connection"
    return "connection error"


async def check_endpoint(
    base_url: str,
    model: str,
    api_key_env: str = "OPENAI_API_KEY",
    timeout_s: float = 10.0,
) -> str:
    """Make one cheap request (list models, then a 1-token chat) and describe the endpoint.

    Raises :class:`LLMError` with a user-facing message when the endpoint is unreachable,
    the model is unknown or the key is refused.
    """
    client = OpenAICompatClient(
        base_url, model, api_key_env=api_key_env, timeout_s=timeout_s, max_retries=0
    )
    try:
        listed: list[str] | None
        try:
            listed = await client.list_models()
        except LLMError as err:
            if err.kind in ("not_found", "bad_request", "server", "malformed"):
                listed = None  # some servers do not implement /models: the chat call decides
            else:
                raise
        if listed is not None and listed and model not in listed:
            shown = ", ".join(sorted(listed)[:8]) + (", ..." if len(listed) > 8 else "")
            raise LLMError(
                "not_found",
                f"{client.base_url} does not serve model '{model}' (it lists: {shown})",
            )
        probe = ChatRequest(messages=({"role": "user", "content": "Say OK."},), max_tokens=1)
        reply = await client.complete(probe)
    finally:
        await client.aclose()
    models_note = f", {counted(len(listed), 'model')} listed" if listed else ""
    return f"OK: {client.base_url} answers as '{model}' in {reply.latency_s:.2f} s{models_note}"
