"""Settings given as ``key=value`` text (``kglens run MODE --set key=value``), typed by the
settings dataclass's own fields, so a mode's options need no parser of their own."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import TypeVar

from kglens_tui.runs.config import ConfigError, ConfigT

T = TypeVar("T")
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


NONE = "none"
"""What a list setting whose default is the empty list takes for it (e.g. predicates: every
predicate). Where the default is not empty, "none" may be a value (fact-eval's context "none")."""


def finite_float(text: str) -> float:
    """A float that is a number (nan and inf are not: they are no setting and not JSON)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def comma_list(text: str, *, none_is_empty: bool = True) -> list[str]:
    """A comma-separated list (empty parts dropped); ``none`` is the empty list where
    ``none_is_empty``."""
    return comma_items(text, str, none_is_empty=none_is_empty)


def comma_items(text: str, item: Callable[[str], T], *, none_is_empty: bool = True) -> list[T]:
    """`comma_list` with each part converted by ``item`` (int, a float check...)."""
    if none_is_empty and text.strip().lower() == NONE:
        return []
    return [item(part.strip()) for part in text.split(",") if part.strip()]


def empty_by_default(f: dataclasses.Field[object]) -> bool:
    """Whether a dataclass field's default is the empty list (so ``none`` can name it)."""
    return callable(f.default_factory) and f.default_factory() == []


def convert_setting(name: str, kind: object, text: str, none_is_empty: bool = True) -> object:
    """``text`` as a value of the field's type; ConfigError names the field."""
    args = typing.get_args(kind)
    if not text:
        raise ConfigError(f"{name}: give a value (none for no limit, where that is allowed)")
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        if text.lower() == "none" and type(None) in args:
            return None
        kind = next(a for a in args if a is not type(None))
        args = typing.get_args(kind)
    if typing.get_origin(kind) is list:
        return [
            convert_setting(name, args[0], part)
            for part in comma_list(text, none_is_empty=none_is_empty)
        ]
    try:
        if kind is bool:
            if text.lower() not in TRUE + FALSE:
                raise ValueError
            return text.lower() in TRUE
        if kind is float:
            return finite_float(text)
        if kind in (int, str):
            return kind(text)
        if isinstance(kind, type):
            return kind(text)  # an enum, by value
    except ValueError:
        if isinstance(kind, type) and issubclass(kind, Enum):
            allowed = ", ".join(str(member.value) for member in kind)
            raise ConfigError(f"{name} must be one of {allowed} (got {text!r})") from None
        kind_name = getattr(kind, "__name__", kind)
        raise ConfigError(f"{name}: {text!r} is not a valid {kind_name}") from None
    return text


def assignment_key(item: str) -> str:
    """The setting a ``key=value`` assignment names, as fields are spelt (dashes as
    underscores)."""
    return item.partition("=")[0].strip().replace("-", "_")


@cache
def field_types(cls: type) -> dict[str, object]:
    """The settings dataclass's field types, resolved once (every command line built resolves
    each mode's, and resolving evaluates each annotation's text)."""
    return typing.get_type_hints(cls)


def apply_assignments(config: ConfigT, assignments: list[str]) -> ConfigT:
    """A copy of ``config`` with each ``key=value`` applied, then validated."""
    kind: type = type(config)
    hints = field_types(kind)
    by_name = {f.name: f for f in dataclasses.fields(config) if f.name != "mode"}
    known = set(by_name)
    changes: dict[str, object] = {}
    for item in assignments:
        key = assignment_key(item)
        _, sep, text = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: write it as key=value")
        if key not in known:
            raise ConfigError(f"--set {key}: no such setting (known: {', '.join(sorted(known))})")
        changes[key] = convert_setting(
            key, hints[key], text.strip(), empty_by_default(by_name[key])
        )
    return config.replaced(changes).validate()
