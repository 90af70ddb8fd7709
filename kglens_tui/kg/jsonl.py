"""Parse a KG directory: entities.jsonl, triples.jsonl, optional predicates.jsonl, subsets.json
and meta.json."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kglens_tui.kg.parsed import (
    DATE_FIELDS,
    NO_DATES,
    EntityRow,
    KGImportError,
    ParsedKG,
    PredicateRow,
    ProgressFn,
    check_text,
    clean_aliases,
    date_field,
    decoded_lines,
    default_templates,
    encoding_hint,
    finish_parsed,
    predicate_for,
    read_bytes,
    str_field,
    str_list_field,
)
from kglens_tui.kg.templates import PLACEHOLDERS, placeholders_text, template_problem

_raw_decode = json.JSONDecoder().raw_decode


def _json_lines(
    path: Path, progress: ProgressFn | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
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
        except (ValueError, RecursionError) as exc:
            raise KGImportError(path, lineno, "(line)", _json_problem(exc)) from None
        if not isinstance(obj, dict):
            raise KGImportError(path, lineno, "(line)", "expected a JSON object")
        yield lineno, obj
    if not any_line:
        raise KGImportError(path, 1, "(file)", "the file is empty")


def _json_problem(exc: ValueError | RecursionError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg}"
    if isinstance(exc, RecursionError):
        return "invalid JSON: nested too deeply"
    return f"invalid JSON: {exc}"  # e.g. an integer of more than 4,300 digits


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
        si: int | None
        oi: int | None
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
        if source not in strings:
            if not isinstance(source, str):
                raise KGImportError(triples_path, line, "source", "expected a string")
            strings[source] = check_text(source, triples_path, line, "source")
        if si == oi or dates is not NO_DATES or (si, pi, oi) in seen:
            parsed.add_triple(si, pi, oi, dates, source, line)
            continue
        seen[(si, pi, oi)] = len(subjects)
        subjects.append(si)
        preds.append(pi)
        objects.append(oi)
        sources.append(strings[source])
    finish_parsed(parsed)
    return parsed


def _explain_triple(
    parsed: ParsedKG,
    obj: dict[str, Any],
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
        parsed.add_predicate(
            PredicateRow(
                key=key,
                label=label,
                description=str_field(obj, "description", path, line, required=False),
                active=_flag(obj, "active", True, path, line),
                multi_valued=_flag(obj, "multi_valued", False, path, line),
                temporal=_flag(obj, "temporal", False, path, line),
                object_type=str_field(obj, "object_type", path, line, required=False),
                templates=_templates(obj, label, path, line),
            )
        )


def _flag(obj: dict[str, Any], key: str, default: bool, path: Path, line: int) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise KGImportError(path, line, key, f"expected true or false, got {value!r}")
    return value


def _templates(obj: dict[str, Any], label: str, path: Path, line: int) -> dict[str, Any]:
    """A predicate's question templates, checked: yes_no a list of strings, wh and statement
    strings, each free of control characters and a valid template of its kind (see
    kg.templates.template_problem: only its placeholders, all of them, no other brace)."""
    templates = obj.get("templates") or default_templates(label)
    if not isinstance(templates, dict):
        raise KGImportError(path, line, "templates", "expected an object")
    for key in templates:
        if key not in PLACEHOLDERS:  # a typo ("yesno") would leave the label's own wording
            raise KGImportError(
                path,
                line,
                f"templates.{key}",
                f"unknown template (known: {', '.join(PLACEHOLDERS)})",
            )
    yes_no = templates.get("yes_no", [])
    if not isinstance(yes_no, list):
        raise KGImportError(
            path, line, "templates.yes_no", "expected a list of strings with {subject} and {object}"
        )
    texts = [(f"templates.yes_no[{i}]", "yes_no", text) for i, text in enumerate(yes_no)]
    wh = templates.get("wh", "")
    if wh:
        texts.append(("templates.wh", "wh", wh))
    statement = templates.get("statement", "")
    if statement or not isinstance(statement, str):
        texts.append(("templates.statement", "statement", statement))
    for name, kind, text in texts:
        if not isinstance(text, str):
            raise KGImportError(
                path,
                line,
                name,
                f"expected a string with {placeholders_text(kind)}, got {_json_type(text)}",
            )
        check_text(text, path, line, name)
        problem = template_problem(text, kind)
        if problem is not None:
            raise KGImportError(path, line, name, problem)
    return templates


def read_extras(parsed: ParsedKG, directory: Path) -> None:
    """Read subsets.json (subset name -> entity ids) and meta.json, if the directory has them."""
    subsets_path, meta_path = directory / "subsets.json", directory / "meta.json"
    if subsets_path.exists():
        text, subsets = _json_object(subsets_path, "subset names to lists of entity ids")
        for name, keys in subsets.items():
            line = _line_of_key(text, name)
            check_text(name, subsets_path, line, "(subset name)")
            if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                raise KGImportError(subsets_path, line, name, "expected a list of entity ids")
            missing = [k for k in keys if k not in parsed.entity_index]
            if missing:
                raise KGImportError(subsets_path, line, name, f"unknown entity '{missing[0]}'")
            parsed.subsets[name] = [parsed.entity_index[k] for k in keys]
    if meta_path.exists():
        text, meta = _json_object(meta_path, "fields such as description and snapshot_date")
        for key in ("description", "snapshot_date"):
            if key in meta:
                meta[key] = str_field(meta, key, meta_path, _line_of_key(text, key), required=False)
        if meta.get("snapshot_date"):
            line = _line_of_key(text, "snapshot_date")
            date_field(meta["snapshot_date"], "snapshot_date", meta_path, line)
        parsed.meta = meta


def _json_object(path: Path, holding: str) -> tuple[str, dict[str, Any]]:
    """A JSON file's text and its top-level object; one-line errors otherwise."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise KGImportError(path, line, "(line)", f"invalid UTF-8; {encoding_hint(data)}") from None
    try:
        value = json.loads(text.removeprefix("\ufeff"))
    except (ValueError, RecursionError) as exc:
        line = exc.lineno if isinstance(exc, json.JSONDecodeError) else 1
        raise KGImportError(path, line, "(line)", _json_problem(exc)) from None
    if not isinstance(value, dict):
        raise KGImportError(
            path, 1, "(file)", f"expected an object mapping {holding}, got {_json_type(value)}"
        )
    return text, value


def _json_type(value: Any) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "true or false",
        type(None): "null",
    }
    return names.get(type(value), "a number")


def _line_of_key(text: str, key: str) -> int:
    """The line where `"key":` first appears in a JSON text (1 when it cannot be found)."""
    found = re.search(re.escape(json.dumps(key, ensure_ascii=False)) + r"\s*:", text)
    if found is None:
        found = re.search(re.escape(json.dumps(key)) + r"\s*:", text)
    return 1 if found is None else text.count("\n", 0, found.start()) + 1
