"""KGLens run settings: the shared `ModeConfig` and KGLens's own, validated, stored as JSON
with the run."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Self, TypeVar

from kglens_tui.modes.kglens.design import DEFAULT_FLOOR
from kglens_tui.modes.kglens.samplers import Sampler, sampler_names
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.setting import new_default, setting


class Difficulty(StrEnum):
    EASY = "easy"  # Yes/No questions only
    HARD = "hard"  # Yes/No or Wh at 50/50 (Wh only when the subject has few objects)
    WH = "wh"  # open questions only, on the edges where the paper allows them (the rest left out)


class Scheduling(StrEnum):
    SYNC = "sync"  # the paper's synchronous batches
    CONTINUOUS = "continuous"  # keep N requests in flight, sample again as results arrive


class PropagationMode(StrEnum):
    SUM = "sum"  # the paper's: a neighbour's outcome added at a weight
    DEGREE = "degree"  # divided by the number of neighbours
    LEARNED = "learned"  # a fitted error model's prediction is each edge's prior


class PromptOrder(StrEnum):
    PAPER = "paper"  # the few-shot examples in the paper's order
    REVERSED = "reversed"
    SHUFFLED = "shuffled"  # shuffled per question


@dataclass
class RunConfig(ModeConfig):
    """Everything that decides what a KGLens run asks and how: the settings every mode shares
    (`ModeConfig`) and KGLens's own."""

    concurrency: int = new_default(ModeConfig, "concurrency", 16)
    max_tokens: int = new_default(ModeConfig, "max_tokens", 64)
    verifier: str = setting(
        "alias",
        "How Wh answers are judged: alias matches the KG's names and aliases; openai:MODEL asks "
        "an LLM judge.",
    )
    difficulty: Difficulty = setting(
        Difficulty.EASY,
        "easy asks Yes/No questions only; hard mixes Yes/No and Wh (open) questions half and "
        "half; wh asks open questions only, on the edges that allow one.",
    )
    sampler: str = setting(
        Sampler.TOP_K.value,
        "Which edges to ask next. top-k: those whose place among the blind spots to find is "
        "least certain; thompson (the paper's): a draw from each edge's error posterior; also "
        "epsilon-greedy, monte-carlo, brute-force and registered plugin samplers.",
        choices=sampler_names,
    )
    propagation: bool = setting(
        True,
        "After an answer, move the error belief of other edges too (see propagation_mode).",
    )
    propagation_weight: float = setting(
        1.0,
        "The weight of a neighbour's outcome in sum and degree propagation.",
        label="Propagation weight",
    )
    propagation_mode: PropagationMode = setting(
        PropagationMode.LEARNED,
        "learned: a hierarchical model of the error rate (predicate and entity effects) learns "
        "from the run's answers how much an edge's predicate and neighbours tell about it; sum: "
        "the paper's eq. 2-3 (neighbours' outcomes added); degree: divided by the receiving "
        "edge's neighbour count (their mean).",
    )
    blind_spots: int = setting(
        100,
        "How many blind spots the run looks for: the top-k sampler's k and the live list's length.",
    )
    epsilon: float = setting(
        0.1,
        "Exploration rate of the epsilon-greedy sampler.",
        label="Epsilon (ε-greedy)",
    )
    design_floor: float = setting(
        DEFAULT_FLOOR,
        "Share of each batch taken from a rolling census of the run's edges (a random order "
        "walked pass after pass), whose answers give the run's KG-wide rates and their "
        "intervals (the rest the sampler picks; 1: all census; brute force is a census and "
        "ignores it).",
        label="Census floor",
    )
    batch_size: int = setting(
        64,
        "Edges asked per iteration; the posteriors are updated after each iteration.",
    )
    iterations: int = setting(
        60,
        "The most iterations the run makes.",
    )
    wh_max_objects: int = setting(
        10,
        "Wh questions only when the subject has fewer objects than this for the predicate.",
        label="Wh: objects under",
    )
    scheduling: Scheduling = setting(
        Scheduling.SYNC,
        "sync: the paper's synchronous batches; continuous: keep the requests in flight and "
        "sample again as answers arrive.",
        label="Scheduling",
    )
    convergence_window: int = setting(
        5,
        "Iterations over which the three rates must hold still to count as converged.",
        label="Convergence window",
    )
    convergence_tolerance: float = setting(
        0.005,
        "How far (as a fraction) a rate may move within the window and still hold still.",
        label="Convergence tolerance",
    )
    stop_on_convergence: bool = setting(
        True,
        "Stop once the win, zero-sense and all-sense rates have converged (else run every "
        "iteration).",
    )
    prompt_order: PromptOrder = setting(
        PromptOrder.PAPER,
        "Order of the few-shot examples: paper, reversed, or shuffled (per question).",
        label="Few-shot order",
    )
    checkpoint_every: int = setting(
        10,
        "Iterations between stored checkpoints of the PKG (a resume replays the answers since).",
        label="Checkpoint every",
    )
    plan_of: int | None = setting(
        None,
        "Ask the questions KGLens run N asked, iteration by iteration, instead of drawing new "
        "ones: another model compared on the same questions (paired). The run takes N's KG "
        "selection, difficulty, sampler and question settings, and as many iterations (none: "
        "draw).",
    )

    def validate(self) -> Self:
        """Raise ConfigError naming the first bad setting; returns self."""
        super().validate()
        self.difficulty = _enum(Difficulty, self.difficulty, "difficulty")
        self.sampler = str(self.sampler)
        if self.sampler not in sampler_names():
            known = ", ".join(sampler_names())
            raise ConfigError(f"sampler must be one of {known} (got {self.sampler!r})")
        self.scheduling = _enum(Scheduling, self.scheduling, "scheduling")
        if self.sampler == Sampler.BRUTE_FORCE and self.scheduling == Scheduling.CONTINUOUS:
            raise ConfigError(
                "sampler brute-force asks every edge once per epoch in fixed batches; continuous "
                "scheduling refills slots one question at a time and re-asks edges within an "
                "epoch: use --scheduling sync with brute force"
            )
        if self.plan_of is not None and self.plan_of < 1:
            raise ConfigError(f"plan_of must be a run number (got {self.plan_of})")
        for name in ("batch_size", "iterations", "checkpoint_every", "convergence_window"):
            if int(getattr(self, name)) < 1:
                raise ConfigError(f"{name} must be at least 1 (got {getattr(self, name)})")
        if self.wh_max_objects < 1:
            raise ConfigError("wh_max_objects must be at least 1")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ConfigError(f"epsilon must be between 0 and 1 (got {self.epsilon})")
        if not 0.0 < self.design_floor <= 1.0:
            raise ConfigError(
                f"design_floor must be above 0 and at most 1 (got {self.design_floor}): without "
                "a census share no KG-wide rate can be estimated"
            )
        self.propagation_mode = _enum(PropagationMode, self.propagation_mode, "propagation_mode")
        if self.blind_spots < 1:
            raise ConfigError(f"blind_spots must be at least 1 (got {self.blind_spots})")
        if self.propagation_weight < 0:
            raise ConfigError("propagation_weight must not be negative")
        self.prompt_order = _enum(PromptOrder, self.prompt_order, "prompt_order")
        return self


E = TypeVar("E", bound=StrEnum)


def _enum(kind: type[E], value: object, name: str) -> E:
    try:
        return kind(str(value))
    except ValueError:
        allowed = ", ".join(str(v) for v in kind)
        raise ConfigError(f"{name} must be one of {allowed} (got {value!r})") from None
