"""Analyses across runs and relations on hand-built runs with known answers: fact-eval per
relation, compare (Table 2), template vs LLM-written questions, the SAQ prompt on multi-valued
relations; KONTEST error overlap (Fig. 4) and stability."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from compare_support import CAPITALS, _kontest, text
from kontest_support import hand_kg
from run_targets import ScriptedTarget
from tui_support import LARGE, notices_of

from kglens_tui.answers.bias import Rate
from kglens_tui.cli.main import main
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.facteval.compare import (
    compare_table,
    generator_pairs,
    generator_table,
    load_run_scores,
    per_relation,
    run_per_relation_panel,
)
from kglens_tui.modes.kontest.compare import (
    add_template3,
    error_overlap,
    load_overlap,
    overlap_tables,
)
from kglens_tui.modes.kontest.ensemble import weighted_ensemble
from kglens_tui.modes.kontest.metrics import ensemble_inputs
from kglens_tui.modes.store import load_answers, load_questions
from kglens_tui.runs.panel_rich import panel_renderables
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct


def _f1_ci(correct: int, wrong: int, abstained: int) -> str:
    from kglens_tui.core.intervals import f1_interval

    low, high = f1_interval(correct, wrong, abstained)
    assert low is not None and high is not None
    return f"{low * 100:.1f}–{high * 100:.1f}"


def _knows_capitals(users: list[str]) -> str:
    """Judges capital statements right, abstains on 'located in' ones, and calls any other
    statement (an LLM-written one) INCORRECT."""
    statement = users[-1].splitlines()[-1]
    if statement.startswith("The capital of "):
        country, city = statement.removeprefix("The capital of ").rstrip(".").split(" is ")
        return "CORRECT" if CAPITALS[country] == city else "INCORRECT"
    return "UNKNOWN" if " is located in " in statement else "INCORRECT"


def _writes_statements(users: list[str]) -> str:
    """A statement writer whose sentences pass the question check (one sentence naming the
    subject and the object) but read unlike the templates, so `_knows_capitals` calls each
    INCORRECT."""
    subject, relation, obj = users[-1].rsplit("(", 1)[1].rstrip(")").split(", ")
    return f"{subject} and {obj} are linked by the relation {relation} in the records."


def _facteval(conn: sqlite3.Connection, generator: ScriptedTarget | None = None) -> int:
    config = FactevalConfig(kg="hand", facts=None, qtypes=["tfq"])
    engine = prepare(
        conn, config=config, target=ScriptedTarget(reply_fn=_knows_capitals), generator=generator
    )
    return run_blocking(engine).run_id


def test_per_relation_scores_and_abstention(hand: sqlite3.Connection) -> None:
    run = _facteval(hand)
    answers = {(a.question_id, a.context): a for a in load_answers(hand, run)}
    scores = per_relation(load_questions(hand, run), answers)
    preds = dict(hand.execute("SELECT key, id FROM predicate"))
    capital, located = scores[(preds["capital"], "none")], scores[(preds["located_in"], "none")]
    assert (capital.total, capital.precision, capital.recall, capital.abstention_rate) == (
        6,
        1.0,
        1.0,
        0.0,
    )
    # Kinawley and Dromore have no wrong province to be false about: 3 true, 2 false statements
    assert (located.total, located.precision, located.recall) == (5, None, 0.0)
    assert located.abstention_rate == 1.0
    out = text(*panel_renderables([run_per_relation_panel(hand, run)]))
    assert "capital" in out and "located in" in out and "100.0%" in out


def test_compare_and_template_vs_llm_questions_on_the_same_facts(
    hand: sqlite3.Connection,
) -> None:
    template_run = _facteval(hand)
    writer = ScriptedTarget(reply_fn=_writes_statements, label="writer")
    llm_run = _facteval(hand, generator=writer)
    runs = load_run_scores(hand, [template_run, llm_run])
    table = text(compare_table(runs))
    # 11 statements (6 capital, 5 located in). Template run: 6 right, 5 abstained -> P 1,
    # R 6/11, F1 70.6%, abstention 45.5%. LLM-written run: every statement called INCORRECT, so
    # only the 5 false ones are right -> F1 45.5%, no abstention
    # chance: always CORRECT is right on the 6 true statements of 11 (54.5%) in both runs
    cells = [[c.strip() for c in line.split("│")[4:6]] for line in table.splitlines()]
    tfq = next(i for i, line in enumerate(table.splitlines()) if "TFQ statement" in line)
    assert [c[0] for c in cells[tfq : tfq + 4]] == [
        f"70.6% [{_f1_ci(6, 0, 5)}]",
        "chance 54.5%",
        "abst. 45.5% [21.3–72.0]",
        "n=11",
    ]
    assert [c[1] for c in cells[tfq : tfq + 4]] == [
        f"45.5% [{_f1_ci(5, 6, 0)}]",
        "chance 54.5%",
        "abst. 0.0% [0.0–25.9]",
        "n=11",
    ]
    ((a, b, shared),) = generator_pairs(runs)
    assert (a.run.id, b.run.id, len(shared)) == (template_run, llm_run, 11)
    side = text(generator_table(a, b, shared))
    assert "on the same 11 facts" in " ".join(side.split())
    row = next(line for line in side.splitlines() if "TFQ statement" in line)
    assert row.index("70.6% [") < row.index("45.5% [") and "11 / 11" in row


def test_fill_in_the_blank_asks_for_every_answer_on_a_multi_valued_relation(
    hand: sqlite3.Connection,
) -> None:
    hand.execute("UPDATE predicate SET multi_valued = 1 WHERE key = 'capital'")
    target = ScriptedTarget(reply_fn=lambda users: "Paris")
    config = FactevalConfig(kg="hand", facts=None, qtypes=["saq"], formats=["fib", "wh"])
    run_blocking(prepare(hand, config=config, target=target))
    fib = [m[-1]["content"] for m in target.messages if "[MASK]" in m[-1]["content"]]
    several = [m for m in fib if "return all of them as a list" in m]
    assert len(fib) == 6 and len(several) == 3
    assert all("capital" in m for m in several)
    wh = [m[-1]["content"] for m in target.messages if "[MASK]" not in m[-1]["content"]]
    assert len(wh) == 6 and all("return the possible answers as a list" in m for m in wh)


def test_error_overlap_across_models_and_stability(hand: sqlite3.Connection) -> None:
    france, germany, ireland = (f"Is the capital of {c} {city}?" for c, city in CAPITALS.items())
    first = _kontest(hand, {france}, "model A")
    again = _kontest(hand, {france, germany}, "model A")
    other = _kontest(hand, {germany, ireland}, "model B")
    runs, o = load_overlap(hand, [first, again, other])
    # a 'No.' to template 2 fails three of a relation's five tests (atomic and both
    # sequential-intra orders); the sequential-inter ones compare like with like
    assert o.relations == 3 and [len(e) for e in o.errors] == [3, 6, 6]
    assert [o.unique(i) for i in range(3)] == [0, 0, 3]
    assert [o.shared_by(k) for k in (1, 2, 3)] == [3, 6, 0]
    out = text(*overlap_tables(runs, o))
    assert "Stability" not in out and "one run only" in out
    # each run's errors over its 15 tests with their interval, beside what a coin at the run's
    # yes-rate scores (2p(1 - p): every run says Yes to most questions)
    rows = [[c.strip() for c in x.strip("│ ").split("│")] for x in out.splitlines()]
    # every answer is yes or no here: 15 valid tests each; template 2's question is asked three
    # times of each relation's six, so each relation in `no` gives three 'No.' of its six answers
    for i, (run_id, noes) in enumerate(((first, 3), (again, 6), (other, 6))):
        p_yes = (18 - noes) / 18
        assert o.valid[i] == 15 and o.yes_rates[i] == pytest.approx(p_yes)
        row = next(r for r in rows if r[0] == str(run_id))
        errors = len(o.errors[i])
        assert row[2:4] == [f"{errors} · {Rate(errors, 15).text()}", pct(2 * p_yes * (1 - p_yes))]
    runs, o = load_overlap(hand, [first, again])
    out = text(*overlap_tables(runs, o))
    stable = out[out.index("Stability") :].splitlines()[-2]
    assert [c.strip() for c in stable.strip("│ ").split("│")] == ["3", "0", "3", "50.0%"]
    with pytest.raises(ValueError, match="at least two"):
        load_overlap(hand, [first])


def test_error_overlap_counts_only_relations_every_run_answered() -> None:
    from kglens_tui.modes.kontest.oracles import RelationAnswers

    def answers(a1: str, a2: str, s12: str, s21: str) -> RelationAnswers:
        return RelationAnswers(a1, a2, (s12[0], s12[1]), (s21[0], s21[1]))

    y, n, i = "yes", "no", "invalid"
    every_yes, every_no = answers(y, y, (y, y), (y, y)), answers(n, n, (n, n), (n, n))
    # tests 0-4: atomic, the two sequential-intra orders, then a1 vs seq21[1], a2 vs seq12[1]
    a = answers(y, n, (y, y), (y, y))  # inconsistent: 0 and 4
    b = answers(y, y, (y, n), (y, y))  # inconsistent: 1 and 4
    half = answers(y, i, (y, y), (y, y))  # tests 0 and 4 invalid, none inconsistent
    o = error_overlap(
        [
            [("a", a), ("b", every_yes), ("c", b)],
            [("a", every_yes), ("b", every_yes), ("c", b), ("e", a)],
            [("a", every_no), ("b", a), ("c", half)],
        ]
    )
    # errors are (relation, test) pairs: e is answered by one run only and left out
    assert o.relations == 3 and [len(e) for e in o.errors] == [4, 2, 2] and o.union == 6
    assert [o.unique(k) for k in range(3)] == [2, 0, 2]
    assert [o.shared_by(k) for k in (1, 2, 3)] == [4, 2, 0]
    # the errors' n: the valid tests (15 of 15, 13 for the run with an invalid answer)
    assert o.valid == (15, 15, 13)
    # the yes-rate over the same relations' answers: 16 / 18, 17 / 18, 10 of 17 yes or no
    assert o.yes_rates == (pytest.approx(16 / 18), pytest.approx(17 / 18), pytest.approx(10 / 17))


def test_compare_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    conn = connect(db)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    for mode, run in (("consistency", "--relations"), ("facteval", "--facts")):
        for seed in (1, 1, 2):
            argv = ["--db", db, mode, "run", "--kg", "hand", run, "all", "--quiet"]
            assert main([*argv, "--target", f"sim:{seed}"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "consistency", "compare", "1", "2", "3"]) == 0
    assert "Errors shared by k runs" in capsys.readouterr().out
    assert main(["--db", db, "consistency", "compare", "1", "2"]) == 0
    assert "Stability" in capsys.readouterr().out
    assert main(["--db", db, "consistency", "compare", "1", "4"]) == 2
    assert "run 4 is a fact-eval run, not a KONTEST one" in capsys.readouterr().err
    t3 = ["--db", db, "consistency", "run", "--kg", "hand", "--relations", "all", "--quiet"]
    assert main([*t3, "--target", "sim:1", "--template3"]) == 0
    assert main([*t3, "--target", "sim:2", "--template3"]) == 0
    capsys.readouterr()
    ensemble = ["--db", db, "consistency", "ensemble", "1", "3", "--folds", "1"]
    assert main([*ensemble, "--template3", "7", "8"]) == 0
    assert "3 (unseen)" in capsys.readouterr().out
    assert main([*ensemble, "--template3", "7"]) == 2
    assert main(["--db", db, "facteval", "compare", "4", "5", "6"]) == 0
    assert "(Table 2)" in capsys.readouterr().out
    assert main(["--db", db, "facteval", "report", "4"]) == 0
    assert "per relation" in capsys.readouterr().out


def test_template3_runs_evaluate_the_ensemble_on_an_unseen_phrasing(
    hand: sqlite3.Connection, capsys: pytest.CaptureFixture[str]
) -> None:
    unseen = {
        c: f"Would you agree that the capital of {c} is {city}?" for c, city in CAPITALS.items()
    }
    a = _kontest(hand, set(), "model A")
    b = _kontest(hand, {"Is the capital of France Paris?"}, "model B")
    t3 = []
    for label, no in (("model A", {unseen["France"]}), ("model B", {unseen["Germany"]})):
        target = ScriptedTarget(
            reply_fn=lambda u, no=no: "No." if u[-1] in no else "Yes.", label=label
        )
        config = KontestConfig(kg="hand", relations=None, predicates=["capital"], template3=True)
        t3.append(run_blocking(prepare(hand, config=config, target=target)).run_id)
    asked = {
        q for (q,) in hand.execute("SELECT question FROM kontest_query WHERE run_id = ?", (t3[0],))
    }
    assert set(unseen.values()) <= asked and "Is the capital of France Paris?" not in asked
    answers, errors = ensemble_inputs(hand, [a, b])
    add_template3(hand, answers, [a, b], t3)
    assert answers[0][("france", "capital", "paris")] == {1: "yes", 2: "yes", 3: "no"}
    result = weighted_ensemble(answers, errors, templates=(1, 2, 3))
    # A (no metamorphic errors) outweighs B (France inconsistent): A's "no" to France on template 3
    # leaves it unaffirmed; B's "no" to Germany does not outweigh A's "yes"
    t3_gap = result.per_template[2]
    assert (t3_gap.template, t3_gap.weighted, t3_gap.majority, t3_gap.models_mean) == (3, 1, 2, 1.0)
    with pytest.raises(ValueError, match="not made with --template3"):
        add_template3(hand, answers, [a, b], [b, a])
    with pytest.raises(ValueError, match="one run per model"):
        add_template3(hand, answers, [a, b], t3[:1])


@pytest.mark.tui
async def test_tui_shows_the_analyses_of_mode_runs(tmp_path: Path) -> None:
    from conftest import wait_for
    from textual.widgets import Static
    from tui_support import make_app

    from kglens_tui.tui.screens.home import HomeScreen
    from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen
    from kglens_tui.tui.widgets.literal_table import LiteralDataTable

    db = tmp_path / "w.db"

    def runs() -> tuple[int, int]:
        conn = connect(db)
        import_kg(conn, hand_kg(tmp_path), "hand")
        france = "Is the capital of France Paris?"
        first = _kontest(conn, {france}, "model A")
        _kontest(conn, {france, "Is the capital of Germany Berlin?"}, "model A")
        fact = _facteval(conn)
        target = ScriptedTarget(label="model A")
        config = KontestConfig(kg="hand", relations=None, predicates=["capital"], template3=True)
        run_blocking(prepare(conn, config=config, target=target))
        conn.close()
        return first, fact

    first, fact = await asyncio.to_thread(runs)
    app = make_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#runs", LiteralDataTable)
        table.select_key(str(first))
        await pilot.press("c")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ModeAnalysisScreen) and app.screen.loaded
        )
        title = app.screen.query_one("#mode-analysis-title", Static).render()
        assert str(title) == "KONTEST runs 1, 2"
        assert len(app.screen.query("#mode-analysis Static")) == 6
        assert "Stability" in text(app.screen.renderables[2])
        # three shared relations: said plainly, and Table 5 without a gap reduction
        assert "share only 3 relations" in text(app.screen.renderables[3])
        table5 = text(app.screen.renderables[4])
        assert "3 (unseen)" in table5  # run 4, model A's template 3
        assert "gap reduction" not in table5 and "3 fold(s) (capped at the 3 relations)" in table5
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        table.select_key(str(fact))
        await pilot.press("A")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ModeAnalysisScreen) and app.screen.loaded
        )
        shown = text(*app.screen.renderables)
        assert "per relation" in shown and "capital" in shown
        await pilot.press("escape")
        await pilot.press("c")  # one fact-eval run only: nothing to compare with
        await wait_for(
            pilot, lambda: any("no other finished" in n.message for n in notices_of(app))
        )
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
