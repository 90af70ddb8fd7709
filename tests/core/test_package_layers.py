"""The package's layers (docs/development.md, Architecture): a package imports only from the
layers below it, so there is no import cycle between packages and the shared kernel depends on
no mode; no mode imports another's package, and Textual stays in the UI."""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

import kglens_tui

ROOT = Path(kglens_tui.__file__).parent
LAYERS: list[set[str]] = [
    {"core", "textfmt", "shipped"},
    {"llm"},
    {"store", "settings"},
    {"kg"},
    {"answers"},
    {"runs"},
    {"modes", "annotate"},
    {"workspace"},
    {"analysis"},
    {"bench"},
    {"tui", "serve"},
    {"cli"},
]


NEVER_IMPORTS: dict[str, set[str]] = {
    # the answer kernel every mode shares depends on no mode, no UI and not on the run harness
    "answers": {"modes", "runs", "tui"},
}
UI_ONLY = ("textual", "textual_serve")
"""Third-party packages no layer below `tui` imports."""


def imported_modules(path: Path) -> frozenset[str]:
    """The modules one file imports, lazy imports included (`from kglens_tui import probe` gives
    kglens_tui.modes.kglens); relative imports are not used in the package."""
    return _imports(path)[0]


@cache
def _imports(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """`imported_modules` and `module_imports` of one file, from one parse. Read once a session
    (the files do not change while the tests run, and each rule here reads all of them)."""
    nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    typing_only = {
        id(n)
        for node in nodes
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    names: set[str] = set()
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "kglens_tui":
                names.update(f"kglens_tui.{a.name}" for a in node.names)
            else:
                names.add(node.module)
            if id(node) not in typing_only:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
            if id(node) not in typing_only:
                found.update(a.name for a in node.names)
    return frozenset(names), frozenset(name for name in found if name.startswith("kglens_tui"))


def package_of(path: Path) -> str:
    """The top-level package (or module) of kglens_tui a file belongs to."""
    return path.relative_to(ROOT).parts[0].removesuffix(".py")


def imports_between_packages() -> dict[str, set[str]]:
    """Top-level package (or module) of kglens_tui -> those it imports, lazy imports included."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in ROOT.rglob("*.py"):
        source = package_of(path)
        for name in imported_modules(path):
            parts = name.split(".")
            if parts[0] == "kglens_tui" and len(parts) > 1:
                graph[source].add(parts[1])
        graph[source] -= {source, "__version__"}
    return graph


def test_every_package_has_a_layer() -> None:
    placed = set().union(*LAYERS)
    found = {p.name.removesuffix(".py") for p in ROOT.iterdir() if p.suffix == ".py" or p.is_dir()}
    found -= {"__init__", "__pycache__", "db", "prompts"}
    assert found <= placed, f"give these a layer: {sorted(found - placed)}"


def test_packages_import_only_from_lower_layers() -> None:
    layer = {name: i for i, names in enumerate(LAYERS) for name in names}
    upward = sorted(
        f"{source} -> {target}"
        for source, targets in imports_between_packages().items()
        for target in targets
        if target in layer and layer[target] >= layer[source] and target != source
    )
    assert upward == []


def test_no_package_imports_what_it_must_never() -> None:
    graph = imports_between_packages()
    found = sorted(
        f"{source} -> {target}"
        for source, never in NEVER_IMPORTS.items()
        for target in graph[source] & never
    )
    assert found == []


def test_textual_stays_in_the_ui() -> None:
    layer = {name: i for i, names in enumerate(LAYERS) for name in names}
    found = sorted(
        f"{path.relative_to(ROOT)} -> {name}"
        for path in ROOT.rglob("*.py")
        if layer.get(package_of(path), len(LAYERS)) < layer["tui"]
        for name in imported_modules(path)
        if name.split(".")[0] in UI_ONLY
    )
    assert found == []


MODES = ("kglens", "kontest", "facteval")
"""The built-in modes, each a folder of `modes/`."""


def test_no_mode_imports_another_mode() -> None:
    """A mode's folder imports the shared packages and `modes/`'s shared modules, never another
    mode's folder: adding or removing a mode touches its own folder (and one registration)."""
    found = []
    for mode in MODES:
        for path in (ROOT / "modes" / mode).rglob("*.py"):
            for name in imported_modules(path):
                parts = name.split(".")
                other = (
                    parts[2] if len(parts) > 2 and parts[:2] == ["kglens_tui", "modes"] else mode
                )
                if other in MODES and other != mode:
                    found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert found == []


def test_shared_modules_of_modes_import_no_mode_but_for_reports() -> None:
    """The modules shared by the unit modes (`modes/*.py`) import KGLens's folder nowhere."""
    found = [
        f"{path.name} imports {name}"
        for path in (ROOT / "modes").glob("*.py")
        for name in imported_modules(path)
        if name.startswith("kglens_tui.modes.kglens")
    ]
    assert found == []


def module_imports(path: Path) -> frozenset[str]:
    """The kglens_tui modules one file imports, lazy imports (inside functions) included and
    imports under ``if TYPE_CHECKING:`` (annotations only) left out; ``from P import m`` of a
    submodule m gives P.m."""
    return _imports(path)[1]


def module_name(path: Path, root: Path) -> str:
    parts = ["kglens_tui", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_cycles(root: Path) -> list[list[str]]:
    """Groups of modules of the package at ``root`` that import each other, directly or
    through others."""
    import networkx as nx

    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_edges_from((name, m) for m in module_imports(path) if m in modules and m != name)
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def test_no_module_imports_itself_through_others() -> None:
    """No import cycle between modules, lazy imports included: a lazy import that only breaks
    a cycle at load time still ties the two modules together."""
    assert module_cycles(ROOT) == []


def test_the_cycle_rule_sees_a_lazy_cycle_and_not_an_annotation(tmp_path: Path) -> None:
    package = tmp_path / "kglens_tui"
    package.mkdir()
    (package / "a.py").write_text("def f():\n    from kglens_tui.b import g\n")
    (package / "b.py").write_text("from kglens_tui.a import f\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kglens_tui.a import f\n"
    )
    assert module_cycles(package) == [["kglens_tui.a", "kglens_tui.b"]]
