"""Triage storage (append-only, auditable) and exactly how overrides change the metrics."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from analysis_support import RUN_A, edge_ids, import_mini, make_run, observation_id

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.blindspots import blind_spots
from kglens_tui.analysis.exports import kg_corrections
from kglens_tui.analysis.groups import group_table
from kglens_tui.analysis.rundata import DROPPED, load_run_data


@pytest.fixture
def mini(conn: sqlite3.Connection, tmp_path: Path) -> tuple[sqlite3.Connection, int, dict]:
    import_mini(conn, tmp_path)
    return conn, make_run(conn, RUN_A), edge_ids(conn)


def _rates(conn: sqlite3.Connection, run_id: int, adjusted: bool = True) -> tuple:
    r = load_run_data(conn, run_id).rates(adjusted)
    return r.examined, r.win, r.zero_sense, r.all_sense


def test_no_triage_adjusted_equals_raw(mini) -> None:
    conn, run, _ = mini
    assert _rates(conn, run) == _rates(conn, run, adjusted=False) == (6, 2 / 6, 2 / 6, 2 / 6)


def test_verifier_override_flips_one_verdict(mini) -> None:
    conn, run, ids = mini
    wh = observation_id(conn, run, 1, 2)  # e3 "Dopolis." incorrect
    entry = tr.mark_verifier_error(conn, wh, author="ann", reason="Dopolis is an alias")
    assert tr.get_entry(conn, entry).value == "correct"  # default: a failure becomes correct
    data = load_run_data(conn, run)
    m, n = data.counts()
    assert (m[2], n[2]) == (1, 1)  # e3 was 0 / 2
    assert data.rates(False).zero_sense == 2 / 6
    assert _rates(conn, run) == (6, 2 / 6, 1 / 6, 2 / 6)  # e3 no longer zero-sense
    state = data.state()
    assert (state.alpha[2], state.beta[2]) == (2.0, 2.0)  # Beta(1 + n, 1 + m)
    assert data.state(False).alpha[2] == 3.0
    assert data.categories()[2] == "correct" and data.categories(False)[2] == "incorrect"


def test_latest_override_wins_and_retract_restores(mini) -> None:
    conn, run, _ = mini
    wh = observation_id(conn, run, 1, 2)
    first = tr.mark_verifier_error(conn, wh, author="ann", reason="alias")
    tr.mark_verifier_error(conn, wh, author="bob", reason="not an answer", category="refused")
    data = load_run_data(conn, run)
    assert data.categories()[2] == "refused"
    assert data.counts()[1][2] == 2
    assert _rates(conn, run) == (6, 2 / 6, 2 / 6, 2 / 6)
    second = tr.triage_log(conn, observation_id=wh)[-1].id
    tr.retract(conn, second, author="bob", reason="second look")
    with pytest.raises(tr.TriageError):
        tr.retract(conn, second, author="bob", reason="twice")
    assert load_run_data(conn, run).categories()[2] == "correct"  # the first one again
    tr.retract(conn, first, author="ann", reason="no override after all")
    restored = load_run_data(conn, run)
    assert restored.categories()[2] == "incorrect"
    assert _rates(conn, run) == (6, 2 / 6, 2 / 6, 2 / 6)


def test_kg_error_edge_leaves_every_denominator(mini) -> None:
    conn, run, ids = mini
    tr.mark_kg_error(conn, edge_id=ids["e5"], author="ann", reason="B uses Ypound", seen_in_run=run)
    data = load_run_data(conn, run)
    # e5 (0 / 1, zero-sense) is out: 5 examined, win e1 e4, zero e3, all-sense e1 e4
    assert _rates(conn, run) == (5, 2 / 5, 1 / 5, 2 / 5)
    assert _rates(conn, run, adjusted=False) == (6, 2 / 6, 2 / 6, 2 / 6)
    assert data.categories()[3] == DROPPED
    currency = {r.key: r for r in group_table(data, "predicate")}["currency"]
    assert (currency.edges, currency.rates.examined) == (2, 1)
    assert ids["e5"] not in [r.edge_id for r in blind_spots(data)]
    assert [r.edge_id for r in blind_spots(data, kind="kg_errors")] == [ids["e5"]]
    # KG-wide: a second run on the same KG is adjusted too
    other = make_run(conn, RUN_A, target="model-z")
    assert _rates(conn, other) == (5, 2 / 5, 1 / 5, 2 / 5)
    fixes = kg_corrections(conn, data.run.kg_id)
    assert [(c.kind, c.edge_id, c.subject, c.object) for c in fixes] == [
        ("edge", ids["e5"], "Borduria", "Xdollar")
    ]


def test_kg_error_edge_stops_propagation(conn: sqlite3.Connection, tmp_path: Path) -> None:
    import_mini(conn, tmp_path)
    ids = edge_ids(conn)
    run = make_run(conn, RUN_A, propagation=True)
    assert load_run_data(conn, run).state().alpha[3] == 4.0  # e4: 1 + e5 (it 1) + 2 x e7 (it 3)
    tr.mark_kg_error(conn, edge_id=ids["e5"], author="ann", reason="wrong")
    data = load_run_data(conn, run)
    assert (data.state().alpha[3], data.state().beta[3]) == (3.0, 5.0)
    assert data.state(False).alpha[3] == 4.0


def test_kg_error_reply_drops_one_observation(mini) -> None:
    conn, run, ids = mini
    hugo = observation_id(conn, run, 3, 0)  # e7 "Is Hugo ...?" answered Yes
    tr.mark_kg_error(conn, observation_id=hugo, author="ann", reason="Hugo is co-head of state")
    data = load_run_data(conn, run)
    m, n = data.counts()
    assert (m[6], n[6]) == (1, 1)
    assert (data.state().alpha[6], data.state().beta[6]) == (2.0, 2.0)
    assert _rates(conn, run) == (6, 2 / 6, 2 / 6, 2 / 6)
    fix = kg_corrections(conn, data.run.kg_id)[0]
    assert (fix.kind, fix.candidate, fix.observation_id) == ("missing_fact", "Hugo", hugo)


def test_confirm_note_tag_change_no_number(mini) -> None:
    conn, run, ids = mini
    before = load_run_data(conn, run)
    tr.confirm_blind_spot(conn, run, ids["e3"], author="ann")
    tr.add_note(conn, "ask again in Dutch", author="ann", run_id=run, edge_id=ids["e3"])
    tr.add_note(conn, "KG-wide remark", author="ann", edge_id=ids["e3"])
    tr.tag_error_type(conn, "factual_error", author="ann", run_id=run, edge_id=ids["e3"])
    after = load_run_data(conn, run)
    assert not after.overrides.changes_metrics
    assert np.array_equal(before.counts()[0], after.counts()[0])
    assert np.array_equal(before.state().alpha, after.state().alpha)
    row = blind_spots(after, kind="confirmed")[0]
    assert (row.edge_id, row.confirmed, row.notes, row.error_type) == (
        ids["e3"],
        True,
        2,
        "factual_error",
    )


def test_validation(mini) -> None:
    conn, run, ids = mini
    error_obs = observation_id(conn, run, 1, 4)
    with pytest.raises(tr.TriageError, match="transport error"):
        tr.mark_verifier_error(conn, error_obs, author="ann", reason="x")
    with pytest.raises(tr.TriageError, match="reason"):
        tr.mark_kg_error(conn, edge_id=ids["e1"], author="ann", reason=" ")
    with pytest.raises(tr.TriageError, match="author"):
        tr.confirm_blind_spot(conn, run, ids["e1"], author="")
    with pytest.raises(tr.TriageError, match="not both"):
        tr.mark_kg_error(conn, edge_id=ids["e1"], observation_id=error_obs, author="a", reason="b")
    with pytest.raises(tr.TriageError, match="error type"):
        tr.tag_error_type(conn, "typo", author="ann", observation_id=error_obs)
    with pytest.raises(tr.TriageError, match="category"):
        tr.mark_verifier_error(
            conn, observation_id(conn, run, 1, 0), author="a", reason="b", category="error"
        )
    other_kg_edge = 10_000
    with pytest.raises(tr.TriageError):
        tr.confirm_blind_spot(conn, run, other_kg_edge, author="ann")


def test_append_only_audit_trail(mini) -> None:
    conn, run, ids = mini
    entry = tr.confirm_blind_spot(conn, run, ids["e3"], author="ann", reason="always wrong")
    tr.retract(conn, entry, author="bob", reason="it was a KG error")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE triage SET author = 'eve' WHERE id = ?", (entry,))
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM triage WHERE id = ?", (entry,))
    log = tr.triage_log(conn, run_id=run)
    assert [(e.action, e.author, e.retracts) for e in log] == [
        ("confirm", "ann", None),
        ("retract", "bob", entry),
    ]
    assert log[0].created_at and log[0].reason == "always wrong"
    assert tr.current_entries(log) == []
    kg_wide = tr.mark_kg_error(conn, edge_id=ids["e1"], author="ann", reason="wrong")
    conn.execute("DELETE FROM run WHERE id = ?", (run,))  # cascades remove the run's entries
    assert [e.id for e in tr.triage_log(conn)] == [kg_wide]
