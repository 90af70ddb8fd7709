"""Import knowledge graphs from JSONL (entities + triples) and CSV/TSV triples.

Parsing validates everything before the database is touched; writing happens in one transaction,
so a bad file, or a crash half-way, leaves the database exactly as it was.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kglens_tui.store.connection import transaction

ProgressFn = Callable[[int, int], None]
"""Called with (lines read, total lines) while a file is parsed."""

_DATE = re.compile(r"^-?\d{1,4}(-\d{2}(-\d{2})?)?$")
_DATE_FIELDS = ("start", "end", "point_in_time")
_PROGRESS_EVERY = 20_000
_NO_DATES: list[str | None] = [None, None, None]


class KGImportError(Exception):
    """A bad input row: names the file, the line and the field."""

    def __init__(self, path: Path | str, line: int, field_name: str, message: str) -> None:
        self.path, self.line, self.field, self.message = str(path), line, field_name, message
        super().__init__(f"{path}, line {line}, field '{field_name}': {message}")


@dataclass
class EntityRow:
    key: str
    label: str
    aliases: list[str] = field(default_factory=list)
    type: str = ""
    groups: list[str] = field(default_factory=list)
    description: str = ""


@dataclass
class PredicateRow:
    key: str
    label: str
    description: str = ""
    active: bool = True
    multi_valued: bool = False
    temporal: bool = False
    object_type: str = ""
    templates: dict[str, Any] = field(default_factory=dict)


@dataclass
class ParsedKG:
    """A validated KG held in memory: entities, predicates and triples as integer indexes."""

    entities: list[EntityRow] = field(default_factory=list)
    entity_index: dict[str, int] = field(default_factory=dict)
    predicates: list[PredicateRow] = field(default_factory=list)
    predicate_index: dict[str, int] = field(default_factory=dict)
    subjects: list[int] = field(default_factory=list)
    preds: list[int] = field(default_factory=list)
    objects: list[int] = field(default_factory=list)
    dates: dict[int, list[str | None]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    subsets: dict[str, list[int]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    duplicates_merged: int = 0
    self_loops: list[str] = field(default_factory=list)
    _seen: dict[tuple[int, int, int], int] = field(default_factory=dict, repr=False)
    _strings: dict[str, str] = field(default_factory=dict, repr=False)

    def add_entity(self, row: EntityRow) -> int:
        idx = len(self.entities)
        self.entities.append(row)
        self.entity_index[row.key] = idx
        return idx

    def add_predicate(self, row: PredicateRow) -> int:
        idx = len(self.predicates)
        self.predicates.append(row)
        self.predicate_index[row.key] = idx
        return idx

    def add_triple(
        self, s: int, p: int, o: int, dates: list[str | None], source: str, line: int
    ) -> None:
        if s == o:
            self.self_loops.append(f"line {line}")
            return
        key = (s, p, o)
        prev = self._seen.get(key)
        if prev is not None:
            self.duplicates_merged += 1
            if any(dates):
                old = self.dates.setdefault(prev, [None, None, None])
                for i, value in enumerate(dates):
                    if old[i] is None and value is not None:
                        old[i] = value
            return
        row = len(self.subjects)
        self._seen[key] = row
        self.subjects.append(s)
        self.preds.append(p)
        self.objects.append(o)
        self.sources.append(self._strings.setdefault(source, source))
        if any(dates):
            self.dates[row] = dates

    @property
    def edge_count(self) -> int:
        return len(self.subjects)


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

    def summary(self) -> str:
        """One paragraph for the terminal."""
        text = (
            f"imported '{self.name}': {self.entities:,} entities, {self.predicates:,} predicates, "
            f"{self.edges:,} edges in {self.seconds:.1f}s"
        )
        if self.duplicates_merged:
            text += f"; {self.duplicates_merged:,} duplicate triples merged"
        if self.self_loops:
            shown = ", ".join(self.self_loops[:5])
            more = f" (+{len(self.self_loops) - 5} more)" if len(self.self_loops) > 5 else ""
            text += f"; {len(self.self_loops):,} self-loops skipped: {shown}{more}"
        return text


def _decoded_lines(path: Path, progress: ProgressFn | None) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without the newline) from a UTF-8 file, with a clear error on
    bad bytes. The file is decoded in one go (fast); progress counts lines."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise KGImportError(
            path, line, "(line)", f"invalid UTF-8 at byte {column} of the line"
        ) from None
    del data
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    for lineno, line in enumerate(lines, start=1):
        if progress is not None and lineno % _PROGRESS_EVERY == 0:
            progress(lineno, total)
        yield lineno, line
    if progress is not None:
        progress(total, total)


_raw_decode = json.JSONDecoder().raw_decode


def _json_lines(path: Path, progress: ProgressFn | None = None) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for every non-blank line of a JSONL file."""
    any_line = False
    for lineno, text in _decoded_lines(path, progress):
        if not text or text.isspace():
            continue
        any_line = True
        try:
            if text[0].isspace():
                text = text.lstrip()
            obj, end = _raw_decode(text)
            if end != len(text) and not text[end:].isspace():
                raise json.JSONDecodeError("Extra data", text, end)
        except json.JSONDecodeError as exc:
            raise KGImportError(path, lineno, "(line)", f"invalid JSON: {exc.msg}") from None
        if not isinstance(obj, dict):
            raise KGImportError(path, lineno, "(line)", "expected a JSON object")
        yield lineno, obj
    if not any_line:
        raise KGImportError(path, 1, "(file)", "the file is empty")


def _str(obj: dict, key: str, path: Path, line: int, *, required: bool = True) -> str:
    value = obj.get(key)
    if value is None:
        if required:
            raise KGImportError(path, line, key, "missing")
        return ""
    if not isinstance(value, str):
        raise KGImportError(path, line, key, f"expected a string, got {type(value).__name__}")
    value = value.strip()
    if required and not value:
        raise KGImportError(path, line, key, "empty")
    return value


def _str_list(obj: dict, key: str, path: Path, line: int) -> list[str]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KGImportError(path, line, key, "expected a list of strings")
    return [v.strip() for v in value if v.strip()]


def _date(value: Any, key: str, path: Path, line: int) -> str | None:
    if value is None or value == "":
        return None
    text = str(value).strip()
    if not _DATE.match(text):
        raise KGImportError(
            path, line, key, f"'{text}' is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"
        )
    return text


def clean_aliases(label: str, aliases: Iterable[str]) -> list[str]:
    """Aliases in their order, without the label and repeats (case-insensitive)."""
    seen = {label.casefold()}
    out = []
    for alias in aliases:
        if alias.casefold() not in seen:
            seen.add(alias.casefold())
            out.append(alias)
    return out


def default_templates(label: str) -> dict[str, Any]:
    """Question templates for a predicate that came without any."""
    return {
        "yes_no": [
            f"Is {{object}} the {label} of {{subject}}?",
            f"Is the {label} of {{subject}} {{object}}?",
        ],
        "wh": f"What is the {label} of {{subject}}?",
        "statement": f"The {label} of {{subject}} is {{object}}.",
    }


def _predicate_for(parsed: ParsedKG, key: str) -> int:
    idx = parsed.predicate_index.get(key)
    if idx is None:
        label = key.replace("_", " ")
        idx = parsed.add_predicate(
            PredicateRow(key=key, label=label, templates=default_templates(label))
        )
    return idx


def parse_jsonl(
    entities_path: Path,
    triples_path: Path,
    predicates_path: Path | None = None,
    progress: ProgressFn | None = None,
) -> ParsedKG:
    """Parse and validate an entities file, a triples file and an optional predicates file."""
    parsed = ParsedKG()
    for line, obj in _json_lines(entities_path):
        key = _str(obj, "id", entities_path, line)
        if key in parsed.entity_index:
            raise KGImportError(entities_path, line, "id", f"duplicate entity id '{key}'")
        label = _str(obj, "label", entities_path, line)
        parsed.add_entity(
            EntityRow(
                key=key,
                label=label,
                aliases=clean_aliases(label, _str_list(obj, "aliases", entities_path, line)),
                type=_str(obj, "type", entities_path, line, required=False),
                groups=_str_list(obj, "groups", entities_path, line),
                description=_str(obj, "description", entities_path, line, required=False),
            )
        )
    if predicates_path is not None:
        _parse_predicates(parsed, predicates_path)
    known_predicates = predicates_path is not None
    eidx, pidx = parsed.entity_index, parsed.predicate_index
    seen, strings = parsed._seen, parsed._strings
    subjects, preds, objects, sources = (
        parsed.subjects,
        parsed.preds,
        parsed.objects,
        parsed.sources,
    )
    for line, obj in _json_lines(triples_path, progress):
        try:
            si, oi = eidx[obj["subject"]], eidx[obj["object"]]
            pkey = obj["predicate"]
            pi = pidx[pkey] if known_predicates else pidx.get(pkey)
        except (KeyError, TypeError):
            si = oi = pi = None
        if si is None or oi is None or (known_predicates and pi is None) or not pkey:
            si, pkey, oi = _explain_triple(
                parsed, obj, triples_path, line, entities_path, predicates_path
            )
            pi = pidx.get(pkey)
        if pi is None:
            pi = _predicate_for(parsed, _str(obj, "predicate", triples_path, line))
        if len(obj) > 3 and (obj.get("start") or obj.get("end") or obj.get("point_in_time")):
            dates = [_date(obj.get(k), k, triples_path, line) for k in _DATE_FIELDS]
        else:
            dates = _NO_DATES
        source = obj.get("source") or ""
        if not isinstance(source, str):
            raise KGImportError(triples_path, line, "source", "expected a string")
        if si == oi or dates is not _NO_DATES or (si, pi, oi) in seen:
            parsed.add_triple(si, pi, oi, dates, source, line)
            continue
        seen[(si, pi, oi)] = len(subjects)
        subjects.append(si)
        preds.append(pi)
        objects.append(oi)
        sources.append(strings.setdefault(source, source))
    finish_parsed(parsed)
    return parsed


def _explain_triple(
    parsed: ParsedKG,
    obj: dict,
    path: Path,
    line: int,
    entities_path: Path,
    predicates_path: Path | None,
) -> tuple[int, str, int]:
    """Validate a triple the fast path rejected; raises the precise error or returns its parts."""
    ids = []
    for key in ("subject", "object"):
        ref = _str(obj, key, path, line)
        idx = parsed.entity_index.get(ref)
        if idx is None:
            raise KGImportError(
                path, line, key, f"unknown entity '{ref}' (not in {entities_path.name})"
            )
        ids.append(idx)
    pkey = _str(obj, "predicate", path, line)
    if predicates_path is not None and pkey not in parsed.predicate_index:
        raise KGImportError(
            path, line, "predicate", f"unknown predicate '{pkey}' (not in {predicates_path.name})"
        )
    return ids[0], pkey, ids[1]


def _parse_predicates(parsed: ParsedKG, path: Path) -> None:
    for line, obj in _json_lines(path):
        key = _str(obj, "id", path, line)
        if key in parsed.predicate_index:
            raise KGImportError(path, line, "id", f"duplicate predicate id '{key}'")
        label = _str(obj, "label", path, line)
        templates = obj.get("templates") or default_templates(label)
        if not isinstance(templates, dict):
            raise KGImportError(path, line, "templates", "expected an object")
        yes_no = templates.get("yes_no", [])
        if not isinstance(yes_no, list) or not all(
            isinstance(t, str) and "{subject}" in t and "{object}" in t for t in yes_no
        ):
            raise KGImportError(
                path, line, "templates.yes_no", "expected strings with {subject} and {object}"
            )
        wh = templates.get("wh", "")
        if wh and (not isinstance(wh, str) or "{subject}" not in wh or "{object}" in wh):
            raise KGImportError(path, line, "templates.wh", "expected a string with {subject} only")
        parsed.add_predicate(
            PredicateRow(
                key=key,
                label=label,
                description=_str(obj, "description", path, line, required=False),
                active=bool(obj.get("active", True)),
                multi_valued=bool(obj.get("multi_valued", False)),
                temporal=bool(obj.get("temporal", False)),
                object_type=_str(obj, "object_type", path, line, required=False),
                templates=templates,
            )
        )


CSV_REQUIRED = ("subject", "predicate", "object")
CSV_OPTIONAL = (
    "subject_aliases",
    "object_aliases",
    "subject_type",
    "object_type",
    "start",
    "end",
    "point_in_time",
    "source",
)


def parse_csv(path: Path, progress: ProgressFn | None = None) -> ParsedKG:
    """Parse CSV or TSV triples with a header; entities are named by their labels.

    Columns: subject, predicate, object, and optionally subject_aliases / object_aliases
    (separated by '|'), subject_type, object_type, start, end, point_in_time, source.
    """
    parsed = ParsedKG()
    delimiter = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    lines = _decoded_lines(path, progress)
    reader = csv.reader((text + "\n" for _, text in lines), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise KGImportError(path, 1, "(file)", "the file is empty") from None
    header = [h.strip().lower() for h in header]
    for required in CSV_REQUIRED:
        if required not in header:
            raise KGImportError(
                path,
                1,
                required,
                f"missing column '{required}' (the header has: {', '.join(header) or 'nothing'})",
            )
    col = {name: header.index(name) for name in CSV_REQUIRED + CSV_OPTIONAL if name in header}
    width = len(header)
    rows = 0

    def entity(label: str, aliases: str, etype: str) -> int:
        idx = parsed.entity_index.get(label)
        extra = [a.strip() for a in aliases.split("|") if a.strip()] if aliases else []
        if idx is None:
            return parsed.add_entity(
                EntityRow(key=label, label=label, aliases=clean_aliases(label, extra), type=etype)
            )
        row = parsed.entities[idx]
        if extra:
            row.aliases = clean_aliases(label, row.aliases + extra)
        if etype and not row.type:
            row.type = etype
        return idx

    for record in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in record):
            continue
        if len(record) < width:
            missing = header[len(record)]
            raise KGImportError(
                path, line, missing, f"missing value (the row has {len(record)} of {width} columns)"
            )
        values = {name: record[i].strip() for name, i in col.items()}
        for required in CSV_REQUIRED:
            if not values[required]:
                raise KGImportError(path, line, required, "empty")
        rows += 1
        s = entity(
            values["subject"], values.get("subject_aliases", ""), values.get("subject_type", "")
        )
        o = entity(
            values["object"], values.get("object_aliases", ""), values.get("object_type", "")
        )
        dates = [_date(values.get(k), k, path, line) for k in _DATE_FIELDS]
        p = _predicate_for(parsed, values["predicate"])
        parsed.add_triple(s, p, o, dates, values.get("source", ""), line)
    if rows == 0:
        raise KGImportError(path, 2, "(file)", "no triples after the header")
    finish_parsed(parsed)
    return parsed


def finish_parsed(parsed: ParsedKG) -> None:
    """Derive multi-valued flags from the data and drop the duplicate index."""
    if parsed.subjects:
        width = max(len(parsed.predicates), 1)
        pairs = np.asarray(parsed.subjects, dtype=np.int64) * width
        pairs += np.asarray(parsed.preds, dtype=np.int64)
        uniq, counts = np.unique(pairs, return_counts=True)
        for idx in np.unique(uniq[counts > 1] % width).tolist():
            parsed.predicates[idx].multi_valued = True
    parsed._seen.clear()


def parse_path(
    path: Path, entities: Path | None = None, progress: ProgressFn | None = None
) -> ParsedKG:
    """Parse a KG directory (entities.jsonl + triples.jsonl), a JSONL triples file, or CSV/TSV."""
    if not path.exists():
        raise KGImportError(path, 0, "(path)", "no such file or directory")
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
                    0,
                    "(path)",
                    "missing: a KG directory needs entities.jsonl and triples.jsonl",
                )
        parsed = parse_jsonl(ents, triples, preds if preds.exists() else None, progress)
        _read_extras(parsed, path)
        return parsed
    if path.suffix.lower() == ".jsonl":
        ents = entities or path.with_name("entities.jsonl")
        if not ents.exists():
            raise KGImportError(
                ents, 0, "(path)", "missing: JSONL triples need an entities file (--entities)"
            )
        return parse_jsonl(ents, path, None, progress)
    if path.suffix.lower() in (".csv", ".tsv", ".tab"):
        return parse_csv(path, progress)
    raise KGImportError(
        path, 0, "(path)", "unknown format: expected a directory, .jsonl, .csv or .tsv"
    )


def _read_extras(parsed: ParsedKG, directory: Path) -> None:
    subsets_path, meta_path = directory / "subsets.json", directory / "meta.json"
    if subsets_path.exists():
        try:
            subsets = json.loads(subsets_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise KGImportError(subsets_path, 1, "(file)", f"invalid JSON: {exc}") from None
        for name, keys in subsets.items():
            missing = [k for k in keys if k not in parsed.entity_index]
            if missing:
                raise KGImportError(subsets_path, 1, name, f"unknown entity '{missing[0]}'")
            parsed.subsets[name] = [parsed.entity_index[k] for k in keys]
    if meta_path.exists():
        try:
            parsed.meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise KGImportError(meta_path, 1, "(file)", f"invalid JSON: {exc}") from None


def _canonical_order(parsed: ParsedKG) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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


def content_hash(parsed: ParsedKG, canonical: tuple | None = None) -> str:
    """A sha256 fingerprint of the KG's entities, predicates, templates and facts, independent of
    the order of lines in the files."""
    h = hashlib.sha256()
    for e in sorted(parsed.entities, key=lambda e: e.key):
        h.update(
            json.dumps([e.key, e.label, e.aliases, e.type, e.groups], ensure_ascii=False).encode()
        )
    for p in sorted(parsed.predicates, key=lambda p: p.key):
        h.update(json.dumps([p.key, p.label, p.active, p.templates], sort_keys=True).encode())
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


class KGExistsError(Exception):
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
    existing = conn.execute("SELECT id FROM kg WHERE name = ?", (name,)).fetchone()
    if existing is not None:
        if not replace:
            raise KGExistsError(f"a KG named '{name}' already exists (use --replace to overwrite)")
        _delete_kg(conn, int(existing[0]))
    cur = conn.execute(
        "INSERT INTO kg(name, description, source, snapshot_date, content_hash) VALUES (?,?,?,?,?)",
        (
            name,
            description or parsed.meta.get("description", ""),
            source,
            parsed.meta.get("snapshot_date"),
            fingerprint,
        ),
    )
    return int(cur.lastrowid)


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
                json.dumps(e.aliases, ensure_ascii=False),
                e.type,
                json.dumps(e.groups, ensure_ascii=False),
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
                json.dumps(p.templates, ensure_ascii=False),
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
    write_kg(
        conn, parsed, name, source=source if source is not None else str(path), replace=replace
    )
    return ImportReport(
        name=name,
        entities=len(parsed.entities),
        predicates=len(parsed.predicates),
        edges=parsed.edge_count,
        duplicates_merged=parsed.duplicates_merged,
        self_loops=parsed.self_loops,
        seconds=time.perf_counter() - started,
    )
