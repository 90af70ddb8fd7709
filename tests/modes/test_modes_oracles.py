"""KONTEST's oracles, coverage and ensemble as pure functions on hand-made answers."""

from __future__ import annotations

import pytest

from kglens_tui.modes.kontest.ensemble import EnsembleResult, TemplateGap, weighted_ensemble
from kglens_tui.modes.kontest.oracles import (
    ATOMIC,
    CONSISTENT,
    ERROR,
    INCONSISTENT,
    INVALID,
    SEQ_INTER,
    SEQ_INTRA,
    RelationAnswers,
    compare,
    coverage,
    metamorphic_errors,
    metamorphic_tests,
    non_adjacent_pairs,
    ontological_tests,
    path_pairs,
)

Y, N = "yes", "no"


def test_compare_never_blames_the_model_for_an_api_failure() -> None:
    assert compare(Y, Y) == CONSISTENT
    assert compare(Y, N) == INCONSISTENT
    assert compare(Y, INVALID) == INVALID
    assert compare(N, ERROR) == ERROR
    assert compare(INVALID, ERROR) == ERROR


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        # all agree
        (RelationAnswers(Y, Y, (Y, Y), (Y, Y)), [CONSISTENT] * 5),
        # Q1 != Q2 atomically; in context the model repeats its first answer
        (
            RelationAnswers(Y, N, (Y, Y), (N, N)),
            [INCONSISTENT, CONSISTENT, CONSISTENT, INCONSISTENT, INCONSISTENT],
        ),
        # only template 2 asked after template 1 flips: intra (Q6) and inter (Q2 vs Q6b)
        (
            RelationAnswers(Y, Y, (Y, N), (Y, Y)),
            [CONSISTENT, INCONSISTENT, CONSISTENT, CONSISTENT, INCONSISTENT],
        ),
        # template 1 asked after template 2 flips: intra (Q5) and inter (Q1 vs Q5b)
        (
            RelationAnswers(N, N, (N, N), (N, Y)),
            [CONSISTENT, CONSISTENT, INCONSISTENT, INCONSISTENT, CONSISTENT],
        ),
        # an invalid reply and a failed request
        (
            RelationAnswers(Y, ERROR, (Y, INVALID), (ERROR, ERROR)),
            [ERROR, INVALID, ERROR, ERROR, ERROR],
        ),
    ],
)
def test_metamorphic_oracle_table_1(answers: RelationAnswers, expected: list[str]) -> None:
    tests = metamorphic_tests(answers)
    assert [o for o, _ in tests] == [ATOMIC, SEQ_INTRA, SEQ_INTRA, SEQ_INTER, SEQ_INTER]
    assert [outcome for _, outcome in tests] == expected
    assert metamorphic_errors(answers) == expected.count(INCONSISTENT)


def test_path_pairs_are_every_forward_pair_once() -> None:
    pairs = path_pairs([("K", "U", "I"), ("D", "U", "I")])
    assert pairs == [("K", "U"), ("K", "I"), ("U", "I"), ("D", "U"), ("D", "I")]


def test_ontological_oracle_finds_exactly_the_planted_transitivity_violations() -> None:
    paths = [("K", "U", "I"), ("D", "U", "I"), ("a", "b", "c", "d"), ("x", "y", "z")]
    answers = {
        ("K", "U"): Y,
        ("U", "I"): Y,
        ("K", "I"): N,  # planted: yes, yes, but no
        ("D", "U"): N,
        ("D", "I"): N,  # no indirect path: consistent
        ("a", "b"): Y,
        ("b", "c"): Y,
        ("c", "d"): Y,
        ("a", "c"): Y,
        ("b", "d"): Y,
        ("a", "d"): N,  # planted: a -> b -> d (or a -> c -> d)
        ("x", "y"): ERROR,
        ("y", "z"): Y,
        ("x", "z"): N,  # would be an error if x -> y were yes: unknown, never inconsistent
    }
    tests = {(t.source, t.target): t for t in ontological_tests(paths, answers)}
    inconsistent = {k for k, t in tests.items() if t.outcome == INCONSISTENT}
    assert inconsistent == {("K", "I"), ("a", "d")}
    assert tests[("K", "I")].via == ("K", "U", "I")
    assert tests[("a", "d")].via[0] == "a" and tests[("a", "d")].via[-1] == "d"
    assert tests[("D", "I")].outcome == CONSISTENT
    assert tests[("x", "z")].outcome == ERROR
    # one test per non-adjacent pair: adjacent pairs such as (x, y) only build the graph
    assert set(tests) == {("K", "I"), ("D", "I"), ("a", "c"), ("b", "d"), ("a", "d"), ("x", "z")}


def test_an_invalid_answer_leaves_no_edge_and_is_counted_invalid() -> None:
    tests = ontological_tests(
        [("A", "B", "C")], {("A", "B"): INVALID, ("B", "C"): Y, ("A", "C"): N}
    )
    assert {(t.source, t.target): t.outcome for t in tests} == {("A", "C"): CONSISTENT}
    tests = ontological_tests(
        [("A", "B", "C")], {("A", "B"): Y, ("B", "C"): Y, ("A", "C"): INVALID}
    )
    assert [(t.source, t.target, t.outcome) for t in tests] == [("A", "C", INVALID)]


def test_non_adjacent_pairs_are_the_ontological_tests() -> None:
    # a path of k nodes has (k - 1)(k - 2) / 2 non-adjacent pairs; shared ones count once
    assert non_adjacent_pairs([("a", "b", "c", "d")]) == [("a", "c"), ("a", "d"), ("b", "d")]
    assert non_adjacent_pairs([("K", "U", "I"), ("D", "U", "I"), ("U", "I")]) == [
        ("K", "I"),
        ("D", "I"),
    ]


def test_coverage_reproduces_table_4_falcon_places() -> None:
    pairs = [(N, N)] * 9 + [(N, Y)] * 3 + [(Y, N)] * 84 + [(Y, Y)] * 198
    c = coverage(pairs)
    assert (c.relations, c.gap1, c.gap2, c.gap_both, c.covered) == (294, 12, 93, 9, 285)
    assert c.coverage_rate.value == pytest.approx(0.969, abs=1e-3)


def test_coverage_leaves_failed_requests_out() -> None:
    c = coverage([(ERROR, Y), (N, INVALID), (Y, Y)])
    assert (c.known1, c.gap1, c.known2, c.gap2, c.known_both, c.gap_both) == (2, 1, 3, 1, 2, 1)
    assert c.covered == 1


def _models():
    """Three models, four relations, two templates (worked by hand in the test below)."""
    answers = [
        {"r1": {1: Y, 2: Y}, "r2": {1: N, 2: Y}, "r3": {1: N, 2: N}, "r4": {1: Y, 2: Y}},
        {"r1": {1: N, 2: Y}, "r2": {1: Y, 2: N}, "r3": {1: N, 2: Y}, "r4": {1: Y, 2: Y}},
        {"r1": {1: N, 2: N}, "r2": {1: Y, 2: N}, "r3": {1: Y, 2: N}, "r4": {1: Y, 2: N}},
    ]
    errors = [
        {"r1": 0, "r2": 1, "r3": 0, "r4": 0},  # score 19
        {"r1": 2, "r2": 2, "r3": 3, "r4": 3},  # score 10
        {"r1": 5, "r2": 5, "r3": 5, "r4": 4},  # score 1
    ]
    return answers, errors


def test_weighted_ensemble_against_majority_vote_by_hand() -> None:
    answers, errors = _models()
    result = weighted_ensemble(answers, errors)
    assert result.weights[0] == pytest.approx((19 / 30, 10 / 30, 1 / 30))
    t1, t2 = result.per_template
    # template 1: weighted yes-share r1 .633, r2 .367, r3 .033, r4 1 -> gap r2, r3
    #             votes r1 1, r2 2, r3 1, r4 3 -> gap r1, r3; models miss 2, 2, 1
    assert (t1.weighted, t1.majority, t1.models_mean) == (2, 2, pytest.approx(5 / 3))
    # template 2: r1 .967, r2 .633, r3 .333, r4 .967 -> gap r3; votes 2, 1, 1, 2 -> gap r2, r3;
    #             models miss 1, 1, 4
    assert (t2.weighted, t2.majority, t2.models_mean) == (1, 2, pytest.approx(2.0))
    assert (result.weighted, result.majority) == (3, 4)
    assert result.improvement(result.weighted) == pytest.approx(2 / 11)
    assert result.improvement(result.majority) == pytest.approx(-1 / 11)


def test_ensemble_threshold_is_strictly_above_one_half() -> None:
    answers = [{"r": {1: Y}}, {"r": {1: N}}]
    errors = [{"r": 1}, {"r": 1}]
    result = weighted_ensemble(answers, errors, templates=(1,))
    assert result.weights[0] == pytest.approx((0.5, 0.5))
    assert (result.per_template[0].weighted, result.per_template[0].majority) == (1, 1)


def test_ensemble_leaves_out_relations_with_invalid_or_failed_answers() -> None:
    answers, errors = _models()
    answers[1]["r5"] = {1: Y, 2: Y}
    answers[0]["r2"] = {1: INVALID, 2: Y}
    for a in (answers[0], answers[2]):
        a["r5"] = {1: ERROR, 2: Y}
    for e in errors:
        e["r5"] = 0
    result = weighted_ensemble(answers, errors)
    assert (result.relations, result.excluded) == (3, 2)


def test_cross_validation_tests_every_relation_once() -> None:
    answers, errors = _models()
    single = weighted_ensemble(answers, errors)
    folded = weighted_ensemble(answers, errors, folds=2, seed=3)
    assert len(folded.weights) == 2
    assert folded.models_mean == pytest.approx(single.models_mean)
    for weights in folded.weights:
        assert sum(weights) == pytest.approx(1.0)


def test_improvement_matches_the_papers_table_5_places_row() -> None:
    result = EnsembleResult(
        relations=224,
        excluded=0,
        per_template=(
            TemplateGap(1, 28, 38, 38.25),
            TemplateGap(2, 49, 77, 65.75),
            TemplateGap(3, 30, 49, 41.5),
        ),
        weights=(),
    )
    assert (result.weighted, result.majority, result.models_mean) == (107, 164, 145.5)
    assert result.improvement(result.weighted) == pytest.approx(0.2646, abs=1e-4)
    assert result.improvement(result.majority) == pytest.approx(-0.1271, abs=1e-4)


def test_an_ensemble_needs_two_models() -> None:
    answers, errors = _models()
    with pytest.raises(ValueError, match="two models"):
        weighted_ensemble(answers[:1], errors[:1])
