"""README is the ten-minute path and docs/ the rest (issue #36): README stays short, its two
commands (install and run; install and test) are the ones CI runs, every command and flag it
shows exists, its links resolve, and every page of docs/ is in the site's nav."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from kglens_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"
DOCS = ROOT / "docs"
MKDOCS = ROOT / "mkdocs.yml"

MAX_WORDS = 2500
"""Issue #36: README at most 2,500 words (as `wc -w` counts them)."""

INSTALL_AND_RUN = 'CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install ".[local]" && kglens'
INSTALL_AND_TEST = 'pip install ".[test]" && python -m pytest -q -n 2'


def readme() -> str:
    return README.read_text(encoding="utf-8")


def bash_blocks(text: str) -> list[str]:
    return re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M)


def test_readme_is_at_most_2500_words() -> None:
    assert len(readme().split()) <= MAX_WORDS


def test_readme_gives_the_install_and_test_commands_in_code_blocks() -> None:
    lines = {line.strip() for block in bash_blocks(readme()) for line in block.splitlines()}
    assert INSTALL_AND_RUN in lines
    assert INSTALL_AND_TEST in lines


def test_ci_runs_readmes_test_command_with_the_extras_readme_installs() -> None:
    """`.ci/run` installs at least the extras README's two commands install, then runs README's
    pytest command as it is (`python3` for `python`)."""
    ci = CI_RUN.read_text(encoding="utf-8")
    installed = re.search(r'pip install --quiet "\.\[([a-z,]+)\]"', ci)
    assert installed is not None
    ci_extras = set(installed.group(1).split(","))
    for command in (INSTALL_AND_RUN, INSTALL_AND_TEST):
        extras = re.search(r'"\.\[([a-z,]+)\]"', command)
        assert extras is not None
        assert set(extras.group(1).split(",")) <= ci_extras, command
    pytest_command = INSTALL_AND_TEST.split("&&")[1].strip().replace("python ", "python3 ", 1)
    assert pytest_command in [line.strip() for line in ci.splitlines()]
    assert "mkdocs build --strict" in ci


def test_the_extras_readme_names_exist() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    named = set(re.findall(r'"\.\[([a-z]+)\]"', readme()))
    assert named and named <= set(extras)
    assert "docs" in named


def readme_commands() -> list[list[str]]:
    """The `kglens ...` lines of README's bash blocks, as argument lists (comments dropped)."""
    commands = []
    for block in bash_blocks(readme()):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("kglens "):
                commands.append(shlex.split(line)[1:])
    return commands


def help_text(words: list[str], capsys: pytest.CaptureFixture[str]) -> str | None:
    """`kglens WORDS --help`, or None when that is no command."""
    try:
        main([*words, "--help"])
    except SystemExit as exc:
        out = capsys.readouterr().out
        return out if exc.code == 0 else None
    return None


def test_every_command_and_flag_readme_shows_exists(capsys: pytest.CaptureFixture[str]) -> None:
    commands = readme_commands()
    assert len(commands) >= 5
    for args in commands:
        words = []
        for arg in args:
            if not re.fullmatch(r"[a-z][a-z-]*", arg):
                break
            words.append(arg)
        text = None
        while words and text is None:
            text = help_text(words, capsys)
            if text is None:
                words.pop()
        assert text is not None, args
        for flag in (a.split("=")[0] for a in args if a.startswith("--")):
            assert re.search(rf"{re.escape(flag)}\b", text), (args, flag)


def test_every_command_readme_names_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    named = set(re.findall(r"`kglens ([a-z][a-z-]*)", readme()))
    assert len(named) >= 10
    for word in sorted(named):
        assert help_text([word], capsys) is not None, word


def slug(heading: str) -> str:
    """The anchor GitHub and MkDocs's toc give a heading (the headings here are plain ASCII)."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s+", "-", text)


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_readmes_links_resolve() -> None:
    links = re.findall(r"\]\(([^)\s]+)\)", readme())
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), link
        if anchor:
            assert anchor in anchors(target), link


def test_every_docs_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    """`mkdocs build --strict` in `.ci/run` checks this too; this says it without mkdocs."""
    nav = set(re.findall(r"^\s*- (?:[^:\n]+: )?([\w/-]+\.md)\s*$", MKDOCS.read_text(), re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert nav == pages
    assert "index.md" in pages
