"""The engine's verdicts: hedged answers stored and counted, the LLM judge's verdict stored beside
the matcher's with their agreement in the report, entity names built once per type and run."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest

from kglens_tui.analysis.report import build_report
from kglens_tui.analysis.report_render import verdict_notes
from kglens_tui.answers import mentions
from kglens_tui.answers.judge import JUDGE_TRIES
from kglens_tui.cli.main import main
from kglens_tui.llm.base import ChatRequest, Completion, LLMError, QuestionMeta
from kglens_tui.llm.usage import HelperRole, counted
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking


class Scripted:
    """A target (or judge) that answers every request with a function of its question."""

    simulated = False

    def __init__(self, answer: Callable[[QuestionMeta | None], str], label: str = "scripted"):
        self.answer = answer
        self.label = label
        self.requests = 0

    async def complete(self, request: ChatRequest) -> Completion:
        self.requests += 1
        return Completion(self.answer(request.meta), 1, 1, 0.0)

    async def aclose(self) -> None:
        return None


def hedging(meta: QuestionMeta | None) -> str:
    assert meta is not None
    if meta.qtype == "wh":
        return f"I'm not sure, but I think it's {meta.true_labels[0]}."
    return "Probably not."


def _run(conn: sqlite3.Connection, target: Scripted, judge: Scripted | None = None) -> int:
    config = RunConfig(
        kg="country",
        target="sim",
        difficulty="hard",
        batch_size=16,
        iterations=3,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=target)
    engine.judge = judge
    run_blocking(engine)
    return engine.run.id


def test_hedged_answers_are_stored_and_counted(conn: sqlite3.Connection) -> None:
    run_id = _run(conn, Scripted(hedging))
    rows = conn.execute(
        "SELECT qtype, expected, category, hedged FROM observation WHERE run_id = ?", (run_id,)
    ).fetchall()
    wh = [r for r in rows if r[0] == "wh"]
    yes_no = [r for r in rows if r[0] == "yes_no"]
    assert wh and yes_no
    assert {(r[2], r[3]) for r in wh} == {("correct", 1)}
    assert all(r[3] == 1 for r in yes_no)
    assert all(r[2] == ("correct" if r[1] == "no" else "incorrect") for r in yes_no)
    report = build_report(conn, run_id)
    right = sum(1 for r in rows if r[2] == "correct")
    assert report.hedged == {"correct": right, "incorrect": len(rows) - right}
    assert report.judged == 0
    note = verdict_notes(report)
    assert f"{right:,} correct" in note and "judge" not in note


def test_judge_verdict_is_stored_beside_the_matchers(conn: sqlite3.Connection) -> None:
    """A judge that rejects everything: every judged Wh reply the matcher found correct is a
    disagreement, and the report says how many agree."""

    def plain(meta: QuestionMeta | None) -> str:
        assert meta is not None
        return f"{meta.true_labels[0]}." if meta.qtype == "wh" else "No."

    judge = Scripted(lambda _meta: "no", label="judge")
    run_id = _run(conn, Scripted(plain), judge)
    rows = conn.execute(
        "SELECT qtype, category, matcher, verifier FROM observation WHERE run_id = ?", (run_id,)
    ).fetchall()
    wh = [r for r in rows if r[0] == "wh"]
    assert wh and judge.requests == len(wh)
    assert {(r[1], r[2]) for r in wh} == {("incorrect", "correct")}
    assert all(r[3].startswith("llm judge (judge)") for r in wh)
    assert all(r[2] == "" for r in rows if r[0] == "yes_no")
    report = build_report(conn, run_id)
    assert (report.judged, report.judge_agrees) == (len(wh), 0)
    assert "0.0% [0.0–" in verdict_notes(report)
    assert f"(n={len(wh)})" in verdict_notes(report)


def test_entity_names_are_built_once_per_run(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A HARD run builds the names of every type a Wh question can ask for before its first
    question, one table per type, and none while it verifies."""
    built: list[int] = []

    class Counted(mentions.NameTable):
        def __init__(self, *args: object) -> None:
            built.append(1)
            super().__init__(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(mentions, "NameTable", Counted)
    config = RunConfig(
        kg="country",
        target="sim",
        difficulty="hard",
        batch_size=16,
        iterations=3,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=Scripted(hedging))
    types = engine._wh_object_types()
    assert {"city", "country", "time_zone"} <= types
    assert len(built) == len(types)
    run_blocking(engine)
    assert len(built) == len(types)
    wh = conn.execute(
        "SELECT COUNT(*) FROM observation WHERE run_id = ? AND qtype = 'wh'", (engine.run.id,)
    ).fetchone()[0]
    assert wh > 0


def test_easy_runs_build_no_names(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    monkeypatch.setattr(mentions.TypeNames, "table", lambda self, t: built.append(1))
    engine = prepare(
        conn, config=RunConfig(kg="country", target="sim", batch_size=16, iterations=2)
    )
    run_blocking(engine)
    assert built == []


class Failing(Scripted):
    """A judge whose every call times out."""

    async def complete(self, request: ChatRequest) -> Completion:
        self.requests += 1
        raise LLMError("timeout", "the judge timed out")


def _plain(meta: QuestionMeta | None) -> str:
    assert meta is not None
    return f"{meta.true_labels[0]}." if meta.qtype == "wh" else "No."


@pytest.mark.parametrize(
    ("judge", "why"),
    [
        (Scripted(lambda _meta: "Paris is a lovely city", label="judge"), "judge gave no yes/no"),
        (Failing(lambda _meta: "", label="judge"), "judge timeout"),
    ],
    ids=["nonsense", "timeout"],
)
def test_a_judge_that_fails_never_blames_the_model(
    conn: sqlite3.Connection, judge: Scripted, why: str
) -> None:
    """Asked `JUDGE_TRIES` times, then the reply keeps the matcher's verdict marked unjudged;
    the failures are the judge's (helper usage), none the target's."""
    config = RunConfig(
        kg="country",
        target="sim",
        difficulty="hard",
        batch_size=16,
        iterations=2,
        stop_on_convergence=False,
    )
    engine = prepare(conn, config=config, target=Scripted(_plain))
    engine.judge = counted(judge, HelperRole.JUDGE, engine.helpers)
    run_blocking(engine)
    run_id = engine.run.id
    rows = conn.execute(
        "SELECT qtype, category, matcher, verifier, error FROM observation WHERE run_id = ?",
        (run_id,),
    ).fetchall()
    wh = [r for r in rows if r[0] == "wh"]
    assert wh and judge.requests == JUDGE_TRIES * len(wh)
    assert {r[1:] for r in wh} == {("correct", "", f"alias match (unjudged: {why})", "")}
    assert all(r[1] != "error" for r in rows)
    (target_errors,) = conn.execute(
        "SELECT errors FROM target_usage WHERE run_id = ?", (run_id,)
    ).fetchone()
    assert target_errors == 0
    requests, errors = conn.execute(
        "SELECT requests, errors FROM helper_usage WHERE run_id = ? AND role = 'judge'", (run_id,)
    ).fetchone()
    assert (requests, errors) == (JUDGE_TRIES * len(wh), JUDGE_TRIES * len(wh))
    report = build_report(conn, run_id)
    assert report.target.errors == 0 and report.unjudged == len(wh) and report.judged == 0
    assert f"{len(wh):,} Wh replies the judge failed to judge" in verdict_notes(report)


def test_a_judge_that_answers_in_format_on_a_later_try_decides(conn: sqlite3.Connection) -> None:
    said = iter(["Hmm.", "no"] * 1000)
    judge = Scripted(lambda _meta: next(said), label="judge")
    _run(conn, Scripted(_plain), judge)
    rows = conn.execute("SELECT category, matcher FROM observation WHERE qtype = 'wh'").fetchall()
    assert rows and {tuple(r) for r in rows} == {("incorrect", "correct")}
    assert judge.requests == 2 * len(rows)


def test_judge_disagreements_go_to_an_annotation_round(conn: sqlite3.Connection) -> None:
    judge = Scripted(lambda _meta: "no", label="judge")
    run_id = _run(conn, Scripted(_plain), judge)
    (disagree,) = conn.execute(  # a round takes each (question, reply) once
        "SELECT COUNT(DISTINCT question || char(0) || reply) FROM observation "
        "WHERE run_id = ? AND matcher != category AND matcher != ''",
        (run_id,),
    ).fetchone()
    assert disagree > 0
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    args = ["--db", db, "annotate", "round", "create", "--name", "judge check", "--runs"]
    assert main([*args, str(run_id), "--disagreements", "--annotators", "ann"]) == 0
    (items,) = conn.execute("SELECT COUNT(*) FROM annotation_item").fetchone()
    assert items == disagree


def test_uncertain_verdicts_are_labelled_and_counted(conn: sqlite3.Connection) -> None:
    """A true answer with a rival in a sentence of its own: correct, but the rules cannot be
    sure; without a judge the verifier label says so and the report counts it."""

    def aside(meta: QuestionMeta | None) -> str:
        assert meta is not None
        if meta.qtype != "wh":
            return "No."
        return f"{meta.true_labels[0]}. Canberra is another one."  # a capital: a rival city

    config = RunConfig(
        kg="country", target="sim", difficulty="wh", predicates=["capital"], batch_size=16,
        iterations=2, stop_on_convergence=False,
    )  # fmt: skip
    engine = prepare(conn, config=config, target=Scripted(aside))
    run_blocking(engine)
    run_id = engine.run.id
    rows = conn.execute(
        "SELECT question, reply, category, verifier FROM observation WHERE run_id = ? "
        "AND qtype = 'wh'",
        (run_id,),
    ).fetchall()
    capitals = [r for r in rows if "capital of" in r[0] and not r[1].startswith("Canberra")]
    assert capitals and all(r[2:] == ("correct", "alias match (uncertain)") for r in capitals)
    uncertain = [r for r in rows if r[3] == "alias match (uncertain)"]
    report = build_report(conn, run_id)
    assert report.uncertain == len(uncertain)
    assert f"{len(uncertain):,} Wh verdicts the rules could not decide" in verdict_notes(report)
