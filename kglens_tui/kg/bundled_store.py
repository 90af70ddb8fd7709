"""Bundled KGs kept stored on disk between processes: parsing a bundled KG and storing its rows
cost about 0.2 s of CPU (country, places) for every fresh workspace; copying the rows from a
stored copy costs about 0.015 s.

The copy is a SQLite file under the user's cache directory (``$KGLENS_KG_CACHE`` instead; "off"
or empty: never kept) holding the rows an import stores in an empty workspace, named after the
KG and a key of everything those rows depend on: the bundled KG's files, the source of the
modules that parse and store it (kglens_tui/kg/*.py) and the schema's migrations. Any change of
them stores it again; a missing, torn or unreadable file too, and a directory that cannot be
written is only not used. One process stores a copy at a time (a lock file beside it). A workspace takes the rows in with ATTACH and INSERT ... SELECT, their
ids shifted as an import numbers them (each table's largest id + 1 on): the same rows and ids
an import of the parsed files stores (tests/kg/test_bundled_store.py)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from kglens_tui.kg.bundled_data import bundled_root, bundled_source
from kglens_tui.kg.disk_cache import building, cache_dir
from kglens_tui.kg.importers import ImportReport, KGExistsError, store_parsed
from kglens_tui.kg.parsed import ParsedKG
from kglens_tui.store.connection import connect, migrations, transaction

STORE_ENV = "KGLENS_KG_CACHE"
_REPORT_TABLE = "bundled_import_report"


def store_dir() -> Path | None:
    """Where copies are kept: ``$KGLENS_KG_CACHE``, else the user cache directory's ``bundled-kgs``
    (`disk_cache.cache_dir`)."""
    return cache_dir(STORE_ENV, "bundled-kgs")


@cache
def _key(name: str) -> str:
    """A digest of the KG's files, the kg modules' source and the migrations."""
    digest = hashlib.sha256()
    root = bundled_root() / name
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(f"\0data:{path.relative_to(root).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(f"\0code:{path.name}\0".encode())
        digest.update(path.read_bytes())
    for version, migration, sql in migrations():
        digest.update(f"\0sql:{version}:{migration}\0{sql}".encode())
    return digest.hexdigest()[:16]


def copy_path(name: str) -> Path | None:
    """Where the stored copy of the bundled KG `name` is (or goes); None when none is kept."""
    where = store_dir()
    return None if where is None else where / f"{name}-{_key(name)}.db"


def _readable(path: Path, name: str) -> bool:
    """Whether `path` is a whole stored copy of `name` (a torn or foreign file is not)."""
    if not path.is_file():
        return False
    try:
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            kg = src.execute("SELECT name FROM kg").fetchall()
            report = src.execute(f"SELECT report FROM {_REPORT_TABLE}").fetchall()
        finally:
            src.close()
    except sqlite3.Error:
        return False
    return kg == [(name,)] and len(report) == 1


def _write(path: Path, name: str, parsed: ParsedKG) -> None:
    """Store `parsed` alone in a new workspace file and move it to `path` whole (a reader sees
    no file or the whole one); the copies of `name` under other keys are dropped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{name}-", suffix=".tmp")
    except OSError:
        return  # a cache directory that cannot be written: the next workspace imports again
    os.close(fd)
    Path(tmp).unlink()
    try:
        conn = connect(tmp)
        try:
            report = store_parsed(conn, parsed, name, source=bundled_source(name))
            conn.execute(f"CREATE TABLE {_REPORT_TABLE} (report TEXT NOT NULL)")
            conn.execute(
                f"INSERT INTO {_REPORT_TABLE} VALUES (?)",
                (
                    json.dumps(
                        {
                            "duplicates_merged": report.duplicates_merged,
                            "self_loops": report.self_loops,
                            "warnings": report.warnings,
                        }
                    ),
                ),
            )
            conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            conn.close()
        os.replace(tmp, path)
    except (OSError, sqlite3.Error):
        for leftover in (tmp, f"{tmp}-wal", f"{tmp}-shm", f"{tmp}-journal"):
            Path(leftover).unlink(missing_ok=True)
        return
    for old in path.parent.glob(f"{name}-*.db"):
        if old != path:
            old.unlink(missing_ok=True)


def stored_copy(name: str, parse: Callable[[], ParsedKG]) -> Path | None:
    """The stored copy of the bundled KG `name`, made from `parse()` when missing or unreadable;
    None when no copy is kept or it cannot be written."""
    path = copy_path(name)
    if path is None:
        return None
    if not _readable(path, name):
        with building(path.parent / f"{name}.lock"):  # processes starting together store it once
            if not _readable(path, name):
                _write(path, name, parse())
        if not _readable(path, name):
            return None
    return path


_TABLES = (
    # table, columns shifted by the entity, predicate, edge or subset ids' offset
    ("entity", {"id": "e"}),
    ("entity_group", {"entity_id": "e"}),
    ("predicate", {"id": "p"}),
    ("edge", {"id": "x", "subject_id": "e", "predicate_id": "p", "object_id": "e"}),
    ("subset", {"id": "s"}),
    ("subset_member", {"subset_id": "s", "entity_id": "e"}),
)


def copy_into(conn: sqlite3.Connection, path: Path, name: str) -> ImportReport:
    """Store the rows of the copy at `path` in the workspace as the KG `name`, in one
    transaction, with the ids an import would give them. KGExistsError when a KG of that name
    is there already (another connection imported it meanwhile)."""
    started = time.perf_counter()
    conn.execute("ATTACH DATABASE ? AS bundled_copy", (f"file:{path}?mode=ro",))
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        try:
            with transaction(conn):
                return _copy_rows(conn, name, started)
        finally:
            conn.execute("PRAGMA foreign_keys = ON")
    finally:
        conn.execute("DETACH DATABASE bundled_copy")


def _copy_rows(conn: sqlite3.Connection, name: str, started: float) -> ImportReport:
    if conn.execute("SELECT 1 FROM main.kg WHERE name = ?", (name,)).fetchone() is not None:
        raise KGExistsError(f"a KG named '{name}' already exists (use --replace to overwrite)")
    src_kg, description, source, snapshot, content_hash = conn.execute(
        "SELECT id, description, source, snapshot_date, content_hash FROM bundled_copy.kg"
    ).fetchone()
    kg_id = conn.execute(
        "INSERT INTO main.kg(name, description, source, snapshot_date, content_hash) "
        "VALUES (?,?,?,?,?)",
        (name, description, source, snapshot, content_hash),
    ).lastrowid
    offset = {  # an import into an empty workspace numbers each table from 1
        key: int(conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM main.{table}").fetchone()[0])
        for key, table in (("e", "entity"), ("p", "predicate"), ("x", "edge"), ("s", "subset"))
    }
    for table, shifted in _TABLES:
        columns = [str(r[1]) for r in conn.execute(f"PRAGMA main.table_info({table})")]
        values = []
        for column in columns:
            if column == "kg_id":
                values.append(str(int(kg_id or 0)))
            elif column in shifted:
                values.append(f"{column} + {offset[shifted[column]]}")
            else:
                values.append(column)
        where = f"WHERE kg_id = {int(src_kg)}" if "kg_id" in columns else ""
        order = "ORDER BY rowid" if "id" in columns else ""
        conn.execute(
            f"INSERT INTO main.{table}({', '.join(columns)}) "
            f"SELECT {', '.join(values)} FROM bundled_copy.{table} {where} {order}"
        )
    counts = [
        int(conn.execute(f"SELECT COUNT(*) FROM bundled_copy.{t}").fetchone()[0])
        for t in ("entity", "predicate", "edge")
    ]
    report = json.loads(
        conn.execute(f"SELECT report FROM bundled_copy.{_REPORT_TABLE}").fetchone()[0]
    )
    return ImportReport(
        name=name,
        entities=counts[0],
        predicates=counts[1],
        edges=counts[2],
        duplicates_merged=int(report["duplicates_merged"]),
        self_loops=[str(s) for s in report["self_loops"]],
        seconds=time.perf_counter() - started,
        warnings=[str(w) for w in report["warnings"]],
    )
