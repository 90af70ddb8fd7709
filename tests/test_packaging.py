"""The wheel ships every subpackage plus db/ and prompts/ (mapped into kglens_tui)."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "kglens_tui").rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to [tool.setuptools] packages"


def test_sql_migrations_are_found_through_the_package() -> None:
    names = [p.name for p in resources.files("kglens_tui.db").iterdir()]
    assert "0001_kg.sql" in names
