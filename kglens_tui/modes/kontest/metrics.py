"""KONTEST's Tables 3 and 4 for one run, from its stored or in-memory answers, and the inputs of
the weighted ensemble (Table 5) from several runs."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kglens_tui.answers.bias import Rate
from kglens_tui.modes.chance import COIN, KontestChance, kontest_chance, metamorphic_chance
from kglens_tui.modes.config import KONTEST
from kglens_tui.modes.kontest.oracles import (
    CONSISTENT,
    ERROR,
    INCONSISTENT,
    METAMORPHIC_ORACLES,
    ONTOLOGICAL,
    Coverage,
    OracleCounts,
    RelationAnswers,
    count_outcomes,
    coverage,
    merge_counts,
    metamorphic_errors,
    metamorphic_tests,
    ontological_tests,
    path_pairs,
)
from kglens_tui.modes.store import (
    KontestQueryRow,
    PathRow,
    RelationRow,
    load_kontest_queries,
    load_relations,
)
from kglens_tui.runs.record import load_run

CONVERSATIONS = {
    "atomic1": (1,),
    "atomic2": (2,),
    "seq12": (1, 2),
    "seq21": (2, 1),
}
"""Each conversation's questions, by template, in the order asked."""
ATOMIC_TURNS = {1: ("atomic1", 0), 2: ("atomic2", 0)}
"""Where each template's atomic answer is: the answers the ontological oracle reads."""
METAMORPHIC = "metamorphic"
ALL = "all"
MAX_FINDINGS = 50


def relation_answers(rows: Mapping[tuple[str, int], str]) -> RelationAnswers | None:
    """The six answers of one relation, or None while some are missing."""
    keys = [(c, t) for c, templates in CONVERSATIONS.items() for t in range(len(templates))]
    if any(k not in rows for k in keys):
        return None
    return RelationAnswers(
        rows[("atomic1", 0)],
        rows[("atomic2", 0)],
        (rows[("seq12", 0)], rows[("seq12", 1)]),
        (rows[("seq21", 0)], rows[("seq21", 1)]),
    )


def relation_answered(rows: Mapping[tuple[str, int], str]) -> bool:
    """Whether every request about a relation was answered (none missing, none failed): a done
    unit. A relation with a failed request is asked again on resume."""
    return relation_answers(rows) is not None and ERROR not in rows.values()


@dataclass(frozen=True)
class PredicateConsistency:
    """Metamorphic errors and knowledge gap of one predicate's relations."""

    predicate: str
    relations: int
    valid: int
    inconsistent: int
    coverage: Coverage
    """Table 4 over this predicate's relations (the gap with its own n)."""

    @property
    def error_rate(self) -> float | None:
        return self.inconsistent / self.valid if self.valid else None


@dataclass(frozen=True)
class Finding:
    """One inconsistency, readable on its own."""

    relation: int
    oracle: str
    fact: str
    detail: str


@dataclass(frozen=True)
class KontestMetrics:
    """Tables 3 and 4 for one run, over the relations answered so far."""

    relations: int
    relations_done: int
    """Relations whose every request was answered (`relation_answered`): the units done."""
    relations_failed: int
    """Relations with all their replies in but a failed request among them (asked again on
    resume); the oracles count their other tests."""
    paths: int
    paths_done: int
    oracles: tuple[OracleCounts, ...]
    """atomic, sequential-intra, sequential-inter, metamorphic (all three), ontological, all."""
    coverage: Coverage
    per_predicate: tuple[PredicateConsistency, ...]
    findings: tuple[Finding, ...]
    ontological_pairs: Rate
    """Second view of the ontological oracle: non-adjacent pairs inconsistent under at least one
    template, over the pairs with a valid test under at least one."""
    chance: KontestChance

    def oracle(self, name: str) -> OracleCounts:
        return next(o for o in self.oracles if o.oracle == name)

    def coin_error_rate(self, name: str, at_yes_rate: bool = False) -> float | None:
        """The error rate of a coin (Yes half the time, whatever the question; ``at_yes_rate``:
        Yes as often as this model says it) on an oracle's tests; for 'all', weighted by the
        valid tests of each kind. None at its yes-rate before any yes or no."""
        p = self.chance.p_yes if at_yes_rate else COIN
        if p is None:
            return None
        meta = metamorphic_chance(p)
        onto = self.chance.ontological_at_rate if at_yes_rate else self.chance.ontological_random
        if name == ONTOLOGICAL:
            return onto
        if name != ALL:
            return meta
        n_meta, n_onto = self.oracle(METAMORPHIC).valid, self.oracle(ONTOLOGICAL).valid
        if n_meta + n_onto == 0 or (n_onto and onto is None):
            return None
        return (n_meta * meta + n_onto * (onto or 0.0)) / (n_meta + n_onto)


def _fact(names: Mapping[str, Mapping[int, str]], r: RelationRow) -> str:
    ent, pred = names["entity"], names["predicate"]
    return f"{ent.get(r.subject_id, '?')} · {pred.get(r.predicate_id, '?')} · {ent.get(r.object_id, '?')}"


def kontest_metrics(
    relations: Sequence[RelationRow],
    paths: Sequence[PathRow],
    answers: Mapping[int, Mapping[tuple[str, int], str]],
    names: Mapping[str, Mapping[int, str]],
) -> KontestMetrics:
    """Every oracle over the complete relations; ``answers[relation][(conversation, turn)]``.
    ``names`` maps 'entity' and 'predicate' database ids to labels."""
    outcomes: dict[str, list[str]] = defaultdict(list)
    findings: list[Finding] = []
    per_pred: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    pred_pairs: dict[int, list[tuple[str, str]]] = defaultdict(list)
    atomic_pairs = []
    done = failed = 0
    for r in relations:
        got = answers.get(r.idx, {})
        ra = relation_answers(got)
        if ra is None:
            continue
        if relation_answered(got):
            done += 1
        else:
            failed += 1
        tests = metamorphic_tests(ra)
        for oracle, outcome in tests:
            outcomes[oracle].append(outcome)
        bad = [o for o, outcome in tests if outcome == INCONSISTENT]
        if bad:
            findings.append(
                Finding(
                    r.idx,
                    ", ".join(dict.fromkeys(bad)),
                    _fact(names, r),
                    f"atomic {ra.atomic1}/{ra.atomic2} · 1→2 {'/'.join(ra.seq12)} · "
                    f"2→1 {'/'.join(ra.seq21)}",
                )
            )
        atomic_pairs.append((ra.atomic1, ra.atomic2))
        pred_pairs[r.predicate_id].append((ra.atomic1, ra.atomic2))
        row = per_pred[r.predicate_id]
        row[0] += 1
        row[1] += sum(o in (CONSISTENT, INCONSISTENT) for _, o in tests)
        row[2] += len(bad)
    onto, onto_pairs, complete = _ontological(relations, paths, answers, names, findings)
    counts = [count_outcomes(o, outcomes[o]) for o in METAMORPHIC_ORACLES]
    meta = merge_counts(METAMORPHIC, counts)
    onto_counts = count_outcomes(ONTOLOGICAL, onto)
    pred_names = names["predicate"]
    return KontestMetrics(
        relations=len(relations),
        relations_done=done,
        relations_failed=failed,
        paths=len(paths),
        paths_done=len(complete),
        oracles=(*counts, meta, onto_counts, merge_counts(ALL, [meta, onto_counts])),
        coverage=coverage(atomic_pairs),
        per_predicate=tuple(
            sorted(
                (
                    PredicateConsistency(
                        pred_names.get(p, str(p)), row[0], row[1], row[2], coverage(pred_pairs[p])
                    )
                    for p, row in per_pred.items()
                ),
                key=lambda x: (-(x.error_rate or 0.0), x.predicate),
            )
        ),
        findings=tuple(findings[-MAX_FINDINGS:]),
        ontological_pairs=onto_pairs,
        chance=kontest_chance(
            (a for r in relations for a in answers.get(r.idx, {}).values()),
            atomic_pairs,
            [tuple((p, n) for n in nodes) for p, nodes in complete],
        ),
    )


def _ontological(
    relations: Sequence[RelationRow],
    paths: Sequence[PathRow],
    answers: Mapping[int, Mapping[tuple[str, int], str]],
    names: Mapping[str, Mapping[int, str]],
    findings: list[Finding],
) -> tuple[list[str], Rate, list[tuple[int, tuple[int, ...]]]]:
    """The ontological oracle as KONTEST counts it (section 3.2 "Ontological Oracle" and
    Algorithm 2; Table 1's last row; section 5 RQ1 / Table 3, "8.9% = 133/1497").

    For each template, the model's graph gets an edge A -> B when the template's atomic question
    about (A, B) was answered yes, for every pair along the paths; each pair (A_i, A_j) of a path
    with j > i + 1 (non-adjacent, so with a node between) is then one test, an error when it got
    no while the graph joins A_i to A_j indirectly (Table 1: yes to Q3 and Q4 but no to Q2). The
    error rate is inconsistent tests over valid tests, i.e. over non-adjacent pairs x 2 templates,
    not over every queried pair: an adjacent pair can never fail, and counting it would dilute
    the rate. (Table 3's music rows fit this: 3-node paths, 96 ontological executions per model
    = 48 non-adjacent pairs x 2 templates.) Paths whose pairs lack an atomic answer are skipped.

    Returns every test's outcome, the per-pair view (see `KontestMetrics.ontological_pairs`) and
    the complete paths as (predicate, nodes)."""
    by_key = {(r.predicate_id, r.subject_id, r.object_id): r for r in relations}
    turns = ATOMIC_TURNS.values()
    outcomes: list[str] = []
    complete: list[tuple[int, tuple[int, ...]]] = []
    by_pred: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for path in paths:
        rels = [by_key.get((path.predicate_id, a, c)) for a, c in path_pairs([path.nodes])]
        if all(r is not None and all(t in answers.get(r.idx, {}) for t in turns) for r in rels):
            by_pred[path.predicate_id].append(path.nodes)
            complete.append((path.predicate_id, path.nodes))
    ent = names["entity"]
    per_pair: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    for p, chosen in by_pred.items():
        for template, turn in ATOMIC_TURNS.items():
            pair_answers = {
                (r.subject_id, r.object_id): answers[r.idx][turn]
                for r in relations
                if r.predicate_id == p and turn in answers.get(r.idx, {})
            }
            for test in ontological_tests(chosen, pair_answers):
                outcomes.append(test.outcome)
                per_pair[(p, test.source, test.target)].append(test.outcome)
                if test.outcome == INCONSISTENT:
                    r = by_key[(p, test.source, test.target)]
                    chain = " → ".join(ent.get(int(n), "?") for n in test.via)
                    findings.append(
                        Finding(
                            r.idx,
                            ONTOLOGICAL,
                            _fact(names, r),
                            f"template {template}: no, though yes along {chain}",
                        )
                    )
    valid = [o for o in per_pair.values() if CONSISTENT in o or INCONSISTENT in o]
    pairs = Rate(sum(INCONSISTENT in o for o in valid), len(valid))
    return outcomes, pairs, complete


def answers_by_relation(rows: Iterable[KontestQueryRow]) -> dict[int, dict[tuple[str, int], str]]:
    out: dict[int, dict[tuple[str, int], str]] = defaultdict(dict)
    for q in rows:
        out[q.relation][(q.conversation, q.turn)] = q.answer
    return dict(out)


RelationKey = tuple[str, str, str]
"""(subject key, predicate key, object key): the same relation in different runs."""


def answered_relations(
    conn: sqlite3.Connection, run_ids: Sequence[int]
) -> list[list[tuple[RelationKey, RelationAnswers]]]:
    """Per run, each relation with its answers (those whose requests were all answered,
    `relation_answered`), keyed by entity and predicate keys. The runs must probe the same KG."""
    for run_id in run_ids:
        load_run(conn, run_id, KONTEST)
    kgs = {
        r[0]
        for r in conn.execute(
            f"SELECT kg_id FROM run WHERE id IN ({','.join('?' * len(run_ids))})", list(run_ids)
        )
    }
    if len(kgs) != 1:
        raise ValueError("an ensemble needs KONTEST runs on one and the same KG")
    (kg_id,) = kgs
    keys = dict(conn.execute("SELECT id, key FROM entity WHERE kg_id = ?", (kg_id,)))
    preds = dict(conn.execute("SELECT id, key FROM predicate WHERE kg_id = ?", (kg_id,)))
    runs = []
    for run_id in run_ids:
        by_rel = answers_by_relation(load_kontest_queries(conn, run_id))
        answered = []
        for r in load_relations(conn, run_id):
            got = by_rel.get(r.idx, {})
            ra = relation_answers(got)
            if ra is not None and relation_answered(got):
                key = (keys[r.subject_id], preds[r.predicate_id], keys[r.object_id])
                answered.append((key, ra))
        runs.append(answered)
    return runs


def ensemble_inputs(
    conn: sqlite3.Connection, run_ids: Sequence[int]
) -> tuple[list[dict[RelationKey, dict[int, str]]], list[dict[RelationKey, int]]]:
    """Each run's atomic answers per relation and template, and its metamorphic error count per
    relation, for `weighted_ensemble`. The runs must probe the same KG."""
    runs = answered_relations(conn, run_ids)
    answers = [{key: {1: ra.atomic1, 2: ra.atomic2} for key, ra in run} for run in runs]
    errors = [{key: metamorphic_errors(ra) for key, ra in run} for run in runs]
    return answers, errors
