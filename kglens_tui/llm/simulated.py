"""A simulated target LLM with latent, graph-correlated knowledge (for demos, tests, benchmarks).

Each entity and predicate gets a seeded random effect; an edge's true error rate is
``sigmoid(intercept + predicate + subject + object effects)``, so edges sharing a node correlate.
The form of a question (Wh, KONTEST template, fact-eval context, LLM-written) shifts that logit by
the target's `SimEffects`. Each answer is drawn from an RNG derived only from ``(seed, meta.key)``
(and, for a KONTEST phrasing, the fact's shared draw): replies are deterministic whatever the
call order or concurrency.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import numpy as np
from scipy.special import expit, logit

from kglens_tui.core.question_type import WH
from kglens_tui.llm.base import ChatRequest, Completion, QuestionMeta
from kglens_tui.llm.sim_effects import SimEffects

Edge = tuple[int, str, str, str]
"""``(edge_id, subject_key, predicate_key, object_key)``."""

REFUSALS: tuple[str, ...] = (
    "I'm sorry, but I couldn't find any information about that.",
    "I'm sorry, but as an AI assistant, I do not have the capability to provide "
    "real-time information on that.",
    "I don't know.",
)

_YES_RIGHT = ("Yes.", "Yes, that is correct.", "Yes, {label} is right.")
_NO_RIGHT = ("No.", "No, that is not correct.", "No, it is not {label}.")
_WH_TEMPLATES = ("{label}.", "{label}", "The answer is {label}.", "It is {label}.")


def stable_hash(text: str) -> int:
    """A 64-bit hash of ``text`` that is stable across processes (unlike ``hash``)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


@lru_cache(maxsize=4096)
def _words(text: str) -> int:
    return len(text.split())


@lru_cache(maxsize=1 << 17)
def _seeded_effect(seed: int, name: str, sd: float) -> float:
    """The normal effect of one entity or predicate (``name``) for a target's seed: a function
    of its arguments alone, kept for the process (every simulated target of a KG draws the
    same thousands of them, about 20 µs each)."""
    return float(np.random.default_rng([seed, stable_hash(name)]).normal(0.0, sd))


class SimulatedClient:
    """Simulated target model whose per-edge error rates are known (``true_error_rate``: a KGLens
    Yes/No question in its plain form; `error_rate` gives any form's).

    ``base_skill`` sets the intercept (higher = fewer errors: the median edge errs with
    probability ``sigmoid(-base_skill)``); ``predicate_sd`` and ``entity_sd`` scale the random
    effects; ``effects`` are the effects of question form and the share of wrong answers given
    as refusals. ``latency_fn(rng)`` (or fixed ``latency_s``) delays each answer.
    """

    simulated = True

    def __init__(
        self,
        edges: Iterable[Edge],
        seed: int = 0,
        *,
        base_skill: float = 1.5,
        predicate_sd: float = 1.0,
        entity_sd: float = 0.8,
        effects: SimEffects | None = None,
        latency_s: float = 0.0,
        latency_fn: Callable[[np.random.Generator], float] | None = None,
    ) -> None:
        self.seed = seed
        self.base_skill = base_skill
        self.predicate_sd = predicate_sd
        self.entity_sd = entity_sd
        self.effects = effects if effects is not None else SimEffects()
        self.latency_s = latency_s
        self.latency_fn = latency_fn
        self.label = f"simulated (seed {seed})"
        edge_list = list(edges)
        self.edge_ids: np.ndarray = np.array([e[0] for e in edge_list], dtype=np.int64)
        # one call of the ufunc for every edge: element by element, as `error_rate_for` gives
        self.error_rates: np.ndarray = expit(
            np.array([self._logit_for(s, p, o) for _, s, p, o in edge_list], dtype=np.float64)
        )
        self.true_error_rate: dict[int, float] = dict(
            zip(self.edge_ids.tolist(), self.error_rates.tolist(), strict=True)
        )

    @property
    def answers_instantly(self) -> bool:
        """True without latency: `complete` then never waits, so callers need no task each."""
        return self.latency_s <= 0 and self.latency_fn is None

    def _effect(self, namespace: str, key: str, sd: float) -> float:
        """A seeded normal effect for one entity or predicate, independent of edge order."""
        return _seeded_effect(self.seed, f"{namespace}:{key}", sd)

    def _logit_for(self, subject: str, predicate: str, obj: str) -> float:
        return (
            -self.base_skill
            + self._effect("predicate", predicate, self.predicate_sd)
            + self._effect("entity", subject, self.entity_sd)
            + self._effect("entity", obj, self.entity_sd)
        )

    def error_rate_for(self, subject: str, predicate: str, obj: str) -> float:
        """The true probability of a wrong answer to a plain Yes/No question about
        ``(subject, predicate, obj)``."""
        return float(expit(self._logit_for(subject, predicate, obj)))

    def error_rate(self, meta: QuestionMeta) -> float:
        """True error rate for the question's edge in the form ``meta`` states."""
        shift = self.effects.shift(meta)
        base = self.true_error_rate.get(meta.edge_id)
        if base is None:
            base = self.error_rate_for(meta.subject, meta.predicate, meta.object)
        if shift == 0.0:
            return base
        return float(expit(logit(base) + shift))

    def _draw(self, meta: QuestionMeta, rng: random.Random) -> float:
        """The uniform draw an answer is wrong below: the question's own, except that a KONTEST
        phrasing shares its fact's draw unless `paraphrase_inconsistency` gives it its own (that
        choice on a stream of its own, so that at 1 the answers are those of independent draws)."""
        own = rng.random()
        if not meta.template or self.effects.paraphrase_inconsistency >= 1.0:
            return own
        if random.Random(f"{self.seed}:{meta.key}:phrasing").random() < (
            self.effects.paraphrase_inconsistency
        ):
            return own
        return random.Random(
            f"{self.seed}:fact:{meta.subject}|{meta.predicate}|{meta.object}"
        ).random()

    def answer(self, meta: QuestionMeta) -> str:
        """The deterministic reply to one question (no latency)."""
        rng = random.Random(f"{self.seed}:{meta.key}")
        wrong = bool(self._draw(meta, rng) < self.error_rate(meta))
        refuse = wrong and bool(rng.random() < self.effects.refusal_rate)
        template_pick = float(rng.random())
        if refuse:
            return REFUSALS[int(template_pick * len(REFUSALS))]
        label = meta.candidate_label or "that"
        if meta.qtype == WH:
            pool = meta.wrong_labels if wrong else meta.true_labels
            if not pool:
                return REFUSALS[0]
            chosen = pool[rng.randrange(len(pool))]
            template = _WH_TEMPLATES[int(template_pick * len(_WH_TEMPLATES))]
            return template.format(label=chosen)
        expected = meta.expected.strip().lower()
        if expected not in ("yes", "no"):
            raise ValueError(f"yes_no question {meta.key!r} needs expected 'yes' or 'no'")
        says_yes = (expected == "yes") != wrong
        templates = _YES_RIGHT if says_yes else _NO_RIGHT
        return templates[int(template_pick * len(templates))].format(label=label)

    async def complete(self, request: ChatRequest) -> Completion:
        """Answer from the latent knowledge; ``request.meta`` is required."""
        meta = request.meta
        if meta is None:
            raise ValueError("SimulatedClient needs ChatRequest.meta to answer")
        started = time.perf_counter()
        delay = self.latency_s
        if self.latency_fn is not None:
            rng = np.random.default_rng([self.seed, stable_hash(f"latency:{meta.key}")])
            delay = max(float(self.latency_fn(rng)), 0.0)
        if delay > 0:
            await asyncio.sleep(delay)
        text = self.answer(meta)
        prompt_tokens = sum([_words(m.get("content", "")) for m in request.messages])
        return Completion(
            text=text,
            prompt_tokens=prompt_tokens,
            completion_tokens=_words(text),
            latency_s=time.perf_counter() - started,
        )

    async def aclose(self) -> None:
        """Nothing to release."""


def edges_from_rows(rows: Sequence[Sequence[object]]) -> list[Edge]:
    """Coerce ``(edge_id, subject, predicate, object)`` rows (e.g. from SQLite) to edges."""
    return [(int(str(r[0])), str(r[1]), str(r[2]), str(r[3])) for r in rows]
