"""The prompt-order study asks the same questions with each few-shot order."""

from __future__ import annotations

import asyncio

from kglens_tui.analysis.prompt_order import ORDERS, run_prompt_order_study, study_questions
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import Completion


class EndsOnYesSaysYes:
    """Answers the way the last few-shot example did: a pure order effect, no knowledge."""

    label = "order-follower (test)"
    simulated = False

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def complete(self, request):
        last_example = [m for m in request.messages if m["role"] == "assistant"][-1]["content"]
        self.seen.append(request.messages[-1]["content"])
        return Completion(last_example, 10, 1, 0.0)

    async def aclose(self) -> None:
        return None


def test_same_questions_each_order_and_the_spread(conn) -> None:
    ensure_kg(conn, "country")
    questions = study_questions(conn, load_kg(conn, "country"), "paper16", 40, seed=3)
    assert len(questions) == 40 and all(q.qtype == "yes_no" for q in questions)
    client = EndsOnYesSaysYes()
    study = asyncio.run(run_prompt_order_study(client, questions, seed=3))
    assert [r.order for r in study.results] == list(ORDERS)
    asked = [client.seen[i * 40 : (i + 1) * 40] for i in range(3)]
    assert asked[0] == asked[1] == asked[2]  # the very same questions each time
    paper, reversed_, shuffled = study.results
    assert paper.bias.yes_rate.value == 0.0  # the paper's prompt ends on "No."
    assert reversed_.bias.yes_rate.value == 1.0
    assert 0.0 < shuffled.bias.yes_rate.value < 1.0
    expected_yes = sum(q.expected == "yes" for q in questions) / 40
    assert study.accuracy_spread == abs((1 - expected_yes) - expected_yes) * 100


def test_the_study_takes_its_run_options_from_the_settings_file_then_flags(
    tmp_path, monkeypatch, capsys
) -> None:
    from kglens_tui.cli import main

    config = tmp_path / "config.toml"
    config.write_text('target = "sim:3"\nsubset = "paper16"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "study", "prompt-order", "--questions", "4"]) == 0
    assert "simulated (seed 3)" in capsys.readouterr().err
    assert main(["--db", db, "study", "prompt-order", "--questions", "4", "--target", "sim:5"]) == 0
    assert "simulated (seed 5)" in capsys.readouterr().err
