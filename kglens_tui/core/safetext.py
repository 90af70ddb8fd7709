"""Untrusted text made safe to show: never Rich markup, never terminal control.

Every string that comes from a model, a KG file or a user goes through one of these before it
reaches a widget, a table cell, a notification or a CLI line:

- `visible(text)` replaces control characters (C0, DEL, C1, bidi overrides, line separators) with
  visible stand-ins (ESC shows as "␛", NUL as "␀", U+202E as "<U+202E>"), so nothing moves the
  cursor, clears the screen or sets the window title;
- `markup_literal(text)` is `visible` plus Rich markup escaping, for text embedded in a markup
  string such as f"[b]Reply[/]: {markup_literal(reply)}";
- `literal(text, style)` is a Rich `Text` holding the visible text as plain data, for widgets and
  tables that accept renderables (a `Text` is never parsed as markup).

Imported data is checked with `control_char`: a value holding a C0 control (NUL, tab and newline
included), DEL or a C1 control is rejected; other invisible characters (bidi marks, U+2028) are
kept as data, and shown through `visible` like everything else.
"""

from __future__ import annotations

import re

from rich.markup import escape
from rich.text import Text

# C0 controls except tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates, and
# the Unicode line and paragraph separators.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_NEWLINES = re.compile("\r\n|\n")
_CONTROL_CODE = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_CODE_NO_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ␁ ... ␛ ... ␟
    if code == 0x7F:
        return "␡"
    return f"<U+{code:04X}>"


def visible(text: object, *, one_line: bool = False, limit: int | None = None) -> str:
    """`text` as a string whose every character is printable data.

    Control characters become visible stand-ins; tabs and newlines are kept unless `one_line`,
    which shows newlines as "⏎" (for table cells and single-line labels). `limit` clips the
    result to that many characters with a trailing "…".
    """
    out = "" if text is None else str(text)
    if one_line:
        out = _NEWLINES.sub("⏎", out).replace("\t", " ")
    out = _CONTROL.sub(_stand_in, out)
    if limit is not None and len(out) > limit:
        out = out[: max(limit - 1, 0)] + "…"
    return out


def markup_literal(text: object, *, one_line: bool = False, limit: int | None = None) -> str:
    """`visible(text)` escaped for embedding in a Rich markup string."""
    return escape(visible(text, one_line=one_line, limit=limit))


def literal(
    text: object, style: str = "", *, one_line: bool = False, limit: int | None = None
) -> Text:
    """A Rich `Text` showing `text` literally (never parsed as markup), in `style`."""
    return Text(visible(text, one_line=one_line, limit=limit), style=style)


def control_char(text: str, *, allow_tab: bool = False) -> str | None:
    """The first C0 control (NUL, newline, tab unless `allow_tab`...), DEL or C1 control in
    `text`; None when there is none."""
    found = (_CONTROL_CODE_NO_TAB if allow_tab else _CONTROL_CODE).search(text)
    return None if found is None else found.group()
