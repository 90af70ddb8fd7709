"""How the tests are laid out: each test module in the folder of the package it tests
(tests/tui, tests/kg, ...: none directly in tests/), its name unique; no test module imports
another. A helper several modules share lives in a support module named for what it holds
(tui_support.py, kontest_support.py, ...) and a fixture several modules use in conftest.py: a
fixture imported from another module is a name ruff reads as redefined (F811) by every test that
asks for it. A test that drives the terminal UI declares the `tui` marker (the fast lane leaves
it out): nothing guesses it from the source at run time."""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from pathlib import Path

import kglens_tui

TESTS = Path(__file__).resolve().parents[1]
TEST_FILES = sorted(TESTS.rglob("test_*.py"))
TEST_MODULES = {p.stem for p in TEST_FILES}
_ROOT = Path(kglens_tui.__file__).parent
PACKAGES = {p.parent.relative_to(_ROOT).as_posix() for p in _ROOT.glob("**/__init__.py")} - {"."}
"""Every package of kglens_tui by its path ("kg", "modes/kglens"): a test folder's name."""


def imported_modules(path: Path) -> set[str]:
    """The top-level modules a file imports, lazy imports (inside functions) included."""
    return set(_read(path)[0])


@cache
def _read(path: Path) -> tuple[frozenset[str], tuple[str, ...]]:
    """What the rules read of one file (`imported_modules`, `unmarked_tui_tests`), from one
    parse: read once a session (the files do not change while the tests run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
    return frozenset(found), tuple(unmarked_tui_tests(tree))


def test_each_test_module_is_in_the_folder_of_a_package() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == [], "move them to tests/<package>/"
    folders = {p.parent.relative_to(TESTS).as_posix() for p in TEST_FILES}
    assert folders <= PACKAGES, f"a folder is named for the kglens_tui package it tests: {PACKAGES}"


def test_test_module_names_are_unique() -> None:
    """pytest imports a test module by its file name (the default import mode, prepend)."""
    counts = Counter(p.name for p in TEST_FILES)
    assert [name for name, n in counts.items() if n > 1] == []


def test_no_file_of_the_tests_imports_a_test_module() -> None:
    imports = sorted(
        f"{path.relative_to(TESTS)} imports {name}"
        for path in sorted(TESTS.rglob("*.py"))
        if "__snapshots__" not in path.parts
        for name in imported_modules(path) & (TEST_MODULES | {"tests"})
        if name != path.stem
    )
    assert imports == [], "move what they share to a *_support module or conftest.py"


def test_the_rule_sees_an_import_of_a_test_module(tmp_path: Path) -> None:
    module = tmp_path / "test_example.py"
    module.write_text(
        "from test_tui_layout import make_app\n"
        "import test_run_harness.sub\n"
        "def f():\n    from test_tui_review import stored_db\n"
    )
    assert imported_modules(module) == {
        "test_tui_layout",
        "test_run_harness",
        "test_tui_review",
    }


TUI_NAMES = {"run_test", "snap_compare", "pilot", "Pilot", "KGLensApp"}
"""Names a test that drives the Textual app uses: the app, its Pilot, its snapshots."""


def names_in(node: ast.AST) -> set[str]:
    """The names, attributes and parameters a function's code mentions."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.arg):
            found.add(sub.arg)
    return found


def marks_of(nodes: list[ast.expr]) -> set[str]:
    """The X of each `pytest.mark.X` (called or not) among decorators or a pytestmark value."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Call):
            node = node.func
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark"
        ):
            found.add(node.attr)
    return found


def module_marks(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
        ):
            value = node.value
            found |= marks_of(
                list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
            )
    return found


def unmarked_tui_tests(source: str | ast.Module) -> list[str]:
    """Tests that drive the app (they, or a function or fixture of their module they use,
    mention the app, its Pilot or its snapshots) but are not marked `tui` (of a module's source
    or syntax tree)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    if "tui" in module_marks(tree):
        return []
    functions = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    uses = {name: names_in(node) - {name} for name, node in functions.items()}
    driving = {name for name, used in uses.items() if used & TUI_NAMES}
    while grown := {name for name, used in uses.items() if used & driving} - driving:
        driving |= grown
    return sorted(
        name
        for name in driving
        if name.startswith("test") and "tui" not in marks_of(functions[name].decorator_list)
    )


def test_a_test_that_drives_the_tui_is_marked_tui() -> None:
    unmarked = [
        f"{path.relative_to(TESTS)}::{name}" for path in TEST_FILES for name in _read(path)[1]
    ]
    assert unmarked == [], "mark them @pytest.mark.tui (or the module: pytestmark)"


def test_the_rule_sees_a_test_that_drives_the_tui() -> None:
    source = (
        "import pytest\n"
        "async def _open(pilot):\n    await pilot.press('q')\n"
        "def _app(db):\n    return KGLensApp(db)\n"
        "async def test_direct(db):\n    async with _app(db).run_test() as pilot:\n"
        "        await _open(pilot)\n"
        "def test_through_a_helper(db):\n    _app(db)\n"
        "def test_snapshot(snap_compare):\n    pass\n"
        "@pytest.mark.tui\ndef test_marked(snap_compare):\n    pass\n"
        "@pytest.mark.parametrize('x', [1])\ndef test_plain(x):\n    assert x\n"
    )
    assert unmarked_tui_tests(source) == ["test_direct", "test_snapshot", "test_through_a_helper"]
    assert unmarked_tui_tests("import pytest\npytestmark = [pytest.mark.tui]\n" + source) == []
