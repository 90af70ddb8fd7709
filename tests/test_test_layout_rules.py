"""How the tests are laid out: no test module imports another. A helper several modules share
lives in a support module named for what it holds (tui_support.py, kontest_support.py, ...) and a
fixture several modules use in conftest.py: a fixture imported from another module is a name
ruff reads as redefined (F811) by every test that asks for it."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
TEST_MODULES = {p.stem for p in TESTS.glob("test_*.py")}


def imported_modules(path: Path) -> set[str]:
    """The top-level modules a file imports, lazy imports (inside functions) included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
    return found


def test_no_file_of_the_tests_imports_a_test_module() -> None:
    imports = sorted(
        f"{path.name} imports {name}"
        for path in TESTS.glob("*.py")
        for name in imported_modules(path) & TEST_MODULES
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
