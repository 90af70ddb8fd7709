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
    from kglens_tui.cli.main import main

    config = tmp_path / "config.toml"
    config.write_text('target = "sim:3"\nsubset = "paper16"\n', encoding="utf-8")
    monkeypatch.setenv("KGLENS_CONFIG", str(config))
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "study", "prompt-order", "--questions", "4"]) == 0
    assert "simulated (seed 3)" in capsys.readouterr().err
    assert main(["--db", db, "study", "prompt-order", "--questions", "4", "--target", "sim:5"]) == 0
    assert "simulated (seed 5)" in capsys.readouterr().err


def test_cochran_q_by_hand_and_its_level_when_the_order_does_not_matter() -> None:
    import numpy as np

    from kglens_tui.analysis.prompt_order import cochran_q

    # Conover's example: 4 questions x 3 orders; columns right 3, 1, 1 of 4
    x = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 1], [0, 0, 0]])
    q, p = cochran_q(x)
    # Q = (k-1)(k sum C^2 - N^2) / (k N - sum R^2) = 2 (3*11 - 25) / (15 - 9)
    assert q == 16 / 6 and 0.2 < p < 0.3
    assert cochran_q(np.ones((5, 3))) == (0.0, 1.0)
    # three orders that do not matter: each answer right with the question's own rate
    rng = np.random.default_rng(0)
    rejected = 0
    for _ in range(400):
        rate = rng.uniform(0.2, 0.9, size=(60, 1))
        rejected += cochran_q(rng.random((60, 3)) < rate)[1] < 0.05
    assert rejected / 400 <= 0.08


def test_the_order_effect_is_found_and_the_spread_has_an_interval(conn) -> None:
    import numpy as np

    from kglens_tui.analysis.prompt_order import cochran_q, order_test

    ensure_kg(conn, "country")
    questions = study_questions(conn, load_kg(conn, "country"), "paper16", 40, seed=3)
    study = asyncio.run(run_prompt_order_study(EndsOnYesSaysYes(), questions, seed=3))
    test = order_test(study, seed=3)
    assert test is not None and test.paired == 40
    # it says what the last example said: the yes-rate moves from 0 to 1 ...
    assert test.yes_p_value < 0.001
    # ... and accuracy by the share of Yes questions against No ones, tested as such
    said = np.array([[r.said_yes[i] for r in study.results] for i in range(40)], dtype=bool)
    expected = np.array([[q.expected == "yes"] * 3 for q in questions])
    assert (test.q, test.p_value) == cochran_q(said == expected)
    assert test.spread_low <= test.spread <= test.spread_high
    assert test.spread * 100 == study.accuracy_spread
