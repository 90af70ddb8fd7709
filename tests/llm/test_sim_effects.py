"""The simulated target's effects of question form: each contrast of the papers shows on `sim`
when its effect is set, the real mode run recovers it within its 95% interval, and finds none
when it is set to 0. The expected effect is the simulator's own: the mean of its true error rates
over the questions each arm asked."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Sequence

import numpy as np
import pytest

from kglens_tui.core.intervals import wilson
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import ChatRequest, Completion, QuestionMeta
from kglens_tui.llm.factory import make_client
from kglens_tui.llm.sim_effects import SIM_OPTIONS, SimEffects, parse_sim_arg
from kglens_tui.llm.simulated import SimulatedClient
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.questions import QuestionFactory, rephrase_with_llm
from kglens_tui.modes.kontest.compare import add_template3
from kglens_tui.modes.kontest.metrics import ensemble_inputs
from kglens_tui.runs.config import ConfigError, check_new_run
from kglens_tui.runs.fields import field_help
from kglens_tui.runs.runner import prepare, run_blocking

EDGES = [(i, f"e:{i % 17}", f"p:{i % 5}", f"e:{(i * 7 + 3) % 17}") for i in range(60)]


def yes_no(edge_id: int, key: str, **form: object) -> QuestionMeta:
    _, s, p, o = EDGES[edge_id]
    return QuestionMeta(key, edge_id, s, p, o, "yes_no", "yes", "Label", **form)  # type: ignore[arg-type]


# --- the options --------------------------------------------------------------------------------


def test_a_sim_spec_takes_a_seed_and_named_options() -> None:
    assert parse_sim_arg("") == (None, SimEffects())
    assert parse_sim_arg("3") == (3, SimEffects())
    seed, effects = parse_sim_arg("wh_penalty=0, context_relevant=-2.5,7")
    assert seed == 7 and effects == SimEffects(wh_penalty=0.0, context_relevant=-2.5)
    client = make_client("sim:4,yes_bias=1", edges=EDGES)
    assert isinstance(client, SimulatedClient)
    assert client.seed == 4 and client.effects.yes_bias == 1.0


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("bogus=1", "unknown sim option 'bogus'"),
        ("wh_penalty=high", "needs a number"),
        ("wh_penalty=1,wh_penalty=2", "given twice"),
        ("1,2", "two seeds"),
        ("x", "must be an integer"),
        ("refusal_rate=1.5", "between 0 and 1"),
        ("yes_bias=nan", "finite"),
    ],
)
def test_a_bad_sim_option_is_refused_with_the_run_settings(arg: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sim_arg(arg)
    with pytest.raises(ConfigError, match=message):
        check_new_run(RunConfig(target=f"sim:{arg}"))


def test_the_target_help_names_every_option() -> None:
    help_text = field_help(RunConfig)["target"]
    assert all(name in help_text for name in SIM_OPTIONS), help_text


def test_a_plain_kglens_yes_no_question_keeps_the_base_rate_and_answer() -> None:
    """Existing KGLens runs on `sim` answer as before: the plain form has no shift, whatever
    the options of forms it is not in."""
    plain = SimulatedClient(EDGES, seed=5)
    zero = {name: 0.0 for name in SIM_OPTIONS if name != "refusal_rate"}
    moved = SimulatedClient(EDGES, seed=5, effects=SimEffects(**{**zero, "wh_penalty": 3.0}))
    for k in range(200):
        m = yes_no(k % 60, f"it{k}:s0:e{k % 60}")
        assert plain.error_rate(m) == plain.true_error_rate[m.edge_id]
        assert plain.answer(m) == moved.answer(m)


def test_each_form_shifts_the_error_logit_by_its_option() -> None:
    effects = SimEffects()
    base = yes_no(0, "k")
    cases = {
        "wh_penalty": dataclasses.replace(base, qtype="wh", expected=""),
        "template2": dataclasses.replace(base, template=2),
        "template3": dataclasses.replace(base, template=3),
        "context_relevant": dataclasses.replace(base, context="relevant"),
        "context_irrelevant": dataclasses.replace(base, context="irrelevant"),
        "context_antifactual": dataclasses.replace(base, context="antifactual"),
        "llm_written": dataclasses.replace(base, llm_written=True),
    }
    for name, meta in cases.items():
        assert effects.shift(meta) == getattr(effects, name), name
    biased = SimEffects(yes_bias=0.7)
    assert biased.shift(base) == -0.7
    assert biased.shift(dataclasses.replace(base, expected="no")) == 0.7
    assert effects.shift(base) == 0.0


def test_paraphrases_of_a_fact_share_their_answer_but_for_the_inconsistency() -> None:
    """KONTEST: two phrasings disagree less often than independent answers would, and as often
    as independent ones with paraphrase_inconsistency=1."""

    def disagreement(inconsistency: float) -> float:
        effects = SimEffects(
            template2=0.0, paraphrase_inconsistency=inconsistency, refusal_rate=0.0
        )
        client = SimulatedClient(EDGES, seed=1, base_skill=0.0, effects=effects)
        differ = 0
        for k in range(60):
            first = client.answer(yes_no(k, f"k{k}:t1:first", template=1))
            second = client.answer(yes_no(k, f"k{k}:t2:first", template=2))
            differ += first[:2] != second[:2]  # "Ye" or "No"
        return differ / 60

    assert disagreement(0.0) == 0.0
    assert disagreement(0.3) < disagreement(1.0)
    assert disagreement(1.0) > 0.25


# --- the contrasts, through the real mode runs ------------------------------------------------


class Recording:
    """The simulated target as a run builds it from its spec, keeping what it was asked."""

    def __init__(self, conn: sqlite3.Connection, kg: str, spec: str) -> None:
        index = load_kg(conn, kg)
        edges = [
            (
                int(index.edge_ids[i]),
                index.entity_keys[int(index.s[i])],
                index.pred_keys[int(index.p[i])],
                index.entity_keys[int(index.o[i])],
            )
            for i in range(len(index.edge_ids))
        ]
        self.client = make_client(spec, edges=edges)
        assert isinstance(self.client, SimulatedClient)
        self.label = self.client.label
        self.simulated = True
        self.asked: dict[str, QuestionMeta] = {}

    async def complete(self, request: ChatRequest) -> Completion:
        assert request.meta is not None
        self.asked[request.meta.key] = request.meta
        return await self.client.complete(request)

    async def aclose(self) -> None:
        return None

    def expected(self, keys: Sequence[str]) -> float:
        """The mean true error rate over the questions with these keys."""
        return sum(self.client.error_rate(self.asked[k]) for k in keys) / len(keys)


@dataclasses.dataclass(frozen=True)
class Arm:
    wrong: int
    n: int
    expected: float


def check(a: Arm, b: Arm, effect_on: bool) -> None:
    """b minus a: the expected difference lies in the 95% interval of the observed one
    (Newcombe's, from the Wilson intervals); with the effect on it excludes 0, off it holds 0."""
    pa, pb = wilson(a.wrong, a.n), wilson(b.wrong, b.n)
    la, ha, lb, hb = pa.low, pa.high, pb.low, pb.high
    observed = b.wrong / b.n - a.wrong / a.n
    low = observed - ((b.wrong / b.n - lb) ** 2 + (ha - a.wrong / a.n) ** 2) ** 0.5
    high = observed + ((hb - b.wrong / b.n) ** 2 + (a.wrong / a.n - la) ** 2) ** 0.5
    expected = b.expected - a.expected
    assert low <= expected <= high, (a, b, low, high)
    if effect_on:
        assert low > 0 or high < 0, (a, b, low, high)
    else:
        assert low <= 0 <= high, (a, b, low, high)
        assert abs(expected) < 0.02, (a, b)


def spec(options: str) -> str:
    return f"sim:2,refusal_rate=0,{options}"


@pytest.mark.parametrize("penalty", [1.5, 0.0])
def test_hard_wh_questions_err_more_than_easy_yes_no_ones(
    conn: sqlite3.Connection, penalty: float
) -> None:
    """KGLens Table 3: EASY (Yes/No only) against HARD (half Wh), slot by slot of the same
    edges (brute force asks them in the same order)."""
    ensure_kg(conn, "country")
    arms = {}
    for difficulty in ("easy", "hard"):
        target = Recording(conn, "country", spec(f"wh_penalty={penalty}"))
        config = RunConfig(
            kg="country",
            subset="paper16",
            difficulty=difficulty,
            sampler="brute-force",
            scheduling="sync",
            iterations=8,
            batch_size=64,
            stop_on_convergence=False,
            seed=4,
        )
        snap = run_blocking(prepare(conn, config=config, target=target))
        rows = conn.execute(
            "SELECT iteration, slot, edge_id, qtype, category FROM observation WHERE run_id = ?",
            (snap.run_id,),
        ).fetchall()
        arms[difficulty] = ({(r[0], r[1]): r for r in rows}, target)
    hard_rows, hard = arms["hard"]
    easy_rows, easy = arms["easy"]
    slots = [s for s, r in hard_rows.items() if r[3] == "wh" and s in easy_rows]
    assert len(slots) > 150 and all(hard_rows[s][2] == easy_rows[s][2] for s in slots)

    def arm(rows: dict, target: Recording) -> Arm:
        keys = [f"it{rows[s][0]}:s{rows[s][1]}:e{rows[s][2]}" for s in slots]
        wrong = sum(rows[s][4] != "correct" for s in slots)
        return Arm(wrong, len(slots), target.expected(keys))

    check(arm(easy_rows, easy), arm(hard_rows, hard), penalty != 0)


@pytest.mark.parametrize(
    ("options", "effect_on"),
    [("template2=1.5,template3=0", True), ("template2=0.5,template3=0.5", False)],
)
def test_the_unseen_template_3_differs_from_template_2_by_its_shift(
    conn: sqlite3.Connection, options: str, effect_on: bool
) -> None:
    """KONTEST Table 5's "3 (unseen)" row: a `template3` run asks template 3 where the ordinary
    run asks template 2, on the same relations; the gap is the share of these true facts
    answered no."""
    ensure_kg(conn, "country")
    targets, runs = [], []
    for template3 in (False, True):
        target = Recording(conn, "country", spec(options))
        config = KontestConfig(kg="country", relations=300, seed=5, template3=template3)
        runs.append(run_blocking(prepare(conn, config=config, target=target)).run_id)
        targets.append(target)
    answers, _errors = ensemble_inputs(conn, runs[:1])
    add_template3(conn, answers, runs[:1], runs[1:])
    by_template = [a for a in answers[0].values() if {a[2], a[3]} <= {"yes", "no"}]
    assert len(by_template) > 250

    def arm(template: int, target: Recording) -> Arm:
        keys = [k for k in target.asked if k.endswith(f":t{template}:first")]
        wrong = sum(a[template] == "no" for a in by_template)
        return Arm(wrong, len(by_template), target.expected(keys))

    check(arm(2, targets[0]), arm(3, targets[1]), effect_on)


@pytest.mark.parametrize("effect_on", [True, False])
def test_contexts_move_the_true_false_answers_by_their_shifts(
    conn: sqlite3.Connection, effect_on: bool
) -> None:
    """LLM-facteval Fig. 2: relevant context helps, antifactual misleads (irrelevant hardly
    moves the answers, so only its expected value is checked), against no context."""
    ensure_kg(conn, "country")
    shifts = "context_relevant=-2,context_antifactual=1.5" if effect_on else ""
    zero = "context_relevant=0,context_irrelevant=0,context_antifactual=0"
    target = Recording(conn, "country", spec(shifts or zero))
    contexts = ["none", "relevant", "irrelevant", "antifactual"]
    config = FactevalConfig(kg="country", facts=300, qtypes=["tfq"], contexts=contexts, seed=6)
    engine = prepare(conn, config=config, target=target)
    run_blocking(engine)
    scores = {s.context: s for s in engine.compute_metrics().scores if s.qtype == "tfq"}

    def arm(context: str) -> Arm:
        s = scores[context]
        keys = [k for k in target.asked if k.endswith(f":{context}")]
        return Arm(s.total - s.correct, s.total, target.expected(keys))

    assert scores["none"].total > 250
    for context in ("relevant", "antifactual"):
        check(arm("none"), arm(context), effect_on)
    irrelevant = arm("irrelevant")
    _, low, high = wilson(irrelevant.wrong, irrelevant.n).bounds
    assert low is not None and high is not None and low <= irrelevant.expected <= high


class Writer:
    """A question writer whose true/false statements pass the checks: "As recorded, S has P O."
    from the generator prompt's (subject, predicate, object)."""

    label = "writer"
    simulated = False

    async def complete(self, request: ChatRequest) -> Completion:
        prompt = request.messages[-1]["content"]
        s, p, o = prompt.rsplit("? (", 1)[1].removesuffix(")").split(", ", 2)
        return Completion(f"As recorded, {s} has {p} {o}.", 5, 5, 0.0)

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize("written", [1.5, 0.0])
def test_llm_written_questions_score_apart_from_template_ones(
    conn: sqlite3.Connection, written: float
) -> None:
    """LLM-facteval's template against GPT-3.5 questions: two runs on the same facts, one with a
    generator; compared on the facts whose question the generator wrote."""
    ensure_kg(conn, "country")
    rows, targets = [], []
    for generator in (None, Writer()):
        target = Recording(conn, "country", spec(f"llm_written={written}"))
        config = FactevalConfig(kg="country", facts=300, qtypes=["tfq"], seed=7)
        engine = prepare(conn, config=config, target=target)
        engine.generator = generator
        run_id = run_blocking(engine).run_id
        rows.append(
            {
                idx: (generator_name, category)
                for idx, generator_name, category in conn.execute(
                    "SELECT q.idx, q.generator, a.category FROM facteval_question q "
                    "JOIN facteval_answer a ON a.question_id = q.id WHERE q.run_id = ?",
                    (run_id,),
                )
            }
        )
        targets.append(target)
    written_by = [i for i, (g, _) in rows[1].items() if g.startswith("llm:")]
    assert len(written_by) > 250

    def arm(i: int) -> Arm:
        wrong = sum(rows[i][idx][1] != "correct" for idx in written_by)
        keys = [f"f{idx}:none" for idx in written_by]
        return Arm(wrong, len(written_by), targets[i].expected(keys))

    check(arm(0), arm(1), written != 0)


class YesNoWriter:
    """Writes KGLens Yes/No questions from the generator prompt's SUBJECT, PREDICT, OBJECT."""

    label = "yes-no writer"
    simulated = False

    async def complete(self, request: ChatRequest) -> Completion:
        line = request.messages[-1]["content"]
        fields = dict(part.split(" is ", 1) for part in line.split(", ") if " is " in part)
        text = f"Is {fields['OBJECT']} the {fields['PREDICT']} of {fields['SUBJECT']}?"
        return Completion(text, 5, 5, 0.0)

    async def aclose(self) -> None:
        return None


def test_a_kglens_question_a_generator_wrote_tells_the_target_so(
    conn: sqlite3.Connection,
) -> None:
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    factory = QuestionFactory(kg, np.arange(40), "easy", seed=1)
    written = [
        asyncio.run(rephrase_with_llm(factory.make(i, i, 0), kg, YesNoWriter())) for i in range(40)
    ]
    by_llm = [q for q in written if q.generator.startswith("llm:")]
    assert by_llm and all(q.meta.llm_written for q in by_llm)
    assert all(not q.meta.llm_written for q in written if not q.generator.startswith("llm:"))
