"""Every table a report command prints, also as files a paper takes: CSV, JSON, Markdown and
LaTeX (booktabs). The tables are the ones the command renders on screen, caught as it prints
them (`collecting_tables`), so a file never says something the screen does not.

A column whose cells are all rates with an interval ("78.9% [76.1–81.8]", perhaps marked "†": a
KG-wide estimate held at 0% or 100%, and perhaps followed by "(n=315)") becomes numeric columns
in the files (the rate, its low and high end, in percent, whether it is held at an end, and its n
when printed), so a reader need not parse them; a column of percentages ("38.8%") becomes
numbers in percent, and n columns stay as printed. Text from a model, a KG or a user is data in every format: control
characters are made visible, each format's special characters escaped, and a CSV cell a
spreadsheet would run as a formula written behind a "'" (as every export writes it).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.errors import MarkupError
from rich.table import Table
from rich.text import Text

from kglens_tui.core.safetext import csv_cell, visible
from kglens_tui.core.safewrite import write_text
from kglens_tui.core.table_options import FORMATS
from kglens_tui.modes.kglens.rate_text import CAPPED, CAPPED_NOTE

SUFFIX = {"csv": ".csv", "json": ".json", "md": ".md", "latex": ".tex"}
_RATE_CI = re.compile(
    r"^(-?\d+(?:\.\d+)?)(%?) \[(-?\d+(?:\.\d+)?)%?[–-](-?\d+(?:\.\d+)?)%?\]"
    rf"({re.escape(CAPPED)}?)(?: \(n=([\d,]+)\))?$"
)
_PERCENT = re.compile(r"^(-?\d+(?:\.\d+)?)%$")
_N = re.compile(r"^n=([\d,]+)\b\s*(.*)$", re.DOTALL)
_INTERVAL_WORDS = re.compile(r"\s*\[[^\]]*interval\]")


@dataclass(frozen=True)
class PlainTable:
    """A printed table as plain text: title, caption, column headers and rows of cells."""

    title: str
    caption: str
    headers: list[str]
    rows: list[list[str]]


def _plain(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, Text):
        return value.plain
    if isinstance(value, str):  # a plain Table's string cell is markup on screen
        try:
            return Text.from_markup(value).plain
        except MarkupError:
            return value
    return str(value)


def plain_table(table: Table) -> PlainTable:
    """The table's text as a reader sees it (markup gone; multi-line cells kept)."""
    headers = [_plain(c.header) for c in table.columns]
    columns = [[_plain(cell) for cell in c._cells] for c in table.columns]
    rows = [list(row) for row in zip(*columns, strict=True)] if columns else []
    return PlainTable(_plain(table.title), _plain(table.caption), headers, rows)


def split_intervals(table: PlainTable) -> PlainTable:
    """Each column whose filled cells are all "rate [low–high]" (perhaps "†" and "(n=…)" after)
    as numeric columns: the rate, low, high, "capped" (true where the cell carries "†": an
    estimate held at 0% or 100%, `CAPPED_NOTE` then in the caption) and n where printed; each
    whose cells are all "38.8%" as the number in percent; each whose cells all start "n=1,234"
    as the number and the rest; each whose cells are all counts ("1,320") as plain numbers. A cell "— (why)" (no value yet) keeps its text in the rate
    column."""
    headers: list[str] = []
    columns: list[list[str]] = []
    capped = False
    for i, header in enumerate(table.headers):
        cells = [row[i].strip() for row in table.rows]
        filled = [c for c in cells if c and not c.startswith(NO_VALUE)]
        rates = [_RATE_CI.match(c) for c in filled]
        if filled and all(rates):
            base = _INTERVAL_WORDS.sub("", header).replace("(n)", "").strip() or "rate"
            unit = " (%)" if any(m.group(2) for m in rates if m) else ""
            matches = [_RATE_CI.match(c) for c in cells]
            for part, group in (("", 1), (" low", 3), (" high", 4)):
                headers.append(f"{base}{part}{unit}")
                columns.append(
                    [
                        m.group(group) if m else "" if part else c
                        for m, c in zip(matches, cells, strict=True)
                    ]
                )
            headers.append(f"{base} capped")
            columns.append(["" if m is None else str(bool(m.group(5))).lower() for m in matches])
            capped = capped or any(m and m.group(5) for m in matches)
            if any(m and m.group(6) for m in matches):
                headers.append(f"{base} n")
                columns.append(
                    [m.group(6).replace(",", "") if m and m.group(6) else "" for m in matches]
                )
        elif filled and all(_PERCENT.match(c) for c in filled):
            headers.append(f"{header} (%)")
            columns.append([m.group(1) if (m := _PERCENT.match(c)) else c for c in cells])
        elif filled and all(_N.match(c) for c in filled):
            headers += [header, f"{header} note"]
            columns.append(
                [m.group(1).replace(",", "") if (m := _N.match(c)) else "" for c in cells]
            )
            columns.append([m.group(2) if (m := _N.match(c)) else "" for c in cells])
        elif filled and all(_COUNT.match(c) for c in filled):
            headers.append(header)
            columns.append([c.replace(",", "") for c in cells])
        else:
            headers.append(header)
            columns.append([row[i] for row in table.rows])
    rows = [list(row) for row in zip(*columns, strict=True)] if columns else []
    caption = table.caption
    if capped and CAPPED_NOTE not in caption:
        caption = f"{caption} {CAPPED_NOTE}.".strip()
    return PlainTable(table.title, caption, headers, rows)


NO_VALUE = "—"
"""How a cell without a value yet opens ("— (too few edges asked twice yet)")."""

_COUNT = re.compile(r"^(?:\d{1,3}(?:,\d{3})*|\d+)$")
"""A count with thousands separators, "1,320" (a column of them is written as plain numbers)."""

_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?%?$")


def _csv(text: str) -> object:
    """A number as it is (a sign is not a formula), any other text as `csv_cell` makes it."""
    return text if _NUMBER.match(text) else csv_cell(text)


def to_csv(table: PlainTable) -> str:
    """CSV as the exports write it: control characters visible, formula starts behind a "'"."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_csv(h) for h in table.headers])
    writer.writerows([_csv(c) for c in row] for row in table.rows)
    return out.getvalue()


def to_json(table: PlainTable) -> str:
    return (
        json.dumps(
            {
                "title": table.title,
                "caption": table.caption,
                "columns": table.headers,
                "rows": [dict(zip(table.headers, row, strict=True)) for row in table.rows],
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    )


def _md(text: str) -> str:
    cell = visible(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>")
    return re.sub(r"([*_`<>\[\]])", r"\\\1", cell).replace("\\<br\\>", "<br>")


def to_markdown(table: PlainTable) -> str:
    lines = [f"**{_md(table.title)}**", ""] if table.title else []
    lines.append("| " + " | ".join(_md(h) for h in table.headers) + " |")
    lines.append("| " + " | ".join("---" for _ in table.headers) + " |")
    lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in table.rows]
    if table.caption:
        lines += ["", _md(table.caption)]
    return "\n".join(lines) + "\n"


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "[": "{[}",  # a cell opening with "[" would be \midrule's or \\'s optional argument
    "]": "{]}",
    "α": r"$\alpha$",
    "κ": r"$\kappa$",
    "ε": r"$\varepsilon$",
    "→": r"$\rightarrow$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "±": r"$\pm$",
    "×": r"$\times$",
}
"""LaTeX's special characters escaped, and the symbols the tables use that pdflatex does not
take as UTF-8 written as math (every other character as it is)."""


def _tex(text: str) -> str:
    escaped = "".join(_LATEX.get(ch, ch) for ch in visible(text))
    return escaped.replace("\n", " ")


def to_latex(table: PlainTable) -> str:
    """A booktabs table (needs \\usepackage{booktabs}): text columns left, the others right."""
    numeric = [
        all(re.fullmatch(r"[-+\d.,%x ]*", row[i]) for row in table.rows)
        for i in range(len(table.headers))
    ]
    spec = "".join("r" if n else "l" for n in numeric)
    lines = [r"\begin{table}[ht]", r"\centering"]
    if table.title:
        lines.append(rf"\caption{{{_tex(table.title)}}}")
    lines += [rf"\begin{{tabular}}{{{spec}}}", r"\toprule"]
    lines.append(" & ".join(_tex(h) for h in table.headers) + r" \\")
    lines.append(r"\midrule")
    lines += [" & ".join(_tex(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if table.caption:
        lines.append(rf"\par\smallskip{{\footnotesize {_tex(table.caption)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


WRITERS = {"csv": to_csv, "json": to_json, "md": to_markdown, "latex": to_latex}


def parse_formats(text: str) -> list[str]:
    """'csv,latex' -> ['csv', 'latex']; ValueError naming an unknown one."""
    chosen = [part.strip().lower() for part in text.split(",") if part.strip()]
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise ValueError(
            f"--table-format: unknown {', '.join(bad) or 'nothing'} (use {', '.join(FORMATS)})"
        )
    return list(dict.fromkeys(chosen))


def _slug(title: str) -> str:
    words = re.findall(r"[a-z0-9]+", title.casefold())
    return "-".join(words)[:60].strip("-") or "table"


def write_tables(
    tables: Sequence[Table], folder: Path, formats: Sequence[str], *, force: bool = True
) -> list[Path]:
    """Each table in each format as ``NN-title-slug.ext`` in ``folder`` (made if missing); an
    existing file of that name is replaced unless ``force`` is False."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for i, table in enumerate(tables, start=1):
        plain = split_intervals(plain_table(table))
        stem = f"{i:02d}-{_slug(plain.title)}"
        for fmt in formats:
            path = folder / (stem + SUFFIX[fmt])
            written.append(write_text(path, WRITERS[fmt](plain), force=force))
    return written


@contextlib.contextmanager
def collecting_tables(console: Console) -> Iterator[list[Table]]:
    """Every rich Table printed on ``console`` inside the block, in order (still printed)."""
    caught: list[Table] = []
    original = console.print

    def printing(*objects: object, **kwargs: object) -> None:
        caught.extend(o for o in objects if isinstance(o, Table))
        original(*objects, **kwargs)  # type: ignore[arg-type]

    console.print = printing  # type: ignore[method-assign]
    try:
        yield caught
    finally:
        del console.print
