"""Rules 17 of the Wh verifier: a clause conceding the true answer after another name gives that
name; more corrections ("correcting myself", "I'd revise that to", "pardon", Turkish "yani",
"on checking ... so X", a denial in Chinese, Japanese or Korean standing as a clause, a name
asked about with "or" and picked again at the end); "I'd be making it up" declines; CLDR's short
metazone names of every locale name their UTC offset. Examples written for these tests (not
taken from the labelled sets); most get another verdict under rules 16, the others guard the
edges of a rule."""

from __future__ import annotations

import pytest
from verdict_support import capital_verdict

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.answer_names import answer_names


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Perth, though Canberra is where parliament sits.", Verdict.INCORRECT),
        ("Perth — although Canberra hosts Parliament.", Verdict.INCORRECT),
        ("Perth — Canberra is only the federal capital.", Verdict.INCORRECT),
        ("Perth, though Canberra is the capital.", Verdict.CORRECT),  # the relation restated
        ("Canberra, though Sydney is larger.", Verdict.CORRECT),
        ("Canberra is only the capital since 1913.", Verdict.CORRECT),
    ],
)
def test_a_conceded_answer_after_another_name_is_told_of(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("Canberra. Correcting myself: Perth.", Verdict.INCORRECT),
        ("Perth. Correcting myself: Canberra.", Verdict.CORRECT),
        ("Canberra. Hmm, I'd revise that to Perth, where the mint is.", Verdict.INCORRECT),
        ("Canberra — pardon, Perth.", Verdict.INCORRECT),
        ("Canberra — pardon, yani Perth.", Verdict.INCORRECT),
        (
            "Canberra at first glance; on checking, the seat was moved west, so Perth.",
            Verdict.INCORRECT,
        ),
        ("Canberra, I think — or was it moved to Perth? Probably Perth.", Verdict.INCORRECT),
        ("Canberra — or was it moved to Perth? No, Canberra.", Verdict.CORRECT),
        ("Canberra. 不对，是悉尼。", Verdict.INCORRECT),
        ("Canberra… いえ、シドニーです。", Verdict.INCORRECT),
        ("Canberra, pardon the brevity.", Verdict.CORRECT),  # nothing offered after "pardon"
        ("Canberra; I'd revise nothing.", Verdict.CORRECT),
        ("Canberra. On checking, it has been the capital since 1913.", Verdict.CORRECT),
        ("Canberra, or Perth if you mean Western Australia. Canberra.", Verdict.CORRECT),
    ],
)
def test_more_ways_of_taking_an_answer_back(reply: str, verdict: Verdict) -> None:
    assert capital_verdict(reply) is verdict


def test_a_denial_inside_a_clause_takes_nothing_back() -> None:
    """A "いえ" (house) inside a clause is no "no": the answer stands."""
    got = check_wh("東京のいえ", [["Tokyo", "東京"]], None, [], question="What is the capital?")
    assert got.verdict is Verdict.CORRECT


INDIUM = "Which countries are the three largest producers of Indium?"


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ("I'd be making it up.", Verdict.REFUSED),
        ("I would only be inventing one.", Verdict.REFUSED),
        ("They are inventing new uses for it.", Verdict.INCORRECT),
    ],
)
def test_making_an_answer_up_declines(reply: str, verdict: Verdict) -> None:
    got = check_wh(reply, [["China"], ["Japan"], ["South Korea"]], None, [], question=INDIUM)
    assert got.verdict is verdict


ZONES = NameTable([("UTC+01:00", 1), ("UTC+06:30", 2), ("UTC+02:00", 3)])
ZONE = "Which standard time zones (UTC offsets, without daylight saving time) does it use?"


@pytest.mark.parametrize(
    ("true", "reply", "verdict"),
    [
        ("UTC+01:00", "MEZ (Mitteleuropäische Zeit).", Verdict.CORRECT),  # German
        ("UTC+01:00", "SEČ", Verdict.CORRECT),  # Czech
        ("UTC+06:30", "MMT", Verdict.CORRECT),  # Shan
        ("UTC+02:00", "MEZ", Verdict.INCORRECT),  # MEZ is an hour ahead of UTC, not two
        ("UTC+06:30", "He uses MMT.", Verdict.CORRECT),
    ],
)
def test_short_metazone_names_of_every_locale_name_their_offset(
    true: str, reply: str, verdict: Verdict
) -> None:
    names = (answer_names(f"timezone:{true}", true),)
    got = check_wh(reply, [[true]], ZONES, [], question=ZONE, answer_only=names)
    assert got.verdict is verdict
