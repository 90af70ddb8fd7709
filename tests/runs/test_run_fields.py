"""One definition of each run option: the settings dataclass's fields and their docstrings make
the `kglens probe` flags, the `kglens run --list-settings` table and the new-run form's help."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from kglens_tui.cli.main import build_parser, main
from kglens_tui.modes.config import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.fields import add_config_arguments, config_from_args, field_help
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.new_run import FIELD_HELP


def _probe_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["probe"]


@pytest.mark.parametrize("config_type", [RunConfig, KontestConfig, FactevalConfig])
def test_every_setting_has_its_help_written_once(config_type: type) -> None:
    docs = field_help(config_type)
    missing = [f.name for f in dataclasses.fields(config_type) if f.name != "mode"]
    assert [name for name in missing if not docs.get(name)] == []


def test_every_probe_flag_is_a_run_setting_with_the_fields_help() -> None:
    docs = field_help(RunConfig)
    actions = {a.dest: a for a in _probe_parser()._actions}
    settings = {f.name for f in dataclasses.fields(RunConfig)}
    assert settings <= set(actions)
    assert set(actions) - settings == {"help", "no_tui", "resume", "name", "quiet", "yes"}
    for name in settings:
        assert actions[name].default is None  # given or not is known: settings fill the rest
        assert docs[name][1:] in (actions[name].help or "").replace("%%", "%")
    assert actions["sampler"].choices[:5] == [
        "thompson",
        "epsilon-greedy",
        "monte-carlo",
        "brute-force",
        "top-k",
    ]
    assert actions["stop_on_convergence"].option_strings == ["--no-convergence-stop"]


def test_flags_are_typed_and_only_given_ones_replace_the_config() -> None:
    parser = argparse.ArgumentParser()
    add_config_arguments(parser, RunConfig)
    args = parser.parse_args(["--batch-size", "8", "--no-propagation", "--difficulty", "wh"])
    config = config_from_args(RunConfig(iterations=7), args)
    assert (config.batch_size, config.propagation, config.difficulty) == (8, False, "wh")
    assert config.iterations == 7 and config.sampler == RunConfig.sampler
    with pytest.raises(SystemExit):
        parser.parse_args(["--batch-size", "eight"])


def test_the_form_shows_the_fields_own_help() -> None:
    docs = field_help(RunConfig)
    for name in ("sampler", "difficulty", "batch_size", "max_requests", "base_url"):
        assert FIELD_HELP[name] == docs[name]


def test_run_lists_a_modes_settings(capsys) -> None:
    assert main(["run", "kontest", "--list-settings"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "max_paths" in out and "KONTEST settings" in out


@pytest.mark.parametrize(
    "config_type, change, error",
    [
        (RunConfig, {"seed": -1}, "seed must not be negative"),
        (KontestConfig, {"seed": -1}, "seed must not be negative"),
        (RunConfig, {"convergence_window": 0}, "convergence_window must be at least 1"),
    ],
)
def test_settings_that_would_fail_later_are_refused_by_name(
    config_type: type, change: dict, error: str
) -> None:
    with pytest.raises(ConfigError, match=error):
        config_type(**change).validate()


@pytest.mark.parametrize(
    "command, flags, said",
    [
        (["probe", "--no-tui", "--quiet"], ["--timeout", "0"], "error: --timeout must be positive"),
        (["consistency", "run", "--quiet"], ["--rpm", "0"], "error: --rpm must be a positive"),
        (["facteval", "run", "--quiet"], ["--max-tokens-total", "0"], "error: --max-tokens-total"),
    ],
)
def test_a_bad_flag_is_named_as_the_command_line_names_it(
    tmp_path, capsys, command: list[str], flags: list[str], said: str
) -> None:
    assert main(["--db", str(tmp_path / "w.db"), *command, *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(said) and len(err.splitlines()) == 1
    db = tmp_path / "w.db"
    assert not db.exists() or connect(db).execute("SELECT COUNT(*) FROM run").fetchone()[0] == 0


def test_kontest_paths_alone_are_a_run_where_the_kg_declares_a_transitive_predicate() -> None:
    """relations=0 walks only paths: of the predicates given, else the KG's own (the bundled
    places KG declares located_in; the country KG none)."""
    assert KontestConfig(kg="places", relations=0).validate().relations == 0
    with pytest.raises(ConfigError, match="nothing to test"):
        KontestConfig(kg="country", relations=0).validate()


def test_a_settings_help_is_its_fields_metadata_not_its_source() -> None:
    """Help is read from `setting`'s metadata, so a settings class made without source (here
    by `make_dataclass`) has it too, and a default or factory gives each instance its own."""
    import dataclasses

    from kglens_tui.runs.config import ModeConfig
    from kglens_tui.runs.setting import setting

    made = dataclasses.make_dataclass(
        "Made",
        [
            ("depth", int, setting(3, "How deep to go.")),
            ("names", list[str], setting(factory=list, help="Names, comma-separated.")),
        ],
        bases=(ModeConfig,),
    )
    docs = field_help(made)
    assert docs["depth"] == "How deep to go." and docs["names"] == "Names, comma-separated."
    assert docs["kg"].startswith("The knowledge graph")
    first, second = made(), made()
    assert first.depth == 3 and first.names == [] and first.names is not second.names


def test_a_mode_changes_a_shared_default_without_restating_the_setting() -> None:
    import dataclasses

    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.config import ModeConfig
    from kglens_tui.runs.setting import new_default

    shared, kglens = field_help(ModeConfig), field_help(RunConfig)
    assert (RunConfig().concurrency, ModeConfig().concurrency) == (16, 8)
    assert kglens["concurrency"] == shared["concurrency"]
    own = {f.name for f in dataclasses.fields(RunConfig)} - {
        f.name for f in dataclasses.fields(ModeConfig)
    }
    redeclared = [
        name for name in RunConfig.__annotations__ if name not in own
    ]  # a shared setting RunConfig declares again: only to change its default
    assert sorted(redeclared) == ["concurrency", "max_tokens"]
    assert all(kglens[name] == shared[name] for name in redeclared)
    with pytest.raises(TypeError, match="no setting 'nope'"):
        new_default(ModeConfig, "nope", 1)
