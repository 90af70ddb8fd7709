"""A Wh reply that names a true object and, not negated, another entity of the object's type (a
rival) is not correct: echoing a question's list of options, or "Left or right.", names every
answer. Naming only true objects stays correct, and so does naming the subject asked about.
Verified against the bundled country KG's names, as a run does."""

from __future__ import annotations

import pytest

from kglens_tui.answers.mentions import TypeNames
from kglens_tui.answers.verify import Checked, check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.graph import KGIndex

C, W = Verdict.CORRECT, Verdict.INCORRECT


@pytest.fixture(scope="module")
def country(country_kg: KGIndex) -> KGIndex:
    return country_kg


def ask(kg: KGIndex, subject: str, predicate: str, reply: str, *, tell_subject: bool) -> Checked:
    """Verify a reply to the Wh question (subject, predicate) against the type's rivals."""
    s, p = kg.labels.index(subject), kg.pred_keys.index(predicate)
    truth = [int(o) for o in kg.true_objects(s, p)]
    answers = [[kg.labels[o], *kg.aliases[o]] for o in truth]
    rivals = TypeNames(kg).table(kg.types[truth[0]])
    names = (kg.labels[s], *kg.aliases[s]) if tell_subject else ()
    return check_wh(reply, answers, rivals, names)


OPTIONS = (
    "the United Nations, the European Union, the OECD, the European Economic Area, the Schengen "
    "Area, the euro area, the G7, the Council of Europe, the Asia-Pacific Economic Cooperation."
)


@pytest.mark.parametrize(
    ("subject", "predicate", "reply", "verdict", "hedged"),
    [
        # a rival beside a true object: failed before the fix (correct)
        ("Colombia", "member_of", OPTIONS, W, False),
        ("Colombia", "member_of", "The United Nations, the European Union and the G7.", W, False),
        ("Colombia", "driving_side", "Left or right.", W, False),
        ("Kuwait", "official_language", "The official languages are Arabic and English.", W, False),
        ("Kuwait", "official_language", "I think Arabic, maybe English.", W, True),
        ("Germany", "time_zone", "UTC+1 or UTC+2.", W, False),
        ("Chad", "shares_border_with", "South Sudan and Libya.", W, False),
        # only true objects, one or several, or a denied rival: correct before and after
        ("Colombia", "member_of", "The OECD.", C, False),
        ("Colombia", "member_of", "The United Nations and the OECD.", C, False),
        ("Colombia", "member_of", "The United Nations, not the European Union.", C, False),
        ("Colombia", "driving_side", "Right.", C, False),
        ("Australia", "capital", "Canberra, not Sydney.", C, False),
        ("Australia", "capital", "I'm not sure, but I think it's Canberra.", C, True),
        # a longer rival name is no mention of the true one (unchanged)
        ("Chad", "shares_border_with", "South Sudan.", W, False),
        ("Chad", "shares_border_with", "Sudan and Libya.", C, False),
    ],
)
def test_a_rival_beside_a_true_object_is_not_correct(
    country: KGIndex, subject: str, predicate: str, reply: str, verdict: Verdict, hedged: bool
) -> None:
    got = ask(country, subject, predicate, reply, tell_subject=True)
    assert (got.verdict, got.hedged) == (verdict, hedged)


def test_the_subject_asked_about_is_no_rival(country: KGIndex) -> None:
    """Zambia and Pakistan are countries, as the answers are; naming them is no wrong answer."""
    reply = "Zambia gained independence from the United Kingdom in 1964."
    assert ask(country, "Zambia", "independent_from", reply, tell_subject=True).verdict is C
    bordered = "Pakistan borders India and China."
    assert ask(country, "Pakistan", "shares_border_with", bordered, tell_subject=True).verdict is C
    # another country beside them still is
    wrong = "Pakistan borders India and Sri Lanka."
    assert ask(country, "Pakistan", "shares_border_with", wrong, tell_subject=True).verdict is W
    # without its names the subject reads as a rival: why callers pass them
    assert ask(country, "Zambia", "independent_from", reply, tell_subject=False).verdict is W


def test_colombia_oecd_is_a_true_object_of_a_multi_valued_predicate(country: KGIndex) -> None:
    """QA's SmolLM2 reply naming only the OECD for Colombia (asked about its United Nations edge)
    is correct: member_of is multi-valued, every true object counts, and Colombia joined the
    OECD in 2020."""
    s, p = country.labels.index("Colombia"), country.pred_keys.index("member_of")
    assert {country.labels[int(o)] for o in country.true_objects(s, p)} == {
        "OECD",
        "United Nations",
    }
