"""Query text (paper A.7), id handling, settings and the dead-predicate rule."""

from __future__ import annotations

import pytest

from kglens_tui.kg.wikidata import PredicateRule, WalkConfig
from kglens_tui.kg.wikidata.predicates import dead_predicates
from kglens_tui.kg.wikidata.queries import (
    backward_query,
    chunks,
    completion_query,
    forward_query,
    item_id,
    normalize_pid,
    normalize_qid,
)

LANG_FILTERS = [
    f'FILTER (lang(?{v}) = "en")'
    for v in (
        "subjectLabel",
        "subjectDesc",
        "predicateLabel",
        "predicateDesc",
        "objectLabel",
        "objectDesc",
    )
]


def test_forward_and_backward_walks_are_the_queries_of_appendix_a7() -> None:
    fwd = forward_query(["Q30", "Q183"], 7)
    assert "VALUES ?subject {\n    wd:Q30 wd:Q183\n  }" in fwd
    assert "?subject ?predicate ?object ." in fwd
    assert "?property wikibase:directClaim ?predicate ." in fwd
    assert all(f in fwd for f in LANG_FILTERS)
    assert fwd.rstrip().endswith("ORDER BY UUID()\nLIMIT 7")
    bwd = backward_query(["Q30"], 7)
    assert "VALUES ?object {\n    wd:Q30\n  }" in bwd and "VALUES ?subject" not in bwd
    assert bwd.replace("VALUES ?object", "VALUES ?subject") == forward_query(["Q30"], 7)


def test_completion_lists_subject_predicate_pairs() -> None:
    query = completion_query([("Q30", "P47"), ("Q183", "P37")])
    assert "VALUES (?subject ?predicate) {\n    (wd:Q30 wdt:P47) (wd:Q183 wdt:P37)\n  }" in query
    assert "OPTIONAL" in query and "LIMIT" not in query


def test_chunks_split_values_lists() -> None:
    assert [len(c) for c in chunks(list(range(7)), 3)] == [3, 3, 1]
    assert chunks([], 3) == []


def test_ids_are_normalized() -> None:
    assert normalize_qid(" wd:q30 ") == "Q30"
    assert normalize_qid("http://www.wikidata.org/entity/Q183") == "Q183"
    assert normalize_pid("wdt:P31") == "P31"
    for bad in ("Q0", "P31", "Germany", ""):
        with pytest.raises(ValueError, match="not a Wikidata item id"):
            normalize_qid(bad)
    assert item_id({"type": "uri", "value": "http://www.wikidata.org/entity/L123"}) is None
    assert item_id({"type": "literal", "value": "Q30"}) is None


def test_settings_are_validated() -> None:
    config = WalkConfig(seeds=("wd:Q30", "Q30", "q183"), dead_predicates=("wdt:P31",)).validate()
    assert config.seeds == ("Q30", "Q183")
    assert config.dead_predicates == ("P31",)
    for bad, message in (
        (WalkConfig(seeds=()), "at least one seed"),
        (WalkConfig(seeds=("Q30",), chunk_size=0), "chunk size must be at least 1"),
        (WalkConfig(seeds=("Q30",), chunk_size=1000), "at most 500"),
        (WalkConfig(seeds=("Q30",), dead_predicates=("member of",)), "property id"),
        (WalkConfig(seeds=("Q30",), max_subject_share=0), "subject share"),
    ):
        with pytest.raises(ValueError, match=message):
            bad.validate()


def test_the_fingerprint_follows_the_walk_settings_only() -> None:
    base = WalkConfig(seeds=("Q30",))
    assert base.fingerprint() == WalkConfig(seeds=("Q30",), max_object_degree=3).fingerprint()
    assert base.fingerprint() != WalkConfig(seeds=("Q30",), limit=10).fingerprint()


def test_dead_predicates_listed_hubs_and_ubiquitous() -> None:
    edges = [(f"Q{i}", "P463", "Q1065") for i in range(1, 31)]  # member of the UN
    edges += [(f"Q{i}", "P17", "Q30") for i in range(1, 31)]  # everything is in one country
    edges += [(f"Q{i}", "P36", f"Q{100 + i}") for i in range(1, 26)]  # on 83% of subjects
    edges += [(f"Q{i}", "P1082", f"Q{200 + i}") for i in range(1, 25)]  # on 80% of subjects
    preds = {"P463", "P17", "P36", "P1082", "P31"}
    rule = PredicateRule(max_object_degree=10, max_subject_share=0.9, min_subjects=20)
    dead = dead_predicates(preds, edges, rule)
    assert dead["P463"] == "in the dead list"
    assert dead["P31"] == "in the dead list"  # listed, even without forward edges
    assert dead["P17"].startswith("hub objects: 30.0 subjects per object")
    assert "P36" not in dead and "P1082" not in dead
    strict = PredicateRule(max_object_degree=10, max_subject_share=0.5, min_subjects=20)
    assert dead_predicates(preds, edges, strict)["P1082"] == "on 80% of subjects (> 50%)"
    assert dead_predicates(preds, edges, strict)["P36"] == "on 83% of subjects (> 50%)"
    few = PredicateRule(max_subject_share=0.5, min_subjects=31)
    assert set(dead_predicates(preds, edges, few)) == {"P463", "P31", "P17"}
