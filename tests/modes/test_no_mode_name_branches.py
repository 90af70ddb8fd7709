"""A mode is a folder: outside the modes' own folders (`kglens_tui/modes/`) and the registry
(`kglens_tui/runs/registry.py`) no module branches on a built-in mode's name: no comparison (nor
match case, nor dict keyed) against KGLENS / KONTEST / FACTEVAL or their values, and no SQL
filter on them. What differs by mode is what the mode declares."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kglens_tui

PACKAGE = Path(kglens_tui.__file__).parent
ALLOWED = (PACKAGE / "modes", PACKAGE / "runs" / "registry.py")
"""Where a mode's name may be branched on: the modes' folders and the registry."""
NAMES = {"KGLENS", "KONTEST", "FACTEVAL"}
VALUES = {"kglens", "kontest", "facteval"}
SQL = re.compile(r"\bmode\s*(?:==?|!=|<>|\bin\b)\s*\(?\s*'(?:kglens|kontest|facteval)'", re.I)
"""A SQL filter on a mode's name (``mode = 'kglens'``, ``r.mode IN ('kontest', ...)``)."""


def _is_name(node: ast.AST) -> bool:
    """Whether ``node`` is a mode-name constant or value, or a literal collection holding one."""
    if isinstance(node, ast.Name):
        return node.id in NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in NAMES
    if isinstance(node, ast.Constant):
        return node.value in VALUES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(e) for e in node.elts)
    return False


def _branches_on_a_name(node: ast.AST) -> bool:
    """Whether ``node`` compares, matches, keys a dict or filters SQL by a mode's name."""
    if isinstance(node, ast.Compare):
        return any(_is_name(n) for n in (node.left, *node.comparators))
    if isinstance(node, ast.MatchValue):
        return _is_name(node.value)
    if isinstance(node, ast.Dict):
        return any(k is not None and _is_name(k) for k in node.keys)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return SQL.search(node.value) is not None
    return False


def branches(source: str) -> list[int]:
    """The lines of ``source`` that branch on a mode's name."""
    nodes = ast.walk(ast.parse(source))
    return sorted(getattr(n, "lineno", 0) for n in nodes if _branches_on_a_name(n))


def test_the_check_finds_each_kind_of_branch() -> None:
    source = """
if mode == KGLENS: pass
if run.mode in (KONTEST, FACTEVAL): pass
if "facteval" != name: pass
match mode:
    case "kontest": pass
parts = {KGLENS: 1}[mode]
conn.execute("SELECT id FROM run WHERE mode = 'kglens'")
conn.execute("SELECT id FROM run r WHERE r.mode IN ('kontest', 'facteval')")
"""
    assert branches(source) == [2, 3, 4, 6, 7, 8, 9]
    assert branches("mode = KGLENS\nsettings_config('kglens')\nif mode == TOY: pass\n") == []


def test_no_module_outside_the_modes_and_the_registry_branches_on_a_modes_name() -> None:
    checked, found = 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path == allowed or allowed in path.parents for allowed in ALLOWED):
            continue
        checked += 1
        lines = branches(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(PACKAGE.parent)}:{line}" for line in lines]
    assert checked > 100  # the package's modules were read, not an empty folder
    assert found == [], "branches on a mode's name:\n" + "\n".join(found)
