"""`kglens serve` in a real headless Chromium (issues #35 and #37): a page of another origin, on
another loopback port, whose script opens a WebSocket to the served app (with the token, with a
wrong one, with none) is refused and labels nothing, while the served page itself, opened with its
link, runs the annotation app and a key pressed in its terminal stores the label.

Chromium is driven through its DevTools protocol (``--remote-debugging-port``) over aiohttp's
WebSocket client: no other dependency. Skipped when no Chromium binary is found (set
KGLENS_CHROMIUM to its path to pick one)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

from aiohttp import ClientWebSocketResponse, web  # noqa: E402

from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items  # noqa: E402
from kglens_tui.store.connection import connect  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_chromium() -> str | None:
    """The Chromium (or Chrome) binary to drive: KGLENS_CHROMIUM, else the first on PATH."""
    chosen = os.environ.get("KGLENS_CHROMIUM")
    if chosen:
        return shutil.which(chosen)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.tui,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium binary found (looked for KGLENS_CHROMIUM, "
        + ", ".join(CHROMIUM_NAMES)
        + "): the headless-browser tests of kglens serve need one",
    ),
]

CEILING_S = 90.0
"""How long any awaited state may take on a loaded machine before the test fails."""


async def poll(what: str, probe: Callable[[], Awaitable[Any]], ceiling_s: float = CEILING_S) -> Any:
    """probe()'s first truthy value, asked every 50 ms; fails naming `what` after the ceiling."""
    deadline = time.monotonic() + ceiling_s
    last: Any = None
    while time.monotonic() < deadline:
        last = await probe()
        if last:
            return last
        await asyncio.sleep(0.05)
    raise AssertionError(f"not reached in {ceiling_s:.0f} s: {what} (last seen: {last!r})")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[Any], *, group: bool = False) -> tuple[str, str]:
    """End a process this test started (with its process group when it leads one): SIGTERM,
    then SIGKILL if it is still running after 30 s; its output."""
    if process.poll() is None:
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        out, err = process.communicate(timeout=30)
    return out or "", err or ""


# --- the workspace and `kglens serve` ------------------------------------------------------------

QUESTION = "Is Paris the capital of France?"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with round r1: one Yes/No item, for annotators ann1, ann2 and ann3."""
    db = tmp_path / "w.db"
    conn = connect(db)
    spec = ItemSpec(kg="country", qtype="yes_no", question=QUESTION, app_verdict="correct")
    create_round_from_items(conn, "r1", [spec], annotators=("ann1", "ann2", "ann3"))
    conn.close()
    return db


def stored_labels(db: Path) -> list[tuple[str, str | None, int]]:
    """(action, question_clear, skipped) of every label revision stored in the workspace, oldest
    first."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT action, question_clear, skipped FROM annotation_label ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    return [(row[0], row[1], row[2]) for row in rows]


def stored_clear(db: Path) -> list[str | None]:
    """The question_clear of every label revision stored in the workspace, oldest first."""
    return [clear for _, clear, _ in stored_labels(db)]


@dataclass
class Served:
    port: int
    url: str
    """ann1's link, with its token."""
    token: str


@pytest.fixture
def served(workspace: Path) -> Iterator[Served]:
    """`kglens serve --round r1 --per-annotator` as a process on a free port of 127.0.0.1."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400"}
    env.pop("KGLENS_SERVE_PASSWORD", None)
    command = [sys.executable, "-m", "kglens_tui.cli", "--db", str(workspace), "serve"]
    command += ["--port", str(port), "--round", "r1", "--per-annotator"]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert server.stdout is not None
        link = None
        for _ in range(10):  # a heading, then a line per annotator
            line = server.stdout.readline()
            assert line, "kglens serve ended before printing the links"
            link = re.search(r"ann1: (http://127\.0\.0\.1:\d+/\?token=([\w-]+))", line)
            if link:
                break
        assert link, "kglens serve printed no link for ann1"
        deadline = time.monotonic() + CEILING_S
        while True:  # it listens a moment after it prints
            assert server.poll() is None, "kglens serve ended"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, "kglens serve never listened"
                time.sleep(0.05)
        yield Served(port=port, url=link.group(1), token=link.group(2))
    finally:
        stop(server)


# --- Chromium through the DevTools protocol ------------------------------------------------------


class DevTools:
    """One page target of Chromium, driven over the DevTools protocol (commands answered in order,
    events kept)."""

    def __init__(self, ws: ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        sent = self.next_id
        await self.ws.send_json({"id": sent, "method": method, "params": params})
        async with asyncio.timeout(CEILING_S):
            while True:
                message = await self.ws.receive()
                assert message.type == aiohttp.WSMsgType.TEXT, message
                data = json.loads(message.data)
                if data.get("id") == sent:
                    assert "error" not in data, (method, data["error"])
                    return dict(data.get("result", {}))
                self.events.append(data)

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise awaited)."""
        result = await self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    async def navigate(self, url: str) -> None:
        """Open url and wait until its document has loaded."""
        await self.send("Page.navigate", url=url)
        parts = urlsplit(url)
        page = f"{parts.scheme}://{parts.netloc}{parts.path or '/'}"
        await poll(
            f"{page} loaded",
            lambda: self.evaluate(
                f"location.origin + location.pathname === {json.dumps(page)} && "
                "document.readyState === 'complete'"
            ),
        )

    async def press(self, key: str) -> None:
        """A key press (one printable key) to the element with the focus."""
        code = f"Key{key.upper()}"
        vk = ord(key.upper())
        for kind in ("keyDown", "keyUp"):
            extra = {"text": key} if kind == "keyDown" else {}
            await self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=vk,
                **extra,
            )

    async def click(self, x: float, y: float) -> None:
        """A left click at (x, y), CSS pixels of the page."""
        await self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ("mousePressed", "mouseReleased"):
            await self.send(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    def websocket_events(self, since: int = 0) -> list[tuple[str, str, dict[str, Any]]]:
        """(method, url, params) of the Network.webSocket* events from events[since], in order."""
        urls: dict[str, str] = {}
        seen = []
        for n, event in enumerate(self.events):
            method = str(event.get("method", ""))
            if not method.startswith("Network.webSocket"):
                continue
            params = event["params"]
            if method == "Network.webSocketCreated":
                urls[params["requestId"]] = params["url"]
            if n >= since:
                seen.append((method, urls.get(params["requestId"], ""), params))
        return seen

    def handshakes(self, since: int = 0) -> list[tuple[str, dict[str, str]]]:
        """(url, request headers, names in lower case) of the WebSocket handshakes the page sent
        from events[since], in order."""
        return [
            (url, {k.lower(): v for k, v in params["request"]["headers"].items()})
            for method, url, params in self.websocket_events(since)
            if method == "Network.webSocketWillSendHandshakeRequest"
        ]

    async def websocket_errors(self, since: int, count: int) -> list[tuple[str, str]]:
        """(url, error) of the first `count` WebSocket errors from events[since], waiting for
        them (events come in with the answers to commands)."""

        async def errors() -> list[tuple[str, str]]:
            await self.evaluate("0")
            found = [
                (url, str(params["errorMessage"]))
                for method, url, params in self.websocket_events(since)
                if method == "Network.webSocketFrameError"
            ]
            return found if len(found) >= count else []

        return list(await poll(f"{count} WebSocket errors", errors))


# --- what the page's terminal shows ---------------------------------------------------------------
# The terminal draws on a canvas; its text is read back from what the app sent it: Textual moves
# the cursor (CSI row;col H) before each run of text, so a grid of cells is enough.

ESCAPE = re.compile(
    r"\x1b\[[0-9;?<=>$]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]"
)


def screen_rows(stream: str, cols: int, rows: int) -> list[str]:
    """The terminal's rows after `stream` (cursor moves and text; styles and modes ignored)."""
    grid = [[" "] * cols for _ in range(rows)]
    row = col = 0
    at = 0
    while at < len(stream):
        escape = ESCAPE.match(stream, at)
        if escape:
            sequence = escape.group()
            at = escape.end()
            if sequence.startswith("\x1b[") and sequence.endswith("H"):
                numbers = sequence[2:-1].split(";")
                row = int(numbers[0] or 1) - 1 if numbers else 0
                col = int(numbers[1] or 1) - 1 if len(numbers) > 1 else 0
            continue
        char = stream[at]
        at += 1
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
        elif char >= " " and 0 <= row < rows and 0 <= col < cols:
            grid[row][col] = char
            col += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return ["".join(line) for line in grid]


def cell_of(rows: list[str], text: str, *, below: str = "") -> tuple[int, int] | None:
    """(row, column) of the first cell of `text` on the screen (on a row after the first one
    holding `below`, when given), or None."""
    start = 0
    if below:
        start = next((n + 1 for n, line in enumerate(rows) if below in line), len(rows))
    for n in range(start, len(rows)):
        column = rows[n].find(text)
        if column >= 0:
            return n, column
    return None


# Recorded in every page before its own scripts run: each WebSocket it opens (opened or not, its
# close code) and the text of what the app sent over it (the terminal's output).
RECORDER = r"""
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__screen = "";
  const decoder = new TextDecoder();
  function Recorded(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const seen = {url: String(url), opened: false, closed: false, code: null};
    window.__sockets.push(seen);
    ws.addEventListener("open", () => { seen.opened = true; });
    ws.addEventListener("close", (e) => { seen.closed = true; seen.code = e.code; });
    ws.addEventListener("message", (e) => {
      if (typeof e.data === "string") { return; }
      if (e.data instanceof ArrayBuffer) {
        window.__screen += decoder.decode(e.data, {stream: true});
      }
    });
    return ws;
  }
  Recorded.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) { Recorded[name] = Native[name]; }
  window.WebSocket = Recorded;
})();
"""


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[DevTools]:
    """Headless Chromium with its DevTools port, and its one page, recording WebSockets."""
    assert CHROMIUM is not None
    profile = tmp_path / "chromium-profile"
    command = [
        CHROMIUM,
        "--headless=new",
        "--no-sandbox",  # tests run as root in containers
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        "--window-size=1600,1000",
        "about:blank",
    ]
    log = (tmp_path / "chromium.log").open("w", encoding="utf-8")  # no pipe for it to fill
    chromium = subprocess.Popen(
        command,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its helper processes end with it (killpg)
    )
    log.close()
    try:
        active = profile / "DevToolsActivePort"

        async def port_written() -> int | None:
            assert chromium.poll() is None, "Chromium ended at start"
            lines = active.read_text().splitlines() if active.exists() else []
            return int(lines[0]) if lines and lines[0].isdigit() else None

        port = await poll("Chromium's DevTools port", port_written)
        async with aiohttp.ClientSession() as http:

            async def page_target() -> str | None:
                try:
                    async with http.get(f"http://127.0.0.1:{port}/json/list") as answer:
                        targets = await answer.json()
                except aiohttp.ClientConnectionError:
                    return None
                pages = [t for t in targets if t.get("type") == "page"]
                return str(pages[0]["webSocketDebuggerUrl"]) if pages else None

            target = await poll("Chromium's page", page_target)
            async with http.ws_connect(target, max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.send("Page.enable")
                await tools.send("Network.enable")
                await tools.send("Page.addScriptToEvaluateOnNewDocument", source=RECORDER)
                yield tools
    finally:
        stop(chromium, group=True)


# --- a page of another origin --------------------------------------------------------------------

OTHER_PAGE = r"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>another site</title></head><body>
<script>
// Opens each WebSocket in turn; on open, types y into the app (a label, were it let through).
function attempt(url) {
  return new Promise((resolve) => {
    const result = {url: url, opened: false, received: 0, code: null};
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (error) {
      result.code = String(error);
      resolve(result);
      return;
    }
    ws.binaryType = "arraybuffer";
    ws.onopen = () => {
      result.opened = true;
      ws.send(JSON.stringify(["resize", {width: 120, height: 40}]));
      setTimeout(() => ws.send(JSON.stringify(["stdin", "y"])), 2000);
      setTimeout(() => ws.close(), 6000);
    };
    ws.onmessage = () => { result.received += 1; };
    ws.onclose = (event) => { result.code = event.code; resolve(result); };
  });
}
window.attempts = (async () => {
  const targets = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  const results = [];
  for (const url of targets) { results.push(await attempt(url)); }
  return results;
})();
</script></body></html>
"""


@pytest.fixture
async def other_site() -> AsyncIterator[int]:
    """A tiny site on another port of the loopback serving OTHER_PAGE at /."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=OTHER_PAGE, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app)
    await runner.setup()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    await web.SockSite(runner, sock).start()
    try:
        yield port
    finally:
        await runner.cleanup()


async def test_a_page_of_another_origin_cannot_open_the_app_or_label(
    served: Served, other_site: int, browser: DevTools, workspace: Path
) -> None:
    """Another site's page (another port of 127.0.0.1, then localhost) opens WebSockets to the
    served app with ann1's token, a wrong token and none: Chromium sends the page's Origin, the
    server refuses every handshake, no label is stored. The same script's WebSocket from the
    served page's own origin opens."""
    app_ws = f"ws://127.0.0.1:{served.port}/ws"
    targets = [
        f"{app_ws}/{served.token}?width=120&height=40",
        f"ws://localhost:{served.port}/ws/{served.token}?width=120&height=40",
        f"{app_ws}/{served.token[:-1]}x?width=120&height=40",
        f"{app_ws}/?width=120&height=40",
    ]
    fragment = "#" + quote(json.dumps(targets), safe="")
    handshake = "Error during WebSocket handshake: Unexpected response code: "
    for host in ("127.0.0.1", "localhost"):
        mark = len(browser.events)
        await browser.navigate(f"http://{host}:{other_site}/{fragment}")
        results = await browser.evaluate("window.attempts")
        assert [r["url"] for r in results] == targets, results
        for result in results:
            assert result["opened"] is False and result["received"] == 0, (host, result)
            assert result["code"] == 1006, (host, result)  # the handshake failed
        # refused by the server (403; no route without a token: 404), not by the network
        assert await browser.websocket_errors(mark, len(targets)) == [
            (url, handshake + ("404" if url.startswith(f"{app_ws}/?") else "403"))
            for url in targets
        ]
        sent = browser.handshakes(mark)
        assert [url for url, _ in sent] == targets
        assert {headers["origin"] for _, headers in sent} == {f"http://{host}:{other_site}"}
    assert not any(
        method == "Network.webSocketHandshakeResponseReceived"
        for method, _, _ in browser.websocket_events()
    )
    assert stored_clear(workspace) == []

    # the served page's own origin: the same attempt opens (and is closed without a key)
    await browser.navigate(served.url)
    opened = await browser.evaluate(
        "new Promise((resolve) => {"
        f"  const ws = new WebSocket({json.dumps(targets[0])});"
        "  ws.onopen = () => { ws.close(); resolve(true); };"
        "  ws.onclose = () => resolve(false);"
        "})"
    )
    assert opened is True
    assert stored_clear(workspace) == []


async def test_the_served_page_runs_the_app_and_a_key_stores_the_label(
    served: Served, browser: DevTools, workspace: Path
) -> None:
    """ann1's link in Chromium: the page's terminal connects, shows the item, and y typed into it
    stores "the question is clear: yes" in the workspace."""
    await browser.navigate(served.url)

    async def connected() -> Any:
        return await browser.evaluate(
            "window.__sockets.length === 1 && window.__sockets[0].opened"
            " && document.body.classList.contains('-loaded')"
        )

    await poll("the page's WebSocket open", connected)
    ((url, headers),) = browser.handshakes()
    assert url.startswith(f"ws://127.0.0.1:{served.port}/ws/{served.token}?width=")
    assert headers["origin"] == f"http://127.0.0.1:{served.port}"

    async def item_shown() -> Any:
        screen = await browser.evaluate("window.__screen")
        return "Not rated yet" in screen and "Paris" in screen

    await poll("the item on the page's terminal", item_shown)
    assert stored_clear(workspace) == []
    await browser.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
    assert await browser.evaluate(
        "document.activeElement === document.querySelector('.xterm-helper-textarea')"
    )
    await browser.press("y")

    async def labelled() -> list[str | None]:
        return stored_clear(workspace)

    assert await poll("the label stored", labelled) == ["yes"]
    sockets = await browser.evaluate("window.__sockets")
    assert [(s["opened"], s["closed"]) for s in sockets] == [(True, False)]


# --- clicks on the page's terminal ---------------------------------------------------------------


@dataclass
class Terminal:
    """The served page's terminal: its size in cells and where it is drawn."""

    browser: DevTools
    cols: int
    rows: int
    left: float
    top: float
    width: float
    height: float

    async def screen(self) -> list[str]:
        return screen_rows(await self.browser.evaluate("window.__screen"), self.cols, self.rows)

    async def find(self, text: str, *, below: str = "") -> tuple[int, int]:
        """(row, column) of `text` on the terminal, waiting until it is drawn."""

        async def found() -> tuple[int, int] | None:
            return cell_of(await self.screen(), text, below=below)

        row, column = await poll(f"{text!r} on the page's terminal", found)
        return int(row), int(column)

    async def click(self, row: int, column: int) -> None:
        """A click in the middle of a cell."""
        x = self.left + (column + 0.5) * self.width / self.cols
        y = self.top + (row + 0.5) * self.height / self.rows
        await self.browser.click(x, y)


async def open_terminal(browser: DevTools, served: Served) -> Terminal:
    """ann1's link opened and its item drawn; the terminal's size is the one the page asked the
    app for (?width=...&height=... of its WebSocket)."""
    await browser.navigate(served.url)
    await poll(
        "the page's WebSocket open",
        lambda: browser.evaluate("window.__sockets.length === 1 && window.__sockets[0].opened"),
    )
    ((url, _),) = browser.handshakes()
    size = re.search(r"\?width=(\d+)&height=(\d+)", url)
    assert size, url
    box = await browser.evaluate(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()"
    )
    terminal = Terminal(browser, int(size.group(1)), int(size.group(2)), *box)
    assert terminal.cols >= 120 and terminal.width > 0 and terminal.height > 0, terminal
    await terminal.find("Not rated yet")
    return terminal


async def test_a_click_on_the_served_footer_runs_its_key(
    served: Served, browser: DevTools, workspace: Path
) -> None:
    """Clicks reach the app where they land: a click on the question (the app takes the focus,
    and its footer shows its keys), then one on the footer's Skip stores a skip of the item."""
    terminal = await open_terminal(browser, served)
    await terminal.click(*await terminal.find("Is Paris"))
    row, column = await terminal.find("Skip", below="Not rated yet")
    assert row == terminal.rows - 1  # the footer
    assert stored_labels(workspace) == []
    await terminal.click(row, column + 1)

    async def skipped() -> list[tuple[str, str | None, int]]:
        return stored_labels(workspace)

    assert await poll("the skip stored", skipped) == [("skip", None, 1)]


async def test_a_click_on_an_annotation_chip_stores_the_label(
    served: Served, browser: DevTools, workspace: Path
) -> None:
    """A click on the y chip ("the question is clear: Yes") stores that label."""
    terminal = await open_terminal(browser, served)
    row, column = await terminal.find(" y  Yes", below="Is the intent of the question clear?")
    await terminal.click(row, column + 1)

    async def labelled() -> list[str | None]:
        return stored_clear(workspace)

    assert await poll("the label stored", labelled, ceiling_s=20) == ["yes"]
