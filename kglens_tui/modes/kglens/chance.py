"""Blind guessing's KG-wide rates: exact over the run's edges, not estimated from its asks.

The blind guesser answers a Yes/No question with a coin (with Yes where the edge has no false
object to ask about: every such question expects Yes) and a Wh question with its predicate's
most common true object (`answers.bias.constant_answers`). Which kind of question an ask of an
edge gets depends only on the run's difficulty and the KG (the rule of `QuestionFactory`: a Wh
question on every ask of a WH run and on half the asks of a HARD run, where the predicate has a
Wh template and the subject fewer than `wh_max_objects` objects; else Yes/No). So each edge's
chance that a guessed answer fails is known without asking anything, and blind guessing's
KG-wide rates are plain means over the edges: the same for every run on the same selection,
difficulty and KG, whatever its sampler asked.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kglens_tui.answers.bias import constant_right, guess_error
from kglens_tui.kg.graph import KGIndex
from kglens_tui.modes.kglens.config import Difficulty, RunConfig
from kglens_tui.modes.kglens.questions import wh_allowed
from kglens_tui.textfmt import counted


def guess_failure(kg: KGIndex, positions: np.ndarray, config: RunConfig) -> np.ndarray:
    """For each KG edge position: the chance that blind guessing fails one ask about it, asked
    as the run asks (1/2 for a Yes/No question, 0 where the edge has no false object to ask
    about; 0 or 1 for a Wh question, by whether the predicate's constant answer is true of the
    subject)."""
    positions = np.asarray(positions, dtype=np.int64)
    none = np.zeros(len(positions), dtype=bool)
    difficulty = Difficulty(config.difficulty)
    yes_only = ~kg.has_false_object(positions)
    if difficulty is Difficulty.EASY or not len(positions):
        return guess_error(none, none, yes_only)  # Yes/No questions only
    right = constant_right(kg, positions)
    yes_no, wh = guess_error(none, right, yes_only), guess_error(~none, right, yes_only)
    wh_share = 1.0 if difficulty is Difficulty.WH else 0.5
    allowed = wh_allowed(kg, positions, config.wh_max_objects)
    return np.where(allowed, (1.0 - wh_share) * yes_no + wh_share * wh, yes_no)


def yes_only_note(kg: KGIndex, positions: np.ndarray, config: RunConfig) -> str:
    """One line naming the run edges with no false object to ask about (their Yes/No questions
    all expect Yes, `KGIndex.has_false_object`), by predicate; '' when there are none or the
    run asks no Yes/No question."""
    positions = np.asarray(positions, dtype=np.int64)
    if Difficulty(config.difficulty) is Difficulty.WH or not len(positions):
        return ""
    only = positions[~kg.has_false_object(positions)]
    if not len(only):
        return ""
    preds, counts = np.unique(kg.p[only], return_counts=True)
    order = np.argsort(-counts, kind="stable")
    named = ", ".join(
        f"{kg.pred_labels[int(preds[i])]} {int(counts[i]):,}" for i in order[:5].tolist()
    )
    more = f" and {counted(len(preds) - 5, 'more predicate')}" if len(preds) > 5 else ""
    return (
        f"{len(only):,} of the run's {counted(len(positions), 'edge')} have no false object to "
        f"ask about ({named}{more}): every Yes/No question about them expects Yes, so a constant "
        "Yes answers them right, and chance counts it so."
    )


@dataclass(frozen=True)
class ChanceRates:
    """Blind guessing's KG-wide rates over a set of edges, each a failure (or success) share."""

    error: float
    """One ask wrong: the mean failure chance."""
    zero_sense: float
    """Two independent asks both wrong: the mean squared failure chance."""
    all_sense: float
    """Two independent asks both right: the mean squared success chance."""

    @property
    def win(self) -> float:
        return 1.0 - self.error


def chance_rates(fail: np.ndarray) -> ChanceRates | None:
    """Blind guessing's rates over edges with these failure chances (None: no edge)."""
    fail = np.asarray(fail, dtype=np.float64)
    if not len(fail):
        return None
    return ChanceRates(
        error=float(fail.mean()),
        zero_sense=float((fail**2).mean()),
        all_sense=float(((1.0 - fail) ** 2).mean()),
    )
