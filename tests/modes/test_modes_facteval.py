"""LLM-facteval mode: scoring with abstention, precision / recall / F1 on a hand-computed example,
context injection, and a run against a scripted target with API failures."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from kontest_support import hand_kg
from rich.console import Console
from run_targets import ScriptedTarget

from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.base import LLMError
from kglens_tui.modes import FactevalConfig
from kglens_tui.modes.facteval.engine import answer_messages
from kglens_tui.modes.facteval.mode import MODE as FACTEVAL_MODE
from kglens_tui.modes.facteval.plan import MASK, plan_facteval
from kglens_tui.modes.facteval.report import facteval_panels
from kglens_tui.modes.facteval.scoring import (
    ABSTAINED,
    CORRECT,
    ERROR,
    INCORRECT,
    UNPARSEABLE,
    Scores,
    is_abstention,
    named_choices,
    score_groups,
    score_mcq,
    score_saq,
    score_tfq,
)
from kglens_tui.modes.store import load_questions
from kglens_tui.runs.config import ConfigError
from kglens_tui.runs.panel_rich import panel_renderables
from kglens_tui.runs.runner import prepare, run_blocking

CAPITALS = {"France": "Paris", "Germany": "Berlin", "Ireland": "Dublin"}


@pytest.fixture
def hand(conn: sqlite3.Connection, tmp_path: Path) -> sqlite3.Connection:
    import_kg(conn, hand_kg(tmp_path), "hand")
    return conn


@pytest.mark.parametrize(
    ("reply", "truth", "category"),
    [
        ("CORRECT", "true", CORRECT),
        ("Correct.", "false", INCORRECT),
        ("INCORRECT", "false", CORRECT),
        ("incorrect, it is Berlin", "true", INCORRECT),
        ("Yes.", "true", CORRECT),
        ("UNKNOWN", "true", ABSTAINED),
        ("Unknown.", "false", ABSTAINED),
        ("I'm sorry, I cannot tell.", "true", ABSTAINED),
        ("The sentence is CORRECT.", "true", CORRECT),
        ("This fact is not correct. Paris is correct.", "false", CORRECT),
        ("Maybe", "true", UNPARSEABLE),
        ("", "true", UNPARSEABLE),
    ],
)
def test_tfq_replies(reply: str, truth: str, category: str) -> None:
    assert score_tfq(reply, truth) == category


def test_abstention_phrases() -> None:
    assert is_abstention("I am unable to answer the questions without more knowledge.")
    assert is_abstention("Sorry, I cannot predict the missing words.")
    assert is_abstention("I don't know")
    assert not is_abstention("Paris")


def test_mcq_replies_name_exactly_one_choice() -> None:
    right, wrong = [("Equatorial Guinea", "GQ")], [("Guinea",), ("Gabon",), ("Ghana",)]
    assert score_mcq("Equatorial Guinea", right, wrong) == CORRECT
    assert named_choices("Equatorial Guinea", [*right, *wrong]) == [0]
    assert score_mcq("Guinea.", right, wrong) == INCORRECT
    assert score_mcq("Equatorial Guinea or Ghana", right, wrong) == INCORRECT
    assert score_mcq("Banana", right, wrong) == UNPARSEABLE
    listed = "Guinea; Equatorial Guinea; Gabon: The answer is: Equatorial Guinea"
    assert score_mcq(listed, right, wrong) == CORRECT
    assert score_mcq("I cannot answer without more information.", right, wrong) == ABSTAINED


def test_saq_replies_count_the_answers_named() -> None:
    answers = [("German", "Deutsch"), ("French",), ("Italian",)]
    assert score_saq("German, French", answers) == (CORRECT, 2)
    assert score_saq("Spanish", answers) == (INCORRECT, 0)
    assert score_saq("I cannot predict that.", answers) == (ABSTAINED, 0)


def test_precision_recall_f1_match_a_hand_computed_example() -> None:
    categories = [CORRECT] * 5 + [INCORRECT] * 2 + [UNPARSEABLE] + [ABSTAINED] * 2 + [ERROR]
    rows = [("tfq", "statement", "none", c) for c in categories]
    rows += [("mcq", "wh", "none", c) for c in (CORRECT, ABSTAINED, ERROR, ERROR)]
    tfq, mcq, both = (
        next(s for s in score_groups(rows) if s.qtype == q) for q in ("tfq", "mcq", "all")
    )
    # TFQ: precision 5 / 8 non-abstained, recall 5 / 10 answered, the failed request left out
    assert (tfq.answered, tfq.total, tfq.errors) == (8, 10, 1)
    assert tfq.precision == pytest.approx(0.625)
    assert tfq.recall == pytest.approx(0.5)
    assert tfq.f1 == pytest.approx(2 * 0.625 * 0.5 / 1.125)
    assert tfq.abstention_rate == pytest.approx(0.2)
    assert (mcq.precision, mcq.recall, mcq.f1) == (1.0, 0.5, pytest.approx(2 / 3))
    assert (both.correct, both.total, both.errors) == (6, 12, 3)
    assert both.precision == pytest.approx(6 / 9)
    assert Scores("x", "y", "none", errors=2).f1 is None


def test_context_injection_variants(hand: sqlite3.Connection) -> None:
    kg = load_kg(hand, "hand")
    config = FactevalConfig(
        kg="hand",
        facts=None,
        predicates=["capital"],
        formats=["fib", "wh"],
        contexts=["none", "relevant", "irrelevant", "antifactual"],
    )
    plan = plan_facteval(hand, kg, config)
    france = kg.node("france")
    tfq = [q for q in plan if q.qtype == "tfq" and q.s == france]
    true_q = next(q for q in tfq if q.truth == "true")
    false_q = next(q for q in tfq if q.truth == "false")
    assert true_q.question == "The capital of France is Paris."
    wrong = false_q.wrong[0][0]
    assert (
        wrong in ("Berlin", "Dublin") and false_q.question == f"The capital of France is {wrong}."
    )
    ctx = true_q.contexts
    assert ctx["none"] == ""
    assert ctx["relevant"] == "The capital of France is Paris."
    assert ctx["antifactual"] == f"The capital of France is {wrong}."
    assert (
        ctx["irrelevant"] and "France" not in ctx["irrelevant"] and "Paris" not in ctx["irrelevant"]
    )
    mcq = next(q for q in plan if q.qtype == "mcq" and q.s == france and q.format == "fib")
    assert mcq.question == f"The capital of France is {MASK}."
    assert sorted(mcq.choices) == ["Berlin", "Dublin", "Paris"]
    assert mcq.contexts["antifactual"].removeprefix("The capital of France is ").rstrip(".") in (
        "Berlin",
        "Dublin",
    )
    run_id = FACTEVAL_MODE.create_run(hand, kg, config, ScriptedTarget(), plan)
    stored = {(q.qtype, q.format, q.truth, q.subject_id): q for q in load_questions(hand, run_id)}
    q = stored[("tfq", "statement", "true", int(kg.entity_db_ids[france]))]
    relevant = answer_messages(q, "relevant")[-1]["content"]
    assert relevant.startswith("Context: The capital of France is Paris.\nThe following sentence")
    assert relevant.endswith("\nThe capital of France is Paris.")
    plain = answer_messages(q, "none")[-1]["content"]
    assert plain.startswith("The following sentence") and "Context:" not in plain
    anti = answer_messages(q, "antifactual")[-1]["content"]
    assert anti.startswith(f"Context: The capital of France is {wrong}.\n")
    m = stored[("mcq", "wh", "", int(kg.entity_db_ids[france]))]
    text = answer_messages(m, "irrelevant")[-1]["content"]
    assert f"Choices: {'; '.join(m.choices)}\nWhat is the capital of France?" in text
    assert text.startswith(f"Context: {m.contexts['irrelevant']}\n")


def _reply(users: list[str]) -> str:
    """A target that knows capitals, abstains on Ireland, and fails on German statements."""
    message = users[-1]
    question = message.splitlines()[-1]
    if "correct or not" in message:
        if "Germany" in question:
            raise LLMError("rate_limit", "429 Too Many Requests", retries=3)
        if "Ireland" in question:
            return "UNKNOWN"
        country = question.removeprefix("The capital of ").split(" is ")[0]
        return "CORRECT" if question.endswith(f" {CAPITALS[country]}.") else "INCORRECT"
    if "Choices:" in message:
        return CAPITALS[question.removeprefix("What is the capital of ").rstrip("?")]
    return "I don't know."


def test_run_against_a_scripted_target(hand: sqlite3.Connection) -> None:
    config = FactevalConfig(
        kg="hand", facts=None, predicates=["capital"], contexts=["none", "antifactual"]
    )
    target = ScriptedTarget(reply_fn=_reply)
    snap = run_blocking(prepare(hand, config=config, target=target))
    # the two German statements had failed requests: not done (a resume asks them again)
    assert snap.status == "finished" and (snap.units_done, snap.units_total) == (10, 12)
    assert "2 with a failed request" in snap.stop_reason
    assert (snap.progress.counters.requests, snap.progress.counters.errors) == (24, 4)
    m = snap.metrics
    assert (m.questions_done, m.questions_failed, m.questions) == (10, 2, 12)
    stored = hand.execute(
        "SELECT iterations_done, units_total FROM run WHERE id = ?", (snap.run_id,)
    ).fetchone()
    assert tuple(stored) == (10, 12)
    tfq = m.get("tfq", "statement", "none")
    # 6 statements: 2 about Germany failed, 2 about Ireland abstained, 2 right
    assert (tfq.correct, tfq.abstained, tfq.errors, tfq.incorrect) == (2, 2, 2, 0)
    assert (tfq.precision, tfq.recall) == (1.0, 0.5)
    mcq = m.get("mcq", "wh", "antifactual")
    assert (mcq.correct, mcq.total, mcq.f1) == (3, 3, 1.0)
    saq = m.get("saq", "wh", "none")
    assert (saq.abstained, saq.precision, saq.recall) == (3, None, 0.0)
    rows = hand.execute(
        "SELECT a.category, a.error FROM facteval_answer a JOIN facteval_question q "
        "ON q.id = a.question_id WHERE q.run_id = ? AND a.error != ''",
        (snap.run_id,),
    ).fetchall()
    assert len(rows) == 4 and {r[0] for r in rows} == {"error"}
    console = Console(width=200, record=True)
    for shown in panel_renderables(facteval_panels(m)):
        console.print(shown)
    cells = [
        [c.strip() for c in x.strip("│ ").split("│")] for x in console.export_text().splitlines()
    ]
    # against chance: TFQ with no context, F1 2c / (2n - a) = 4 / 6 over the 4 replies (failures
    # left out), always CORRECT scores 1 of 2
    assert ["TFQ statement", "no context", "66.7% [16.8–89.7]", "50.0%", "4"] in (
        c[:5] for c in cells
    )
    # precision 2 / 2, recall 2 / 4, 2 of the 4 replies abstained; the SAQs all abstained
    assert ["TFQ statement · no context", "100.0% [34.2–100.0]", "50.0% [15.0–85.0]"] in (
        c[:3] for c in cells
    )
    assert ["50.0% [15.0–85.0]", "4"] in (c[-2:] for c in cells if c[0].startswith("TFQ"))
    assert ["100.0% [43.9–100.0]", "3"] in (c[-2:] for c in cells if c[0].startswith("SAQ wh ·"))
    again = run_blocking(
        prepare(hand, resume=snap.run_id, target=ScriptedTarget(reply_fn=lambda u: "UNKNOWN"))
    )
    # the 4 failed requests still count (their answers were asked again and replaced)
    assert (again.progress.counters.errors, again.progress.counters.requests) == (4, 28)
    assert (again.units_done, again.metrics.questions_failed) == (12, 0)
    assert again.metrics.get("tfq", "statement", "none").abstained == 4


def test_llm_written_questions_fall_back_to_templates(hand: sqlite3.Connection) -> None:
    """The check of every mode (`kglens_tui.answers.generated.rejection`): a blank without the
    mask, a question without the subject are rejected and counted by reason."""

    def write(users: list[str]) -> str:
        subject, _, obj = users[-1].rsplit("(", 1)[1].rstrip(")").split(", ")
        if "replace Object with [MASK]" in users[-1]:
            return f"{obj} is where the government of {subject} sits."  # no [MASK]: rejected
        if "generate a question" in users[-1]:
            return f"Which city is the seat of the government of {subject}?"
        return f"{obj} is the capital city of {subject}."  # names subject and object

    config = FactevalConfig(
        kg="hand", facts=1, predicates=["capital"], qtypes=["tfq", "mcq"], formats=["fib", "wh"]
    )
    generator = ScriptedTarget(reply_fn=write, label="writer")
    run_blocking(prepare(hand, config=config, target=ScriptedTarget(), generator=generator))
    rows = dict(hand.execute("SELECT format, generator FROM facteval_question WHERE qtype = 'mcq'"))
    assert rows == {
        "fib": "template (generated question rejected: not a sentence with one blank)",
        "wh": "llm:writer",
    }
    tfq = {
        g for (g,) in hand.execute("SELECT generator FROM facteval_question WHERE qtype = 'tfq'")
    }
    assert tfq == {"llm:writer"}


def test_config_is_validated() -> None:
    with pytest.raises(ConfigError, match="contexts"):
        FactevalConfig(contexts=["misleading"]).validate()
    with pytest.raises(ConfigError, match="qtypes"):
        FactevalConfig(qtypes=[]).validate()
