"""What a reply was judged to be: the one vocabulary of verdicts that runs store (`observation.
category`), reports count, triage corrects and annotators check."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """Outcome of verifying one reply."""

    CORRECT = "correct"
    INCORRECT = "incorrect"
    REFUSED = "refused"
    UNPARSEABLE = "unparseable"
    ERROR = "error"
    """The request failed (transport/API error); not the model's fault."""

    @property
    def is_failure(self) -> bool:
        """Whether the edge counts as failed (KGLens marks refusals as failures)."""
        return self in (Verdict.INCORRECT, Verdict.REFUSED, Verdict.UNPARSEABLE)


ANSWERED = (Verdict.CORRECT, Verdict.INCORRECT, Verdict.REFUSED, Verdict.UNPARSEABLE)
"""The verdicts of a reply the model gave (everything but a failed request)."""
FAILURES = (Verdict.INCORRECT, Verdict.REFUSED, Verdict.UNPARSEABLE)
"""The verdicts that count as the model failing an edge (KGLens counts refusals as failures)."""
ALL = (*ANSWERED, Verdict.ERROR)
"""Every verdict, in the order reports show them."""

VERIFIER_RULES = 38
"""The version of the rules that give replies their verdicts (`kglens_tui.answers.verify`, the
fact-eval scorers). Bump it with any change that gives a reply a different verdict
(tests/answers/test_verifier_rules.py pins the labelled bench's verdicts to it). Runs record it in their
manifest (no record: rules 0, before they were numbered); `kglens triage reverify` re-checks a
KGLens run's replies under today's rules."""

WH_MATCHER = "alias match"
"""The `observation.verifier` of a Wh verdict the matcher gave."""
UNCERTAIN = "uncertain"
"""What a Wh verdict's `observation.verifier` adds when the matcher's rules could not decide:
"alias match (uncertain)". The LLM judge decides such a reply when one is set; without one the
matcher's best reading stands and the label sends it to human review (triage, annotation)."""
YES_NO_MATCHER = "first word"
"""The `observation.verifier` of a Yes/No verdict the matcher gave."""
