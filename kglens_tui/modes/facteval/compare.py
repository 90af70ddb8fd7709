"""Fact-eval across runs and relations: per-relation scores, F1 per KG x model x question type x
context (LLM-facteval Table 2, Figs. 2/4), and template- vs LLM-written questions on the same facts."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from kglens_tui.core.safetext import LiteralTable
from kglens_tui.kg.graph import KGIndex, load_kg
from kglens_tui.modes.compare_sets import choose_partners, shared_notes
from kglens_tui.modes.config import CONTEXTS, FACTEVAL
from kglens_tui.modes.facteval.engine import (
    FactevalMetrics,
    facteval_metrics,
    saq_constant_right,
)
from kglens_tui.modes.facteval.scoring import ALL, ERROR, Scores, score_groups
from kglens_tui.modes.store import AnswerRow, QuestionRow, load_answers, load_questions
from kglens_tui.runs.config import ModeConfig
from kglens_tui.runs.panels import Panel, numbered_rows
from kglens_tui.runs.record import RunRecord, load_run
from kglens_tui.textfmt import counted, pct, rate_ci

TEMPLATE, LLM = "template", "llm"


def question_source(q: QuestionRow) -> str:
    """'llm' for a question a generator model wrote, 'template' otherwise (fallbacks included)."""
    return LLM if q.generator.startswith("llm:") else TEMPLATE


def per_relation(
    questions: Sequence[QuestionRow], answers: Mapping[tuple[int, str], AnswerRow]
) -> dict[tuple[int, str], Scores]:
    """Scores of every question type together, per (predicate id, context)."""
    rows: dict[int, list[tuple[str, str, str, str]]] = defaultdict(list)
    for q in questions:
        for c in q.contexts:
            a = answers.get((q.id, c))
            if a is not None:
                rows[q.predicate_id].append((q.qtype, q.format, c, a.category))
    return {
        (p, s.context): s
        for p, group in rows.items()
        for s in score_groups(group)
        if s.qtype == ALL
    }


def per_relation_chance(
    questions: Sequence[QuestionRow],
    answers: Mapping[tuple[int, str], AnswerRow],
    saq_right: Mapping[int, bool],
) -> dict[tuple[int, str], float]:
    """What the best blind guess per question type scores on each (predicate id, context)'s
    answered questions: `facteval_metrics`' chance of the predicate's questions alone
    (``saq_right``: `saq_constant_right`)."""
    by_predicate: dict[int, list[QuestionRow]] = defaultdict(list)
    for q in questions:
        by_predicate[q.predicate_id].append(q)
    return {
        (p, g.context): best.value
        for p, asked in by_predicate.items()
        for g in facteval_metrics(asked, answers, saq_right).chance
        if g.qtype == ALL and (best := g.best) is not None
    }


def per_relation_panel(
    scores: Mapping[tuple[int, str], Scores],
    labels: Mapping[int, str],
    chance: Mapping[tuple[int, str], float],
) -> Panel:
    """F1 with its interval and chance, and the abstention rate, per predicate (and context, when
    the run has several)."""
    several = len({context for _, context in scores}) > 1
    columns = ("relation", *(["context"] if several else []), "n", "F1 [95%]")
    order = sorted(scores, key=lambda k: (labels.get(k[0], str(k[0])), CONTEXTS.index(k[1])))
    rows = [
        (
            labels.get(p, str(p)),
            *([context] if several else []),
            f"{scores[(p, context)].total:,}",
            rate_ci(scores[(p, context)].f1, *scores[(p, context)].f1_ci),
            pct(chance.get((p, context))),
            rate_ci(*scores[(p, context)].abstention_ci.bounds),
        )
        for p, context in order
    ]
    return Panel(
        "per-relation",
        "LLM-facteval per relation (every question type)",
        (*columns, "chance", "abstained"),
        numbered_rows(rows),
        caption="F1 [95%] as above; chance: the best blind guess per question type on the "
        "relation's questions; n: questions replied to.",
        align="l" * (len(columns) - 2) + "rrrr",
    )


def load_per_relation(
    conn: sqlite3.Connection, run_id: int
) -> tuple[dict[tuple[int, str], Scores], dict[int, str], dict[tuple[int, str], float]]:
    """One stored fact-eval run's scores, relation labels and chance per (predicate id,
    context): what `per_relation_panel` and the per-relation figure show."""
    run = load_run(conn, run_id, FACTEVAL)
    answers = {(a.question_id, a.context): a for a in load_answers(conn, run_id)}
    labels = dict(conn.execute("SELECT id, label FROM predicate WHERE kg_id = ?", (run.kg_id,)))
    questions = load_questions(conn, run_id)
    right = saq_constant_right(load_kg(conn, run.kg_name), questions)
    return (
        per_relation(questions, answers),
        labels,
        per_relation_chance(questions, answers, right),
    )


def run_per_relation_panel(conn: sqlite3.Connection, run_id: int) -> Panel:
    """`per_relation_panel` of one stored fact-eval run."""
    return per_relation_panel(*load_per_relation(conn, run_id))


@dataclass(frozen=True)
class RunScores:
    """One run's scores per (question type, format, context, question source)."""

    run: RunRecord[ModeConfig]
    questions: tuple[QuestionRow, ...]
    answers: Mapping[tuple[int, str], AnswerRow]
    saq_right: Mapping[int, bool]
    """`saq_constant_right` of its questions on the run's KG."""

    @property
    def column(self) -> str:
        return f"{self.run.target_label} (run {self.run.id})"

    def scores(self, keep: set[FactKey] | None = None) -> dict[tuple[str, str, str, str], Scores]:
        """Scores keyed by (qtype, format, context, source); ``keep``: only these `fact_key`s."""
        rows: dict[str, list[tuple[str, str, str, str]]] = defaultdict(list)
        for q in self.questions:
            if keep is not None and fact_key(q) not in keep:
                continue
            for c in q.contexts:
                a = self.answers.get((q.id, c))
                if a is not None:
                    rows[question_source(q)].append((q.qtype, q.format, c, a.category))
        return {
            (s.qtype, s.format, s.context, source): s
            for source, group in rows.items()
            for s in score_groups(group)
        }


FactKey = tuple[int | None, int, int, str, str, str]
"""(edge_id, subject_id, predicate_id, qtype, format, truth): see `fact_key`."""


def fact_key(q: QuestionRow) -> FactKey:
    """The same question about the same fact in another run of the same KG."""
    return (q.edge_id, q.subject_id, q.predicate_id, q.qtype, q.format, q.truth)


def answered_facts(r: RunScores) -> set[FactKey]:
    """The `fact_key`s of the run's questions answered in every context they were asked in (no
    reply missing, no failed request)."""
    return {
        fact_key(q)
        for q in r.questions
        if all(
            (a := r.answers.get((q.id, c))) is not None and a.category != ERROR for c in q.contexts
        )
    }


def shared_facts(runs: Sequence[RunScores]) -> dict[str, set[FactKey]]:
    """Per KG, the `fact_key`s every run of that KG answered (`answered_facts`): the questions
    `compare_table` compares."""
    by_kg: dict[str, list[set[FactKey]]] = defaultdict(list)
    for r in runs:
        by_kg[r.run.kg_name].append(answered_facts(r))
    return {kg: set.intersection(*sets) for kg, sets in by_kg.items()}


SAME_FACTS = "same --facts, --qtypes, --formats and --seed"
"""How to make fact-eval runs on the same questions."""


def facteval_partners(
    conn: sqlite3.Connection, run_id: int, peers: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Of ``peers`` (other fact-eval runs of run ``run_id``'s KG), those to compare it with by
    default and those left out (`choose_partners` over the questions each answered)."""
    own, *others = (answered_facts(r) for r in load_run_scores(conn, [run_id, *peers]))
    return choose_partners(own, dict(zip(peers, others, strict=True)))


def facteval_compare_renderables(runs: Sequence[RunScores]) -> list[LiteralTable | Text]:
    """`compare_table` and the `generator_table`s, after a note per KG whose runs answered
    different questions; only the notes when no KG's runs share a question."""
    shared = shared_facts(runs)
    notes: list[LiteralTable | Text] = []
    for kg, facts in shared.items():
        of_kg = [r for r in runs if r.run.kg_name == kg]
        note = shared_notes(
            [r.run for r in of_kg],
            [len(answered_facts(r)) for r in of_kg],
            len(facts),
            "question",
            SAME_FACTS,
        )
        if note is not None and len(of_kg) > 1:
            notes.append(note)
    if not any(shared.values()):
        return notes
    return [
        *notes,
        compare_table(runs),
        *(generator_table(*pair) for pair in generator_pairs(runs)),
    ]


def load_run_scores(conn: sqlite3.Connection, run_ids: Sequence[int]) -> list[RunScores]:
    """Every run's questions and answers (each must be a fact-eval run)."""
    out = []
    kgs: dict[str, KGIndex] = {}
    for run_id in run_ids:
        run = load_run(conn, run_id, FACTEVAL)
        answers = {(a.question_id, a.context): a for a in load_answers(conn, run_id)}
        questions = tuple(load_questions(conn, run_id))
        if run.kg_name not in kgs:
            kgs[run.kg_name] = load_kg(conn, run.kg_name)
        right = saq_constant_right(kgs[run.kg_name], questions)
        out.append(RunScores(run, questions, answers, right))
    return out


def _cell(s: Scores | None, chance: float | None) -> Text | str:
    """F1 with its interval, what the best blind guess scores on the same questions, and the
    abstention rate with its interval and n, a line each."""
    if s is None or s.total == 0:
        return "—"
    return Text(
        f"{rate_ci(s.f1, *s.f1_ci)}\nchance {pct(chance)}\n"
        f"abst. {rate_ci(*s.abstention_ci.bounds)}\nn={s.total:,}"
    )


def _row_name(qtype: str, fmt: str) -> str:
    return "all" if qtype == ALL else f"{qtype.upper()} {fmt}"


def compare_table(runs: Sequence[RunScores]) -> LiteralTable:
    """F1 · abstention rate per KG x question type x context (rows) and model (columns), each
    with its interval, chance and n, over the questions every run of the KG answered
    (`shared_facts`)."""
    t = LiteralTable(
        title="LLM-facteval F1 · abstention rate per KG, question type, context and model "
        "(Table 2)",
        title_justify="left",
        caption="Over the questions every run of the KG answered. Each cell: F1 [95%], what the "
        "best blind guess scores on those questions, the abstention rate [95%] and n, the "
        "questions replied to.",
        caption_justify="left",
    )
    for col in ("KG", "question", "context"):
        t.add_column(col)
    for r in runs:
        t.add_column(r.column, justify="right")
    shared = shared_facts(runs)
    merged = [_merge_sources(r.scores(shared[r.run.kg_name])) for r in runs]
    chances = [
        facteval_metrics(
            [q for q in r.questions if fact_key(q) in shared[r.run.kg_name]],
            r.answers,
            r.saq_right,
        )
        for r in runs
    ]
    keys = sorted(
        {(r.run.kg_name, *k) for r, m in zip(runs, merged, strict=True) for k in m},
        key=lambda k: (k[0], k[1] == ALL, k[1], k[2], CONTEXTS.index(k[3])),
    )
    for kg, qtype, fmt, context in keys:
        t.add_row(
            kg,
            _row_name(qtype, fmt),
            context,
            *(
                _cell(m.get((qtype, fmt, context)), _best(c, qtype, fmt, context))
                if r.run.kg_name == kg
                else "—"
                for r, m, c in zip(runs, merged, chances, strict=True)
            ),
        )
    return t


def _best(m: FactevalMetrics, qtype: str, fmt: str, context: str) -> float | None:
    best = m.best_chance_of(qtype, fmt, context)
    return None if best is None else best.value


def _merge_sources(
    scores: Mapping[tuple[str, str, str, str], Scores],
) -> dict[tuple[str, str, str], Scores]:
    """Template and LLM-written questions together, per (qtype, format, context)."""
    out: dict[tuple[str, str, str], Scores] = {}
    for (qtype, fmt, context, _source), s in scores.items():
        old = out.get((qtype, fmt, context))
        out[(qtype, fmt, context)] = s if old is None else _add(old, s)
    return out


def _add(a: Scores, b: Scores) -> Scores:
    return Scores(
        a.qtype,
        a.format,
        a.context,
        a.correct + b.correct,
        a.incorrect + b.incorrect,
        a.abstained + b.abstained,
        a.unparseable + b.unparseable,
        a.errors + b.errors,
    )


def generator_pairs(
    runs: Sequence[RunScores],
) -> list[tuple[RunScores, RunScores, set[FactKey]]]:
    """(template run, LLM-question run, facts both asked) for runs of one KG and one model where
    one asked only template questions and the other asked some a generator model wrote."""
    out = []
    for a in runs:
        for b in runs:
            same = (a.run.kg_name, a.run.target_label) == (b.run.kg_name, b.run.target_label)
            if not same or any(question_source(q) == LLM for q in a.questions):
                continue
            llm_facts = {fact_key(q) for q in b.questions if question_source(q) == LLM}
            shared = {fact_key(q) for q in a.questions} & llm_facts
            if shared:
                out.append((a, b, shared))
    return out


def generator_table(template: RunScores, llm: RunScores, shared: set[FactKey]) -> LiteralTable:
    """F1 · abstention rate of template and LLM-written questions on the same facts, each with
    its interval, chance and n."""
    t = LiteralTable(
        title=f"Template (run {template.run.id}) vs LLM-written questions (run {llm.run.id}) on "
        f"the same {counted(len(shared), 'fact')}",
        title_justify="left",
    )
    for col in ("question", "context", "template", "LLM-written", "answers"):
        t.add_column(col, justify="left" if col in ("question", "context") else "right")
    left = _merge_sources(template.scores(shared))
    right = {k[:3]: s for k, s in llm.scores(shared).items() if k[3] == LLM}
    on_left = facteval_metrics(
        [q for q in template.questions if fact_key(q) in shared],
        template.answers,
        template.saq_right,
    )
    on_right = facteval_metrics(
        [q for q in llm.questions if fact_key(q) in shared and question_source(q) == LLM],
        llm.answers,
        llm.saq_right,
    )
    for key in sorted(
        set(left) & set(right), key=lambda k: (k[0] == ALL, k[0], k[1], CONTEXTS.index(k[2]))
    ):
        t.add_row(
            _row_name(key[0], key[1]),
            key[2],
            _cell(left[key], _best(on_left, *key)),
            _cell(right[key], _best(on_right, *key)),
            f"{left[key].total:,} / {right[key].total:,}",
        )
    return t
