"""The settings file is checked by every command: one that cannot be read (missing, not TOML, a
name nothing reads, an app setting of the wrong type) stops any command with one line naming
the file, the line and the setting; a value only another command uses is one warning line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.settings import SettingsError, key_lines, load_settings

COMMANDS = [
    ["runs"],
    ["kg", "list"],
    ["probe", "--no-tui", "--quiet", "--subset", "paper16", "--iterations", "1"],
    ["run", "kontest", "--quiet", "--set", "relations=2"],
]
"""Commands that only read (runs, kg list) and commands that start a run."""


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("KGLENS_CONFIG", str(path))
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # the file ends inside the value: the last line that is not blank, and its setting
        ("seed = 1\nsampler = [\n\n", ", line 2: setting 'sampler': not valid TOML: Invalid value"),
        ('seed = 1\nsampler = [\n  "top-k",\n', ", line 3: setting 'sampler': not valid TOML"),
        ("seed = 1\nsampler = \n", ", line 2: setting 'sampler': not valid TOML"),
        ("seed = 1\n[keys]\nquit = \n", ", line 3: [keys] quit: not valid TOML"),
        ("seed 3\n", ", line 1: setting 'seed': not valid TOML: Expected '='"),
        ("seed = 1\nsed = 3\n", ", line 2: unknown setting 'sed' (did you mean seed?"),
        ("db = 'x.db'\nui_refresh_hz = 'often'\n", ", line 2: setting 'ui_refresh_hz'"),
    ],
)
def test_a_broken_settings_file_stops_every_command_with_one_line(
    tmp_path: Path,
    config: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    text: str,
    shown: str,
) -> None:
    """Read-only commands too: the file may hide the workspace (`db`) or whatever setting the
    user meant, so no command can tell what it should do. Nothing is made."""
    config.write_text(text, encoding="utf-8")
    db = tmp_path / "w.db"
    assert main(["--db", str(db), *command]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"error: {config}{shown}"), err
    assert not db.exists()


def test_an_end_of_file_error_names_the_last_line_never_its_text(config: Path) -> None:
    """tomllib says "at end of document": the line is the last that is not blank, the setting
    the one begun above it; the line's text is left out (it may hold a key)."""
    secret = "sk-not-shown"
    config.write_text(f'seed = 1\nbase_url = """http://h/v1?api_key={secret}\n\n\n', "utf-8")
    with pytest.raises(SettingsError) as raised:
        load_settings(config)
    assert str(raised.value) == (
        f"{config}, line 2: setting 'base_url': not valid TOML: Unterminated string (the file "
        "ends before it is complete)"
    )


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_settings_file_named_that_does_not_exist_stops_every_command(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """$KGLENS_CONFIG names a file: a typo there would otherwise run every command on the
    defaults, --db given or not."""
    missing = tmp_path / "nonexistent.toml"
    monkeypatch.setenv("KGLENS_CONFIG", str(missing))
    assert main(["--db", str(tmp_path / "w.db"), *command]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"error: $KGLENS_CONFIG names the settings file {missing}, which is ")
    assert "missing" in err
    monkeypatch.setenv("KGLENS_CONFIG", str(tmp_path))
    assert main(["--db", str(tmp_path / "w.db"), *command]) == 2
    assert "which is a directory" in _one_line(capsys)


def test_a_bad_run_option_is_a_warning_where_unused_and_an_error_where_used(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sampler = "nope"`: `kglens runs` says so once and lists the runs; `kglens probe`, whose
    runs would use it, refuses it in one line (not a warning too); a KONTEST run, which has no
    sampler, is not stopped by it."""
    config.write_text('seed = 1\nsampler = "nope"\n', encoding="utf-8")
    db = str(tmp_path / "w.db")
    refused = f"{config}, line 2: setting 'sampler': sampler must be one of"
    assert main(["--db", db, "runs"]) == 0
    assert _one_line(capsys).startswith(f"warning: {refused}")
    assert main(["--db", db, *COMMANDS[2]]) == 2
    assert _one_line(capsys).startswith(f"error: {refused}")
    assert main(["--db", db, *COMMANDS[3]]) == 0
    assert capsys.readouterr().err.startswith(f"warning: {refused}")


def test_a_good_settings_file_says_nothing(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.write_text('seed = 3\nsampler = "thompson"\ntheme = "nord"\n', encoding="utf-8")
    assert main(["--db", str(tmp_path / "w.db"), "runs"]) == 0
    assert capsys.readouterr().err == ""


def test_the_line_of_each_name_the_file_sets() -> None:
    text = (
        "# comment\n"
        "seed = 3\n"
        "values = [\n  1.5,\n  2.5,\n]\n"
        '"quoted" = 1\n'
        "dotted.part = 2\n"
        "[keys]\n"
        "quit = 'q'\n"
        "[keys2]\n"
    )
    assert key_lines(text) == {
        "seed": 2,
        "values": 3,
        "quoted": 7,
        "dotted": 8,
        "keys": 9,
        "keys.quit": 10,
        "keys2": 11,
    }
