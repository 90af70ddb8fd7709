"""What a guesser that ignores the question scores on the questions a KONTEST or fact-eval run
actually asked, and the answer-bias figures of those runs.

A constant answer is perfectly consistent (no metamorphic or ontological error); a model saying
CORRECT to every true/false statement scores the share of true ones; naming each relation's most
common object answers many short-answer questions. The reports put these chance levels next to
the model's figures so that a bias is not read as knowledge. Rates, Wilson intervals and the
two-class bias figures (balanced accuracy, kappa, the warning) are `kglens_tui.answers.bias`'s.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from graphlib import CycleError, TopologicalSorter

from kglens_tui.answers.bias import Rate, YesNoBias, bias_from_counts, leaning
from kglens_tui.modes.facteval.scoring import ABSTAINED, CORRECT, INCORRECT, UNPARSEABLE
from kglens_tui.modes.kontest.oracles import non_adjacent_pairs, path_pairs
from kglens_tui.textfmt import counted

COIN = 0.5
"""A random Yes/No guesser's yes-rate."""
MAX_BETWEEN = 14
"""Nodes between a pair's ends above which a non-chain pair's chance is not computed (2^n)."""


def metamorphic_chance(p_yes: float) -> float:
    """Share of inconsistent metamorphic tests when every answer is Yes with probability p_yes,
    independently: 2p(1 - p), i.e. 0 for a constant answer and 1/2 for a coin."""
    return 2 * p_yes * (1 - p_yes)


def coverage_chance(p_yes: float) -> float:
    """Share of relations affirmed by at least one of the two templates: 1 - (1 - p)^2."""
    return 1 - (1 - p_yes) ** 2


def gap_chance(p_yes: float) -> float:
    """Share of relations in the knowledge gap of both templates (affirmed by neither)."""
    return 1 - coverage_chance(p_yes)


@lru_cache(maxsize=256)
def _chain_reach(between: int, p_yes: float) -> float:
    """P(an indirect path a -> ... -> c) when the ``between`` nodes and both ends are a chain with
    every forward pair asked: the number of nodes reached so far is all that matters."""
    miss = 1 - p_yes
    reached = {1: 1.0}  # a itself
    for _ in range(between):
        nxt: dict[int, float] = defaultdict(float)
        for r, mass in reached.items():
            hit = 1 - miss**r
            nxt[r + 1] += mass * hit
            nxt[r] += mass * (1 - hit)
        reached = nxt
    return sum(mass * (1 - miss ** (r - 1)) for r, mass in reached.items())


def _closure(start: Hashable, edges: Mapping[Hashable, set[Hashable]]) -> set[Hashable]:
    seen: set[Hashable] = set()
    todo = [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def reach_probability(
    a: Hashable,
    c: Hashable,
    succ: Mapping[Hashable, set[Hashable]],
    pred: Mapping[Hashable, set[Hashable]],
    p_yes: float,
) -> float | None:
    """P(the guessed Yes answers join a to c by a path of two or more edges), each asked pair
    (u -> v in ``succ``) being affirmed with probability p_yes independently. Exact: a dynamic
    programme over the nodes between a and c in topological order; None on a cycle or when more
    than MAX_BETWEEN nodes lie between without forming one chain."""
    between = (_closure(a, succ) & _closure(c, pred)) - {a, c}
    if not between:
        return 0.0
    try:
        order = list(
            TopologicalSorter({x: pred.get(x, set()) & between for x in between}).static_order()
        )
    except CycleError:
        return None
    chain = all(a in pred.get(x, ()) and c in succ.get(x, ()) for x in order) and all(
        order[i] in pred.get(order[j], ())
        for i in range(len(order))
        for j in range(i + 1, len(order))
    )
    if chain:
        return _chain_reach(len(order), p_yes)
    if len(order) > MAX_BETWEEN:
        return None
    miss = 1 - p_yes
    states: dict[frozenset[Hashable], float] = {frozenset(): 1.0}
    for x in order:
        into = pred.get(x, set())
        nxt: dict[frozenset[Hashable], float] = defaultdict(float)
        for got, mass in states.items():
            hit = 1 - miss ** ((a in into) + len(got & into))
            nxt[got | {x}] += mass * hit
            nxt[got] += mass * (1 - hit)
        states = nxt
    last = pred.get(c, set())
    return sum(mass * (1 - miss ** len(got & last)) for got, mass in states.items())


def ontological_chance(paths: Iterable[Sequence[Hashable]], p_yes: float) -> float | None:
    """The ontological error rate (per test, as `ontological_tests` counts them) of a guesser
    answering Yes with probability p_yes, independently: a non-adjacent pair fails when it gets
    No and the guessed Yes answers join its ends indirectly. The same for either template."""
    paths = [tuple(p) for p in paths]
    succ: dict[Hashable, set[Hashable]] = defaultdict(set)
    pred: dict[Hashable, set[Hashable]] = defaultdict(set)
    for u, v in path_pairs(paths):
        succ[u].add(v)
        pred[v].add(u)
    pairs = non_adjacent_pairs(paths)
    if not pairs:
        return None
    total = 0.0
    for a, c in pairs:
        reach = reach_probability(a, c, succ, pred, p_yes)
        if reach is None:
            return None
        total += (1 - p_yes) * reach
    return total / len(pairs)


@dataclass(frozen=True)
class KontestChance:
    """A KONTEST run's yes-rate and what guessers score on its tests (None: nothing to test)."""

    yes_rate: Rate
    """Replies starting with yes, over all replies starting with yes or no."""
    invalid: int
    """Replies starting with neither (failed requests excluded)."""
    template_kappa: float | None
    """Cohen's kappa between the two templates' atomic answers (0 = chance agreement)."""
    ontological_random: float | None
    ontological_at_rate: float | None

    @property
    def p_yes(self) -> float | None:
        return self.yes_rate.value

    def warning(self) -> str:
        """The answer-bias warning ('' without a strong bias). Every KONTEST question states a
        true fact, so no score can separate knowledge from a constant answer."""
        side = leaning(self.yes_rate)
        rate = self.yes_rate.value
        if side is None or rate is None:  # leaning() is None whenever the rate is
            return ""
        share = rate if side == "yes" else 1 - rate
        constant = (
            "would be just as consistent (no errors) and cover every fact"
            if side == "yes"
            else "would be just as consistent (no errors) and cover nothing"
        )
        return (
            f"answer bias: the model says {side.capitalize()} to {share:.0%} of the "
            f"{counted(self.yes_rate.n, 'question')} it answered; every question states a true fact, so a "
            f"model that always says {side.capitalize()} {constant}: its consistency figures are "
            "explained by the bias, not by knowledge"
        )


def kontest_chance(
    answers: Iterable[str],
    atomic_pairs: Iterable[tuple[str, str]],
    paths: Sequence[Sequence[Hashable]],
) -> KontestChance:
    """Chance figures from every answer ('yes', 'no', 'invalid', 'error'), each relation's
    (template 1, template 2) atomic answers and the paths the ontological oracle tested."""
    counts = Counter(answers)
    yes_rate = Rate(counts["yes"], counts["yes"] + counts["no"])
    agree = Counter((a, b) for a, b in atomic_pairs if a in ("yes", "no") and b in ("yes", "no"))
    p = yes_rate.value
    return KontestChance(
        yes_rate=yes_rate,
        invalid=counts["invalid"],
        # kappa between template 1 ("expected") and template 2 ("given"): one definition of it
        template_kappa=bias_from_counts(agree).kappa,
        ontological_random=ontological_chance(paths, COIN),
        ontological_at_rate=None if p is None else ontological_chance(paths, p),
    )


@dataclass(frozen=True)
class Chance:
    """What one guesser that never abstains scores on a group of questions: its accuracy, which
    is also its precision, recall and F1."""

    guesser: str
    value: float


@dataclass(frozen=True)
class GroupChance:
    """The chance levels of one (question type, format, context) group."""

    qtype: str
    format: str
    context: str
    questions: int
    levels: tuple[Chance, ...]

    @property
    def best(self) -> Chance | None:
        """The best of the levels (what the strongest blind guesser scores)."""
        return max(self.levels, key=lambda c: c.value) if self.levels else None


@dataclass(frozen=True)
class AskedQuestion:
    """What a question's chance levels need to know about it."""

    qtype: str
    format: str
    predicate: Hashable
    truth: str
    choices: int
    answers: tuple[tuple[str, ...], ...]
    constant_right: bool = False
    """Whether its relation's most common true object over the KG's active edges
    (`answers.bias.constant_right`) is a true object of its subject: the blind SAQ guess is right."""


def _levels(qtype: str, asked: Sequence[AskedQuestion]) -> tuple[Chance, ...]:
    n = len(asked)
    if qtype == "tfq":
        true = sum(q.truth == "true" for q in asked)
        return (
            Chance("always CORRECT", true / n),
            Chance("always INCORRECT", (n - true) / n),
            Chance("random CORRECT/INCORRECT", COIN),
        )
    if qtype == "mcq":
        k = sum(len(q.answers) / q.choices for q in asked if q.choices)
        return (Chance("random choice", k / n),)
    if qtype == "saq":
        # the answer is the relation's most common object over the whole KG, never one read off
        # the questions asked (a relation asked once would hand the guesser its answer)
        hits = sum(q.constant_right for q in asked)
        return (Chance("relation's most common answer", hits / n),)
    return ()


def facteval_chance(asked: Iterable[tuple[AskedQuestion, str]]) -> tuple[GroupChance, ...]:
    """Chance levels per (type, format, context) of the questions answered in each context
    (failed requests excluded), and per context over all types: the best level of each type."""
    groups: dict[tuple[str, str, str], list[AskedQuestion]] = defaultdict(list)
    for q, context in asked:
        groups[(q.qtype, q.format, context)].append(q)
    out = [GroupChance(t, f, c, len(qs), _levels(t, qs)) for (t, f, c), qs in groups.items()]
    for context in sorted({g.context for g in out}):
        parts = [
            (g.questions, top.value)
            for g in out
            if g.context == context and (top := g.best) is not None
        ]
        n = sum(questions for questions, _ in parts)
        best = sum(value * questions for questions, value in parts) / n if n else 0.0
        levels = (Chance("best blind guess per question type", best),) if n else ()
        out.append(GroupChance("all", "all", context, n, levels))
    return tuple(sorted(out, key=lambda g: (g.qtype == "all", g.qtype, g.format, g.context)))


_GIVEN = {
    ("true", CORRECT): "yes",
    ("true", INCORRECT): "no",
    ("false", CORRECT): "no",
    ("false", INCORRECT): "yes",
}


def tfq_bias(answers: Iterable[tuple[str, str]]) -> YesNoBias:
    """Bias figures of true/false answers from (truth, category) pairs: 'yes' is CORRECT (the
    statement is true); abstained and unparseable replies are the unparsed ones."""
    counts: Counter[tuple[str, str]] = Counter()
    unparsed = 0
    for truth, category in answers:
        given = _GIVEN.get((truth, category))
        if given is not None:
            counts[("yes" if truth == "true" else "no", given)] += 1
        elif category in (ABSTAINED, UNPARSEABLE):
            unparsed += 1
    return bias_from_counts(counts, unparsed)


TFQ_WORDS = {"yes": "CORRECT", "no": "INCORRECT", "kind": "true/false"}
"""How `YesNoBias.warning` names the answers and questions of true/false statements."""
