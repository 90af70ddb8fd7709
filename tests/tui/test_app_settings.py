"""The TUI's own settings, `theme` and `[keys]`: checked when the TUI starts, a bad one is one
line naming where it came from and the setting, exit code 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for
from textual.app import App
from tui_support import MEDIUM, notices_of

from kglens_tui.settings import SettingsError, load_settings
from kglens_tui.tui import app as app_module
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.new_run import NewRunScreen
from kglens_tui.tui.settings_check import _keyed_screens, key_problem


@pytest.fixture
def no_tui(monkeypatch: pytest.MonkeyPatch) -> None:
    """The TUI must not start: a setting it would refuse is told before (and were it not, the
    test fails instead of waiting on a terminal)."""

    def started(*args, **kwargs) -> int:
        raise AssertionError("the TUI started")

    monkeypatch.setattr(app_module, "_exit_status", started)


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return " ".join(err.split())


@pytest.mark.parametrize(
    ("text", "variable", "shown"),
    [
        ('theme = "nope"\n', None, "setting 'theme': no theme 'nope'"),
        ('theme = "textual_dark"\n', None, "did you mean textual-dark?"),
        ("theme = 5\n", None, "setting 'theme': expected a string"),
        ("", "nope", "setting 'theme': no theme 'nope'"),
    ],
)
def test_a_bad_theme_stops_the_tui_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_tui: None,
    text: str,
    variable: str | None,
    shown: str,
) -> None:
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    if variable is not None:
        monkeypatch.setenv("KGLENS_THEME", variable)
    assert main(["--db", str(tmp_path / "w.db")]) == 2
    err = _one_line_error(capsys)
    origin = f"{config}, line 1" if variable is None else "$KGLENS_THEME"
    assert err.startswith(f"error: {origin}: ") and shown in err
    if "no theme" in shown:  # the names to choose from
        assert all(name in err for name in App().available_themes)


@pytest.mark.tui
def test_a_bad_theme_is_a_warning_for_a_headless_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A headless command does not use the theme: it goes on, after one warning line naming the
    file, the line and the setting (the TUI refuses to start with it, above); a theme Textual
    has is no warning."""
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text('seed = 3\ntheme = "nope"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    assert main(["--db", str(tmp_path / "w.db"), "runs"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: {config}, line 2: setting 'theme': no theme 'nope'")
    assert len(err.strip().splitlines()) == 1 and "textual-dark" in err
    config.write_text('theme = "nord"\n', encoding="utf-8")
    assert main(["--db", str(tmp_path / "w.db"), "runs"]) == 0
    assert capsys.readouterr().err == ""
    assert KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False).theme == "nord"


@pytest.mark.parametrize(
    ("keys", "shown"),
    [
        ('quit = "[bold]q"', "[keys] quit = '[bold]q': '[bold]q' is not a key Textual knows"),
        ('new_run = "q"', "[keys] new_run = 'q': q is already 'Quit' on the home screen"),
        ('bogus_binding = "x"', "[keys] bogus_binding: no binding of that name"),
        ('new_rnu = "x"', "did you mean new_run?"),
        ('new_run = "f2"\nimport = "f2"', "f2 is already 'Import KG' on the home screen"),
        ('stop = "escape"', "escape is already 'Runs' on the live screen"),
        ('new_run = "p"', "p is already 'Pause/resume' on the home screen"),
        ('new_run = "ctrl+q"', "ctrl+q is already 'Quit' on every screen"),
        ('help = "ctrl+?"', "write 'ctrl+?' as ctrl+question_mark"),
        ('help = "shift+ctrl+h"', "write 'shift+ctrl+h' as ctrl+shift+h"),
        ('help = "f2,"', "a key is empty"),
        ('quit = ""', "a key is empty"),
        ("quit = 5", "[keys] quit: expected a string"),
    ],
)
def test_a_bad_key_binding_stops_the_tui_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_tui: None,
    keys: str,
    shown: str,
) -> None:
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(f"[keys]\n{keys}\n", encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    assert main(["--db", str(tmp_path / "w.db")]) == 2
    err = _one_line_error(capsys)
    # the entry's own line, under the table's header
    assert err.startswith(f"error: {config}, line 2: [keys] ") and shown in err


@pytest.mark.tui
def test_the_annotators_tui_checks_keys_too(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "none.toml", overrides={"keys": {"quit": "[b]q"}})
    with pytest.raises(SettingsError, match=r"^command line: \[keys\] quit = '\[b\]q'"):
        KGLensApp(tmp_path / "w.db", settings, annotation=app_module.AnnotationEntry(None, None))


def test_every_key_the_app_binds_is_one_the_check_knows() -> None:
    """No false alarms: the keys of the app's own bindings, and common ones, pass."""
    bound = [
        b.key
        for screen in _keyed_screens()
        for bs in screen._merge_bindings().key_to_bindings.values()
        for b in bs
    ]
    assert "question_mark" in bound and "ctrl+s" in bound
    common = ["f2", "f12", "space", "ctrl+n", "slash", "plus", "A", "5", "shift+f2", "alt+x",
              "ctrl+shift+up", "pagedown", "escape", "enter", "tab", "full_stop"]  # fmt: skip
    assert [k for k in bound + common if key_problem(k)] == []
    for bad in ("[bold]q", "ctrl", "ctrl+", "hyperspace", "latin_small_letter_a", "super+ctrl+x"):
        assert key_problem(bad), bad


@pytest.mark.tui
async def test_keys_may_swap_between_two_actions(tmp_path: Path) -> None:
    """Two entries that exchange keys are not a clash: q opens the form, n quits."""
    config = tmp_path / "config.toml"
    config.write_text('[keys]\nnew_run = "q"\nquit = "n"\nhelp = "?"\n', encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRunScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: not app.is_running)


@pytest.mark.tui
async def test_a_variable_no_setting_reads_is_a_warning_in_the_tui(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KGLENS_THEM", "nord")
    app = KGLensApp(tmp_path / "w.db", load_settings(tmp_path / "none.toml"), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        shown = [(n.message, n.severity) for n in notices_of(app)]
        assert (
            "$KGLENS_THEM is not a kglens setting, so it changes nothing "
            "(did you mean $KGLENS_THEME?)",
            "warning",
        ) in shown
