"""How the form of a question moves the simulated target's answers: the options of a ``sim``
target spec (``sim:SEED,NAME=VALUE,...``), each a documented field of `SimEffects`.

Every effect is a shift of the error logit of the asked edge (positive: more wrong answers), read
from the form the request states in its `QuestionMeta` (question type, KONTEST template, fact-eval
context, whether a generator wrote the question). A KGLens Yes/No question in its ordinary form
gets no shift, so those answers are the simulator's base rates (`SimulatedClient.true_error_rate`).
Defaults are the magnitudes the three papers report; each field says where its default comes from.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from kglens_tui.core.question_type import WH
from kglens_tui.llm.base import QuestionMeta


@dataclass(frozen=True)
class SimEffects:
    """Effects of question form on the simulated target (logit shifts unless said otherwise)."""

    wh_penalty: float = 1.2
    """Added for an open (Wh) question, and fact-eval's MCQ and SAQ, which a simulated target
    answers like one. KGLens Table 3, Country KG, GPT-4 family: win rate about 85% EASY (Yes/No
    only) and 74% HARD (half Wh), so Wh errs about 37% against Yes/No's 15%: +1.2 logits."""
    yes_bias: float = 0.0
    """A lean towards "yes" on Yes/No questions: subtracted when the right answer is yes, added
    when it is no. No paper gives a yes-rate for its models (KONTEST only notes Falcon's lean
    towards yes, and asks true facts only, where lean and knowledge cannot be told apart), so 0."""
    template2: float = 0.35
    """Added for KONTEST's template 2 (template 1: none). KONTEST Table 4, all models: knowledge
    gap 26.0% on template 1, 33.0% on template 2: +0.35 logits."""
    template3: float = 0.0
    """Added for KONTEST's unseen template 3. KONTEST Table 5, the models' mean: 24.1% on
    template 3 against 24.4% on template 1 (and 28.5% on template 2): about 0."""
    paraphrase_inconsistency: float = 0.4
    """KONTEST: the chance that a phrasing of a fact gets an answer of its own rather than the
    draw the fact's phrasings share (not a logit; a question asked again after another keeps its
    own key, as before). KONTEST Table 3 (all models): 24.2% atomic errors at gaps of 26-33%.
    At such gaps (3,000 random edges at the default rates: 30% and 35%) 0.4 makes the two
    phrasings disagree on about 22% of facts, independent answers (1.0) on 32%; on the Country
    KG, where `sim` knows more (gaps 14% and 18%), about 14%."""
    context_relevant: float = -1.5
    """Added when a fact-eval context states the fact. LLM-facteval section 3.2 and Fig. 2:
    relevant context "leads to significant performance improvement across all LLMs" (the figure's
    numbers are not in its text; -1.5 logits takes a 30% error to 9%)."""
    context_irrelevant: float = 0.1
    """Added when the context is a true fact sharing no entity with the question. LLM-facteval
    Fig. 2: performance "also decrease[s]" slightly with irrelevant context."""
    context_antifactual: float = 1.0
    """Added when the context states the fact with a wrong object. LLM-facteval Fig. 2: models
    "are prone to be misled by antifactual context"; +1 logit takes a 30% error to 54%."""
    llm_written: float = 0.2
    """Added when a generator (an LLM) wrote the question instead of a template. LLM-facteval
    Table 2 (T-REx F1, six instruction-tuned models): true/false questions from GPT-3.5 score about
    4 points below template ones at about 70%: +0.2 logits ("comparable", section 3.2)."""
    refusal_rate: float = 0.15
    """Abstention propensity: the share of wrong answers given as a refusal ("I don't know.")
    rather than a wrong answer (not a logit). KGLens section 3.3: GPT-3.5's failures are largely
    such refusals; 0.15, the simulator's rate before these options existed."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if not math.isfinite(getattr(self, f.name)):
                raise ValueError(f"sim option {f.name} must be a finite number")
        for name in ("refusal_rate", "paraphrase_inconsistency"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"sim option {name} must be between 0 and 1")

    def shift(self, meta: QuestionMeta) -> float:
        """The error-logit shift for the form ``meta`` states (0 for a plain KGLens Yes/No)."""
        shift = 0.0
        if meta.qtype == WH:
            shift += self.wh_penalty
        elif meta.expected in ("yes", "no"):
            shift += -self.yes_bias if meta.expected == "yes" else self.yes_bias
        if meta.template == 2:
            shift += self.template2
        elif meta.template == 3:
            shift += self.template3
        if meta.context:
            shift += self._context_shift(meta.context)
        if meta.llm_written:
            shift += self.llm_written
        return shift

    def _context_shift(self, context: str) -> float:
        shifts = {
            "relevant": self.context_relevant,
            "irrelevant": self.context_irrelevant,
            "antifactual": self.context_antifactual,
        }
        if context not in shifts:
            raise ValueError(f"unknown context {context!r} in a question for a simulated target")
        return shifts[context]


SIM_OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(SimEffects))
"""The names a ``sim`` spec takes as ``NAME=VALUE``."""

SIM_SPEC_HELP = (
    "sim[:SEED][,NAME=VALUE...] with NAME one of " + ", ".join(SIM_OPTIONS) + " (docs/modes.md)"
)


def parse_sim_arg(arg: str) -> tuple[int | None, SimEffects]:
    """The seed (None when not given) and effects of a ``sim`` spec's argument, e.g.
    ``"3,wh_penalty=0,context_relevant=-2"``; a ValueError names what is wrong."""
    seed: int | None = None
    values: dict[str, float] = {}
    for item in (part.strip() for part in arg.split(",")) if arg.strip() else ():
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            if seed is not None:
                raise ValueError(f"two seeds in 'sim:{arg}'; {SIM_SPEC_HELP}")
            try:
                seed = int(item)
            except ValueError:
                raise ValueError(
                    f"the seed in 'sim:{arg}' must be an integer; {SIM_SPEC_HELP}"
                ) from None
            continue
        if name not in SIM_OPTIONS:
            raise ValueError(f"unknown sim option {name!r}; {SIM_SPEC_HELP}")
        if name in values:
            raise ValueError(f"sim option {name} given twice in 'sim:{arg}'")
        values[name] = _number(name, value.strip())
    return seed, SimEffects(**values)


def _number(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"sim option {name} needs a number (got {text!r})") from None
