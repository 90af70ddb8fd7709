"""Issue #15: replies the old alias matcher scored wrong, verified against the bundled KGs' names
of the object's type (as a run does). Every case in SIGNS, CODES, CONTAINED, NEGATED and the
hedged and Yes/No tables failed before the fix (the old verdict differed), except the rows marked
as controls."""

from __future__ import annotations

import sqlite3

import pytest

from kglens_tui.answers.mentions import NameTable, TypeNames, tokenize
from kglens_tui.answers.verify import Checked, check_wh, check_yes_no, first_word_answer
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.store.connection import connect

C, W, R = Verdict.CORRECT, Verdict.INCORRECT, Verdict.REFUSED
"""Correct, wrong (incorrect), refused."""


@pytest.fixture(scope="module")
def kgs() -> dict[str, KGIndex]:
    conn: sqlite3.Connection = connect(":memory:")
    try:
        for name in ("country", "elements"):
            ensure_kg(conn, name)
        return {name: load_kg(conn, name) for name in ("country", "elements")}
    finally:
        conn.close()


def ask(kgs: dict[str, KGIndex], kg: str, subject: str, predicate: str, reply: str) -> Checked:
    """Verify a reply to the Wh question (subject, predicate) as the engine does."""
    index = kgs[kg]
    s, p = index.labels.index(subject), index.pred_keys.index(predicate)
    truth = [int(o) for o in index.true_objects(s, p)]
    answers = [[index.labels[o], *index.aliases[o]] for o in truth]
    rivals: NameTable = TypeNames(index).table(index.types[truth[0]])
    return check_wh(reply, answers, rivals)


SIGNS = [
    ("country", "Pakistan", "time_zone", "Pakistan uses UTC\u22125.", W),  # UTC+05:00
    ("country", "Colombia", "time_zone", "Colombia is on UTC+5.", W),  # UTC-05:00
    ("country", "Portugal", "time_zone", "UTC+1.", W),  # alias "UTC" of UTC+00:00
    ("elements", "Magnesium", "oxidation_state", "\u22122", W),  # +2
    ("elements", "Magnesium", "oxidation_state", "-2", W),
    ("elements", "Oxygen", "oxidation_state", "+2", W),  # -2
]
CODES = [
    ("country", "Slovenia", "shares_border_with", "I believe it is Germany.", W),  # IT: Italy
    ("country", "Bangladesh", "shares_border_with", "It is in South Asia.", W),  # IN: India
    ("country", "Germany", "shares_border_with", "It lies at the heart of Europe.", W),  # AT
    ("country", "Netherlands", "shares_border_with", "It would be France.", W),  # BE: Belgium
    ("country", "Canada", "shares_border_with", "Let us say Mexico.", W),  # US
    ("country", "Iceland", "top_level_domain", "Its domain is .ice, short for Iceland.", W),
]
CONTAINED = [
    ("elements", "Lithium", "group", "Lithium is in group 13.", W),  # group 1
    ("elements", "Lithium", "group", "It belongs to group 18.", W),
    ("country", "Sierra Leone", "shares_border_with", "Equatorial Guinea.", W),  # Guinea
    ("country", "Egypt", "shares_border_with", "South Sudan and Chad.", W),  # Sudan
    ("country", "Gabon", "shares_border_with", "DR Congo.", W),  # Republic of the Congo
    ("country", "Italy", "form_of_government", "A federal parliamentary republic.", W),
    ("country", "Angola", "form_of_government", "Angola is a semi-presidential republic.", W),
    ("elements", "Iron", "series", "Iron is one of the post-transition metals.", W),
]
NEGATED = [
    ("country", "Australia", "capital", "It is not Canberra; it is Sydney.", W),
    ("country", "Australia", "capital", "The capital isn't Canberra, it's Melbourne.", W),
    ("country", "Slovenia", "shares_border_with", "Slovenia does not border Italy.", W),
]


CONTROLS = [
    ("country", "Colombia", "time_zone", "UTC\u22125 (Colombia Time).", C),
    ("country", "India", "time_zone", "UTC+5.", W),  # UTC+05:30
    ("elements", "Oxygen", "oxidation_state", "Oxygen is usually \u22122.", C),
    ("country", "Canada", "shares_border_with", "The US.", C),
    ("country", "Iceland", "top_level_domain", "Iceland uses .is", C),
    ("country", "Sierra Leone", "shares_border_with", "Guinea and Liberia.", C),
    ("country", "Gabon", "shares_border_with", "Congo-Brazzaville and Cameroon.", C),
    ("elements", "Iron", "series", "Iron is a transition metal.", C),
    ("country", "Australia", "capital", "Canberra, not Sydney.", C),
    ("country", "Australia", "capital", "Not Sydney but Canberra.", C),
]
"""Right before and after: the fix must keep them."""


@pytest.mark.parametrize(
    ("kg", "subject", "predicate", "reply", "verdict"),
    SIGNS + CODES + CONTAINED + NEGATED + CONTROLS,
)
def test_hard_wh_cases(
    kgs: dict[str, KGIndex], kg: str, subject: str, predicate: str, reply: str, verdict: Verdict
) -> None:
    assert ask(kgs, kg, subject, predicate, reply).verdict is verdict


@pytest.mark.parametrize(
    ("reply", "verdict", "hedged"),
    [
        ("I'm not sure, but I think it's Canberra.", C, True),
        ("Probably Canberra.", C, True),  # control for the verdict; the flag is new
        ("I'm not sure, but I think it's Sydney.", W, True),
        ("I'm not sure, maybe Melbourne?", W, True),
        ("I'm not sure.", R, False),
        ("I'm sorry, but I don't know the capital of Australia.", R, False),
        ("Canberra.", C, False),  # control
    ],
)
def test_hedged_wh_answers(
    kgs: dict[str, KGIndex], reply: str, verdict: Verdict, hedged: bool
) -> None:
    assert ask(kgs, "country", "Australia", "capital", reply) == Checked(verdict, hedged)


@pytest.mark.parametrize(
    ("reply", "expected", "verdict", "hedged"),
    [
        ("No, I don't know.", "no", R, False),
        ("No, I'm not sure.", "no", R, False),
        ("No idea.", "yes", R, False),
        ("I'm not sure, but I think yes.", "yes", C, True),
        ("Probably not.", "no", C, True),
        ("I think yes.", "no", W, True),
        ("Yes, I believe so.", "yes", C, True),  # control for the verdict; the flag is new
        ("No, the capital is Canberra.", "no", C, False),  # control
        ("No.", "yes", W, False),  # control
    ],
)
def test_yes_no_refusals_and_hedges(
    reply: str, expected: str, verdict: Verdict, hedged: bool
) -> None:
    assert check_yes_no(reply, expected) == Checked(verdict, hedged)


def test_a_refusing_no_is_no_answer_for_the_bias_figures() -> None:
    assert first_word_answer("No, I don't know.") is None
    assert first_word_answer("No, it is not.") == "no"


def test_tokens_keep_signs_offsets_codes_and_domains() -> None:
    def norms(text: str) -> list[str]:
        return [t.norm for t in tokenize(text)]

    assert norms("UTC\u22125, UTC+05:30 and GMT") == ["utc-05:00", "utc+05:30", "and", "utc+00:00"]
    assert norms("\u22122, +2, 2 and 3+") == ["-2", "+2", "+2", "and", "+3"]
    assert norms("+1-868 and the 2nd") == ["+1", "and", "the", "2nd"]  # +1 and an area code
    assert norms("9-1-1 or 1-1-2") == ["+911", "or", "+112"]
    assert norms("It is .is") == ["it", "is", ".is"]
    assert [t.raw for t in tokenize("IT and it")] == ["IT", "and", "it"]


def test_without_rivals_a_whole_word_still_matches() -> None:
    """No KG at hand (a caller without an index): names match as whole words only."""
    assert check_wh("Guinea-Bissau", [["Guinea"]]).verdict is C
    assert check_wh("Nigeria", [["Niger"]]).verdict is W
    table = NameTable([("Guinea", 0), ("Guinea-Bissau", 1)])
    assert check_wh("Guinea-Bissau", [["Guinea"]], table).verdict is W
