"""Smoke runs of both modes against the real SmolLM2-135M (the `local` extra; skipped without)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kontest_support import hand_kg

from kglens_tui.cli.main import main
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


def test_smollm2_serves_in_every_helper_role(tmp_path: Path) -> None:
    """Issue #34: the local model as KGLens's question writer and judge, KONTEST's paraphraser
    and fact-eval's question writer, against a simulated target; whatever it writes, no helper
    failure is counted against the target and every run ends."""
    from kglens_tui.modes import FactevalConfig, KontestConfig
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    conn = connect(tmp_path / "w.db")
    local = "local:smollm2"
    kglens = RunConfig(
        kg="country", subset="paper16", target="sim", difficulty="wh", iterations=1,
        batch_size=4, generator=local, verifier=local, stop_on_convergence=False,
    )  # fmt: skip
    kontest = KontestConfig(kg="country", subset="paper16", target="sim", relations=2,
                            generator=local)  # fmt: skip
    facteval = FactevalConfig(kg="country", subset="paper16", target="sim", facts=2,
                              qtypes=["saq", "tfq"], generator=local)  # fmt: skip
    for config in (kglens, kontest, facteval):
        run_blocking(prepare(conn, config=config))
    rows = conn.execute("SELECT category, verifier, generator FROM observation").fetchall()
    assert rows and all(category != "error" for category, _, _ in rows)
    assert all(v.startswith(("llm judge (local:smollm2)", "alias match")) for _, v, _ in rows)
    assert all(g == "llm:local:smollm2" or g.startswith("template (") for _, _, g in rows)
    statuses = {s for (s,) in conn.execute("SELECT status FROM run")}
    assert statuses == {"finished"}, statuses
    helpers = conn.execute("SELECT DISTINCT role FROM helper_usage").fetchall()
    assert {r for (r,) in helpers} >= {"generator", "judge", "paraphraser"}
