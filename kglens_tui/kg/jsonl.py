"""Parse a KG directory: entities.jsonl, triples.jsonl, optional predicates.jsonl, subsets.json
and meta.json."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from kglens_tui.kg.parsed import (
    DATE_FIELDS,
    NO_DATES,
    EntityRow,
    KGImportError,
    ParsedKG,
    PredicateRow,
    ProgressFn,
    clean_aliases,
    date_field,
    decoded_lines,
    default_templates,
    finish_parsed,
    predicate_for,
    str_field,
    str_list_field,
)

_raw_decode = json.JSONDecoder().raw_decode


def _json_lines(path: Path, progress: ProgressFn | None = None) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for every non-blank line of a JSONL file."""
    any_line = False
    for lineno, text in decoded_lines(path, progress):
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


def parse_jsonl(
    entities_path: Path,
    triples_path: Path,
    predicates_path: Path | None = None,
    progress: ProgressFn | None = None,
) -> ParsedKG:
    """Parse and validate an entities file, a triples file and an optional predicates file."""
    parsed = ParsedKG()
    for line, obj in _json_lines(entities_path):
        key = str_field(obj, "id", entities_path, line)
        if key in parsed.entity_index:
            raise KGImportError(entities_path, line, "id", f"duplicate entity id '{key}'")
        label = str_field(obj, "label", entities_path, line)
        parsed.add_entity(
            EntityRow(
                key=key,
                label=label,
                aliases=clean_aliases(label, str_list_field(obj, "aliases", entities_path, line)),
                type=str_field(obj, "type", entities_path, line, required=False),
                groups=str_list_field(obj, "groups", entities_path, line),
                description=str_field(obj, "description", entities_path, line, required=False),
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
            pi = predicate_for(parsed, str_field(obj, "predicate", triples_path, line))
        if len(obj) > 3 and (obj.get("start") or obj.get("end") or obj.get("point_in_time")):
            dates = [date_field(obj.get(k), k, triples_path, line) for k in DATE_FIELDS]
        else:
            dates = NO_DATES
        source = obj.get("source") or ""
        if not isinstance(source, str):
            raise KGImportError(triples_path, line, "source", "expected a string")
        if si == oi or dates is not NO_DATES or (si, pi, oi) in seen:
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
        ref = str_field(obj, key, path, line)
        idx = parsed.entity_index.get(ref)
        if idx is None:
            raise KGImportError(
                path, line, key, f"unknown entity '{ref}' (not in {entities_path.name})"
            )
        ids.append(idx)
    pkey = str_field(obj, "predicate", path, line)
    if predicates_path is not None and pkey not in parsed.predicate_index:
        raise KGImportError(
            path, line, "predicate", f"unknown predicate '{pkey}' (not in {predicates_path.name})"
        )
    return ids[0], pkey, ids[1]


def _parse_predicates(parsed: ParsedKG, path: Path) -> None:
    for line, obj in _json_lines(path):
        key = str_field(obj, "id", path, line)
        if key in parsed.predicate_index:
            raise KGImportError(path, line, "id", f"duplicate predicate id '{key}'")
        label = str_field(obj, "label", path, line)
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
                description=str_field(obj, "description", path, line, required=False),
                active=bool(obj.get("active", True)),
                multi_valued=bool(obj.get("multi_valued", False)),
                temporal=bool(obj.get("temporal", False)),
                object_type=str_field(obj, "object_type", path, line, required=False),
                templates=templates,
            )
        )


def read_extras(parsed: ParsedKG, directory: Path) -> None:
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
