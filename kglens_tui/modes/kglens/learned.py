"""Learned propagation (past the paper): a small hierarchical model of the error rate, fitted
online from the run's own answers, that decides how much an edge's predicate and entities tell
about it.

``logit p_j = mu + predicate[p_j] + subject[s_j] + object[o_j]`` with a normal (ridge) prior on
each group of effects whose spread is learned by empirical Bayes: a group that explains nothing
(the answers about one entity are no more alike than any others) shrinks to zero, one that does
("this model does not know calling codes", "knows little about Bhutan") keeps its effects. Each
edge's posterior is ``Beta(S q_j + failures_j, S (1 - q_j) + successes_j)``, where ``q_j`` is the
model's prediction for edge j left out of the fit and ``S``, the number of answers that
prediction is worth, maximises the beta-binomial likelihood of the answers. Propagation is thus
strong when the graph carries the signal and fades to none when it does not.

The fit is a deterministic function of the answer counts (cold start, a fixed schedule), so a
resumed run rebuilds exactly the posterior it had.

SciPy's special functions are imported where they are used: the engine imports this module, and
every `kglens` command would otherwise load SciPy (0.3 s) at its start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from kglens_tui.modes.kglens.pkg import PKGState

MIN_STRENGTH, MAX_STRENGTH = 0.3, 1000.0
"""Range of S searched (answers the model's prediction is worth)."""
PRIOR_WORTH_CAP = 2.0
"""At most this many answers is the model's prediction worth in an edge's posterior (S is
capped there, not in the fit). Chosen by the efficiency study (docs/efficiency-study.md): a
fit that trusts its predictions after few answers makes top-k stop exploring unasked edges, so
rare random blind spots went unfound (G@200 with 2% of them: 83% of brute force's requests,
one seed in five never) and a small real truth at a low base rate took 54% for G@10; capped at
2 they take 69% and 32%, while the structured truths keep their 3-10%."""
MIN_VAR, MAX_VAR = 1e-4, 16.0
"""Range of a group's prior variance (logit scale)."""
LOG_STRENGTH_PRIOR = (float(np.log(4.0)), 1.5)
"""Hyperprior of log S (mean, sd): weak, centred on the prediction being worth 4 answers."""
SHARE_SAMPLE = 50_000
"""At most this many edges, spread evenly, measure each group's share (big graphs stay fast)."""
STRENGTH_SAMPLE = 1500
"""At most this many edges (asked twice or more) estimate S."""
MAX_STEP = 2.0
"""Largest change of an effect or of the intercept in one sweep (logit scale)."""


@dataclass(frozen=True)
class ModelFit:
    """One fit of the error model: effects, their learned spread, and the strength S."""

    mu: float
    effects: tuple[np.ndarray, np.ndarray, np.ndarray]
    """predicate, subject and object effects (logit), zero where a level has no answer."""
    answers: tuple[np.ndarray, np.ndarray, np.ndarray]
    """How many answers each level's effect rests on."""
    sd: tuple[float, float, float]
    """Learned prior sd of each group of effects."""
    strength: float
    """S: how many answers the model's prediction for an edge is worth."""
    examined: int
    """Edges with an answer when fitted."""
    variance: tuple[float, float, float]
    """The prior variances (sd squared, as fitted)."""
    model: ErrorModel = field(repr=False, compare=False)
    """The model fitted (its structure: what `shares` is measured over)."""

    @cached_property
    def shares(self) -> tuple[float, float, float]:
        """Share of the variation of edges' error rates each group explains; the rest is the
        edge's own (what only its answers can tell). Worked out when first asked: only a
        screen's summary reads it, not the sampler."""
        return self.model.shares(self.mu, list(self.effects), list(self.variance), self.strength)

    @property
    def worth(self) -> float:
        """How many answers the prediction counts as in an edge's posterior: S, capped."""
        return min(self.strength, PRIOR_WORTH_CAP)

    @property
    def neighbour_weight(self) -> float:
        """The learned neighbour weight: the share of an edge's error rate that its entities
        (the nodes it shares with its neighbours) predict; about 0 when the graph carries no
        signal."""
        return self.shares[1] + self.shares[2]

    @property
    def predicate_share(self) -> float:
        return self.shares[0]


def _expit(x: npt.ArrayLike) -> Any:
    """SciPy's logistic function, imported on first use (see the module's docstring)."""
    from scipy.special import expit

    return expit(x)


class ErrorModel:
    """The structure the model shares strength along: each run edge's predicate, subject and
    object codes."""

    def __init__(self, p: np.ndarray, s: np.ndarray, o: np.ndarray) -> None:
        dense = [_dense(np.asarray(x, dtype=np.int64)) for x in (p, s, o)]
        self.ids = tuple(ids for ids, _ in dense)
        """The original predicate / node index of each level."""
        self.codes = tuple(codes for _, codes in dense)
        self.levels = tuple(len(ids) for ids in self.ids)
        self.n_edges = len(self.codes[0])
        self.sample = np.linspace(0, self.n_edges - 1, min(self.n_edges, SHARE_SAMPLE)).astype(
            np.int64
        )
        """Edges the shares are measured over (all of a graph of up to SHARE_SAMPLE edges)."""

    def fit(self, m: np.ndarray, n: np.ndarray, sweeps: int = 16) -> ModelFit:
        """Fit to successes m and failures n per edge (a cold start: the result depends on the
        counts only)."""
        m = np.asarray(m, dtype=np.float64)
        n = np.asarray(n, dtype=np.float64)
        seen = np.flatnonzero((m + n) > 0)
        t = (m + n)[seen]
        y = n[seen]
        codes = [c[seen] for c in self.codes]
        total_n, total_t = float(y.sum()), float(t.sum())
        effects = [np.zeros(size) for size in self.levels]
        var = [1.0, 1.0, 1.0]
        mu = float(_logit((total_n + 0.5) / (total_t + 1.0))) if len(seen) else 0.0
        strength = 10.0
        hess: list[np.ndarray] = [np.zeros(size) for size in self.levels]
        eta = np.full(len(seen), mu)
        rate = y / t
        # scratch arrays, reused by every sweep (the same arithmetic as fresh temporaries)
        p, weighted_p, resid, curv, gathered = (np.empty_like(eta) for _ in range(5))

        def weights(s: float) -> tuple[np.ndarray, np.ndarray]:
            """Quasi-likelihood weights of the beta-binomial (and weight x rate): an edge asked
            t times tells about its neighbours at most as much as S answers would (its own rate
            varies around q); they change only with S."""
            w = t / (1.0 + (t - 1.0) / (s + 1.0))
            return w, w * rate

        weight, weighted_rate = weights(strength)
        weighted_at = strength
        for sweep in range(sweeps):
            if weighted_at != strength:
                weight, weighted_rate = weights(strength)
                weighted_at = strength
            for g in range(3):
                self._sums(eta, weight, weighted_rate, p, weighted_p, resid, curv)
                size = self.levels[g]
                grad = np.bincount(codes[g], resid, size) - effects[g] / var[g]
                hess[g] = np.bincount(codes[g], curv, size) + 1.0 / var[g]
                step = _clip_step(np.divide(grad, hess[g], out=grad))
                effects[g] += step
                eta += step.take(codes[g], out=gathered)
            self._sums(eta, weight, weighted_rate, p, weighted_p, resid, curv)
            curv_sum = float(_total(curv))
            mu_step = float(_total(resid)) / max(curv_sum, 1e-9)
            mu_step = min(max(mu_step, -MAX_STEP), MAX_STEP)
            mu += mu_step
            eta += mu_step
            if sweep % 2 == 1:
                for g in range(3):
                    var[g] = _update_variance(effects[g], hess[g], var[g])
            if sweep == sweeps // 2:
                strength = self._strength(eta, y, t, codes, hess, weight)
        strength = self._strength(eta, y, t, codes, hess, weight)
        answers = tuple(np.bincount(codes[g], t, self.levels[g]) for g in range(3))
        return ModelFit(
            mu=float(mu),
            effects=(effects[0], effects[1], effects[2]),
            answers=answers,  # type: ignore[arg-type]
            sd=(float(np.sqrt(var[0])), float(np.sqrt(var[1])), float(np.sqrt(var[2]))),
            strength=float(strength),
            examined=len(seen),
            variance=(var[0], var[1], var[2]),
            model=self,
        )

    @staticmethod
    def _sums(
        eta: np.ndarray,
        weight: np.ndarray,
        weighted_rate: np.ndarray,
        p: np.ndarray,
        weighted_p: np.ndarray,
        resid: np.ndarray,
        curv: np.ndarray,
    ) -> None:
        """Into the given arrays: p = logistic(eta), the weighted residual ``weight (rate - p)``
        and curvature ``weight p (1 - p)`` of each examined edge."""
        _logistic(eta, out=p)
        np.multiply(weight, p, out=weighted_p)
        np.subtract(weighted_rate, weighted_p, out=resid)
        np.multiply(weighted_p, p, out=curv)
        np.subtract(weighted_p, curv, out=curv)

    def _strength(
        self,
        eta: npt.NDArray[np.float64],
        y: npt.NDArray[np.float64],
        t: npt.NDArray[np.float64],
        codes: Sequence[np.ndarray],
        hess: Sequence[npt.NDArray[np.floating[Any]]],
        weight: npt.NDArray[np.float64],
    ) -> float:
        """S maximising the beta-binomial likelihood of each edge's answers given the model's
        prediction with that edge left out (one Newton step back from the fit)."""
        q = _expit(self._left_out(eta, y, t, codes, hess, weight))
        return _best_strength(q, y, t)

    @staticmethod
    def _left_out(
        eta: npt.NDArray[np.float64],
        y: npt.NDArray[np.float64],
        t: npt.NDArray[np.float64],
        codes: Sequence[np.ndarray],
        hess: Sequence[npt.NDArray[np.floating[Any]]],
        weight: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float64]:
        """Each examined edge's linear predictor without its own answers (approximately: its
        pull on each of its effects taken back)."""
        p = _expit(eta)
        rate = np.divide(y, t, out=np.zeros_like(y), where=t > 0)
        resid = weight * (rate - p)
        back: npt.NDArray[np.float64] = sum(resid / hess[g][codes[g]] for g in range(3))
        return eta - back

    def predict(self, fit: ModelFit, positions: np.ndarray | None = None) -> np.ndarray:
        """q: the model's error rate for each edge (all edges, or the given positions)."""
        return _bounded(_expit(self._eta(fit.mu, fit.effects, positions)), fit)

    def _eta(
        self, mu: float, effects: Sequence[np.ndarray], positions: np.ndarray | None = None
    ) -> np.ndarray:
        """The linear predictor of each edge (all, or the given positions)."""
        eta = np.full(self.n_edges if positions is None else len(positions), mu)
        for g in range(3):
            codes = self.codes[g] if positions is None else self.codes[g][positions]
            eta += effects[g][codes]
        return eta

    def prior(
        self, fit: ModelFit, m: np.ndarray, n: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(q, prior alpha, prior beta) per edge: S q and S (1 - q), where an edge with answers
        gets the prediction made without them."""
        eta = self._eta(fit.mu, fit.effects)
        seen = np.flatnonzero((np.asarray(m) + np.asarray(n)) > 0)
        if len(seen):
            t = (np.asarray(m, np.float64) + n)[seen]
            y = np.asarray(n, np.float64)[seen]
            codes = [c[seen] for c in self.codes]
            weight = t / (1.0 + (t - 1.0) / (fit.strength + 1.0))
            p = _expit(eta[seen])
            hess = [
                np.bincount(codes[g], weight * p * (1 - p), self.levels[g]) + 1.0 / fit.sd[g] ** 2
                for g in range(3)
            ]
            eta[seen] = self._left_out(eta[seen], y, t, codes, hess, weight)
        q = _bounded(_expit(eta), fit)
        prior_a = fit.worth * q
        return q, prior_a, fit.worth - prior_a

    def shares(
        self, mu: float, effects: list[np.ndarray], var: list[float], strength: float
    ) -> tuple[float, float, float]:
        """How much of the variation of edges' error rates each group explains: the variance of
        the model's predictions over the edges against the variance of an edge's own rate around
        its prediction (a beta of strength S), split between the groups in proportion to the
        variance of their effects over the edges (logit scale)."""
        some = self.sample
        parts = [float(np.var(effects[g][self.codes[g][some]])) for g in range(3)]
        q = _expit(self._eta(mu, effects, some))
        model = float(np.var(q))
        own = float(np.mean(q * (1 - q))) / (strength + 1.0)
        if model + own <= 0 or sum(parts) <= 0:
            return (0.0, 0.0, 0.0)
        explained = model / (model + own)
        return tuple(explained * x / sum(parts) for x in parts)  # type: ignore[return-value]


def _bounded(q: npt.NDArray[np.float64], fit: ModelFit) -> npt.NDArray[np.float64]:
    """``q`` no more extreme than the answers the fit rests on allow: within 1/(2(T + 1)) of 0
    and 1 after T answers. When every answer so far is right (or every one wrong) the fit's
    intercept runs off towards minus (plus) infinity, and an unbounded q would give an edge a
    posterior of Beta(1e-8, ...): an error rate of exactly 0% with an interval of [0%, 0%]
    after two answers."""
    edge = 0.5 / (float(np.sum(fit.answers[0])) + 1.0)
    return np.clip(q, edge, 1.0 - edge)


def _logistic(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) into `out` (scipy's expit is slower on arrays this size)."""
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1.0
    np.reciprocal(out, out=out)
    return out


_total = np.add.reduce
"""The sum of a 1-d array (ndarray.sum's own reduction, without its wrapper's cost)."""


def _clip_step(step: np.ndarray) -> np.ndarray:
    """Newton steps limited to +-MAX_STEP, in place (the ufunc: np.clip's wrapper costs more
    than the clipping on arrays this size)."""
    np.maximum(step, -MAX_STEP, out=step)
    np.minimum(step, MAX_STEP, out=step)
    return step


def _dense(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(level ids, codes renumbered 0..L-1): only the levels present."""
    ids, inverse = np.unique(codes, return_inverse=True)
    return ids, inverse.astype(np.int64)


def _logit(p: float) -> float:
    return float(np.log(p / (1.0 - p)))


def _update_variance(effect: np.ndarray, hess: np.ndarray, var: float) -> float:
    """Empirical-Bayes (MacKay) update of a group's prior variance: the spread of its effects
    over the number of levels the data pin down."""
    precision = 1.0 / var
    has = hess > precision + 1e-12
    pinned_hess = hess[has]
    if not len(pinned_hess):
        return var
    pinned = float(_total(1.0 - precision / pinned_hess))
    if pinned <= 1e-6:
        return MIN_VAR
    pinned_effects = effect[has]
    return min(max(float(_total(pinned_effects * pinned_effects)) / pinned, MIN_VAR), MAX_VAR)


def _best_strength(q: np.ndarray, y: np.ndarray, t: np.ndarray) -> float:
    """Golden-section search of log S for the beta-binomial log likelihood, with a weak
    log-normal hyperprior (answers about an edge asked once say nothing about S: only edges
    asked twice or more do)."""
    repeat = np.flatnonzero(t > 1)
    if len(repeat) == 0:
        return float(np.exp(LOG_STRENGTH_PRIOR[0]))
    if len(repeat) > STRENGTH_SAMPLE:
        # a fixed, spread-out subset bounds the cost on big graphs (deterministic: resume)
        repeat = repeat[np.linspace(0, len(repeat) - 1, STRENGTH_SAMPLE).astype(np.int64)]
    q = np.clip(q[repeat], 1e-6, 1 - 1e-6)
    loglik = _beta_binomial_loglik(q, y[repeat], t[repeat])
    centre, spread = LOG_STRENGTH_PRIOR

    def objective(log_s: float) -> float:
        return loglik(float(np.exp(log_s))) - 0.5 * ((log_s - centre) / spread) ** 2

    low, high = np.log(MIN_STRENGTH), np.log(MAX_STRENGTH)
    ratio = (np.sqrt(5) - 1) / 2
    c = high - ratio * (high - low)
    d = low + ratio * (high - low)
    fc, fd = objective(c), objective(d)
    for _ in range(16):
        if fc > fd:
            high, d, fd = d, c, fc
            c = high - ratio * (high - low)
            fc = objective(c)
        else:
            low, c, fc = c, d, fd
            d = low + ratio * (high - low)
            fd = objective(d)
    return float(np.exp((low + high) / 2))


RISING_TERMS_MAX = 200_000
"""Above this many answers the likelihood falls back to log-beta functions."""


def _beta_binomial_loglik(q: np.ndarray, y: np.ndarray, t: np.ndarray) -> Callable[[float], float]:
    """S -> the log likelihood of y failures in t answers per edge when each edge's error rate
    is Beta(S q, S (1 - q)), constant terms left out. The counts are whole numbers, so
    ``B(a + y, b + x) / B(a, b)`` is a ratio of rising factorials: a sum of logs over one
    flat array of (edge, step) pairs, set up once, instead of four log-gamma calls per edge
    and evaluation."""
    from scipy.special import betaln  # on first use: see the module's docstring

    y = np.asarray(y, dtype=np.int64)
    x = np.asarray(t, dtype=np.int64) - y
    if int(y.sum() + x.sum()) > RISING_TERMS_MAX:
        yf, xf = y.astype(np.float64), x.astype(np.float64)
        return lambda s: float(
            np.sum(betaln(s * q + yf, s * (1 - q) + xf) - betaln(s * q, s * (1 - q)))
        )
    fail_q, fail_step = _steps(q, y)
    pass_q, pass_step = _steps(1.0 - q, x)
    # step k of log (S)_t is taken by every edge asked more than k times
    total = np.bincount(y + x)
    total_step = np.arange(len(total) - 1, dtype=np.float64)
    total_count = np.cumsum(total[::-1])[::-1][1:].astype(np.float64)
    # the three sums' terms log(S share + step) in one array (the total's share is 1), so an
    # evaluation makes one pass of each operation instead of three
    shares = np.concatenate((fail_q, pass_q, np.ones(len(total_step))))
    steps = np.concatenate((fail_step, pass_step, total_step))
    fails, passes = len(fail_q), len(fail_q) + len(pass_q)
    terms = np.empty_like(shares)

    def loglik(s: float) -> float:
        np.multiply(shares, s, out=terms)
        np.add(terms, steps, out=terms)
        np.log(terms, out=terms)
        return float(
            _total(terms[:fails])
            + _total(terms[fails:passes])
            - _total(total_count * terms[passes:])
        )

    return loglik


def _steps(share: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(share of the edge, i) for every edge and every i below its count: the terms of
    ``log (a)_count = sum_i log(a + i)`` with ``a = S share``."""
    edge = np.repeat(np.arange(len(count)), count)
    step = np.arange(len(edge)) - np.repeat(np.cumsum(count) - count, count)
    return share[edge], step.astype(np.float64)


def _trigamma(x: np.ndarray) -> np.ndarray:
    """psi'(x), vectorised: the recurrence up to x >= 6, then the asymptotic series."""
    x = np.asarray(x, dtype=np.float64).copy()
    out = np.zeros_like(x)
    small = x < 6
    while small.any():
        out[small] += 1.0 / x[small] ** 2
        x[small] += 1.0
        small = x < 6
    inv = 1.0 / x
    inv2 = inv * inv
    return out + inv + inv2 / 2 + inv2 * inv / 6 - inv2 * inv2 * inv / 30 + inv2**3 * inv / 42


REFITS_PER_RUN = 20
"""Learned propagation refits after every iteration at first, then every iteration / 20
(about 20 refits per doubling of the run's length): the model settles as answers pile up, and
the edges' own answers are added after every iteration in between."""
EDGES_PER_REFIT_STEP = 9_000
"""... and at most every ceil(edges / this) iterations, so big graphs stay fast (a refit costs
about 3 ms at 20,000 edges, a bare Thompson draw 1.5 ms): every bundled KG (at most 8,434
edges) still refits after each of its first 20 iterations."""
LONGEST_REFIT_STEP = 20
"""... but at least every this many iterations, so the model learns early on any graph (at
1,000,000 edges a refit costs about 50 ms, a bare Thompson draw 70-100 ms)."""


class LearnedPropagation:
    """Keeps a PKG state's alpha and beta at the learned posterior: the edges' own answers are
    added after every iteration (as without propagation), the model refitted on schedule."""

    def __init__(self, p: np.ndarray, s: np.ndarray, o: np.ndarray) -> None:
        self.model = ErrorModel(p, s, o)
        self.min_every = min(
            LONGEST_REFIT_STEP, max(1, -(-self.model.n_edges // EDGES_PER_REFIT_STEP))
        )
        self.fit: ModelFit | None = None

    def due(self, iteration: int) -> bool:
        """Whether the model is refitted after this iteration (a function of the iteration and
        the KG's size only, so a resumed run refits where the original did)."""
        return iteration % max(self.min_every, iteration // REFITS_PER_RUN) == 0

    def after_iteration(self, state: PKGState, iteration: int) -> None:
        """Call after the iteration's own answers were applied (pkg.apply_outcomes without
        propagation)."""
        if self.due(iteration):
            self.refit(state)

    def refit(self, state: PKGState) -> ModelFit:
        """Fit the model to the answers so far and reset the posterior to it."""
        fit = self.model.fit(state.m, state.n)
        _, prior_a, prior_b = self.model.prior(fit, state.m, state.n)
        state.alpha[:] = prior_a + state.n
        state.beta[:] = prior_b + state.m
        self.fit = fit
        return fit


NOTABLE = 0.5
"""A predicate or subject counts among the weakest when its effect raises the odds of an error
by at least this much on the logit scale (by 65%)."""


@dataclass(frozen=True)
class Weakness:
    """A predicate or subject the model errs on: its expected error rate for a typical edge
    (the other effects at zero) and the answers it rests on."""

    index: int
    """Predicate or node index in the KG."""
    error: float
    answers: int


@dataclass(frozen=True)
class Learned:
    """What a run's answers teach about the model, for a screen: the neighbour weight (share of
    the error rate's variation its entities explain), the predicate share, S, and the weakest
    predicates and subjects."""

    answers: int
    examined: int
    strength: float
    neighbour_weight: float
    predicate_share: float
    mean_error: float
    weakest_predicates: tuple[Weakness, ...]
    weakest_subjects: tuple[Weakness, ...]


def learned_summary(model: ErrorModel, fit: ModelFit, top: int = 3) -> Learned:
    """The fit as a `Learned` (levels with answers only; at least two for a subject)."""

    def weakest(group: int, least: int) -> tuple[Weakness, ...]:
        effect, answers = fit.effects[group], fit.answers[group]
        ok = np.flatnonzero(answers >= least)
        ok = ok[np.argsort(-effect[ok], kind="stable")][:top]
        return tuple(
            Weakness(int(model.ids[group][i]), float(_expit(fit.mu + effect[i])), int(answers[i]))
            for i in ok.tolist()
            if effect[i] > NOTABLE
        )

    return Learned(
        answers=int(fit.answers[0].sum()),
        examined=fit.examined,
        strength=fit.strength,
        neighbour_weight=fit.neighbour_weight,
        predicate_share=fit.predicate_share,
        mean_error=float(_expit(fit.mu)),
        weakest_predicates=weakest(0, 1),
        weakest_subjects=weakest(1, 2),
    )


def rank_blind_spots(
    model: ErrorModel,
    fit: ModelFit,
    m: np.ndarray,
    n: np.ndarray,
    k: int,
    posterior: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k examined edges with the highest posterior mean error rate under the fit, with
    their posterior means and the share of each estimate that comes from the model (its
    predicate and neighbours: S / (S + answers)) rather than the edge's own answers.

    An edge that failed itself outranks one whose neighbours failed: its own answers count in
    full, the model's prediction for it (made without them) only as S answers. With
    ``posterior`` (alpha and beta of a run kept at the learned posterior: the fit's prior at
    its last refit plus every answer since) the edges are ranked by its means, the numbers the
    review lists show, rather than by the fit's prior for today's answers."""
    seen = np.flatnonzero((np.asarray(m) + np.asarray(n)) > 0)
    if len(seen) == 0:
        empty = np.empty(0)
        return seen, empty, empty
    if posterior is not None:
        a, b = posterior[0][seen], posterior[1][seen]
    else:
        _, prior_a, prior_b = model.prior(fit, m, n)
        a = prior_a[seen] + np.asarray(n)[seen]
        b = prior_b[seen] + np.asarray(m)[seen]
    mean = a / (a + b)
    k = min(k, len(seen))
    # the stable top k (ties in position order) without sorting every examined edge
    cut = np.partition(mean, len(mean) - k)[len(mean) - k]
    above = np.flatnonzero(mean > cut)
    top = np.concatenate((above, np.flatnonzero(mean == cut)[: k - len(above)]))
    top = top[np.argsort(-mean[top], kind="stable")]
    total = a[top] + b[top]
    if posterior is None:
        share = fit.worth / total
    else:  # the prior's weight is what the posterior holds beyond the edge's own answers
        answers = (np.asarray(m) + np.asarray(n))[seen[top]]
        share = (total - answers) / total
    return seen[top], mean[top], share
