"""Cost in money (issue 38): prices from the list and the settings file, the estimate before a
run starts and its confirmation, and --max-cost stopping a run at the limit against a fake
endpoint that reports token usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer

from kglens_tui.cli.main import main
from kglens_tui.core.console import console
from kglens_tui.llm.pricing import DEFAULT_PRICES, Price, parse_price, price_for, price_table
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.store.connection import connect


def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(path))
    return path


def test_prices_come_from_the_list_and_the_settings_file() -> None:
    table = price_table({"my-model": "1/2/0.5", "gpt-4o": "$3/$12"})
    assert price_for("openai:my-model", table) == Price(1.0, 2.0, 0.5)
    assert price_for("openai:gpt-4o", table) == Price(3.0, 12.0)
    assert price_for("openai:gpt-4o-mini", table) == DEFAULT_PRICES["gpt-4o-mini"]
    assert price_for("openai:unknown-model", table) is None
    assert price_for("local:smollm2", table) == price_for("sim:3", table) == Price(0.0, 0.0)
    assert Price(2.5, 10.0).cost(1_000_000, 100_000) == pytest.approx(3.5)
    for bad in ("2.5", "a/b", "-1/2", "1/2/3", "nan/1"):
        with pytest.raises(ValueError):
            parse_price(bad)


def test_a_bad_price_in_the_settings_file_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file(tmp_path, monkeypatch, '[prices]\n"gpt-4o" = "2.5/x"\n')
    assert main(["--db", str(tmp_path / "w.db"), "runs"]) == 2
    err = capsys.readouterr().err
    assert "config.toml" in err and "gpt-4o" in err and "numbers" in err
    assert len(err.strip().splitlines()) == 1


def probe_args(db: Path, base_url: str, *extra: str) -> list[str]:
    return [
        "--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16",
        "--target", "openai:fake-model", "--base-url", base_url, "--batch-size", "8",
        "--max-retries", "0", "--no-convergence-stop", *extra,
    ]  # fmt: skip


def test_the_estimate_is_shown_and_a_costly_run_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file(tmp_path, monkeypatch, '[prices]\n"fake-model" = "1000/2000"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    db = tmp_path / "w.db"
    with FakeOpenAIServer(answer_fn=lambda messages: "Yes.") as srv:
        assert main(probe_args(db, srv.base_url, "--iterations", "2")) == 2
        err = capsys.readouterr().err
        assert "estimated cost $" in err and "16 requests" in err
        assert "above confirm_cost_above $1.00" in err and "--yes" in err
        assert srv.requests == 0
        assert not db.exists() or connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
        assert main(probe_args(db, srv.base_url, "--iterations", "2", "--yes")) == 0
        assert srv.requests == 16


def test_max_cost_stops_the_run_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each request costs about a cent at these prices: a 5-cent budget stops the run after the
    iteration that reaches it, stopped by the budget, its spend in the report."""
    settings_file(tmp_path, monkeypatch, '[prices]\n"fake-model" = "50/100"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    db = tmp_path / "w.db"
    with FakeOpenAIServer(answer_fn=lambda messages: "Yes.") as srv:
        args = probe_args(db, srv.base_url, "--iterations", "50", "--max-cost", "0.05", "--yes")
        assert main(args) == 0
        prompt, completion = srv.prompt_tokens, srv.completion_tokens
    spent = (prompt * 50 + completion * 100) / 1e6
    conn = connect(db)
    run = conn.execute("SELECT stop_reason, config FROM run").fetchone()
    assert run[0] == "budget used up" and json.loads(run[1])["max_cost"] == 0.05
    iterations = conn.execute("SELECT COUNT(*) FROM iteration").fetchone()[0]
    conn.close()
    per_iteration = spent / iterations
    assert 0.05 <= spent < 0.05 + per_iteration + 1e-9  # stopped by the iteration that reached it
    assert 1 < iterations < 50
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    assert f"${spent:,.2f}" in capsys.readouterr().out
    # the manifest keeps the prices the run started with: a later price change leaves its spend
    conn = connect(db)
    manifest = json.loads(conn.execute("SELECT manifest FROM run").fetchone()[0])
    conn.close()
    assert manifest["prices"] == {"target": [50.0, 100.0]}
    settings_file(tmp_path, monkeypatch, '[prices]\n"fake-model" = "1/1"\n')
    assert main(["--db", str(db), "report", "1"]) == 0
    assert f"${spent:,.2f}" in capsys.readouterr().out
    # `kglens runs` and the live screen's snapshot (a reopened run's) show it too, with the limit
    shown = f"${spent:,.2f} of max $0.05"
    monkeypatch.setattr(console, "width", 250)
    assert main(["--db", str(db), "runs"]) == 0
    assert shown in capsys.readouterr().out
    conn = connect(db)
    assert open_snapshot(conn, 1).spend == shown
    conn.close()


def test_max_cost_needs_a_price(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file(tmp_path, monkeypatch, "")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    args = probe_args(tmp_path / "w.db", "http://127.0.0.1:9/v1", "--max-cost", "1")
    assert main(args) == 2
    assert "--max-cost needs a price for target 'openai:fake-model'" in capsys.readouterr().err


def test_a_free_run_has_no_spend_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file(tmp_path, monkeypatch, "")
    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "8", "--iterations", "1"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    assert "spend" not in capsys.readouterr().out
    assert main(["--db", str(db), "runs"]) == 0
    assert "$" not in capsys.readouterr().out
    conn = connect(db)
    assert open_snapshot(conn, 1).spend == ""
    conn.close()


@pytest.mark.parametrize(
    "command, per_fact",
    [
        (
            [
                "facteval",
                "run",
                "--facts",
                "3",
                "--qtypes",
                "mcq,saq",
                "--contexts",
                "none,relevant",
            ],
            4,
        ),
        (["consistency", "run", "--relations", "3", "--max-paths", "0"], 6),
    ],
)
def test_a_unit_modes_estimate_counts_the_requests_its_plan_makes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    per_fact: int,
) -> None:
    """3 facts asked as MCQ and SAQ, each with no context and a relevant one: 12 requests; 3
    KONTEST relations, each in four conversations of one or two turns: 18. Above
    confirm_cost_above the run asks first, as a KGLens run does, and stores nothing."""
    settings_file(tmp_path, monkeypatch, '[prices]\n"fake-model" = "1000/2000"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    db = tmp_path / "w.db"
    with FakeOpenAIServer(answer_fn=lambda messages: "Yes.") as srv:
        args = ["--db", str(db), *command, "--quiet", "--target", "openai:fake-model"]
        args += ["--base-url", srv.base_url, "--max-retries", "0"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "estimated cost $" in err and f" {3 * per_fact} requests" in err
        assert "above confirm_cost_above $1.00" in err and "--yes" in err
        assert srv.requests == 0
        assert connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0
        assert main([*args, "--yes"]) == 0
        assert srv.requests == 3 * per_fact
