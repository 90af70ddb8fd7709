"""Run settings: one dataclass, validated, stored as JSON with the run."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from enum import StrEnum

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


@dataclass
class RunConfig:
    """Everything that decides what a run asks and how."""

    kg: str = "country"
    """Name of the KG in the workspace."""
    subset: str | None = None
    """Named subset of subjects to probe (e.g. paper16); None = every active edge."""
    target: str = "sim"
    """openai:MODEL, local:smollm2, or sim / sim:SEED (simulated, labelled as such)."""
    base_url: str | None = None
    """OpenAI-compatible endpoint for openai:MODEL targets."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable that holds the key (the key itself is never stored)."""
    generator: str = "template"
    """template, or openai:MODEL for the paper's few-shot LLM question generator."""
    verifier: str = "alias"
    """alias (alias and fuzzy matching), or openai:MODEL for the LLM judge on Wh answers."""
    difficulty: Difficulty = Difficulty.EASY
    sampler: str = Sampler.TOP_K.value
    """top-k (default): the edges whose place among the `blind_spots` worst is least certain;
    thompson is the paper's. The efficiency study chose the default (README, Efficiency study):
    never worse than brute force, best where the model's knowledge has structure."""
    propagation: bool = True
    propagation_weight: float = 1.0
    propagation_mode: str = "learned"
    """sum: eq. 2-3 of the paper (neighbours' outcomes added); degree: divided by the receiving
    edge's neighbour count (their mean); learned: a hierarchical model of the error rate
    (predicate and entity effects) learns from the run's answers how much an edge's predicate
    and neighbours tell about it (kglens_tui.probe.learned)."""
    blind_spots: int = 100
    """How many blind spots the run looks for: the top-k sampler's k and the live list's size."""
    epsilon: float = 0.1
    """Exploration rate of the epsilon-greedy sampler."""
    batch_size: int = 64
    iterations: int = 60
    wh_max_objects: int = 10
    """Wh questions only when the subject has fewer objects than this for the predicate."""
    concurrency: int = 16
    requests_per_minute: float | None = None
    scheduling: Scheduling = Scheduling.SYNC
    temperature: float = 0.0
    max_tokens: int = 64
    timeout_s: float = 30.0
    max_retries: int = 5
    max_requests: int | None = None
    """Budget: stop before sending more requests than this."""
    max_tokens_total: int | None = None
    """Budget: stop once prompt + completion tokens reach this."""
    convergence_window: int = 5
    convergence_tolerance: float = 0.005
    stop_on_convergence: bool = True
    prompt_order: str = "paper"
    """Order of few-shot examples: paper, reversed, or shuffled (per question)."""
    seed: int = 0
    checkpoint_every: int = 10
    sim_latency_s: float = 0.0
    """Seconds a simulated target takes per answer (0 = as fast as it can; for demos and tests)."""

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
        if self.prompt_order not in ("paper", "reversed", "shuffled"):
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


def _enum(kind: type[StrEnum], value: object, name: str) -> StrEnum:
    try:
        return kind(str(value))
    except ValueError:
        allowed = ", ".join(str(v) for v in kind)
        raise ConfigError(f"{name} must be one of {allowed} (got {value!r})") from None
