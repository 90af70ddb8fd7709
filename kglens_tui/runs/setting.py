"""How a settings dataclass declares one setting: its default, its help text and, for a text
setting, the values it may take, as field metadata (the CLI's flags, `--set`, the settings file
and the new-run form read them from there)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TypeVar, overload

T = TypeVar("T")
HELP = "help"
"""Field metadata key: the setting's help text (one line)."""
CHOICES = "choices"
"""Field metadata key: the values a text setting may take, as a tuple or a function returning
one (plugins add samplers)."""
LABEL = "label"
"""Field metadata key: how the new-run form labels the setting (else its name, spelt as words)."""
FORM_DEFAULT = "form_default"
"""Field metadata key: what the new-run form starts the setting with where the settings file and
KGLENS_* variables name none (else the setting's run default)."""

Choices = Sequence[str] | Callable[[], Sequence[str]]


@overload
def setting(
    default: T,
    help: str,
    *,
    choices: Choices | None = None,
    label: str = "",
    form_default: object = dataclasses.MISSING,
) -> T: ...
@overload
def setting(
    *,
    factory: Callable[[], T],
    help: str,
    choices: Choices | None = None,
    label: str = "",
    form_default: object = dataclasses.MISSING,
) -> T: ...
def setting(
    default: object = dataclasses.MISSING,
    help: str = "",
    *,
    factory: Callable[[], object] | None = None,
    choices: Choices | None = None,
    label: str = "",
    form_default: object = dataclasses.MISSING,
) -> object:
    """A dataclass field with ``default`` (or a fresh ``factory()`` for each instance), ``help``
    and, where given, ``choices``, the form's ``label`` and ``form_default``."""
    metadata: dict[str, object] = {HELP: help}
    if choices is not None:
        metadata[CHOICES] = choices
    if label:
        metadata[LABEL] = label
    if form_default is not dataclasses.MISSING:
        metadata[FORM_DEFAULT] = form_default
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def new_default(base: type, name: str, default: T) -> T:
    """The setting ``name`` of the settings class ``base`` (its help, its choices) with another
    default: how a mode changes a shared setting's default without restating the setting."""
    shared = next((f for f in dataclasses.fields(base) if f.name == name), None)
    if shared is None:
        raise TypeError(f"{base.__name__} has no setting {name!r}")
    field: T = dataclasses.field(default=default, metadata=shared.metadata)
    return field
