"""The package's layers (docs/development.md, Architecture): a package imports only from the
layers below it, so there is no import cycle between packages and the shared kernel depends on
no mode."""

from __future__ import annotations

import ast
from collections import defaultdict
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
    {"probe", "annotate"},
    {"modes", "workspace"},
    {"analysis"},
    {"bench"},
    {"tui", "serve"},
    {"cli"},
]


def imports_between_packages() -> dict[str, set[str]]:
    """Top-level package (or module) of kglens_tui -> those it imports, lazy imports included."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in ROOT.rglob("*.py"):
        source = path.relative_to(ROOT).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                parts = node.module.split(".")
                if parts[0] == "kglens_tui":
                    names = [parts[1]] if len(parts) > 1 else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [
                    a.name.split(".")[1] for a in node.names if a.name.startswith("kglens_tui.")
                ]
            graph[source].update(n for n in names if n not in (source, "__version__"))
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
