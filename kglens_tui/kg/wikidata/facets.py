"""Entity types and group tags of a Wikidata KG, in the shape the bundled Country KG uses.

- type: the English label of the entity's instance-of (P31) class with the lowest Q-number (the
  oldest, usually most general class: "country" before "sovereign state", "city" before "big
  city"); "" without P31.
- `country:NAME` tags: each country (P17) of the entity, or for an entity without one (people)
  each country of citizenship (P27). Countries carry their own tag (Wikidata gives Germany the
  country Germany).
- `seed:NAME` tags: the seed(s) nearest to the entity over the KG's edges (either direction,
  dead edges included); a tie tags it with each.

A class or country without an English label is named by its Q-id; labels are stored as the
literal text Wikidata gave.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kglens_tui.kg.wikidata.queries import Binding, item_id, property_id, text
from kglens_tui.kg.wikidata.state import Edge

INSTANCE_OF, COUNTRY, CITIZENSHIP = "P31", "P17", "P27"
COUNTRY_TAG, SEED_TAG = "country:", "seed:"

FACETS = """SELECT ?item ?property ?value ?valueLabel
WHERE {{
  VALUES ?item {{
    {values}
  }}
  VALUES ?property {{ wdt:P31 wdt:P17 wdt:P27 }}
  ?item ?property ?value .
  OPTIONAL {{
    ?value rdfs:label ?valueLabel .
    FILTER (lang(?valueLabel) = "en")
  }}
}}
"""
"""Classes (P31), countries (P17) and countries of citizenship (P27) of some entities."""


def facets_query(ids: Sequence[str]) -> str:
    return FACETS.format(values=" ".join(f"wd:{i}" for i in ids))


def _qnum(qid: str) -> int:
    return int(qid[1:])


@dataclass
class Facets:
    """What the facets queries said, per entity: property -> {value Q-id: its label}."""

    values: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    def add(self, bindings: Iterable[Binding], label: str) -> None:
        """Read the rows of one facets query; rows about non-items are skipped."""
        for row in bindings:
            qid, pid = item_id(row.get("item")), property_id(row.get("property"))
            value = item_id(row.get("value"))
            if qid is None or pid is None or value is None:
                continue
            name = text(row, "valueLabel", label, required=False) or value
            self.values.setdefault(qid, {}).setdefault(pid, {})[value] = name

    def _of(self, qid: str, pid: str) -> dict[str, str]:
        return self.values.get(qid, {}).get(pid, {})

    def type_of(self, qid: str) -> str:
        """The label of the entity's lowest-numbered P31 class, or ""."""
        classes = self._of(qid, INSTANCE_OF)
        return classes[min(classes, key=_qnum)] if classes else ""

    def country_tags(self, qid: str) -> list[str]:
        """`country:NAME` for each P17 value, else each P27 value."""
        countries = self._of(qid, COUNTRY) or self._of(qid, CITIZENSHIP)
        return [COUNTRY_TAG + countries[c] for c in sorted(countries, key=_qnum)]


def nearest_seeds(seeds: Sequence[str], edges: Iterable[Edge]) -> dict[str, list[str]]:
    """Each entity reachable from a seed -> the seeds at the smallest hop distance (in order)."""
    neighbours: dict[str, set[str]] = defaultdict(set)
    for s, _, o in edges:
        neighbours[s].add(o)
        neighbours[o].add(s)
    best: dict[str, tuple[int, list[str]]] = {}
    for seed in seeds:
        if seed not in neighbours:
            continue
        dist = {seed: 0}
        queue = deque([seed])
        while queue:
            node = queue.popleft()
            for nxt in neighbours[node]:
                if nxt not in dist:
                    dist[nxt] = dist[node] + 1
                    queue.append(nxt)
        for node, d in dist.items():
            if node not in best or d < best[node][0]:
                best[node] = (d, [seed])
            elif d == best[node][0]:
                best[node][1].append(seed)
    return {node: found for node, (_, found) in best.items()}


def group_tags(qid: str, facets: Facets, seed_labels: Sequence[str]) -> list[str]:
    """The sorted group tags of one entity: its countries and its nearest seeds."""
    tags = facets.country_tags(qid) + [SEED_TAG + name for name in seed_labels]
    return sorted(dict.fromkeys(tags))
