"""Parse CSV or TSV triples with a header; entities are named by their labels."""

from __future__ import annotations

import csv
from pathlib import Path

from kglens_tui.kg.parsed import (
    DATE_FIELDS,
    EntityRow,
    KGImportError,
    ParsedKG,
    ProgressFn,
    clean_aliases,
    date_field,
    decoded_lines,
    finish_parsed,
    predicate_for,
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
    lines = decoded_lines(path, progress)
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
        dates = [date_field(values.get(k), k, path, line) for k in DATE_FIELDS]
        p = predicate_for(parsed, values["predicate"])
        parsed.add_triple(s, p, o, dates, values.get("source", ""), line)
    if rows == 0:
        raise KGImportError(path, 2, "(file)", "no triples after the header")
    finish_parsed(parsed)
    return parsed
