"""What a KG may be called: the rule `kg import --name`, `kg build-wikidata --name` and
`kg rename` share."""

from __future__ import annotations

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import visible

MAX_NAME = 200


class KGNameError(KGLensError, ValueError):
    """A KG name that cannot be stored."""


def check_kg_name(name: str) -> str:
    """`name` if a KG may have it: not empty, no leading or trailing spaces, no control
    characters (escapes, NUL, newlines, tabs, bidi overrides), at most MAX_NAME characters.
    Markup-like text such as `[/]` is allowed: names are always shown literally."""
    shown = visible(name, one_line=True)
    if not name.strip():
        raise KGNameError("a KG name must not be empty")
    if shown != name:
        raise KGNameError(
            f"KG name '{shown}' has control characters (escapes, NUL, newlines or tabs) or "
            "bidi overrides"
        )
    if name != name.strip():
        raise KGNameError(f"KG name '{name}' must not start or end with spaces")
    if len(name) > MAX_NAME:
        raise KGNameError(f"a KG name has at most {MAX_NAME} characters (got {len(name)})")
    return name
