"""KONTEST's knowledge-gap mitigation (section 3.3, Table 5): a weighted ensemble of several
target models against simple majority voting.

Each model scores ``5 - x`` per relation, where x is the number of metamorphic errors the relation
induced (at most five); its weight is its score sum over the sum of all models' scores. The
ensemble affirms a relation when the weighted share of yes answers is above 0.5. With ``folds``
above 1 the weights come from the other folds' relations and the gap is measured on the held-out
fold (the paper's five-fold cross-validation); gaps are summed over the folds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from kglens_tui.modes.kontest.oracles import ERROR, INVALID, METAMORPHIC_TESTS, YES

THRESHOLD = 0.5
MIN_RELATIONS = 10
"""Fewer shared relations than this make Table 5 too small to read a gap reduction from."""

R = TypeVar("R", bound=Hashable)
"""A relation's key (the same in every model's answers and errors)."""


@dataclass(frozen=True)
class TemplateGap:
    """Table 5 for one template: relations the ensembles and the models leave unaffirmed."""

    template: int
    weighted: int
    majority: int
    models_mean: float


@dataclass(frozen=True)
class EnsembleResult:
    """Table 5 for one set of models."""

    relations: int
    excluded: int
    """Relations left out: some model's answer was invalid or failed."""
    per_template: tuple[TemplateGap, ...]
    weights: tuple[tuple[float, ...], ...]
    """The models' weights, one tuple per fold."""
    folds: int = 1
    """Cross-validation folds used: those asked for, at most one per relation."""

    @property
    def too_few(self) -> bool:
        """Whether the runs share too few usable relations (`MIN_RELATIONS`) for a headline."""
        return self.relations < MIN_RELATIONS

    @property
    def weighted(self) -> int:
        return sum(t.weighted for t in self.per_template)

    @property
    def majority(self) -> int:
        return sum(t.majority for t in self.per_template)

    @property
    def models_mean(self) -> float:
        return sum(t.models_mean for t in self.per_template)

    def improvement(self, gap: float) -> float | None:
        """Reduction of the models' mean knowledge gap, as a share (negative = worse)."""
        base = self.models_mean
        return (base - gap) / base if base else None


def model_weights(errors: Sequence[Mapping[R, int]], relations: Sequence[R]) -> list[float]:
    """Eq. 1: each model's summed score (5 - errors per relation), normalised to sum to 1."""
    scores = [sum(METAMORPHIC_TESTS - e[r] for r in relations) for e in errors]
    total = sum(scores)
    if total <= 0:
        return [1.0 / len(errors)] * len(errors)
    return [s / total for s in scores]


def _gaps(
    answers: Sequence[Mapping[R, Mapping[int, str]]],
    weights: Sequence[float],
    relations: Sequence[R],
    template: int,
) -> tuple[int, int, float]:
    """(weighted gap, majority gap, models' mean gap) over relations for one template."""
    yes = np.array(
        [[answers[m][r][template] == YES for r in relations] for m in range(len(answers))],
        dtype=float,
    ).reshape(len(answers), len(relations))
    weighted = np.asarray(weights, dtype=float) @ yes
    votes = yes.sum(axis=0)
    weighted_gap = int(np.sum(~(weighted > THRESHOLD + 1e-12)))
    majority_gap = int(np.sum(~(votes > len(answers) / 2)))
    models_mean = float(np.mean(len(relations) - yes.sum(axis=1))) if len(answers) else 0.0
    return weighted_gap, majority_gap, models_mean


def usable_relations(
    answers: Sequence[Mapping[R, Mapping[int, str]]], templates: Sequence[int]
) -> tuple[list[R], int]:
    """Relations every model answered (yes or no) with every template, and how many were not."""
    common = set(answers[0])
    for a in answers[1:]:
        common &= set(a)
    ordered = sorted(common, key=repr)
    ok = [
        r
        for r in ordered
        if all(a[r].get(t, ERROR) not in (ERROR, INVALID) for a in answers for t in templates)
    ]
    return ok, len(ordered) - len(ok)


def weighted_ensemble(
    answers: Sequence[Mapping[R, Mapping[int, str]]],
    errors: Sequence[Mapping[R, int]],
    *,
    templates: Sequence[int] = (1, 2),
    folds: int = 1,
    seed: int = 0,
) -> EnsembleResult:
    """Table 5 for several models.

    ``answers[m][relation][template]`` is model m's atomic answer; ``errors[m][relation]`` its
    metamorphic error count for the relation. ``folds`` is capped at the number of usable
    relations (a fold without a relation to hold out measures nothing).
    """
    if len(answers) < 2:
        raise ValueError("an ensemble needs at least two models")
    if folds < 1:
        raise ValueError("folds must be at least 1")
    relations, excluded = usable_relations(answers, templates)
    folds = max(1, min(folds, len(relations)))
    if folds == 1:
        splits = [(relations, relations)]
    else:
        order = np.random.default_rng(seed).permutation(len(relations))
        parts = np.array_split(order, folds)
        splits = [
            (
                [relations[i] for k, p in enumerate(parts) if k != f for i in p.tolist()],
                [relations[i] for i in parts[f].tolist()],
            )
            for f in range(folds)
        ]
    sums = {t: [0, 0, 0.0] for t in templates}
    all_weights = []
    for train, test in splits:
        weights = model_weights(errors, train)
        all_weights.append(tuple(weights))
        if not test:
            continue
        for t in templates:
            w, m, mean = _gaps(answers, weights, test, t)
            sums[t][0] += w
            sums[t][1] += m
            sums[t][2] += mean
    return EnsembleResult(
        relations=len(relations),
        excluded=excluded,
        per_template=tuple(
            TemplateGap(t, int(sums[t][0]), int(sums[t][1]), float(sums[t][2])) for t in templates
        ),
        weights=tuple(all_weights),
        folds=folds,
    )
