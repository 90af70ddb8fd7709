"""Smoke runs of both modes against the real SmolLM2-135M (the `local` extra; skipped without)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_modes_kontest import hand_kg

from kglens_tui.cli import main
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.local_llama import LocalModelUnavailable, find_smollm2_gguf
from kglens_tui.store.connection import connect


def _model_missing() -> str | None:
    try:
        import llama_cpp  # noqa: F401

        find_smollm2_gguf()
    except (ImportError, LocalModelUnavailable) as exc:
        return str(exc)
    return None


MODEL_MISSING = _model_missing()
pytestmark = [
    pytest.mark.llm,
    pytest.mark.slow,
    pytest.mark.skipif(MODEL_MISSING is not None, reason=MODEL_MISSING or ""),
]


def test_both_modes_against_smollm2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "smollm2.db"
    conn = connect(db)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    base = ["--db", str(db)]
    common = ["--kg", "hand", "--target", "local:smollm2", "--max-tokens", "8", "--quiet"]
    kontest = ["consistency", "run", *common, "--relations", "0", "--transitive", "located_in"]
    assert main([*base, *kontest, "--max-paths", "1"]) == 0
    facteval = ["facteval", "run", *common, "--facts", "1", "--predicate", "capital"]
    facteval += ["--qtypes", "tfq,mcq"]
    assert main([*base, *facteval]) == 0
    capsys.readouterr()
    conn = connect(db)
    try:
        answers = {r[0] for r in conn.execute("SELECT answer FROM kontest_query")}
        categories = {r[0] for r in conn.execute("SELECT category FROM facteval_answer")}
        counts = conn.execute(
            "SELECT (SELECT COUNT(*) FROM kontest_query), (SELECT COUNT(*) FROM facteval_answer)"
        ).fetchone()
    finally:
        conn.close()
    assert tuple(counts) == (3 * 6, 3)
    assert "error" not in answers and answers <= {"yes", "no", "invalid"}
    assert "error" not in categories
    assert main([*base, "consistency", "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "ontological" in out and "local:smollm2" in out
    assert main([*base, "facteval", "report", "2"]) == 0
    assert "precision · recall · abstention rate per context" in capsys.readouterr().out
