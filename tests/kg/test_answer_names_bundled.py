"""The answer-only names the build takes from GeoNames, the CIA World Factbook and the ISO 639
tables (kglens_tui/kg/data/country/answer_names.jsonl, `scripts/build_answer_names.py`): they
name their entity in a reply, and none is another place's or language's name (a near miss must
stay a miss)."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest

from kglens_tui.answers.matcher import check_edge_wh
from kglens_tui.answers.mentions import TypeNames
from kglens_tui.answers.words import normalize
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import (
    BUNDLED_FILE,
    answer_names,
    bundled_answer_names,
    territory_names,
)
from kglens_tui.kg.bundled_data import bundled_root
from kglens_tui.kg.graph import KGIndex

KINDRED = {
    "city": {"city", "country", "territory", "historical_state"},
    "country": {"city", "country", "territory", "historical_state"},
    "language": {"language", "country", "territory"},
}
"""The KG types whose names an answer-only name of each kind must not be (the build's rule)."""


@pytest.fixture(scope="module")
def kg(country_kg: KGIndex) -> KGIndex:
    return country_kg


@pytest.fixture(scope="module")
def names(kg: KGIndex) -> TypeNames:
    return TypeNames(kg)


def _rows() -> list[dict]:
    path = bundled_root().joinpath(*BUNDLED_FILE)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_file_names_entities_of_the_country_kg_by_source(kg: KGIndex) -> None:
    rows = _rows()
    assert rows == sorted(rows, key=lambda r: (r["id"], r["source"]))
    assert {r["source"] for r in rows} == {"geonames", "factbook", "iso639"}
    keys = set(kg.entity_keys)
    for row in rows:
        assert row["id"] in keys and row["names"], row["id"]
        assert kg.types[kg.node(row["id"])] in KINDRED
    assert len(bundled_answer_names()) == len({r["id"] for r in rows})


def test_no_answer_only_name_is_another_entitys_name(kg: KGIndex) -> None:
    """A former or alternative name that is another place's or language's current name (in the
    KG, or CLDR's name of another territory) is no answer-only name, and no two entities share
    one: "Republic of the Congo" never names DR Congo, "Spanish Sahara" (Morocco's and Western
    Sahara's in the Factbook) neither."""
    owners: dict[str, set[str]] = defaultdict(set)
    for node, key in enumerate(kg.entity_keys):
        for name in kg.names(node):
            owners[normalize(name)].add(key)
    cldr: dict[str, set[str]] = defaultdict(set)
    for code, territory in territory_names().items():
        for name in territory:
            cldr[normalize(name)].add(code)
    seen: dict[str, str] = {}
    for key, extra in bundled_answer_names().items():
        kind = kg.types[kg.node(key)]
        for name in extra:
            folded = normalize(name)
            assert seen.setdefault(folded, key) == key, (name, key, seen[folded])
            others = {
                k
                for k in owners.get(folded, ())
                if k != key and kg.types[kg.node(k)] in KINDRED[kind]
            }
            assert not others, (name, key, others)
            if kind == "country" and folded in cldr:
                assert cldr[folded] <= {key_alpha2(kg, key)}, (name, key, cldr[folded])


def key_alpha2(kg: KGIndex, key: str) -> str:
    import pycountry

    return pycountry.countries.get(alpha_3=key.partition(":")[2]).alpha_2


@pytest.mark.parametrize(
    ("key", "label", "has", "lacks"),
    [
        # rules 13: "Pekin" (Pekin, Illinois, has it too) is kept; "Saint John" (71,808 people in
        # New Brunswick) is not
        ("city:beijing-chn", "Beijing", {"Peking", "北京", "Pekin"}, set()),
        ("city:saint-johns-atg", "Saint John's", set(), {"Saint John"}),
        ("city:victoria-syc", "Victoria", set(), {"Mahe", "Mahé"}),  # the island it stands on
        ("city:bern-che", "Bern", {"Berne"}, set()),
        ("city:vienna-aut", "Vienna", {"Wien"}, set()),  # rules 35 keep GeoNames' "Vine", "Wean"
        ("country:THA", "Thailand", {"Siam"}, set()),
        ("country:COD", "DR Congo", {"Zaire", "Belgian Congo"}, {"Republic of the Congo"}),
        ("country:MAR", "Morocco", set(), {"Spanish Sahara", "Western Sahara"}),
        ("language:spa", "Spanish", {"Castilian"}, set()),
        ("language:nld", "Dutch", {"Flemish"}, set()),
    ],
)
def test_answer_names_take_the_bundled_names(
    kg: KGIndex, key: str, label: str, has: set[str], lacks: set[str]
) -> None:
    # the row names a real entity by its label (a typo'd key would pass the "lacks" rows idly)
    assert kg.labels[kg.node(key)] == label
    got = set(answer_names(key, label).names)
    assert got, key
    assert has <= got
    assert not lacks & got


def _edge(kg: KGIndex, subject: str, predicate: str) -> tuple[int, list[list[str]]]:
    s, p = kg.node(subject), kg.pred_keys.index(predicate)
    edge = int(np.flatnonzero((kg.s == s) & (kg.p == p))[0])
    return edge, [list(kg.names(int(o))) for o in kg.true_objects(s, p)]


@pytest.mark.parametrize(
    ("subject", "predicate", "reply", "verdict"),
    [
        ("country:CHN", "capital", "Peking.", Verdict.CORRECT),
        ("country:CHN", "capital", "北京", Verdict.CORRECT),
        ("country:CHE", "capital", "Berne.", Verdict.CORRECT),
        ("country:AUT", "capital", "Salzburg, famous for the vine.", Verdict.INCORRECT),
        ("country:MMR", "shares_border_with", "Siam.", Verdict.CORRECT),
        ("country:UGA", "shares_border_with", "Zaire.", Verdict.CORRECT),
        ("country:UGA", "shares_border_with", "The Republic of the Congo.", Verdict.INCORRECT),
        ("country:ESP", "official_language", "Castilian.", Verdict.CORRECT),
        ("country:ESP", "official_language", "Castilian and Portuguese.", Verdict.INCORRECT),
    ],
)
def test_replies_by_old_and_other_names_as_a_run_judges_them(
    kg: KGIndex, names: TypeNames, subject: str, predicate: str, reply: str, verdict: Verdict
) -> None:
    edge, answers = _edge(kg, subject, predicate)
    assert check_edge_wh(reply, answers, names, edge).verdict is verdict
