"""SPARQL text: the walk queries of paper appendix A.7, the entity filters of A.2.3 and the
queries that complete T(s, p); plus helpers that read their rows."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from kglens_tui.kg.wikidata.errors import WikidataResponseError

ENTITY_PREFIX = "http://www.wikidata.org/entity/"
DIRECT_PREFIX = "http://www.wikidata.org/prop/direct/"
CLAIM_PREFIX = "http://www.wikidata.org/prop/"
_QID = re.compile(r"^Q[1-9][0-9]*$")
_PID = re.compile(r"^P[1-9][0-9]*$")

Binding = dict[str, dict[str, str]]
"""One row of a SPARQL JSON result: variable name -> {"type", "value", "xml:lang"?...}."""

T = TypeVar("T")

FORWARD = """SELECT DISTINCT ?subject ?subjectLabel ?subjectDesc ?predicate ?predicateLabel ?predicateDesc ?object ?objectLabel ?objectDesc
WHERE {{
  VALUES ?subject {{
    {values}
  }}
  ?subject ?predicate ?object .
  ?subject rdfs:label ?subjectLabel .
  ?subject schema:description ?subjectDesc .
  ?property wikibase:directClaim ?predicate .
  ?property rdfs:label ?predicateLabel .
  ?property schema:description ?predicateDesc .
  ?object rdfs:label ?objectLabel .
  ?object schema:description ?objectDesc .
  FILTER (lang(?subjectLabel) = "en")
  FILTER (lang(?subjectDesc) = "en")
  FILTER (lang(?predicateLabel) = "en")
  FILTER (lang(?predicateDesc) = "en")
  FILTER (lang(?objectLabel) = "en")
  FILTER (lang(?objectDesc) = "en")
}}
ORDER BY UUID()
LIMIT {limit}
"""
"""Paper A.7.1: edges out of the frontier entities, in random order, up to a limit."""

BACKWARD = FORWARD.replace("VALUES ?subject {{", "VALUES ?object {{")
"""Paper A.7.2: edges into the frontier entities (the same query with VALUES on ?object)."""

ALIASES = """SELECT ?item ?alias
WHERE {{
  VALUES ?item {{
    {values}
  }}
  ?item skos:altLabel ?alias .
  FILTER (lang(?alias) = "en")
}}
"""
"""English aliases (skos:altLabel) of some entities."""

LANGUAGES = """SELECT ?item (COUNT(DISTINCT lang(?label)) AS ?languages) (SAMPLE(?links) AS ?sitelinks)
WHERE {{
  VALUES ?item {{
    {values}
  }}
  ?item rdfs:label ?label .
  OPTIONAL {{ ?item wikibase:sitelinks ?links . }}
}}
GROUP BY ?item
"""
"""In how many languages each entity has a label (paper A.2.3, filtering by language count), and
on how many Wikimedia sites it has a page (its sitelinks: the popularity filter)."""

COMPLETION = """SELECT DISTINCT ?subject ?predicate ?object ?objectLabel ?objectDesc
WHERE {{
  VALUES (?subject ?predicate) {{
    {values}
  }}
  ?subject ?predicate ?object .
  ?object rdfs:label ?objectLabel .
  FILTER (lang(?objectLabel) = "en")
  OPTIONAL {{
    ?object schema:description ?objectDesc .
    FILTER (lang(?objectDesc) = "en")
  }}
}}
"""
"""Every object of each (subject, predicate) pair, so T(s, p) is complete and a hard negative
(an object of p that is not in T(s, p)) is really false."""


def normalize_qid(text: str) -> str:
    """'Q30', 'wd:Q30' or an entity URI -> 'Q30'; ValueError for anything else."""
    value = text.strip()
    for prefix in (ENTITY_PREFIX, "wd:"):
        value = value.removeprefix(prefix)
    value = value.upper()
    if not _QID.match(value):
        raise ValueError(f"'{text}' is not a Wikidata item id like Q30")
    return value


def normalize_pid(text: str) -> str:
    """'P31', 'wdt:P31' or a property URI -> 'P31'; ValueError for anything else."""
    value = text.strip()
    for prefix in (DIRECT_PREFIX, "wdt:"):
        value = value.removeprefix(prefix)
    value = value.upper()
    if not _PID.match(value):
        raise ValueError(f"'{text}' is not a Wikidata property id like P31")
    return value


def chunks(items: Sequence[T], size: int) -> list[list[T]]:
    """Split a list into lists of at most `size` items (VALUES lists stay small)."""
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _values(ids: Iterable[str]) -> str:
    return " ".join(f"wd:{i}" for i in ids)


def forward_query(ids: Sequence[str], limit: int) -> str:
    return FORWARD.format(values=_values(ids), limit=int(limit))


def backward_query(ids: Sequence[str], limit: int) -> str:
    return BACKWARD.format(values=_values(ids), limit=int(limit))


def aliases_query(ids: Sequence[str]) -> str:
    return ALIASES.format(values=_values(ids))


def languages_query(ids: Sequence[str]) -> str:
    return LANGUAGES.format(values=_values(ids))


def completion_query(pairs: Sequence[tuple[str, str]]) -> str:
    values = " ".join(f"(wd:{s} wdt:{p})" for s, p in pairs)
    return COMPLETION.format(values=values)


def item_id(term: dict[str, str] | None) -> str | None:
    """The Q-id of a URI term naming a Wikidata item; None for literals and other URIs."""
    if not term or term.get("type") != "uri":
        return None
    value = term.get("value", "")
    if not value.startswith(ENTITY_PREFIX):
        return None
    qid = value[len(ENTITY_PREFIX) :]
    return qid if _QID.match(qid) else None


def property_id(term: dict[str, str] | None) -> str | None:
    """The P-id of a direct-claim predicate URI (wdt:P..); None otherwise."""
    if not term or term.get("type") != "uri":
        return None
    value = term.get("value", "")
    if not value.startswith(DIRECT_PREFIX):
        return None
    pid = value[len(DIRECT_PREFIX) :]
    return pid if _PID.match(pid) else None


def claim_id(term: dict[str, str] | None) -> str | None:
    """The P-id of a statement predicate URI (p:P..); None otherwise."""
    if not term or term.get("type") != "uri":
        return None
    value = term.get("value", "")
    if not value.startswith(CLAIM_PREFIX):
        return None
    pid = value[len(CLAIM_PREFIX) :]
    return pid if _PID.match(pid) else None


def text(row: Binding, var: str, label: str, *, required: bool = True) -> str:
    """The value of a literal variable; a clear error when a required one is missing."""
    term = row.get(var)
    if term is None:
        if required:
            raise WikidataResponseError(f"{label}: a result row has no ?{var}")
        return ""
    return str(term.get("value", "")).strip()


@dataclass(frozen=True)
class WalkRow:
    """One edge of a forward or backward walk, with English labels and descriptions."""

    subject: str
    subject_label: str
    subject_desc: str
    predicate: str
    predicate_label: str
    predicate_desc: str
    object: str
    object_label: str
    object_desc: str


def walk_rows(bindings: list[Binding], label: str) -> list[WalkRow]:
    """Rows of a walk query between two items over a direct claim; other rows are skipped. A
    missing or empty label becomes the id (labels are stored as the literal text given)."""
    rows = []
    for row in bindings:
        for var in ("subject", "predicate", "object"):
            if var not in row:
                raise WikidataResponseError(f"{label}: a result row has no ?{var}")
        s, p, o = item_id(row["subject"]), property_id(row["predicate"]), item_id(row["object"])
        if s is None or p is None or o is None:
            continue
        rows.append(
            WalkRow(
                s,
                text(row, "subjectLabel", label, required=False) or s,
                text(row, "subjectDesc", label, required=False),
                p,
                text(row, "predicateLabel", label, required=False) or p,
                text(row, "predicateDesc", label, required=False),
                o,
                text(row, "objectLabel", label, required=False) or o,
                text(row, "objectDesc", label, required=False),
            )
        )
    return rows


def int_value(row: Binding, var: str, label: str) -> int:
    """An integer literal (e.g. a COUNT); a clear error when it is not one."""
    value = text(row, var, label)
    try:
        return int(value)
    except ValueError:
        raise WikidataResponseError(f"{label}: ?{var} is not an integer: '{value}'") from None
