"""Entities of kinds no source covers by key take answer-only names by their own names (issue
#34): a place of discovery named like a country is that country, a historical state is found
among ISO 3166-3's former countries; never an entity whose name another of its type shares."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import TypeNames
from kglens_tui.kg.answer_names import answer_names, historic_names
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.store.connection import connect


@pytest.fixture(scope="module")
def kgs():
    conn = connect(":memory:")
    try:
        out = {}
        for name in ("elements", "places"):
            ensure_kg(conn, name)
            out[name] = TypeNames(load_kg(conn, name))
        yield out
    finally:
        conn.close()


def test_a_place_named_like_a_country_is_the_country() -> None:
    names = answer_names("place:spain", "Spain", ("Spain",)).names
    assert {"España", "Espagne", "Spanien"} <= set(names)
    assert answer_names("place:spain", "Spain").names == ()  # found by its names only


def test_former_countries_by_any_of_their_names() -> None:
    ussr = answer_names("state:soviet-union", "Soviet Union", ("Soviet Union", "USSR")).names
    assert "Union of Soviet Socialist Republics" in ussr
    assert answer_names("state:x", "Ottoman Empire", ("Ottoman Empire",)).names == ()
    every = {n for names in historic_names() for n in names}
    assert {"Republic of Zaire", "Socialist Federal Republic of Yugoslavia"} <= every
    assert "Metropolitan" not in every and "Democratic" not in every  # qualifiers alone


def test_run_tables_find_them(kgs) -> None:
    (spain,) = kgs["elements"].answer_only("location", [["Spain"]])
    assert "España" in spain.names
    # "Guam" names two places of the places KG (a US subdivision and its county-level
    # namesake): neither is taken for the territory Guam of ISO 3166
    places = kgs["places"]
    places.answer_only("place", [["Guam"]])
    assert "guam" in places._shared["place"]
    assert (
        "Guam" in answer_names("place:x", "Guam", ("Guam",)).names
        or answer_names("place:x", "Guam", ("Guam",)).names
    )  # alone it would be
    (guam,) = places.answer_only("place", [["Guam"]])
    assert guam.names == ()
