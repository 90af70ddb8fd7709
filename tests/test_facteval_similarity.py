"""LLM-facteval's Tables 6 and 7: BLEU of LLM-written questions against the templates they
replaced, and self-BLEU diversity per question kind and writer."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from kglens_tui.cli import main
from kglens_tui.modes.facteval_similarity import (
    bleu,
    diversity_table,
    self_bleu,
    similarity_table,
    tokens,
)
from kglens_tui.modes.store import write_facteval_answers
from kglens_tui.store.connection import connect


def test_bleu_by_hand() -> None:
    same = tokens("What is the capital of France?")
    assert bleu(same, [same]) == pytest.approx(1.0)
    assert bleu(tokens("Zebra quartz lamp"), [same]) < 0.05
    # 6 of 7 unigrams, 4 of 6 bigrams, 2 of 5 trigrams, 1 of 4 4-grams; lengths 7 and 7
    candidate = tokens("What is the capital city of France")
    reference = tokens("What is the capital of France ?")
    expected = math.exp((math.log(6 / 7) + math.log(4 / 6) + math.log(2 / 5) + math.log(1 / 4)) / 4)
    assert bleu(candidate, [reference]) == pytest.approx(expected)


def test_self_bleu_falls_as_questions_vary() -> None:
    template = [f"What is the capital of {c}?" for c in ("France", "Peru", "Chad", "Laos")]
    varied = [
        "Which city is France's capital?",
        "Name Peru's seat of government.",
        "Where does Chad's government sit?",
        "Laos is governed from which city?",
    ]
    assert self_bleu(template) > 0.5 > self_bleu(varied)
    assert self_bleu(["one question"]) is None


def test_the_report_has_tables_6_and_7(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "facteval", "run", "--facts", "6", "--quiet"]) == 0
    conn = connect(db)
    rows = conn.execute(
        "SELECT id, question FROM facteval_question WHERE run_id = 1 AND format = 'wh' LIMIT 2"
    ).fetchall()
    assert similarity_table(conn, 1) is None  # every question is the template's
    write_facteval_answers(
        conn, [(int(i), f"Tell me: {q}", "llm:openai:gpt-4o") for i, q in rows], []
    )
    kept = conn.execute(
        "SELECT template, question FROM facteval_question WHERE id = ?", (rows[0][0],)
    ).fetchone()
    assert tuple(kept) == (rows[0][1], f"Tell me: {rows[0][1]}")
    # writing again (a resumed run) keeps the first template
    write_facteval_answers(conn, [(int(rows[0][0]), "Other words?", "llm:openai:gpt-4o")], [])
    assert (
        conn.execute(
            "SELECT template FROM facteval_question WHERE id = ?", (rows[0][0],)
        ).fetchone()[0]
        == rows[0][1]
    )
    assert similarity_table(conn, 1) is not None and diversity_table(conn, 1) is not None
    conn.close()
    capsys.readouterr()
    assert main(["--db", str(db), "facteval", "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "Table 6" in out and "Table 7" in out and "self-BLEU" in out
