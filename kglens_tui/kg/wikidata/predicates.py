"""Predicate analysis (paper A.2.2): predicates that are too common become dead edges.

Dead edges stay in the KG (they connect entities and feed propagation) but are never asked
about. A predicate is dead when any of these holds:

1. it is in the dead list (by default the classification and bookkeeping predicates below:
   "instance of", "member of", "part of", ...);
2. its objects are hubs: over the forward-walk edges, the predicate has on average more than
   `max_object_degree` subjects per distinct object (e.g. a hundred countries "member of" the
   United Nations). Backward-walk edges are not counted: a backward walk collects edges into
   its frontier, which makes every frontier entity a hub by construction;
3. it is on almost every subject: more than `max_subject_share` of the subjects of
   forward-walk edges carry it, once there are at least `min_subjects` such subjects.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

DEFAULT_DEAD_PREDICATES: dict[str, str] = {
    "P31": "instance of",
    "P279": "subclass of",
    "P361": "part of",
    "P463": "member of",
    "P910": "topic's main category",
    "P1151": "topic's main Wikimedia portal",
    "P1343": "described by source",
    "P1424": "topic's main template",
    "P2354": "has list",
    "P5008": "on focus list of Wikimedia project",
}


@dataclass(frozen=True)
class PredicateRule:
    """Thresholds of the dead-predicate rule (see the module docstring)."""

    dead_list: frozenset[str] = frozenset(DEFAULT_DEAD_PREDICATES)
    max_object_degree: float = 10.0
    max_subject_share: float = 0.8
    min_subjects: int = 20


def dead_predicates(
    predicates: Iterable[str],
    forward_edges: Iterable[tuple[str, str, str]],
    rule: PredicateRule,
) -> dict[str, str]:
    """Map each dead predicate to the reason, given all predicates and the forward-walk edges."""
    edges = list(forward_edges)
    per_predicate: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s, p, o in edges:
        per_predicate[p].append((s, o))
    subjects = {s for s, _, _ in edges}
    dead: dict[str, str] = {}
    for p in sorted(set(predicates)):
        if p in rule.dead_list:
            dead[p] = "in the dead list"
            continue
        pairs = per_predicate.get(p, [])
        if not pairs:
            continue
        objects = Counter(o for _, o in pairs)
        degree = len(pairs) / len(objects)
        if degree > rule.max_object_degree:
            top, count = objects.most_common(1)[0]
            dead[p] = (
                f"hub objects: {degree:.1f} subjects per object (> {rule.max_object_degree:g}; "
                f"{top} has {count})"
            )
            continue
        share = len({s for s, _ in pairs}) / len(subjects)
        if len(subjects) >= rule.min_subjects and share > rule.max_subject_share:
            dead[p] = f"on {share:.0%} of subjects (> {rule.max_subject_share:.0%})"
    return dead
