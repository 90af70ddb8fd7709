"""LLM-written questions must be questions about the fact that do not give the answer away;
rejects fall back to the template question and are counted in the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.cli import main
from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.probe.config import RunConfig
from kglens_tui.probe.generated import rejection
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect

ITALY = ("Italy", "Italian Republic")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("What is the answer to this question?", "not a question about the fact"),
        ("Sure, I'd be happy to help! What is the capital of Italy?", "not a question"),
        ("Which city is the capital of Italy? Rome?", "not a single question"),
        ("Capital of Italy", "not a single question"),
        ("Italy's capital?", "too short"),
        ("Which city is the capital of France?", "does not name the subject"),
        ("Is Rome, the capital of Italy, a city on the Tiber?", ""),
    ],
)
def test_rejection_reasons(text: str, reason: str) -> None:
    assert rejection(text, subject_names=ITALY).startswith(reason)


def test_wh_question_must_not_contain_the_answer_and_yes_no_must_name_the_object() -> None:
    answers = (("Rome", "Roma"),)
    assert (
        rejection("What is the capital of Italy, Rome?", subject_names=ITALY, answer_names=answers)
        == "gives the answer away"
    )
    assert (
        rejection("What is the capital city of Italy?", subject_names=ITALY, answer_names=answers)
        == ""
    )
    asked = ("Milan",)
    assert rejection("Is Rome the capital of Italy?", subject_names=ITALY, asked_names=asked) == (
        "does not name the object asked about"
    )
    assert rejection("Is Milan the capital of Italy?", subject_names=ITALY, asked_names=asked) == ""


class Chatty:
    """A generator like SmolLM2 as question writer: it answers the prompt instead."""

    label = "chatty"
    simulated = False

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion("Sure, I'd be happy to help with that question?", 5, 5, 0.0)

    async def aclose(self) -> None:
        return None


def test_rejected_questions_fall_back_to_the_template_and_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    engine = prepare(
        conn,
        config=RunConfig(
            kg="country", subset="paper16", target="sim", iterations=2, batch_size=8, seed=3
        ),
    )
    engine.generator = Chatty()
    run_blocking(engine)
    rows = conn.execute("SELECT question, generator FROM observation").fetchall()
    assert rows and all(
        g == "template (generated question rejected: not a question about the fact)"
        and not q.startswith("Sure")
        for q, g in rows
    )
    conn.close()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        f"questions asked ({len(rows)}) by who wrote them: {len(rows)} template (generated " in out
    )
