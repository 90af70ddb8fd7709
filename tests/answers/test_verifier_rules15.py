"""Rules 15 of the Wh verifier: "sorry" in more languages beside "I do not know"; Afrikaans and
another Welsh form of it; "nope" and "no" in Dutch, German, the Nordic languages and Italian's
"anzi" take the candidate before them back; "more precisely", "strictly speaking", "[Revised]"
and Russian "то есть" as words of taking back, where an answer follows. Examples written for
these tests (not taken from the labelled sets); most get another verdict under rules 14, the
others guard the edges of a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.core.verdict import Verdict


@pytest.mark.parametrize(
    "reply",
    [
        "Prepáčte, to neviem.",  # Slovak
        "Ek weet ongelukkig nie.",  # Afrikaans
        "Ngiyaxolisa, angazi.",  # Zulu
        "Mae'n ddrwg gen i, dydw i ddim yn gwybod.",  # Welsh
        "Barkatu, ez dakit.",  # Basque
        "Anteeksi, en tiedä.",  # Finnish
        "Het spijt me, ik weet het niet.",  # Dutch
        "ക്ഷമിക്കണം, എനിക്കറിയില്ല.",  # Malayalam, the pronoun joined to the verb
    ],
)
def test_sorry_and_not_knowing_in_more_languages_is_a_refusal(reply: str) -> None:
    assert capital_verdict(reply) is Verdict.REFUSED


def test_a_known_name_beside_sorry_and_not_knowing_is_an_answer() -> None:
    assert capital_verdict("Anteeksi, en tiedä — Sydney?") is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Sydney. Nope — Canberra.", Verdict.CORRECT),
        ("Canberra — nee wacht, Sydney.", Verdict.INCORRECT),
        ("Canberra, anzi no, Melbourne.", Verdict.INCORRECT),
        ("Sydney — nein, Canberra.", Verdict.CORRECT),
        ("Canberra. Nope, that's right.", Verdict.CORRECT),  # nothing offered after it
        ("Melbourne — or, more precisely, Canberra.", Verdict.CORRECT),
        ("Sydney. [Revised] Canberra.", Verdict.CORRECT),
        ("Canberra, strictly speaking.", Verdict.CORRECT),  # nothing after the words
        ("Canberra. Strictly speaking, it is Sydney.", Verdict.INCORRECT),
    ],
)
def test_more_ways_of_taking_an_answer_back(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict
