"""Where the KGs shipped inside the package are, what describes them, and the names they hold:
a bundled KG's name is taken for it in every workspace (it is imported on first use)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from kglens_tui.kg.names import KGNameError


def bundled_root() -> Path:
    """The folder holding one sub-folder per bundled KG."""
    return Path(str(resources.files("kglens_tui.kg") / "data"))


def bundled_names() -> list[str]:
    """Names of the KGs shipped inside the package."""
    root = bundled_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "triples.jsonl").is_file())


def bundled_meta(name: str) -> dict[str, Any]:
    """The meta.json of a bundled KG (description, snapshot date, sources)."""
    path = bundled_root() / name / "meta.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def bundled_transitive(name: str) -> list[str]:
    """The transitive predicates a bundled KG declares (meta.json `transitive`): the ones the
    KONTEST ontological oracle walks when none is named."""
    return [str(k) for k in bundled_meta(name).get("transitive", [])]


def bundled_source(name: str) -> str:
    """The `kg.source` of the bundled KG `name` once imported: what marks it as that KG."""
    return f"bundled:{name}"


def check_not_bundled(name: str, source: str) -> None:
    """KGNameError when ``name`` is a bundled KG's and ``source`` is not that KG: stored under
    it, another KG would stand in for the bundled one (`country` is the default KG)."""
    if name in bundled_names() and source != bundled_source(name):
        raise KGNameError(
            f"'{name}' is the name of a bundled KG (imported on first use): choose another"
        )
