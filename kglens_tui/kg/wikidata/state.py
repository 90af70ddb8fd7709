"""What a walk has collected so far; saved after every step so a rerun resumes at the next one."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kglens_tui.kg.wikidata.cache import read_json, write_json_atomic

FORWARD, BACKWARD, COMPLETION = "forward", "backward", "completion"
STATE_VERSION = 1

Edge = tuple[str, str, str]


@dataclass
class WalkState:
    """Entities, predicates and edges found, filter results, and the frontier of the next step."""

    fingerprint: str
    next_step: int = 1
    frontier: list[str] = field(default_factory=list)
    entities: dict[str, tuple[str, str]] = field(default_factory=dict)
    predicates: dict[str, tuple[str, str]] = field(default_factory=dict)
    edges: dict[Edge, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    languages: dict[str, int] = field(default_factory=dict)
    sitelinks: dict[str, int] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)
    rejected: dict[str, str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    def add_entity(self, qid: str, label: str, description: str) -> None:
        if qid not in self.entities or not self.entities[qid][1]:
            self.entities[qid] = (label, description)

    def add_edge(self, edge: Edge, origin: str) -> None:
        """Record an edge; a forward sighting wins over the others (it counts for hubs)."""
        if edge not in self.edges or origin == FORWARD:
            self.edges[edge] = origin

    def to_json(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "fingerprint": self.fingerprint,
            "next_step": self.next_step,
            "frontier": self.frontier,
            "entities": {k: list(v) for k, v in sorted(self.entities.items())},
            "predicates": {k: list(v) for k, v in sorted(self.predicates.items())},
            "edges": [[*edge, origin] for edge, origin in sorted(self.edges.items())],
            "aliases": dict(sorted(self.aliases.items())),
            "languages": dict(sorted(self.languages.items())),
            "sitelinks": dict(sorted(self.sitelinks.items())),
            "kept": sorted(self.kept),
            "rejected": dict(sorted(self.rejected.items())),
            "seen": sorted(self.seen),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WalkState:
        return cls(
            fingerprint=data["fingerprint"],
            next_step=int(data["next_step"]),
            frontier=list(data["frontier"]),
            entities={k: (v[0], v[1]) for k, v in data["entities"].items()},
            predicates={k: (v[0], v[1]) for k, v in data["predicates"].items()},
            edges={(s, p, o): origin for s, p, o, origin in data["edges"]},
            aliases={k: list(v) for k, v in data["aliases"].items()},
            languages={k: int(v) for k, v in data["languages"].items()},
            sitelinks={k: int(v) for k, v in data.get("sitelinks", {}).items()},
            kept=set(data["kept"]),
            rejected=dict(data["rejected"]),
            seen=set(data["seen"]),
        )


def load_state(path: Path | None, fingerprint: str) -> WalkState | None:
    """The saved state of the same walk (same fingerprint), or None to start afresh."""
    if path is None:
        return None
    data = read_json(path)
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        return None
    if data.get("fingerprint") != fingerprint:
        return None
    try:
        return WalkState.from_json(data)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def save_state(path: Path | None, state: WalkState) -> None:
    if path is not None:
        write_json_atomic(path, state.to_json())
