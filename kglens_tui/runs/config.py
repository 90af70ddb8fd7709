"""Settings every mode shares: the base dataclass of a unit mode's settings and its checks.

Every mode's settings type extends `ModeConfig` (KGLens's `RunConfig` too), so
`kglens_tui.runs.clients` builds clients from any of them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Self, TypeVar

from kglens_tui.core.errors import KGLensError
from kglens_tui.core.safetext import unshown_char
from kglens_tui.llm.targets import TargetSpec, target_kind
from kglens_tui.llm.urls import BaseURLError, check_base_url, strip_credentials
from kglens_tui.runs.setting import setting


class ConfigError(KGLensError, ValueError):
    """A setting out of range; the message names the setting."""


def stored_base_url(base_url: str | None) -> str | None:
    """A stored run's base URL, without credentials that earlier versions stored."""
    return strip_credentials(base_url) if base_url else base_url


def check_endpoint_setting(base_url: str | None) -> None:
    """Raise ConfigError when a base URL is malformed or carries credentials (never stored)."""
    if base_url:
        try:
            check_base_url(base_url)
        except BaseURLError as exc:
            raise ConfigError(str(exc)) from None


def _known_spec(name: str, value: str, plain: tuple[str, ...] = ()) -> None:
    if value in plain:
        return
    try:
        spec = TargetSpec.parse(value)
        kind = target_kind(spec)
        if kind.check_arg is not None:
            kind.check_arg(spec.arg)
    except ValueError as exc:
        raise ConfigError(f"{name}: {exc}") from None


MIN_RPM = 1 / 60
"""The slowest pace a run may be given: one request an hour (less is a typo, never a plan)."""


TEXT_SETTINGS = ("target", "base_url", "api_key_env", "generator", "verifier")
"""A new run's settings that are names shown wherever the run is: one line of printable text
(KG and subset names are checked where they are made: `kg.names`)."""


def check_max_cost(config: ModeConfig) -> None:
    """A `max_cost` budget is a positive number, and every model the run calls has a price to
    count it by (settings [prices] or the list prices): ConfigError naming what is missing."""
    limit = getattr(config, "max_cost", None)
    if limit is None:
        return
    if not 0 < limit < math.inf:
        raise ConfigError(f"max_cost must be a positive number of US dollars (got {limit})")
    from kglens_tui.runs.prices import configured_prices, priced_roles

    prices = configured_prices()
    missing = [
        f"{role} {spec!r}" for role, spec, price in priced_roles(config, prices) if price is None
    ]
    if missing:
        raise ConfigError(
            f"max_cost needs a price for {', '.join(missing)}: add it to the settings file's "
            '[prices], e.g. "MODEL" = "2.50/10.00" (US dollars per million tokens in / out)'
        )


def check_new_run(config: ModeConfig) -> None:
    """Checks a new run's settings get on top of `validate` (which stored runs pass too, so that
    a run made before a rule existed, or with a plugin no longer installed, can still be read):
    ranges of the request settings, and that the target, generator and verifier name known
    kinds. Raises ConfigError naming the setting."""
    rpm = getattr(config, "requests_per_minute", None)
    if rpm is not None and not 0 < rpm < math.inf:  # nan and inf fail too
        raise ConfigError(f"requests_per_minute must be a positive number (got {rpm})")
    if rpm is not None and rpm < MIN_RPM:
        raise ConfigError(
            f"requests_per_minute {rpm:g} spaces requests more than an hour apart: "
            f"use at least {MIN_RPM:.4g} (one request an hour)"
        )
    if not 0 < getattr(config, "timeout_s", 1.0) < math.inf:
        raise ConfigError(f"timeout_s must be a positive number (got {config.timeout_s})")
    if not 0 <= getattr(config, "sim_latency_s", 0.0) < math.inf:
        raise ConfigError(f"sim_latency_s must not be negative (got {config.sim_latency_s})")
    temperature = getattr(config, "temperature", 0.0)
    if not 0.0 <= temperature <= 2.0:
        raise ConfigError(f"temperature must be between 0 and 2 (got {temperature})")
    check_max_cost(config)
    if getattr(config, "convergence_tolerance", 0.0) < 0:
        raise ConfigError("convergence_tolerance must not be negative")
    for name in TEXT_SETTINGS:
        value = getattr(config, name, None)
        bad = unshown_char(value) if isinstance(value, str) else None
        if bad is not None:  # it would be shown on every line that names the run
            raise ConfigError(f"{name} holds the control character U+{ord(bad):04X}: {value!r}")
    _known_spec("target", config.target)
    _known_spec("generator", getattr(config, "generator", "template"), ("template",))
    _known_spec("verifier", getattr(config, "verifier", "alias"), ("alias",))


@dataclass
class ModeConfig:
    """What every mode's settings share: the KG, the target and how to talk to it, budgets and
    the seed. A mode subclasses it with its own fields (a unit mode adds a ``mode`` field
    holding its name)."""

    kg: str = setting(
        "country",
        "The knowledge graph whose facts become questions (bundled, or imported).",
    )
    subset: str | None = setting(
        None,
        "Ask only about edges whose subject is in this named subset of the KG (e.g. paper16); "
        "none = every active edge.",
    )
    predicates: list[str] = setting(
        factory=list,
        help="Ask only about edges of these predicates (keys or labels, comma-separated; none = "
        "every active predicate).",
    )
    target: str = setting(
        "sim",
        "The model under test: local:smollm2 (in-process), openai:MODEL (an OpenAI-compatible "
        "endpoint), sim or sim:SEED (a simulator, labelled simulated everywhere), or a "
        "registered plugin kind. The simulator's effects of question form (logit shifts; "
        "docs/modes.md) are set as sim:SEED,NAME=VALUE,...: wh_penalty, yes_bias, template2, "
        "template3, paraphrase_inconsistency, context_relevant, context_irrelevant, "
        "context_antifactual, llm_written, refusal_rate (share of wrong answers given as "
        "refusals).",
    )
    base_url: str | None = setting(
        None,
        "The endpoint's base URL for openai:MODEL, e.g. http://127.0.0.1:8080/v1 (none: the "
        "OpenAI API). A URL with credentials is refused.",
    )
    api_key_env: str = setting(
        "OPENAI_API_KEY",
        "The environment variable that holds the API key; the key itself is never stored.",
    )
    generator: str = setting(
        "template",
        "Who writes what a template would: template fills the KG's templates; openai:MODEL asks "
        "an LLM to word the questions (KGLens's few-shot generator, fact-eval) or the "
        "paraphrases (KONTEST).",
    )
    concurrency: int = setting(
        8,
        "Requests sent at the same time (to any target kind).",
    )
    requests_per_minute: float | None = setting(
        None,
        "A requests-per-minute limit on the target, any kind (none: no limit).",
    )
    temperature: float = setting(
        0.0,
        "Sampling temperature of the target (0: its most likely reply; above 0 the replies "
        "vary, so an edge asked again may get another answer).",
        label="Temperature",
    )
    max_tokens: int = setting(
        48,
        "The longest reply asked for, in tokens.",
        label="Reply tokens (max)",
    )
    timeout_s: float = setting(
        30.0,
        "Seconds one request may take.",
        label="Timeout (seconds)",
    )
    max_retries: int = setting(
        5,
        "Retries of a failed request (timeouts, 429s, 5xx) before it counts as an error.",
        label="Retries per request",
    )
    max_requests: int | None = setting(
        None,
        "Budget: start no more requests once the run's requests (target and helpers) reach "
        "this; what is in flight finishes (none: no limit).",
    )
    max_tokens_total: int | None = setting(
        None,
        "Budget: start no more requests once prompt + completion tokens reach this (none: no "
        "limit).",
        label="Budget: max tokens",
    )
    max_cost: float | None = setting(
        None,
        "Budget: stop once the run's spend in US dollars (target and helpers, at the price "
        "table: settings [prices] over the list prices) reaches this (none: no limit).",
        label="Budget: max US$",
    )
    seed: int = setting(
        0,
        "Seed of the run's random choices: the same seed repeats the run (a simulated target's "
        "own seed is N in `sim:N`, 0 for `sim`).",
    )
    sim_latency_s: float = setting(
        0.0,
        "Seconds a simulated target takes per answer (0 = as fast as it can; for demos and tests).",
        label="Simulated latency (s)",
    )

    def validate(self) -> Self:
        """Raise ConfigError naming the first bad setting; returns self."""
        for name in ("concurrency", "max_tokens"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(f"{name} must be at least 1 (got {getattr(self, name)})")
        if self.timeout_s <= 0:
            raise ConfigError("timeout_s must be positive")
        if self.max_retries < 0:
            raise ConfigError(f"max_retries must not be negative (got {self.max_retries})")
        if not self.kg:
            raise ConfigError("kg must be named")
        if self.seed < 0:
            raise ConfigError(f"seed must not be negative (got {self.seed})")
        for name in ("max_requests", "max_tokens_total"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"{name} must be at least 1 when set")
        check_endpoint_setting(self.base_url)
        return self

    def with_kg_defaults(self) -> Self:
        """The settings a new run on its KG takes: these, where the mode fills in nothing from
        what the KG declares (KONTEST takes its transitive predicates where none are named)."""
        return self

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def replaced(self, values: Mapping[str, object]) -> Self:
        """A copy with the settings named in ``values`` set to them (as given: `validate`
        checks and converts them); ConfigError names a setting the type does not have."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(f"no such setting: {', '.join(unknown)}")
        copy = replace(self)
        for name, value in values.items():
            setattr(copy, name, value)
        return copy

    @classmethod
    def from_json(cls, text: str) -> Self:
        data: dict[str, object] = json.loads(text)
        base_url = data.get("base_url")
        data["base_url"] = stored_base_url(base_url if isinstance(base_url, str) else None)
        known = {f.name for f in fields(cls)}
        return cls().replaced({k: v for k, v in data.items() if k in known}).validate()


ConfigT = TypeVar("ConfigT", bound=ModeConfig)
"""A mode's settings type, kept by functions that return a changed copy."""
ConfigT_co = TypeVar("ConfigT_co", bound=ModeConfig, covariant=True)
"""A mode's settings type in what only reads them (a stored run of KGLens is a stored run)."""
