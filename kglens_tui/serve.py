"""`kglens serve`: the annotation app in a browser with textual-serve. Each browser tab runs its own
`kglens annotate tui` process on the workspace (annotators only: no runs, report or adjudication);
labels from all of them go to one database safely. It has no authentication of its own."""

from __future__ import annotations

import errno
import ipaddress
import shlex
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual_serve.server import Server

NO_AUTH_NOTE = (
    "kglens serve has no authentication of its own: anyone who can open {url} can annotate as "
    "any annotator of the workspace. Keep it bound to localhost and reach it over SSH port "
    "forwarding (ssh -L {port}:localhost:{port} THIS_HOST), or put it behind a reverse proxy "
    "that authenticates (then pass --public-url)."
)


def app_command(db: Path, round_ref: str | None = None) -> str:
    """The shell command textual-serve runs for each browser session."""
    args = [sys.executable, "-m", "kglens_tui.cli", "--db", str(db.resolve()), "annotate", "tui"]
    if round_ref:
        args.append(round_ref)
    return shlex.join(args)


def is_loopback(host: str) -> bool:
    """Whether host is only reachable from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


def make_server(
    db: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    round_ref: str | None = None,
    public_url: str | None = None,
) -> Server:
    """The textual-serve server for the annotation app (not started)."""
    from textual_serve.server import Server

    return Server(
        app_command(db, round_ref),
        host=host,
        port=port,
        title="KGLens annotation",
        public_url=public_url or default_public_url(host, port),
    )


def no_auth_note(server: Server) -> str:
    return NO_AUTH_NOTE.format(url=server.public_url, port=server.port)
