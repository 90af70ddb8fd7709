"""Knowledge graphs shipped inside the package (built by scripts/build_bundled_kgs.py)."""

from __future__ import annotations

import sqlite3
from functools import cache

from kglens_tui.kg.bundled_data import bundled_names, bundled_root, bundled_source
from kglens_tui.kg.bundled_store import copy_into, stored_copy
from kglens_tui.kg.importers import ImportReport, KGExistsError, parse_path, store_parsed
from kglens_tui.kg.parsed import ParsedKG


def kg_exists(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the workspace already holds a KG of that name."""
    return conn.execute("SELECT 1 FROM kg WHERE name = ?", (name,)).fetchone() is not None


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
    with a line saying where the KG is and how to rename it back (`graph.load_kg`). The rows
    come from the KG's stored copy when one is kept (`bundled_store`), else from its files."""
    if kg_exists(conn, name) or name not in bundled_names():
        return None
    if renamed_bundled(conn, name) is not None:
        return None
    try:
        copy = None if conn.in_transaction else stored_copy(name, lambda: _parsed(name))
        if copy is not None:  # ATTACH is refused inside a transaction
            return copy_into(conn, copy, name)
        return store_parsed(conn, _parsed(name), name, source=bundled_source(name))
    except KGExistsError:  # another connection imported it meanwhile (the app's first start)
        return None


@cache
def _parsed(name: str) -> ParsedKG:
    """A bundled KG parsed once per process: its files are read-only package data, and parsing
    is most of an import (a process that sets up several workspaces stores it again only)."""
    return parse_path(bundled_root() / name)
