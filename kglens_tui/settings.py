"""Settings: defaults < TOML file in the platform config directory < KGLENS_* environment
variables < command-line flags. The app's own settings are typed and documented here; run
options are the fields of each mode's run settings, typed and documented there."""

from __future__ import annotations

import functools
import math
import os
import re
import tomllib
from collections.abc import Callable
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
    """Textual theme name (the TUI checks it is one of Textual's themes when it starts; another
    command warns of one Textual does not have)."""
    ui_refresh_hz: float = 4.0
    """How often the live screen redraws from the engine's stats (a few times a second;
    between 0.5 and 60, Textual's most frames a second)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Key overrides by binding id: new_run, resume, import, help, quit, pause, stop, start;
    e.g. [keys] pause = "space" (several keys: "f2,ctrl+n"). The TUI checks, when it starts,
    the names, the keys and that no two actions of a screen share a key. The defaults avoid
    ctrl+b and ctrl+a (tmux and screen prefixes); so should overrides."""
    prices: dict[str, str] = field(default_factory=dict)
    """Model prices in US dollars per million tokens, input / output (and optionally the batch
    discount), over the built-in list prices (`kglens_tui.llm.pricing`), e.g. [prices]
    "gpt-4o" = "2.50/10.00"; a run's spend and estimate use them."""
    confirm_cost_above: float = 1.0
    """A new run against a priced model whose estimated cost may pass this many US dollars asks
    before it starts (a command without a terminal to ask on needs --yes)."""
    serve_password: str = ""
    """A password `kglens serve` also lets a browser in with (its page asks for it), besides the
    link with the random token it prints; empty: the link only."""
    run: dict[str, Any] = field(default_factory=dict)
    """Run options the file sets, by the name of the run settings' field (`kglens run MODE
    --list-settings`), e.g. `sampler = "thompson"`: a new run of every mode that has the option
    starts from it, and a KGLENS_<NAME> variable overrides it (checked and applied by
    `kglens_tui.runs.given_settings.settings_config`)."""

    source: str = "defaults"
    """Where the values came from (not a setting)."""
    given: frozenset[str] = frozenset()
    """The app settings the file, the environment or the command line set (not a setting)."""
    run_file: str = ""
    """The file the run options came from (not a setting)."""
    origins: dict[str, str] = field(default_factory=dict)
    """Where each given app setting's value came from, by name: the file and the line that
    sets it ("config.toml, line 3"), $KGLENS_<NAME> or "command line" (not a setting)."""
    lines: dict[str, int] = field(default_factory=dict)
    """The line of the settings file that sets each of its top-level names (a table's: its
    header), for messages (not a setting)."""

    def place(self, name: str) -> str:
        """Where the settings file sets ``name`` (a table's entry: "table.entry"): "FILE, line
        N" ("FILE" when the line is not known, e.g. a Settings made in code)."""
        return at_line(self.run_file, self.lines.get(name))

    def redraw_seconds(self) -> float:
        """Seconds between live-screen redraws: 1 / ui_refresh_hz, the rate held within
        `RANGES` (a Settings made in code is not checked)."""
        low, high = RANGES["ui_refresh_hz"]
        return 1 / min(max(self.ui_refresh_hz, low), high)


NOT_SETTINGS = ("run", "source", "given", "run_file", "origins", "lines")
"""Fields of `Settings` that are not app settings a file or variable sets by name."""

RANGES: dict[str, tuple[float, float]] = {
    "ui_refresh_hz": (0.5, 60.0),
    "confirm_cost_above": (0.0, 1e9),
}
"""The values a number setting may take, inclusive. The live screen redraws at least every
2 s (it raises a lower rate to 0.5) and Textual draws at most 60 frames a second (its
default $TEXTUAL_FPS), so a faster rate only costs CPU."""


def config_path() -> Path:
    """The settings file: $KGLENS_CONFIG, else config.toml in the platform config directory."""
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser()
    return default_config_path()


def default_config_path() -> Path:
    """config.toml in the platform config directory (read when it exists)."""
    return Path(platformdirs.user_config_dir("kglens", appauthor=False)) / "config.toml"


def at_line(file: object, line: int | None) -> str:
    """A place in a settings file as messages name it: "FILE, line N" (just "FILE" without a
    line)."""
    return f"{file}, line {line}" if line else str(file)


_NAME = r"""(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))"""
_PART = r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY = re.compile(rf"\s*{_NAME}(?:\s*\.\s*{_PART})*\s*=")
_TABLE = re.compile(rf"\s*\[\[?\s*{_NAME}")
_WORD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_-]*)(?:\s|$)")
"""A line that begins with a name but sets nothing ("seed 3", the "=" left out)."""
_TOML_PLACE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def _name_on(line: str) -> tuple[str, str] | None:
    """("key", name) when ``line`` sets a key, ("table", name) when it opens a table, else
    None (the first part of a dotted or quoted name)."""
    for kind, pattern in (("table", _TABLE), ("key", _KEY)):
        found = pattern.match(line)
        if found:
            return kind, next(g for g in found.groups() if g is not None)
    return None


def key_lines(text: str) -> dict[str, int]:
    """The line (from 1) of each top-level name a TOML document sets: a key before the first
    table, or a table's header; and of each key in a table, as "table.key"; the first one
    where a name repeats."""
    lines: dict[str, int] = {}
    table = None
    for number, line in enumerate(text.splitlines(), 1):
        named = _name_on(line)
        if named is None:
            continue
        kind, name = named
        if kind == "table":
            table = name
        lines.setdefault(name if kind == "table" or table is None else f"{table}.{name}", number)
    return lines


def _toml_error(file: Path, text: str, exc: tomllib.TOMLDecodeError) -> SettingsError:
    """One line for a settings file that is not TOML: the file and line, the setting (or table)
    the line writes and what is wrong. tomllib says "at end of document" for a
    value left open (an unclosed list or string): that is the last line that is not blank, and
    the setting is the one begun nearest above it."""
    message = str(exc)
    found = _TOML_PLACE.search(message)
    reason = message[: found.start()] if found else message
    lines = text.splitlines()
    if found and found.group(1):
        number, detail = int(found.group(1)), f"column {found.group(2)}"
        line = lines[number - 1] if number <= len(lines) else ""
        word = _WORD.match(line)
        named = _name_on(line) or (("key", word.group(1)) if word else None)
    else:  # a value left open: the setting begun nearest above the last line
        filled = [i for i, line in enumerate(lines, 1) if line.strip()]
        number, detail = (filled[-1] if filled else 1), "the file ends before it is complete"
        named = next((n for n in map(_name_on, reversed(lines[:number])) if n is not None), None)
    table = ""
    for line in lines[: number - 1]:
        opened = _name_on(line)
        if opened is not None and opened[0] == "table":
            table = opened[1]
    if named is None:
        what = f"in table [{table}]: " if table else ""
    elif named[0] == "table":
        what = f"table [{named[1]}]: "
    else:
        what = f"[{table}] {named[1]}: " if table else f"setting '{named[1]}': "
    # the line itself is not shown: it may hold a credential (a key pasted in a base URL)
    return SettingsError(f"{at_line(file, number)}: {what}not valid TOML: {reason} ({detail})")


def _entry_place(settings: Settings, table: str, entry: str) -> str:
    """Where the settings file sets an entry of a table ("FILE, line N")."""
    return settings.place(f"{table}.{entry}")


def _coerce(
    name: str, value: Any, kind: type, where: str, where_in: Callable[[str], str] | None = None
) -> Any:
    """``value`` as the setting's type; SettingsError, naming ``where`` (a table's entry:
    ``where_in(entry)``) and the setting, when it is of another type (a TOML file's `db = 5`:
    no workspace named "5") or out of range."""
    if kind is dict and isinstance(value, dict):
        for key, entry in value.items():
            if not isinstance(entry, str):
                place = where_in(key) if where_in is not None else where
                raise SettingsError(
                    f'{place}: [{name}] {key}: expected a string, e.g. {key} = "ctrl+n", '
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


def _check_prices(prices: dict[str, str], where_in: Callable[[str], str]) -> None:
    """SettingsError naming the file, line and model of a price that cannot be read."""
    from kglens_tui.llm.pricing import PriceError, parse_price

    for model, text in prices.items():
        try:
            parse_price(text)
        except PriceError as exc:
            raise SettingsError(f"{where_in(model)}: [prices] {model}: {exc}") from None


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
        what = "a directory" if file.is_dir() else "not a file" if file.exists() else "missing"
        raise SettingsError(
            f"${CONFIG_ENV} names the settings file {file}, which is {what} (unset "
            f"${CONFIG_ENV} for the default one, {default_config_path()})"
        )
    if file.is_file():
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            line = file.read_bytes()[: exc.start].count(b"\n") + 1
            raise SettingsError(
                f"{at_line(file, line)}: not UTF-8 text (byte {exc.object[exc.start]:#04x})"
            ) from None
        except OSError as exc:
            raise SettingsError(f"{file}: cannot read the settings file ({exc.strerror})") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _toml_error(file, text, exc) from None
        settings.lines = key_lines(text)
        settings.run_file = str(file)
        for key, value in data.items():
            if key not in types:
                settings.run[key] = value
                continue
            where = settings.place(key)
            where_in = functools.partial(_entry_place, settings, key)
            setattr(settings, key, _coerce(key, value, types[key], where, where_in))
            if key == "prices":
                _check_prices(settings.prices, where_in)
            given.add(key)
            settings.origins[key] = where
        sources.append(str(file))
    for key, kind in types.items():
        env = os.environ.get(f"KGLENS_{key.upper()}")
        if key == "db" and env is not None and not env.strip():
            env = None  # an empty $KGLENS_DB is unset (as for the default path), not "no file"
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
