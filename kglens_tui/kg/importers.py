"""Import knowledge graphs from JSONL (entities + triples) and CSV/TSV triples.

Parsing validates everything before the database is touched; writing happens in one transaction,
so a bad file, or a crash half-way, leaves the database exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.json_text import to_json
from kglens_tui.kg.bundled_data import check_not_bundled
from kglens_tui.kg.csv_triples import parse_csv
from kglens_tui.kg.jsonl import parse_jsonl, read_extras
from kglens_tui.kg.parsed import KGImportError as KGImportError  # raised by import_kg
from kglens_tui.kg.parsed import ParsedKG, ProgressFn, check_exists
from kglens_tui.store.connection import transaction
from kglens_tui.textfmt import counted


@dataclass
class ImportReport:
    """What an import did."""

    name: str
    entities: int
    predicates: int
    edges: int
    duplicates_merged: int
    self_loops: list[str]
    seconds: float
    warnings: list[str] = field(default_factory=list)
    """One line each, naming the file and line: what was read but not imported."""

    def summary(self) -> str:
        """One paragraph for the terminal."""
        text = (
            f"imported '{self.name}': {counted(self.entities, 'entity', 'entities')}, "
            f"{counted(self.predicates, 'predicate')}, {counted(self.edges, 'edge')} in "
            f"{self.seconds:.1f}s"
        )
        if self.duplicates_merged:
            text += f"; {counted(self.duplicates_merged, 'duplicate triple')} merged"
        if self.self_loops:
            shown = ", ".join(self.self_loops[:5])
            more = f" (+{len(self.self_loops) - 5:,} more)" if len(self.self_loops) > 5 else ""
            text += f"; {counted(len(self.self_loops), 'self-loop')} skipped: {shown}{more}"
        return text


def parse_path(
    path: Path, entities: Path | None = None, progress: ProgressFn | None = None
) -> ParsedKG:
    """Parse a KG directory (entities.jsonl + triples.jsonl), a JSONL triples file, or CSV/TSV."""
    check_exists(path)
    if path.is_dir():
        ents, triples, preds = (
            path / "entities.jsonl",
            path / "triples.jsonl",
            path / "predicates.jsonl",
        )
        for needed in (ents, triples):
            if not needed.exists():
                raise KGImportError(
                    needed,
                    None,
                    None,
                    "missing: a KG directory needs entities.jsonl and triples.jsonl",
                )
        parsed = parse_jsonl(ents, triples, preds if preds.exists() else None, progress)
        read_extras(parsed, path)
        return parsed
    if path.suffix.lower() == ".jsonl":
        ents = entities or path.with_name("entities.jsonl")
        if not ents.exists():
            raise KGImportError(
                ents, None, None, "missing: JSONL triples need an entities file (--entities)"
            )
        return parse_jsonl(ents, path, None, progress)
    if path.suffix.lower() in (".csv", ".tsv", ".tab"):
        return parse_csv(path, progress)
    raise KGImportError(
        path, None, None, "unknown format: expected a directory, .jsonl, .csv or .tsv"
    )


Canonical = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""(order, s_rank, p_rank, o_rank): see `_canonical_order`."""


def _canonical_order(parsed: ParsedKG) -> Canonical:
    """Edges as arrays of entity/predicate ranks (by key), sorted by (subject, predicate, object).

    Returns (order, s_rank, p_rank, o_rank) where order lists triple rows in canonical order.
    """
    erank = np.empty(len(parsed.entities), dtype=np.int64)
    erank[sorted(range(len(parsed.entities)), key=lambda i: parsed.entities[i].key)] = np.arange(
        len(parsed.entities)
    )
    prank = np.empty(len(parsed.predicates), dtype=np.int64)
    prank[sorted(range(len(parsed.predicates)), key=lambda i: parsed.predicates[i].key)] = (
        np.arange(len(parsed.predicates))
    )
    s = erank[np.asarray(parsed.subjects, dtype=np.int64)]
    p = prank[np.asarray(parsed.preds, dtype=np.int64)]
    o = erank[np.asarray(parsed.objects, dtype=np.int64)]
    order = np.lexsort((o, p, s))
    return order, s[order], p[order], o[order]


def _names_json(names: list[str]) -> str:
    """`to_json` of an entity's aliases or groups, most of which are empty."""
    return "[]" if names == [] else to_json(names)


def content_hash(parsed: ParsedKG, canonical: Canonical | None = None) -> str:
    """A sha256 fingerprint of the KG's entities, predicates, templates and facts, independent of
    the order of lines in the files."""
    h = hashlib.sha256()
    for e in sorted(parsed.entities, key=lambda e: e.key):
        h.update(to_json([e.key, e.label, e.aliases, e.type, e.groups]).encode())
    for pred in sorted(parsed.predicates, key=lambda q: q.key):
        h.update(
            json.dumps([pred.key, pred.label, pred.active, pred.templates], sort_keys=True).encode()
        )
    order, s, p, o = canonical if canonical is not None else _canonical_order(parsed)
    h.update(np.stack((s, p, o)).astype("<i8").tobytes())
    rank_of_row = np.empty(len(order), dtype=np.int64)
    rank_of_row[order] = np.arange(len(order))
    dated = sorted((int(rank_of_row[row]), d) for row, d in parsed.dates.items())
    h.update(json.dumps(dated).encode())
    return h.hexdigest()


_EDGE_INDEXES = {
    "edge_spo": "CREATE UNIQUE INDEX edge_spo ON edge(kg_id, subject_id, predicate_id, object_id)",
    "edge_object": "CREATE INDEX edge_object ON edge(object_id)",
    "edge_predicate": "CREATE INDEX edge_predicate ON edge(predicate_id)",
}
"""The edge indexes of db/0001_kg.sql, rebuilt after a bulk import into a small workspace."""


class KGExistsError(KGLensError):
    """A KG with that name is already in the workspace."""


def write_kg(
    conn: sqlite3.Connection,
    parsed: ParsedKG,
    name: str,
    *,
    source: str = "",
    description: str = "",
    replace: bool = False,
) -> int:
    """Store a parsed KG under a name in one transaction; returns the new KG id.

    Every reference was validated while parsing, so foreign-key checks are switched off for the
    bulk insert (and back on after); edges go in sorted by (subject, predicate, object) so the
    unique index grows at its end.
    """
    canonical = _canonical_order(parsed)
    fingerprint = content_hash(parsed, canonical)
    cache = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    try:
        with transaction(conn):
            kg_id = _insert_kg(conn, parsed, name, source, description, replace, fingerprint)
            _insert_rows(conn, parsed, kg_id, canonical[0])
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")
        conn.execute("PRAGMA foreign_keys = ON")
    return kg_id


def _insert_kg(
    conn: sqlite3.Connection,
    parsed: ParsedKG,
    name: str,
    source: str,
    description: str,
    replace: bool,
    fingerprint: str,
) -> int:
    check_not_bundled(name, source)
    existing = conn.execute("SELECT id FROM kg WHERE name = ?", (name,)).fetchone()
    if existing is not None:
        if not replace:
            raise KGExistsError(f"a KG named '{name}' already exists (use --replace to overwrite)")
        _check_unused(conn, int(existing[0]), name)
        _delete_kg(conn, int(existing[0]))
    cur = conn.execute(
        "INSERT INTO kg(name, description, source, snapshot_date, content_hash) VALUES (?,?,?,?,?)",
        (
            name,
            description or parsed.meta.get("description", ""),
            source,
            parsed.meta.get("snapshot_date") or None,
            fingerprint,
        ),
    )
    assert cur.lastrowid is not None
    return cur.lastrowid


def _check_unused(conn: sqlite3.Connection, kg_id: int, name: str) -> None:
    """Refuse to replace a KG that runs, triage or annotation items refer to: its new edges
    would leave them pointing at nothing."""
    counts = (
        ("run", "runs", "SELECT COUNT(*) FROM run WHERE kg_id = ?", kg_id),
        ("triage entry", "triage entries", "SELECT COUNT(*) FROM triage WHERE kg_id = ?", kg_id),
        (
            "annotation item",
            "annotation items",
            "SELECT COUNT(*) FROM annotation_item WHERE kg = ?",
            name,
        ),
    )
    used = [
        (one, many, int(conn.execute(sql, (key,)).fetchone()[0])) for one, many, sql, key in counts
    ]
    if any(n for _, _, n in used):
        listed = ", ".join(counted(n, one, many) for one, many, n in used if n)
        raise KGExistsError(
            f"KG '{name}' cannot be replaced: it has {listed}, which would point at edges that "
            f"are gone; `kglens kg rm {name}` deletes it with them, or import under another name"
        )


def _delete_kg(conn: sqlite3.Connection, kg_id: int) -> None:
    """Delete a KG and its rows explicitly (foreign keys are off during an import)."""
    conn.execute(
        "DELETE FROM entity_group WHERE entity_id IN (SELECT id FROM entity WHERE kg_id = ?)",
        (kg_id,),
    )
    conn.execute(
        "DELETE FROM subset_member WHERE subset_id IN (SELECT id FROM subset WHERE kg_id = ?)",
        (kg_id,),
    )
    for table in ("subset", "edge", "predicate", "entity"):
        conn.execute(f"DELETE FROM {table} WHERE kg_id = ?", (kg_id,))
    conn.execute("DELETE FROM kg WHERE id = ?", (kg_id,))


def _insert_rows(conn: sqlite3.Connection, parsed: ParsedKG, kg_id: int, order: np.ndarray) -> None:
    ebase = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM entity").fetchone()[0])
    conn.executemany(
        "INSERT INTO entity(id, kg_id, key, label, aliases, type, groups, description) "
        "VALUES (?,?,?,?,?,?,?,?)",
        (
            (
                ebase + i,
                kg_id,
                e.key,
                e.label,
                _names_json(e.aliases),
                e.type,
                _names_json(e.groups),
                e.description,
            )
            for i, e in enumerate(parsed.entities)
        ),
    )
    conn.executemany(
        "INSERT INTO entity_group(entity_id, grp) VALUES (?, ?)",
        ((ebase + i, g) for i, e in enumerate(parsed.entities) for g in dict.fromkeys(e.groups)),
    )
    pbase = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM predicate").fetchone()[0])
    conn.executemany(
        "INSERT INTO predicate(id, kg_id, key, label, description, active, multi_valued, "
        "temporal, object_type, templates) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            (
                pbase + i,
                kg_id,
                p.key,
                p.label,
                p.description,
                int(p.active),
                int(p.multi_valued),
                int(p.temporal),
                p.object_type,
                to_json(p.templates),
            )
            for i, p in enumerate(parsed.predicates)
        ),
    )
    no_dates = (None, None, None)
    dates, src = parsed.dates, parsed.sources
    s_db = (np.asarray(parsed.subjects, dtype=np.int64)[order] + ebase).tolist()
    p_db = (np.asarray(parsed.preds, dtype=np.int64)[order] + pbase).tolist()
    o_db = (np.asarray(parsed.objects, dtype=np.int64)[order] + ebase).tolist()
    rows = order.tolist()
    rebuild = (  # the workspace's edges are counted only for a big KG
        len(rows) > 50_000 and len(rows) > conn.execute("SELECT COUNT(*) FROM edge").fetchone()[0]
    )
    if rebuild:  # a big KG into a small workspace: building the indexes once is faster
        for name in _EDGE_INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS {name}")
    conn.executemany(
        "INSERT INTO edge(kg_id, subject_id, predicate_id, object_id, start_time, end_time, "
        "point_in_time, source) VALUES (?,?,?,?,?,?,?,?)",
        (
            (kg_id, s, p, o, *dates.get(r, no_dates), src[r])
            for s, p, o, r in zip(s_db, p_db, o_db, rows, strict=True)
        ),
    )
    if rebuild:
        for sql in _EDGE_INDEXES.values():
            conn.execute(sql)
    for subset_name, members in parsed.subsets.items():
        sid = conn.execute(
            "INSERT INTO subset(kg_id, name) VALUES (?, ?)", (kg_id, subset_name)
        ).lastrowid
        conn.executemany(
            "INSERT OR IGNORE INTO subset_member(subset_id, entity_id) VALUES (?, ?)",
            ((sid, ebase + m) for m in members),
        )


def import_kg(
    conn: sqlite3.Connection,
    path: Path,
    name: str,
    *,
    entities: Path | None = None,
    replace: bool = False,
    progress: ProgressFn | None = None,
    source: str | None = None,
) -> ImportReport:
    """Parse, validate and store a KG file or directory; nothing is written unless all is valid."""
    started = time.perf_counter()
    parsed = parse_path(Path(path), entities, progress)
    if source is None:
        source = str(path)
        if source.startswith("bundled:"):  # would read as a bundled KG's mark (bundled.py)
            source = str(Path(path).absolute())
    return store_parsed(conn, parsed, name, source=source, replace=replace, started=started)


def store_parsed(
    conn: sqlite3.Connection,
    parsed: ParsedKG,
    name: str,
    *,
    source: str,
    replace: bool = False,
    started: float | None = None,
) -> ImportReport:
    """Store an already parsed KG (it is not changed, so a parse can be stored more than once)."""
    started = time.perf_counter() if started is None else started
    write_kg(conn, parsed, name, source=source, replace=replace)
    return ImportReport(
        name=name,
        entities=len(parsed.entities),
        predicates=len(parsed.predicates),
        edges=parsed.edge_count,
        duplicates_merged=parsed.duplicates_merged,
        self_loops=parsed.self_loops,
        seconds=time.perf_counter() - started,
        warnings=parsed.warnings,
    )
