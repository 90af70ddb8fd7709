"""A stored KGLens run's KG-wide rates (`probe.estimates`) from its rows: the whole run, a
predicate, or any group of its edges, with what blind guessing would score on the same estimand.

The estimand and the estimators are described in `kglens_tui.modes.kglens.estimates`; what each
answer stores, in db/0028_rolling_floor.sql (runs stored before it: db/0020_sampling_design.sql).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kglens_tui.analysis.rundata import DROPPED, RunData
from kglens_tui.answers.verify import first_word_answer
from kglens_tui.core.question_type import YES_NO
from kglens_tui.modes.kglens.chance import ChanceRates, chance_rates, guess_failure
from kglens_tui.modes.kglens.design import is_census, whole_iterations
from kglens_tui.modes.kglens.estimates import DesignRate, census_rate, design_rate, hajek_rate
from kglens_tui.modes.kglens.rate_text import within_unit
from kglens_tui.modes.kglens.runstore import FAILED, stored_draws
from kglens_tui.modes.kglens.samplers import Sampler
from kglens_tui.modes.kglens.sense_rates import (
    ZERO_SENSE,
    census_pair_rate,
    design_pair_rate,
    settled,
)


@dataclass(frozen=True)
class Design:
    """A run's design columns, aligned with `RunData.obs`, and its draws."""

    draw: np.ndarray
    """Index of each answer's draw into the per-draw arrays (-1: none)."""
    prob: np.ndarray
    prediction: np.ndarray
    totals: np.ndarray
    edges: np.ndarray
    weights: np.ndarray
    predicate_totals: list[dict[str, float]]
    eligible: np.ndarray
    """Each draw's eligible edges: what its floor was drawn from."""

    @property
    def usable(self) -> bool:
        return bool((self.weights > 0).any())


@dataclass(frozen=True)
class KGWide:
    """A KG-wide error-rate estimate with blind guessing's on the same estimand."""

    rate: DesignRate
    chance_error: float | None

    @property
    def chance_win(self) -> float | None:
        """Blind guessing's KG-wide win rate (None: not known)."""
        return None if self.chance_error is None else 1.0 - self.chance_error

    def surely_worst(self) -> tuple[float, float]:
        """Sort key putting the surely worst first, as `intervals.worst_first` does for the
        rates over examined edges: by the top of the win rate's 95% interval, then the rate (a
        group with one wrong answer, 0.0% [0.0–79.3], does not head the list)."""
        return self.rate.win_interval()[1], self.rate.win


def shown(rate: DesignRate, chance_error: float | None) -> KGWide:
    """An estimate as it is shown: the error rate (`rate_text.within_unit`) and chance's within
    [0, 1]."""
    chance = None if chance_error is None else min(max(chance_error, 0.0), 1.0)
    return KGWide(within_unit(rate), chance)


def census(data: RunData) -> bool:
    """Whether the run's KG-wide rates are a census's (`census_answers`)."""
    return census_answers(data) is not None


def census_answers(data: RunData) -> np.ndarray | None:
    """The answers the run's KG-wide rates rest on, a census in random order (a mask over the
    run's answers); None when there are none (a run stored before the rolling floor is
    estimated by its design draws, `load_design`). Brute force: every answer. A batch as large
    as the run: the answers of the iterations that asked every run edge (one a budget cut short
    asked the sampler's picks and a floor, and its picks are no random sample). Any other run,
    or one of those with only a cut iteration: its floor's answers (`probe.design`)."""
    config = data.run.config
    if config.sampler == Sampler.BRUTE_FORCE:
        return np.ones(len(data.obs.pos), dtype=bool)

    def compute() -> np.ndarray | None:
        if is_census(config.sampler, config.batch_size, data.n_edges):
            whole = whole_iterations(data.obs.iteration, data.obs.pos, data.n_edges)
            if whole.any():
                return whole
        floor = data.obs.floor_pass >= 0
        return floor if floor.any() else None

    return data.memo(("census-answers",), compute)


def load_design(data: RunData) -> Design | None:
    """The run's design (None: drawn without it: brute force, or stored before it)."""

    def compute() -> Design | None:
        conn, run_id = data.conn, data.run.id
        draws = stored_draws(conn, run_id, data.run.iterations_done)
        if draws is None:
            return None
        # by id, aligned with the observations the run data holds (a run being written may have
        # committed more since they were read)
        by_id = {
            r[0]: r[1:]
            for r in conn.execute(
                "SELECT id, iteration, draw_slot, incl_prob, prediction FROM observation "
                "WHERE run_id = ?",
                (run_id,),
            )
        }
        rows = [by_id.get(int(i), (None, None, None, None)) for i in data.obs.id.tolist()]
        draw = np.array(
            [draws.place.get((r[0], r[1]), -1) if r[1] is not None else -1 for r in rows],
            dtype=np.int64,
        )
        prob = np.array([r[2] if r[2] is not None else 0.0 for r in rows], dtype=np.float64)
        prob[draw < 0] = 0.0
        return Design(
            draw=draw,
            prob=prob,
            prediction=np.array([r[3] or 0.0 for r in rows], dtype=np.float64),
            totals=draws.total,
            edges=draws.population,
            weights=draws.floor_size,
            predicate_totals=draws.predicate_totals,
            eligible=draws.eligible,
        )

    return data.memo(("design",), compute, logged=True)


def _chance(data: RunData, population: np.ndarray) -> ChanceRates | None:
    """Blind guessing's rates over the run edges in ``population``, exact (`probe.chance`):
    the same for every run on this selection and difficulty, whatever its sampler asked."""
    fail = data.memo(
        ("guess-failure",), lambda: guess_failure(data.kg, data.kg_pos, data.run.config)
    )
    return chance_rates(fail[population])


def _outcomes(data: RunData, adjusted: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per answer: whether it is one (not dropped, not a failed request), and 1.0 if it failed."""

    def compute() -> tuple[np.ndarray, np.ndarray]:
        cat = data.categories(adjusted)
        return (cat != DROPPED) & (cat != "error"), np.isin(cat, FAILED).astype(np.float64)

    return data.memo(("kg-wide-outcomes", adjusted), compute)


def kg_wide(
    data: RunData,
    adjusted: bool = True,
    predicate: int | None = None,
    mask: np.ndarray | None = None,
) -> KGWide | None:
    """The KG-wide error rate of the whole run, of one predicate (a KG predicate index) or of a
    group of run edges (`mask`): the census of their edges' census answers (`census_answers`);
    a run stored before the rolling floor by its design draws (a predicate by AIPW with its
    stored prediction sums, a group by the Hájek ratio). None when the run holds no answer for
    it. Cached in the run data unless for a mask."""
    if mask is None:
        return data.memo(
            ("kg-wide", adjusted, predicate), lambda: _kg_wide(data, adjusted, predicate, None)
        )
    return _kg_wide(data, adjusted, predicate, mask)


def _kg_wide(
    data: RunData, adjusted: bool, predicate: int | None, mask: np.ndarray | None
) -> KGWide | None:
    answered, failed = _outcomes(data, adjusted)
    population = data.included(adjusted)
    if predicate is not None:
        population = population & (data.kg.p[data.kg_pos] == predicate)
    if mask is not None:
        population = population & mask
    if not population.any():
        return None
    in_scope = answered & population[data.obs.pos]
    chance = _chance(data, population)
    chance_error = None if chance is None else chance.error
    counted = census_answers(data)
    if counted is not None:
        return _census(data, in_scope & counted, failed, chance_error, int(population.sum()))
    design = load_design(data)
    if design is None or not design.usable:
        return None
    prob = np.where(in_scope, design.prob, 0.0)
    if mask is None:
        if predicate is None:
            totals, edges = design.totals, design.edges
        else:
            key = data.kg.pred_keys[predicate]
            totals = np.array([t.get(key, 0.0) for t in design.predicate_totals])
            edges = np.full(len(totals), float(population.sum()))
        keep = prob > 0
        rate = design_rate(
            design.draw[keep],
            failed[keep],
            prob[keep],
            design.prediction[keep],
            totals,
            edges,
            design.weights,
        )
        if rate is None:
            return None
        return shown(rate, chance_error)
    floor_drawn = (design.draw >= 0) & (design.weights[np.maximum(design.draw, 0)] > 0)
    keep = (prob > 0) & floor_drawn
    rate = hajek_rate(failed[keep], prob[keep], int(population.sum()))
    if rate is None:
        return None
    return shown(rate, chance_error)


def _census(
    data: RunData,
    in_scope: np.ndarray,
    failed: np.ndarray,
    chance_error: float | None,
    edges: int,
) -> KGWide | None:
    """Brute force: the census estimate over the answers in scope, and chance's."""
    pos = data.obs.pos[in_scope]
    n_edges = data.n_edges
    asked = np.bincount(pos, minlength=n_edges)
    fails = np.bincount(pos, weights=failed[in_scope], minlength=n_edges)
    rate = census_rate(asked - fails, fails, edges)
    if rate is None:
        return None
    return shown(rate, chance_error)


def kg_wide_sense(data: RunData, sense: str, adjusted: bool = True) -> KGWide | None:
    """The run's KG-wide two-ask zero-sense or all-sense rate (`probe.sense_rates`; ``sense``
    is ZERO_SENSE or ALL_SENSE; the estimate's ``error`` field holds the rate), with blind
    guessing's on the same estimand. None without enough answers: brute force before MIN
    edges are asked twice, a design before three draws with a floor."""
    return data.memo(("kg-wide-sense", sense, adjusted), lambda: _sense(data, sense, adjusted))


def _sense(data: RunData, sense: str, adjusted: bool) -> KGWide | None:
    zero = sense == ZERO_SENSE
    answered, failed = _outcomes(data, adjusted)
    population = data.included(adjusted)
    in_scope = answered & population[data.obs.pos]
    chance = _chance(data, population)
    chance_rate = None if chance is None else chance.zero_sense if zero else chance.all_sense
    event = failed if zero else 1.0 - failed
    counted = census_answers(data)
    if counted is not None:
        in_scope = in_scope & counted
        pos = data.obs.pos[in_scope]
        asked = np.bincount(pos, minlength=data.n_edges).astype(np.float64)
        events = np.bincount(pos, weights=event[in_scope], minlength=data.n_edges)
        rate = settled(census_pair_rate(events[population], asked[population]))
        return None if rate is None else shown(rate, chance_rate)
    design = load_design(data)
    if design is None or not design.usable:
        return None
    index = np.where(population, np.cumsum(population) - 1, -1)
    edge = np.where(in_scope & (design.draw >= 0), index[data.obs.pos], -1)
    run_preds = data.kg.p[data.kg_pos]
    codes, group = np.unique(run_preds[population], return_inverse=True)
    size = np.array([int((run_preds == c).sum()) for c in codes], dtype=np.float64)
    keys = [data.kg.pred_keys[int(c)] for c in codes]
    mean = np.array([[t.get(k, 0.0) for k in keys] for t in design.predicate_totals]) / size
    draw = np.maximum(design.draw, 0)
    rate = settled(
        design_pair_rate(
            draw, edge, event, design.prob, group, mean if zero else 1.0 - mean, design.weights
        )
    )
    return None if rate is None else shown(rate, chance_rate)


def said_yes(data: RunData) -> tuple[np.ndarray, np.ndarray]:
    """Per answer: whether it is a Yes/No reply that opens with yes or no, and whether yes."""

    def compute() -> tuple[np.ndarray, np.ndarray]:
        given = {
            int(i): first_word_answer(reply)
            for i, reply in data.conn.execute(
                "SELECT id, reply FROM observation WHERE run_id = ? AND qtype = ?",
                (data.run.id, YES_NO),
            )
        }
        said = [given.get(int(i)) for i in data.obs.id.tolist()]
        return (
            np.array([a is not None for a in said], dtype=bool),
            np.array([a == "yes" for a in said], dtype=bool),
        )

    return data.memo(("said-yes",), compute, logged=True)


def kg_wide_yes_rate(data: RunData, adjusted: bool = True) -> DesignRate | None:
    """The share of Yes/No questions the model answers yes, KG-wide (every edge asked one Yes/No
    question as the run asks): the census of each edge's yes share over the answers the KG-wide
    rates rest on (`census_answers`); for a run stored before the rolling floor, the Hájek ratio
    of its Yes/No replies weighted by their inclusion probabilities. None without such a reply
    (or a design)."""
    answered, _ = _outcomes(data, adjusted)
    parsed, yes = said_yes(data)
    population = data.included(adjusted)
    use = answered & parsed & population[data.obs.pos]
    if not use.any():
        return None
    counted = census_answers(data)
    if counted is not None:
        use = use & counted
        pos = data.obs.pos[use]
        said = np.bincount(pos, weights=yes[use].astype(np.float64), minlength=data.n_edges)
        asked = np.bincount(pos, minlength=data.n_edges).astype(np.float64)
        return census_rate(asked - said, said, int(population.sum()))
    design = load_design(data)
    if design is None or not design.usable:
        return None
    floor_drawn = (design.draw >= 0) & (design.weights[np.maximum(design.draw, 0)] > 0)
    keep = use & floor_drawn & (design.prob > 0)
    return hajek_rate(yes[keep].astype(np.float64), design.prob[keep], int(population.sum()))
