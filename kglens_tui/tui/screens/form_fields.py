"""The new-run form's generated fields: one widget per run setting a mode's settings type
declares (`kglens_tui.runs.fields.field_specs`) that the form does not lay out by hand, typed by
the setting: a checkbox, a choice, a multiple choice or a text box."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, SelectionList
from textual.widgets.selection_list import Selection

from kglens_tui.core.safetext import literal
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.fields import FieldSpec, field_specs
from kglens_tui.runs.options import comma_list, convert_setting
from kglens_tui.runs.registry import get_mode

FieldValue = str | bool | list[str]
"""What a form field holds: an Input's text, a Checkbox's value, a Select's choice ("" for
none) or a SelectionList's choices."""


@dataclass(frozen=True)
class FormField:
    """A generated field: its setting (as the first of the modes declares it) and the modes
    whose settings have it."""

    spec: FieldSpec
    modes: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.spec.label or self.spec.name.replace("_", " ").capitalize()


def generated_fields(modes: Iterable[str], by_hand: set[str]) -> dict[str, FormField]:
    """Every setting of the modes' settings types but those ``by_hand``, by name, in the order
    the modes declare them (a setting several modes share is one field)."""
    found: dict[str, tuple[FieldSpec, list[str]]] = {}
    for mode in modes:
        for spec in field_specs(get_mode(mode).config_type):
            if spec.name not in by_hand:
                found.setdefault(spec.name, (spec, []))[1].append(mode)
    return {name: FormField(spec, tuple(ms)) for name, (spec, ms) in found.items()}


def form_defaults(mode: str) -> dict[str, FieldValue]:
    """What the form starts ``mode``'s settings that declare a form default with (`setting`'s
    ``form_default``) where the settings name none, as their widgets hold it."""
    return {
        spec.name: shown_value(spec, spec.form_default[0])
        for spec in field_specs(get_mode(mode).config_type)
        if spec.form_default
    }


def number_text(value: float | None) -> str:
    """A number a field starts with ("" for none: the placeholder says what that means); a
    whole number as typed (``:g`` would show 1000000 as 1e+06, which no integer field takes)."""
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else f"{value:g}"


def shown_value(spec: FieldSpec, value: Any) -> FieldValue:
    """A setting's value as its widget holds it."""
    if spec.kind is bool:
        return bool(value)
    if spec.many:
        items = [str(v) for v in value or ()]
        return items if spec.choices else ", ".join(items)
    if isinstance(value, Enum):
        return str(value.value)
    if value is None or isinstance(value, int | float):
        return number_text(value)
    return str(value)


def make_widgets(field: FormField, value: FieldValue) -> Iterator[Widget]:
    """The field's label and widget (id: the setting's name), holding ``value``."""
    spec, classes = field.spec, " ".join(f"in-{m}" for m in field.modes)
    yield Label(field.label, classes=classes)
    widget_id = spec.name
    if spec.kind is bool:
        yield Checkbox("on", value=bool(value), id=widget_id, classes=classes)
    elif spec.choices and spec.many:
        chosen = set(value) if isinstance(value, list) else set()
        yield SelectionList[str](
            *(Selection(literal(c), c, c in chosen) for c in spec.choices),
            id=widget_id,
            classes=classes,
        )
    elif spec.choices:
        yield Select(
            [(literal(c), c) for c in spec.choices],
            value=str(value) if value else Select.BLANK,
            allow_blank=spec.optional,
            id=widget_id,
            classes=classes,
        )
    else:
        kind = {int: "integer", float: "number"}.get(spec.kind, "text")
        placeholder = ("no limit" if spec.name.startswith("max_") else "none") * spec.optional
        if spec.many:
            placeholder = "none (or comma-separated)"
        yield Input(
            str(value),
            type="text" if spec.many else kind,  # type: ignore[arg-type]
            placeholder=placeholder,
            id=widget_id,
            classes=classes,
        )


def widget_value(widget: Widget) -> FieldValue:
    """What a generated field's widget holds."""
    if isinstance(widget, SelectionList):
        chosen = set(widget.selected)
        options = (widget.get_option_at_index(i) for i in range(widget.option_count))
        return [  # in the declared order
            str(o.value) for o in options if isinstance(o, Selection) and o.value in chosen
        ]
    if isinstance(widget, Select):
        return "" if widget.value is Select.BLANK else str(widget.value)
    if isinstance(widget, Checkbox):
        return bool(widget.value)
    if isinstance(widget, Input):
        return widget.value
    raise TypeError(f"not a form field: {widget!r}")


def set_widget(widget: Widget, value: FieldValue) -> None:
    """Put ``value`` in a generated field's widget."""
    if isinstance(widget, SelectionList):
        widget.deselect_all()
        for item in value if isinstance(value, list) else ():
            widget.select(item)
    elif isinstance(widget, Select):
        widget.value = value if value else Select.BLANK
    elif isinstance(widget, Checkbox):
        widget.value = bool(value)
    elif isinstance(widget, Input):
        widget.value = str(value)


def parse_value(field: FormField, value: FieldValue) -> Any:
    """The setting's value from what its widget holds; ConfigError names the setting (by its
    name: the form puts its label in)."""
    spec = field.spec
    if isinstance(value, bool | list):
        return value
    text = value.strip()
    if not text:
        if spec.many:
            return []
        if spec.optional:
            return None
        raise ConfigError(f"{spec.name} is required")
    if spec.many:
        return [convert_setting(spec.name, spec.kind, part) for part in comma_list(text)]
    return convert_setting(spec.name, spec.kind, text)


def check_setting(settings: ModeConfig, name: str, value: Any) -> None:
    """ConfigError where ``value`` of the setting ``name`` fails the checks of its mode's
    settings (``settings`` with it, `validate`) that name it: each field's error on its own,
    where one `validate` stops at the first. An error naming no setting (two settings that do
    not go together) is left to the settings the form builds."""
    try:
        settings.replaced({name: value}).validate()
    except ConfigError as exc:
        if str(exc).startswith((f"{name} ", f"{name}:")):
            raise


def parsed(
    fields: Mapping[str, FormField], values: Mapping[str, FieldValue], mode: str
) -> dict[str, Any]:
    """The settings of ``mode`` among the generated fields, parsed from their widgets' values."""
    return {
        name: parse_value(field, values[name])
        for name, field in fields.items()
        if mode in field.modes
    }
