"""Run settings: one dataclass, validated, stored as JSON with the run."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import TypeVar

from kglens_tui.probe.design import DEFAULT_FLOOR
from kglens_tui.probe.samplers import Sampler, sampler_names
from kglens_tui.runs.config import ConfigError, check_endpoint_setting, stored_base_url


class Difficulty(StrEnum):
    EASY = "easy"  # Yes/No questions only
    HARD = "hard"  # Yes/No or Wh at 50/50 (Wh only when the subject has few objects)
    WH = "wh"  # open questions only, on the edges where the paper allows them (the rest left out)


class Scheduling(StrEnum):
    SYNC = "sync"  # the paper's synchronous batches
    CONTINUOUS = "continuous"  # keep N requests in flight, sample again as results arrive


PROPAGATION_MODES = ("sum", "degree", "learned")
PROMPT_ORDERS = ("paper", "reversed", "shuffled")


@dataclass
class RunConfig:
    """Everything that decides what a run asks and how."""

    kg: str = "country"
    """The knowledge graph whose edges become questions (bundled, or imported)."""
    subset: str | None = None
    """Ask only about edges whose subject is in this named subset of the KG (e.g. paper16);
    none = every active edge."""
    predicates: list[str] = field(default_factory=list)
    """Ask only about edges of these predicates (keys or labels, comma-separated; none = every
    active predicate)."""
    target: str = "sim"
    """The model under test: local:smollm2 (in-process), openai:MODEL (an OpenAI-compatible
    endpoint), sim or sim:SEED (a simulator, labelled simulated everywhere), or a registered
    plugin kind."""
    base_url: str | None = None
    """The endpoint's base URL for openai:MODEL, e.g. http://127.0.0.1:8080/v1 (none: the
    OpenAI API). A URL with credentials is refused."""
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable that holds the API key; the key itself is never stored."""
    generator: str = "template"
    """Who words the questions: template fills the KG's templates; openai:MODEL asks an LLM
    (the paper's few-shot generator)."""
    verifier: str = "alias"
    """How Wh answers are judged: alias matches the KG's names and aliases; openai:MODEL asks
    an LLM judge."""
    difficulty: Difficulty = Difficulty.EASY
    """easy asks Yes/No questions only; hard mixes Yes/No and Wh (open) questions half and half;
    wh asks open questions only, on the edges that allow one."""
    sampler: str = Sampler.TOP_K.value
    """Which edges to ask next. top-k: those whose place among the blind spots to find is least
    certain; thompson (the paper's): a draw from each edge's error posterior; also
    epsilon-greedy, monte-carlo, brute-force and registered plugin samplers."""
    propagation: bool = True
    """After an answer, move the error belief of other edges too (see propagation_mode)."""
    propagation_weight: float = 1.0
    """The weight of a neighbour's outcome in sum and degree propagation."""
    propagation_mode: str = "learned"
    """learned: a hierarchical model of the error rate (predicate and entity effects) learns from
    the run's answers how much an edge's predicate and neighbours tell about it; sum: the
    paper's eq. 2-3 (neighbours' outcomes added); degree: divided by the receiving edge's
    neighbour count (their mean)."""
    blind_spots: int = 100
    """How many blind spots the run looks for: the top-k sampler's k and the live list's
    length."""
    epsilon: float = 0.1
    """Exploration rate of the epsilon-greedy sampler."""
    design_floor: float = DEFAULT_FLOOR
    """Share of each batch drawn uniformly at random, so that the run's KG-wide rates are
    unbiased estimates with valid intervals (the rest the sampler picks; 1: all uniform;
    brute force is a census and ignores it)."""
    batch_size: int = 64
    """Edges asked per iteration; the posteriors are updated after each iteration."""
    iterations: int = 60
    """The most iterations the run makes."""
    wh_max_objects: int = 10
    """Wh questions only when the subject has fewer objects than this for the predicate."""
    concurrency: int = 16
    """Requests sent at the same time (to any target kind)."""
    requests_per_minute: float | None = None
    """A requests-per-minute limit on the target, any kind (none: no limit)."""
    scheduling: Scheduling = Scheduling.SYNC
    """sync: the paper's synchronous batches; continuous: keep the requests in flight and sample
    again as answers arrive."""
    temperature: float = 0.0
    """Sampling temperature of the target (above 0: graded per-edge rates, e.g. for a truth)."""
    max_tokens: int = 64
    """The longest reply asked for, in tokens."""
    timeout_s: float = 30.0
    """Seconds one request may take."""
    max_retries: int = 5
    """Retries of a failed request (timeouts, 429s, 5xx) before it counts as an error."""
    max_requests: int | None = None
    """Budget: stop before sending more requests than this (none: no limit)."""
    max_tokens_total: int | None = None
    """Budget: stop once prompt + completion tokens reach this (none: no limit)."""
    max_cost: float | None = None
    """Budget: stop once the run's spend in US dollars (target and helpers, at the price table:
    settings [prices] over the list prices) reaches this (none: no limit)."""
    convergence_window: int = 5
    """Iterations over which the three rates must hold still to count as converged."""
    convergence_tolerance: float = 0.005
    """How far (as a fraction) a rate may move within the window and still hold still."""
    stop_on_convergence: bool = True
    """Stop once the win, zero-sense and all-sense rates have converged (else run every
    iteration)."""
    prompt_order: str = "paper"
    """Order of the few-shot examples: paper, reversed, or shuffled (per question)."""
    seed: int = 0
    """Seed of the sampling: the same seed repeats the run (a simulated target's own seed is N
    in `sim:N`, 0 for `sim`)."""
    checkpoint_every: int = 10
    """Iterations between stored checkpoints of the PKG (a resume replays the answers since)."""
    sim_latency_s: float = 0.0
    """Seconds a simulated target takes per answer (0 = as fast as it can; for demos and
    tests)."""

    def validate(self) -> RunConfig:
        """Raise ConfigError naming the first bad setting; returns self."""
        self.difficulty = _enum(Difficulty, self.difficulty, "difficulty")
        self.sampler = str(self.sampler)
        if self.sampler not in sampler_names():
            known = ", ".join(sampler_names())
            raise ConfigError(f"sampler must be one of {known} (got {self.sampler!r})")
        self.scheduling = _enum(Scheduling, self.scheduling, "scheduling")
        check_endpoint_setting(self.base_url)
        if self.sampler == Sampler.BRUTE_FORCE and self.scheduling == Scheduling.CONTINUOUS:
            raise ConfigError(
                "sampler brute-force asks every edge once per epoch in fixed batches; continuous "
                "scheduling refills slots one question at a time and re-asks edges within an "
                "epoch: use --scheduling sync with brute force"
            )
        for name in ("batch_size", "iterations", "concurrency", "max_tokens", "checkpoint_every"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(f"{name} must be at least 1 (got {getattr(self, name)})")
        if self.wh_max_objects < 1:
            raise ConfigError("wh_max_objects must be at least 1")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ConfigError(f"epsilon must be between 0 and 1 (got {self.epsilon})")
        if not 0.0 < self.design_floor <= 1.0:
            raise ConfigError(
                f"design_floor must be above 0 and at most 1 (got {self.design_floor}): without "
                "a uniform share no KG-wide rate can be estimated"
            )
        if self.propagation_mode not in PROPAGATION_MODES:
            raise ConfigError(f"propagation_mode must be one of {', '.join(PROPAGATION_MODES)}")
        if self.blind_spots < 1:
            raise ConfigError(f"blind_spots must be at least 1 (got {self.blind_spots})")
        if self.propagation_weight < 0:
            raise ConfigError("propagation_weight must not be negative")
        if self.timeout_s <= 0:
            raise ConfigError("timeout_s must be positive")
        if self.max_retries < 0:
            raise ConfigError(f"max_retries must not be negative (got {self.max_retries})")
        if self.prompt_order not in PROMPT_ORDERS:
            raise ConfigError("prompt_order must be paper, reversed or shuffled")
        for name in ("max_requests", "max_tokens_total"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"{name} must be at least 1 when set")
        return self

    def to_json(self) -> str:
        return json.dumps(
            {k: str(v) if isinstance(v, StrEnum) else v for k, v in asdict(self).items()}
        )

    @classmethod
    def from_json(cls, text: str) -> RunConfig:
        data = json.loads(text)
        data["base_url"] = stored_base_url(data.get("base_url"))
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known}).validate()


E = TypeVar("E", bound=StrEnum)


def _enum(kind: type[E], value: object, name: str) -> E:
    try:
        return kind(str(value))
    except ValueError:
        allowed = ", ".join(str(v) for v in kind)
        raise ConfigError(f"{name} must be one of {allowed} (got {value!r})") from None
