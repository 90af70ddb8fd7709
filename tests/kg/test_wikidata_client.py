"""The SPARQL client: usage policy (User-Agent, Retry-After, time limit), errors and the cache."""

from __future__ import annotations

import email.utils
import json
import socket
import time
from pathlib import Path

import pytest
from wikidata_support import ReplayServer

from kglens_tui.kg.wikidata import (
    CONTACT_ENV,
    ResponseCache,
    SparqlClient,
    WikidataError,
    WikidataResponseError,
    WikidataTimeoutError,
)
from kglens_tui.kg.wikidata.client import retry_after_seconds, user_agent, validate_results
from kglens_tui.kg.wikidata.queries import aliases_query, languages_query

QUERY = aliases_query(["Q30", "Q183"])


@pytest.fixture
def server():
    with ReplayServer(slow_s=1.0) as srv:
        yield srv


def test_user_agent_names_the_tool_and_a_contact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONTACT_ENV, raising=False)
    assert "contact not set" in user_agent()
    monkeypatch.setenv(CONTACT_ENV, "me@example.org")
    assert "me@example.org" in user_agent()
    agent = user_agent("ops@example.org")
    assert agent.startswith("kglens-tui/") and "ops@example.org" in agent
    assert "Python-urllib/" in agent


def test_retry_after_in_seconds_or_as_an_http_date() -> None:
    assert retry_after_seconds("0.3", 9.0) == 0.3
    assert retry_after_seconds("5", 9.0) == 5.0
    assert retry_after_seconds(None, 9.0) == 9.0
    assert retry_after_seconds("soon", 9.0) == 9.0
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 < retry_after_seconds(later, 9.0) <= 30
    earlier = email.utils.formatdate(time.time() - 30, usegmt=True)
    assert retry_after_seconds(earlier, 9.0) == 0.0


def test_rows_come_back_and_the_user_agent_is_sent(server) -> None:
    rows = SparqlClient(server.endpoint, contact="t@example.org").select(QUERY, "aliases")
    assert {r["alias"]["value"] for r in rows} >= {"USA", "FRG"}
    assert all(r["alias"]["xml:lang"] == "en" for r in rows)
    assert "t@example.org" in server.user_agents[0]


def test_without_retry_after_the_client_backs_off_exponentially(server) -> None:
    server.throttle(times=2, retry_after="", status=503)
    sleeps: list[float] = []
    client = SparqlClient(server.endpoint, backoff_s=0.5, sleep=sleeps.append)
    client.select(QUERY, "aliases")
    assert sleeps == [0.5, 1.0]
    assert client.requests == 3


def test_rate_limited_past_the_retries_is_an_error(server) -> None:
    server.throttle(times=3, retry_after="0")
    client = SparqlClient(server.endpoint, max_retries=2, sleep=lambda s: None)
    with pytest.raises(
        WikidataError, match=r"aliases: still rate limited \(HTTP 429\) after 2 retries"
    ):
        client.select(QUERY, "aliases")
    assert len(server.queries) == 3


def test_a_retry_after_longer_than_the_maximum_stops(server) -> None:
    server.throttle(times=1, retry_after="3600")
    sleeps: list[float] = []
    client = SparqlClient(server.endpoint, max_wait_s=60, sleep=sleeps.append)
    with pytest.raises(WikidataError, match="asked to wait 3600s"):
        client.select(QUERY, "aliases")
    assert sleeps == []


def test_the_service_time_limit_is_a_timeout_error(server) -> None:
    server.corrupt("timeout")
    with pytest.raises(WikidataTimeoutError, match=r"^step 1/3 languages: .*time limit"):
        SparqlClient(server.endpoint).select(languages_query(["Q30"]), "step 1/3 languages")


def test_a_socket_timeout_is_a_timeout_error(server) -> None:
    server.corrupt("slow")
    client = SparqlClient(server.endpoint, timeout_s=0.2)
    with pytest.raises(WikidataTimeoutError, match="no answer within 0s"):
        client.select(QUERY, "aliases")


def test_an_unreachable_endpoint_says_network_access_is_needed() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = SparqlClient(f"http://127.0.0.1:{port}/sparql", timeout_s=2)
    with pytest.raises(WikidataError, match="needs network access"):
        client.select(QUERY, "aliases")


def test_other_http_errors_name_the_query_and_status(server) -> None:
    server.fail_after(0)
    with pytest.raises(WikidataError, match=r"^aliases: HTTP 500 .*injected failure"):
        SparqlClient(server.endpoint).select(QUERY, "aliases")


def test_json_that_is_not_a_sparql_result_is_rejected() -> None:
    with pytest.raises(WikidataResponseError, match="no results.bindings"):
        validate_results({"head": {}}, "q")
    with pytest.raises(WikidataResponseError, match="not a SPARQL JSON binding"):
        validate_results({"results": {"bindings": [{"x": "plain"}]}}, "q")


def test_the_cache_answers_repeated_queries(server, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    client = SparqlClient(server.endpoint, cache=cache)
    first = client.select(QUERY, "aliases")
    again = SparqlClient(server.endpoint, cache=cache)
    assert again.select(QUERY, "aliases") == first
    assert (again.requests, again.cache_hits, len(server.queries), len(cache)) == (0, 1, 1, 1)
    stored = json.loads(cache.path(QUERY).read_text())
    assert stored["query"] == QUERY


def test_an_unreadable_cache_entry_is_fetched_again(server, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    SparqlClient(server.endpoint, cache=cache).select(QUERY, "aliases")
    cache.path(QUERY).write_text('{"query": "', encoding="utf-8")
    client = SparqlClient(server.endpoint, cache=cache)
    assert client.select(QUERY, "aliases")
    assert (client.requests, len(server.queries)) == (1, 2)
