"""A settings dataclass is the one definition of its options: each field's `setting` holds its
help text, and command-line flags are generated from the fields (name, type, default, help), so the
CLI, `--set key=value`, the settings file and the new-run form cannot drift apart."""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from functools import cache

from kglens_tui.runs.config import ConfigT
from kglens_tui.runs.options import comma_items, field_types, finite_float
from kglens_tui.runs.setting import CHOICES, FORM_DEFAULT, HELP, LABEL

RUN_FLAGS = {"requests_per_minute": "--rpm", "timeout_s": "--timeout"}
"""Run settings whose flag is not the setting's name (short forms) in every run command."""
RUN_ALIASES = {
    "requests_per_minute": ("--requests-per-minute",),
    "timeout_s": ("--timeout-s",),
    "predicates": ("--predicate",),
}
"""More flags of a run setting in every run command: the setting's own name where the main flag
is a short form, and the singular ``--predicate``."""


@cache
def field_help(cls: type) -> dict[str, str]:
    """Each field's help text (`setting`'s, in the field's metadata); a field without one is
    absent."""
    return {f.name: str(f.metadata[HELP]) for f in dataclasses.fields(cls) if f.metadata.get(HELP)}


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    """One run setting as a command line or a form shows it."""

    name: str
    kind: type
    """int, float, str, bool or an Enum (a list's item type when ``many``)."""
    optional: bool
    """None is a value (no limit, every one)."""
    many: bool
    """A list."""
    default: object
    help: str
    choices: tuple[str, ...]
    """The values it may take (each item's, for a list); () where it is free."""
    label: str = ""
    """How the new-run form labels it ("": its name, spelt as words)."""
    form_default: tuple[object, ...] = ()
    """What the new-run form starts it with where the settings name none, as (value,); ():
    the run default."""


def field_specs(cls: type) -> list[FieldSpec]:
    """Every field of the settings dataclass ``cls`` but ``mode``, in declaration order."""
    hints = field_types(cls)
    docs = field_help(cls)
    specs = []
    for f in dataclasses.fields(cls):
        if f.name == "mode":
            continue
        factory = f.default_factory
        default = f.default if f.default is not dataclasses.MISSING else None
        if default is None and callable(factory):
            default = factory()
        kind, optional, many = _plain(hints[f.name])
        named = f.metadata.get(CHOICES, ())
        names = tuple(named() if callable(named) else named)
        if not names and isinstance(kind, type) and issubclass(kind, Enum):
            names = tuple(str(m.value) for m in kind)
        form = (f.metadata[FORM_DEFAULT],) if FORM_DEFAULT in f.metadata else ()
        label = str(f.metadata.get(LABEL, ""))
        specs.append(
            FieldSpec(
                f.name, kind, optional, many, default, docs.get(f.name, ""), names, label, form
            )
        )
    return specs


def _plain(kind: object) -> tuple[type, bool, bool]:
    """(the type without None, whether None is allowed, whether it is a list)."""
    optional = False
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        optional = type(None) in args
        kind = next(a for a in args if a is not type(None))
    if typing.get_origin(kind) is list:
        return typing.get_args(kind)[0], optional, True
    if not isinstance(kind, type):
        raise TypeError(f"a setting of type {kind!r}: settings are plain types, lists or None")
    return kind, optional, False


def _comma_list(item: Callable[[str], object], none_is_empty: bool) -> Callable[[str], object]:
    def parse(text: str) -> list[object]:
        return comma_items(text, item, none_is_empty=none_is_empty)

    parse.__name__ = f"list of {getattr(item, '__name__', 'values')}"
    return parse


def first_then_more(more: str) -> type[argparse.Action]:
    """The action of a setting's flag given more than once: the first value is the setting,
    each later one is added to the list ``more`` on the namespace (``--target A --target
    B``)."""

    class FirstThenMore(argparse.Action):
        def __call__(
            self,
            parser: argparse.ArgumentParser,
            namespace: argparse.Namespace,
            values: object,
            option_string: str | None = None,
        ) -> None:
            if getattr(namespace, self.dest) is None:
                setattr(namespace, self.dest, values)
            else:
                getattr(namespace, more).append(values)

    return FirstThenMore


def add_config_arguments(
    parser: argparse.ArgumentParser,
    cls: type,
    *,
    flags: Mapping[str, str] | None = None,
    negated: Mapping[str, str] | None = None,
    choices: Mapping[str, Sequence[str]] | None = None,
    skip: Sequence[str] = (),
    aliases: Mapping[str, Sequence[str]] | None = None,
    repeated: Mapping[str, tuple[str, str]] | None = None,
) -> None:
    """One flag per field of the dataclass ``cls``: ``--field-name`` (or ``flags[name]``, plus
    ``aliases[name]``), typed by the field, its help the field's `setting` help plus its default. A
    True-by-default bool is turned off by ``--no-field-name`` (or ``negated[name]``); a False
    one on by ``--field-name``. A list is comma-separated and its flag repeatable; so is a
    field of ``repeated`` (name -> (list, help added)), whose later values go to that list on
    the namespace (`first_then_more`). Every flag defaults to None, so `config_from_args` knows
    which ones were given."""
    for more, _note in (repeated or {}).values():
        parser.set_defaults(**{more: []})
    for spec in field_specs(cls):
        if spec.name in skip:
            continue
        default = spec.default
        shown = default.value if isinstance(default, Enum) else default
        text, kind, many = spec.help, spec.kind, spec.many
        if kind is bool:
            on = not default
            flag = (flags or {}).get(spec.name) if on else (negated or {}).get(spec.name)
            flag = flag or f"--{'' if on else 'no-'}{spec.name.replace('_', '-')}"
            text = (
                text if on or not text else f"turn off (on by default): {text[0].lower()}{text[1:]}"
            )
            parser.add_argument(
                flag, dest=spec.name, action="store_const", const=on, default=None, help=text
            )
            continue
        flag = (flags or {}).get(spec.name) or f"--{spec.name.replace('_', '-')}"
        also = tuple((aliases or {}).get(spec.name, ()))
        metavar: str | None = flag.lstrip("-").replace("-", "_").upper()
        names = (choices or {}).get(spec.name) or spec.choices or None
        none_is_empty = many and default == []
        action: str | type[argparse.Action] = "store"
        convert: Callable[[str], object] = str
        if names is not None and not many:
            metavar = None
        elif kind in (int, float):
            item = finite_float if kind is float else kind
            convert = _comma_list(item, none_is_empty) if many else item
        elif many:
            convert = _comma_list(str, none_is_empty)
        if many:
            action = "extend"
            shown = ",".join(str(v) for v in shown) if isinstance(shown, list) else shown
        elif spec.name in (repeated or {}):
            more, note = (repeated or {})[spec.name]
            action = first_then_more(more)
            text = f"{text} {note}"
        suffix = f" (default {shown})" if shown not in (None, "", []) else ""
        parser.add_argument(
            flag,
            *also,
            dest=spec.name,
            default=None,
            metavar=metavar,
            choices=list(names) if names is not None and not many else None,
            type=convert,
            action=action,
            help=(text + suffix).replace("%", "%%") or None,
        )


def flags_of(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each setting's first flag in a command (``--rpm`` for requests_per_minute)."""
    return {a.dest: a.option_strings[0] for a in parser._actions if a.option_strings}


def named_by_flag(message: str, flag_of: Mapping[str, str]) -> str:
    """A settings check's message that starts with a setting's name ("timeout_s must be
    positive", "generator: ..."), starting with the flag that sets it instead."""
    for name, flag in flag_of.items():
        if message.startswith((f"{name} ", f"{name}:")):
            return flag + message[len(name) :]
    return message


def given_fields(cls: type, args: argparse.Namespace) -> dict[str, object]:
    """The fields of the dataclass ``cls`` whose flags were given, with their values."""
    return {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(cls)
        if getattr(args, f.name, None) is not None
    }


def config_from_args(config: ConfigT, args: argparse.Namespace) -> ConfigT:
    """``config`` with every field whose flag was given replaced by the flag's value."""
    return config.replaced(given_fields(type(config), args))
