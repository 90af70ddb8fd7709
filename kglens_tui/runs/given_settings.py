"""A new run's settings as the user gives them outside the command line: the mode's defaults,
then the settings file, then KGLENS_<NAME> variables, each value checked where it came from; and
the warnings for names no setting reads. The CLI and the TUI resolve a run's settings here."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import fields

from kglens_tui.kg.bundled_store import STORE_ENV as KG_STORE_ENV
from kglens_tui.kg.names_store import STORE_ENV
from kglens_tui.kg.wikidata.cache import CACHE_ENV
from kglens_tui.kg.wikidata.client import CONTACT_ENV
from kglens_tui.runs.config import ModeConfig, check_new_run
from kglens_tui.runs.options import apply_assignments
from kglens_tui.runs.registry import get_mode, mode_names
from kglens_tui.settings import CONFIG_ENV, NOT_SETTINGS, Settings, SettingsError, load_settings
from kglens_tui.store.connection import DB_ENV, LOCK_WAIT_ENV


def settings_config(
    mode_name: str, settings: Settings | None = None, overridden: Iterable[str] = ()
) -> ModeConfig:
    """A new run's settings for a mode: its defaults, then the settings file, then KGLENS_<NAME>
    variables, for every field of the mode's run settings (``settings``: as loaded, default
    the user's). An option of no mode in the file is an error that names the file. The options
    named in ``overridden`` (the command line gives them) are neither applied nor checked."""
    config = get_mode(mode_name).config_type()
    given = {name: (text, where) for name, text, where in given_run_options(mode_name, settings)}
    for name in overridden:
        given.pop(name, None)
    for name, (text, where) in given.items():  # a variable has replaced the file's value
        try:  # checked one by one, so that the error names where the bad value came from
            config = apply_assignments(config, [f"{name}={text}"])
            check_new_run(config)
        except ValueError as exc:
            reason = str(exc).removeprefix(f"{name}: ")
            raise SettingsError(f"{where}: setting '{name}': {reason}") from None
    return config


def run_options(mode_name: str) -> list[str]:
    """The names of a mode's run options: its settings' fields but the mode itself."""
    return [f.name for f in fields(get_mode(mode_name).config_type()) if f.name != "mode"]


def given_run_options(
    mode_name: str, settings: Settings | None = None
) -> list[tuple[str, str, str]]:
    """(name, value as text, where it came from) of each of the mode's run options the settings
    file ("FILE, line N") or a KGLENS_<NAME> variable gives, the file's first (the variable
    overrides it). A name in the file that is no setting of any mode is an error naming the
    file, the line and the nearest name."""
    settings = settings if settings is not None else load_settings()
    check_setting_names(settings)
    own = run_options(mode_name)
    given = [
        (name, as_text(settings.run[name]), settings.place(name))
        for name in own
        if name in settings.run
    ]
    for name in own:
        variable = f"KGLENS_{name.upper()}"
        if (value := os.environ.get(variable)) is not None:
            given.append((name, value, f"${variable}"))
    return given


def check_setting_names(settings: Settings) -> None:
    """SettingsError, naming the file, the line and the nearest name, for a name in the
    settings file that is neither an app setting nor a run option of any mode (a typo would
    otherwise leave the option it meant at its default without a word)."""
    known = {option for name in mode_names() for option in run_options(name)}
    app = [f.name for f in fields(Settings) if f.name not in NOT_SETTINGS]
    for name in settings.run:
        if name not in known:
            near = difflib.get_close_matches(name, sorted(known | set(app)), n=1)
            hint = f"did you mean {near[0]}? " if near else ""
            raise SettingsError(
                f"{settings.place(name)}: unknown setting '{name}' ({hint}app settings: "
                f"{', '.join(app)}; run options: `kglens run MODE --list-settings`)"
            )


def settings_problems(settings: Settings) -> dict[str, str]:
    """What is wrong with the run options the settings file and KGLENS_* variables give, by the
    mode whose new runs would refuse them: one line each naming where the value came from (a
    mode without a problem is left out). A command that starts a run of a mode refuses its
    problem itself (`settings_config`); any other command can warn of all of them."""
    problems = {}
    for name in mode_names():
        try:
            settings_config(name, settings)
        except SettingsError as exc:
            problems[name] = str(exc)
    return problems


_CREDENTIAL = re.compile("_(?:KEY|TOKEN|SECRET|PASSWORD)$")
"""How the name of a variable holding a credential ends: `--api-key-env` may name any."""


def unread_variables(environ: Mapping[str, str] | None = None) -> list[str]:
    """A warning for each KGLENS_* variable that no setting, run option or command reads (a typo
    would otherwise change nothing without a word), naming the nearest one that is read. A
    name ending like a credential's (`_KEY`, `_TOKEN`, ...) is left alone, `--api-key-env` may
    name it, unless it is one letter from a name that is read (`KGLENS_MAX_TOKEN`). The modes
    (and plugins) are loaded only when some variable is not an app setting's."""
    environ = os.environ if environ is None else environ
    read = {CONFIG_ENV, DB_ENV, LOCK_WAIT_ENV, CONTACT_ENV, CACHE_ENV, STORE_ENV, KG_STORE_ENV}
    read |= {f"KGLENS_{f.name.upper()}" for f in fields(Settings) if f.name not in NOT_SETTINGS}
    read.discard("KGLENS_KEYS")  # a table: only the settings file gives it
    if not any(v.startswith("KGLENS_") and v not in read for v in environ):
        return []
    read |= {f"KGLENS_{option.upper()}" for name in mode_names() for option in run_options(name)}
    names = sorted(read)
    warnings = []
    for variable in sorted(v for v in environ if v.startswith("KGLENS_") and v not in read):
        if _CREDENTIAL.search(variable) and not difflib.get_close_matches(
            variable, names, n=1, cutoff=0.95
        ):
            continue
        if variable == "KGLENS_KEYS":
            warnings.append("$KGLENS_KEYS changes nothing: [keys] is set in the settings file")
            continue
        near = difflib.get_close_matches(variable, names, n=1)
        hint = f" (did you mean ${near[0]}?)" if near else ""
        warnings.append(f"${variable} is not a kglens setting, so it changes nothing{hint}")
    return warnings


def as_text(value: object) -> str:
    """A value as `--set` takes it: lists comma-separated, booleans true / false, None as none."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)
