"""Calls of the question generator, the paraphraser and the judge are counted apart from the
target's, stored with the results they served (exact over a resume), shown wherever requests and
tokens are, and capped by the run's budgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer

from kglens_tui.cli.main import main
from kglens_tui.modes.config import KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.runs.runner import run_blocking as run_mode
from kglens_tui.store.connection import connect
from kglens_tui.store.helper_usage import load_usage

KEY_ENV = "KGLENS_TEST_KEY"
MODELS = ("gen", "judge")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, "sk-test")
    with FakeOpenAIServer(models=MODELS) as srv:
        yield srv


def probe(db: Path, srv: FakeOpenAIServer, *extra: str) -> int:
    return main(
        [
            "--db", str(db), "probe", "--no-tui", "--quiet",
            "--kg", "country", "--subset", "paper16", "--target", "sim",
            "--base-url", srv.base_url, "--api-key-env", KEY_ENV,
            "--batch-size", "8", "--no-convergence-stop", *extra,
        ]
    )  # fmt: skip


def stored(db: Path) -> tuple[int, int, dict]:
    conn = connect(db)
    try:
        asked = conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0]
        target_requests = conn.execute("SELECT SUM(requests) FROM iteration").fetchone()[0]
        return asked, target_requests, load_usage(conn, 1)
    finally:
        conn.close()


def test_generator_calls_are_stored_shown_and_apart_from_the_target(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    assert probe(db, server, "--iterations", "3", "--generator", "openai:gen") == 0
    end = capsys.readouterr().out
    asked, target_requests, usage = stored(db)
    assert asked == target_requests == 24
    gen = usage["generator"]
    # one generator call per question, and the simulated target sent nothing to the server
    assert gen.requests == server.requests == 24 and gen.errors == 0
    assert gen.prompt_tokens > 0 and gen.completion_tokens > 0
    assert "24 target + 24 generator requests" in end
    assert main(["--db", str(db), "report", "1"]) == 0
    report = capsys.readouterr().out
    assert "helper LLM calls, not counted above: generator 24 requests (0 failed)" in report


def test_a_resume_counts_each_call_once(tmp_path: Path, server: FakeOpenAIServer) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    config = RunConfig(
        kg="country", subset="paper16", target="sim", iterations=4, batch_size=8,
        stop_on_convergence=False, generator="openai:gen", base_url=server.base_url,
        api_key_env=KEY_ENV,
    )  # fmt: skip

    def stop_after_two(snap) -> None:
        if snap.iteration == 2:
            engine.request_stop()

    engine = prepare(conn, config=config, on_progress=stop_after_two)
    snap = run_blocking(engine)
    conn.close()
    assert (snap.status, snap.iteration) == ("stopped", 2)
    assert stored(db)[2]["generator"].requests == server.requests == 16
    assert main(["--db", str(db), "probe", "--no-tui", "--quiet", "--resume", "1"]) == 0
    asked, _, usage = stored(db)
    assert asked == 32 and server.requests == 32
    assert usage["generator"].requests == 32


def test_the_request_budget_caps_target_and_helper_calls_together(
    tmp_path: Path, server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    status = probe(
        db, server, "--iterations", "50", "--generator", "openai:gen", "--max-requests", "21"
    )
    assert status == 0
    assert "budget used up" in capsys.readouterr().out
    asked, target_requests, usage = stored(db)
    spent = target_requests + usage["generator"].requests
    assert spent <= 21 and spent >= 21 - 2  # a question costs two calls: none is left unspent
    assert usage["generator"].requests == asked


def test_judge_calls_are_counted_under_their_own_role(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    db = tmp_path / "w.db"
    assert probe(db, server, "--iterations", "2", "--difficulty", "wh",
                 "--verifier", "openai:judge") == 0  # fmt: skip
    conn = connect(db)
    judged = conn.execute("SELECT COUNT(*) FROM observation WHERE matcher != ''").fetchone()[0]
    usage = load_usage(conn, 1)
    conn.close()
    # the judge is asked about every Wh reply the matcher did not find refused or unparseable
    assert usage["judge"].requests == server.requests >= judged
    assert "generator" not in usage


def test_kontest_paraphraser_calls_are_counted(tmp_path: Path, server: FakeOpenAIServer) -> None:
    conn = connect(tmp_path / "w.db")
    config = KontestConfig(
        kg="country", relations=5, generator="openai:gen", base_url=server.base_url,
        api_key_env=KEY_ENV,
    )  # fmt: skip
    snap = run_mode(prepare(conn, config=config))
    usage = load_usage(conn, snap.run_id)
    conn.close()
    assert usage["paraphraser"].requests == server.requests == 5
    assert snap.helpers["paraphraser"].requests == 5
    assert (
        snap.progress.counters.requests == 5 * 6
    )  # six target questions per relation, counted apart


def test_helper_figures_read_apart_from_the_target() -> None:
    from kglens_tui.llm.usage import Counters, calls_text, helpers_line

    helpers = {
        "generator": Counters(41, 2, prompt_tokens=900, completion_tokens=300),
        "judge": Counters(12, 0, prompt_tokens=100, completion_tokens=12),
    }
    assert calls_text(640, {}) == "640"
    assert calls_text(640, helpers) == "640 target + 41 generator + 12 judge"
    assert calls_text(5_000, helpers, "tokens") == "5,000 target + 1,200 generator + 112 judge"
    assert helpers_line({}) == ""
    assert helpers_line(helpers).startswith(
        "helper LLM calls, not counted above: generator 41 requests (2 failed) · tokens 900 in"
    )
