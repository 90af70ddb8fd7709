"""KONTEST mode end to end: a hand-built graph, a scripted target answering from a dict, planted
inconsistencies of every type, API failures and resume."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from kontest_support import LOCATED, PLANTED, hand_kg
from run_targets import ScriptedTarget

from kglens_tui.answers.bias import Rate
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.llm.failures import STOP_REASON
from kglens_tui.modes import KontestConfig
from kglens_tui.modes.kontest.plan import chains, paraphrases, plan_kontest
from kglens_tui.runs.record import KGLENS, RunNotFoundError, load_run, nothing_to_resume
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.runs.session import RunSession


@pytest.fixture
def hand(conn: sqlite3.Connection, tmp_path: Path) -> sqlite3.Connection:
    import_kg(conn, hand_kg(tmp_path), "hand")
    return conn


def _counts(snap, oracle: str) -> tuple[int, int, int, int]:
    o = snap.metrics.oracle(oracle)
    return o.consistent, o.inconsistent, o.invalid, o.errors


def test_plan_pairs_every_path_node_and_paraphrases(hand: sqlite3.Connection) -> None:
    kg = load_kg(hand, "hand")
    located = kg.pred_keys.index("located_in")
    paths = {tuple(kg.labels[n] for n in c) for c in chains(kg, located)}
    assert paths == {("Kinawley", "Ulster", "Ireland"), ("Dromore", "Ulster", "Ireland")}
    plan = plan_kontest(
        hand, kg, KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    )
    facts = {(kg.labels[r.s], kg.labels[r.o], r.origin, r.edge_id is None) for r in plan.relations}
    assert ("Kinawley", "Ireland", "path", True) in facts
    assert ("Ulster", "Ireland", "edge", False) in facts
    assert len(plan.relations) == 8
    s, o = kg.node("france"), kg.node("paris")
    assert paraphrases(kg, s, kg.pred_keys.index("capital"), o) == (
        "Is Paris the capital of France?",
        "Is the capital of France Paris?",
    )
    kg.pred_templates[located] = {"statement": "{subject} is located in {object}."}
    assert paraphrases(kg, kg.node("ulster"), located, kg.node("ireland")) == (
        f"Is Ulster {LOCATED} Ireland?",  # the grammatical default of its label
        "Is it true that Ulster is located in Ireland?",
    )


def test_each_oracle_finds_exactly_the_planted_inconsistencies(hand: sqlite3.Connection) -> None:
    target = ScriptedTarget(**PLANTED, fail={"Is Dromore located in Ulster?"})
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"], concurrency=3)
    snap = run_blocking(prepare(hand, config=config, target=target))
    # Dromore -> Ulster had a failed request: that relation is not done until a resume
    assert snap.status == "finished" and (snap.units_done, snap.units_total) == (7, 8)
    assert "1 with a failed request" in snap.stop_reason
    assert (snap.metrics.relations_done, snap.metrics.relations_failed) == (7, 1)
    assert nothing_to_resume(hand, snap.run_id) is None  # the failed request is asked again
    # (consistent, inconsistent, invalid, API error), worked out by hand per relation
    assert _counts(snap, "atomic") == (6, 1, 0, 1)
    assert _counts(snap, "sequential-intra") == (12, 1, 1, 2)
    assert _counts(snap, "sequential-inter") == (10, 3, 1, 2)
    # one test per non-adjacent pair (Kinawley-Ireland, Dromore-Ireland) and template: both
    # templates say no to Kinawley-Ireland though yes along Ulster; Dromore-Ireland is an error
    # for template 2 but unknown for template 1 (its Dromore-Ulster request failed)
    assert _counts(snap, "ontological") == (0, 3, 0, 1)
    assert snap.metrics.ontological_pairs == Rate(2, 2)
    found = {
        (f.oracle, f.fact, f.detail.split(":")[0] if f.oracle == "ontological" else "")
        for f in snap.metrics.findings
    }
    assert found == {
        ("atomic, sequential-inter", "France · capital · Paris", ""),
        ("sequential-intra, sequential-inter", "Germany · capital · Berlin", ""),
        ("ontological", f"Kinawley · {LOCATED} · Ireland", "template 1"),
        ("ontological", f"Kinawley · {LOCATED} · Ireland", "template 2"),
        ("ontological", f"Dromore · {LOCATED} · Ireland", "template 2"),
    }
    c = snap.metrics.coverage
    assert (c.gap1, c.known1, c.gap2, c.known2, c.gap_both, c.known_both) == (2, 7, 3, 8, 2, 7)
    # the first turn of Dromore's seq12 failed, so its second turn was never sent
    assert (snap.progress.counters.requests, snap.progress.counters.errors) == (47, 3)
    rows = hand.execute(
        "SELECT answer, error FROM kontest_query WHERE run_id = ? AND answer = 'error'",
        (snap.run_id,),
    ).fetchall()
    assert len(rows) == 4 and all(r[1] for r in rows)


def test_resume_asks_failed_units_again(hand: sqlite3.Connection) -> None:
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    failing = ScriptedTarget(**PLANTED, fail={"Is Dromore located in Ulster?"})
    first = run_blocking(prepare(hand, config=config, target=failing))
    fixed = ScriptedTarget(**PLANTED)
    snap = run_blocking(prepare(hand, resume=first.run_id, target=fixed))
    assert len(fixed.asked) == 6  # one relation, four conversations
    # every request counts: the 47 of the first run (3 failed) and the 6 asked again
    assert (
        (snap.progress.counters.errors, snap.progress.counters.requests)
        == (first.progress.counters.errors, first.progress.counters.requests + 6)
        == (3, 53)
    )
    assert _counts(snap, "atomic") == (7, 1, 0, 0)
    # now Dromore -> Ulster -> Ireland is affirmed and "Dromore in Ireland?" is no, in both
    # templates: 2 non-adjacent pairs x 2 templates, all inconsistent
    assert _counts(snap, "ontological") == (0, 4, 0, 0)
    assert snap.stop_reason == "all tests asked"
    stored = open_snapshot(hand, first.run_id)
    assert (
        stored.metrics == snap.metrics
        and stored.progress.counters.requests == snap.progress.counters.requests
    )


def test_a_target_that_keeps_failing_stops_the_run(hand: sqlite3.Connection) -> None:
    class Down(ScriptedTarget):
        async def complete(self, request: ChatRequest) -> Completion:
            raise LLMError("connection", "connection refused")

    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"], concurrency=1)
    snap = run_blocking(prepare(hand, config=config, target=Down()))
    assert (snap.status, snap.stop_reason) == ("failed", STOP_REASON)
    assert snap.error == (
        "24 of the last 24 requests failed (connection 24); latest: connection: connection refused"
    )
    stored = load_run(hand, snap.run_id)
    assert (stored.status, stored.stop_reason, stored.error) == ("failed", STOP_REASON, snap.error)
    assert snap.progress.counters.requests == snap.progress.counters.errors == 24
    assert all(o.inconsistent == 0 and o.consistent == 0 for o in snap.metrics.oracles)
    assert snap.metrics.coverage.known1 == 0


def test_llm_paraphraser_supplies_template_2(hand: sqlite3.Connection) -> None:
    generator = ScriptedTarget(
        reply_fn=lambda users: users[-1].replace("Is ", "Would you say ", 1), label="para"
    )
    target = ScriptedTarget()
    config = KontestConfig(kg="hand", relations=2, predicates=["capital"])
    snap = run_blocking(prepare(hand, config=config, target=target, generator=generator))
    rows = hand.execute(
        "SELECT question, generator FROM kontest_query WHERE run_id = ? AND template = 2",
        (snap.run_id,),
    ).fetchall()
    assert rows and all(q.startswith("Would you say") and g == "llm:para" for q, g in rows)


def test_sequential_conversations_carry_the_first_reply(hand: sqlite3.Connection) -> None:
    target = ScriptedTarget()
    config = KontestConfig(kg="hand", relations=1, predicates=["capital"], seed=1)
    run_blocking(prepare(hand, config=config, target=target))
    assert sorted(len(a) for a in target.asked) == [1, 1, 1, 1, 2, 2]
    q1, q2 = sorted({a[0] for a in target.asked if len(a) == 1})
    assert {a for a in target.asked if len(a) == 2} == {(q1, q2), (q2, q1)}
    second_turns = [m for m in target.messages if len(m) == 4]
    assert [[x["role"] for x in m] for m in second_turns] == [
        ["system", "user", "assistant", "user"]
    ] * 2
    assert all(m[2]["content"] == "Yes." for m in second_turns)


def test_mode_runs_list_with_kglens_runs(hand: sqlite3.Connection) -> None:
    config = KontestConfig(kg="hand", relations=2, target="sim:1")
    snap = run_blocking(prepare(hand, config=config))
    row = hand.execute("SELECT mode, iterations_done, config FROM run WHERE id = ?", (snap.run_id,))
    mode, done, cfg = row.fetchone()
    assert (mode, done, json.loads(cfg)["relations"]) == ("kontest", 2, 2)
    with pytest.raises(RunNotFoundError, match="is a KONTEST run, not a KGLens one"):
        load_run(hand, snap.run_id, KGLENS)  # KGLens code never reads another mode's run


def test_session_runs_in_its_own_process_and_stops(tmp_path: Path) -> None:
    import threading

    from kglens_tui.store.connection import connect

    db = tmp_path / "s.db"
    conn = connect(db)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    session = RunSession(
        db,
        "kontest",
        config=KontestConfig(kg="hand", relations=None, transitive=["located_in"], concurrency=1),
        target_factory=ScriptedTarget,
    )
    worker = threading.Thread(target=session.run)
    worker.start()
    assert session.wait_ready(10)
    session.stop()
    worker.join(10)
    final = session.snapshot()
    assert not session.error and final is not None
    assert final.status in ("stopped", "finished") and final.run_id == session.run_id


def test_status_reads_loading_model_while_the_local_target_loads(
    hand: sqlite3.Connection,
) -> None:
    """A local target loads its model before the first request; snapshots say so meanwhile."""
    import asyncio

    class Loading(ScriptedTarget):
        async def aload(self) -> None:
            self.seen_while_loading = engine.snapshot()
            await asyncio.sleep(0)

    target = Loading(**PLANTED)
    config = KontestConfig(kg="hand", relations=2)
    engine = prepare(hand, config=config, target=target)
    snap = run_blocking(engine)
    seen = target.seen_while_loading
    assert (seen.status, seen.progress.counters.requests) == ("loading model", 0)
    assert snap.status == "finished" and snap.progress.counters.requests > 0
