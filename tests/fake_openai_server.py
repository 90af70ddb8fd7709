"""A loopback OpenAI-compatible fake server for tests and benchmarks (stdlib only).

Serves ``GET /v1/models`` and ``POST /v1/chat/completions`` on 127.0.0.1 (port 0) from a
thread per connection, with deterministic fault injection, latency and counters::

    with FakeOpenAIServer(faults=["429", None]) as srv:
        client = OpenAICompatClient(srv.base_url, "fake-model")
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS: frozenset[str] = frozenset(
    {
        "429",  # rate limited, with Retry-After
        "500",  # internal server error
        "503",  # unavailable, with Retry-After
        "timeout",  # answer only after ``timeout_delay_s``
        "malformed",  # 200 with a body that is not JSON
        "empty_choices",  # 200 with "choices": []
        "missing_choices",  # 200 without "choices"
        "null_content",  # 200 with message.content = null
        "cut",  # 200 whose body stops halfway: the connection closes mid-reply
    }
)

Message = Mapping[str, str]


def default_answer(messages: Sequence[Message]) -> str:
    """Reply "Yes." or "No." deterministically from a hash of the last user message."""
    last = next((m.get("content", "") for m in reversed(messages) if m.get("role") == "user"), "")
    digest = hashlib.sha256(str(last).encode()).digest()
    return "Yes." if digest[0] % 2 == 0 else "No."


def _count_tokens(text: str) -> int:
    return len(str(text).split())


class FakeOpenAIServer:
    """OpenAI-compatible fake server; use as a context manager and read ``base_url``.

    Faults for chat request number ``i`` (0-based) come from ``faults[i]`` when ``i`` is inside
    the schedule, else from ``fault_rates`` drawn with ``random.Random(f"{seed}:{i}")``.
    ``latency_fn(rng)`` (or fixed ``latency_s``) delays each chat answer without blocking others.
    ``reject=(status, message)`` answers every chat request with that HTTP error instead.
    """

    def __init__(
        self,
        *,
        answer_fn: Callable[[Sequence[Message]], str] = default_answer,
        models: Sequence[str] = ("fake-model",),
        required_key: str | None = None,
        faults: Sequence[str | None] = (),
        fault_rates: Mapping[str, float] | None = None,
        seed: int = 0,
        retry_after: float | str | None = 1,
        retry_after_ms: float | None = None,
        timeout_delay_s: float = 5.0,
        latency_s: float = 0.0,
        latency_fn: Callable[[random.Random], float] | None = None,
        include_usage: bool = True,
        reject: tuple[int, str] | None = None,
    ) -> None:
        unknown = {f for f in faults if f is not None} | set(fault_rates or {})
        if unknown - FAULTS:
            raise ValueError(f"unknown faults: {sorted(unknown - FAULTS)}")
        self.answer_fn = answer_fn
        self.models = tuple(models)
        self.required_key = required_key
        self.faults = list(faults)
        self.fault_rates = dict(fault_rates or {})
        self.seed = seed
        self.retry_after = retry_after
        self.retry_after_ms = retry_after_ms
        self.timeout_delay_s = timeout_delay_s
        self.latency_s = latency_s
        self.latency_fn = latency_fn
        self.include_usage = include_usage
        self.reject = reject
        """(status, error message) that answers every chat request, e.g. (400, "bad input")."""

        self.lock = threading.Lock()
        self.requests = 0
        """Chat completion requests received (including faulted and rejected ones)."""
        self.model_requests = 0
        self.last_headers: dict[str, str] = {}
        """The HTTP headers of the latest chat request."""
        self.last_path = ""
        """The path and query string of the latest chat request."""
        self.completed = 0
        """Chat requests answered with a proper completion."""
        self.fault_counts: Counter[str] = Counter()
        self.status_counts: Counter[int] = Counter()
        self.in_flight = 0
        self.peak_in_flight = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.received: list[dict[str, Any]] = []
        """Decoded JSON bodies of chat requests, in arrival order."""
        self.request_times: list[float] = []
        """``time.monotonic()`` at the arrival of each chat request."""

        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        """Bind 127.0.0.1 on a free port and serve from a background thread."""
        handler = _make_handler(self)
        httpd = _Server(("127.0.0.1", 0), handler)
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; pending delayed answers are abandoned."""
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        """The bound TCP port."""
        if self._httpd is None:
            raise RuntimeError("server not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- behaviour ---------------------------------------------------------------------------

    def fault_for(self, index: int) -> str | None:
        """The fault injected into chat request number ``index``."""
        if index < len(self.faults):
            return self.faults[index]
        if not self.fault_rates:
            return None
        draw = random.Random(f"{self.seed}:{index}").random()
        acc = 0.0
        for name in sorted(self.fault_rates):
            acc += self.fault_rates[name]
            if draw < acc:
                return name
        return None

    def latency_for(self, index: int) -> float:
        """The answer delay for chat request number ``index``."""
        if self.latency_fn is not None:
            return max(float(self.latency_fn(random.Random(f"{self.seed}:lat:{index}"))), 0.0)
        return self.latency_s

    def sleep(self, seconds: float) -> bool:
        """Sleep unless the server stops first; True when the full delay elapsed."""
        return not self._stop.wait(seconds) if seconds > 0 else True

    def retry_headers(self) -> dict[str, str]:
        """Retry-After headers sent with 429 and 503."""
        headers: dict[str, str] = {}
        if self.retry_after is not None:
            headers["Retry-After"] = str(self.retry_after)
        if self.retry_after_ms is not None:
            headers["retry-after-ms"] = str(self.retry_after_ms)
        return headers


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 256


def _error_body(message: str, kind: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            """Silence the default stderr access log."""

        def _send(
            self, status: int, payload: Any, headers: Mapping[str, str] | None = None
        ) -> None:
            raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            with server.lock:
                server.status_counts[status] += 1
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def _authorised(self) -> bool:
            if server.required_key is None:
                return True
            if self.headers.get("Authorization", "") == f"Bearer {server.required_key}":
                return True
            self._send(
                401,
                _error_body(
                    "Incorrect API key provided.", "invalid_request_error", "invalid_api_key"
                ),
            )
            return False

        def _read_body(self) -> bytes:
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def do_GET(self) -> None:  # noqa: N802
            self._read_body()
            if not self.path.partition("?")[0].rstrip("/").endswith("/models"):
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))
                return
            with server.lock:
                server.model_requests += 1
            if not self._authorised():
                return
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "fake"}
                for m in server.models
            ]
            self._send(200, {"object": "list", "data": data})

        def do_POST(self) -> None:  # noqa: N802
            raw = self._read_body()
            if not self.path.partition("?")[0].rstrip("/").endswith("/chat/completions"):
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))
                return
            with server.lock:
                index = server.requests
                server.requests += 1
                server.last_headers = dict(self.headers.items())
                server.last_path = self.path
                server.request_times.append(time.monotonic())
                server.in_flight += 1
                server.peak_in_flight = max(server.peak_in_flight, server.in_flight)
            try:
                self._chat(index, raw)
            finally:
                with server.lock:
                    server.in_flight -= 1

        def _chat(self, index: int, raw: bytes) -> None:
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, _error_body("invalid JSON body", "invalid_request_error"))
                return
            with server.lock:
                server.received.append(body)
            if not self._authorised():
                return
            if server.reject is not None:
                status, message = server.reject
                self._send(status, _error_body(message, "invalid_request_error"))
                return
            model = body.get("model")
            if model not in server.models:
                self._send(
                    404,
                    _error_body(
                        f"The model `{model}` does not exist.",
                        "invalid_request_error",
                        "model_not_found",
                    ),
                )
                return
            fault = server.fault_for(index)
            if fault is not None:
                with server.lock:
                    server.fault_counts[fault] += 1
            if fault == "429":
                self._send(
                    429,
                    _error_body("Rate limit reached.", "requests", "rate_limit_exceeded"),
                    server.retry_headers(),
                )
                return
            if fault == "500":
                self._send(500, _error_body("The server had an error.", "server_error"))
                return
            if fault == "503":
                self._send(
                    503,
                    _error_body("The server is overloaded.", "server_error"),
                    server.retry_headers(),
                )
                return
            delay = server.timeout_delay_s if fault == "timeout" else server.latency_for(index)
            if not server.sleep(delay):
                self.close_connection = True
                return
            if fault == "malformed":
                self._send(200, b'{"id": "chatcmpl-broken", "choices": [')
                return
            if fault == "cut":
                whole = json.dumps({"id": f"chatcmpl-{index}", "choices": []}).encode() * 4
                with server.lock:
                    server.status_counts[200] += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(whole)))
                self.end_headers()
                self.wfile.write(whole[: len(whole) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            messages = body.get("messages") or []
            answer = server.answer_fn(messages)
            prompt_tokens = sum(_count_tokens(m.get("content", "")) for m in messages)
            completion_tokens = _count_tokens(answer)
            content: str | None = None if fault == "null_content" else answer
            choice = {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
            payload: dict[str, Any] = {
                "id": f"chatcmpl-{index}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
            }
            if fault != "missing_choices":
                payload["choices"] = [] if fault == "empty_choices" else [choice]
            if server.include_usage:
                payload["usage"] = {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                }
            if fault is None:
                with server.lock:
                    server.completed += 1
                    server.prompt_tokens += prompt_tokens
                    server.completion_tokens += completion_tokens
            self._send(200, payload)

    return Handler


def main() -> None:
    """Run a fake server in the foreground (for manual testing)."""
    with FakeOpenAIServer() as srv:
        print(f"fake OpenAI server at {srv.base_url} (Ctrl-C to stop)")
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
