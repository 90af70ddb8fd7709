"""Helpers the Wikidata tests share (not a test module): a loopback SPARQL endpoint that replays
recorded Wikidata responses, and the builder and `kglens kg build-wikidata` pointed at it.

The server answers on 127.0.0.1 (port 0) from tests/fixtures/wikidata: manifest.json picks the
recorded result by the query's text, and the server keeps the rows for the query's VALUES list
and applies its LIMIT. Hooks inject a 429/503 with Retry-After, failures after N answers, and
truncated, cut-off, invalid or timed-out bodies. It never talks to the real endpoint.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from kglens_tui.kg.wikidata import (
    BuildReport,
    ResponseCache,
    SparqlClient,
    WalkConfig,
    build_wikidata,
)

FIXTURES = Path(__file__).parent / "fixtures" / "wikidata"
ENTITY = "http://www.wikidata.org/entity/"
DIRECT = "http://www.wikidata.org/prop/direct/"
MODES = ("truncated", "short", "invalid", "timeout", "slow")
TIMEOUT_BODY = (
    "java.util.concurrent.ExecutionException: java.util.concurrent.TimeoutException\n"
    "\tat java.util.concurrent.FutureTask.report(FutureTask.java:122)\n"
)


def _term_id(term: dict[str, str] | None) -> str:
    value = (term or {}).get("value", "")
    return value.rsplit("/", 1)[-1]


class ReplayServer:
    """Replays recorded SPARQL JSON results; use as a context manager and read `endpoint`."""

    def __init__(self, fixtures: Path = FIXTURES, *, slow_s: float = 1.0) -> None:
        self.manifest: list[dict[str, Any]] = json.loads((fixtures / "manifest.json").read_text())
        self.files = {
            e["file"]: json.loads((fixtures / e["file"]).read_text(encoding="utf-8"))
            for e in self.manifest
        }
        self.slow_s = slow_s
        self.queries: list[str] = []
        self.arrivals: list[float] = []
        self.user_agents: list[str] = []
        self.answered = 0
        self._lock = threading.Lock()
        self._throttle: list[tuple[int, str]] = []
        self._fail_after: int | None = None
        self._corrupt: list[tuple[str, tuple[str, ...]]] = []
        self._httpd: ThreadingHTTPServer | None = None

    def __enter__(self) -> ReplayServer:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
                replay._handle(self, form.get("query", [""])[0])

            def do_GET(self) -> None:
                form = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                replay._handle(self, form.get("query", [""])[0])

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def endpoint(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/sparql"

    def throttle(self, times: int = 1, retry_after: str = "0.3", status: int = 429) -> None:
        """Answer the next `times` requests with `status` and a Retry-After header."""
        with self._lock:
            self._throttle.extend([(status, retry_after)] * times)

    def fail_after(self, answered: int | None) -> None:
        """Answer HTTP 500 once `answered` queries were answered (None: stop failing)."""
        with self._lock:
            self._fail_after = answered

    def corrupt(self, mode: str, *match: str) -> None:
        """Spoil the next response whose query contains every `match` string (see MODES)."""
        assert mode in MODES
        with self._lock:
            self._corrupt.append((mode, match))

    def reset(self) -> None:
        with self._lock:
            self.queries.clear()
            self.arrivals.clear()
            self.user_agents.clear()
            self.answered = 0

    def answer(self, query: str) -> dict[str, Any] | None:
        """The recorded result for a query: rows for its VALUES list, up to its LIMIT."""
        entry = next((e for e in self.manifest if all(m in query for m in e["match"])), None)
        if entry is None:
            return None
        doc = self.files[entry["file"]]
        block = re.search(r"VALUES [^{]*\{(.*?)\}", query, re.S)
        listed = block.group(1) if block else ""
        keep = entry["keep"]
        if len(keep) == 1:
            ids = set(re.findall(r"wd:(Q\d+)", listed))
            rows = [r for r in doc["results"]["bindings"] if _term_id(r.get(keep[0])) in ids]
        else:  # one VALUES row per tuple, e.g. (wd:Q30 wdt:P47): its ids against `keep`
            tuples = {
                tuple(re.findall(r"\w+:([QP]\d+)", t)) for t in re.findall(r"\(([^()]*)\)", listed)
            }
            rows = [
                r
                for r in doc["results"]["bindings"]
                if tuple(_term_id(r.get(var)) for var in keep) in tuples
            ]
        limit = re.search(r"LIMIT (\d+)", query)
        if limit:
            rows = rows[: int(limit.group(1))]
        return {"head": doc["head"], "results": {"bindings": rows}}

    def _handle(self, handler: BaseHTTPRequestHandler, query: str) -> None:
        with self._lock:
            self.queries.append(query)
            self.arrivals.append(time.perf_counter())
            self.user_agents.append(handler.headers.get("User-Agent", ""))
            throttle = self._throttle.pop(0) if self._throttle else None
            failing = self._fail_after is not None and self.answered >= self._fail_after
            mode = None
            for i, (m, match) in enumerate(self._corrupt):
                if all(s in query for s in match):
                    mode = m
                    del self._corrupt[i]
                    break
        if throttle is not None:
            self._send(handler, throttle[0], b"Too Many Requests", {"Retry-After": throttle[1]})
            return
        if failing:
            self._send(handler, 500, b"injected failure: the server went away")
            return
        if mode == "timeout":
            self._send(handler, 500, TIMEOUT_BODY.encode())
            return
        doc = self.answer(query)
        if doc is None:
            self._send(handler, 400, b"no recorded response for this query")
            return
        body = json.dumps(doc).encode("utf-8")
        if mode == "slow":
            time.sleep(self.slow_s)
        elif mode == "truncated":
            body = body[: len(body) // 2]
        elif mode == "invalid":
            body = b"<html><body>502 Bad Gateway</body></html>"
        elif mode == "short":
            handler.send_response(200)
            handler.send_header("Content-Type", "application/sparql-results+json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body[: len(body) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            return
        with self._lock:
            self.answered += 1
        self._send(handler, 200, body, content_type="application/sparql-results+json")

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
        content_type: str = "text/plain; charset=utf-8",
    ) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        try:
            handler.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True  # the client gave up (a socket-timeout test)


# The builder against the replay server

CONFIG = WalkConfig(seeds=("Q30", "Q183"), steps=2, limit=100, max_object_degree=2.5)

ENTITIES = {
    # seeds
    *("Q30", "Q183"),
    # step 1: objects of the forward walk, subjects of the backward walk
    *("Q3624078", "Q61", "Q1860", "Q4917", "Q16", "Q96", "Q49", "Q1065", "Q64", "Q188"),
    *("Q4916", "Q40", "Q142", "Q46", "Q458", "Q60", "Q1055", "Q1726", "Q567", "Q22686"),
    # step 2
    *("Q515", "Q1637706", "Q1930", "Q1489", "Q1741", "Q39", "Q90", "Q150", "Q5", "Q145"),
    # completion of T(Germany, shares border with)
    "Q35",
}


def client_for(server: ReplayServer, cache: Path, **kwargs) -> SparqlClient:
    return SparqlClient(
        server.endpoint,
        contact="kglens-tests@example.org",
        cache=ResponseCache(cache),
        timeout_s=10,
        backoff_s=0.01,
        **kwargs,
    )


def build(
    conn: sqlite3.Connection,
    server: ReplayServer,
    cache: Path,
    name: str = "wd",
    config: WalkConfig = CONFIG,
    **kwargs,
) -> BuildReport:
    client = client_for(server, cache, on_wait=kwargs.pop("on_wait", None))
    return build_wikidata(conn, name, config, client, cache_dir=cache, **kwargs)


def values_lists(queries: list[str]) -> list[list[str]]:
    """The first VALUES list of each query: its ids, or its rows when they are tuples."""
    lists = [re.search(r"VALUES [^{]*\{(.*?)\}", q, re.S) for q in queries]
    return [
        re.findall(r"\(([^()]*)\)", m.group(1)) or re.findall(r"wd:Q\d+", m.group(1))
        for m in lists
        if m
    ]


def _args(tmp_path: Path, server: ReplayServer, *extra: str) -> list[str]:
    return [
        "--db",
        str(tmp_path / "cli.db"),
        "kg",
        "build-wikidata",
        "--seeds",
        "Q30,Q183",
        "--steps",
        "2",
        "--limit",
        "100",
        "--name",
        "usa-germany",
        "--endpoint",
        server.endpoint,
        "--cache",
        str(tmp_path / "cache"),
        "--contact",
        "kglens-tests@example.org",
        *extra,
    ]
