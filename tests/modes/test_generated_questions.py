"""LLM-written questions must be questions about the fact that do not give the answer away;
rejects fall back to the template question and are counted in the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.answers.generated import BLANK, QUESTION, STATEMENT, rejection
from kglens_tui.cli.main import main
from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.registry import get_mode
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


# --- one check for the three modes (issue #34) ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "form", "reason"),
    [
        ("What is the answer to this question?", QUESTION, "not a question about the fact"),
        ("I'm ready to assist. What's your question?", QUESTION, "not a question about the fact"),
        ("What is the capital of this country?", QUESTION, "does not name the subject"),
        ("Here's a possible sentence that describes the triplet:", STATEMENT, "not a single"),
        ("Rome is the capital of Italy. It is old.", STATEMENT, "not a single statement"),
        ("Is Rome the capital of Italy?", STATEMENT, "not a single statement"),
        ("Sure, Rome is the capital of Italy.", STATEMENT, "not about the fact"),
        ("The capital of France is Paris.", STATEMENT, "does not name the subject"),
        ("The capital of Italy is Milan.", STATEMENT, "does not name the object asked about"),
        ("The capital of Italy is Rome.", STATEMENT, ""),
        ("The capital of Italy is [MASK] and [MASK].", BLANK, "not a sentence with one blank"),
        ("The capital of Italy is Rome, also called [MASK].", BLANK, "gives the answer away"),
        ("The capital of Italy is [MASK].", BLANK, ""),
    ],
)
def test_one_check_of_llm_written_text(text: str, form: str, reason: str) -> None:
    asked = ("Rome",) if form == STATEMENT else ()
    answers = (("Rome", "Roma"),) if form != STATEMENT else ()
    got = rejection(
        text, subject_names=ITALY, asked_names=asked, answer_names=answers, form=form, mask="[MASK]"
    )
    assert got.startswith(reason) and bool(got) == bool(reason)


class Ready(Chatty):
    """SmolLM2 as question writer or paraphraser: it offers to help instead."""

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion("I'm ready to assist. What's your question?", 5, 5, 0.0)


class Preamble(Chatty):
    """A writer of TFQ statements that writes a preamble instead."""

    async def complete(self, request: ChatRequest) -> Completion:
        return Completion("Here's a possible sentence that describes the triplet:", 5, 5, 0.0)


@pytest.mark.parametrize(
    ("config", "writer", "reason"),
    [
        (
            FactevalConfig(kg="country", subset="paper16", target="sim", facts=8, qtypes=["saq"]),
            Ready(),
            "not a question about the fact",
        ),
        (
            FactevalConfig(kg="country", subset="paper16", target="sim", facts=8, qtypes=["tfq"]),
            Preamble(),
            "not a single statement",
        ),
        (
            KontestConfig(kg="country", subset="paper16", target="sim", relations=6),
            Ready(),
            "not a question about the fact",
        ),
    ],
    ids=["facteval-saq", "facteval-tfq", "kontest"],
)
def test_every_mode_rejects_the_same_bad_llm_questions_and_counts_them(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    config: object,
    writer: Chatty,
    reason: str,
) -> None:
    conn = connect(tmp_path / "w.db")
    engine = prepare(conn, config=config, generator=writer)
    run_blocking(engine)
    mode = engine.run.mode
    sources = get_mode(mode).question_sources(conn, engine.run.id)
    assert sources == {f"template (generated question rejected: {reason})": sum(sources.values())}
    assert sum(sources.values()) > 0
    command = "consistency" if mode == "kontest" else "facteval"
    assert main(["--db", str(tmp_path / "w.db"), command, "report", str(engine.run.id)]) == 0
    n = sum(sources.values())
    assert f"({n:,}) by who wrote them: {n:,} template (generated question rejected: {reason})" in (
        " ".join(capsys.readouterr().out.split())
    )
