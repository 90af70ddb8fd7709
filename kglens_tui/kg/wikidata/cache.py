"""On-disk cache of SPARQL responses, keyed by a hash of the query text, and atomic JSON files.

A rerun of an interrupted build finds every finished query here and sends only the missing ones.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from kglens_tui.core.safewrite import atomic_output

CACHE_ENV = "KGLENS_WIKIDATA_CACHE"
"""The cache directory when --cache is not given."""


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON over `path` through core.safewrite (never a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path, force=True) as fh:
        json.dump(data, fh, ensure_ascii=False)


def read_json(path: Path) -> Any | None:
    """The JSON in a file, or None when it is missing or unreadable (then it is refetched)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


class ResponseCache:
    """Validated SPARQL JSON responses under `directory`/responses, one file per query."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)

    @staticmethod
    def key(query: str) -> str:
        return hashlib.sha256(query.encode("utf-8")).hexdigest()

    def path(self, query: str) -> Path:
        key = self.key(query)
        return self.directory / "responses" / key[:2] / f"{key}.json"

    def get(self, query: str) -> dict[str, Any] | None:
        """The stored response for exactly this query text, or None."""
        entry = read_json(self.path(query))
        if not isinstance(entry, dict) or entry.get("query") != query:
            return None
        response = entry.get("response")
        return response if isinstance(response, dict) else None

    def put(self, query: str, response: dict[str, Any]) -> None:
        write_json_atomic(self.path(query), {"query": query, "response": response})

    def __len__(self) -> int:
        return sum(1 for _ in (self.directory / "responses").glob("*/*.json"))
