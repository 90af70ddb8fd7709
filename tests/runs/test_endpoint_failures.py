"""Dead endpoints, wrong keys and failing targets stop a run as failed with a one-line cause;
edges whose last request failed are reported and asked again on resume.

Every run goes through the `kglens` command line against a loopback fake OpenAI server (or a
port nothing listens on), and the stored run is read back from the workspace database.
"""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer

from kglens_tui.analysis.report import RUN_COLUMNS, run_rows
from kglens_tui.cli.main import main
from kglens_tui.llm.failures import FAILED_SHARE, STOP_REASON, WINDOW, FailureGuard
from kglens_tui.llm.openai_compat import OpenAICompatClient
from kglens_tui.runs.record import load_run
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.store.connection import connect

KEY_ENV = "KGLENS_TEST_KEY"
WRONG_KEY = "sk-wrong-0123456789"
BATCH = 8
ITERATIONS = 10
CONCURRENCY = 4
FAILED = int(FAILED_SHARE * WINDOW)


@pytest.fixture(autouse=True)
def _short_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """A retry backs off up to 0.01 s, not the product's 0.5 s (full jitter): these tests check
    why a run fails and what it stores, not how long a retry waits (test_llm_openai does)."""
    init = OpenAICompatClient.__init__

    def short(self: OpenAICompatClient, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("backoff_base_s", 0.01)
        init(self, *args, **kwargs)

    monkeypatch.setattr(OpenAICompatClient, "__init__", short)


def free_port() -> int:
    """A loopback port nothing listens on (connections to it are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def probe_args(db: Path, base_url: str, model: str = "fake-model") -> list[str]:
    return [
        "--db",
        str(db),
        "probe",
        "--no-tui",
        "--quiet",
        "--target",
        f"openai:{model}",
        "--base-url",
        base_url,
        "--api-key-env",
        KEY_ENV,
        "--batch-size",
        str(BATCH),
        "--iterations",
        str(ITERATIONS),
        "--concurrency",
        str(CONCURRENCY),
        "--max-retries",
        "1",
        "--timeout",
        "5",
        "--no-convergence-stop",
    ]


def error_line(err: str) -> str:
    """The single `error:` line of a command's stderr."""
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, err
    return lines[0]


# (name, server options, model, fatal, what the cause line must show besides the URL)
CASES = [
    ("401", {"required_key": "sk-the-right-one"}, "fake-model", True,
     ["HTTP 401", f"refused the API key in ${KEY_ENV}", "Incorrect API key provided."]),
    ("403", {"reject": (403, "Project is not allowed to use this model.")}, "fake-model", True,
     ["HTTP 403", "Project is not allowed to use this model."]),
    ("404", {}, "no-such-model", True,
     ["HTTP 404", "model 'no-such-model' is unknown there", "does not exist."]),
    ("400", {"reject": (400, "Invalid [b]input[/b]: messages too long")}, "fake-model", True,
     ["HTTP 400 bad request", "Invalid [b]input[/b]: messages too long"]),
    ("503", {"fault_rates": {"503": 1.0}, "retry_after": "0.01"}, "fake-model", False,
     [f"{FAILED} of the last {FAILED} requests failed (server {FAILED})", "HTTP 503",
      "The server is overloaded.", "gave up after 2 attempts"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "options", "model", "fatal", "shown"), CASES, ids=[c[0] for c in CASES]
)
def test_a_failing_endpoint_fails_the_run_with_its_cause(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    options: dict,
    model: str,
    fatal: bool,
    shown: list[str],
) -> None:
    monkeypatch.setenv(KEY_ENV, WRONG_KEY)
    db = tmp_path / "w.db"
    with FakeOpenAIServer(**options) as srv:
        status = main(probe_args(db, srv.base_url, model))
        sent = srv.requests
    out, err = capsys.readouterr()
    assert status == 1
    line = error_line(err)
    assert line.startswith("error: run 1 failed (") and srv.base_url in line
    for text in shown:
        assert text in line
    assert WRONG_KEY not in out + err
    conn = connect(db)
    run = load_run(conn, 1)
    assert (run.status, run.stop_reason) == ("failed", STOP_REASON)
    assert run.error and run.error in line
    if fatal:
        # stopped at once: only the requests already in flight went out, nothing was committed
        assert sent <= 2 * CONCURRENCY and run.iterations_done == 0
    else:
        assert run.iterations_done < ITERATIONS and sent < BATCH * ITERATIONS
    assert not conn.execute("SELECT 1 FROM observation WHERE category != 'error'").fetchall()
    # the cause is on every view of the run: `kglens runs`, `kglens report`, the live screen
    (row,) = run_rows(conn)
    assert row[RUN_COLUMNS.index("status")] == f"failed · {STOP_REASON}: {run.error}"
    failed = conn.execute("SELECT errors FROM target_usage WHERE run_id = 1").fetchone()[0]
    assert failed  # what failed is counted beside what was sent
    assert f" ({failed:,} failed" in row[RUN_COLUMNS.index("requests")]
    assert open_snapshot(conn, 1).error == run.error
    assert main(["--db", str(db), "report", "1"]) == 0
    assert f"cause: {run.error}" in capsys.readouterr().out


def test_connection_refused_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    base_url = f"http://127.0.0.1:{free_port()}/v1"
    assert main(probe_args(db, base_url)) == 1
    line = error_line(capsys.readouterr().err)
    assert f"{FAILED} of the last {FAILED} requests failed (connection {FAILED})" in line
    assert f"cannot reach {base_url}: connection refused" in line
    run = load_run(connect(db), 1)
    assert (run.status, run.stop_reason) == ("failed", STOP_REASON)
    assert run.error in line and run.iterations_done < ITERATIONS


@pytest.mark.parametrize("mode", ["consistency", "facteval"])
@pytest.mark.parametrize("reject", [(401, "Invalid token."), (400, "Unsupported parameter.")])
def test_mode_runs_follow_the_same_rule(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    reject: tuple[int, str],
) -> None:
    db = tmp_path / "w.db"
    size = ["--relations", "120"] if mode == "consistency" else ["--facts", "120"]
    with FakeOpenAIServer(reject=reject) as srv:
        args = ["--db", str(db), mode, "run", "--target", "openai:fake-model", *size]
        args += ["--base-url", srv.base_url, "--max-retries", "0", "--quiet"]
        status = main(args)
        sent = srv.requests
    assert status == 1
    line = error_line(capsys.readouterr().err)
    assert f"HTTP {reject[0]}" in line and reject[1] in line and srv.base_url in line
    snap = open_snapshot(connect(db), 1)
    assert (snap.status, snap.stop_reason) == ("failed", STOP_REASON)
    assert snap.error in line
    # stopped at once (a 401, or a 400 before any request succeeded): the requests in flight
    # when the first came back (concurrency 8) plus any a loaded machine dispatched before
    # handling it, far from the whole plan
    assert sent < snap.units_total / 2, (sent, snap.units_total)
    assert line.startswith(f"error: run 1 failed ({snap.error}): ")
    assert main(["--db", str(db), mode, "report", "1"]) == 0
    assert f"cause: {snap.error}" in capsys.readouterr().out


def test_the_rule() -> None:
    guard = FailureGuard()
    for _ in range(WINDOW - FAILED):
        guard.record(None)
    for i in range(FAILED - 1):
        guard.record("server", f"HTTP 503 number {i}")
    assert not guard.cause and not guard.tripped.is_set()
    guard.record(None)  # pushes the oldest success out of the window: 23 failed of 32
    assert not guard.cause
    guard.record("timeout", "no answer within 5 s")
    assert guard.tripped.is_set()
    assert guard.cause == (
        f"{FAILED} of the last {WINDOW} requests failed (server {FAILED - 1}, timeout 1); "
        "latest: no answer within 5 s"
    )
    fatal = FailureGuard()
    fatal.record(None)
    fatal.record("auth", "http://127.0.0.1:1/v1: HTTP 401: wrong key")
    assert fatal.cause == "http://127.0.0.1:1/v1: HTTP 401: wrong key"
    short = FailureGuard()
    for kind in ("connection", None, "connection", "connection"):
        short.record(kind, "refused")
    assert not short.cause
    assert short.finish() == "3 of the last 4 requests failed (connection 3); latest: refused"
    refused = FailureGuard()  # every request refused as bad from the start: at once
    refused.record("bad_request", "http://127.0.0.1:1/v1: HTTP 400 bad request (no such param)")
    assert refused.cause == "http://127.0.0.1:1/v1: HTTP 400 bad request (no such param)"
    one_prompt = FailureGuard()  # after a success, a 400 is one request's: the share decides
    one_prompt.record(None)
    for _ in range(3):
        one_prompt.record("bad_request", "HTTP 400 (prompt too long)")
    assert not one_prompt.cause and not one_prompt.tripped.is_set()
    healthy = FailureGuard()
    for kind in ("connection", None, None, "connection"):
        healthy.record(kind, "refused")
    assert healthy.finish() == ""
    spread = FailureGuard()  # two of three fail: never 24 of any 32, but most of the session
    for kind in ("server", "server", None) * 20:
        spread.record(kind, "HTTP 500")
    assert not spread.cause
    assert spread.finish() == (
        "40 of this session's 60 requests failed, so its figures would rest on the rest; "
        "latest: HTTP 500"
    )


def test_a_run_whose_requests_mostly_failed_does_not_end_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, WRONG_KEY)
    db = tmp_path / "w.db"
    # 22 of the first 32 requests fail, never 24 of 32; the server is healthy after them
    with FakeOpenAIServer(faults=["500", "500", None] * 10 + ["500", "500"]) as srv:
        args = probe_args(db, srv.base_url)
        args[args.index("--iterations") + 1] = "4"
        args[args.index("--max-retries") + 1] = "0"
        assert main(args) == 1
        assert srv.requests == 4 * BATCH
        line = error_line(capsys.readouterr().err)
        assert "22 of this session's 32 requests failed" in line
        conn = connect(db)
        run = load_run(conn, 1)
        assert (run.status, run.stop_reason) == ("failed", STOP_REASON)
        assert main(["--db", str(db), "probe", "--resume", "1", "--quiet"]) == 0
        assert srv.requests > 4 * BATCH  # the edges whose last request failed, asked again
    assert load_run(conn, 1).status == "finished"
    last = conn.execute(
        "SELECT category FROM observation o WHERE id = (SELECT MAX(id) FROM observation "
        "WHERE edge_id = o.edge_id)"
    ).fetchall()
    assert last and ("error",) not in last


def test_pending_errors_at_the_end_are_reported_and_asked_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    # iteration 1 answers all 8; three requests of iteration 2 (the last) fail
    faults = [None] * BATCH + ["500"] * 3
    with FakeOpenAIServer(faults=faults) as srv:
        args = probe_args(db, srv.base_url)
        args[args.index("--iterations") + 1] = "2"
        args[args.index("--max-retries") + 1] = "0"
        assert main(args) == 0
        out = capsys.readouterr().out
        pending_note = "3 edges whose last request failed (resume the run to ask them again)"
        assert f"finished (iteration limit; {pending_note})" in " ".join(out.split())
        conn = connect(db)
        failed = edges(conn, "iteration = 2 AND category = 'error'")
        assert len(failed) == 3
        assert main(["--db", str(db), "report", "1"]) == 0
        assert pending_note in " ".join(capsys.readouterr().out.split())

        assert main(["--db", str(db), "probe", "--resume", "1", "--quiet"]) == 0
        sent = srv.requests
    out = " ".join(capsys.readouterr().out.split())
    assert "run 1 finished (iteration limit): 3/3 iterations" in out
    assert sent == 2 * BATCH + 3
    assert edges(conn, "iteration = 3") == failed
    assert edges(conn, "iteration = 3 AND category = 'error'") == []
    run = load_run(conn, 1)
    assert (run.status, run.stop_reason, run.iterations_done) == ("finished", "iteration limit", 3)
    # a second resume has nothing pending: it asks nothing
    assert main(["--db", str(db), "probe", "--resume", "1", "--quiet"]) == 0
    assert load_run(conn, 1).iterations_done == 3


def edges(conn: sqlite3.Connection, where: str) -> list[int]:
    return sorted(r[0] for r in conn.execute(f"SELECT edge_id FROM observation WHERE {where}"))


@pytest.mark.parametrize("reject", [(401, "Invalid key."), (400, "Bad input.")], ids=["401", "400"])
def test_continuous_scheduling_follows_the_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reject: tuple[int, str]
) -> None:
    db = tmp_path / "w.db"
    with FakeOpenAIServer(reject=reject) as srv:
        status = main([*probe_args(db, srv.base_url), "--scheduling", "continuous"])
        sent = srv.requests
    assert status == 1
    line = error_line(capsys.readouterr().err)
    assert f"HTTP {reject[0]}" in line and reject[1] in line
    run = load_run(connect(db), 1)
    assert (run.status, run.stop_reason) == ("failed", STOP_REASON) and run.error in line
    assert sent <= 2 * CONCURRENCY and run.iterations_done == 0  # stopped at once


@pytest.mark.parametrize("scheduling", ["sync", "continuous"])
def test_requests_that_never_went_out_are_not_counted_as_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scheduling: str
) -> None:
    """A batch of 32 with 2 in flight stops at the first 401: the questions still waiting for a
    slot were never sent, so the run's stored requests match what the server received."""
    db = tmp_path / "w.db"
    args = probe_args(db, "", "fake-model")
    args[args.index("--batch-size") + 1] = "32"
    args[args.index("--concurrency") + 1] = "2"
    with FakeOpenAIServer(reject=(401, "Invalid token.")) as srv:
        args[args.index("--base-url") + 1] = srv.base_url
        assert main([*args, "--scheduling", scheduling]) == 1
        sent = srv.requests
    capsys.readouterr()
    conn = sqlite3.connect(db)
    stored, errors, dropped = conn.execute(
        "SELECT requests, errors, dropped FROM target_usage"
    ).fetchone()
    # a request the pacer had just let start when the rule cancelled it may not have reached
    # the server: at most one per slot; those in flight are dropped, not failed
    assert sent <= stored <= sent + 2 and stored == errors + dropped and errors >= 1
    assert stored < 8, "the questions waiting for a slot were not counted"


def test_a_reply_holding_a_lone_surrogate_is_stored_with_a_stand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Valid JSON may escape half an emoji ("\\ud83d"), which no SQLite text can hold: the run
    goes on and stores U+FFFD in its place (it used to fail, and fail again on resume)."""
    monkeypatch.setenv(KEY_ENV, WRONG_KEY)
    db = tmp_path / "w.db"
    with FakeOpenAIServer(answer_fn=lambda messages: "Yes \ud83d and more") as srv:
        argv = probe_args(db, srv.base_url)
        argv[argv.index("--iterations") + 1] = "2"
        assert main(argv) == 0
    conn = sqlite3.connect(db)
    replies = {r[0] for r in conn.execute("SELECT reply FROM observation")}
    assert replies == {"Yes \ufffd and more"}
    assert conn.execute("SELECT status FROM run").fetchone()[0] == "finished"


def test_a_kontest_run_with_most_tests_unanswered_does_not_end_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One request in six fails (never 24 of 32), but nearly every test of six requests then
    has a failed one: its figures would rest on the few whole tests."""
    db = tmp_path / "w.db"
    with FakeOpenAIServer(faults=["500", None, None, None, None, None] * 40) as srv:
        args = ["--db", str(db), "consistency", "run", "--target", "openai:fake-model"]
        args += ["--relations", "20", "--base-url", srv.base_url, "--max-retries", "0"]
        assert main([*args, "--quiet", "--concurrency", "1"]) == 1
    line = error_line(capsys.readouterr().err)
    assert "of the 20 tests have a failed request, so the figures would rest on the" in line
    snap = open_snapshot(connect(db), 1)
    assert (snap.status, snap.stop_reason) == ("failed", STOP_REASON)
    assert snap.units_done < 10


def test_the_report_splits_failed_and_dropped_requests_as_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure rule drops the iteration it trips in: the requests the target failed there
    count as failed, the rest in flight as dropped, in the report as in `kglens runs`."""
    monkeypatch.setenv(KEY_ENV, WRONG_KEY)
    db = tmp_path / "w.db"
    with FakeOpenAIServer(reject=(400, "Bad input.")) as srv:
        assert main(probe_args(db, srv.base_url)) == 1
    failed, dropped = (
        sqlite3.connect(db).execute("SELECT errors, dropped FROM target_usage").fetchone()
    )
    assert failed >= 1
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    report = " ".join(capsys.readouterr().out.split())
    parts = [f"{failed:,} failed"] + ([f"{dropped:,} dropped"] if dropped else [])
    assert f"({', '.join(parts)}) (retries" in report
