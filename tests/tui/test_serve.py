"""`kglens serve`: the URL it prints and hands to textual-serve is one a browser can open; a port
it cannot listen on is one error line, never a "Serving" line and a traceback; only the token's
holder (or the password's) reaches the app, from the served origin and host, per-annotator links
open one annotator each, and sessions over the cap get a message and no process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

from aiohttp import web  # noqa: E402
from conftest import wait_for  # noqa: E402

from kglens_tui import serve as serve_module  # noqa: E402
from kglens_tui.cli import main as cli_module  # noqa: E402
from kglens_tui.cli.main import main  # noqa: E402
from kglens_tui.serve import (  # noqa: E402
    DEFAULT_MAX_SESSIONS,
    KGLensServer,
    default_public_url,
    is_loopback,
    make_server,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port of 127.0.0.1 that a listening socket holds."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("host", "port", "url"),
    [
        ("127.0.0.1", 8000, "http://127.0.0.1:8000"),
        ("localhost", 8080, "http://localhost:8080"),
        ("::1", 8000, "http://[::1]:8000"),
        ("::", 9000, "http://[::]:9000"),
        ("2001:db8::7", 80, "http://[2001:db8::7]:80"),
        ("fe80::1%eth0", 8000, "http://[fe80::1%25eth0]:8000"),
        ("annotate.example", 443, "http://annotate.example:443"),
    ],
)
def test_default_public_url(host: str, port: int, url: str) -> None:
    assert default_public_url(host, port) == url


def test_server_gets_the_bracketed_url_and_keeps_an_explicit_one(tmp_path: Path) -> None:
    pytest.importorskip("textual_serve")
    server = make_server(tmp_path / "w.db", host="::1", port=8123)
    assert server.public_url == "http://[::1]:8123" and server.host == "::1"
    behind = make_server(tmp_path / "w.db", host="::1", public_url="https://kg.example/annotate")
    assert behind.public_url == "https://kg.example/annotate"
    assert is_loopback("::1")


def test_cli_prints_a_valid_ipv6_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server_module = pytest.importorskip("textual_serve.server")
    served: list[tuple[str, int, str]] = []
    monkeypatch.setattr(serve_module, "bind_problem", lambda host, port: None)  # no IPv6 needed
    monkeypatch.setattr(
        server_module.Server,
        "serve",
        lambda self, debug=False: served.append((self.host, self.port, self.public_url)),
    )
    code = main(["--db", str(tmp_path / "w.db"), "serve", "--host", "::1", "--port", "8765"])
    out = capsys.readouterr()
    assert code == 0
    assert served == [("::1", 8765, "http://[::1]:8765")]
    assert "http://[::1]:8765" in out.out and "http://::1:" not in out.out + out.err
    assert "lets other machines connect" not in out.err  # ::1 is loopback


def test_a_port_in_use_is_one_error_line_and_no_serving_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    taken_port: int,
) -> None:
    server_module = pytest.importorskip("textual_serve.server")
    served: list[int] = []
    monkeypatch.setattr(server_module.Server, "serve", lambda self, debug=False: served.append(1))
    code = main(["--db", str(tmp_path / "w.db"), "serve", "--port", str(taken_port)])
    out = capsys.readouterr()
    assert code != 0 and served == []
    assert out.out == ""
    assert out.err.splitlines() == [
        f"error: port {taken_port} on 127.0.0.1 is in use; pick another with --port"
    ]


def test_a_port_taken_after_the_check_is_one_error_line_too(
    tmp_path: Path, taken_port: int
) -> None:
    """The port is taken between the check and textual-serve's bind (the check is skipped here):
    the real server's OSError ends as the same one line, with no traceback."""
    pytest.importorskip("textual_serve")
    script = (
        "import sys\n"
        "from kglens_tui import serve\n"
        "from kglens_tui.cli.main import main\n"
        "serve.bind_problem = lambda host, port: None\n"
        f"sys.exit(main(['--db', {str(tmp_path / 'w.db')!r}, 'serve', '--port', '{taken_port}']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"error: port {taken_port} on 127.0.0.1 is in use; pick another with --port"
    )


# --- who may open the served app: the token, the Host, the Origin, the cap on sessions -----------
# A real aiohttp server on a loopback port and a real WebSocket client. The app each session runs
# is a small script that speaks textual-serve's protocol (a tab of the real annotation app is
# tested at the end, through `kglens serve` itself).

FAKE_APP = r"""
import json, sys
out = sys.stdout.buffer
out.write(b"__GANGLION__\n")
hello = b"hello from the app"
out.write(b"D" + len(hello).to_bytes(4, "big") + hello)
out.flush()
with open(sys.argv[1], "a", encoding="utf-8") as started:
    started.write("started\n")
data = b""
while chunk := sys.stdin.buffer.read1(4096):
    data += chunk
    if b'"quit"' in data:
        break
"""


@pytest.fixture
def fake_app(tmp_path: Path) -> tuple[str, Path]:
    """The command of a stand-in app and the file it adds a line to each time one starts."""
    script = tmp_path / "fake_app.py"
    script.write_text(FAKE_APP, encoding="utf-8")
    started = tmp_path / "started.txt"
    started.touch()
    return shlex.join([sys.executable, str(script), str(started)]), started


@contextlib.asynccontextmanager
async def serving(
    command: str, *, host: str = "127.0.0.1", public_url: str = "", **kwargs: Any
) -> AsyncIterator[KGLensServer]:
    """A KGLensServer for ``command`` listening on a free port of 127.0.0.1; ``host`` is the
    address it is told it binds and ``public_url`` ("{port}" filled in) what its page names."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    server = KGLensServer(
        command,
        host=host,
        port=port,
        title="KGLens annotation",
        public_url=public_url.format(port=port) or default_public_url("127.0.0.1", port),
        **kwargs,
    )
    runner = web.AppRunner(await server._make_app())
    await runner.setup()
    await web.SockSite(runner, sock).start()
    try:
        yield server
    finally:
        await wait_for(None, lambda: server.sessions == 0)  # every app process ended and reaped
        await runner.cleanup()


def ws_url(server: KGLensServer, token: str | None = None) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/{token or server.token}?width=80&height=24"


async def first_bytes(ws: aiohttp.ClientWebSocketResponse) -> bytes:
    """The first binary message (what the page's terminal shows), waiting up to 60 s."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 60)
        if message.type == aiohttp.WSMsgType.BINARY:
            return bytes(message.data)
        assert message.type == aiohttp.WSMsgType.TEXT, message


async def test_the_page_and_the_websocket_need_the_token(fake_app: tuple[str, Path]) -> None:
    command, started = fake_app
    async with serving(command) as server, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{server.port}/"
        async with http.get(base) as page:
            assert page.status == 401 and "needs the link" in await page.text()
        async with http.get(base, params={"token": "guess"}) as page:
            assert page.status == 401
        async with http.get(base, params={"token": server.token}) as page:
            body = await page.text()
            assert page.status == 200
            assert f"ws://127.0.0.1:{server.port}/ws/{server.token}" in body
            assert page.headers["Referrer-Policy"] == "no-referrer"
            # nothing the page loads comes from elsewhere (textual-serve links a Google font)
            assert "googleapis" not in body
            assert not re.findall(r"(?:href|src)=\"https?://(?!127\.0\.0\.1)", body)
        async with http.get(base, cookies={serve_module.TOKEN_COOKIE: "guess"}) as page:
            assert page.status == 401  # a cookie is only as good as the token it holds
        for token in ("guess", server.token[:-1], "x" * len(server.token)):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url(server, token))
            assert refused.value.status == 403
        async with http.ws_connect(ws_url(server)) as ws:
            assert await first_bytes(ws) == b"hello from the app"
    assert started.read_text().splitlines() == ["started"]  # only the token's session ran


async def test_a_page_of_another_origin_or_host_is_refused(fake_app: tuple[str, Path]) -> None:
    command, started = fake_app
    async with serving(command) as server, aiohttp.ClientSession() as http:
        for origin in ("http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url(server), origin=origin)
            assert refused.value.status == 403, origin
        # DNS rebinding: evil.example resolving to 127.0.0.1 sends its own name as the Host
        rebound = {
            "Host": f"evil.example:{server.port}",
            "Origin": f"http://evil.example:{server.port}",
        }
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(ws_url(server), headers=rebound)
        assert refused.value.status == 403
        async with http.get(
            f"http://127.0.0.1:{server.port}/", params={"token": server.token}, headers=rebound
        ) as page:
            assert page.status == 403 and "host name" in await page.text()
        assert started.read_text() == ""
        for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
            headers = {"Host": f"localhost:{server.port}"} if "localhost" in origin else {}
            async with http.ws_connect(ws_url(server), origin=origin, headers=headers) as ws:
                assert await first_bytes(ws) == b"hello from the app"


async def test_connections_over_the_cap_get_a_message_and_no_process(
    fake_app: tuple[str, Path],
) -> None:
    command, started = fake_app
    async with serving(command, max_sessions=2) as server, aiohttp.ClientSession() as http:
        held = [await http.ws_connect(ws_url(server)) for _ in range(2)]
        for ws in held:
            assert await first_bytes(ws) == b"hello from the app"
        refused = []
        for _ in range(20):
            ws = await http.ws_connect(ws_url(server))
            text = (await first_bytes(ws)).decode()
            closing = await asyncio.wait_for(ws.receive(), 60)
            refused.append((text.strip(), closing.type, ws.close_code))
            await ws.close()
        assert refused == [(server.full_message(), aiohttp.WSMsgType.CLOSE, 1013)] * 20
        assert "2 annotation sessions are already open" in server.full_message()
        async with http.get(
            f"http://127.0.0.1:{server.port}/", params={"token": server.token}
        ) as page:
            assert page.status == 503 and "--max-sessions" in await page.text()
        assert started.read_text().splitlines() == ["started"] * 2  # 2 processes, not 22
        assert (server.sessions, server.refused_full) == (2, 20)
        await held[0].close()
        await wait_for(None, lambda: server.sessions == 1)
        async with http.ws_connect(ws_url(server)) as ws:  # a place was freed
            assert await first_bytes(ws) == b"hello from the app"
        for ws in held[1:]:
            await ws.close()


async def test_the_password_form_leads_to_the_token(fake_app: tuple[str, Path]) -> None:
    command, _ = fake_app
    async with serving(command, password="s3cret") as server, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{server.port}/"
        async with http.get(base) as page:
            assert page.status == 401 and 'type="password"' in await page.text()
        async with http.post(base + "login", data={"password": "wrong"}) as page:
            assert page.status == 401 and "Wrong password." in await page.text()
        async with http.post(
            base + "login", data={"password": "s3cret"}, headers={"Origin": "http://evil.example"}
        ) as page:
            assert page.status == 403
        async with http.post(
            base + "login", data={"password": "s3cret"}, allow_redirects=False
        ) as page:
            # on to the page with the token in a cookie, never in the address bar or history
            assert page.status == 303 and page.headers["Location"] == "./"
            cookie = page.cookies[serve_module.TOKEN_COOKIE]
            assert cookie.value == server.token and cookie["httponly"]
            assert cookie["samesite"] == "Strict"
        # as a browser keeps cookies (aiohttp's jar refuses those of an IP address by default)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            async with browser.post(base + "login", data={"password": "s3cret"}) as page:
                assert page.status == 200 and "token" not in str(page.url)
                assert server.token in await page.text()  # the page's WebSocket address
            async with browser.get(base) as page:
                assert page.status == 200  # the cookie opens it again
        # "after 20 wrong ones it refuses every try" (docs/annotation.md): the 20th wrong one is
        # still answered as wrong, the 21st try (wrong or right) is refused (trial 2 read a 429
        # at the 20th)
        assert serve_module.MAX_FAILED_LOGINS == 20
        for wrong in range(2, 21):  # the first wrong one was given above
            async with http.post(base + "login", data={"password": "guess"}) as page:
                assert page.status == 401, wrong
                assert "Wrong password." in await page.text()
        async with http.post(base + "login", data={"password": "guess"}) as page:
            assert page.status == 429 and "too many wrong passwords" in await page.text()
        async with http.post(base + "login", data={"password": "s3cret"}) as page:
            assert page.status == 429 and "too many wrong passwords" in await page.text()
        async with http.get(base, params={"token": server.token}) as page:
            assert page.status == 200  # the link still opens it


def test_hosts_a_server_answers_to(tmp_path: Path) -> None:
    local = make_server(tmp_path / "w.db", port=8123)
    assert local.allowed_hosts == {"127.0.0.1", "localhost", "::1"}
    proxied = make_server(tmp_path / "w.db", public_url="https://kg.example/annotate")
    assert "kg.example" in proxied.allowed_hosts
    # every address: the public URL's name only (was: any Host at all, trial 2 finding G)
    everywhere = make_server(tmp_path / "w.db", host="0.0.0.0", public_url="http://kg.test:8768")
    assert everywhere.allowed_hosts == {"kg.test"}
    for wildcard in ("0.0.0.0", "::", "0", "::0"):
        with pytest.raises(ValueError, match="give --public-url"):
            make_server(tmp_path / "w.db", host=wildcard)
    assert make_server(tmp_path / "w.db").token != make_server(tmp_path / "w.db").token
    assert len(make_server(tmp_path / "w.db").token) >= 40
    assert cli_module.SERVE_MAX_SESSIONS == DEFAULT_MAX_SESSIONS


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "0"])
def test_a_wildcard_bind_without_a_public_url_is_one_error_line_and_serves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    """Trial 2, finding G: with --host 0.0.0.0 the page sent browsers to http://0.0.0.0:8768
    (their own machine) and any Host header was accepted."""
    served: list[KGLensServer] = []
    monkeypatch.setattr(KGLensServer, "serve", lambda self, debug=False: served.append(self))
    code = main(["--db", str(tmp_path / "w.db"), "serve", "--host", host, "--port", "8768"])
    out = capsys.readouterr()
    assert code == 2 and served == [] and out.out == ""
    assert out.err.splitlines() == [
        f"error: --host {host} listens on every address of this machine, and no page can point "
        f"a browser at {host}: give --public-url, the address browsers will use (e.g. "
        "--public-url http://THIS_HOST:8768); the server then answers to that name only"
    ]


@pytest.mark.parametrize("url", ["http://0.0.0.0:8768", "http://[::]:8768", "kg.test:8768"])
def test_a_public_url_no_browser_can_open_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    served: list[KGLensServer] = []
    monkeypatch.setattr(KGLensServer, "serve", lambda self, debug=False: served.append(self))
    argv = ["--db", str(tmp_path / "w.db"), "serve", "--host", "0.0.0.0", "--public-url", url]
    assert main([*argv, "--port", "8768"]) == 2 and served == []
    assert capsys.readouterr().err.splitlines() == [
        f"error: --public-url {url} is not an address a browser can open: name this machine "
        "(or its proxy), e.g. http://THIS_HOST:8768"
    ]


def test_a_wildcard_bind_with_a_public_url_serves_that_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[KGLensServer] = []
    monkeypatch.setattr(serve_module, "bind_problem", lambda host, port: None)  # no real bind
    monkeypatch.setattr(KGLensServer, "serve", lambda self, debug=False: served.append(self))
    argv = ["--db", str(tmp_path / "w.db"), "serve", "--host", "0.0.0.0", "--port", "8768"]
    assert main([*argv, "--public-url", "http://kg.test:8768"]) == 0
    out = capsys.readouterr()
    (server,) = served
    assert server.host == "0.0.0.0" and server.allowed_hosts == {"kg.test"}
    assert f"http://kg.test:8768/?token={server.token}" in out.out
    assert "0.0.0.0:8768" not in out.out and "lets other machines reach" in out.err


async def test_a_wildcard_bind_answers_to_its_public_url_only(fake_app: tuple[str, Path]) -> None:
    """Told it binds 0.0.0.0 with the public URL http://kg.test:PORT (listening on 127.0.0.1
    here): the page names kg.test, never 0.0.0.0, and another Host is refused (it was let in)."""
    command, started = fake_app
    public = "http://kg.test:{port}"
    async with (
        serving(command, host="0.0.0.0", public_url=public) as server,
        aiohttp.ClientSession() as http,
    ):
        base = f"http://127.0.0.1:{server.port}/"
        for name in ("evil.example", "0.0.0.0", "127.0.0.1"):
            headers = {"Host": f"{name}:{server.port}"}
            async with http.get(base, params={"token": server.token}, headers=headers) as page:
                assert page.status == 403 and "host name" in await page.text(), name
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url(server), headers=headers)
            assert refused.value.status == 403, name
        assert started.read_text() == ""
        ours = {"Host": f"kg.test:{server.port}"}
        async with http.get(base, params={"token": server.token}, headers=ours) as page:
            body = await page.text()
            assert page.status == 200
        assert f"http://kg.test:{server.port}/static/" in body
        assert f"ws://kg.test:{server.port}/ws/{server.token}" in body
        assert "0.0.0.0" not in body
        origin = f"http://kg.test:{server.port}"
        async with http.ws_connect(ws_url(server), origin=origin, headers=ours) as ws:
            assert await first_bytes(ws) == b"hello from the app"


def test_cli_prints_the_link_with_its_token_and_checks_the_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[KGLensServer] = []
    monkeypatch.setattr(KGLensServer, "serve", lambda self, debug=False: served.append(self))
    monkeypatch.setenv("KGLENS_SERVE_PASSWORD", "pw")
    assert (
        main(["--db", str(tmp_path / "w.db"), "serve", "--port", "0", "--max-sessions", "3"]) == 0
    )
    out = capsys.readouterr()
    (server,) = served
    assert (server.host, server.max_sessions, server.password) == ("127.0.0.1", 3, "pw")
    assert f"http://127.0.0.1:0/?token={server.token}" in out.out
    assert "serve_password" in out.err and "no authentication" not in out.err
    code = main(["--db", str(tmp_path / "w.db"), "serve", "--max-sessions", "0"])
    assert code == 2 and served == [server]
    assert capsys.readouterr().err.splitlines() == [
        "error: --max-sessions must be at least 1 (got 0)"
    ]


def test_kglens_serve_serves_the_annotation_app_to_the_token_only(tmp_path: Path) -> None:
    """`kglens serve` itself, as a process: the link it prints opens a tab of the real annotation
    app; the same WebSocket without the token is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "400"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kglens_tui.cli",
            "--db",
            str(tmp_path / "w.db"),
            "serve",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # blocks until it says where it serves
        url = re.search(r"http://127\.0\.0\.1:\d+/\?token=[\w-]+", line)
        assert url, line
        token = url.group().split("token=")[1]

        async def talk() -> bytes:
            async with aiohttp.ClientSession() as http:
                async with asyncio.timeout(120):
                    while True:  # the server listens a moment after it prints
                        try:
                            async with http.get(url.group()) as page:
                                assert page.status == 200
                                break
                        except aiohttp.ClientConnectorError:
                            await asyncio.sleep(0.05)
                with pytest.raises(aiohttp.WSServerHandshakeError):
                    await http.ws_connect(f"ws://127.0.0.1:{port}/ws/nottoken")
                async with http.ws_connect(
                    f"ws://127.0.0.1:{port}/ws/{token}?width=100&height=30"
                ) as ws:
                    return await first_bytes(ws)

        screen = asyncio.run(talk())
        assert b"\x1b[" in screen  # the app's terminal output
    finally:
        server.terminate()
        rest, logged = server.communicate(timeout=60)
    assert token not in rest + logged  # no access log line repeats the link's token


async def test_a_per_annotator_link_opens_that_annotator_only(tmp_path: Path) -> None:
    """Each annotator's token opens their own (bound) app; no token opens anyone else's, and
    there is no general token or password to choose a name with."""
    script = tmp_path / "fake_app.py"
    script.write_text(FAKE_APP, encoding="utf-8")
    started = {who: tmp_path / f"{who}.txt" for who in ("ann1", "ann2")}
    commands = {
        who: shlex.join([sys.executable, str(script), str(f)]) for who, f in started.items()
    }
    for f in started.values():
        f.touch()
    async with (
        serving("unused", annotator_commands=commands, password="ignored") as server,
        aiohttp.ClientSession() as http,
    ):
        assert server.token == "" and server.password == ""
        assert set(server.annotator_links) == {"ann1", "ann2"}
        assert server.url_for("ann1") != server.url_for("ann2")
        async with http.get(server.url_for("ann1")) as page:
            assert page.status == 200
        for token in ("", "guess"):
            async with http.get(
                f"http://127.0.0.1:{server.port}/", params={"token": token}
            ) as page:
                assert page.status == 401
        async with http.post(
            f"http://127.0.0.1:{server.port}/login", data={"password": "ignored"}
        ) as page:
            assert page.status == 404
        async with http.ws_connect(ws_url(server, server.annotator_links["ann1"])) as ws:
            assert await first_bytes(ws) == b"hello from the app"
    assert started["ann1"].read_text().splitlines() == ["started"]
    assert started["ann2"].read_text() == ""


def test_cli_prints_a_bound_link_per_annotator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
    from kglens_tui.store.connection import connect

    db = tmp_path / "w.db"
    conn = connect(db)
    spec = ItemSpec(kg="country", qtype="yes_no", question="Q?", app_verdict="correct")
    create_round_from_items(conn, "r1", [spec], annotators=("ann1", "ann2", "ann3"))
    conn.close()
    served: list[KGLensServer] = []
    monkeypatch.setattr(KGLensServer, "serve", lambda self, debug=False: served.append(self))
    assert main(["--db", str(db), "serve", "--port", "0", "--round", "r1", "--per-annotator"]) == 0
    out = capsys.readouterr()
    (server,) = served
    for who in ("ann1", "ann2", "ann3"):
        assert f"  {who}: http://127.0.0.1:0/?token={server.annotator_links[who]}" in out.out
        bound = server.tokens[server.annotator_links[who]]
        assert bound.endswith(f"annotate tui r1 --annotator {who} --bound")
    assert len(server.tokens) == 3 and "as that annotator only" in out.err
    assert main(["--db", str(db), "serve", "--per-annotator"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: --per-annotator needs --round (whose annotators get a link each)"
    )
