"""What a KONTEST run asks: sampled KG edges plus every pair along sampled paths of transitive
predicates (Algorithm 1), each with two semantically equivalent Yes/No questions."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from kglens_tui.kg.graph import KGIndex, predicate_index
from kglens_tui.kg.positions import run_edge_positions
from kglens_tui.kg.templates import fill, named, templates_for
from kglens_tui.modes.config import KontestConfig
from kglens_tui.modes.kontest.oracles import path_pairs

MAX_ENUMERATED_PATHS = 100_000
"""Stop enumerating leaf-to-root paths past this many (then sample among those found)."""


@dataclass(frozen=True)
class PlannedRelation:
    """One fact to test, as KG node indexes, with its two paraphrased questions."""

    s: int
    p: int
    o: int
    edge_id: int | None
    origin: str
    question1: str
    question2: str


@dataclass(frozen=True)
class PlannedPath:
    """A chain A0 -> A1 -> ... -> Ak (node indexes) along one transitive predicate."""

    p: int
    nodes: tuple[int, ...]


@dataclass(frozen=True)
class KontestPlan:
    relations: tuple[PlannedRelation, ...]
    paths: tuple[PlannedPath, ...]
    gives_away: int = 0
    """Relations and paths left out because a question would give its answer away
    (`gives_answer_away`): counted in the run's manifest and report."""


def gives_answer_away(kg: KGIndex, s: int, o: int) -> bool:
    """Whether a question about (s, o) names its own answer: the object's label is part of the
    subject's name, as whole words ("Is Pulaski County, Arkansas part of Arkansas?")."""
    inner = _words(kg.labels[o])
    if not inner:
        return False
    outer = _words(kg.labels[s])
    n = len(inner)
    return any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


@lru_cache(maxsize=1 << 16)
def _words(name: str) -> tuple[str, ...]:
    """A name's words, casefolded (kept: a plan asks about the same labels thousands of times)."""
    return tuple(re.findall(r"\w+", name.casefold()))


def paraphrases(kg: KGIndex, s: int, p: int, o: int) -> tuple[str, str]:
    """Two equivalent Yes/No questions from the predicate's templates. With only one Yes/No
    template, the second asks whether the statement template is true."""
    options = _yes_no_templates(kg, p)
    first, second = (_fill(kg, t, s, o) for t in options[:2])
    return first, second


def third_phrasing(kg: KGIndex, s: int, p: int, o: int) -> str:
    """Template 3 (KONTEST Table 5), a phrasing neither oracle nor ensemble weight saw: the
    predicate's third Yes/No template, else its statement asked as "Would you agree that ...?"."""
    options = _yes_no_templates(kg, p)
    if len(options) >= 3:
        return _fill(kg, options[2], s, o)
    return _fill(kg, _statement_question(kg, p, "Would you agree that "), s, o)


def _yes_no_templates(kg: KGIndex, p: int) -> list[str]:
    options = list(kg.pred_templates[p].get("yes_no") or [])
    if not options:
        options = templates_for(kg.pred_labels[p])["yes_no"][:1]
    if len(options) < 2:
        options.append(_statement_question(kg, p, "Is it true that "))
    return options


def _statement_question(kg: KGIndex, p: int, lead: str) -> str:
    label = kg.pred_labels[p]
    statement: str = kg.pred_templates[p].get("statement") or templates_for(label)["statement"]
    if statement.startswith(("The ", "A ", "An ")):
        statement = statement[0].lower() + statement[1:]
    return lead + statement.rstrip(".") + "?"


def _fill(kg: KGIndex, template: str, s: int, o: int) -> str:
    return fill(template, named(kg.labels[s], kg.types[s]), named(kg.labels[o], kg.types[o]))


def questions(kg: KGIndex, s: int, p: int, o: int, template3: bool) -> tuple[str, str]:
    """The relation's question pair: templates 1 and 2, or 1 and 3 in a template-3 run."""
    first, second = paraphrases(kg, s, p, o)
    return (first, third_phrasing(kg, s, p, o)) if template3 else (first, second)


def chains(kg: KGIndex, p: int, limit: int = MAX_ENUMERATED_PATHS) -> list[tuple[int, ...]]:
    """Every maximal path of at least two edges along predicate p, from a node nothing points to
    (a leaf such as a village) to a node that points nowhere (a root such as a country)."""
    mask = kg.p == p
    succ: dict[int, list[int]] = {}
    has_in: set[int] = set()
    for s, o in zip(kg.s[mask].tolist(), kg.o[mask].tolist(), strict=True):
        if s != o:
            succ.setdefault(s, []).append(o)
            has_in.add(o)
    out: list[tuple[int, ...]] = []
    for start in sorted(n for n in succ if n not in has_in):
        stack: list[tuple[int, ...]] = [(start,)]
        while stack and len(out) < limit:
            path = stack.pop()
            nexts = [n for n in succ.get(path[-1], ()) if n not in path]
            if not nexts:
                if len(path) >= 3:
                    out.append(path)
                continue
            stack.extend(path + (n,) for n in sorted(nexts, reverse=True))
    return out


def _edge_lookup(kg: KGIndex, p: int) -> dict[tuple[int, int], int]:
    mask = np.flatnonzero(kg.p == p)
    return {(int(kg.s[i]), int(kg.o[i])): int(kg.edge_ids[i]) for i in mask.tolist()}


def plan_kontest(conn: sqlite3.Connection, kg: KGIndex, config: KontestConfig) -> KontestPlan:
    """The run's relations and paths, drawn with the config's seed. A new run that names no
    transitive predicate walks the ones a bundled KG declares (`with_kg_defaults`), whichever
    command or screen started it; the config, stored after this, says so (`max_paths` 0 walks
    none)."""
    config.transitive = replace(config, kg=kg.name).with_kg_defaults().transitive
    rng = np.random.default_rng([config.seed, 7919])
    positions = run_edge_positions(conn, kg, config.subset, config.predicates)
    if config.relations is not None and len(positions) > config.relations:
        positions = np.sort(rng.choice(positions, size=config.relations, replace=False))
    planned: dict[tuple[int, int, int], PlannedRelation] = {}
    gives_away = 0
    for i in positions.tolist():
        s, p, o = int(kg.s[i]), int(kg.p[i]), int(kg.o[i])
        if gives_answer_away(kg, s, o):
            gives_away += 1
            continue
        planned[(s, p, o)] = PlannedRelation(
            s, p, o, int(kg.edge_ids[i]), "edge", *questions(kg, s, p, o, config.template3)
        )
    paths, left_out = _sample_paths(kg, config.transitive, config.max_paths, rng)
    gives_away += left_out
    lookups = {p: _edge_lookup(kg, p) for p in {path.p for path in paths}}
    for path in paths:
        edges = lookups[path.p]
        for a, c in path_pairs([path.nodes]):
            key = (int(a), path.p, int(c))
            if key not in planned:
                planned[key] = PlannedRelation(
                    key[0],
                    path.p,
                    key[2],
                    edges.get((key[0], key[2])),
                    "path",
                    *questions(kg, key[0], path.p, key[2], config.template3),
                )
    return KontestPlan(tuple(planned.values()), tuple(paths), gives_away)


def _sample_paths(
    kg: KGIndex, transitive: Sequence[str], max_paths: int, rng: np.random.Generator
) -> tuple[list[PlannedPath], int]:
    """Up to `max_paths` paths of the transitive predicates, and how many were left out because
    one of their questions would give its answer away (an ontological test needs every pair)."""
    found: list[PlannedPath] = []
    left_out = 0
    for key in transitive:
        p = predicate_index(kg, key)
        for c in chains(kg, p):
            if any(gives_answer_away(kg, a, b) for a, b in path_pairs([c])):
                left_out += 1
            else:
                found.append(PlannedPath(p, c))
    if len(found) > max_paths:
        keep = np.sort(rng.choice(len(found), size=max_paths, replace=False))
        found = [found[i] for i in keep.tolist()]
    return found, left_out


def transitive_candidates(kg: KGIndex) -> list[tuple[str, int]]:
    """Predicates with at least one path of two or more edges, and how many such paths."""
    out = []
    for p, key in enumerate(kg.pred_keys):
        n = len(chains(kg, p, limit=10_000))
        if n:
            out.append((key, n))
    return out
