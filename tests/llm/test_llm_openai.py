"""OpenAICompatClient and check_endpoint against the loopback fake server."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import socket
import threading
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest
from fake_openai_server import FakeOpenAIServer, default_answer

from kglens_tui.llm.base import ChatClient, ChatRequest, LLMError
from kglens_tui.llm.factory import make_client
from kglens_tui.llm.openai_compat import (
    SDK_TELEMETRY_HEADERS,
    OpenAICompatClient,
    check_endpoint,
    parse_retry_after,
)

T = TypeVar("T")
KEY_ENV = "KGLENS_TEST_OPENAI_KEY"
SECRET = "sk-test-SECRET-0123456789abcdef"
REQUEST = ChatRequest(
    messages=(
        {"role": "system", "content": "You are a helpful assistant, please answer Yes or No."},
        {"role": "user", "content": "Is Paris the capital of France?"},
    ),
    max_tokens=8,
)


def run(coro: Awaitable[T]) -> T:
    return asyncio.run(coro)  # type: ignore[arg-type]


def make(srv: FakeOpenAIServer, **kwargs: Any) -> OpenAICompatClient:
    options: dict[str, Any] = {
        "api_key_env": KEY_ENV,
        "timeout_s": 2.0,
        "max_retries": 4,
        "backoff_base_s": 0.01,
        "backoff_cap_s": 0.05,
        "seed": 0,
    }
    options.update(kwargs)
    return OpenAICompatClient(srv.base_url, "fake-model", **options)


async def one(srv: FakeOpenAIServer, request: ChatRequest = REQUEST, **kwargs: Any) -> Any:
    client = make(srv, **kwargs)
    try:
        return await client.complete(request)
    finally:
        await client.aclose()


async def expect_error(srv: FakeOpenAIServer, **kwargs: Any) -> LLMError:
    with pytest.raises(LLMError) as info:
        await one(srv, **kwargs)
    return info.value


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_success_counts_tokens_and_sends_parameters() -> None:
    with FakeOpenAIServer() as srv:
        reply = run(one(srv, temperature=0.3))
        assert reply.text == default_answer(REQUEST.messages)
        assert reply.retries == 0
        assert reply.prompt_tokens == 16 and reply.completion_tokens == 1
        assert reply.latency_s > 0
        sent = srv.received[0]
        assert sent["model"] == "fake-model"
        assert sent["max_tokens"] == 8
        assert sent["temperature"] == 0.3
        assert sent["messages"][-1]["content"] == "Is Paris the capital of France?"


def test_requests_carry_the_key_and_json_but_no_sdk_telemetry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with FakeOpenAIServer(required_key=SECRET) as srv:
        run(one(srv))
        sent = {k.lower(): v for k, v in srv.last_headers.items()}
    assert sent["authorization"] == f"Bearer {SECRET}"
    assert sent["content-type"].startswith("application/json")
    for name in SDK_TELEMETRY_HEADERS:
        assert name.lower() not in sent, name


def test_missing_usage_gives_zero_tokens() -> None:
    with FakeOpenAIServer(include_usage=False) as srv:
        reply = run(one(srv))
        assert (reply.prompt_tokens, reply.completion_tokens) == (0, 0)


def test_client_satisfies_protocol_and_label() -> None:
    with FakeOpenAIServer() as srv:
        client = make(srv)
        assert isinstance(client, ChatClient)
        assert client.label == f"openai:fake-model @ {srv.base_url}"
        assert client.simulated is False
        run(client.aclose())


def test_429_retry_after_is_honoured() -> None:
    with FakeOpenAIServer(faults=["429"], retry_after=0.2) as srv:
        started = time.perf_counter()
        reply = run(one(srv, backoff_cap_s=0.01))
        assert time.perf_counter() - started >= 0.2
        assert reply.retries == 1
        assert srv.request_times[1] - srv.request_times[0] >= 0.19
        assert srv.fault_counts["429"] == 1


def test_retry_after_ms_header_is_honoured() -> None:
    with FakeOpenAIServer(faults=["429"], retry_after=None, retry_after_ms=250) as srv:
        reply = run(one(srv, backoff_cap_s=0.01))
        assert reply.retries == 1
        assert srv.request_times[1] - srv.request_times[0] >= 0.24


def test_503_with_retry_after_then_success() -> None:
    with FakeOpenAIServer(faults=["503"], retry_after=0.1) as srv:
        reply = run(one(srv))
        assert reply.retries == 1
        assert srv.request_times[1] - srv.request_times[0] >= 0.09


def test_500s_are_retried_then_succeed() -> None:
    with FakeOpenAIServer(faults=["500", "500", "500"]) as srv:
        reply = run(one(srv))
        assert reply.retries == 3
        assert srv.requests == 4 and srv.fault_counts["500"] == 3


def test_timeouts_are_retried() -> None:
    with FakeOpenAIServer(faults=["timeout"], timeout_delay_s=3.0) as srv:
        reply = run(one(srv, timeout_s=0.3))
        # The slow first answer arrives only after 3 s: a retry means the 0.3 s timeout fired.
        assert reply.retries == 1
        assert srv.fault_counts["timeout"] == 1 and srv.requests == 2


@pytest.mark.parametrize("fault", ["malformed", "empty_choices", "missing_choices", "null_content"])
def test_malformed_bodies_are_retried(fault: str) -> None:
    with FakeOpenAIServer(faults=[fault, fault]) as srv:
        reply = run(one(srv))
        assert reply.retries == 2
        assert reply.text in ("Yes.", "No.")
        assert srv.fault_counts[fault] == 2


@pytest.mark.parametrize(
    ("fault", "kind"),
    [("500", "server"), ("503", "server"), ("429", "rate_limit"), ("malformed", "malformed")],
)
def test_persistent_failure_raises(fault: str, kind: str) -> None:
    with FakeOpenAIServer(fault_rates={fault: 1.0}, retry_after=0) as srv:
        err = run(expect_error(srv, max_retries=2))
        assert err.kind == kind
        assert err.retries == 2
        assert "gave up after 3 attempts" in str(err)
        assert srv.requests == 3


def test_a_reply_cut_mid_body_says_so_and_is_retried() -> None:
    """The server answered, then its body stopped short: not "cannot reach" (it was reached)."""
    with FakeOpenAIServer(faults=["cut"]) as srv:
        reply = run(one(srv))
        assert reply.retries == 1 and reply.text in ("Yes.", "No.")
    with FakeOpenAIServer(fault_rates={"cut": 1.0}) as srv:
        err = run(expect_error(srv, max_retries=0))
        assert err.kind == "connection" and err.retryable
        assert "broke off its reply mid-body" in str(err) and "cannot reach" not in str(err)
        assert "Content-Length" in str(err)


def test_persistent_timeout_raises_timeout() -> None:
    with FakeOpenAIServer(fault_rates={"timeout": 1.0}, timeout_delay_s=2.0) as srv:
        err = run(expect_error(srv, timeout_s=0.2, max_retries=1))
        assert err.kind == "timeout"
        assert err.retryable


def test_a_server_that_drops_the_connection_is_no_timeout() -> None:
    """The aiohttp transport reports a dropped connection as a connect timeout; the client says
    what happened instead (and still retries it)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(5)
        port = listener.getsockname()[1]
        accepted = []

        def drop_connections() -> None:
            for _ in range(2):
                conn, _addr = listener.accept()
                conn.recv(65536)
                conn.close()
                accepted.append(1)

        dropper = threading.Thread(target=drop_connections, daemon=True)
        dropper.start()
        client = OpenAICompatClient(
            f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff_base_s=0.01, timeout_s=5
        )

        async def go() -> LLMError:
            try:
                with pytest.raises(LLMError) as info:
                    await client.complete(REQUEST)
                return info.value
            finally:
                await client.aclose()

        err = run(go())
        dropper.join(5)
    assert err.kind == "connection", str(err)
    assert "closed the connection" in str(err)
    assert err.retries == 1 and len(accepted) == 2


def test_connection_refused_raises_connection() -> None:
    port = free_port()
    client = OpenAICompatClient(
        f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff_base_s=0.01, timeout_s=1
    )

    async def go() -> LLMError:
        try:
            with pytest.raises(LLMError) as info:
                await client.complete(REQUEST)
            return info.value
        finally:
            await client.aclose()

    err = run(go())
    assert err.kind == "connection"
    assert "connection refused" in str(err)


def test_wrong_key_is_auth_error_without_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with FakeOpenAIServer(required_key="sk-the-right-one") as srv:
        err = run(expect_error(srv))
        assert err.kind == "auth"
        assert err.retries == 0
        assert srv.requests == 1
        assert f"refused the API key in ${KEY_ENV}" in str(err)
        assert SECRET not in str(err) and SECRET not in repr(err)
        assert SECRET not in repr(err.__cause__) and err.__cause__ is None


def test_missing_key_says_to_set_it() -> None:
    with FakeOpenAIServer(required_key="sk-the-right-one") as srv:
        err = run(expect_error(srv))
        assert err.kind == "auth"
        assert f"set ${KEY_ENV}" in str(err)


def test_right_key_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with FakeOpenAIServer(required_key=SECRET) as srv:
        assert run(one(srv)).retries == 0


def test_key_not_stored_on_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with FakeOpenAIServer() as srv:
        client = make(srv)
        assert SECRET not in repr(vars(client).get("label"))
        own = {k: v for k, v in vars(client).items() if k != "_client"}
        assert SECRET not in repr(own)
        run(client.aclose())


def test_unknown_model_is_not_found_without_retry() -> None:
    with FakeOpenAIServer(models=["other-model"]) as srv:
        err = run(expect_error(srv))
        assert err.kind == "not_found"
        assert "fake-model" in str(err)
        assert srv.requests == 1


def test_max_in_flight_is_respected() -> None:
    async def burst(srv: FakeOpenAIServer, limit: int) -> None:
        client = make(srv, max_in_flight=limit)
        try:
            await asyncio.gather(*(client.complete(REQUEST) for _ in range(12)))
        finally:
            await client.aclose()

    with FakeOpenAIServer(latency_s=0.1) as srv:
        run(burst(srv, 3))
        assert srv.peak_in_flight == 3
        assert srv.completed == 12
    with FakeOpenAIServer(latency_s=0.1) as srv:
        run(burst(srv, 16))
        assert srv.peak_in_flight > 3


def test_requests_per_minute_spaces_starts() -> None:
    """Measured on the pacer's own clock, when each request went out (the server's arrival
    times also hold the network's and a busy machine's delays, which may bunch them)."""
    starts: list[float] = []

    async def burst(srv: FakeOpenAIServer) -> None:
        client = make(srv, requests_per_minute=600)  # one start per 0.1 s
        turn = client.pacer.turn

        @contextlib.asynccontextmanager
        async def recorded(not_before=None):
            async with turn(not_before):
                starts.append(client.pacer.last_start)
                yield

        client.pacer.turn = recorded
        try:
            await asyncio.gather(*(client.complete(REQUEST) for _ in range(4)))
        finally:
            await client.aclose()

    with FakeOpenAIServer() as srv:
        run(burst(srv))
        assert len(srv.request_times) == 4
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert len(gaps) == 3 and min(gaps) >= 0.1 - 1e-9


def test_sampled_latency_does_not_block_other_requests() -> None:
    async def burst(srv: FakeOpenAIServer) -> None:
        client = make(srv)
        try:
            await client.complete(REQUEST)
            await asyncio.gather(*(client.complete(REQUEST) for _ in range(16)))
        finally:
            await client.aclose()

    with FakeOpenAIServer(latency_fn=lambda rng: rng.uniform(0.2, 0.3)) as srv:
        run(burst(srv))
        assert srv.completed == 17
        assert srv.peak_in_flight > 1  # a blocking client would keep one request in flight


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "2"}) == 2.0
    assert parse_retry_after({"retry-after": "0.5"}) == 0.5
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= (parse_retry_after({"Retry-After": future}) or 0) <= 31
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None


def test_check_endpoint_ok() -> None:
    with FakeOpenAIServer() as srv:
        message = run(check_endpoint(srv.base_url, "fake-model", KEY_ENV, timeout_s=2))
        assert message.startswith("OK:") and "fake-model" in message


def test_check_endpoint_unreachable() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(LLMError) as info:
        run(check_endpoint(url, "fake-model", KEY_ENV, timeout_s=2))
    assert info.value.kind == "connection"
    assert str(info.value) == f"cannot reach {url}: connection refused"


def test_check_endpoint_unknown_model() -> None:
    with FakeOpenAIServer(models=["llama-3", "qwen"]) as srv:
        with pytest.raises(LLMError) as info:
            run(check_endpoint(srv.base_url, "gpt-9", KEY_ENV, timeout_s=2))
        assert info.value.kind == "not_found"
        assert "gpt-9" in str(info.value) and "llama-3" in str(info.value)
        assert srv.requests == 0


def test_check_endpoint_bad_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with FakeOpenAIServer(required_key="sk-other") as srv:
        with pytest.raises(LLMError) as info:
            run(check_endpoint(srv.base_url, "fake-model", KEY_ENV, timeout_s=2))
        assert info.value.kind == "auth"
        assert KEY_ENV in str(info.value)
        assert SECRET not in str(info.value) and SECRET not in repr(info.value)


def test_factory_builds_openai_client() -> None:
    with FakeOpenAIServer() as srv:
        client = make_client("openai:fake-model", base_url=srv.base_url, api_key_env=KEY_ENV)
        assert isinstance(client, OpenAICompatClient)
        assert run(one(srv)).text in ("Yes.", "No.")
        run(client.aclose())
    with pytest.raises(ValueError, match="model name"):
        make_client("openai:")
    with pytest.raises(ValueError, match="unknown target"):
        make_client("gpt4")
