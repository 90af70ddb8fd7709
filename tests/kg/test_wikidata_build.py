"""Acceptance tests of the Wikidata builder against the loopback replay server (never the real
service): the 2-step walk, Retry-After, bad responses importing nothing, and resuming."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from wikidata_support import (
    CONFIG,
    ENTITIES,
    FIXTURES,
    ReplayServer,
    build,
    values_lists,
)

from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.kg.wikidata import (
    WikidataError,
    WikidataResponseError,
    state_file,
)

REJECTED = {"Q1351270": "no English alias", "Q2620573": "6 languages", "Q33972": "8 languages"}

Edge = tuple[str, str, str]


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


def kg_edges(conn: sqlite3.Connection, name: str) -> dict[Edge, str]:
    rows = conn.execute(
        "SELECT s.key, p.key, o.key, e.source FROM edge e JOIN kg ON kg.id = e.kg_id "
        "JOIN entity s ON s.id = e.subject_id JOIN entity o ON o.id = e.object_id "
        "JOIN predicate p ON p.id = e.predicate_id WHERE kg.name = ?",
        (name,),
    )
    return {(s, p, o): source for s, p, o, source in rows}


def world_facts() -> set[Edge]:
    doc = json.loads((FIXTURES / "facts.json").read_text(encoding="utf-8"))
    ids = [
        tuple(r[v]["value"].rsplit("/", 1)[-1] for v in ("subject", "predicate", "object"))
        for r in doc["results"]["bindings"]
    ]
    return set(ids)


def test_two_step_walk_builds_the_expected_graph(conn, server, tmp_path: Path) -> None:
    stages: list[str] = []
    report = build(conn, server, tmp_path / "cache", progress=lambda s, d, t: stages.append(s))

    keys = {r[0] for r in conn.execute("SELECT key FROM entity")}
    assert keys == ENTITIES
    assert not keys & set(REJECTED)
    assert (report.entities, report.predicates, report.edges, report.active_edges) == (
        33,
        11,
        75,
        45,
    )
    assert (report.no_alias, report.few_languages, report.steps_walked) == (1, 2, 2)

    usa = conn.execute(
        "SELECT label, aliases, description FROM entity WHERE key = 'Q30'"
    ).fetchone()
    assert usa["label"] == "United States of America"
    assert json.loads(usa["aliases"]) == ["America", "U.S.A.", "United States", "US", "USA"]
    assert usa["description"] == "country primarily located in North America"
    denmark = conn.execute("SELECT aliases, description FROM entity WHERE key = 'Q35'").fetchone()
    assert json.loads(denmark["aliases"]) == ["DK", "Kingdom of Denmark"]
    assert denmark["description"] == ""  # OPTIONAL in the completion query

    preds = {
        r["key"]: (r["label"], r["active"], r["multi_valued"])
        for r in conn.execute("SELECT key, label, active, multi_valued FROM predicate")
    }
    assert {k for k, v in preds.items() if not v[1]} == {"P30", "P31", "P463"}
    assert set(report.dead) == {"P30", "P31", "P463"}
    assert report.dead["P31"] == report.dead["P463"] == "in the dead list"
    assert report.dead["P30"].startswith("hub objects: 3.0 subjects per object")
    assert preds["P17"] == ("country", 1, 1)  # 2.25 subjects per object: below 2.5
    assert preds["P47"] == ("shares border with", 1, 1)
    assert preds["P36"] == ("capital", 1, 0)
    templates = conn.execute("SELECT templates FROM predicate WHERE key = 'P36'").fetchone()[0]
    assert json.loads(templates)["wh"] == "What is the capital of {subject}?"

    edges = kg_edges(conn, "wd")
    assert edges[("Q183", "P36", "Q64")] == "wikidata:forward"
    assert edges[("Q1930", "P1376", "Q16")] == "wikidata:backward"
    assert edges[("Q96", "P463", "Q1065")] == "wikidata:backward"  # dead, found walking back
    # the walks missed these two; completing T(s, p) found them
    assert edges[("Q183", "P47", "Q35")] == "wikidata:completion"
    assert edges[("Q142", "P47", "Q39")] == "wikidata:completion"
    assert ("Q40", "P37", "Q33972") not in edges  # its object fails the language filter
    assert ("Q1930", "P17", "Q16") not in edges  # (Ottawa, country) was never a walked pair

    # hard negatives are really false: T(s, p) holds every true object in the KG
    world = world_facts()
    active = {k for k, v in preds.items() if v[1]}
    for s, p in {(s, p) for s, p, _ in edges if p in active}:
        in_kg = {o for s2, p2, o in edges if (s2, p2) == (s, p)}
        assert in_kg == {o for s2, p2, o in world if (s2, p2) == (s, p) and o in keys}, (s, p)
    kg = load_kg(conn, "wd")
    germany, borders = kg.node("Q183"), list(kg.pred_keys).index("P47")
    true = set(kg.true_objects(germany, borders).tolist())
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert kg.hard_negative(germany, borders, rng) not in true

    seeds = conn.execute(
        "SELECT e.key FROM subset_member m JOIN subset s ON s.id = m.subset_id "
        "JOIN entity e ON e.id = m.entity_id WHERE s.name = 'seeds'"
    )
    assert {r[0] for r in seeds} == {"Q30", "Q183"}
    source = conn.execute("SELECT source FROM kg WHERE name = 'wd'").fetchone()[0]
    assert source == f"wikidata:{server.endpoint} seeds=Q30,Q183 steps=2"

    # 8 walk and filter queries, completion and its 2 filters, dates (2 chunks), types
    assert report.requests == len(server.queries) == 14
    assert all(
        "kglens-tui/" in ua and "kglens-tests@example.org" in ua for ua in server.user_agents
    )
    assert stages[0] == "step 1/2 forward walk" and stages[-1] == "writing"
    assert {"step 2/2 backward walk", "step 1/2 aliases", "completing T(s, p)"} <= set(stages)
    assert {"dates of statements", "types and countries"} <= set(stages)
    assert not state_file(tmp_path / "cache", CONFIG.validate()).exists()


def test_chunked_values_lists_build_the_same_graph(conn, server, tmp_path: Path) -> None:
    build(conn, server, tmp_path / "a", "wide")
    server.reset()
    build(conn, server, tmp_path / "b", "chunked", config=replace(CONFIG, chunk_size=3))
    assert kg_edges(conn, "chunked") == kg_edges(conn, "wide")
    lists = values_lists(server.queries)
    assert max(len(v) for v in lists) == 3
    assert len(server.queries) > 14


def test_frontier_is_a_seeded_sample_up_to_the_cap(conn, server, tmp_path: Path) -> None:
    config = replace(CONFIG, frontier_cap=5, seed=7)

    def step2_frontier() -> list[str]:
        forward = [q for q in server.queries if "VALUES ?subject {" in q]
        return values_lists(forward)[1]

    build(conn, server, tmp_path / "a", "one", config=config)
    first = step2_frontier()
    assert len(first) == 5
    server.reset()
    build(conn, server, tmp_path / "b", "two", config=config)
    assert step2_frontier() == first
    server.reset()
    build(conn, server, tmp_path / "c", "three", config=replace(config, seed=8))
    assert step2_frontier() != first


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured(conn, server, tmp_path: Path, status: int) -> None:
    server.throttle(times=1, retry_after="0.3", status=status)
    waits: list[tuple[float, str]] = []
    report = build(conn, server, tmp_path / "cache", on_wait=lambda s, r: waits.append((s, r)))
    assert waits == [(0.3, f"HTTP {status}")]
    assert server.queries[0] == server.queries[1]  # the same query, sent again
    gap = server.arrivals[1] - server.arrivals[0]
    assert 0.3 <= gap < 2.0
    assert report.requests == len(server.queries) == 15
    assert report.edges == 75


@pytest.mark.parametrize("mode", ["truncated", "short", "invalid"])
@pytest.mark.parametrize(
    ("stage", "match"),
    [
        ("step 2/2 forward walk", ("VALUES ?subject {", "wd:Q64")),
        ("completing T(s, p)", ("VALUES (?subject ?predicate) {",)),
    ],
)
def test_bad_json_is_a_clear_error_and_imports_nothing(
    conn, server, tmp_path: Path, tiny_kg_dir: Path, mode: str, stage: str, match: tuple[str, ...]
) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    before = list(conn.iterdump())
    server.corrupt(mode, *match)
    with pytest.raises(WikidataResponseError) as info:
        build(conn, server, tmp_path / "cache")
    message = str(info.value)
    assert message.startswith(stage)
    expected = {"truncated": "not valid JSON", "short": "cut off", "invalid": "not valid JSON"}
    assert expected[mode] in message
    assert list(conn.iterdump()) == before
    spoiled = server.queries[-1]
    server.reset()
    build(conn, server, tmp_path / "cache")  # the bad answer was not cached: asked again
    assert server.queries[0] == spoiled
    assert "wd" in {r[0] for r in conn.execute("SELECT name FROM kg")}


@pytest.mark.parametrize("keep_state", [True, False], ids=["walk-state", "cache-only"])
def test_interrupted_build_resumes_from_its_cache(
    conn, server, tmp_path: Path, keep_state: bool
) -> None:
    config = replace(CONFIG, chunk_size=8)
    build(conn, server, tmp_path / "reference", "reference", config=config)
    every = list(server.queries)
    assert len(every) == len(set(every)) == 40  # 25, dates in 10 chunks, types in 5

    server.reset()
    server.fail_after(10)
    cache = tmp_path / "cache"
    before = list(conn.iterdump())
    with pytest.raises(WikidataError, match="HTTP 500") as info:
        build(conn, server, cache, config=config)
    assert "step 2/2 forward walk, chunk 3/3" in str(info.value)
    assert list(conn.iterdump()) == before
    assert server.queries == every[:11]
    saved = state_file(cache, config.validate())
    assert json.loads(saved.read_text())["next_step"] == 2
    if not keep_state:
        saved.unlink()

    server.reset()
    server.fail_after(None)
    report = build(conn, server, cache, config=config)
    assert server.queries == every[10:]  # only the missing requests
    assert report.requests == 30
    assert report.cache_hits == (2 if keep_state else 10)
    assert kg_edges(conn, "wd") == kg_edges(conn, "reference")
    hashes = {r[0] for r in conn.execute("SELECT content_hash FROM kg WHERE name != 'tiny'")}
    assert len(hashes) == 1
    assert not saved.exists()


def test_a_seed_without_rows_is_reported_and_no_edges_is_an_error(
    conn, server, tmp_path: Path
) -> None:
    report = build(conn, server, tmp_path / "a", config=replace(CONFIG, seeds=("Q30", "Q999999")))
    assert report.warnings == [
        "seed Q999999 has no edge in the graph (it needs an English label and description)"
    ]
    before = list(conn.iterdump())
    with pytest.raises(WikidataError, match="found no edges"):
        build(conn, server, tmp_path / "b", "empty", config=replace(CONFIG, seeds=("Q999999",)))
    assert list(conn.iterdump()) == before
