from __future__ import annotations

import importlib.util
import json
import sqlite3
from pathlib import Path

import pytest
from conftest import wait_for
from textual.widgets import Input, Select, SelectionList
from tui_support import MEDIUM, notices_of

from kglens_tui.modes.config import CONTEXTS, FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.config import ConfigError
from kglens_tui.settings import SettingsError, load_settings
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.new_run import NewRunScreen


def last_config(db: Path) -> dict:
    """The settings of the workspace's latest run, as stored."""
    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT config FROM run ORDER BY id DESC LIMIT 1").fetchone()
        return json.loads(row[0])
    finally:
        conn.close()


def test_file_then_environment_then_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text('ui_refresh_hz = 2\ntheme = "textual-light"\n[keys]\nnew_run = "f2"\n')
    monkeypatch.setenv("KGLENS_UI_REFRESH_HZ", "8")
    settings = load_settings(path, overrides={"theme": "nord"})
    assert settings.ui_refresh_hz == 8
    assert settings.theme == "nord"
    assert settings.keys == {"new_run": "f2"}
    assert str(path) in settings.source and "$KGLENS_UI_REFRESH_HZ" in settings.source


def test_bad_settings_name_the_file_line_and_setting(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    from kglens_tui.runs.given_settings import settings_config

    path.write_text("# run options\nbatch_size = 'many'\n")
    with pytest.raises(SettingsError, match=r"config.toml, line 2: setting 'batch_size'"):
        settings_config("kglens", load_settings(path))
    path.write_text("colour = 'red'\n")
    with pytest.raises(SettingsError, match="config.toml, line 1: unknown setting 'colour'"):
        settings_config("kontest", load_settings(path))
    path.write_text("seed = 1\nui_refresh_hz = 'often'\n")
    with pytest.raises(SettingsError, match=r"config.toml, line 2: setting 'ui_refresh_hz'"):
        load_settings(path)
    path.write_text("batch_size = \n")
    with pytest.raises(SettingsError, match="config.toml, line 1: setting 'batch_size'"):
        load_settings(path)


@pytest.mark.tui
async def test_key_overrides_apply(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "none.toml", overrides={"keys": {"new_run": "f2"}})
    app = KGLensApp(tmp_path / "w.db", settings, welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, NewRunScreen)
        await pilot.press("f2")
        for _ in range(3000):  # until the screen is pushed (a state, not a fixed wait)
            if isinstance(app.screen, NewRunScreen):
                break
            await pilot.pause(0.01)
        assert isinstance(app.screen, NewRunScreen)


def test_probe_options_come_from_file_then_environment_then_flag(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kglens probe` reads the settings file and KGLENS_* variables for every option it
    shares with them; a flag given wins."""
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text('iterations = 3\nbatch_size = 2\ndifficulty = "hard"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    monkeypatch.delenv("KGLENS_ITERATIONS", raising=False)
    db = tmp_path / "w.db"
    base = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16",
            "--no-convergence-stop"]  # fmt: skip

    assert main(base) == 0
    cfg = last_config(db)
    assert (cfg["iterations"], cfg["batch_size"], cfg["difficulty"]) == (3, 2, "hard")
    assert cfg["target"] == "sim" and cfg["kg"] == "country"  # the built-in defaults
    monkeypatch.setenv("KGLENS_ITERATIONS", "4")
    assert main(base) == 0
    assert last_config(db)["iterations"] == 4
    assert main([*base, "--iterations", "5", "--difficulty", "easy"]) == 0
    cfg = last_config(db)
    assert (cfg["iterations"], cfg["batch_size"], cfg["difficulty"]) == (5, 2, "easy")


@pytest.mark.parametrize("mode", ["kglens", "kontest", "facteval"])
def test_every_run_option_comes_from_file_then_environment_then_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Not only a few: sampler, seed and a budget from the file reach a run of every mode
    that has them; a KGLENS_<NAME> variable overrides the file, a flag both."""
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(
        'seed = 7\nmax_requests = 3\nsampler = "thompson"\ntimeout_s = 12.5\n', encoding="utf-8"
    )
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    db = tmp_path / "w.db"
    command = {
        "kglens": ["probe", "--no-tui", "--subset", "paper16"],
        "kontest": ["consistency", "run", "--kg", "places", "--relations", "4"],
        "facteval": ["facteval", "run", "--facts", "4"],
    }[mode]

    assert main(["--db", str(db), *command, "--quiet"]) == 0
    cfg = last_config(db)
    assert (cfg["seed"], cfg["max_requests"], cfg["timeout_s"]) == (7, 3, 12.5)
    assert cfg.get("sampler", "thompson") == "thompson"  # KGLens has it, the others do not
    monkeypatch.setenv("KGLENS_SEED", "8")
    assert main(["--db", str(db), *command, "--quiet"]) == 0
    assert last_config(db)["seed"] == 8
    assert main(["--db", str(db), *command, "--quiet", "--seed", "9"]) == 0
    assert last_config(db)["seed"] == 9
    monkeypatch.setenv("KGLENS_MAX_REQUESTS", "many")
    assert main(["--db", str(db), *command, "--quiet"]) == 2
    monkeypatch.delenv("KGLENS_MAX_REQUESTS")
    monkeypatch.setenv("KGLENS_SEED", "eight")  # a bad value a flag replaces is not in the way
    assert main(["--db", str(db), *command, "--quiet", "--seed", "10"]) == 0
    assert last_config(db)["seed"] == 10
    kg = ["--set", "kg=places"] if mode == "kontest" else []
    assert main(["--db", str(db), "run", mode, "--quiet", "--set", "seed=11", *kg]) == 0
    assert last_config(db)["seed"] == 11
    assert main(["--db", str(db), "run", mode, "--quiet", *kg]) == 2


def test_the_settings_file_names_the_workspace_of_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    chosen = tmp_path / "from-file.db"
    config.write_text(f'db = "{chosen}"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    monkeypatch.delenv("KGLENS_DB")
    assert main(["probe", "--no-tui", "--quiet", "--subset", "paper16", "--iterations", "1"]) == 0
    assert chosen.exists()
    capsys.readouterr()
    assert main(["runs"]) == 0
    assert "KGLens" in capsys.readouterr().out  # the run made above, in the file's workspace
    monkeypatch.setenv("KGLENS_DB", str(tmp_path / "from-env.db"))
    assert main(["runs"]) == 0
    assert "KGLens" not in capsys.readouterr().out  # $KGLENS_DB wins over the file


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('sampler = "nope"', "setting 'sampler': sampler must be one of"),
        ('target = "nope:x"', "setting 'target': unknown target"),
        ("requests_per_minute = 0", "setting 'requests_per_minute': requests_per_minute must be"),
        ("colour = 1", "unknown setting 'colour'"),
    ],
)
def test_a_bad_run_option_in_the_settings_stops_the_tui_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, text: str, shown: str
) -> None:
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(text + "\n", encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    assert main(["--db", str(tmp_path / "w.db")]) == 2  # the TUI, before it starts
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith(f"error: {config}, line 1: ") and shown in err
    assert "Traceback" not in err


def test_a_settings_file_workspace_may_start_at_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('db = "~/work.db"\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KGLENS_DB")
    assert load_settings(config).db == str(tmp_path / "work.db")


def test_a_variable_replaces_the_file_s_value_before_the_settings_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.runs.given_settings import settings_config

    config = tmp_path / "config.toml"
    config.write_text('sampler = "brute-force"\nscheduling = "continuous"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_SCHEDULING", "sync")  # brute force with continuous is refused
    settings = load_settings(config)
    assert str(settings_config("kglens", settings).scheduling) == "sync"


@pytest.mark.tui
async def test_the_form_keeps_the_settings_options_it_does_not_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('temperature = 0.7\nprompt_order = "reversed"\n', encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        built = (await _open_form(pilot)).build_config()
        assert (built.temperature, built.prompt_order) == (0.7, "reversed")


async def _open_form(pilot) -> NewRunScreen:
    """The new-run form, once it is on the screen."""
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, NewRunScreen))
    screen = pilot.app.screen
    assert isinstance(screen, NewRunScreen)
    await wait_for(pilot, lambda: screen.loaded)
    return screen


def _field(screen: NewRunScreen, name: str) -> str:
    return screen.query_one(f"#{name}", Input).value


@pytest.mark.parametrize(
    ("mode", "config_type", "facts"),
    [("kontest", KontestConfig, "relations"), ("facteval", FactevalConfig, "facts")],
)
@pytest.mark.tui
async def test_the_form_starts_each_mode_from_its_own_defaults(
    tmp_path: Path, mode: str, config_type: type, facts: str
) -> None:
    """Concurrency and facts are the mode's (`kglens consistency run` / `facteval run`), not
    KGLens's; back in KGLens mode its own return."""
    own, kglens = config_type(), RunConfig()
    assert own.concurrency != kglens.concurrency  # else this test shows nothing
    app = KGLensApp(tmp_path / "w.db", load_settings(tmp_path / "none.toml"), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        assert _field(screen, "concurrency") == str(kglens.concurrency)
        screen.query_one("#mode", Select).value = mode
        await wait_for(pilot, lambda: _field(screen, "concurrency") == str(own.concurrency))
        assert _field(screen, facts) == str(getattr(own, facts))
        built = screen.build_mode_config(screen.build_config())
        assert (built.concurrency, getattr(built, facts)) == (own.concurrency, getattr(own, facts))
        if mode == "facteval":  # no contexts in the settings: the form asks every one
            assert built.contexts == list(CONTEXTS)
        screen.query_one("#mode", Select).value = "kglens"
        await wait_for(pilot, lambda: _field(screen, "concurrency") == str(kglens.concurrency))


@pytest.mark.tui
async def test_a_change_of_mode_keeps_what_the_user_typed(tmp_path: Path) -> None:
    app = KGLensApp(tmp_path / "w.db", load_settings(tmp_path / "none.toml"), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        screen.query_one("#concurrency", Input).value = "3"
        screen.query_one("#mode", Select).value = "kontest"
        relations = str(KontestConfig().relations)
        await wait_for(pilot, lambda: _field(screen, "relations") == relations)
        assert _field(screen, "concurrency") == "3"
        built = screen.build_mode_config(screen.build_config())
        assert (built.concurrency, built.relations) == (3, KontestConfig().relations)


@pytest.mark.parametrize(("mode", "facts", "expected"), [("kontest", "relations", 5),
                                                          ("facteval", "facts", 6)])  # fmt: skip
@pytest.mark.tui
async def test_a_unit_modes_settings_show_in_the_form_and_reach_its_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, facts: str, expected: int
) -> None:
    """The settings file, then a KGLENS_* variable, fill the unit mode's fields; the run
    started from the form has them."""
    from kglens_tui.tui.screens.live import LiveScreen

    config = tmp_path / "config.toml"
    config.write_text(
        'target = "sim"\nsubset = "paper16"\nrelations = 7\nfacts = 6\nconcurrency = 3\n'
        "max_requests = 2000000\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    monkeypatch.setenv("KGLENS_RELATIONS", "5")  # the variable wins over the file
    db = tmp_path / "w.db"
    app = KGLensApp(db, welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        screen.query_one("#mode", Select).value = mode
        await wait_for(pilot, lambda: _field(screen, facts) == str(expected))
        assert (_field(screen, "concurrency"), _field(screen, "max_requests")) == ("3", "2000000")
        assert screen.query_one("#subset", Select).value == "paper16"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        await wait_for(pilot, lambda: not app._busy(), 60)
    cfg = last_config(db)
    assert (cfg["mode"], cfg[facts], cfg["concurrency"]) == (mode, expected, 3)
    assert (cfg["subset"], cfg["max_requests"]) == ("paper16", 2000000)


@pytest.mark.tui
async def test_the_form_fills_a_unit_modes_own_fields_from_its_settings(tmp_path: Path) -> None:
    """Every setting of a unit mode is a field of the form, holding the settings' value when the
    mode is chosen; what the form holds is what the run gets."""
    config = tmp_path / "config.toml"
    config.write_text(
        "max_paths = 4\ntemperature = 0.5\nmax_tokens = 12\nsim_latency_s = 0.01\n"
        'distractors = 2\nqtypes = ["tfq", "mcq"]\ncontexts = ["none", "relevant"]\n',
        encoding="utf-8",
    )
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        screen.query_one("#mode", Select).value = "kontest"
        await wait_for(pilot, lambda: screen.query_one("#max_paths", Input).value == "4")
        kontest = screen.build_mode_config(screen.build_config())
        assert (kontest.max_paths, kontest.temperature, kontest.max_tokens) == (4, 0.5, 12)
        assert kontest.sim_latency_s == 0.01
        screen.query_one("#max_paths", Input).value = "7"
        assert screen.build_mode_config(screen.build_config()).max_paths == 7
        screen.query_one("#mode", Select).value = "facteval"
        await wait_for(pilot, lambda: screen.query_one("#distractors", Input).value == "2")
        assert screen.query_one("#qtypes", SelectionList).selected == ["tfq", "mcq"]
        facteval = screen.build_mode_config(screen.build_config())
        assert (facteval.distractors, facteval.qtypes) == (2, ["tfq", "mcq"])
        assert (facteval.contexts, facteval.temperature) == (["none", "relevant"], 0.5)
        screen.query_one("#contexts", SelectionList).select("antifactual")
        screen.query_one("#qtypes", SelectionList).deselect("tfq")
        facteval = screen.build_mode_config(screen.build_config())
        assert facteval.contexts == ["none", "relevant", "antifactual"]
        assert facteval.qtypes == ["mcq"]


@pytest.mark.tui
async def test_a_bad_unit_mode_setting_is_an_error_on_the_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value only fact-eval takes, bad, does not stop the TUI: choosing fact-eval says so."""
    monkeypatch.setenv("KGLENS_FACTS", "0")
    app = KGLensApp(tmp_path / "w.db", load_settings(tmp_path / "none.toml"), welcome=False)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        screen.query_one("#mode", Select).value = "facteval"
        await wait_for(pilot, lambda: any("$KGLENS_FACTS" in n.message for n in notices_of(app)))
        assert app.screen is screen


@pytest.mark.tui
async def test_the_settings_target_reaches_runs_from_the_form_and_the_welcome(
    tmp_path: Path,
) -> None:
    """A simulated seed or a local model file chosen in the settings is the target the form
    and the first run ask, not the kind's default."""
    config = tmp_path / "config.toml"
    config.write_text('target = "sim:3"\nseed = 1\n', encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    assert app.welcome_config().target == "sim:3"
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        target = screen.query_one("#target", Select)
        assert target.value == "sim"
        assert "sim:3, from the settings" in str(dict((v, p) for p, v in target._options)["sim"])
        assert screen.build_config().target == "sim:3"

    model = tmp_path / "[bold]tiny.gguf"
    config.write_text(f'target = "local:{model}"\n', encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    assert app.local_model() == str(model)
    async with app.run_test(size=MEDIUM) as pilot:
        screen = await _open_form(pilot)
        screen.query_one("#target", Select).value = "local"
        with pytest.raises(ConfigError, match="not a file"):  # not there yet
            screen.build_config()
        model.write_bytes(b"GGUF")
        if importlib.util.find_spec("llama_cpp") is not None:
            assert screen.build_config().target == f"local:{model}"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("db = 5", "setting 'db': expected a string (in quotes), got 5"),
        ("db = true", "setting 'db': expected a string"),
        ("theme = 5", "setting 'theme': expected a string (in quotes), got 5"),
        ("ui_refresh_hz = 0", "ui_refresh_hz must be between 0.5 and 60 (got 0)"),
        ("ui_refresh_hz = -5", "ui_refresh_hz must be between 0.5 and 60 (got -5)"),
        ("ui_refresh_hz = 1000", "ui_refresh_hz must be between 0.5 and 60 (got 1000)"),
        ("ui_refresh_hz = true", "setting 'ui_refresh_hz': expected a number, got True"),
        ("keys = 'q'", "setting 'keys': expected a table"),
        ("[keys]\nquit = 5", "[keys] quit: expected a string"),
    ],
)
def test_app_settings_of_the_wrong_type_or_range_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, text: str, shown: str
) -> None:
    """`db = 5` is no workspace named "5" in the current directory; a refresh rate the live
    screen cannot use is refused, not raised to 0.5 or spent on frames Textual never draws."""
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text(text + "\n", encoding="utf-8")
    line = text.count("\n") + 1  # the setting's own line (a table's entry: under its header)
    with pytest.raises(SettingsError, match=f"^{config}, line {line}: ") as raised:
        load_settings(config)
    assert shown in str(raised.value)
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    monkeypatch.delenv("KGLENS_DB")
    monkeypatch.chdir(tmp_path)
    assert main(["runs"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {config}, line {line}: ")
    assert len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


@pytest.mark.parametrize("value", ["0", "-5", "61", "nan"])
def test_a_bad_refresh_rate_variable_names_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("KGLENS_UI_REFRESH_HZ", value)
    with pytest.raises(SettingsError, match=r"^\$KGLENS_UI_REFRESH_HZ: setting 'ui_refresh_hz'"):
        load_settings(tmp_path / "none.toml")


def test_the_refresh_rate_s_bounds_are_allowed_and_origins_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('ui_refresh_hz = 0.5\ndb = "w.db"\n[keys]\nquit = "x"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_THEME", "nord")
    monkeypatch.delenv("KGLENS_DB")
    settings = load_settings(config, overrides={"ui_refresh_hz": 60})
    assert settings.ui_refresh_hz == 60 and load_settings(config).ui_refresh_hz == 0.5
    assert settings.origins == {
        "db": f"{config}, line 2",
        "keys": f"{config}, line 3",
        "ui_refresh_hz": "command line",
        "theme": "$KGLENS_THEME",
    }


@pytest.mark.tui
def test_a_missing_local_model_in_the_settings_falls_back_to_smollm2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kglens_tui.tui.app as tui_app

    monkeypatch.setattr(tui_app, "local_available", lambda model="smollm2": model == "smollm2")
    config = tmp_path / "config.toml"
    config.write_text('target = "local:/nope/missing.gguf"\n', encoding="utf-8")
    app = KGLensApp(tmp_path / "w.db", load_settings(config), welcome=False)
    assert app.default_target() == ("local", "smollm2")
    assert app.welcome_config().target == "local:smollm2"
    assert app.default_target_text() == "the local SmolLM2-135M model"


def test_a_variable_no_setting_reads_is_one_warning_naming_the_nearest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from kglens_tui.cli.main import main

    db = tmp_path / "w.db"
    monkeypatch.setenv("KGLENS_SAMPLR", "thompson")  # a typo: the run would use the default
    monkeypatch.setenv("KGLENS_SEED", "3")  # read: no warning
    assert main(["--db", str(db), "probe", "--no-tui", "--quiet", "--iterations", "1"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "warning: $KGLENS_SAMPLR is not a kglens setting, so it changes nothing "
        "(did you mean $KGLENS_SAMPLER?)"
    )
    assert not any("warning" in line for line in err[1:])
    assert last_config(db)["seed"] == 3


def test_every_variable_kglens_reads_is_known_to_the_warning() -> None:
    from kglens_tui.runs.given_settings import unread_variables
    from kglens_tui.runs.registry import mode_names

    read = ["KGLENS_DB", "KGLENS_CONFIG", "KGLENS_LOCK_WAIT", "KGLENS_WIKIDATA_CACHE"]
    read += ["KGLENS_NAMES_CACHE", "KGLENS_KG_CACHE"]
    read += ["KGLENS_WIKIDATA_CONTACT", "KGLENS_THEME", "KGLENS_UI_REFRESH_HZ"]
    read += ["KGLENS_SAMPLER", "KGLENS_RELATIONS", "KGLENS_FACTS", "KGLENS_SIM_LATENCY_S"]
    assert len(mode_names()) >= 3
    assert unread_variables(dict.fromkeys(read, "1")) == []
    # a mode's own name is not an option: $KGLENS_MODE used to stop a KONTEST run
    assert unread_variables({"KGLENS_MODE": "kontest"})[0].startswith("$KGLENS_MODE is not")
    # what --api-key-env may name
    assert unread_variables({"KGLENS_OPENAI_KEY": "sk", "KGLENS_HF_TOKEN": "t"}) == []
    # ... but not a typo of an option that ends the same way
    assert unread_variables({"KGLENS_MAX_TOKEN": "9"}) == [
        "$KGLENS_MAX_TOKEN is not a kglens setting, so it changes nothing "
        "(did you mean $KGLENS_MAX_TOKENS?)"
    ]
    assert unread_variables({"KGLENS_KEYS": "x"}) == [
        "$KGLENS_KEYS changes nothing: [keys] is set in the settings file"
    ]


def test_kglens_mode_in_the_environment_leaves_a_kontest_run_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from kglens_tui.cli.main import main

    monkeypatch.setenv("KGLENS_MODE", "facteval")
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "consistency", "run", "--quiet", "--relations", "5"]) == 0
    err = capsys.readouterr().err
    assert "warning: $KGLENS_MODE is not a kglens setting" in err and "error" not in err
    assert last_config(db)["mode"] == "kontest"


def test_the_live_redraw_interval_keeps_to_the_refresh_rate_s_range() -> None:
    from kglens_tui.settings import Settings

    assert Settings(ui_refresh_hz=4).redraw_seconds() == 0.25
    assert Settings(ui_refresh_hz=0).redraw_seconds() == 2.0  # never a division by zero
    assert Settings(ui_refresh_hz=1e6).redraw_seconds() == 1 / 60


def test_an_empty_kglens_db_leaves_the_settings_files_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    wanted = tmp_path / "from-settings.db"
    config.write_text(f'db = "{wanted}"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    monkeypatch.setenv("KGLENS_DB", "")
    settings = load_settings()
    assert settings.db == str(wanted) and settings.origins["db"].startswith(str(config))
    assert main(["runs"]) == 0
    assert f"no workspace at {wanted}" in capsys.readouterr().out.replace("\n", "")
