"""`kglens serve`: the URL it prints and hands to textual-serve is one a browser can open; a port
it cannot listen on is one error line, never a "Serving" line and a traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui import serve as serve_module
from kglens_tui.cli import main
from kglens_tui.serve import default_public_url, is_loopback, make_server

REPO = Path(__file__).resolve().parent.parent


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
        "from kglens_tui.cli import main\n"
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
