"""LLM-facteval's Tables 6 and 7: BLEU of LLM-written questions against the templates they
replaced, and self-BLEU diversity per question kind and writer."""

from __future__ import annotations

import csv
import math
import random
from pathlib import Path

import pytest

from kglens_tui.cli.main import main
from kglens_tui.modes.facteval.similarity import (
    bleu,
    diversity_panel,
    self_bleu,
    similarity_panel,
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
    assert similarity_panel(conn, 1) is None  # every question is the template's
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
    assert similarity_panel(conn, 1) is not None and diversity_panel(conn, 1) is not None
    conn.close()
    capsys.readouterr()
    assert main(["--db", str(db), "facteval", "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "Table 6" in out and "Table 7" in out and "self-BLEU" in out


# Tables 6 and 7 on five questions whose figures are worked out by hand

T1, T2 = "What is the capital of France?", "What is the capital of Peru?"
T3 = "Which river flows through Lima?"
L1 = "What is the capital city of France"  # written for T1's fact by an LLM


def _hand_bleu(*precisions: float, penalty: float = 1.0) -> float:
    return penalty * math.prod(precisions) ** (1 / 4)


# T1 against T2 and T3: 6 of 7 unigrams, 4 of 6 bigrams, 3 of 5 trigrams, 2 of 4 4-grams, and
# the same for T2; T3 against T1 and T2: only "?" of its 6 unigrams, no higher n-gram (0.1 each,
# smoothed), 6 tokens against 7 (brevity penalty e^(1 - 7/6))
TEMPLATE_SELF_BLEU = (
    2 * _hand_bleu(6 / 7, 4 / 6, 3 / 5, 2 / 4)
    + _hand_bleu(1 / 6, 0.1 / 5, 0.1 / 4, 0.1 / 3, penalty=math.exp(1 - 7 / 6))
) / 3
# L1 against its template T1: 6/7, 4/6, 2/5, 1/4; T2 written word for word by the LLM: 1
L1_BLEU = _hand_bleu(6 / 7, 4 / 6, 2 / 5, 1 / 4)
# L1 against T2 and T2 against L1 (the LLM's two): 5/7, 3/6, 2/5, 1/4 both ways
LLM_SELF_BLEU = _hand_bleu(5 / 7, 3 / 6, 2 / 5, 1 / 4)


def test_self_bleu_by_hand() -> None:
    assert self_bleu([T1, T2, T3]) == pytest.approx(TEMPLATE_SELF_BLEU)
    assert self_bleu([L1, T2]) == pytest.approx(LLM_SELF_BLEU)


def test_self_bleu_is_each_questions_bleu_against_the_others() -> None:
    """self_bleu counts n-grams once for the whole group; its figure is the mean of `bleu` of
    each question against all the others, exactly (repeated n-grams, ties, an empty question)."""
    words = [
        "what",
        "is",
        "the",
        "capital",
        "of",
        "france",
        "?",
        "who",
        "wrote",
        "it",
        "a",
        "which",
    ]
    rng = random.Random(7)
    for _ in range(50):
        group = [
            " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
            for _ in range(rng.randint(2, 12))
        ]
        tokenised = [tokens(q) for q in group]
        each = [bleu(t, tokenised[:i] + tokenised[i + 1 :]) for i, t in enumerate(tokenised)]
        assert self_bleu(group) == sum(each) / len(each)


def test_tables_6_and_7_figures_by_hand_on_screen_and_as_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "facteval", "run", "--facts", "3", "--quiet"]) == 0
    conn = connect(db)
    ids = [
        int(i)
        for (i,) in conn.execute(
            "SELECT id FROM facteval_question WHERE run_id = 1 AND qtype = 'tfq' "
            "AND format = 'statement' ORDER BY idx LIMIT 5"
        )
    ]
    assert len(ids) == 5
    conn.execute(
        f"DELETE FROM facteval_question WHERE run_id = 1 AND id NOT IN ({','.join('?' * 5)})",
        ids,
    )
    for qid, text in zip(ids, (T1, T2, T3, T1, T2), strict=True):
        conn.execute("UPDATE facteval_question SET question = ? WHERE id = ?", (text, qid))
    write_facteval_answers(conn, [(ids[3], L1, "llm:m"), (ids[4], T2, "llm:m")], [])
    conn.commit()
    conn.close()
    capsys.readouterr()
    folder = tmp_path / "tables"
    code = main(["--db", str(db), "facteval", "report", "1", "--tables", str(folder),
                 "--table-format", "csv"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    # Table 6: the mean of L1's and T2's BLEU, its normal interval over the two (sd over n - 1)
    mean = (L1_BLEU + 1) / 2
    half = 1.96 * ((1 - L1_BLEU) / math.sqrt(2)) / math.sqrt(2)
    (table6,) = folder.glob("*table-6*.csv")
    with table6.open() as fh:
        assert list(csv.reader(fh)) == [
            ["question", "BLEU-4 (%)", "BLEU-4 low (%)", "BLEU-4 high (%)", "BLEU-4 capped", "n"],
            ["TFQ", f"{100 * mean:.1f}", f"{100 * (mean - half):.1f}", "100.0", "false", "2"],
        ]
    (table7,) = folder.glob("*table-7*.csv")
    with table7.open() as fh:
        assert list(csv.reader(fh)) == [
            ["question", "written by", "self-BLEU-4 (%)", "n"],
            ["TFQ", "LLM", f"{100 * LLM_SELF_BLEU:.1f}", "2"],
            ["TFQ", "template", f"{100 * TEMPLATE_SELF_BLEU:.1f}", "3"],
        ]
    flat = " ".join(out.split())
    assert f"{100 * TEMPLATE_SELF_BLEU:.1f}%" in flat and f"{100 * mean:.1f}%" in flat
