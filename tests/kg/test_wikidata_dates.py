"""Edge dates from the qualifiers of Wikidata statements: reading them, the statement query, and
which edges of a replayed build get which dates (tests/fixtures/wikidata/dates.json)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from wikidata_support import FIXTURES, ReplayServer, build

from kglens_tui.analysis.filters import fact_year
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.wikidata.dates import (
    dates_query,
    edge_dates,
    latest,
    statement_dates,
    wikidata_date,
)

Edge = tuple[str, str, str]

EXPECTED: dict[Edge, tuple[str | None, str | None, str | None]] = {
    # (start, end, point in time), each cut to its precision
    ("Q30", "P36", "Q61"): ("1800-11-17", None, None),
    ("Q30", "P38", "Q4917"): ("1792-04", None, None),  # month precision
    ("Q30", "P463", "Q1065"): ("1945-10-24", None, None),  # a dead edge keeps its date too
    ("Q183", "P36", "Q64"): ("1990-10-03", None, None),  # the latest of two statements
    ("Q183", "P38", "Q4916"): ("1999-01-01", None, None),
    ("Q183", "P463", "Q1065"): ("1973-09-18", None, None),
    ("Q183", "P47", "Q35"): ("1920-06-15", None, None),  # an edge found by completion
    ("Q142", "P38", "Q4916"): ("1999-01-01", None, None),
    ("Q142", "P30", "Q46"): ("-13798000000-00-00T00:00:00Z", None, None),  # no date: as given
    ("Q40", "P38", "Q4916"): ("1999-01-01", None, None),
    ("Q40", "P463", "Q458"): ("1995-01-01", None, None),
    ("Q16", "P36", "Q1930"): ("1866", None, None),  # year precision
    ("Q16", "P47", "Q30"): ("-0500-00-00T00:00:00Z", None, None),  # malformed: as given
    ("Q1726", "P31", "Q1637706"): (None, None, "1957"),
    ("Q567", "P19", "Q1055"): (None, None, "1954-07-17"),
}
"""Every dated edge of the replayed build; Mexico's capital has only an unknown ("somevalue")
start, so it stays undated."""


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


def stored_dates(conn: sqlite3.Connection, name: str = "wd") -> dict[Edge, tuple]:
    rows = conn.execute(
        "SELECT s.key, p.key, o.key, e.start_time, e.end_time, e.point_in_time FROM edge e "
        "JOIN kg ON kg.id = e.kg_id JOIN entity s ON s.id = e.subject_id "
        "JOIN entity o ON o.id = e.object_id JOIN predicate p ON p.id = e.predicate_id "
        "WHERE kg.name = ?",
        (name,),
    )
    return {(s, p, o): (start, end, point) for s, p, o, start, end, point in rows}


def test_a_date_is_cut_to_its_precision() -> None:
    assert wikidata_date("1990-10-03T00:00:00Z", "11") == "1990-10-03"
    assert wikidata_date("1792-04-02T00:00:00Z", "10") == "1792-04"
    assert wikidata_date("1866-01-01T00:00:00Z", "9") == "1866"
    assert wikidata_date("1801-01-01T00:00:00Z", "7") == "1801"  # a century: its year
    assert wikidata_date("+2021-01-20T00:00:00Z", None) == "2021-01-20"
    assert wikidata_date("-0044-03-15T00:00:00Z", "11") == "-0044-03-15"
    assert wikidata_date("2000-02-29T00:00:00Z", "11") == "2000-02-29"
    assert wikidata_date("1990-10-03T00:00:00Z", "eleven") == "1990-10-03"  # bad precision


@pytest.mark.parametrize(
    "raw",
    [
        "-0500-00-00T00:00:00Z",
        "1927-00-00T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2021-13-01T00:00:00Z",
        "-13798000000-00-00T00:00:00Z",
        "yesterday",
        "[b]1990[/b]\x07\x1b[2J",
    ],
)
def test_a_value_that_is_no_date_is_kept_as_given(raw: str) -> None:
    assert wikidata_date(raw, "9") == raw


def test_a_statement_row_gives_start_end_and_point_in_time() -> None:
    def literal(value: str, datatype: str) -> dict[str, str]:
        return {"type": "literal", "datatype": datatype, "value": value}

    dt, integer = "http://www.w3.org/2001/XMLSchema#dateTime", "xsd:integer"
    row = {
        "start": literal("1871-01-18T00:00:00Z", dt),
        "startPrecision": literal("11", integer),
        "end": literal("1945-06-05T00:00:00Z", dt),
        "endPrecision": literal("9", integer),
        "point": {"type": "uri", "value": "http://www.wikidata.org/.well-known/genid/1"},
    }
    assert statement_dates(row) == ["1871-01-18", "1945", None]


def test_an_edge_takes_every_date_from_its_latest_statement() -> None:
    old, new = ["1871-01-18", "1945-06-05", None], ["1990-10-03", None, None]
    assert latest([old, new]) == latest([new, old]) == new  # never start 1990 with end 1945
    assert latest([[None, None, "2001"], ["1999-12-31", None, None]]) == [None, None, "2001"]
    assert latest([["-0100", None, None], ["-0044", None, None]]) == ["-0044", None, None]
    raw = ["-0500-00-00T00:00:00Z", None, None]
    assert latest([raw, ["-0044", None, None]]) == ["-0044", None, None]  # a date wins
    assert latest([raw]) == raw


def test_the_statement_query_reads_qualifiers_of_non_deprecated_statements() -> None:
    query = dates_query([("Q183", "P36", "Q64"), ("Q30", "P38", "Q4917")])
    values = "(wd:Q183 p:P36 ps:P36 wd:Q64) (wd:Q30 p:P38 ps:P38 wd:Q4917)"
    assert f"VALUES (?subject ?claim ?statementValue ?object) {{\n    {values}\n  }}" in query
    assert "?subject ?claim ?statement .\n  ?statement ?statementValue ?object ." in query
    for pid, var in (("P580", "start"), ("P582", "end"), ("P585", "point")):
        assert f"?statement pqv:{pid} ?{var}Value ." in query
        assert f"wikibase:timePrecision ?{var}Precision" in query
    assert "FILTER NOT EXISTS { ?statement wikibase:rank wikibase:DeprecatedRank . }" in query


def test_edge_dates_reads_only_the_wanted_edges() -> None:
    rows = json.loads((FIXTURES / "dates.json").read_text(encoding="utf-8"))["results"]
    wanted = {("Q183", "P36", "Q64"), ("Q96", "P36", "Q1489")}
    found = list(edge_dates(rows["bindings"], wanted))
    assert found == [
        (("Q183", "P36", "Q64"), ["1871-01-18", "1945-06-05", None]),
        (("Q183", "P36", "Q64"), ["1990-10-03", None, None]),
    ]  # Mexico's capital: only an unknown value, no date


def test_years_land_on_the_right_edges(conn, server, tmp_path: Path) -> None:
    report = build(conn, server, tmp_path / "cache")
    stored = stored_dates(conn)
    dated = {edge: dates for edge, dates in stored.items() if any(dates)}
    assert dated == EXPECTED
    assert report.dated_edges == len(EXPECTED)
    assert stored[("Q96", "P36", "Q1489")] == (None, None, None)
    temporal = {r[0] for r in conn.execute("SELECT key FROM predicate WHERE temporal = 1")}
    assert temporal == {p for _, p, _ in EXPECTED}
    assert sum(1 for q in server.queries if "?statementValue" in q) == 2  # 75 edges, chunks of 50

    kg = load_kg(conn, "wd")
    years = {
        (kg.entity_keys[kg.s[i]], kg.pred_keys[kg.p[i]], kg.entity_keys[kg.o[i]]): fact_year(
            kg.start[i], kg.end[i], kg.point_in_time[i]
        )
        for i in range(len(kg.s))
    }
    assert years[("Q183", "P36", "Q64")] == 1990
    assert years[("Q30", "P38", "Q4917")] == 1792
    assert years[("Q567", "P19", "Q1055")] == 1954
    assert years[("Q16", "P47", "Q30")] is None  # the malformed date is in no year
    assert sum(1 for y in years.values() if y is not None) == len(EXPECTED) - 2
