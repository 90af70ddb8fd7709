"""Checks on the knowledge graphs bundled in kglens_tui/kg/data (built by
scripts/build_bundled_kgs.py). Standard library + pytest only: the JSONL files are read
directly, nothing from the package is imported."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path

import pytest

DATA_DIR = Path(__file__).resolve().parents[2] / "kglens_tui" / "kg" / "data"
KG_NAMES = sorted(p.name for p in DATA_DIR.iterdir() if (p / "entities.jsonl").is_file())
DATE_RE = re.compile(r"^\d{4}(-\d{2}-\d{2})?$")
PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")
PAPER16 = {
    "Australia",
    "Austria",
    "Belgium",
    "Canada",
    "Denmark",
    "Germany",
    "Italy",
    "Mexico",
    "Pakistan",
    "Philippines",
    "Poland",
    "Ireland",
    "Singapore",
    "Switzerland",
    "United Kingdom",
    "United States",
}


def read_lines(name: str, filename: str) -> list[str]:
    return (DATA_DIR / name / filename).read_text(encoding="utf-8").splitlines()


@cache
def load(name: str) -> dict:
    entities = [json.loads(line) for line in read_lines(name, "entities.jsonl")]
    triples = [json.loads(line) for line in read_lines(name, "triples.jsonl")]
    predicates = [json.loads(line) for line in read_lines(name, "predicates.jsonl")]
    subsets = json.loads((DATA_DIR / name / "subsets.json").read_text(encoding="utf-8"))
    meta = json.loads((DATA_DIR / name / "meta.json").read_text(encoding="utf-8"))
    return {
        "entities": entities,
        "by_id": {e["id"]: e for e in entities},
        "triples": triples,
        "predicates": {p["id"]: p for p in predicates},
        "predicate_list": predicates,
        "subsets": subsets,
        "meta": meta,
    }


def test_bundled_kgs_exist():
    assert "country" in KG_NAMES
    assert "elements" in KG_NAMES


# ---- country KG -------------------------------------------------------------------------------


def test_country_counts():
    kg = load("country")
    subjects = {t["subject"] for t in kg["triples"]}
    countries = [e for e in kg["entities"] if e["type"] == "country" and e["id"] in subjects]
    assert len(countries) >= 190
    assert len(kg["triples"]) >= 4000
    assert len(kg["predicates"]) >= 15
    active = {p for p, d in kg["predicates"].items() if d["active"]}
    assert sum(1 for t in kg["triples"] if t["predicate"] in active) >= 4000


def test_country_paper16_subset():
    kg = load("country")
    ids = kg["subsets"]["paper16"]
    assert len(ids) == 16 == len(set(ids))
    for eid in ids:
        assert kg["by_id"][eid]["type"] == "country"
    assert {kg["by_id"][eid]["label"] for eid in ids} == PAPER16


def test_country_core_predicates_present():
    kg = load("country")
    expected = {
        "capital",
        "shares_border_with",
        "official_language",
        "currency",
        "former_currency",
        "driving_side",
        "time_zone",
        "calling_code",
        "emergency_number",
        "head_of_state",
        "head_of_government",
        "member_of",
        "continent",
        "top_level_domain",
        "demonym",
        "form_of_government",
        "independence_year",
    }
    assert expected <= set(kg["predicates"])


def test_country_spot_facts():
    kg = load("country")
    facts = {(t["subject"], t["predicate"], t["object"]) for t in kg["triples"]}
    assert ("country:AUT", "capital", "city:vienna-aut") in facts
    assert ("country:AUT", "currency", "currency:EUR") in facts
    assert ("country:AUT", "former_currency", "currency:ATS") in facts
    assert ("country:GBR", "driving_side", "side:left") in facts
    assert ("country:DEU", "shares_border_with", "country:AUT") in facts
    assert ("country:AUT", "member_of", "org:EU") in facts
    assert ("country:USA", "calling_code", "callingcode:+1") in facts
    assert ("country:AUT", "emergency_number", "phone:112") in facts


def test_everyday_names_of_currencies_and_groups_are_aliases():
    """Names a person gives that CLDR and mendeleev lack: renminbi, the IUPAC group names."""
    names = {
        e["id"]: {e["label"].casefold(), *(a.casefold() for a in e["aliases"])}
        for kg in ("country", "elements")
        for e in load(kg)["entities"]
    }
    assert {"renminbi", "yuan"} <= names["currency:CNY"]
    assert "pound sterling" in names["currency:GBP"]
    assert "alkali metals" in names["group:1"]
    assert "alkaline earth metals" in names["group:2"]
    assert {"halogens", "chalcogens", "pnictogens"} <= names["group:17"] | names[
        "group:16"
    ] | names["group:15"]
    assert "noble gases" in names["group:18"]
    # a name shared by several currencies is no alias of one
    assert not any({"dollar", "rupee", "franc"} & n for n in names.values())


def test_country_former_facts_are_separate():
    """Ended facts live under former_* predicates with an end date; current ones have none."""
    kg = load("country")
    for t in kg["triples"]:
        if t["predicate"].startswith("former_") and t["predicate"] != "former_name":
            assert t["end"] is not None, t
            assert t["end"] < kg["meta"]["snapshot_date"], t
        else:
            assert t["end"] is None, t
    current = {(t["subject"], t["object"]) for t in kg["triples"] if t["predicate"] == "currency"}
    former = {
        (t["subject"], t["object"]) for t in kg["triples"] if t["predicate"] == "former_currency"
    }
    assert not current & former


def objects_of(kg: dict, subject: str, predicate: str) -> set[str]:
    """Labels of the objects a subject has for a predicate."""
    return {
        kg["by_id"][t["object"]]["label"]
        for t in kg["triples"]
        if t["subject"] == subject and t["predicate"] == predicate
    }


def test_country_official_languages_are_the_languages_a_person_names():
    """Languages are named as a person names them (German, not the spoken variety Swiss German;
    Norwegian, not its two written standards) and only where they are official."""
    kg = load("country")
    assert objects_of(kg, "country:CHE", "official_language") == {
        "German",
        "French",
        "Italian",
        "Romansh",
    }
    assert objects_of(kg, "country:NOR", "official_language") == {"Norwegian", "Sami"}
    assert objects_of(kg, "country:IRQ", "official_language") >= {"Arabic", "Kurdish"}
    assert objects_of(kg, "country:IRN", "official_language") == {"Persian"}
    assert objects_of(kg, "country:ESP", "official_language") >= {"Spanish", "Galician"}
    # REST Countries lists languages without official status here
    assert objects_of(kg, "country:ITA", "official_language") == {"Italian"}
    assert objects_of(kg, "country:CZE", "official_language") == {"Czech"}
    assert objects_of(kg, "country:NAM", "official_language") == {"English"}
    assert objects_of(kg, "country:IND", "official_language") == {"Hindi", "English"}
    languages = [e for e in kg["entities"] if e["type"] == "language"]
    variants = {"Swiss German", "Norwegian Bokmål", "Norwegian Nynorsk", "Sorani"}
    assert not [e["label"] for e in languages if e["label"] in variants]
    for e in languages:
        for name in (e["label"], *e["aliases"]):
            assert "(" not in name, (e["id"], name)  # "Modern Greek (1453-)", "Persian (Farsi)"
    galician = next(e for e in languages if e["label"] == "Galician")
    assert "Bon Gula" not in galician["aliases"]


def test_country_demonyms_are_single_words_a_person_uses():
    kg = load("country")
    for e in kg["entities"]:
        if e["type"] == "demonym":
            assert "," not in e["label"] and " or " not in e["label"], e
    assert objects_of(kg, "country:DJI", "demonym") == {"Djiboutian"}
    assert objects_of(kg, "country:ATG", "demonym") == {"Antiguan"}
    assert objects_of(kg, "country:KGZ", "demonym") == {"Kyrgyz"}


def utc_minutes(label: str) -> int:
    m = re.fullmatch(r"UTC([+-])(\d\d):(\d\d)", label)
    assert m, label
    minutes = int(m.group(2)) * 60 + int(m.group(3))
    return minutes if m.group(1) == "+" else -minutes


def test_country_time_zones_are_those_of_the_main_territory():
    """Overseas territories (the UK's nine, France's fourteen offsets) are not the country's
    time zones: only the metropolitan territory and its integral regions count."""
    kg = load("country")
    assert objects_of(kg, "country:GBR", "time_zone") == {"UTC+00:00"}
    assert objects_of(kg, "country:FRA", "time_zone") == {"UTC+01:00"}
    assert objects_of(kg, "country:NLD", "time_zone") == {"UTC+01:00"}
    assert objects_of(kg, "country:DNK", "time_zone") == {"UTC+01:00"}
    usa = objects_of(kg, "country:USA", "time_zone")
    assert usa == {f"UTC-{h:02d}:00" for h in range(5, 11)}  # Eastern to Hawaii-Aleutian
    assert "UTC+00:00" in objects_of(kg, "country:ESP", "time_zone")  # Canary Islands
    europe = {t["subject"] for t in kg["triples"] if t["object"] == "continent:Europe"}
    for t in kg["triples"]:
        if t["predicate"] == "time_zone" and t["subject"] in europe - {"country:RUS"}:
            assert -60 <= utc_minutes(kg["by_id"][t["object"]]["label"]) <= 4 * 60, t
    templates = kg["predicates"]["time_zone"]["templates"]
    for text in [*templates["yes_no"], templates["wh"], templates["statement"]]:
        assert "standard" in text, text  # daylight saving time is not asked about


def test_country_member_of_wh_lists_no_organisation():
    """The open question never lists the organisations: a list would give the answers away
    (issue #34; it listed all nine before)."""
    kg = load("country")
    wh = kg["predicates"]["member_of"]["templates"]["wh"]
    orgs = {t["object"] for t in kg["triples"] if t["predicate"] == "member_of"}
    assert len(orgs) == 9
    for oid in orgs:
        assert kg["by_id"][oid]["label"] not in wh, (oid, wh)


def test_country_has_a_dead_predicate():
    kg = load("country")
    assert any(not p["active"] for p in kg["predicates"].values())


# ---- every bundled KG ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", KG_NAMES)
def test_entities_well_formed(name):
    kg = load(name)
    ids = [e["id"] for e in kg["entities"]]
    assert len(ids) == len(set(ids)), "duplicate entity ids"
    for e in kg["entities"]:
        assert set(e) >= {"id", "label", "aliases", "type", "groups"}, e
        assert re.match(r"^[a-z_]+:\S", e["id"]), e["id"]
        assert e["label"].strip() == e["label"] and e["label"], e
        assert e["type"], e
        assert all(isinstance(a, str) and a.strip() for a in e["aliases"]), e
        assert e["label"] not in e["aliases"], e
        assert len(e["aliases"]) == len(set(e["aliases"])), e
        # a name, not a source's remark shown to annotators and in questions as an alias
        # ("...; note - the ...", "... (prior to 15 August 2021); current ... disputed")
        assert not any(";" in a or "(prior to" in a for a in e["aliases"]), e
        assert all(isinstance(g, str) and g for g in e["groups"]), e


@pytest.mark.parametrize("name", KG_NAMES)
def test_triples_refer_to_known_entities(name):
    kg = load(name)
    for t in kg["triples"]:
        assert t["subject"] in kg["by_id"], t
        assert t["object"] in kg["by_id"], t
        assert t["predicate"] in kg["predicates"], t
        assert t["subject"] != t["object"], f"self-loop: {t}"
        for key in ("start", "end", "point_in_time"):
            assert t[key] is None or DATE_RE.match(t[key]), t
        assert t["source"], t


@pytest.mark.parametrize("name", KG_NAMES)
def test_no_duplicate_triples(name):
    kg = load(name)
    keys = Counter((t["subject"], t["predicate"], t["object"]) for t in kg["triples"])
    assert not [k for k, n in keys.items() if n > 1]


@pytest.mark.parametrize("name", KG_NAMES)
def test_predicates_described(name):
    kg = load(name)
    used = {t["predicate"] for t in kg["triples"]}
    assert used == set(kg["predicates"]), "every used predicate described, none unused"
    per_sp = Counter((t["subject"], t["predicate"]) for t in kg["triples"])
    for pid, p in kg["predicates"].items():
        assert p["label"] and p["object_type"], pid
        tpl = p["templates"]
        assert len(tpl["yes_no"]) == 2 and tpl["yes_no"][0] != tpl["yes_no"][1], pid
        for text in [*tpl["yes_no"], tpl["wh"], tpl["statement"]]:
            assert set(PLACEHOLDER_RE.findall(text)) <= {"subject", "object"}, (pid, text)
        for text in [*tpl["yes_no"], tpl["statement"]]:
            assert "{subject}" in text and "{object}" in text, (pid, text)
        assert "{subject}" in tpl["wh"] and "{object}" not in tpl["wh"], pid
        assert tpl["wh"].endswith("?") and all(q.endswith("?") for q in tpl["yes_no"]), pid
        multi = any(n > 1 for (s, q), n in per_sp.items() if q == pid)
        assert p["multi_valued"] == multi, pid
        assert isinstance(p["active"], bool) and isinstance(p["temporal"], bool), pid


@pytest.mark.parametrize("name", KG_NAMES)
def test_object_types_match_predicates(name):
    """The probe draws hard negatives from objects of the same type: the declared object type
    must be the type of (at least most of) the predicate's objects."""
    kg = load(name)
    types: dict[str, Counter] = defaultdict(Counter)
    for t in kg["triples"]:
        types[t["predicate"]][kg["by_id"][t["object"]]["type"]] += 1
    for pid, counter in types.items():
        top, n = counter.most_common(1)[0]
        assert top == kg["predicates"][pid]["object_type"], (pid, counter)
        assert len(counter) <= 2, (pid, counter)  # e.g. person + organization discoverers


@pytest.mark.parametrize("name", KG_NAMES)
def test_every_question_has_a_negative(name):
    """No (subject, predicate) is true for every candidate object of its predicate."""
    kg = load(name)
    objects: dict[str, set] = defaultdict(set)
    true_sets: dict[tuple, set] = defaultdict(set)
    for t in kg["triples"]:
        objects[t["predicate"]].add(t["object"])
        true_sets[(t["subject"], t["predicate"])].add(t["object"])
    for (s, p), objs in true_sets.items():
        assert objs, (s, p)
        assert objects[p] - objs, f"{s} {p}: no candidate left for a 'No' question"


@pytest.mark.parametrize("name", KG_NAMES)
def test_files_sorted_and_canonical(name):
    """Deterministic output: sorted rows, one compact JSON object per line."""
    kg = load(name)
    ids = [e["id"] for e in kg["entities"]]
    assert ids == sorted(ids)
    keys = [(t["subject"], t["predicate"], t["object"]) for t in kg["triples"]]
    assert keys == sorted(keys)
    pids = [p["id"] for p in kg["predicate_list"]]
    assert pids == sorted(pids)
    for filename in ("entities.jsonl", "triples.jsonl", "predicates.jsonl"):
        raw = (DATA_DIR / name / filename).read_bytes()
        assert raw.endswith(b"\n") and b"\r" not in raw
        for line in read_lines(name, filename):
            assert line == json.dumps(json.loads(line), ensure_ascii=False)
    for subset, members in kg["subsets"].items():
        assert members == sorted(members) and members, subset
        assert all(m in kg["by_id"] for m in members), subset


@pytest.mark.parametrize("name", KG_NAMES)
def test_meta(name):
    meta = load(name)["meta"]
    assert meta["name"] == name
    assert meta["description"]
    assert DATE_RE.match(meta["snapshot_date"])
    assert meta["sources"] and all(isinstance(s, str) and s for s in meta["sources"])
    assert (DATA_DIR / "SOURCES.md").is_file()


def test_elements_counts():
    kg = load("elements")
    elements = [e for e in kg["entities"] if e["type"] == "element"]
    assert len(elements) == 118
    assert len(kg["triples"]) >= 1000
    assert len(kg["predicates"]) >= 10
    symbols = {e["label"]: e["aliases"] for e in elements}
    assert "Fe" in symbols["Iron"] and "Og" in symbols["Oganesson"]
