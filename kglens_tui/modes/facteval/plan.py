"""What an LLM-facteval run asks (section 2.1, A.2): from each sampled fact a true and a false
statement (TFQ), a multiple-choice question with distractors (MCQ) and a short-answer question
about all objects (SAQ), as fill-in-the-blank or Wh, each with its context variants."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, replace

import numpy as np

from kglens_tui.kg.graph import KGIndex
from kglens_tui.kg.positions import run_edge_positions
from kglens_tui.kg.templates import fill, named, templates_for
from kglens_tui.modes.config import FactevalConfig

MASK = "[MASK]"


@dataclass(frozen=True)
class PlannedQuestion:
    """One question with what scores it and the contexts it is asked with."""

    edge_id: int | None
    s: int
    p: int
    qtype: str
    format: str
    question: str
    truth: str = ""
    """TFQ: 'true' or 'false'."""
    choices: tuple[str, ...] = ()
    answers: tuple[tuple[str, ...], ...] = ()
    """Correct answers as (label, alias, ...); for a TFQ, the statement's object."""
    wrong: tuple[tuple[str, ...], ...] = ()
    """MCQ: the distractors; SAQ: a few wrong answers (a simulated target uses them)."""
    contexts: dict[str, str] = field(default_factory=dict)


def statement(kg: KGIndex, s: int, p: int, obj: str) -> str:
    """The predicate's statement template filled in (``obj`` may be the [MASK] token)."""
    label = kg.pred_labels[p]
    template = kg.pred_templates[p].get("statement") or templates_for(label)["statement"]
    return fill(template, named(kg.labels[s], kg.types[s]), obj)


def wh_question(kg: KGIndex, s: int, p: int) -> str:
    """The predicate's Wh template filled in."""
    template = kg.pred_templates[p].get("wh") or templates_for(kg.pred_labels[p])["wh"]
    return fill(template, named(kg.labels[s], kg.types[s]))


def _distinct_negatives(
    kg: KGIndex, s: int, p: int, like: int, k: int, rng: np.random.Generator
) -> list[int]:
    out: list[int] = []
    for _ in range(4 * k):
        neg = kg.hard_negative(s, p, rng, like=like)
        if neg is None:
            break
        if neg not in out:
            out.append(neg)
        if len(out) == k:
            break
    return out


def _irrelevant(
    kg: KGIndex, pool: np.ndarray, s: int, related: set[int], rng: np.random.Generator
) -> str:
    """A true statement about an unrelated fact: shares no entity with the question."""
    for _ in range(64):
        i = int(pool[int(rng.integers(len(pool)))])
        es, eo = int(kg.s[i]), int(kg.o[i])
        if es != s and es not in related and eo not in related and eo != s:
            return statement(kg, es, int(kg.p[i]), kg.labels[eo])
    return ""


def _contexts(
    kg: KGIndex, s: int, p: int, true_obj: int, wrong_obj: int | None, irrelevant: str
) -> dict[str, str]:
    out = {"none": "", "relevant": statement(kg, s, p, kg.labels[true_obj])}
    if irrelevant:
        out["irrelevant"] = irrelevant
    if wrong_obj is not None:
        out["antifactual"] = statement(kg, s, p, kg.labels[wrong_obj])
    return out


def _questions_for_fact(
    kg: KGIndex,
    i: int,
    config: FactevalConfig,
    pool: np.ndarray,
    seen_pairs: set[tuple[int, int]],
    rng: np.random.Generator,
) -> list[PlannedQuestion]:
    s, p, o = int(kg.s[i]), int(kg.p[i]), int(kg.o[i])
    edge_id = int(kg.edge_ids[i])
    true_nodes = [int(t) for t in kg.true_objects(s, p)]
    related = {o, *true_nodes}
    irrelevant = _irrelevant(kg, pool, s, related, rng)
    out: list[PlannedQuestion] = []
    if "tfq" in config.qtypes:
        neg = kg.hard_negative(s, p, rng, like=o)
        ctx = _contexts(kg, s, p, o, neg, irrelevant)
        out.append(
            PlannedQuestion(
                edge_id,
                s,
                p,
                "tfq",
                "statement",
                statement(kg, s, p, kg.labels[o]),
                "true",
                answers=(kg.names(o),),
                contexts=ctx,
            )
        )
        if neg is not None:
            out.append(
                PlannedQuestion(
                    edge_id,
                    s,
                    p,
                    "tfq",
                    "statement",
                    statement(kg, s, p, kg.labels[neg]),
                    "false",
                    answers=(kg.names(o),),
                    wrong=(kg.names(neg),),
                    contexts=ctx,
                )
            )
    if "mcq" in config.qtypes:
        negatives = _distinct_negatives(kg, s, p, o, config.distractors, rng)
        if negatives:
            order = rng.permutation(len(negatives) + 1).tolist()
            nodes = [o, *negatives]
            choices = tuple(kg.labels[nodes[k]] for k in order)
            ctx = _contexts(kg, s, p, o, negatives[0], irrelevant)
            for fmt in config.formats:
                text = statement(kg, s, p, MASK) if fmt == "fib" else wh_question(kg, s, p)
                out.append(
                    PlannedQuestion(
                        edge_id,
                        s,
                        p,
                        "mcq",
                        fmt,
                        text,
                        choices=choices,
                        answers=(kg.names(o),),
                        wrong=tuple(kg.names(n) for n in negatives),
                        contexts=ctx,
                    )
                )
    if "saq" in config.qtypes and (s, p) not in seen_pairs:
        seen_pairs.add((s, p))
        negatives = _distinct_negatives(kg, s, p, o, 3, rng)
        ctx = _contexts(kg, s, p, o, negatives[0] if negatives else None, irrelevant)
        for fmt in config.formats:
            text = statement(kg, s, p, MASK) if fmt == "fib" else wh_question(kg, s, p)
            out.append(
                PlannedQuestion(
                    edge_id,
                    s,
                    p,
                    "saq",
                    fmt,
                    text,
                    answers=tuple(kg.names(t) for t in true_nodes),
                    wrong=tuple(kg.names(n) for n in negatives),
                    contexts=ctx,
                )
            )
    return out


def plan_facteval(
    conn: sqlite3.Connection, kg: KGIndex, config: FactevalConfig
) -> list[PlannedQuestion]:
    """The run's questions, drawn with the config's seed; contexts not asked for are dropped."""
    rng = np.random.default_rng([config.seed, 104723])
    positions = run_edge_positions(conn, kg, config.subset, config.predicates)
    pool = positions
    if config.facts is not None and len(positions) > config.facts:
        positions = np.sort(rng.choice(positions, size=config.facts, replace=False))
    seen: set[tuple[int, int]] = set()
    out = []
    for i in positions.tolist():
        for q in _questions_for_fact(kg, int(i), config, pool, seen, rng):
            kept = {c: q.contexts[c] for c in config.contexts if c in q.contexts}
            out.append(replace(q, contexts=kept))
    return out
