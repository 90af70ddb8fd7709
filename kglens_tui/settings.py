"""Settings: defaults < TOML file in the platform config directory < KGLENS_* environment
variables < command-line flags. Every field is typed and documented here."""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from kglens_tui.core.errors import KGLensError
from kglens_tui.llm.urls import check_base_url

CONFIG_ENV = "KGLENS_CONFIG"


class SettingsError(KGLensError, ValueError):
    """A bad value in the settings file or environment; names where it came from."""


@dataclass
class Settings:
    """User settings. The TOML file uses the same names, e.g. `theme = "textual-light"`."""

    db: str = ""
    """Workspace database path; empty means $KGLENS_DB or the per-user data directory."""
    target: str = ""
    """Default target for new runs: local:smollm2, openai:MODEL or sim. Empty = best available."""
    base_url: str = ""
    """Default OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable holding the API key (the key is never stored)."""
    kg: str = "country"
    """Default KG for new runs."""
    difficulty: str = "easy"
    """Default difficulty: easy (Yes/No only) or hard (Yes/No and Wh)."""
    batch_size: int = 64
    """Default batch size (paper: 64)."""
    iterations: int = 60
    """Default iteration limit (paper: 60)."""
    concurrency: int = 16
    """Default requests in flight."""
    theme: str = "textual-dark"
    """Textual theme name."""
    sim_latency_s: float = 0.0
    """Seconds the simulated target takes per answer (0 = full speed)."""
    ui_refresh_hz: float = 4.0
    """How often the live screen redraws from the engine's stats (a few times a second)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Key overrides by binding id: new_run, resume, import, help, quit, pause, stop, start;
    e.g. [keys] pause = "space". The defaults avoid ctrl+b and ctrl+a (tmux and screen
    prefixes); so should overrides."""

    source: str = "defaults"
    """Where the values came from (not a setting)."""
    given: frozenset[str] = frozenset()
    """The settings the file, the environment or the command line set (not a setting)."""


def config_path() -> Path:
    """The settings file: $KGLENS_CONFIG, else config.toml in the platform config directory."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_config_dir("kglens", appauthor=False)) / "config.toml"


def _coerce(name: str, value: Any, kind: type, where: str) -> Any:
    try:
        if kind is bool:
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        if kind is dict:
            if not isinstance(value, dict):
                raise TypeError("expected a table")
            return {str(k): str(v) for k, v in value.items()}
        coerced = kind(value)
        if kind is float and not math.isfinite(coerced):
            raise ValueError(f"{value!r} is not a finite number")
        if name == "base_url" and coerced:
            check_base_url(coerced)
        return coerced
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"{where}: setting '{name}': {exc}") from None


def load_settings(path: Path | None = None, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings from the file, then KGLENS_<NAME> environment variables, then `overrides`."""
    settings = Settings()
    types = {
        f.name: type(getattr(settings, f.name))
        for f in fields(settings)
        if f.name not in ("source", "given")
    }
    given: set[str] = set()
    sources = []
    file = path or config_path()
    if file.is_file():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SettingsError(f"{file}: {exc}") from None
        for key, value in data.items():
            if key not in types:
                raise SettingsError(f"{file}: unknown setting '{key}' (known: {', '.join(types)})")
            setattr(settings, key, _coerce(key, value, types[key], str(file)))
            given.add(key)
        sources.append(str(file))
    for key, kind in types.items():
        env = os.environ.get(f"KGLENS_{key.upper()}")
        if env is not None and kind is not dict:
            setattr(settings, key, _coerce(key, env, kind, f"$KGLENS_{key.upper()}"))
            given.add(key)
            sources.append(f"$KGLENS_{key.upper()}")
    for key, value in (overrides or {}).items():
        if value is not None and key in types:
            setattr(settings, key, _coerce(key, value, types[key], "command line"))
            given.add(key)
            sources.append("command line")
    settings.source = ", ".join(dict.fromkeys(sources)) or "defaults"
    settings.given = frozenset(given)
    return settings


RUN_SETTINGS = (
    "kg",
    "target",
    "base_url",
    "api_key_env",
    "difficulty",
    "batch_size",
    "iterations",
    "concurrency",
    "sim_latency_s",
)
"""The settings that are also run settings: a new run of any mode starts from them."""


def given_run_settings(settings: Settings) -> dict[str, Any]:
    """The run settings the file or environment set (even to the built-in default value)."""
    return {name: getattr(settings, name) for name in RUN_SETTINGS if name in settings.given}
