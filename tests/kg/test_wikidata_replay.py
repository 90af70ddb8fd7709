"""Tests of the loopback SPARQL endpoint that replays recorded Wikidata responses
(wikidata_support.ReplayServer)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from typing import Any

import pytest
from wikidata_support import FIXTURES, ReplayServer, _term_id


@pytest.fixture
def replay():
    with ReplayServer() as server:
        yield server


def _post(endpoint: str, query: str) -> dict[str, Any]:
    data = urllib.parse.urlencode({"query": query}).encode()
    with urllib.request.urlopen(urllib.request.Request(endpoint, data=data), timeout=5) as resp:
        return json.loads(resp.read())


def test_replay_keeps_the_rows_of_the_values_list_and_applies_the_limit(replay) -> None:
    from kglens_tui.kg.wikidata.queries import forward_query

    rows = _post(replay.endpoint, forward_query(["Q30"], 3))["results"]["bindings"]
    assert len(rows) == 3
    assert {_term_id(r["subject"]) for r in rows} == {"Q30"}
    assert rows[0]["subjectLabel"] == {
        "xml:lang": "en",
        "type": "literal",
        "value": "United States of America",
    }


def test_replay_answers_an_unknown_query_with_400(replay) -> None:
    with pytest.raises(urllib.error.HTTPError) as info:
        _post(replay.endpoint, "SELECT ?x WHERE { ?x ?y ?z }")
    assert info.value.code == 400


def test_fixtures_are_sparql_json_results() -> None:
    for path in FIXTURES.glob("*.json"):
        if path.name == "manifest.json":
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["head"]["vars"], path.name
        for row in doc["results"]["bindings"]:
            for var, term in row.items():
                assert var in doc["head"]["vars"], (path.name, var)
                assert term["type"] in ("uri", "literal"), (path.name, term)
                if term["type"] == "literal" and "datatype" not in term:
                    assert term["xml:lang"] == "en", (path.name, term)
