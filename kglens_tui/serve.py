"""`kglens serve`: the annotation app in a browser with textual-serve. Each browser tab runs its own
`kglens annotate tui` process on the workspace (annotators only: no runs, report or adjudication);
labels from all of them go to one database safely.

Like Jupyter, it serves only whoever holds the random token in the URL it prints (or, with the
`serve_password` setting, whoever types that password): the page and the WebSocket check it. The
Host header must name the served address (no DNS rebinding) and a browser's Origin must be the
served page's, so a page of another site cannot drive the app. Bound to every address (0.0.0.0,
::), it needs the public URL browsers will use: the page's links and the Host check follow it. At most `max_sessions` apps run at
once; a tab over the cap is told so and starts no process."""

from __future__ import annotations

import asyncio
import errno
import functools
import html
import ipaddress
import logging
import re
import secrets
import shlex
import socket
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

log = logging.getLogger("kglens.serve")

DEFAULT_MAX_SESSIONS = 8
"""Browser tabs served at once by default: each runs a Python process of about 50 MB."""

ACCESS_NOTE = (
    "only the link above opens it (its token is new each start){password}; keep the link private. "
    "To annotate from another machine keep it bound to localhost and use SSH port forwarding "
    "(ssh -L {port}:localhost:{port} THIS_HOST), or a reverse proxy (then pass --public-url)."
)

PER_ANNOTATOR_NOTE = (
    "each link above opens the app as that annotator only, and no link opens it as anyone else "
    "(tokens are new each start; the serve_password setting is not used); keep each private. "
    "To annotate from another machine keep it bound to localhost and use SSH port forwarding "
    "(ssh -L {port}:localhost:{port} THIS_HOST), or a reverse proxy (then pass --public-url)."
)

NO_TOKEN = (
    "kglens serve: this page needs the link that `kglens serve` printed (with its ?token=...)."
)
BAD_HOST = "kglens serve: this server does not answer to that host name."
BAD_ORIGIN = "kglens serve: a page of another site cannot open the annotation app."
FULL = (
    "kglens serve: {n} annotation sessions are already open, the most this server runs at once "
    "(--max-sessions). Close another tab, or try again later."
)
MAX_FAILED_LOGINS = 20
"""Wrong passwords after which the form refuses every try until kglens serve restarts (no one
can go on guessing; the token link still works)."""
TOO_MANY_LOGINS = (
    f"kglens serve: too many wrong passwords ({MAX_FAILED_LOGINS} given), so every try is "
    "refused; restart kglens serve, or use the link it printed."
)
TOKEN_COOKIE = "kglens_token"
"""The cookie a right password sets: the page opens with it as with the link's token, which
never reaches the address bar or the browser's history that way."""
EXTERNAL_FONTS = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)
"""textual-serve's page links a web font from Google: an offline tool makes no request
outside its own server, so the link is left out (the page falls back to a local monospace)."""
WILDCARD_NEEDS_PUBLIC_URL = (
    "--host {host} listens on every address of this machine, and no page can point a browser at "
    "{host}: give --public-url, the address browsers will use (e.g. --public-url "
    "http://THIS_HOST:{port}); the server then answers to that name only"
)
UNREACHABLE_PUBLIC_URL = (
    "--public-url {url} is not an address a browser can open: name this machine (or its proxy), "
    "e.g. http://THIS_HOST:{port}"
)


def app_command(db: Path, round_ref: str | None = None, annotator: str | None = None) -> str:
    """The shell command textual-serve runs for each browser session; with an annotator, bound
    to that annotator of the round (`annotate tui --bound`)."""
    args = [sys.executable, "-m", "kglens_tui.cli", "--db", str(db.resolve()), "annotate", "tui"]
    if round_ref:
        args.append(round_ref)
    if round_ref and annotator is not None:
        args += ["--annotator", annotator, "--bound"]
    return shlex.join(args)


def is_loopback(host: str) -> bool:
    """Whether host is only reachable from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether binding host listens on every address of the machine ("0.0.0.0", "::", "0"...);
    a host name is not (it is not resolved here)."""
    try:
        infos = socket.getaddrinfo(
            host or None,
            0,
            type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE | socket.AI_NUMERICHOST,
        )
    except (socket.gaierror, UnicodeError):
        return False
    return any(
        ipaddress.ip_address(str(info[4][0]).partition("%")[0]).is_unspecified for info in infos
    )


def public_url_problem(host: str, port: int, public_url: str | None) -> str | None:
    """Why the page served on host:port could not point a browser back at it, as one line, or
    None: a wildcard bind without a public URL, or a public URL that names no host or names
    every address (http://0.0.0.0:8000)."""
    if public_url is None:
        return WILDCARD_NEEDS_PUBLIC_URL.format(host=host, port=port) if is_wildcard(host) else None
    name = _hostname(urlsplit(public_url.strip()).netloc) if "//" in public_url else None
    if not name or is_wildcard(name):
        return UNREACHABLE_PUBLIC_URL.format(url=public_url, port=port)
    return None


def default_public_url(host: str, port: int) -> str:
    """The URL a browser on this machine opens: http://HOST:PORT, with an IPv6 address in brackets
    (http://[::1]:8000) and its zone, if any, percent-encoded (http://[fe80::1%25eth0]:8000)."""
    address, _, zone = host.partition("%")
    try:
        is_v6 = ipaddress.ip_address(address).version == 6
    except ValueError:
        is_v6 = False
    if is_v6:
        host = f"[{address}%25{zone}]" if zone else f"[{address}]"
    return f"http://{host}:{port}"


def port_in_use_message(host: str, port: int) -> str:
    """The one line that says a port is taken."""
    return f"port {port} on {host} is in use; pick another with --port"


def bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (the port is in use, the address is not this
    machine's...), as one line, or None when it can: binds each address the server would, as it
    would (SO_REUSEADDR, as aiohttp does), and lets go at once."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot resolve --host {host}: {exc.strerror}"
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                return serve_error(host, port, exc)
    return None


BIND_ERRNOS = frozenset({errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES})
"""The errors binding a listening socket raises for the address or port asked for."""


def serve_error(host: str, port: int, exc: OSError) -> str:
    """One line for an error binding host:port."""
    if exc.errno == errno.EADDRINUSE:
        return port_in_use_message(host, port)
    return f"cannot listen on {host} port {port}: {exc.strerror or exc}"


def _hostname(netloc: str) -> str | None:
    """The host of a Host header or URL authority ("[::1]:8000" -> "::1"), lower case; None
    when it is not one."""
    try:
        return urlsplit(f"//{netloc}").hostname
    except ValueError:
        return None


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of a URL or an Origin header, the port filled in from the scheme;
    None when it has none (an Origin of "null")."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme.lower())
    return (parts.scheme.lower(), parts.hostname, port or default or 0)


def make_server(
    db: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    round_ref: str | None = None,
    public_url: str | None = None,
    token: str | None = None,
    password: str = "",
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    annotators: Sequence[str] | None = None,
) -> KGLensServer:
    """The server for the annotation app (not started), with a new random token unless given;
    with ``annotators`` (of ``round_ref``), a token per annotator instead, each opening the app
    bound to that annotator (`KGLensServer.url_for`). ValueError (`public_url_problem`) when
    the page could not point a browser back at the server."""
    problem = public_url_problem(host, port, public_url)
    if problem:
        raise ValueError(problem)
    bound = None
    if annotators is not None:
        if not round_ref:
            raise ValueError("per-annotator links need the round")
        bound = {who: app_command(db, round_ref, who) for who in annotators}
    return KGLensServer(
        app_command(db, round_ref),
        host=host,
        port=port,
        title="KGLens annotation",
        public_url=public_url or default_public_url(host, port),
        token=token,
        password=password,
        max_sessions=max_sessions,
        annotator_commands=bound,
    )


def access_note(server: KGLensServer) -> str:
    """What the operator is told about who can open the served app."""
    if server.annotator_links:
        return PER_ANNOTATOR_NOTE.format(port=server.port)
    password = " or the page asks for the serve_password setting" if server.password else ""
    return ACCESS_NOTE.format(password=password, port=server.port)


LOGIN_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title></head>
<body style="font-family: monospace; background: #0c181f; color: #eee; padding: 2em">
<form method="post" action="login">
<p>{title}: the password (the serve_password setting of whoever started kglens serve)</p>
<p>{problem}</p>
<input type="password" name="password" autofocus> <button type="submit">Open</button>
</form></body></html>
"""


class KGLensServer(Server):
    """textual-serve's server with a token (or password), Host and Origin checks and a cap on the
    sessions running at once."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        title: str,
        public_url: str,
        token: str | None = None,
        password: str = "",
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        annotator_commands: Mapping[str, str] | None = None,
    ) -> None:
        """``annotator_commands`` (annotator -> command): a token per annotator opening that
        command, and no general token (nor password): a page cannot label as someone else."""
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        super().__init__(command, host=host, port=port, title=title, public_url=public_url)
        self.tokens: dict[str, str] = {}
        """Every token this server accepts -> the app command it opens."""
        self.annotator_links: dict[str, str] = {}
        """Annotator -> their token (per-annotator links only)."""
        if annotator_commands:
            self.token = ""
            for who, bound in annotator_commands.items():
                secret = secrets.token_urlsafe(32)
                self.tokens[secret] = bound
                self.annotator_links[who] = secret
            password = ""
        else:
            self.token = token or secrets.token_urlsafe(32)
            self.tokens[self.token] = command
        self.password = password
        self.max_sessions = max_sessions
        self.sessions = 0
        """Sessions (app processes) running now."""
        self.refused_full = 0
        """WebSockets told the server is full since it started."""
        self.failed_logins = 0
        """Wrong passwords given since it started (`MAX_FAILED_LOGINS`)."""
        self.allowed_hosts = self._allowed_hosts()
        """Host names the Host header may carry."""

    @property
    def url(self) -> str:
        """The URL to print: the public URL with the token."""
        return f"{self.public_url.rstrip('/')}/?token={quote(self.token)}"

    def url_for(self, annotator: str) -> str:
        """The link of one annotator (per-annotator links)."""
        return f"{self.public_url.rstrip('/')}/?token={quote(self.annotator_links[annotator])}"

    def _allowed_hosts(self) -> frozenset[str]:
        """The public URL's host and the bound address (with localhost's names when that is
        loopback); bound to every address, the public URL's host alone."""
        bound = self.host.partition("%")[0].lower()
        names = {_hostname(urlsplit(self.public_url).netloc) or ""}
        if not is_wildcard(bound):
            names.add(bound)
        if is_loopback(bound):
            names |= {"localhost", "127.0.0.1", "::1"}
        return frozenset(names - {""})

    def host_allowed(self, request: web.BaseRequest) -> bool:
        """Whether the request's Host header names this server (not a DNS-rebinding name)."""
        name = _hostname(request.headers.get("Host", ""))
        return name is not None and name.partition("%")[0] in self.allowed_hosts

    def origin_allowed(self, request: web.BaseRequest) -> bool:
        """Whether a browser's Origin, if sent, is the served page's: the public URL's or the
        request's own host. A client that sends none (not a browser) still needs the token."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        theirs = _origin(origin)
        ours = {_origin(self.public_url), _origin(f"{request.scheme}://{request.host}")}
        return theirs is not None and theirs in ours

    def command_for(self, token: str) -> str | None:
        """The app command a token opens, or None when it is not this server's (every token is
        compared in constant time)."""
        found = None
        for secret, command in self.tokens.items():
            if token and secrets.compare_digest(token.encode(), secret.encode()):
                found = command
        return found

    @web.middleware
    async def _guard(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        if not self.host_allowed(request):
            return web.Response(status=403, text=BAD_HOST)
        response = await handler(request)
        if not response.prepared:  # a WebSocket's headers are sent already
            response.headers.setdefault("Referrer-Policy", "no-referrer")  # the token stays here
            response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": self._page()}))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.post("/login", self.handle_login, name="login"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Nothing to print: `kglens serve` has said where it serves."""

    def initialize_logging(self) -> None:
        """textual-serve's logging, without aiohttp's access log: its lines hold each request's
        URL, the token with it."""
        super().initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    def full_message(self) -> str:
        return FULL.format(n=self.sessions)

    def _page(self) -> str:
        """textual-serve's page template, without its link to a web font elsewhere."""
        page = (Path(self.templates_path) / "app_index.html").read_text(encoding="utf-8")
        return EXTERNAL_FONTS.sub("", page)

    def _login_page(self, problem: str, status: int) -> web.Response:
        body = LOGIN_PAGE.format(title=html.escape(self.title), problem=html.escape(problem))
        return web.Response(status=status, text=body, content_type="text/html")

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, for the token; the password form when a password is set; else one line."""
        token = request.query.get("token", "") or request.cookies.get(TOKEN_COOKIE, "")
        if self.command_for(token) is None:
            if self.password:
                return self._login_page("", 401)
            return web.Response(status=401, text=NO_TOKEN)
        if self.sessions >= self.max_sessions:
            return web.Response(status=503, text=self.full_message())
        static = str(request.app.router["static"].url_for(filename="/")).rstrip("/") + "/"
        ws_path = request.app.router["websocket"].url_for(token=token)
        ws_base = "wss:" if self.public_url.startswith("https") else "ws:"
        context: dict[str, Any] = {
            "font_size": _to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": ws_base
            + f"{self.public_url.rstrip('/')}{ws_path}".split(":", 1)[1],
            "config": {"static": {"url": f"{self.public_url.rstrip('/')}{static}"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        """The password form's answer: on to the page with the token in a cookie (`TOKEN_COOKIE`),
        or the form again."""
        if not self.password:
            raise web.HTTPNotFound()
        if not self.origin_allowed(request):
            return web.Response(status=403, text=BAD_ORIGIN)
        if self.failed_logins >= MAX_FAILED_LOGINS:
            return web.Response(status=429, text=TOO_MANY_LOGINS)
        form = await request.post()
        given = form.get("password")
        if isinstance(given, str) and secrets.compare_digest(
            given.encode(), self.password.encode()
        ):
            found = web.HTTPSeeOther("./")
            found.set_cookie(
                TOKEN_COOKIE,
                self.token,
                path=urlsplit(self.public_url).path or "/",
                httponly=True,
                samesite="Strict",
                secure=self.public_url.startswith("https"),
            )
            raise found
        self.failed_logins += 1
        return self._login_page("Wrong password.", 401)

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """The WebSocket that drives one app process: for the token, from the served page's
        origin, while the server runs fewer than max_sessions."""
        command = self.command_for(request.match_info.get("token", ""))
        if command is None:
            return web.Response(status=403, text=NO_TOKEN)
        if not self.origin_allowed(request):
            return web.Response(status=403, text=BAD_ORIGIN)
        websocket = web.WebSocketResponse(heartbeat=15)
        if self.sessions >= self.max_sessions:
            self.refused_full += 1
            await websocket.prepare(request)
            message = self.full_message()
            # the page's terminal shows the message; 1013 is "try again later"
            await websocket.send_bytes(f"\r\n{message}\r\n".encode())
            await websocket.close(code=1013, message=message[:120].encode())
            return websocket
        self.sessions += 1  # before any await: two handshakes at once cannot both pass the cap
        try:
            await self._run_session(request, websocket, command)
        finally:
            self.sessions -= 1
        return websocket

    async def _run_session(
        self, request: web.Request, websocket: web.WebSocketResponse, command: str
    ) -> None:
        """textual-serve's session: one app process, its screen to the socket, keys to it."""
        width = _to_int(request.query.get("width", "80"), 80)
        height = _to_int(request.query.get("height", "24"), 24)
        app_service: AppService | None = None
        try:
            await websocket.prepare(request)
            app_service = AppService(
                command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=functools.partial(_close, websocket),
                download_manager=self.download_manager,
                debug=self.debug,
            )
            await app_service.start(width, height)
            await self._process_messages(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except (OSError, ValueError, AssertionError) as error:  # a bad message or a dead process
            log.warning("session ended: %s", error)
        finally:
            if app_service is not None:
                await app_service.stop()


async def _close(websocket: web.WebSocketResponse) -> None:
    """Close the socket (the app process ended)."""
    await websocket.close()


def _to_int(value: str, default: int) -> int:
    try:
        return int(value)
    except ValueError:
        return default
