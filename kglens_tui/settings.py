"""Settings: defaults < TOML file in the platform config directory < KGLENS_* environment
variables < command-line flags. The app's own settings are typed and documented here; run
options are the fields of each mode's run settings, typed and documented there."""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from kglens_tui.core.errors import KGLensError

CONFIG_ENV = "KGLENS_CONFIG"


class SettingsError(KGLensError, ValueError):
    """A bad value in the settings file or environment; names where it came from."""


@dataclass
class Settings:
    """User settings. The TOML file uses the same names, e.g. `theme = "textual-light"`; any
    other name in it is a run option (see `run`)."""

    db: str = ""
    """Workspace database path (`~` is your home; a relative path is taken from the current
    directory); `--db` and $KGLENS_DB win over it; empty means the per-user data directory."""
    theme: str = "textual-dark"
    """Textual theme name (the TUI checks it is one of Textual's themes when it starts)."""
    ui_refresh_hz: float = 4.0
    """How often the live screen redraws from the engine's stats (a few times a second;
    between 0.5 and 60, Textual's most frames a second)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Key overrides by binding id: new_run, resume, import, help, quit, pause, stop, start;
    e.g. [keys] pause = "space" (several keys: "f2,ctrl+n"). The TUI checks, when it starts,
    the names, the keys and that no two actions of a screen share a key. The defaults avoid
    ctrl+b and ctrl+a (tmux and screen prefixes); so should overrides."""
    run: dict[str, Any] = field(default_factory=dict)
    """Run options the file sets, by the name of the run settings' field (`kglens run MODE
    --list-settings`), e.g. `sampler = "thompson"`: a new run of every mode that has the option
    starts from it, and a KGLENS_<NAME> variable overrides it (checked and applied by
    `kglens_tui.runs.commands.settings_config`)."""

    source: str = "defaults"
    """Where the values came from (not a setting)."""
    given: frozenset[str] = frozenset()
    """The app settings the file, the environment or the command line set (not a setting)."""
    run_file: str = ""
    """The file the run options came from (not a setting)."""
    origins: dict[str, str] = field(default_factory=dict)
    """Where each given app setting's value came from, by name: the file's path,
    $KGLENS_<NAME> or "command line" (not a setting)."""

    def redraw_seconds(self) -> float:
        """Seconds between live-screen redraws: 1 / ui_refresh_hz, the rate held within
        `RANGES` (a Settings made in code is not checked)."""
        low, high = RANGES["ui_refresh_hz"]
        return 1 / min(max(self.ui_refresh_hz, low), high)


NOT_SETTINGS = ("run", "source", "given", "run_file", "origins")
"""Fields of `Settings` that are not app settings a file or variable sets by name."""

RANGES: dict[str, tuple[float, float]] = {"ui_refresh_hz": (0.5, 60.0)}
"""The values a number setting may take, inclusive. The live screen redraws at least every
2 s (it raises a lower rate to 0.5) and Textual draws at most 60 frames a second (its
default $TEXTUAL_FPS), so a faster rate only costs CPU."""


def config_path() -> Path:
    """The settings file: $KGLENS_CONFIG, else config.toml in the platform config directory."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir("kglens", appauthor=False)) / "config.toml"


def _coerce(name: str, value: Any, kind: type, where: str) -> Any:
    """``value`` as the setting's type; SettingsError, naming ``where`` and the setting, when
    it is of another type (a TOML file's `db = 5`: no workspace named "5") or out of range."""
    if kind is dict and isinstance(value, dict):
        for key, entry in value.items():
            if not isinstance(entry, str):
                raise SettingsError(
                    f'{where}: [{name}] {key}: expected a string, e.g. {key} = "ctrl+n", '
                    f"got {entry!r}"
                )
        return {str(k): v for k, v in value.items()}
    try:
        if kind is bool:
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        if kind is dict:
            raise TypeError(f"expected a table, e.g. [{name}], got {value!r}")
        if kind is str and not isinstance(value, str):
            raise TypeError(f"expected a string (in quotes), got {value!r}")
        if kind is float and (isinstance(value, bool) or not isinstance(value, int | float | str)):
            raise TypeError(f"expected a number, got {value!r}")
        coerced = kind(value)
        if name == "db" and coerced:
            coerced = str(Path(coerced).expanduser())
        if kind is float and not math.isfinite(coerced):
            raise ValueError(f"{value!r} is not a finite number")
        if name in RANGES and not RANGES[name][0] <= coerced <= RANGES[name][1]:
            low, high = RANGES[name]
            raise ValueError(f"{name} must be between {low:g} and {high:g} (got {value})")
        return coerced
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"{where}: setting '{name}': {exc}") from None


def load_settings(path: Path | None = None, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings from the file, then KGLENS_<NAME> environment variables, then `overrides`."""
    settings = Settings()
    types = {
        f.name: type(getattr(settings, f.name))
        for f in fields(settings)
        if f.name not in NOT_SETTINGS
    }
    given: set[str] = set()
    sources = []
    file = path or config_path()
    if os.environ.get(CONFIG_ENV) and path is None and not file.is_file():
        raise SettingsError(f"${CONFIG_ENV} names {file}, which is not a file")
    if file.is_file():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError(f"{file}: {exc}") from None
        for key, value in data.items():
            if key not in types:
                settings.run[key] = value
                continue
            setattr(settings, key, _coerce(key, value, types[key], str(file)))
            given.add(key)
            settings.origins[key] = str(file)
        settings.run_file = str(file)
        sources.append(str(file))
    for key, kind in types.items():
        env = os.environ.get(f"KGLENS_{key.upper()}")
        if env is not None and kind is not dict:
            setattr(settings, key, _coerce(key, env, kind, f"$KGLENS_{key.upper()}"))
            given.add(key)
            settings.origins[key] = f"$KGLENS_{key.upper()}"
            sources.append(f"$KGLENS_{key.upper()}")
    for key, value in (overrides or {}).items():
        if value is not None and key in types:
            setattr(settings, key, _coerce(key, value, types[key], "command line"))
            given.add(key)
            settings.origins[key] = "command line"
            sources.append("command line")
    settings.source = ", ".join(dict.fromkeys(sources)) or "defaults"
    settings.given = frozenset(given)
    return settings
