"""What the verifier tests share: a small table of capitals and the verdict of a reply to "What
is the capital of Australia?" against it; the verdict a run gives a reply on a bundled KG."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

import pytest

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import Checked, check_wh
from kglens_tui.bench.verifier_bench import Case, Rivals, matcher_verdict
from kglens_tui.core.question_type import WH
from kglens_tui.core.verdict import Verdict

CAPITALS = NameTable([("Canberra", 1), ("Sydney", 2), ("Melbourne", 3), ("Wellington", 4)])
CAPITAL = "What is the capital of Australia?"


def capital_verdict(reply: str) -> Verdict:
    """The verdict of ``reply`` to `CAPITAL`, Canberra true, the other `CAPITALS` rivals."""
    return check_wh(reply, [["Canberra"]], CAPITALS, ["Australia"], question=CAPITAL).verdict


def bundled_verdict(
    rivals: Rivals,
    reply: str,
    question: str,
    answers: tuple[tuple[str, ...], ...],
    *,
    kg: str = "country",
    predicate: str = "capital",
    object_type: str = "city",
) -> Verdict:
    """The verdict a run gives ``reply`` to ``question`` of the bundled ``kg`` (``rivals``:
    `Rivals` of the bundled KGs)."""
    case = Case(
        id=question,  # the rivals find a question's subject once per id
        source="hand-written for tests",
        kg=kg,
        object_type=object_type,
        qtype=WH,
        question=question,
        expected="",
        answers=answers,
        reply=reply,
        label="",
        hedged=False,
        predicate=predicate,
    )
    return matcher_verdict(case, rivals).verdict


CASE_TEMPLATE = Case(
    id="",
    source="hand-written for tests",
    kg="country",
    object_type="city",
    qtype=WH,
    question="",
    expected="",
    answers=(),
    reply="",
    label="",
    hedged=False,
)


def checked(rivals: Rivals, reply: str, asked: tuple[str, tuple, tuple[str, str, str]]) -> Checked:
    """What a run makes of ``reply`` to ``asked`` (question, true answers, (KG, predicate,
    type)); an answer given as a string is one name."""
    question, answers, (kg, predicate, object_type) = asked
    groups = tuple((a,) if isinstance(a, str) else tuple(a) for a in answers)
    case = dataclasses.replace(
        CASE_TEMPLATE,
        id=question,
        kg=kg,
        predicate=predicate,
        object_type=object_type,
        question=question,
        answers=groups,
        reply=reply,
    )
    return matcher_verdict(case, rivals)


VerdictRow = tuple[str, tuple, str, bool]
"""A reply, what it is asked (as `checked` takes it), its verdict and whether it is uncertain."""


def round_tests(
    changed: Sequence[VerdictRow], kept: Mapping[str, Sequence[VerdictRow]]
) -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """The three tests of a round of verdict rules, for its module to bind: the replies whose
    verdict or mark the round changes get the new one; each rule's ordinary replies keep theirs;
    every rule has at least thirty ordinary replies."""
    columns = ("reply", "asked", "verdict", "uncertain")

    def agrees(rivals: Rivals, reply: str, asked: tuple, verdict: str, uncertain: bool) -> None:
        got = checked(rivals, reply, asked)
        assert (got.verdict.value, got.uncertain) == (verdict, uncertain)

    @pytest.mark.parametrize(columns, changed)
    def change(rivals: Rivals, reply: str, asked: tuple, verdict: str, uncertain: bool) -> None:
        agrees(rivals, reply, asked, verdict, uncertain)

    @pytest.mark.parametrize(columns, [row for rows in kept.values() for row in rows])
    def keep(rivals: Rivals, reply: str, asked: tuple, verdict: str, uncertain: bool) -> None:
        agrees(rivals, reply, asked, verdict, uncertain)

    @pytest.mark.parametrize("rule", sorted(kept))
    def thirty(rule: str) -> None:
        assert len(kept[rule]) >= 30

    return change, keep, thirty
