"""A parsed knowledge graph held in memory, and the checks every import format shares.

Every check raises `KGImportError`, which names the file, the line and the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import control_char, is_surrogate, visible
from kglens_tui.kg.templates import templates_for

ProgressFn = Callable[[int, int], None]
"""Called with (lines read, total lines) while a file is parsed."""

_DATE = re.compile(r"(-?\d{1,4})(?:-(\d{2})(?:-(\d{2}))?)?")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
DATE_FIELDS = ("start", "end", "point_in_time")
_PROGRESS_EVERY = 20_000
NO_DATES: list[str | None] = [None, None, None]
MAX_VALUE_CHARS = 131_072
"""The longest value a KG file may hold (Python's csv field limit, applied to every format)."""
_MESSAGE_CHARS = 300


class KGImportError(KGLensError):
    """A bad input row: names the file, the line and the field, on one line of visible text; a
    file that is missing or unreadable as a whole names the file alone (line and field None)."""

    def __init__(
        self, path: Path | str, line: int | None, field_name: str | None, message: str
    ) -> None:
        self.path, self.line, self.field = str(path), line, field_name
        self.message = visible(message, one_line=True, limit=_MESSAGE_CHARS)
        where = str(path)
        if line is not None:
            where += f", line {line}"
        if field_name is not None:
            where += f", field '{field_name}'"
        super().__init__(f"{visible(where, one_line=True)}: {self.message}")


def check_exists(path: Path) -> None:
    """Refuse a path that is not there, naming it alone (no line, no field)."""
    if not path.exists():
        raise KGImportError(path, None, None, "no such file or directory")


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
    warnings: list[str] = field(default_factory=list)
    """One line each, naming the file and line: what was read but not imported."""
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


def encoding_hint(data: bytes) -> str:
    """What to say after "invalid UTF-8" about a file's bytes: UTF-16 (a byte-order mark, or
    NUL bytes between ASCII ones, as Excel's "Unicode text" writes) or another encoding."""
    head = data[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        len(head) >= 4
        and head[1::2].count(0) > len(head) // 4
        or head[0::2].count(0) > len(head) // 4
    ):
        return 'the file looks like UTF-16 (Excel\'s "Unicode text"): save it as UTF-8 (CSV UTF-8)'
    return "save the file as UTF-8"


def decoded_lines(path: Path, progress: ProgressFn | None) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without the newline) from a UTF-8 file, with a clear error on
    bad bytes. The file is decoded in one go (fast); progress counts lines."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise KGImportError(
            path,
            lineno,
            "(line)",
            f"invalid UTF-8 at byte {column} of the line; {encoding_hint(data)}",
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


def check_text(value: str, path: Path, line: int, key: str) -> str:
    """`value` if it is at most MAX_VALUE_CHARS long and holds no control character."""
    if len(value) > MAX_VALUE_CHARS:
        raise KGImportError(
            path, line, key, f"the value is longer than {MAX_VALUE_CHARS:,} characters"
        )
    bad = control_char(value)
    if bad is not None:
        raise KGImportError(path, line, key, control_message(value, bad))
    return value


def control_message(value: str, bad: str) -> str:
    """Why a value holding the control character `bad` is refused (the value shown visibly)."""
    shown = visible(value, one_line=True)
    if is_surrogate(bad):
        return f"lone surrogate U+{ord(bad):04X} in '{shown}' (half a character; not allowed)"
    return f"control character U+{ord(bad):04X} in '{shown}' (not allowed)"


def read_bytes(path: Path) -> bytes:
    """A file's bytes; a file that cannot be read is a one-line error."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise KGImportError(path, None, None, f"cannot read: {exc.strerror or exc}") from None


def str_field(
    obj: dict[str, Any], key: str, path: Path, line: int, *, required: bool = True
) -> str:
    """A string member, stripped and checked; "" when absent and not required."""
    value = obj.get(key)
    if value is None:
        if required:
            raise KGImportError(path, line, key, "missing")
        return ""
    if not isinstance(value, str):
        raise KGImportError(path, line, key, f"expected a string, got {type(value).__name__}")
    value = check_text(value.strip(), path, line, key)
    if required and not value:
        raise KGImportError(path, line, key, "empty")
    return value


def str_list_field(obj: dict[str, Any], key: str, path: Path, line: int) -> list[str]:
    """A list-of-strings member, each stripped and checked, blanks dropped."""
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KGImportError(path, line, key, "expected a list of strings")
    return [
        check_text(v.strip(), path, line, f"{key}[{i}]") for i, v in enumerate(value) if v.strip()
    ]


def date_field(value: Any, key: str, path: Path, line: int) -> str | None:
    """A date as YYYY, YYYY-MM or YYYY-MM-DD (proleptic Gregorian, year -9999 to 9999)."""
    if value is None or value == "":
        return None
    text = str(value).strip()
    problem = _date_problem(text)
    if problem:
        raise KGImportError(path, line, key, problem)
    return text


@lru_cache(maxsize=1 << 16)
def _date_problem(text: str) -> str:
    """Why `text` is not a date, or "" (cached: a KG repeats its dates)."""
    found = _DATE.fullmatch(text)
    if found is None:
        return f"'{text}' is not a date (YYYY, YYYY-MM or YYYY-MM-DD)"
    year, month, day = found.groups()
    if month is not None and not 1 <= int(month) <= 12:
        return f"'{text}' is not a date: month {month}"
    if day is not None and not 1 <= int(day) <= _days_in_month(int(year), int(month)):
        return f"'{text}' is not a date: day {day}"
    return ""


def _days_in_month(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _DAYS[month - 1]


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
    """Question templates for a predicate that came without any (see kg.templates)."""
    return templates_for(label)


def predicate_for(parsed: ParsedKG, key: str) -> int:
    idx = parsed.predicate_index.get(key)
    if idx is None:
        label = key.replace("_", " ")
        idx = parsed.add_predicate(
            PredicateRow(key=key, label=label, templates=default_templates(label))
        )
    return idx


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
