"""`kglens serve`: the URL it prints and hands to textual-serve is one a browser can open."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.cli import main
from kglens_tui.serve import default_public_url, is_loopback, make_server


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
