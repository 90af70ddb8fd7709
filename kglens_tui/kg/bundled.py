"""Knowledge graphs shipped inside the package (built by scripts/build_bundled_kgs.py)."""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from importlib import resources
from pathlib import Path

from kglens_tui.kg.importers import ImportReport, parse_path, store_parsed
from kglens_tui.kg.parsed import ParsedKG


def bundled_root() -> Path:
    """The folder holding one sub-folder per bundled KG."""
    return Path(str(resources.files("kglens_tui.kg") / "data"))


def bundled_names() -> list[str]:
    """Names of the KGs shipped inside the package."""
    root = bundled_root()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "triples.jsonl").is_file())


def bundled_meta(name: str) -> dict:
    """The meta.json of a bundled KG (description, snapshot date, sources)."""
    path = bundled_root() / name / "meta.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def bundled_transitive(name: str) -> list[str]:
    """The transitive predicates a bundled KG declares (meta.json `transitive`): the ones the
    KONTEST ontological oracle walks when none is named."""
    return [str(k) for k in bundled_meta(name).get("transitive", [])]


def kg_exists(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the workspace already holds a KG of that name."""
    return conn.execute("SELECT 1 FROM kg WHERE name = ?", (name,)).fetchone() is not None


def bundled_source(name: str) -> str:
    """The `kg.source` of the bundled KG `name` once imported: what marks it as that KG."""
    return f"bundled:{name}"


def renamed_bundled(conn: sqlite3.Connection, name: str) -> str | None:
    """The name the bundled KG `name` has in the workspace if that is another (it was renamed
    when renaming a bundled KG away was still allowed); None otherwise."""
    row = conn.execute(
        "SELECT name FROM kg WHERE source = ? AND name != ? ORDER BY id LIMIT 1",
        (bundled_source(name), name),
    ).fetchone()
    return None if row is None else str(row[0])


def ensure_kg(conn: sqlite3.Connection, name: str) -> ImportReport | None:
    """Import a bundled KG into the workspace the first time it is named; None if present.

    Also None, importing nothing, when the workspace holds that bundled KG under another name
    (`renamed_bundled`): a second copy is never imported unnoticed. Loading `name` then fails
    with a line saying where the KG is and how to rename it back (`graph.load_kg`)."""
    if kg_exists(conn, name) or name not in bundled_names():
        return None
    if renamed_bundled(conn, name) is not None:
        return None
    return store_parsed(conn, _parsed(name), name, source=bundled_source(name))


@cache
def _parsed(name: str) -> ParsedKG:
    """A bundled KG parsed once per process: its files are read-only package data, and parsing
    is most of an import (a process that sets up several workspaces stores it again only)."""
    return parse_path(bundled_root() / name)
