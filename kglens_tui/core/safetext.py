"""Untrusted text made safe to show: never Rich markup, never terminal control.

Every string that comes from a model, a KG file or a user goes through one of these before it
reaches a widget, a table cell, a notification or a CLI line:

- `visible(text)` replaces control characters (C0, DEL, C1, bidi overrides, line separators) with
  visible stand-ins of the same length (ESC shows as "␛", NUL as "␀", U+202E as "⇄"), so
  nothing moves the cursor, clears the screen, sets the window title or reorders the line; on
  one line a newline shows as "⏎" and a tab as "␉";
- `markup_literal(text)` is `visible` plus Rich markup escaping, for text embedded in a markup
  string such as f"[b]Reply[/]: {markup_literal(reply)}";
- `literal(text, style)` is a Rich `Text` holding the visible text as plain data, for widgets and
  tables that accept renderables (a `Text` is never parsed as markup);
- `LiteralTable` is a Rich table whose string cells are shown that way (the CLI's only table).

Imported data is checked with `control_char`: a value holding a C0 control (NUL, tab and newline
included), DEL or a C1 control is rejected; other invisible characters (bidi marks, U+2028) are
kept as data, and shown through `visible` like everything else.
"""

from __future__ import annotations

import html
import re
from typing import Any

from rich.table import Table
from rich.text import Text

# Every character that could steer a terminal or reorder text, mapped to one visible stand-in of
# the same length (so styled spans over the text stay where they are): C0 controls show as their
# Unicode control pictures (ESC as "␛", NUL as "␀"), DEL as "␡", bidi marks, embeddings,
# overrides and isolates as "⇄" (so a reversed line is told from a decoding error), the Unicode
# line/paragraph separators as "⏎", C1 controls and lone UTF-16 surrogates (not characters: no
# UTF-8 file or SQLite text can hold one) as "�".
BIDI_STAND_IN = "\u21c4"
TAB_STAND_IN = "\u2409"
"""A tab on one line: its control picture, as every other C0 control (a space would hide it)."""
_STAND_INS = {code: 0x2400 + code for code in range(0x20) if code not in (0x09, 0x0A)}
_STAND_INS[0x7F] = 0x2421
for _code in (*range(0x80, 0xA0), *range(0xD800, 0xE000)):
    _STAND_INS[_code] = 0xFFFD
for _code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)):
    _STAND_INS[_code] = ord(BIDI_STAND_IN)
_STAND_INS[0x2028] = _STAND_INS[0x2029] = 0x23CE
LABEL_LIMIT = 120
"""Characters of a name (entity, predicate, KG, model) shown in a heading or a one-line field."""
TEXT_LIMIT = 4000
"""Characters of a question, reply or note shown in a detail pane."""

_NEWLINES = re.compile("\r\n|\n")
_BLANK_LINES = re.compile("[ \t\r]*\n(?:[ \t\r]*\n)+")
_CONTROL_CODE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_CODE_NO_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_BRACKET = re.compile(r"(\\*)\[")
_ZWSP = "\u200b"


def _escape_bracket(match: re.Match[str]) -> str:
    backslashes = match.group(1)
    return backslashes + (_ZWSP if backslashes else "") + "\\["


def visible(text: object, *, one_line: bool = False, limit: int | None = None) -> str:
    """`text` as a string whose every character is printable data.

    Control characters become visible stand-ins; tabs and newlines are kept unless `one_line`,
    which shows newlines as "⏎" and tabs as "␉" (for table cells and single-line labels).
    `limit` clips the result to that many characters with a trailing "…".
    """
    out = "" if text is None else str(text)
    if one_line:
        out = _NEWLINES.sub("⏎", out).replace("\t", TAB_STAND_IN)
    out = out.translate(_STAND_INS)
    if limit is not None and len(out) > limit:
        out = out[: max(limit - 1, 0)] + "…"
    return out


def squeezed(text: str) -> str:
    """``text`` stripped, with each run of blank lines cut to one blank line (a reply of two
    hundred newlines would otherwise push all else off a pane)."""
    return _BLANK_LINES.sub("\n\n", text.replace("\r\n", "\n").strip())


def markup_literal(text: object, *, one_line: bool = False, limit: int | None = None) -> str:
    """`visible(text)` escaped for embedding in a markup string, read the same way by Rich's and
    by Textual's markup parsers: every "[" is escaped, and a zero-width space separates a literal
    backslash from a following bracket or from the end (where it would escape the next tag)."""
    out = _BRACKET.sub(_escape_bracket, visible(text, one_line=one_line, limit=limit))
    return out + _ZWSP if out.endswith("\\") else out


def html_text(text: object, *, quote: bool = True) -> str:
    """`visible(text)` escaped for HTML or SVG text and attribute values (as `html.escape`), so
    a label or reply is data there as well: no tag, no entity, no bidi reordering."""
    return html.escape(visible(text), quote=quote)


def literal(
    text: object, style: str = "", *, one_line: bool = False, limit: int | None = None
) -> Text:
    """A Rich `Text` showing `text` literally (never parsed as markup), in `style`."""
    return Text(visible(text, one_line=one_line, limit=limit), style=style)


def storable(text: str) -> str:
    """`text` with each lone UTF-16 surrogate (which a JSON reply may escape, e.g. half an
    emoji, but no UTF-8 file or SQLite text can hold) replaced by U+FFFD; all else kept."""
    return _SURROGATE.sub("\ufffd", text)


def is_surrogate(ch: str) -> bool:
    """Whether ``ch`` is a lone UTF-16 surrogate, not a character."""
    return bool(_SURROGATE.fullmatch(ch))


def control_char(text: str, *, allow_tab: bool = False) -> str | None:
    """The first C0 control (NUL, newline, tab unless `allow_tab`...), DEL, C1 control or lone
    surrogate in `text`; None when there is none."""
    found = (_CONTROL_CODE_NO_TAB if allow_tab else _CONTROL_CODE).search(text)
    return None if found is None else found.group()


def unshown_char(text: str) -> str | None:
    """The first character of `text` that `visible(one_line=True)` shows as a stand-in (a C0 or
    C1 control, DEL, a bidi control, a line separator): what a name shown on one line may not
    hold. None when there is none."""
    return next((ch for ch in text if visible(ch, one_line=True) != ch), None)


def _cell(value: object, style: str = "") -> Any:
    return literal(value, style, one_line=True) if isinstance(value, str) else value


class LiteralTable(Table):
    """A Rich table whose string cells, column headers, title and caption are data, never markup.

    Styled cells are passed as `Text` (e.g. `Text("dead", "dim")`); everything given as a string
    is shown literally on one line, control characters made visible.
    """

    def __init__(self, *headers: Any, title: object = None, caption: object = None, **kw: Any):
        # string headers go through add_column below; a Text title or caption is not given the
        # table's title / caption style by Rich, so it carries that style itself
        super().__init__(
            *headers,
            title=_cell(title, kw.get("title_style") or "table.title"),
            caption=_cell(caption, kw.get("caption_style") or "table.caption"),
            **kw,
        )

    def add_column(self, header: Any = "", footer: Any = "", **kw: Any) -> None:
        super().add_column(_cell(header), _cell(footer), **kw)

    def add_row(self, *renderables: Any, **kw: Any) -> None:
        super().add_row(*(_cell(r) for r in renderables), **kw)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a cell (OWASP's CSV injection list)."""


def csv_cell(value: object) -> object:
    """A CSV cell: "" for None, 0/1 for booleans, text with its control characters (terminal
    escapes, bidi overrides, line separators; newlines and tabs kept) shown as visible stand-ins
    (`visible`: ESC as "␛"), so a file printed in a terminal or opened in a viewer shows the
    model's reply rather than obeying it, and text a spreadsheet would run as a formula (a KG
    label or reply "=HYPERLINK(…)") behind a "'", which shows it as text (the JSONL exports keep
    every text as it is, JSON-escaped)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        value = visible(value)
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value
