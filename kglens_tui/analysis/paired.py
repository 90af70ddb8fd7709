"""Two runs on one plan (`probe.plan`) compared answer by answer: the difference of their
KG-wide error rates taken over the questions both answered, which leaves out the variation
between questions that two independent estimates both carry.

The plan's census answers (its floor's, a rolling census in random order, or every answer of a
brute-force plan) give each edge both runs answered a mean difference; the mean over those edges
is unbiased for the difference of the two models' KG-wide rates (`estimates.census_difference`).
A plan stored before the rolling floor is taken per draw: ``sum over the questions both answered
of (y_b - y_a) / probability, over the edges``, the draws combined as the runs' own estimates
are (`estimates.paired_design_difference`).
"""

from __future__ import annotations

import numpy as np

from kglens_tui.analysis.kgwide import census_answers, load_design
from kglens_tui.analysis.rundata import DROPPED, RunData
from kglens_tui.modes.kglens.estimates import (
    Difference,
    census_difference,
    paired_design_difference,
)
from kglens_tui.modes.kglens.runstore import FAILED


def plan_of(data: RunData) -> int:
    """The run whose plan a run asked: its leader's, or its own."""
    return data.run.config.plan_of or data.run.id


def on_one_plan(a: RunData, b: RunData) -> bool:
    """Whether two different KGLens runs asked the same plan's questions."""
    return a.run.id != b.run.id and plan_of(a) == plan_of(b)


def _answers(data: RunData, adjusted: bool) -> dict[tuple[int, int], tuple[int, float]]:
    """(iteration, slot) -> (index into the run's observations, 1.0 if it failed), for the
    questions it answered (not a failed request, not dropped)."""
    cat = data.categories(adjusted)
    failed = np.isin(cat, FAILED)
    keep = (cat != DROPPED) & (cat != "error")
    its, slots = data.obs.iteration.tolist(), data.obs.slot.tolist()
    return {(its[i], slots[i]): (i, float(failed[i])) for i in np.flatnonzero(keep).tolist()}


def paired_count(a: RunData, b: RunData, adjusted: bool = True) -> int:
    """Questions of the plan both runs answered that the difference rests on: its census's
    (the floor's, or every one of brute force's), or every one for a plan stored before the
    rolling floor."""
    ans_a = _answers(a, adjusted)
    shared = ans_a.keys() & _answers(b, adjusted).keys()
    counted = census_answers(a)
    if counted is None:
        return len(shared)
    return sum(1 for key in shared if counted[ans_a[key][0]])


def paired_difference(
    a: RunData, b: RunData, adjusted: bool = True, predicate: int | None = None
) -> Difference | None:
    """b's KG-wide error rate minus a's over the questions both answered (of one KG predicate
    index, or all), with its z-test; None when they share no answered question or a's plan has
    no design to weigh them by."""
    ans_a, ans_b = _answers(a, adjusted), _answers(b, adjusted)
    shared = sorted(ans_a.keys() & ans_b.keys())
    population = a.included(adjusted) & b.included(adjusted)
    if predicate is not None:
        population &= a.kg.p[a.kg_pos] == predicate
    index = np.array([ans_a[k][0] for k in shared], dtype=np.int64)
    diff = np.array([ans_b[k][1] - ans_a[k][1] for k in shared])
    in_scope = population[a.obs.pos[index]] if len(index) else np.zeros(0, bool)
    index, diff = index[in_scope], diff[in_scope]
    edges = int(population.sum())
    if len(index) == 0 or edges == 0:
        return None
    counted = census_answers(a)
    if counted is not None:
        keep = counted[index]
        return census_difference(a.obs.pos[index[keep]], diff[keep], edges)
    return _design_difference(a, index, diff, edges)


def _design_difference(
    a: RunData, index: np.ndarray, diff: np.ndarray, edges: int
) -> Difference | None:
    """Per draw of a's plan, the differences weighted by the inverse of their probabilities
    (the floor's over the floor questions both answered: `paired_design_difference`)."""
    design = load_design(a)
    if design is None:
        return None
    draw, stored = design.draw[index], design.prob[index]
    ok = draw >= 0
    draw, stored, diff = draw[ok], stored[ok], diff[ok]
    floor = stored < 1.0
    floor_count = np.bincount(draw[floor], minlength=len(design.totals)).astype(np.float64)
    eligible = design.eligible
    with np.errstate(divide="ignore", invalid="ignore"):
        floor_prob = np.where(eligible > 0, floor_count / eligible, 0.0)
    prob = np.where(floor, floor_prob[draw], 1.0)
    return paired_design_difference(draw, diff, prob, floor_count, edges)
