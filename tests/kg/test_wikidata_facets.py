"""Entity types and group tags of Wikidata KGs: the classes, countries and nearest seeds a
replayed build stores (tests/fixtures/wikidata/facets.json), in the Country KG's shape."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from wikidata_support import ReplayServer, build

from kglens_tui.kg.wikidata.facets import Facets, facets_query, group_tags, nearest_seeds

ENTITY = "http://www.wikidata.org/entity/"
DIRECT = "http://www.wikidata.org/prop/direct/"
USA, GERMANY = "seed:United States of America", "seed:Germany"


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


def row(item: str, pid: str, value: str, label: str | None = None) -> dict:
    out = {
        "item": {"type": "uri", "value": ENTITY + item},
        "property": {"type": "uri", "value": DIRECT + pid},
        "value": {"type": "uri", "value": ENTITY + value},
    }
    if label is not None:
        out["valueLabel"] = {"type": "literal", "xml:lang": "en", "value": label}
    return out


def stored(conn: sqlite3.Connection) -> dict[str, tuple[str, str, list[str]]]:
    rows = conn.execute("SELECT key, label, type, groups FROM entity")
    return {k: (label, t, json.loads(g)) for k, label, t, g in rows}


def test_the_type_is_the_lowest_numbered_class() -> None:
    facets = Facets()
    facets.add(
        [
            row("Q64", "P31", "Q1637706", "city with millions of inhabitants"),
            row("Q64", "P31", "Q515", "city"),
            row("Q64", "P31", "Q5119", "capital city"),
            row("Q99", "P31", "Q123456"),  # a class without an English label
        ],
        "test",
    )
    assert facets.type_of("Q64") == "city"
    assert facets.type_of("Q99") == "Q123456"
    assert facets.type_of("Q1") == ""


def test_countries_then_citizenship_become_country_tags() -> None:
    facets = Facets()
    facets.add(
        [
            row("Q64", "P17", "Q183", "Germany"),
            row("Q567", "P27", "Q183", "Germany"),
            row("Q1", "P17", "Q30", "United States of America"),
            row("Q1", "P27", "Q183", "Germany"),  # has a country: citizenship is not used
            row("Q4916", "P17", "Q38", "Italy"),
            row("Q4916", "P17", "Q142", "France"),
            row("Q4916", "P17", "Q999", ""),  # an empty label: the id
            {**row("Q2", "P17", "Q30"), "value": {"type": "literal", "value": "Q30"}},
        ],
        "test",
    )
    assert facets.country_tags("Q64") == ["country:Germany"]
    assert facets.country_tags("Q567") == ["country:Germany"]
    assert facets.country_tags("Q1") == ["country:United States of America"]
    assert facets.country_tags("Q4916") == ["country:Italy", "country:France", "country:Q999"]
    assert facets.country_tags("Q2") == []  # a literal is no country
    assert group_tags("Q4916", facets, ["Germany"]) == [
        "country:France",
        "country:Italy",
        "country:Q999",
        "seed:Germany",
    ]


def test_nearest_seeds_over_edges_in_either_direction() -> None:
    edges = [
        ("Q30", "P47", "Q16"),
        ("Q183", "P47", "Q40"),
        ("Q16", "P463", "Q1065"),
        ("Q183", "P463", "Q1065"),
        ("Q30", "P463", "Q1065"),
        ("Q1930", "P1376", "Q16"),  # into Canada: 2 hops from the USA
        ("Q7", "P1", "Q8"),  # not connected to a seed
    ]
    near = nearest_seeds(["Q30", "Q183"], edges)
    assert near["Q30"] == ["Q30"] and near["Q183"] == ["Q183"]
    assert near["Q16"] == ["Q30"] and near["Q1930"] == ["Q30"]
    assert near["Q1065"] == ["Q30", "Q183"]  # a tie: both, in seed order
    assert "Q7" not in near
    assert nearest_seeds(["Q999"], edges) == {}


def test_the_facets_query_asks_for_classes_countries_and_citizenship() -> None:
    query = facets_query(["Q30", "Q183"])
    assert "VALUES ?item {\n    wd:Q30 wd:Q183\n  }" in query
    assert "VALUES ?property { wdt:P31 wdt:P17 wdt:P27 }" in query
    assert "OPTIONAL {\n    ?value rdfs:label ?valueLabel ." in query


def test_types_and_groups_are_stored_like_the_country_kg(conn, server, tmp_path: Path) -> None:
    build(conn, server, tmp_path / "cache")
    entities = stored(conn)
    assert entities["Q183"] == ("Germany", "country", ["country:Germany", GERMANY])
    assert entities["Q30"][1:] == ("country", ["country:United States of America", USA])
    assert entities["Q16"][1:] == ("country", ["country:Canada", USA])
    assert entities["Q64"][1:] == ("city", ["country:Germany", GERMANY])
    assert entities["Q1930"][1:] == ("city", ["country:Canada", USA])
    assert entities["Q567"][1:] == ("human", ["country:Germany", GERMANY])  # citizenship
    assert entities["Q1860"][1:] == ("language", [USA])
    assert entities["Q4916"][1:] == (
        "currency",
        ["country:Austria", "country:France", "country:Germany", "country:Italy"]
        + ["country:Q130000002", GERMANY],  # a country without an English label: its id
    )
    assert entities["Q1637706"][1:] == ("Q130000001", [GERMANY, USA])  # unlabelled class; tie
    assert entities["Q3624078"][1:] == ("", [GERMANY, USA])  # no class, no country
    # labels are kept as the literal text Wikidata gave: markup and control characters too
    assert entities["Q458"][1] == "[bold]supranational union[/bold]\x07\x1b[2J"
    assert "country:[link=https://example.org]Ecuador[/link]" in entities["Q4917"][2]

    tagged = conn.execute(
        "SELECT e.key FROM entity_group g JOIN entity e ON e.id = g.entity_id WHERE g.grp = ?",
        ("country:Germany",),
    )
    assert {r[0] for r in tagged} == {"Q183", "Q64", "Q1055", "Q1726", "Q567", "Q4916"}
    seeds = {t for _, _, tags in entities.values() for t in tags if t.startswith("seed:")}
    assert seeds == {USA, GERMANY}
    assert all(any(t.startswith("seed:") for t in tags) for _, _, tags in entities.values())
    assert sum(1 for q in server.queries if "VALUES ?property" in q) == 1
