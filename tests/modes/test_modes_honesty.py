"""Honest KONTEST and fact-eval numbers: the ontological rate over the paper's denominator, chance
levels of guessers that ignore the question (checked against brute force), and the answer-bias
warning for a target that always says No or always says CORRECT."""

from __future__ import annotations

import html
import itertools
import math
import re
import sqlite3
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import wait_for
from kontest_support import hand_kg
from rich.console import Console
from run_targets import ScriptedTarget

from kglens_tui.answers.bias import Rate
from kglens_tui.cli.main import main
from kglens_tui.core.console import console
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.importers import import_kg
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.chance import (
    COIN,
    AskedQuestion,
    coverage_chance,
    facteval_chance,
    metamorphic_chance,
    ontological_chance,
    tfq_bias,
)
from kglens_tui.modes.facteval.engine import entity_names, score
from kglens_tui.modes.facteval.scoring import (
    ABSTAINED,
    CORRECT,
    INCORRECT,
    UNPARSEABLE,
    score_mcq,
    score_saq,
)
from kglens_tui.modes.kontest.metrics import CONVERSATIONS, kontest_metrics
from kglens_tui.modes.kontest.oracles import INCONSISTENT, ontological_tests, path_pairs
from kglens_tui.modes.kontest.report import kontest_panels
from kglens_tui.modes.store import PathRow, QuestionRow, RelationRow
from kglens_tui.runs.panel_rich import panel_renderables
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.runs.units import Reply
from kglens_tui.settings import Settings

P = 9  # the predicate's database id


@pytest.fixture
def hand(conn: sqlite3.Connection, tmp_path: Path) -> sqlite3.Connection:
    import_kg(conn, hand_kg(tmp_path), "hand")
    return conn


def _relation(idx: int, s: int, o: int) -> RelationRow:
    return RelationRow(idx, s, P, o, None, "path", f"q1 {s} {o}", f"q2 {s} {o}")


def _answers(t1: str, t2: str) -> dict[tuple[str, int], str]:
    """Every conversation repeats the template's atomic answer (no metamorphic error)."""
    out = {("atomic1", 0): t1, ("atomic2", 0): t2}
    for name, templates in CONVERSATIONS.items():
        if name.startswith("seq"):
            for turn, template in enumerate(templates):
                out[(name, turn)] = t1 if template == 1 else t2
    return out


def test_ontological_rate_uses_non_adjacent_pairs_times_two_templates() -> None:
    # one path 1 -> 2 -> 3 -> 4: 6 pairs asked, (4 - 1)(4 - 2) / 2 = 3 of them non-adjacent
    # ((1, 3), (2, 4), (1, 4)), so 3 x 2 templates = 6 ontological tests (KONTEST Table 3)
    t1 = {(1, 2): "yes", (2, 3): "yes", (3, 4): "yes", (1, 3): "no", (2, 4): "yes", (1, 4): "no"}
    t2 = {(1, 2): "yes", (2, 3): "yes", (3, 4): "yes", (1, 3): "no", (2, 4): "yes", (1, 4): "yes"}
    relations = [_relation(i, s, o) for i, (s, o) in enumerate(t1)]
    answers = {
        r.idx: _answers(t1[(r.subject_id, r.object_id)], t2[(r.subject_id, r.object_id)])
        for r in relations
    }
    names = {"entity": {n: f"E{n}" for n in range(1, 5)}, "predicate": {P: "in"}}
    m = kontest_metrics(relations, [PathRow(0, P, (1, 2, 3, 4))], answers, names)
    onto = m.oracle("ontological")
    # template 1: (1, 3) no though 1 -> 2 -> 3, (1, 4) no though 1 -> 2 -> 4; template 2: (1, 3)
    assert (onto.inconsistent, onto.valid) == (3, 6)
    assert onto.error_rate == pytest.approx(3 / 6)
    # the per-pair view: (1, 3) and (1, 4) inconsistent under some template, of 3 pairs
    assert m.ontological_pairs == Rate(2, 3)
    assert m.paths_done == 1
    assert m.oracle("all").valid == m.oracle("metamorphic").valid + 6


def _brute_force(paths: Sequence[Sequence[str]], p_yes: float) -> float:
    """The expected per-test error rate of a random guesser, by enumerating every answer set."""
    pairs = path_pairs(paths)
    total = 0.0
    tests = 0
    for bits in itertools.product((True, False), repeat=len(pairs)):
        weight = math.prod(p_yes if b else 1 - p_yes for b in bits)
        answers = {pair: "yes" if b else "no" for pair, b in zip(pairs, bits, strict=True)}
        outcomes = [t.outcome for t in ontological_tests(paths, answers)]
        tests = len(outcomes)
        total += weight * outcomes.count(INCONSISTENT)
    return total / tests


@pytest.mark.parametrize(
    "paths",
    [
        [("a", "b", "c")],
        [("a", "b", "c", "d")],
        [("a", "b", "c", "d", "e")],
        [("K", "U", "I"), ("D", "U", "I")],
        [("a", "b", "d", "e"), ("a", "c", "d", "e")],  # a diamond: not a chain between a and e
    ],
)
@pytest.mark.parametrize("p_yes", [COIN, 0.2])
def test_ontological_chance_equals_brute_force(paths, p_yes: float) -> None:
    assert ontological_chance(paths, p_yes) == pytest.approx(_brute_force(paths, p_yes))


def test_chance_levels_by_hand() -> None:
    # three nodes: no to (a, c) (1/2) and yes to both (a, b), (b, c) (1/4)
    assert ontological_chance([("a", "b", "c")], COIN) == pytest.approx(1 / 8)
    assert ontological_chance([("a", "b")], COIN) is None  # no non-adjacent pair: no test
    assert ontological_chance([("a", "b", "c")], 0.0) == 0.0  # always No: never inconsistent
    assert ontological_chance([("a", "b", "c")], 1.0) == 0.0  # always Yes: never inconsistent
    assert (metamorphic_chance(0.0), metamorphic_chance(1.0), metamorphic_chance(COIN)) == (
        0.0,
        0.0,
        0.5,
    )
    assert coverage_chance(COIN) == 0.75


def test_facteval_chance_levels_on_the_questions_asked() -> None:
    tfq = [AskedQuestion("tfq", "statement", 1, t, 0, ()) for t in ("true", "true", "false")]
    mcq = [
        AskedQuestion("mcq", "wh", 1, "", 4, (("Paris",),)),
        AskedQuestion("mcq", "wh", 1, "", 2, (("Rome",),)),
    ]
    saq = [
        AskedQuestion("saq", "wh", 7, "", 0, (("English",), ("French",)), constant_right=True),
        AskedQuestion("saq", "wh", 7, "", 0, (("English",),), constant_right=True),
        AskedQuestion("saq", "wh", 7, "", 0, (("German",),)),
        AskedQuestion("saq", "wh", 8, "", 0, (("Europe",),), constant_right=True),
    ]
    groups = {
        (g.qtype, g.context): g for g in facteval_chance([(q, "none") for q in [*tfq, *mcq, *saq]])
    }
    levels = {c.guesser: c.value for c in groups[("tfq", "none")].levels}
    assert levels == {
        "always CORRECT": pytest.approx(2 / 3),
        "always INCORRECT": pytest.approx(1 / 3),
        "random CORRECT/INCORRECT": 0.5,
    }
    assert groups[("tfq", "none")].best.guesser == "always CORRECT"
    assert groups[("mcq", "none")].best.value == pytest.approx((1 / 4 + 1 / 2) / 2)
    # the KG's most common object of each relation answers 3 of the 4 (`saq_constant_right`)
    assert groups[("saq", "none")].best.value == pytest.approx(3 / 4)
    everything = groups[("all", "none")]
    assert everything.questions == 9
    assert everything.best.value == pytest.approx((2 + 0.75 + 3) / 9)


def test_the_saq_guess_is_the_relations_most_common_object_over_the_kg(
    conn: sqlite3.Connection,
) -> None:
    """A relation asked once does not hand the guesser its answer: the guess is the object true
    of the most subjects over the KG's active edges, right only where the subject has it."""
    from kglens_tui.kg.bundled import ensure_kg
    from kglens_tui.modes.facteval.engine import saq_constant_right
    from kglens_tui.modes.store import load_questions

    ensure_kg(conn, "country")
    config = FactevalConfig(
        kg="country", facts=40, predicates=["continent", "currency"], qtypes=["saq"], seed=3
    )
    snap = run_blocking(prepare(conn, config=config, target=_always("I do not know.")))
    kg = load_kg(conn, "country")
    questions = [q for q in load_questions(conn, snap.run_id) if q.qtype == "saq"]
    right = saq_constant_right(kg, questions)
    active = kg.active_mask
    expected = {}
    for q in questions:
        pos = kg.edge_position(q.edge_id)
        p, s = int(kg.p[pos]), int(kg.s[pos])
        on = active & (kg.p == p)
        pairs = {(int(a), int(b)) for a, b in zip(kg.o[on], kg.s[on], strict=True)}
        counts = Counter(o for o, _ in pairs)
        top = min(o for o, c in counts.items() if c == max(counts.values()))
        expected[q.id] = (top, s) in pairs
    assert right == expected and 0 < sum(right.values()) < len(right)
    chance = snap.metrics.chance_of("saq", "wh", "none").best
    assert chance.value == pytest.approx(sum(right.values()) / len(right))


def test_tfq_bias_reads_the_categories() -> None:
    # always CORRECT: right on the true statements, wrong on the false ones
    bias = tfq_bias([("true", CORRECT)] * 9 + [("false", INCORRECT)] * 9 + [("true", ABSTAINED)])
    assert bias.yes_rate == Rate(18, 18) and bias.unparsed == 1
    assert bias.balanced_accuracy == 0.5 and bias.kappa == 0.0
    assert bias.warning(yes="CORRECT", no="INCORRECT", kind="true/false").startswith(
        "answer bias: the model says CORRECT to 100% of true/false questions"
    )


def test_fuzzy_matching_works_both_ways() -> None:
    # the reference in the reply, and (the paper's "vice versa") the reply in the reference
    assert score_saq("Southern Sotho", [("Sotho",)]) == (CORRECT, 1)
    assert score_saq("Sotho", [("Southern Sotho",)]) == (CORRECT, 1)
    assert score_saq("The answer is: sotho.", [("Southern Sotho",), ("English",)]) == (CORRECT, 1)
    assert score_saq("English, Sotho", [("Southern Sotho",), ("English",)]) == (CORRECT, 2)
    right, wrong = [("Southern Sotho",)], [("Zulu",), ("Xhosa",), ("Tswana",)]
    assert score_mcq("Sotho", right, wrong) == CORRECT
    assert score_mcq("Southern Sotho", [("Sotho",)], wrong) == CORRECT
    # a short answer only of generic words, or inside two references, names neither
    assert score_saq("Republic", [("Czech Republic",)]) == (INCORRECT, 0)
    assert score_saq("Sotho", [("Northern Sotho",), ("Southern Sotho",)]) == (INCORRECT, 0)
    # a reply that is exactly one reference's name is that reference, not part of another
    assert score_saq("Sotho", [("Sotho",), ("Northern Sotho",)]) == (CORRECT, 1)


def test_a_short_answer_naming_another_entity_does_not_match() -> None:
    # "Guinea" lies inside "Equatorial Guinea", so the paper's rule alone would match it; but it
    # is the name of another entity of the KG (a country of its own), so it names that one
    kg_names = frozenset({"guinea", "equatorial guinea", "gabon", "ghana", "cameroon"})
    right, wrong = [("Equatorial Guinea",)], [("Gabon",), ("Ghana",), ("Cameroon",)]
    assert score_mcq("Guinea", right, wrong, kg_names) == UNPARSEABLE
    assert score_saq("Guinea", right, kg_names) == (INCORRECT, 0)
    assert score_saq("Guinea", right) == (CORRECT, 1)  # without the KG: the paper's rule
    assert score_saq("Sotho", [("Southern Sotho",)], kg_names) == (CORRECT, 1)
    # and when it is itself a choice, it is that choice
    assert score_mcq("Guinea.", right, [("Guinea",), ("Gabon",)]) == INCORRECT


def test_the_engine_scores_with_the_kg_names(hand: sqlite3.Connection) -> None:
    kg = load_kg(hand, "hand")
    names = entity_names(kg)
    assert {"kinawley", "ulster", "paris"} <= names
    q = QuestionRow(
        1, 0, None, 1, 1, "saq", "wh", "", "Where?", "template", (), (("Ulster Province",),), (), {}
    )
    assert score(q, Reply(text="Ulster"), names) == (INCORRECT, 0)  # Ulster is an entity
    assert score(q, Reply(text="Province")) == (INCORRECT, 0)
    assert score(q, Reply(text="Ulster")) == (CORRECT, 1)


def _flat(printed: str) -> str:
    """CLI output as one line of words, table rules dropped."""
    return " ".join(printed.replace("│", " ").split())


def _always(text: str) -> ScriptedTarget:
    return ScriptedTarget(reply_fn=lambda users: text, label=f"always {text}")


def test_an_always_no_target_is_flagged_and_scores_the_chance_line(
    hand: sqlite3.Connection, capsys: pytest.CaptureFixture[str]
) -> None:
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    snap = run_blocking(prepare(hand, config=config, target=_always("No.")))
    m = snap.metrics
    assert m.chance.yes_rate == Rate(0, 48)
    assert m.chance.warning().startswith("answer bias: the model says No to 100% of the 48")
    # its perfect consistency is exactly what the constant guess scores
    assert m.oracle("metamorphic").error_rate == metamorphic_chance(0.0) == 0.0
    assert m.oracle("ontological").error_rate == m.chance.ontological_at_rate == 0.0
    assert m.coverage.coverage_rate.value == coverage_chance(0.0) == 0.0
    assert m.chance.ontological_random == pytest.approx(1 / 8)  # two 3-node paths
    assert m.coin_error_rate("all") == pytest.approx((40 * 0.5 + 4 / 8) / 44)
    db = hand.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", db, "consistency", "report", str(snap.run_id)]) == 0
    out = _flat(capsys.readouterr().out)
    head = out.index("Consistency (KONTEST Table 3)")
    assert -1 < out.index("⚠ answer bias: the model says No") < head
    assert -1 < out.index("yes-rate 0.0% [0.0–7.4] (n=48)") < head
    assert -1 < out.index("always No 0.0% 0.0% 0.0%") < head
    assert "coin 50.0% 12.5% 75.0%" in out
    # Table 3: each oracle's inconsistent tests with their interval and n, beside what a coin
    # and a coin at the model's yes-rate (0%: never inconsistent) score
    wide = Console(width=200, record=True)
    for shown in panel_renderables(kontest_panels(m, 0)):
        wide.print(shown)
    cells = [[c.strip() for c in x.strip("│ ").split("│")] for x in wide.export_text().split("\n")]
    assert [
        "metamorphic",
        "40 · 100%",
        "0",
        "0",
        "0 · 0.0% [0.0–8.8] (n=40)",
        "50.0% · 0.0%",
    ] in cells
    assert [
        "ontological",
        "4 · 100%",
        "0",
        "0",
        "0 · 0.0% [0.0–49.0] (n=4)",
        "12.5% · 0.0%",
    ] in cells


def test_a_target_without_a_lean_gets_no_warning(hand: sqlite3.Connection) -> None:
    # yes to the capitals, no to the places: 3 of 8 facts, a yes-rate of 37.5%
    target = ScriptedTarget(reply_fn=lambda users: "Yes." if "capital" in users[-1] else "No.")
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    m = run_blocking(prepare(hand, config=config, target=target)).metrics
    assert m.chance.yes_rate == Rate(18, 48) and m.chance.warning() == ""


def test_an_always_correct_target_is_flagged_next_to_its_f1(
    hand: sqlite3.Connection, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(console, "width", 200)  # one table row per line, whatever ran before
    config = FactevalConfig(kg="hand", facts=None, qtypes=["tfq"], contexts=["none"])
    snap = run_blocking(prepare(hand, config=config, target=_always("CORRECT")))
    m = snap.metrics
    tfq = m.get("tfq", "statement", "none")
    best = m.chance_of("tfq", "statement", "none").best
    # one true and one false statement per fact, but Ulster has no false "located in": the only
    # other object is Ulster itself, and a statement never puts the subject as its object
    assert (tfq.correct, tfq.total) == (6, 11)
    assert tfq.f1 == best.value and best.guesser == "always CORRECT"
    ((context, bias),) = m.tfq_bias
    assert context == "none" and bias.biased and bias.balanced_accuracy == 0.5
    db = hand.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", db, "facteval", "report", str(snap.run_id)]) == 0
    out = _flat(capsys.readouterr().out)
    head = out.index("LLM-facteval: precision · recall · abstention rate per context")
    assert -1 < out.index("100.0% [74.1–100.0] (n=11) 0.50 0.00") < head  # bias-corrected first
    assert -1 < out.index("⚠ TFQ, no context: answer bias: the model says CORRECT to 100%") < head
    f1 = f"{tfq.f1 * 100:.1f}%"
    low, high = (f"{x * 100:.1f}" for x in tfq.f1_ci)
    row = f"TFQ statement no context {f1} [{low}–{high}] {f1} 11 always CORRECT"
    assert -1 < out.index(row) < head


class _Shown:
    """A finished session as the live screen polls it."""

    error = None
    live = False

    def __init__(self, snap) -> None:
        self._snap = snap
        self.mode, self.run_id = snap.mode, snap.run_id

    def snapshot(self):
        return self._snap


@pytest.fixture(params=["kontest", "facteval"])
def finished(request: pytest.FixtureRequest, hand: sqlite3.Connection):
    if request.param == "kontest":
        config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
        return request.param, run_blocking(prepare(hand, config=config, target=_always("No.")))
    config = FactevalConfig(kg="hand", facts=None, qtypes=["tfq"], contexts=["none"])
    return request.param, run_blocking(prepare(hand, config=config, target=_always("CORRECT")))


@pytest.mark.tui
async def test_the_live_screen_shows_chance_and_the_warning(finished) -> None:
    from textual.app import App
    from textual.widgets import DataTable, Static

    from kglens_tui import tui
    from kglens_tui.tui.screens.live import LiveScreen

    mode, snap = finished
    if mode == "kontest":
        column, row, lines = (
            "coin · at yes-rate",
            "metamorphic",
            ("yes-rate 0.0% [0.0–7.4] (n=48)", "⚠ answer bias: always No"),
        )
    else:
        column, row, lines = (
            "chance",
            "tfq statement",
            ("CORRECT-rate 100.0% [74.1–100.0] (n=11)", "⚠ answer bias"),
        )

    class Host(App):
        CSS_PATH = Path(tui.__file__).parent / "app.tcss"
        settings = Settings()

        def on_mount(self) -> None:
            self.push_screen(LiveScreen(None, stored=_Shown(snap)))

    app = Host()
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, LiveScreen)
                and any(t.row_count for t in app.screen.query(".panel-table"))
            ),
        )
        table = app.screen.query_one(".panel-table", DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        cells = {str(table.get_row_at(i)[0]): table.get_row_at(i) for i in range(table.row_count)}
        chance = "50.0% · 0.0%"  # always No: a coin at its yes-rate (0%) is never inconsistent
        if mode == "facteval":
            chance = f"{snap.metrics.chance_of('tfq', 'statement', 'none').best.value * 100:.1f}%"
        assert str(cells[row][labels.index(column)]) == chance
        await pilot.pause()
        drawn = html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot())).replace("\xa0", " ")
        assert chance in drawn  # the column is as wide as its cells, not as its label
        progress = " ".join(str(app.screen.query_one("#mode-progress", Static).render()).split())
        assert all(line in progress for line in lines)
