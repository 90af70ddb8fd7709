"""The verdict a run's matcher gives one stored or fresh reply about a KG edge: Wh replies by
alias match against the true objects, told apart from every other entity of the answer's type,
the subject never counting against them; Yes/No replies by their first word. One definition for
the engine and for re-checking stored replies (`kglens_tui.analysis.reverify`)."""

from __future__ import annotations

from collections.abc import Sequence

from kglens_tui.answers.mentions import TypeNames
from kglens_tui.answers.verify import Checked, check_wh
from kglens_tui.core.verdict import UNCERTAIN, WH_MATCHER, YES_NO_MATCHER
from kglens_tui.kg.graph import KGIndex


def check_edge_wh(
    reply: str,
    expected_answers: Sequence[Sequence[str]],
    names: TypeNames,
    edge: int,
    question: str = "",
) -> Checked:
    """A Wh reply about the edge at position ``edge`` of ``names.kg``: the rivals are the names of
    every entity of its object's type, the subject's names never a rival; the true objects also
    go by their answer-only names (`TypeNames.answer_only`); ``question``'s words never count as
    an answer."""
    kg: KGIndex = names.kg
    subject = int(kg.s[edge])
    object_type = kg.types[int(kg.o[edge])]
    return check_wh(
        reply,
        expected_answers,
        names.table(object_type),
        subject=kg.names(subject),
        question=question,
        answer_only=names.answer_only(object_type, expected_answers),
    )


def matcher_label(checked: Checked) -> str:
    """The `observation.verifier` of a Wh verdict the matcher gave: "alias match", or
    "alias match (uncertain)" when its rules could not decide."""
    return f"{WH_MATCHER} ({UNCERTAIN})" if checked.uncertain else WH_MATCHER


def given_by_matcher(verifier: str) -> bool:
    """Whether a stored verdict is the matcher's (plain, uncertain or left unjudged by a judge
    that failed), which `kglens triage reverify` may re-check."""
    return verifier in (WH_MATCHER, YES_NO_MATCHER) or verifier.startswith(f"{WH_MATCHER} (")
