"""Credentials in a base URL are refused with one line that shows the URL redacted: they never
reach the workspace database, a run's settings or manifest, the settings, or any output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer

from kglens_tui.analysis.report import run_rows
from kglens_tui.cli.main import main
from kglens_tui.llm.openai_compat import OpenAICompatClient
from kglens_tui.llm.urls import BaseURLError, check_base_url, redact_text, redact_url
from kglens_tui.runs.given_settings import settings_config
from kglens_tui.runs.record import load_run
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.settings import SettingsError, load_settings
from kglens_tui.store.connection import connect

SECRET = "s3cret-Vb7q"


def with_secret(base_url: str) -> list[tuple[str, str]]:
    """(URL carrying SECRET, the same URL as it may be shown) for each way of embedding it."""
    host = base_url.split("://", 1)[1]
    return [
        (f"http://alice:{SECRET}@{host}", f"http://***@{host}"),
        (f"http://{SECRET}@{host}", f"http://***@{host}"),
        (f"{base_url}?api-key={SECRET}", f"{base_url}?api-key=***"),
        (f"{base_url}?api-version=2024-06-01&key={SECRET}", f"{base_url}?api-version=2024-06-01&key=***"),
        (f"{base_url}?access_token={SECRET}", f"{base_url}?access_token=***"),
        (f"{base_url}?Token={SECRET}", f"{base_url}?Token=***"),
        (f"{base_url}?sig={SECRET}", f"{base_url}?sig=***"),
    ]  # fmt: skip


def stored_bytes(db: Path) -> bytes:
    """Every byte the workspace holds on disk (database, WAL and journal files)."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_redaction_and_the_check() -> None:
    for url, shown in with_secret("http://127.0.0.1:8080/v1"):
        assert redact_url(url) == shown
        with pytest.raises(BaseURLError) as info:
            check_base_url(url)
        assert SECRET not in str(info.value) and shown in str(info.value)
        assert "--api-key-env" in str(info.value)
        assert redact_text(f"openai:m @ {url}, again {url}") == f"openai:m @ {shown}, again {shown}"
    fine = "https://example.test/openai/v1?api-version=2024-06-01"
    assert check_base_url(fine) == fine and redact_url(fine) == fine
    for bad in ("127.0.0.1:8080/v1", "ftp://host/v1", "http:///v1", "http://[::1/v1"):
        with pytest.raises(BaseURLError):
            check_base_url(bad)


def test_cli_refuses_credentials_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    connect(db).close()
    with FakeOpenAIServer() as srv:
        for url, shown in with_secret(srv.base_url):
            for command in (
                ["probe", "--no-tui", "--quiet", "--iterations", "1"],
                ["consistency", "run", "--quiet", "--relations", "2"],
                ["facteval", "run", "--quiet", "--facts", "2"],
                ["study", "prompt-order", "--questions", "2"],
            ):
                target = ["--target", "openai:fake-model", "--base-url", url]
                status = main(["--db", str(db), *command, *target])
                out, err = capsys.readouterr()
                assert status == 2, (command, out, err)
                assert SECRET not in out + err
                line = " ".join(err.split())
                assert line.startswith(f"error: the base URL {shown} carries credentials"), line
                assert len(err.strip().splitlines()) == 1
        assert srv.requests == 0 and srv.model_requests == 0
    assert connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
    assert SECRET.encode() not in stored_bytes(db)


def test_a_clean_base_url_is_stored_as_given(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    with FakeOpenAIServer() as srv:
        url = f"{srv.base_url}?api-version=2024-06-01"
        args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--target", "openai:fake-model"]
        assert main([*args, "--base-url", url, "--iterations", "1", "--batch-size", "4"]) == 0
        assert srv.completed == 4
        assert srv.last_path == "/v1/chat/completions?api-version=2024-06-01"
    row = connect(db).execute("SELECT config, manifest, target_label FROM run").fetchone()
    assert json.loads(row["config"])["base_url"] == url
    assert (
        json.loads(row["manifest"])["target"] == row["target_label"] == f"openai:fake-model @ {url}"
    )


def test_settings_and_client_refuse_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://alice:{SECRET}@127.0.0.1:8080/v1"
    monkeypatch.setenv("KGLENS_BASE_URL", url)
    with pytest.raises(SettingsError) as info:
        settings_config("kglens", load_settings(tmp_path / "none.toml"))
    assert str(info.value).startswith(
        "$KGLENS_BASE_URL: setting 'base_url': the base URL http://***@"
    )
    assert SECRET not in str(info.value)
    monkeypatch.delenv("KGLENS_BASE_URL")
    toml = tmp_path / "config.toml"
    toml.write_text(f'base_url = "http://127.0.0.1:8080/v1?api_key={SECRET}"\n', encoding="utf-8")
    with pytest.raises(SettingsError) as info:
        settings_config("kontest", load_settings(toml))
    message = str(info.value)
    assert message.startswith(f"{toml}, line 1: setting 'base_url'") and SECRET not in message
    with pytest.raises(BaseURLError) as info:
        OpenAICompatClient(url, "m")
    assert SECRET not in str(info.value)


def test_runs_stored_with_credentials_by_earlier_versions_never_show_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "1"]
    assert main([*args, "--batch-size", "4"]) == 0
    assert main(["--db", str(db), "consistency", "run", "--relations", "2", "--quiet"]) == 0
    # what an earlier version stored for `--base-url http://alice:SECRET@.../v1?key=SECRET`
    url = f"http://alice:{SECRET}@127.0.0.1:9/v1?key={SECRET}"
    conn = connect(db)
    for run_id in (1, 2):
        config = json.loads(
            conn.execute("SELECT config FROM run WHERE id = ?", (run_id,)).fetchone()[0]
        )
        conn.execute(
            "UPDATE run SET config = ?, target_label = ?, status = 'failed', error = ? WHERE id = ?",
            (
                json.dumps(config | {"target": "openai:m", "base_url": url}),
                f"openai:m @ {url}",
                f"connection: cannot reach {url}: connection refused",
                run_id,
            ),
        )
    conn.commit()
    capsys.readouterr()
    for command in (
        ["runs"],
        ["report", "1"],
        ["consistency", "report", "2"],
        ["consistency", "list"],
    ):
        assert main(["--db", str(db), *command]) == 0, command
        out, err = capsys.readouterr()
        assert SECRET not in out + err and ("***" in out or command == ["runs"]), command
    rows = " ".join(cell for row in run_rows(conn) for cell in row)
    assert SECRET not in rows and rows.count("http://***@127.0.0.1:9/v1?key=***") == 4
    run = load_run(conn, 1)
    assert run.config.base_url == "http://127.0.0.1:9/v1"
    assert run.target_label == "openai:m @ http://***@127.0.0.1:9/v1?key=***"
    assert SECRET not in run.error and SECRET not in open_snapshot(conn, 2).error
