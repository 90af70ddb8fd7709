"""Settings of the KONTEST and LLM-facteval modes: dataclasses stored as JSON with the run."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Self

from kglens_tui.kg.bundled_data import bundled_transitive
from kglens_tui.runs.config import ConfigError, ModeConfig
from kglens_tui.runs.setting import setting

KONTEST = "kontest"
FACTEVAL = "facteval"
QTYPES = ("tfq", "mcq", "saq")
FORMATS = ("fib", "wh")
CONTEXTS = ("none", "relevant", "irrelevant", "antifactual")


@dataclass
class KontestConfig(ModeConfig):
    """KONTEST: paraphrase pairs asked atomically and sequentially; transitivity along paths."""

    mode: str = KONTEST
    max_tokens: int = setting(
        16,
        "The longest reply asked for, in tokens (only a reply's first word counts: Yes or No).",
        label="Reply tokens (max)",
    )
    relations: int | None = setting(
        100,
        "How many active KG edges to test (seeded sample); None = all of them.",
        label="Relations to ask",
    )
    transitive: list[str] = setting(
        factory=list,
        help="Predicate keys whose chains A -> B -> C feed the ontological oracle.",
        label="Transitive predicates",
    )
    max_paths: int = setting(
        50,
        "Paths (leaf to root) sampled per run from the transitive predicates.",
        label="Paths (max)",
    )
    template3: bool = setting(
        False,
        "Ask template 3 (the unseen phrasing of KONTEST Table 5) in template 2's place: the run "
        "an ensemble of ordinary runs is evaluated on (`consistency ensemble --template3`).",
        label="Unseen template",
    )

    def with_kg_defaults(self) -> Self:
        """The transitive predicates given, else the ones a bundled KG declares
        (`bundled_transitive`: places walks located_in)."""
        return replace(self, transitive=self.transitive or bundled_transitive(self.kg))

    def validate(self) -> Self:
        super().validate()
        if self.relations is not None and self.relations < 0:
            raise ConfigError("relations must not be negative")
        if self.max_paths < 0:
            raise ConfigError("max_paths must not be negative")
        if self.template3 and self.generator != "template":
            raise ConfigError("template3 asks the template-3 phrasing: use --generator template")
        if self.relations == 0 and not (self.transitive or bundled_transitive(self.kg)):
            raise ConfigError(
                "nothing to test: relations is 0 and no transitive predicate given (nor one the "
                "KG declares)"
            )
        return self


@dataclass
class FactevalConfig(ModeConfig):
    """LLM-facteval: TFQ / MCQ / SAQ with abstention, optionally with an injected context."""

    mode: str = FACTEVAL
    facts: int | None = setting(
        100,
        "How many active KG edges to turn into questions (seeded sample); None = all.",
        label="Facts to ask",
    )
    qtypes: list[str] = setting(
        factory=lambda: list(QTYPES),
        help="Question types: tfq (true/false), mcq (multiple choice), saq (short answer).",
        choices=QTYPES,
        label="Question types",
    )
    formats: list[str] = setting(
        factory=lambda: ["wh"],
        help="Formats of MCQ and SAQ questions: fib (fill in the blank) and/or wh.",
        choices=FORMATS,
        label="MCQ / SAQ formats",
    )
    contexts: list[str] = setting(
        factory=lambda: ["none"],
        help="Context given with each question: none, relevant, irrelevant and/or antifactual.",
        choices=CONTEXTS,
        label="Contexts",
        form_default=CONTEXTS,  # a run from the form compares every context on its live screen
    )
    distractors: int = setting(
        3,
        "Wrong options of a multiple-choice question.",
        label="MCQ distractors",
    )

    def validate(self) -> Self:
        super().validate()
        for name, allowed in (("qtypes", QTYPES), ("formats", FORMATS), ("contexts", CONTEXTS)):
            values = getattr(self, name)
            if not values:
                raise ConfigError(f"{name} must name at least one of {', '.join(allowed)}")
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ConfigError(f"{name}: unknown {', '.join(bad)} (use {', '.join(allowed)})")
        if self.facts is not None and self.facts < 1:
            raise ConfigError("facts must be at least 1 when set")
        if self.distractors < 1:
            raise ConfigError("distractors must be at least 1")
        return self
