"""Several targets on one plan (issue 38): a run that asks another run's questions with its
probabilities (`probe.plan`), `kglens probe --target A --target B`, and the paired difference
`kglens compare` takes over the questions both answered (`analysis.paired`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from fake_openai_server import FakeOpenAIServer

from kglens_tui.analysis.compare import drift
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.design import RollingFloor
from kglens_tui.modes.kglens.estimates import Z95, census_difference, paired_design_difference
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

ASKED = (
    "SELECT iteration, slot, edge_id, qtype, question, expected, expected_answers, floor_pass "
    "FROM observation WHERE run_id = ? ORDER BY iteration, slot"
)


def leader_config(**extra: object) -> RunConfig:
    settings: dict[str, object] = {
        "kg": "country",
        "subset": "paper16",
        "target": "sim",
        "iterations": 5,
        "batch_size": 16,
        "seed": 4,
        "stop_on_convergence": False,
    }
    return RunConfig(**{**settings, **extra})  # type: ignore[arg-type]


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_a_run_on_another_runs_plan_asks_its_questions_with_its_floor_visits(
    tmp_path: Path, difficulty: str
) -> None:
    conn = connect(tmp_path / "w.db")
    leader = prepare(conn, config=leader_config(difficulty=difficulty))
    run_blocking(leader)
    # the follower's own settings say otherwise: the plan's run decides what is asked
    follower = prepare(
        conn,
        config=RunConfig(kg="country", target="sim:1", plan_of=leader.run.id, sampler="thompson"),
    )
    snap = run_blocking(follower)
    assert snap.status == "finished" and snap.iteration == 5
    cfg = follower.config
    assert (cfg.subset, cfg.sampler, cfg.difficulty, cfg.iterations) == (
        "paper16",
        leader.config.sampler,
        difficulty,
        5,
    )
    assert np.array_equal(follower.run.edge_ids, leader.run.edge_ids)
    asked = conn.execute(ASKED, (leader.run.id,)).fetchall()
    assert len(asked) == 80 and asked == conn.execute(ASKED, (follower.run.id,)).fetchall()
    if difficulty == "hard":
        assert {row[3] for row in asked} == {"yes_no", "wh"}
    assert any(row[7] is not None for row in asked)  # the floor is there
    assert any(row[7] is None for row in asked)  # and the sampler's picks
    # the other target answered for itself
    replies = "SELECT reply FROM observation WHERE run_id = ? ORDER BY iteration, slot"
    ra = [r[0] for r in conn.execute(replies, (leader.run.id,))]
    rb = [r[0] for r in conn.execute(replies, (follower.run.id,))]
    assert ra != rb


def test_a_plan_must_be_a_kglens_run_that_asked_and_leads(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    with pytest.raises(ConfigError, match="plan_of: no run 7"):
        prepare(conn, config=RunConfig(kg="country", target="sim", plan_of=7))
    leader = prepare(conn, config=leader_config(iterations=2))
    run_blocking(leader)
    follower = prepare(conn, config=RunConfig(kg="country", target="sim:1", plan_of=leader.run.id))
    with pytest.raises(ConfigError, match=f"follows run {leader.run.id}'s plan"):
        prepare(conn, config=RunConfig(kg="country", target="sim:2", plan_of=follower.run.id))
    with pytest.raises(ConfigError, match="plan_of must be a run number"):
        prepare(conn, config=RunConfig(kg="country", target="sim", plan_of=0))
    runs = conn.execute("SELECT COUNT(*) FROM run").fetchone()[0]
    assert runs == 2  # the refused ones stored nothing


def test_probe_with_two_targets_asks_the_second_the_first_ones_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    args += ["--target", "sim", "--target", "sim:1", "--iterations", "4", "--batch-size", "16"]
    assert main([*args, "--no-convergence-stop", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "2 runs asked the same questions" in out and out.rstrip().endswith("compare 1 2")
    conn = connect(db)
    assert conn.execute(ASKED, (1,)).fetchall() == conn.execute(ASKED, (2,)).fetchall()
    labels = [r[0] for r in conn.execute("SELECT target_label FROM run ORDER BY id")]
    assert len(labels) == 2 and labels[0] != labels[1]
    assert main(["--db", str(db), "compare", "1", "2"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    # the floor's questions of the 64: what the difference rests on
    (floor,) = conn.execute("SELECT COUNT(*) FROM observation WHERE run_id = 1 AND floor_pass >= 0")
    assert 32 <= floor[0] < 64
    assert f"paired on the {floor[0]} questions of one plan both answered" in shown
    assert main(["--db", str(db), "report", "2"]) == 0
    assert "run 1's questions" in " ".join(capsys.readouterr().out.split())


def test_a_failing_second_endpoint_leaves_the_first_targets_results_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    db = tmp_path / "w.db"
    with FakeOpenAIServer(fault_rates={"500": 1.0}) as srv:
        args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
        args += ["--target", "sim", "--target", "openai:down", "--base-url", srv.base_url]
        args += ["--iterations", "3", "--batch-size", "8", "--max-retries", "0", "--yes"]
        assert main([*args, "--no-convergence-stop"]) != 0
        assert srv.requests > 0
    err = capsys.readouterr().err
    conn = connect(db)
    first = conn.execute("SELECT status, iterations_done FROM run WHERE id = 1").fetchone()
    assert tuple(first) == ("finished", 3)
    assert conn.execute("SELECT COUNT(*) FROM observation WHERE run_id = 1").fetchone()[0] == 24
    second = conn.execute("SELECT status FROM run WHERE id = 2").fetchone()
    assert second is not None and second[0] != "finished"
    # its failed requests are errors, never wrong answers
    wrong = conn.execute(
        "SELECT COUNT(*) FROM observation WHERE run_id = 2 AND category != 'error'"
    ).fetchone()[0]
    assert wrong == 0
    assert "run 2" in err


def test_compare_of_two_independent_runs_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = connect(tmp_path / "w.db")
    for target in ("sim", "sim:1"):
        run_blocking(prepare(conn, config=leader_config(target=target, iterations=3)))
    result = drift(load_run_data(conn, 1), load_run_data(conn, 2))
    assert result.paired == 0 and result.difference is not None
    run_blocking(prepare(conn, config=RunConfig(kg="country", target="sim:2", plan_of=1)))
    paired = drift(load_run_data(conn, 1), load_run_data(conn, 3))
    # the floor's questions of the 48 asked: the difference rests on them
    (floor,) = conn.execute("SELECT COUNT(*) FROM observation WHERE run_id = 1 AND floor_pass >= 0")
    assert paired.paired == floor[0] and 24 <= floor[0] < 48 and paired.difference is not None


def test_the_paired_difference_is_unbiased_and_its_interval_covers() -> None:
    """A tiny design (two certain picks and a simple random floor of four of the rest, per
    draw) asked of two targets with known per-edge error rates, 2,000 replays: the mean paired
    difference is within four Monte Carlo errors of the true difference of the KG-wide rates,
    and its 95% interval covers it in 93-98% of replays (a biased or too-narrow estimator, e.g.
    one that forgets the floor's probabilities, fails both)."""
    rng = np.random.default_rng(11)
    n_edges, draws, picks, floor = 40, 12, 2, 4
    pa = rng.uniform(0.05, 0.6, n_edges)
    pb = np.clip(pa + rng.normal(0.08, 0.1, n_edges), 0.01, 0.95)
    truth = float((pb - pa).mean())
    found, covered = [], 0
    for _ in range(2000):
        draw_ix, diffs, probs = [], [], []
        for d in range(draws):
            order = rng.permutation(n_edges)
            chosen = order[: picks + floor]
            prob = np.r_[np.ones(picks), np.full(floor, floor / (n_edges - picks))]
            ya = rng.random(len(chosen)) < pa[chosen]
            yb = rng.random(len(chosen)) < pb[chosen]
            draw_ix.append(np.full(len(chosen), d))
            diffs.append(yb.astype(float) - ya)
            probs.append(prob)
        result = paired_design_difference(
            np.concatenate(draw_ix),
            np.concatenate(diffs),
            np.concatenate(probs),
            np.full(draws, float(floor)),
            n_edges,
        )
        assert result is not None
        found.append(result.value)
        covered += abs(result.value - truth) <= Z95 * result.se
    mean = float(np.mean(found))
    mc = float(np.std(found, ddof=1)) / math.sqrt(len(found))
    assert abs(mean - truth) < 4 * mc
    assert 0.93 <= covered / len(found) <= 0.98


def test_the_paired_census_difference_is_unbiased_and_its_interval_covers() -> None:
    """Two targets with known per-edge error rates asked the floor of a rolling census (four
    visits a draw, 12 draws over 40 edges: a pass and a fifth), 2,000 replays: the mean paired
    difference is within four Monte Carlo errors of the true difference of the KG-wide rates,
    and its 95% interval covers it in 93-98% of replays; equally accurate targets differ
    significantly in at most 6%."""
    rng = np.random.default_rng(12)
    n_edges, draws, floor = 40, 12, 4
    pa = rng.uniform(0.05, 0.6, n_edges)
    pb = np.clip(pa + rng.normal(0.08, 0.1, n_edges), 0.01, 0.95)
    truth = float((pb - pa).mean())
    found, covered, equal_calls = [], 0, 0
    for replay in range(2000):
        census = RollingFloor(n_edges, replay)
        visits = np.concatenate([census.take(floor)[0] for _ in range(draws)])
        ya = rng.random(len(visits)) < pa[visits]
        yb = rng.random(len(visits)) < pb[visits]
        result = census_difference(visits, yb.astype(float) - ya, n_edges)
        assert result is not None
        found.append(result.value)
        covered += abs(result.value - truth) <= Z95 * result.se
        same = rng.random(len(visits)) < pa[visits]
        equal = census_difference(visits, same.astype(float) - ya, n_edges)
        assert equal is not None
        equal_calls += equal.p_value < 0.05
    mean = float(np.mean(found))
    mc = float(np.std(found, ddof=1)) / math.sqrt(len(found))
    assert abs(mean - truth) < 4 * mc
    assert 0.93 <= covered / len(found) <= 0.98
    assert equal_calls / len(found) <= 0.06


@pytest.mark.parametrize(
    ("command", "limit", "table", "columns"),
    [
        (["facteval", "run"], ["--facts", "8"], "facteval_question", "idx, qtype, question"),
        (
            ["consistency", "run"],
            ["--relations", "4"],
            "kontest_query",
            "relation, conversation, turn, template, question",
        ),
    ],
)
def test_a_unit_modes_run_with_two_targets_asks_both_the_same_questions(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    limit: list[str],
    table: str,
    columns: str,
) -> None:
    db = tmp_path / "w.db"
    args = ["--db", str(db), *command, "--kg", "country", "--quiet", "--yes", *limit]
    assert main([*args, "--target", "sim", "--target", "sim:1"]) == 0
    out = capsys.readouterr().out
    assert "2 runs asked the same questions" in out and out.rstrip().endswith("compare 1 2")
    conn = connect(db)
    asked = f"SELECT {columns} FROM {table} WHERE run_id = ? ORDER BY {columns}"
    rows = [[tuple(row) for row in conn.execute(asked, (r,))] for r in (1, 2)]
    assert rows[0] and rows[0] == rows[1]
    labels = [r[0] for r in conn.execute("SELECT target_label FROM run ORDER BY id")]
    assert len(set(labels)) == 2


def test_a_replayed_question_tells_a_simulated_target_who_wrote_it(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    engine = prepare(conn, config=leader_config(iterations=1))
    question = engine.factory.make(0, 0, 1)
    for generator, written in (("template", False), ("llm:openai:some-model", True)):
        again = engine.factory.replay(
            1,
            0,
            0,
            question.qtype,
            question.text,
            generator,
            question.candidate,
            question.expected,
            question.expected_answers,
        )
        assert again.meta.llm_written is written
        assert (again.text, again.meta.key, again.meta.expected) == (
            question.text,
            question.meta.key,
            question.meta.expected,
        )


@pytest.mark.parametrize(
    ("mode", "settings", "asked"),
    [
        ("kglens", ["iterations=3", "batch_size=8", "subset=paper16"], ASKED),
        (
            "kontest",
            ["relations=5"],
            "SELECT relation, conversation, turn, template, question FROM kontest_query "
            "WHERE run_id = ? ORDER BY relation, conversation, turn, template, question",
        ),
    ],
)
def test_run_mode_with_two_targets_asks_both_the_same_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, settings: list[str], asked: str
) -> None:
    db = tmp_path / "w.db"
    sets = [arg for s in ["kg=country", *settings] for arg in ("--set", s)]
    code = main(
        ["--db", str(db), "run", mode, *sets, "--quiet", "--yes"]
        + ["--target", "sim", "--target", "sim:1"]
    )
    assert code == 0
    out = " ".join(capsys.readouterr().out.split())
    compare = "compare 1 2" if mode == "kglens" else "consistency compare 1 2"
    assert "2 runs asked the same questions" in out and out.endswith(f"w.db {compare}")
    conn = connect(db)
    rows = [[tuple(row) for row in conn.execute(asked, (r,))] for r in (1, 2)]
    assert rows[0] and rows[0] == rows[1]
    labels = [r[0] for r in conn.execute("SELECT target_label FROM run ORDER BY id")]
    assert len(set(labels)) == 2


@pytest.mark.parametrize(
    ("targets", "error"),
    [
        (["--target", "sim", "--set", "target=sim:1"], "give the target once"),
        (["--target", "sim", "--target", "sim:1", "--target", "sim:1"], "sim:1 is given twice"),
        (["--target", "sim", "--target", ":x"], "more targets: empty target kind"),
        (["--target", "sim", "--target", "SIM "], "more targets: SIM is the first target"),
        (["--target", "sim", "--target", ""], "more targets: an empty target"),
        (["--target", "sim", "--target", "[red]x[/]"], "more targets: [red]x[/]: target"),
        (["--target", "sim", "--target", "sim:1\x1b[2J"], "more targets: sim:1␛[2J"),
    ],
)
def test_run_mode_refuses_muddled_targets_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], targets: list[str], error: str
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "run", "kglens", "--set", "kg=country", *targets]) == 2
    assert error in capsys.readouterr().err
    assert connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_several_targets_on_an_earlier_plan_all_ask_that_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    sets = ["--set", "kg=country", "--set", "subset=paper16", "--set", "iterations=2"]
    sets += ["--set", "batch_size=8"]
    assert main(["--db", str(db), "run", "kglens", *sets, "--target", "sim", "--quiet"]) == 0
    more = ["--target", "sim:1", "--target", "sim:2", "--set", "plan_of=1"]
    assert main(["--db", str(db), "run", "kglens", *sets, *more, "--quiet", "--yes"]) == 0
    conn = connect(db)
    plans = [
        json.loads(c)["plan_of"] for (c,) in conn.execute("SELECT config FROM run ORDER BY id")
    ]
    assert plans == [None, 1, 1]
    asked = [conn.execute(ASKED, (r,)).fetchall() for r in (1, 2, 3)]
    assert asked[0] and asked[0] == asked[1] == asked[2]


def test_a_first_target_that_fails_says_the_others_did_not_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    db = tmp_path / "w.db"
    with FakeOpenAIServer(fault_rates={"500": 1.0}) as srv:
        sets = ["--set", "kg=country", "--set", "subset=paper16", "--set", "iterations=2"]
        sets += [
            "--set",
            "batch_size=8",
            "--set",
            "max_retries=0",
            "--set",
            f"base_url={srv.base_url}",
        ]
        targets = ["--target", "openai:down", "--target", "sim"]
        assert main(["--db", str(db), "run", "kglens", *sets, *targets, "--quiet", "--yes"]) != 0
    err = " ".join(capsys.readouterr().err.split())
    assert "the first target's run did not finish, so sim did not start" in err
    assert connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 1
