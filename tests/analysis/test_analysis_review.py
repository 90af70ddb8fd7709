"""Blind spots, filters, drill-down, error types, and the replay of the log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from analysis_support import RUN_A, edge_ids, import_mini, make_run, observation_id

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.blindspots import blind_spots, review_counts
from kglens_tui.analysis.drilldown import edge_detail
from kglens_tui.analysis.errortypes import detect, error_type_summary, flip_mask
from kglens_tui.analysis.filters import EdgeFilter, fact_interval, fact_year
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking


@pytest.fixture
def mini(conn: sqlite3.Connection, tmp_path: Path) -> tuple[RunData, dict]:
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    return load_run_data(conn, run), edge_ids(conn)


def _names(rows, ids: dict) -> list[str]:
    by_id = {v: k for k, v in ids.items()}
    return [by_id[r.edge_id] for r in rows]


def test_ranked_by_posterior_mean_with_intervals(mini) -> None:
    data, ids = mini
    rows = blind_spots(data)
    # no propagation: Beta(1 + n, 1 + m); means e3 3/4, e5 2/3, e7 3/5, e2 1/2, e4 1/3, e1 1/4
    assert _names(rows, ids) == ["e3", "e5", "e7", "e2", "e4", "e1"]
    e3, e1 = rows[0], rows[-1]
    assert (e3.alpha, e3.beta, e3.mean) == (3.0, 1.0, 0.75)
    assert e3.low == pytest.approx(0.025 ** (1 / 3)) and e3.high == pytest.approx(0.975 ** (1 / 3))
    assert e1.low == pytest.approx(1 - 0.975 ** (1 / 3))
    assert e1.high == pytest.approx(1 - 0.025 ** (1 / 3))
    assert (e3.zero_sense, e3.win, e1.all_sense, e1.win) == (True, False, True, True)
    everything = _names(blind_spots(data, examined_only=False), ids)
    assert set(everything) == set(ids) and everything.index("e6") > everything.index("e2")
    assert _names(blind_spots(data, limit=2, offset=1), ids) == ["e5", "e7"]
    assert _names(blind_spots(data, sort="failures"), ids)[:2] == ["e3", "e7"]
    assert _names(blind_spots(data, sort="low"), ids)[0] == "e3"


def test_zero_sense_flips_and_counts(mini) -> None:
    data, ids = mini
    assert _names(blind_spots(data, kind="zero_sense"), ids) == ["e3", "e5"]
    assert _names(blind_spots(data, kind="flips"), ids) == ["e7", "e2"]
    assert np.flatnonzero(flip_mask(data)).tolist() == [1, 6]
    assert review_counts(data) == {
        "ranked": 6,
        "zero_sense": 2,
        "flips": 2,
        "confirmed": 0,
        "kg_errors": 0,
    }


def test_filters(mini) -> None:
    data, ids = mini

    def names(**kw) -> list[str]:
        rows = blind_spots(data, EdgeFilter(**kw), examined_only=False)
        return sorted(_names(rows, ids))

    assert names(predicates=("currency",)) == ["e4", "e5", "e6"]
    assert names(predicates=("head of state",)) == ["e7", "e8"]  # labels work too
    assert names(groups=("region:Oceania",)) == ["e3", "e6"]
    assert names(groups=("member:EU",)) == ["e1", "e4", "e7"]
    assert names(groups=("member:EU",), side="object") == []
    assert names(subjects=("c:B",)) == ["e2", "e5", "e8"]
    assert names(dated=False) == ["e1", "e2", "e3"]
    assert names(date_to="1990") == ["e6"]
    assert names(date_from="2020") == ["e4", "e5", "e7", "e8"]
    assert names(date_from="2021-05", date_to="2021-05") == ["e4", "e5", "e7", "e8"]
    assert names(date_from="2003", date_to="2016") == ["e4", "e5"]
    assert names(predicates=("currency",), groups=("region:Europe",), dated=True) == ["e4", "e5"]
    assert fact_interval("1999", None, None) == ("1999-01-01", "9999-12-31")
    assert fact_interval(None, None, "2021-05") == ("2021-05-01", "2021-05-31")
    assert fact_year("1966", "2002", None) == 1966 and fact_year(None, None, None) is None
    with pytest.raises(ValueError):
        EdgeFilter(side="both")


def test_drilldown_lists_every_question_and_history(conn: sqlite3.Connection, tmp_path) -> None:
    import_mini(conn, tmp_path)
    ids = edge_ids(conn)
    run = make_run(conn, RUN_A, propagation=True)
    data = load_run_data(conn, run)
    hugo = observation_id(conn, run, 3, 0)
    tr.mark_verifier_error(conn, hugo, author="ann", reason="Hugo is also head of state")
    data.take_triage(tr.triage_log(conn, run_id=run))
    d = edge_detail(data, ids["e7"])
    assert [(r.iteration, r.question[:10], r.category, r.effective) for r in d.replies] == [
        (2, "Is Hanna t", "correct", "correct"),
        (3, "Is Hugo th", "incorrect", "correct"),
        (3, "Is Hanna t", "incorrect", "incorrect"),
    ]
    assert d.replies[1].candidate == "Hugo" and d.replies[1].verifier == "first word"
    assert [e.action for e in d.replies[1].triage] == ["verifier_error"]
    assert d.true_objects == ["Hanna"] and d.neighbours == 2  # e1, e4 share Aland
    e4 = edge_detail(data, ids["e4"])
    assert [(h.iteration, h.alpha, h.beta, h.m, h.n, h.asked) for h in e4.history] == [
        (1, 2.0, 2.0, 0, 0, 0),  # neighbours: e1 correct, e5 incorrect
        (2, 2.0, 5.0, 1, 0, 1),  # own correct, e1 and e7 correct
        (3, 3.0, 6.0, 1, 0, 0),  # e7: one incorrect, one correct after the override
    ]
    raw = edge_detail(data, ids["e4"], adjusted=False)
    assert raw.history[-1].alpha == 4.0
    assert e4.history[-1].alpha == data.state().alpha[3]
    wh = edge_detail(data, ids["e3"]).replies[0]
    assert wh.expected_answers == [["Copolis"]] and wh.error_type == "untyped"
    with pytest.raises(KeyError):
        edge_detail(data, 10_000)


def test_error_types_detected_and_tagged(mini) -> None:
    data, ids = mini
    found = {int(data.obs.id[i]): t for i, t in detect(data).items()}
    conn = data.conn
    run = data.run.id
    e2_q1, e5_sc = observation_id(conn, run, 1, 1), observation_id(conn, run, 1, 3)
    hugo, hanna = observation_id(conn, run, 3, 0), observation_id(conn, run, 3, 1)
    assert found == {
        e2_q1: ("inconsistent_response",),
        e5_sc: ("self_contradiction",),
        hugo: ("inconsistent_response",),
    }
    assert hanna not in found  # same question as the correct reply: not another phrasing

    def counts(d: RunData) -> dict[str, int]:
        return {t.error_type: t.replies for t in error_type_summary(d).types}

    s = error_type_summary(data)
    assert (s.incorrect, s.refused, s.unparseable) == (5, 1, 0)
    assert counts(data) == {
        "factual_error": 0,
        "obsolete_knowledge": 0,
        "self_contradiction": 1,
        "inconsistent_response": 2,
        "untyped": 2,
    }
    tr.tag_error_type(
        conn, "factual_error", author="ann", observation_id=observation_id(conn, run, 1, 2)
    )
    tr.tag_error_type(conn, "obsolete_knowledge", author="ann", run_id=run, edge_id=ids["e7"])
    data.take_triage(tr.triage_log(conn, run_id=run))
    assert counts(data) == {
        "factual_error": 1,
        "obsolete_knowledge": 2,  # the edge tag wins over detection for both e7 replies
        "self_contradiction": 1,
        "inconsistent_response": 1,
        "untyped": 0,
    }
    obsolete = next(
        t for t in error_type_summary(data).types if t.error_type == "obsolete_knowledge"
    )
    assert (obsolete.edges, obsolete.tagged, obsolete.examples) == (1, 2, (hugo, hanna))


@pytest.mark.parametrize("mode", ["sum", "degree"])
def test_replay_matches_engine_state(conn: sqlite3.Connection, mode: str) -> None:
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim",
        difficulty="hard",
        iterations=4,
        batch_size=32,
        propagation_mode=mode,
        checkpoint_every=2,
    )
    snap = run_blocking(prepare(conn, config=config))
    data = load_run_data(conn, snap.run_id)
    replayed, _ = data.replay(adjusted=False)
    engine = data.state(adjusted=False)
    assert np.allclose(replayed.alpha, engine.alpha) and np.allclose(replayed.beta, engine.beta)
    assert np.array_equal(replayed.m, engine.m) and np.array_equal(replayed.n, engine.n)
    rows = blind_spots(data, limit=5)
    assert len(rows) == 5 and all(r.low <= r.mean <= r.high for r in rows)
