"""A small SPARQL client that follows the Wikidata Query Service usage policy.

- a descriptive User-Agent with a contact (``--contact`` or $KGLENS_WIKIDATA_CONTACT);
- 429 and 503 answers are retried after their Retry-After (seconds or an HTTP date), else after
  an exponential back-off; a wait longer than ``max_wait_s`` stops the build instead;
- the service stops a query after 60 s and answers with a TimeoutException: that, and a socket
  timeout, raise WikidataTimeoutError;
- a truncated or invalid JSON body raises WikidataResponseError and is never cached.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from kglens_tui import __version__
from kglens_tui.kg.wikidata.cache import ResponseCache
from kglens_tui.kg.wikidata.errors import (
    WikidataError,
    WikidataResponseError,
    WikidataTimeoutError,
)
from kglens_tui.kg.wikidata.queries import Binding

DEFAULT_ENDPOINT = "https://query.wikidata.org/sparql"
CONTACT_ENV = "KGLENS_WIKIDATA_CONTACT"
CONTACT_PLACEHOLDER = f"contact not set: use --contact or ${CONTACT_ENV}"
RETRY_STATUSES = (429, 503)
_TIMEOUT_MARKERS = ("TimeoutException", "QueryTimeoutException", "Query deadline is expired")

WaitFn = Callable[[float, str], None]
"""Told (seconds, reason) before the client sleeps for a rate limit."""


def user_agent(contact: str | None = None) -> str:
    """A descriptive User-Agent as the Wikimedia policy asks: tool, version, contact, library."""
    who = contact or os.environ.get(CONTACT_ENV) or CONTACT_PLACEHOLDER
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    return f"kglens-tui/{__version__} (KGLens knowledge-graph builder; {who}) Python-urllib/{py}"


def retry_after_seconds(value: str | None, default: float) -> float:
    """Seconds to wait from a Retry-After header (delta seconds or an HTTP date)."""
    if not value:
        return default
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return default
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - datetime.now(UTC)).total_seconds())


def validate_results(data: Any, label: str) -> list[Binding]:
    """The bindings of a SPARQL 1.1 JSON result, after checking its shape."""
    results = data.get("results") if isinstance(data, dict) else None
    bindings = results.get("bindings") if isinstance(results, dict) else None
    if not isinstance(bindings, list):
        raise WikidataResponseError(f"{label}: not a SPARQL JSON result (no results.bindings)")
    for row in bindings:
        if not isinstance(row, dict) or not all(
            isinstance(t, dict)
            and isinstance(t.get("type"), str)
            and isinstance(t.get("value"), str)
            for t in row.values()
        ):
            raise WikidataResponseError(f"{label}: a result row is not a SPARQL JSON binding")
    return bindings


def _decode(raw: bytes, label: str) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise WikidataResponseError(
            f"{label}: the response is not UTF-8 (byte {exc.start} of {len(raw)})"
        ) from None
    except json.JSONDecodeError as exc:
        raise WikidataResponseError(
            f"{label}: the response is not valid JSON ({exc.msg} at byte {exc.pos} of "
            f"{len(raw)}); it is probably truncated: the service stops streaming a result that "
            "runs into its time limit"
        ) from None
    validate_results(data, label)
    return data


def _snippet(body: bytes) -> str:
    text = body.decode("utf-8", "replace").strip()
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:200]
    return "(empty body)"


class SparqlClient:
    """SELECT queries against a SPARQL endpoint, through an optional response cache."""

    def __init__(
        self,
        endpoint: str = DEFAULT_ENDPOINT,
        *,
        contact: str | None = None,
        cache: ResponseCache | None = None,
        timeout_s: float = 65.0,
        max_retries: int = 5,
        max_wait_s: float = 300.0,
        backoff_s: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        on_wait: WaitFn | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.user_agent = user_agent(contact)
        self.cache = cache
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.max_wait_s = max_wait_s
        self.backoff_s = backoff_s
        self._sleep = sleep
        self.on_wait = on_wait
        self.requests = 0
        self.cache_hits = 0

    def select(self, query: str, label: str) -> list[Binding]:
        """The result rows of a query; `label` (e.g. 'step 2 forward walk, chunk 1/3') names it
        in every error message."""
        if self.cache is not None:
            cached = self.cache.get(query)
            if cached is not None:
                self.cache_hits += 1
                return validate_results(cached, f"{label} (cached)")
        data = self._fetch(query, label)
        if self.cache is not None:
            self.cache.put(query, data)
        bindings: list[Binding] = data["results"]["bindings"]
        return bindings

    def _request(self, query: str) -> urllib.request.Request:
        return urllib.request.Request(
            self.endpoint,
            data=urllib.parse.urlencode({"query": query}).encode("utf-8"),
            headers={
                "Accept": "application/sparql-results+json",
                "Content-Type": "application/x-www-form-urlencoded",
                "User-Agent": self.user_agent,
            },
            method="POST",
        )

    def _fetch(self, query: str, label: str) -> dict[str, Any]:
        attempt = 0
        while True:
            self.requests += 1
            try:
                with urllib.request.urlopen(self._request(query), timeout=self.timeout_s) as resp:
                    raw = resp.read()
            except urllib.error.HTTPError as exc:
                body = exc.read() if exc.fp is not None else b""
                if exc.code not in RETRY_STATUSES:
                    raise self._http_error(exc.code, body, label) from None
                if attempt >= self.max_retries:
                    raise WikidataError(
                        f"{label}: still rate limited (HTTP {exc.code}) after "
                        f"{self.max_retries} retries: rerun later, finished queries are cached"
                    ) from None
                self._wait(exc, attempt, label)
                attempt += 1
                continue
            except http.client.IncompleteRead as exc:
                raise WikidataResponseError(
                    f"{label}: the response was cut off after {len(exc.partial):,} bytes "
                    "(truncated)"
                ) from None
            except TimeoutError:
                raise self._timeout(label) from None
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, TimeoutError):
                    raise self._timeout(label) from None
                raise WikidataError(
                    f"{label}: cannot reach {self.endpoint}: {exc.reason} "
                    "(building from Wikidata needs network access)"
                ) from None
            except (OSError, http.client.HTTPException) as exc:
                raise WikidataError(f"{label}: the connection failed: {exc}") from None
            return _decode(raw, label)

    def _wait(self, exc: urllib.error.HTTPError, attempt: int, label: str) -> None:
        default = self.backoff_s * 2**attempt
        wait = retry_after_seconds(exc.headers.get("Retry-After"), default)
        if wait > self.max_wait_s:
            raise WikidataError(
                f"{label}: HTTP {exc.code}, asked to wait {wait:.0f}s (more than "
                f"{self.max_wait_s:.0f}s): rerun later, finished queries are cached"
            )
        if self.on_wait is not None:
            self.on_wait(wait, f"HTTP {exc.code}")
        self._sleep(wait)

    def _timeout(self, label: str) -> WikidataTimeoutError:
        return WikidataTimeoutError(
            f"{label}: the query hit the time limit (no answer within {self.timeout_s:.0f}s): "
            "use a smaller --limit or --chunk-size"
        )

    def _http_error(self, code: int, body: bytes, label: str) -> WikidataError:
        text = body.decode("utf-8", "replace")
        if any(marker in text for marker in _TIMEOUT_MARKERS):
            return WikidataTimeoutError(
                f"{label}: the query hit the service's time limit (HTTP {code}, "
                "TimeoutException): use a smaller --limit or --chunk-size"
            )
        return WikidataError(f"{label}: HTTP {code} from {self.endpoint}: {_snippet(body)}")
