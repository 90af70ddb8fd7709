"""Parse CSV or TSV triples with a header; entities are named by their labels."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from kglens_tui.core.safetext import control_char, visible
from kglens_tui.kg.parsed import (
    DATE_FIELDS,
    EntityRow,
    KGImportError,
    ParsedKG,
    ProgressFn,
    check_text,
    clean_aliases,
    control_message,
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
    (separated by '|'), subject_type, object_type, start, end, point_in_time, source. Unknown
    columns are ignored with a warning; every record is one line (a quote left open is an error).
    """
    parsed = ParsedKG()
    feed = _Lines(path, "\t" if path.suffix.lower() in (".tsv", ".tab") else ",", progress)
    reader = csv.reader(feed, delimiter=feed.delimiter, strict=True)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise KGImportError(path, 1, "(file)", "the file is empty") from None
    except csv.Error as exc:
        raise feed.malformed(exc) from None
    feed.open = False
    col = _columns(parsed, path, header)
    feed.header, width = header, len(header)
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

    try:
        for record in reader:
            feed.open = False
            line = feed.line
            if not any(cell.strip() for cell in record):
                continue
            if len(record) != width:
                _check_width(path, line, header, record, feed.delimiter)
            values = {name: record[i].strip() for name, i in col.items()}
            if feed.may_hide_tab():
                for name, value in values.items():
                    if "\t" in value:
                        check_text(value, path, line, name)
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
    except csv.Error as exc:
        raise feed.malformed(exc) from None
    if rows == 0:
        raise KGImportError(path, 2, "(file)", "no triples after the header")
    finish_parsed(parsed)
    return parsed


def _columns(parsed: ParsedKG, path: Path, header: list[str]) -> dict[str, int]:
    """Known column name -> index; refuses a repeated or missing column (a repeated one first:
    `subject,subject,object` is a doubled subject, whatever else it lacks), warns of unknown
    ones."""
    for i, name in enumerate(header):
        if name in header[:i]:
            raise KGImportError(
                path,
                1,
                name,
                f"the column appears twice in the header (columns {header.index(name) + 1} "
                f"and {i + 1})",
            )
    for required in CSV_REQUIRED:
        if required not in header:
            raise KGImportError(
                path,
                1,
                required,
                f"missing column '{required}' (the header has: {', '.join(header) or 'nothing'})",
            )
    unknown = [
        f"'{name}'" if name else f"column {i + 1} (no name)"
        for i, name in enumerate(header)
        if name not in CSV_REQUIRED + CSV_OPTIONAL
    ]
    if unknown:
        parsed.warnings.append(
            visible(
                f"{path}, line 1: ignoring unknown columns {', '.join(unknown)} (known: "
                f"{', '.join(CSV_REQUIRED + CSV_OPTIONAL)})",
                one_line=True,
            )
        )
    return {name: header.index(name) for name in CSV_REQUIRED + CSV_OPTIONAL if name in header}


def _check_width(
    path: Path, line: int, header: list[str], record: list[str], delimiter: str
) -> None:
    """Refuse a row with fewer cells than the header, or more that are not empty."""
    width = len(record)
    if width < len(header):
        raise KGImportError(
            path,
            line,
            header[width],
            f"missing value (the row has {width} of {len(header)} columns)",
        )
    extra = next((i for i in range(len(header), width) if record[i].strip()), None)
    if extra is not None:
        shown = "tab" if delimiter == "\t" else f"'{delimiter}'"
        raise KGImportError(
            path,
            line,
            f"column {extra + 1}",
            f"the row has {width} cells, the header {len(header)} (an unquoted {shown} "
            "inside a value?)",
        )


class _Lines:
    """Feeds a csv.reader one line at a time, so a record never spans lines: a quote left open is
    an error naming the line where it opens, and a line holding a control character is refused
    before it is parsed. `open` is True from a line being handed out until its record is read."""

    def __init__(self, path: Path, delimiter: str, progress: ProgressFn | None) -> None:
        self.path, self.delimiter = path, delimiter
        self.lines = decoded_lines(path, progress)
        self.header: list[str] = []
        self.line, self.text, self.open = 0, "", False

    def __iter__(self) -> Iterator[str]:
        for lineno, text in self.lines:
            if self.open:
                raise self.unclosed_quote()
            if text.endswith("\r"):
                text = text[:-1]
            self.line, self.text, self.open = lineno, text, True
            bad = control_char(text, allow_tab=True)
            if bad is not None:
                spans = _cells(text, self.delimiter)[0]
                cell = _cell_at(spans, text.index(bad))
                start, end = spans[cell]
                raise self.error(cell, control_message(text[start:end], bad))
            yield text + "\n"
        if self.open:
            raise self.unclosed_quote()

    def may_hide_tab(self) -> bool:
        """Whether a value of the current line may hold a tab (checked only then, for speed)."""
        return ('"' if self.delimiter == "\t" else "\t") in self.text

    def error(self, cell: int, message: str) -> KGImportError:
        if self.line == 1 or not self.header:
            name = "(header)"
        elif cell < len(self.header):
            name = self.header[cell] or f"column {cell + 1}"
        else:
            name = f"column {cell + 1}"
        return KGImportError(self.path, self.line, name, message)

    def unclosed_quote(self) -> KGImportError:
        spans, broken = _cells(self.text, self.delimiter)
        return self.error(
            len(spans) - 1 if broken is None else broken,
            "a quoted value opens on this line and does not close on it (unbalanced quote?)",
        )

    def malformed(self, exc: csv.Error) -> KGImportError:
        spans, broken = _cells(self.text, self.delimiter)
        if "field larger than field limit" in str(exc):
            longest = max(range(len(spans)), key=lambda i: spans[i][1] - spans[i][0])
            return self.error(
                longest, f"the value is longer than {csv.field_size_limit():,} characters"
            )
        return self.error(
            0 if broken is None else broken,
            f'malformed quoting: {exc} (a quote inside a quoted value is written twice: "")',
        )


def _cells(text: str, delimiter: str) -> tuple[list[tuple[int, int]], int | None]:
    """The (start, end) of each cell of one CSV line, and the index of the first cell whose
    quoting is broken (a quote that never closes, or text after the closing quote), if any."""
    spans: list[tuple[int, int]] = []
    broken = None
    start = i = 0
    n = len(text)
    while True:
        if i < n and text[i] == '"':
            close = i + 1
            while True:
                close = text.find('"', close)
                if close < 0 or text[close + 1 : close + 2] != '"':
                    break
                close += 2
            i = n if close < 0 else close + 1
            if close < 0 and broken is None:
                broken = len(spans)
        end = text.find(delimiter, i)
        end = n if end < 0 else end
        if end != i and i > start and broken is None:
            broken = len(spans)
        spans.append((start, end))
        if end >= n:
            return spans, broken
        start = i = end + 1


def _cell_at(spans: list[tuple[int, int]], pos: int) -> int:
    return next((k for k, (a, b) in enumerate(spans) if a <= pos <= b), len(spans) - 1)
