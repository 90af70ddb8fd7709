"""The wheel ships every subpackage plus db/ and prompts/ (mapped into kglens_tui)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from kglens_tui.shipped import shipped_dir

ROOT = Path(__file__).resolve().parents[2]


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
    names = [p.name for p in shipped_dir("db").iterdir()]
    assert "0001_kg.sql" in names


def test_wheel_ships_schema_prompts_styles_and_bundled_kgs(tmp_path: Path) -> None:
    import subprocess
    import sys
    import zipfile
    from importlib.metadata import version

    import pytest

    if int(version("setuptools").split(".")[0]) < 68:
        pytest.skip("building offline needs setuptools >= 68 installed (.ci/run installs it)")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("kglens_tui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "kglens_tui/db/0001_kg.sql",
        "kglens_tui/db/0002_runs.sql",
        "kglens_tui/prompts/answer_yes_no.txt",
        "kglens_tui/prompts/verify_wh.txt",
        "kglens_tui/tui/app.tcss",
        "kglens_tui/kg/data/country/triples.jsonl",
        "kglens_tui/kg/data/elements/entities.jsonl",
        "kglens_tui/kg/data/SOURCES.md",
    ):
        assert expected in names, expected


def test_a_source_checkout_finds_db_and_prompts_without_installing() -> None:
    """`python -m pytest` from the repository root imports the source tree, where db/ and
    prompts/ sit beside kglens_tui/ rather than inside it."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "import kglens_tui\n"
        f"assert kglens_tui.__file__.startswith({str(ROOT)!r}), kglens_tui.__file__\n"
        "from kglens_tui.store.connection import connect, migrations\n"
        "from kglens_tui.runs.prompts import prompt_hashes\n"
        "print(len(migrations()), len(prompt_hashes()))\n"
        "connect(':memory:')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd="/"
    )
    migrations, prompts = map(int, out.stdout.split())
    assert migrations >= 2 and prompts >= 5
