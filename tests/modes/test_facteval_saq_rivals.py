"""Fact-eval's open-answer scores follow the KGLens Wh rule (`check_wh`): a reply that names,
beside a right answer, another entity of the answer's type (not negated, not the subject) is
incorrect; a negated answer is no answer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from kontest_support import hand_kg
from run_targets import ScriptedTarget

from kglens_tui.answers.mentions import NameTable
from kglens_tui.answers.verify import check_wh, names_rival
from kglens_tui.core.verdict import Verdict
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import FactevalConfig
from kglens_tui.modes.facteval.scoring import CORRECT, INCORRECT, score_mcq, score_saq
from kglens_tui.runs.runner import prepare, run_blocking

LANGUAGES = NameTable(
    (name, node)
    for node, names in enumerate(
        [
            ("Arabic",),
            ("English",),
            ("French",),
            ("German", "Deutsch"),
            ("Italian",),
            ("Sotho", "Southern Sotho", "Sesotho"),
            ("Northern Sotho", "Pedi"),
        ]
    )
    for name in names
)
"""Every language of a small KG (the rival table of a language answer)."""
COUNTRIES = NameTable(
    (name, node)
    for node, names in enumerate(
        [("Zambia", "Republic of Zambia"), ("United Kingdom", "UK"), ("France",), ("Sudan",)]
    )
    for name in names
)
ARABIC = [("Arabic",)]
SWISS = [("German", "Deutsch"), ("French",), ("Italian",)]
ZAMBIA = ("Zambia", "Republic of Zambia")
SOTHO = ("Sotho", "Southern Sotho", "Sesotho")


def test_a_list_with_a_wrong_entity_of_the_type_is_incorrect() -> None:
    # Kuwait's official language: Arabic named, but English beside it
    assert score_saq("Arabic and English", ARABIC, rivals=LANGUAGES) == (INCORRECT, 1)
    assert score_saq("Arabic, English, French", ARABIC, rivals=LANGUAGES) == (INCORRECT, 1)
    # how many right answers it names still counts every one of them
    assert score_saq("German, French, Arabic", SWISS, rivals=LANGUAGES) == (INCORRECT, 2)
    # a true answer only inside a longer name of another entity is that entity, not the answer
    assert score_saq("Northern Sotho", [SOTHO], rivals=LANGUAGES) == (INCORRECT, 0)
    # after "the answer is" the final answer decides, as for multiple choice
    assert score_saq("Arabic? The answer is: English", ARABIC, rivals=LANGUAGES)[0] == INCORRECT


def test_naming_only_right_answers_stays_correct() -> None:
    assert score_saq("Arabic", ARABIC, rivals=LANGUAGES) == (CORRECT, 1)
    assert score_saq("Arabic.", ARABIC, frozenset({"arabic"}), LANGUAGES) == (CORRECT, 1)
    assert score_saq("German, French and Italian", SWISS, rivals=LANGUAGES) == (CORRECT, 3)
    assert score_saq("Deutsch; French", SWISS, rivals=LANGUAGES) == (CORRECT, 2)
    # an alias of the true answer is the answer, not a rival ("Southern Sotho" is Sotho)
    assert score_saq("Southern Sotho", [SOTHO], rivals=LANGUAGES) == (CORRECT, 1)
    # a name inside a longer right answer is not a second answer: one answer named, not two
    assert score_saq("South Sudan", [("Sudan",), ("South Sudan",)]) == (CORRECT, 1)


def test_the_subject_named_beside_the_answer_is_no_rival() -> None:
    reply = "Zambia gained independence from the United Kingdom."
    uk = [("United Kingdom", "UK")]
    assert score_saq(reply, uk, rivals=COUNTRIES, subject=ZAMBIA) == (CORRECT, 1)
    # without knowing the subject, Zambia is a country of the answer's type beside it
    assert score_saq(reply, uk, rivals=COUNTRIES) == (INCORRECT, 1)
    assert score_saq("UK, France", uk, rivals=COUNTRIES, subject=ZAMBIA) == (INCORRECT, 1)


def test_a_negated_rival_does_not_count_and_a_negated_answer_is_none() -> None:
    assert score_saq("Arabic, not English", ARABIC, rivals=LANGUAGES) == (CORRECT, 1)
    assert score_saq("Arabic rather than English", ARABIC, rivals=LANGUAGES) == (CORRECT, 1)
    # denying the right answer does not name it, with or without the KG's names
    assert score_saq("Not Arabic, English.", ARABIC, rivals=LANGUAGES) == (INCORRECT, 0)
    assert score_saq("Spanish, not German", SWISS) == (INCORRECT, 0)


PARITY = [
    ("Arabic", False),
    ("Arabic and English", True),
    ("Arabic, not English", False),
    ("Not Arabic, English.", True),
    ("English", True),
    ("Arabic, Arabic", False),
    ("It is Arabic; French is spoken by some.", True),
    ("Arabic (not French or English)", False),
    ("Arabic, Northern Sotho", True),
]
"""Replies to Kuwait's official language, and whether they name a rival."""


def test_saq_verdicts_agree_with_the_wh_verifier() -> None:
    for reply, rival in PARITY:
        wh = check_wh(reply, ARABIC, LANGUAGES).verdict
        saq, _ = score_saq(reply, ARABIC, rivals=LANGUAGES)
        assert (saq == CORRECT) == (wh is Verdict.CORRECT), reply
        assert names_rival(reply, ARABIC, LANGUAGES) is rival, reply


def test_the_rival_rule_is_the_wh_verifiers() -> None:
    # one definition: the Wh verdict of a reply naming a true object is its rival test
    for reply, subject in [
        ("Zambia gained independence from the United Kingdom.", ZAMBIA),
        ("The UK or France", ZAMBIA),
        ("UK, not France", ()),
    ]:
        uk = [("United Kingdom", "UK")]
        rival = names_rival(reply, uk, COUNTRIES, subject)
        assert check_wh(reply, uk, COUNTRIES, subject).verdict is (
            Verdict.INCORRECT if rival else Verdict.CORRECT
        )
    assert not names_rival("Arabic and English", ARABIC, None)


def test_mcq_reads_negated_choices_and_rivals_as_the_wh_verifier() -> None:
    right, wrong = [("Paris",)], [("Berlin",), ("Dublin",)]
    cities = NameTable(
        (name, i) for i, name in enumerate(["Paris", "Berlin", "Dublin", "Lyon", "France"])
    )
    assert score_mcq("Paris, not Berlin.", right, wrong) == CORRECT
    assert score_mcq("Not Paris.", right, wrong) == INCORRECT
    assert score_mcq("Paris and Lyon", right, wrong, rivals=cities) == INCORRECT
    assert score_mcq("Paris and Lyon", right, wrong) == CORRECT  # Lyon is no choice
    capital = "Paris; France is the country"
    assert score_mcq(capital, right, wrong, rivals=cities, subject=("France",)) == CORRECT
    assert score_mcq(capital, right, wrong, rivals=cities) == INCORRECT
    # a rival named in passing ("of France") is no second answer, subject or not
    assert score_mcq("Paris, capital of France", right, wrong, rivals=cities) == CORRECT
    assert score_mcq("Paris, Berlin", right, wrong, rivals=cities) == INCORRECT


def test_an_mcq_reply_naming_another_true_object_of_the_fact_stays_correct() -> None:
    """Canada's official languages are English and French; the MCQ asks about English."""
    right, wrong = [("English",)], [("German",), ("Arabic",)]
    french = [("French",)]
    reply = "B) English. French is also an official language of Canada."
    assert score_mcq(reply, right, wrong, rivals=LANGUAGES, also_true=french) == CORRECT
    assert score_mcq("English and French", right, wrong, rivals=LANGUAGES) == INCORRECT
    assert (
        score_mcq("English and Italian", right, wrong, rivals=LANGUAGES, also_true=french)
        == INCORRECT
    )


def test_an_answer_is_that_denies_is_no_answer() -> None:
    """ "the answer is not X" / "isn't X" deny; they do not start the answer."""
    english = [("English",), ("French",)]
    assert score_saq("English. The answer is not Spanish.", english, rivals=LANGUAGES) == (
        CORRECT,
        1,
    )
    assert score_saq("English (the answer isn't Arabic)", english, rivals=LANGUAGES)[0] == CORRECT
    assert score_saq("Arabic? The answer is: English", english, rivals=LANGUAGES)[0] == CORRECT


@pytest.fixture
def hand(conn: sqlite3.Connection, tmp_path: Path) -> sqlite3.Connection:
    import_kg(conn, hand_kg(tmp_path), "hand")
    return conn


def _capitals(users: list[str]) -> str:
    """France: the right capital and another city; Germany: right alone; Ireland: right, a
    choice denied. Also for multiple choice."""
    question = users[-1].splitlines()[-1]
    if "France" in question:
        return "Paris and Lyon"
    if "Germany" in question:
        return "Berlin"
    return "Dublin, not Paris"


def test_a_run_scores_a_stored_saq_reply_with_a_rival_incorrect(hand: sqlite3.Connection) -> None:
    config = FactevalConfig(
        kg="hand", facts=None, predicates=["capital"], qtypes=["saq", "mcq"], formats=["wh"]
    )
    snap = run_blocking(prepare(hand, config=config, target=ScriptedTarget(reply_fn=_capitals)))
    rows = hand.execute(
        "SELECT q.qtype, a.reply, a.category, a.matched FROM facteval_answer a "
        "JOIN facteval_question q ON q.id = a.question_id WHERE q.run_id = ?",
        (snap.run_id,),
    ).fetchall()
    stored = {(qtype, reply): (category, matched) for qtype, reply, category, matched in rows}
    assert stored == {
        ("saq", "Paris and Lyon"): (INCORRECT, 1),
        ("saq", "Berlin"): (CORRECT, 1),
        ("saq", "Dublin, not Paris"): (CORRECT, 1),
        # Lyon is no choice, but a city beside the right one: wrong, as in KGLens
        ("mcq", "Paris and Lyon"): (INCORRECT, 0),
        ("mcq", "Berlin"): (CORRECT, 0),
        # Paris may be a choice: denied, it is not chosen
        ("mcq", "Dublin, not Paris"): (CORRECT, 0),
    }
    saq = snap.metrics.get("saq", "wh", "none")
    assert saq is not None and (saq.correct, saq.incorrect) == (2, 1)
    kg = load_kg(hand, "hand")
    assert kg.types[kg.node("lyon")] == "city"  # the rival comes from the type, not the choices


def test_after_the_answer_is_only_what_follows_decides_an_saq_reply() -> None:
    """A right name before "the answer is" is not the answer (docs/modes.md: what follows
    decides)."""
    assert score_saq("Arabic? No, the answer is Atlantis.", ARABIC, rivals=LANGUAGES) == (
        INCORRECT,
        0,
    )
    assert score_saq("Arabic is wrong; the answer is nobody knows.", ARABIC)[0] == INCORRECT
    assert score_saq("English? No, the answer is Arabic.", ARABIC, rivals=LANGUAGES) == (CORRECT, 1)
    assert score_saq("Hmm. The answer is Arabic.", ARABIC, rivals=LANGUAGES) == (CORRECT, 1)
