"""KONTEST's test oracles (Table 1, Algorithm 2) and knowledge coverage (Table 4), as pure
functions over answers.

An answer is 'yes', 'no', 'invalid' (the reply does not start with yes or no) or 'error' (the
request failed). A test with an API error is never counted as consistent or inconsistent.

The four conversations per relation follow Table 1: Q1 / Q2 are template 1 / 2 asked atomically;
Q6 asks template 1 then 2 in one conversation (so Q6a has the text of Q1) and Q5 asks template 2
then 1 (so Q5b has the text of Q1). Here they are called atomic1, atomic2, seq12 and seq21.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from kglens_tui.answers.bias import Rate

YES, NO, INVALID, ERROR = "yes", "no", "invalid", "error"
CONSISTENT, INCONSISTENT = "consistent", "inconsistent"
ATOMIC, SEQ_INTRA, SEQ_INTER, ONTOLOGICAL = (
    "atomic",
    "sequential-intra",
    "sequential-inter",
    "ontological",
)
METAMORPHIC_ORACLES = (ATOMIC, SEQ_INTRA, SEQ_INTER)
ORACLES = (*METAMORPHIC_ORACLES, ONTOLOGICAL)
METAMORPHIC_TESTS = 5
"""Tests per relation: 1 atomic, 2 sequential-intra, 2 sequential-inter (the ensemble's 5)."""

N = TypeVar("N", bound=Hashable)
"""A path's node (entity ids or names)."""


@dataclass(frozen=True)
class RelationAnswers:
    """The six answers about one relation: two atomic, two per sequential conversation."""

    atomic1: str
    atomic2: str
    seq12: tuple[str, str]
    seq21: tuple[str, str]


def compare(a: str, b: str) -> str:
    """The outcome of one metamorphic test: the two answers must agree."""
    if ERROR in (a, b):
        return ERROR
    if INVALID in (a, b):
        return INVALID
    return CONSISTENT if a == b else INCONSISTENT


def metamorphic_tests(r: RelationAnswers) -> list[tuple[str, str]]:
    """The five (oracle, outcome) pairs of Table 1 for one relation."""
    return [
        (ATOMIC, compare(r.atomic1, r.atomic2)),
        (SEQ_INTRA, compare(r.seq12[0], r.seq12[1])),
        (SEQ_INTRA, compare(r.seq21[0], r.seq21[1])),
        (SEQ_INTER, compare(r.atomic1, r.seq21[1])),
        (SEQ_INTER, compare(r.atomic2, r.seq12[1])),
    ]


def metamorphic_errors(r: RelationAnswers) -> int:
    """How many of the five metamorphic tests found an inconsistency (0 to 5)."""
    return sum(outcome == INCONSISTENT for _, outcome in metamorphic_tests(r))


@dataclass(frozen=True)
class OntologicalTest(Generic[N]):
    """One pair (a, c) of a path checked by Algorithm 2."""

    source: N
    target: N
    outcome: str
    via: tuple[N, ...] = ()
    """The indirect path the model affirmed (for an inconsistency)."""


def path_pairs(paths: Iterable[Sequence[N]]) -> list[tuple[N, N]]:
    """Every ordered pair (A_i, A_j), i < j, of every path (Algorithm 1), each once."""
    seen: dict[tuple[N, N], None] = {}
    for path in paths:
        for i in range(len(path)):
            for j in range(i + 1, len(path)):
                if path[i] != path[j]:
                    seen[(path[i], path[j])] = None
    return list(seen)


def non_adjacent_pairs(paths: Iterable[Sequence[N]]) -> list[tuple[N, N]]:
    """The pairs (A_i, A_j), j > i + 1, of some path: those an ontological test checks, each once.

    Only these can be ontological errors: an adjacent pair has no node between its ends on a path,
    so the model's graph (built from the queried forward pairs) has no indirect path for it.
    """
    seen: dict[tuple[N, N], None] = {}
    for path in paths:
        for i in range(len(path)):
            for j in range(i + 2, len(path)):
                if path[i] != path[j]:
                    seen[(path[i], path[j])] = None
    return list(seen)


def _indirect_path(edges: Mapping[N, set[N]], source: N, target: N) -> tuple[N, ...] | None:
    """A path source -> ... -> target of at least two edges (breadth first), or None."""
    parents: dict[N, N] = {}
    frontier = [n for n in edges.get(source, ()) if n != target]
    for n in frontier:
        parents[n] = source
    while frontier:
        following = []
        for node in frontier:
            for nxt in edges.get(node, ()):
                if nxt == target:
                    hops = [node]
                    while parents[hops[-1]] != source:
                        hops.append(parents[hops[-1]])
                    return (source, *reversed(hops), target)
                if nxt not in parents and nxt != source:
                    parents[nxt] = node
                    following.append(nxt)
        frontier = following
    return None


def ontological_tests(
    paths: Iterable[Sequence[N]], answers: Mapping[tuple[N, N], str]
) -> list[OntologicalTest[N]]:
    """Algorithm 2 over the queried pairs of the paths, one test per non-adjacent pair.

    The model's graph has an edge a -> b when it answered yes about (a, b) (every queried pair
    along the paths). A non-adjacent pair (a, c) without a direct edge but with an indirect path
    is an ontological error (KONTEST section 3.2, Table 1: yes to Q3 and Q4 but not to Q2). A pair
    answered 'no' that an indirect path would reach if failed requests had been answered yes is an
    'error' (unknown), not consistent. Adjacent pairs only build the graph: they can never fail
    the test, so they are not tests (`non_adjacent_pairs`).
    """
    paths = [tuple(p) for p in paths]
    pairs = path_pairs(paths)
    affirmed: dict[N, set[N]] = {}
    possible: dict[N, set[N]] = {}
    for a, b in pairs:
        answer = answers.get((a, b), ERROR)
        if answer == YES:
            affirmed.setdefault(a, set()).add(b)
        if answer in (YES, ERROR):
            possible.setdefault(a, set()).add(b)
    out: list[OntologicalTest[N]] = []
    for a, c in non_adjacent_pairs(paths):
        answer = answers.get((a, c), ERROR)
        if answer in (ERROR, INVALID):
            out.append(OntologicalTest(a, c, answer))
        elif answer == YES:
            out.append(OntologicalTest(a, c, CONSISTENT))
        elif (via := _indirect_path(affirmed, a, c)) is not None:
            out.append(OntologicalTest(a, c, INCONSISTENT, via))
        elif _indirect_path(possible, a, c) is not None:
            out.append(OntologicalTest(a, c, ERROR))
        else:
            out.append(OntologicalTest(a, c, CONSISTENT))
    return out


@dataclass(frozen=True)
class OracleCounts:
    """Table 3 for one oracle: tests by outcome."""

    oracle: str
    consistent: int = 0
    inconsistent: int = 0
    invalid: int = 0
    errors: int = 0

    @property
    def valid(self) -> int:
        """Executions whose replies all started with yes or no."""
        return self.consistent + self.inconsistent

    @property
    def executed(self) -> int:
        """Executions the model answered (API failures excluded)."""
        return self.valid + self.invalid

    @property
    def valid_rate(self) -> float | None:
        return self.valid / self.executed if self.executed else None

    @property
    def error_rate(self) -> float | None:
        """Inconsistencies over valid executions."""
        return self.inconsistent / self.valid if self.valid else None


def count_outcomes(oracle: str, outcomes: Iterable[str]) -> OracleCounts:
    """Tally outcomes into an OracleCounts."""
    c = Counter(outcomes)
    return OracleCounts(oracle, c[CONSISTENT], c[INCONSISTENT], c[INVALID], c[ERROR])


def merge_counts(oracle: str, parts: Iterable[OracleCounts]) -> OracleCounts:
    """Sum several oracles' counts under one name (e.g. all metamorphic types)."""
    items = list(parts)
    return OracleCounts(
        oracle,
        sum(p.consistent for p in items),
        sum(p.inconsistent for p in items),
        sum(p.invalid for p in items),
        sum(p.errors for p in items),
    )


@dataclass(frozen=True)
class Coverage:
    """Table 4: knowledge gap per template and for both, and the overall coverage.

    A relation is in a template's gap when the model did not answer yes to it atomically (no or
    invalid). Relations with a failed request for a template are left out of that figure.
    """

    relations: int
    gap1: int
    known1: int
    gap2: int
    known2: int
    gap_both: int
    known_both: int

    @property
    def covered(self) -> int:
        """Relations the model affirmed with at least one template."""
        return self.known_both - self.gap_both

    @property
    def gap1_rate(self) -> Rate:
        """Template 1's gap over the relations its atomic request was answered for."""
        return Rate(self.gap1, self.known1)

    @property
    def gap2_rate(self) -> Rate:
        """Template 2's gap over the relations its atomic request was answered for."""
        return Rate(self.gap2, self.known2)

    @property
    def gap_both_rate(self) -> Rate:
        """The gap of both templates over the relations both atomic requests were answered for
        (the one definition every screen and report shows)."""
        return Rate(self.gap_both, self.known_both)

    @property
    def coverage_rate(self) -> Rate:
        """Relations affirmed by at least one template, over the same n as `gap_both_rate`."""
        return Rate(self.covered, self.known_both)

    @property
    def unknown_both(self) -> int:
        """Relations left out of `gap_both_rate`: an atomic request failed."""
        return self.relations - self.known_both


def coverage(relations: Iterable[tuple[str, str]]) -> Coverage:
    """Coverage from each relation's (template 1, template 2) atomic answers."""
    n = gap1 = known1 = gap2 = known2 = both = known_both = 0
    for a1, a2 in relations:
        n += 1
        miss1, miss2 = a1 != YES, a2 != YES
        if a1 != ERROR:
            known1 += 1
            gap1 += miss1
        if a2 != ERROR:
            known2 += 1
            gap2 += miss2
        if ERROR not in (a1, a2):
            known_both += 1
            both += miss1 and miss2
    return Coverage(n, gap1, known1, gap2, known2, both, known_both)
