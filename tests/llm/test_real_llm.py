"""Acceptance with a real model: SmolLM2-135M-Instruct probed through the CLI, in-process with
llama.cpp and behind `python -m llama_cpp.server` (needs the `local` extra; skipped without it).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.llm.local_llama import LocalModelUnavailable, find_smollm2_gguf
from kglens_tui.store.connection import connect

ITERATIONS = 5
BATCH = 2
CATEGORIES = {"correct", "incorrect", "refused", "unparseable", "error"}
SERVER_START_TIMEOUT_S = 60.0


def _model_missing() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed (pip install '.[local]')"
    try:
        find_smollm2_gguf()
    except LocalModelUnavailable as exc:
        return str(exc)
    return None


def _server_missing() -> str | None:
    missing = _model_missing()
    if missing:
        return missing
    try:
        importlib.import_module("llama_cpp.server.app")
    except ImportError as exc:
        return f"llama_cpp.server cannot start ({exc}); pip install 'llama-cpp-python[server]'"
    return None


MODEL_MISSING = _model_missing()
pytestmark = [
    pytest.mark.llm,
    pytest.mark.skipif(MODEL_MISSING is not None, reason=MODEL_MISSING or ""),
]


def probe_and_report(
    db: Path, capsys: pytest.CaptureFixture[str], target: list[str], difficulty: str
) -> int:
    """Run `kglens probe` then `kglens report` on the new run; check both; return the run id."""
    args = ["--db", str(db), "probe", "--no-tui", "--kg", "country", *target]
    args += ["--difficulty", difficulty, "--iterations", str(ITERATIONS)]
    args += ["--batch-size", str(BATCH), "--seed", "0"]
    assert main(args) == 0, capsys.readouterr().err
    conn = connect(db)
    try:
        run_id, status, done = conn.execute(
            "SELECT id, status, iterations_done FROM run ORDER BY id DESC LIMIT 1"
        ).fetchone()
        assert (status, done) == ("finished", ITERATIONS)
        committed = conn.execute(
            "SELECT COUNT(*), SUM(requests) FROM iteration WHERE run_id = ?", (run_id,)
        ).fetchone()
        assert tuple(committed) == (ITERATIONS, ITERATIONS * BATCH)
        rows = conn.execute(
            "SELECT qtype, category, reply FROM observation WHERE run_id = ?", (run_id,)
        ).fetchall()
    finally:
        conn.close()
    assert len(rows) == ITERATIONS * BATCH
    categories = {r[1] for r in rows}
    assert categories <= CATEGORIES
    assert "error" not in categories
    assert any(r[2] for r in rows)
    qtypes = {r[0] for r in rows}
    if difficulty == "easy":
        assert qtypes == {"yes_no"}
    else:
        assert "wh" in qtypes
    capsys.readouterr()
    assert main(["--db", str(db), "report", str(run_id)]) == 0
    out = capsys.readouterr().out
    assert f"Run {run_id}" in out
    assert "win rate" in out
    assert "yes-rate (replies starting with yes)" in out
    assert difficulty.upper() in out
    return run_id


def test_probe_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "local.db"
    for difficulty in ("easy", "hard"):
        probe_and_report(db, capsys, ["--target", "local:smollm2"], difficulty)


def test_smollm2_answer_bias_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SmolLM2-135M answers "No." to nearly every Yes/No question: the report must say so."""
    db = tmp_path / "bias.db"
    args = [
        "--db",
        str(db),
        "probe",
        "--no-tui",
        "--quiet",
        "--target",
        "local:smollm2",
        "--kg",
        "country",
        "--subset",
        "paper16",
        "--iterations",
        "2",
        "--batch-size",
        "12",
    ]
    assert main(args) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "yes-rate (replies starting with yes)" in out
    assert "answer bias: the model says No to" in out


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_models(base_url: str, proc: subprocess.Popen, log: Path) -> None:
    """Poll GET /models until the server answers, dies, or the start timeout passes."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with opener.open(f"{base_url}/models", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    pytest.fail(f"llama_cpp.server did not answer within {SERVER_START_TIMEOUT_S:g} s")


@pytest.fixture
def llama_server(tmp_path: Path) -> Iterator[str]:
    """A llama_cpp.server serving SmolLM2 as 'smollm2' on a free loopback port."""
    missing = _server_missing()
    if missing:
        pytest.skip(missing)
    port = _free_port()
    log = tmp_path / "llama_server.log"
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(find_smollm2_gguf()),
        "--model_alias",
        "smollm2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        "--n_threads",
        str(os.cpu_count() or 1),
        "--seed",
        "0",
    ]
    with log.open("wb") as fh:
        proc = subprocess.Popen(command, stdout=fh, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_for_models(base_url, proc, log)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_probe_through_llama_cpp_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], llama_server: str
) -> None:
    db = tmp_path / "server.db"
    target = ["--target", "openai:smollm2", "--base-url", llama_server]
    for difficulty in ("easy", "hard"):
        run_id = probe_and_report(db, capsys, target, difficulty)
        conn = connect(db)
        try:
            label, simulated = conn.execute(
                "SELECT target_label, simulated FROM run WHERE id = ?", (run_id,)
            ).fetchone()
        finally:
            conn.close()
        assert label == f"openai:smollm2 @ {llama_server}"
        assert not simulated
