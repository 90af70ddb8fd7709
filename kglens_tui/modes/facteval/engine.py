"""LLM-facteval mode: ask each planned TFQ / MCQ / SAQ under each context variant, score it with
abstention, and report precision, recall and F1 side by side per context."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from kglens_tui.answers.bias import YesNoBias, constant_right
from kglens_tui.answers.generated import BLANK, QUESTION, STATEMENT, rejected_source, rejection
from kglens_tui.answers.mentions import NameTable, TypeNames
from kglens_tui.answers.words import normalize
from kglens_tui.core.question_type import WH, YES_NO
from kglens_tui.kg.answer_names import AnswerNames
from kglens_tui.kg.graph import KGIndex
from kglens_tui.kg.labels import label_maps
from kglens_tui.llm.base import ChatClient, QuestionMeta
from kglens_tui.modes.chance import AskedQuestion, Chance, GroupChance, facteval_chance, tfq_bias
from kglens_tui.modes.config import FACTEVAL, FactevalConfig
from kglens_tui.modes.facteval.plan import MASK
from kglens_tui.modes.facteval.scoring import (
    ERROR,
    Scores,
    score_groups,
    score_mcq,
    score_saq,
    score_tfq,
)
from kglens_tui.modes.store import (
    AnswerRow,
    QuestionRow,
    load_answers,
    load_latest_answers,
    load_questions,
    predicate_ids,
    write_facteval_answers,
)
from kglens_tui.runs.prompts import load_prompt
from kglens_tui.runs.record import RunRecord
from kglens_tui.runs.units import ModeEngine, ModeSnapshot, QueryView, Reply, UnitResult, ask

ANSWER_PROMPTS = {
    ("tfq", "statement"): "facteval_tfq",
    ("mcq", "fib"): "facteval_mcq",
    ("mcq", "wh"): "facteval_mcq",
    ("saq", "fib"): "facteval_fib",
    ("saq", "wh"): "facteval_saq",
}
GENERATE_PROMPTS = {
    "statement": "facteval_generate_tfq",
    "fib": "facteval_generate_fib",
    "wh": "facteval_generate_wh",
}


def context_prefix(text: str) -> str:
    """How an injected fact precedes the instructions ('' without a context)."""
    return f"Context: {text}\n" if text else ""


SEVERAL = " If several answers are correct, return all of them as a list."
"""Appended to the fill-in-the-blank instruction on a multi-valued relation (`{several}`)."""


def answer_messages(
    q: QuestionRow, context: str, text: str | None = None, multi_valued: bool = False
) -> tuple[dict[str, str], ...]:
    """The chat messages asking question ``q`` under one context variant; on a multi-valued
    relation the fill-in-the-blank prompt asks for every answer."""
    prompt = load_prompt(ANSWER_PROMPTS[(q.qtype, q.format)])
    return prompt.render(
        context=context_prefix(q.contexts.get(context, "")),
        choices="; ".join(q.choices),
        question=text if text is not None else q.question,
        several=SEVERAL if multi_valued else "",
    )


def entity_names(kg: KGIndex) -> frozenset[str]:
    """Every entity's label and aliases, normalised: a short answer that is one of them names that
    entity, not part of a longer reference name (`contained_answers`)."""
    return frozenset(
        normalize(name)
        for label, aliases in zip(kg.labels, kg.aliases, strict=True)
        for name in (label, *aliases)
    )


def score(
    q: QuestionRow,
    reply: Reply,
    other_names: Collection[str] = frozenset(),
    rivals: NameTable | None = None,
    subject: Sequence[str] = (),
    also_true: Sequence[Sequence[str]] = (),
    answer_only: Sequence[AnswerNames] = (),
) -> tuple[str, int]:
    """(category, correct answers named) of one reply; ``other_names``: `entity_names`;
    ``rivals``, ``subject`` and ``also_true``: every name of the answer's type, the subject's
    names and the names of the fact's other true objects, so that an MCQ or SAQ reply naming
    another entity of that type beside a right answer is incorrect, as a KGLens Wh reply is
    (`kglens_tui.answers.verify.names_rival`); `ScoringNames` gives all three."""
    if reply.failed:
        return ERROR, 0
    if q.qtype == "tfq":
        return score_tfq(reply.text, q.truth), 0
    if q.qtype == "mcq":
        mcq = score_mcq(reply.text, q.answers, q.wrong, other_names, rivals, subject, also_true)
        return mcq, 0
    answers = tuple(
        (*group, *(extra.names if extra is not None else ()))
        for group, extra in zip(
            q.answers, [*answer_only, *[None] * len(q.answers)][: len(q.answers)], strict=True
        )
    )  # a short answer may give a right answer by a name only the sources know ("Wien")
    return score_saq(reply.text, answers, other_names, rivals, subject)


class ScoringNames:
    """For a run's questions: the names of every entity of the asked fact's object type (each
    type's table built once per run, `TypeNames`), the subject's names and the names of every
    true object of the subject and predicate (neither is ever a rival)."""

    def __init__(self, kg: KGIndex, node: dict[int, int]) -> None:
        self.kg = kg
        self._types = TypeNames(kg)
        self._node = node
        """Entity database id -> node index."""

    def of(
        self, q: QuestionRow
    ) -> tuple[NameTable | None, tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """(rival table, subject names, true objects' names) of a question; no table without
        the asked edge."""
        kg = self.kg
        s = self._node.get(q.subject_id)
        subject = kg.names(s) if s is not None else ()
        if q.edge_id is None or s is None:
            return None, subject, ()
        edge = kg.edge_position(q.edge_id)
        true = tuple(kg.names(int(t)) for t in kg.true_objects(s, int(kg.p[edge])))
        return self._types.table(kg.types[int(kg.o[edge])]), subject, true

    def answer_only(self, q: QuestionRow) -> tuple[AnswerNames, ...]:
        """The answer-only names of the question's correct answers (`TypeNames.answer_only`);
        none without the asked edge."""
        if q.edge_id is None or not self.kg.has_edge(q.edge_id):
            return ()
        edge = self.kg.edge_position(q.edge_id)
        return self._types.answer_only(self.kg.types[int(self.kg.o[edge])], q.answers)


class _MetaIds(TypedDict):
    """The QuestionMeta fields shared by every question type."""

    key: str
    edge_id: int
    subject: str
    predicate: str
    object: str
    context: str
    llm_written: bool


@dataclass(frozen=True)
class QuestionText:
    """The text a question was asked with (a generator may have written it)."""

    question_id: int
    text: str
    generator: str


@dataclass(frozen=True)
class SaqNamed:
    """Of all correct answers to the SAQ asked under a context, how many the replies named."""

    context: str
    named: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.named / self.total if self.total else None


@dataclass(frozen=True)
class FactevalMetrics:
    """Precision, recall and F1 per question type, format and context, over the answers so far."""

    questions: int
    questions_done: int
    """Questions answered under every context without a failed request (`question_answered`):
    the units done."""
    questions_failed: int
    """Questions asked under every context but with a failed request (asked again on resume)."""
    scores: tuple[Scores, ...]
    saq_named: tuple[SaqNamed, ...]
    chance: tuple[GroupChance, ...]
    """What guessers that ignore the question score on the same questions, per group."""
    tfq_bias: tuple[tuple[str, YesNoBias], ...]
    """Per context, how the true/false answers lean (yes = CORRECT) and bias-corrected scores."""

    def get(self, qtype: str, fmt: str, context: str) -> Scores | None:
        return next(
            (s for s in self.scores if (s.qtype, s.format, s.context) == (qtype, fmt, context)),
            None,
        )

    def chance_of(self, qtype: str, fmt: str, context: str) -> GroupChance | None:
        return next(
            (g for g in self.chance if (g.qtype, g.format, g.context) == (qtype, fmt, context)),
            None,
        )

    def best_chance_of(self, qtype: str, fmt: str, context: str) -> Chance | None:
        """The best constant guess of a group's questions (`chance_of`'s best), if any."""
        group = self.chance_of(qtype, fmt, context)
        return group.best if group is not None else None


def asked_question(q: QuestionRow, constant_right: bool = False) -> AskedQuestion:
    """What a question's chance levels need to know about it (``constant_right``: from
    `saq_constant_right`)."""
    return AskedQuestion(
        q.qtype, q.format, q.predicate_id, q.truth, len(q.choices), q.answers, constant_right
    )


def saq_constant_right(kg: KGIndex, questions: Sequence[QuestionRow]) -> dict[int, bool]:
    """By question id, for the short-answer questions whose fact is still in the KG: whether
    their relation's most common true object over the KG's active edges answers them
    (`answers.bias.constant_right`, the KGLens Wh guesser's answer)."""
    ids, positions = [], []
    for q in questions:
        if q.qtype == "saq" and q.edge_id is not None and kg.has_edge(q.edge_id):
            ids.append(q.id)
            positions.append(kg.edge_position(q.edge_id))
    return dict(zip(ids, constant_right(kg, positions).tolist(), strict=True))


def question_answered(q: QuestionRow, answers: Mapping[tuple[int, str], AnswerRow]) -> bool:
    """Whether the question was answered under every context, no request failed: a done unit. A
    question with a failed request is asked again on resume."""
    return all((q.id, c) in answers and answers[(q.id, c)].category != ERROR for c in q.contexts)


def facteval_metrics(
    questions: Sequence[QuestionRow],
    answers: Mapping[tuple[int, str], AnswerRow],
    saq_right: Mapping[int, bool] | None = None,
) -> FactevalMetrics:
    """Metrics from the questions and their answers keyed by (question id, context);
    ``saq_right``: `saq_constant_right` of the run's KG (none: the SAQ guesser is never right)."""
    rows = []
    named: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    asked: list[tuple[AskedQuestion, str]] = []
    tfq: dict[str, list[tuple[str, str]]] = defaultdict(list)
    done = failed = 0
    for q in questions:
        got = [answers[(q.id, c)] for c in q.contexts if (q.id, c) in answers]
        answered = question_answered(q, answers)
        done += answered
        failed += not answered and len(got) == len(q.contexts)
        shape = asked_question(q, bool(saq_right and saq_right.get(q.id)))
        for a in got:
            rows.append((q.qtype, q.format, a.context, a.category))
            if a.category == ERROR:
                continue
            asked.append((shape, a.context))
            if q.qtype == "tfq":
                tfq[a.context].append((q.truth, a.category))
            if q.qtype == "saq":
                named[a.context][0] += a.matched
                named[a.context][1] += len(q.answers)
    return FactevalMetrics(
        questions=len(questions),
        questions_done=done,
        questions_failed=failed,
        scores=tuple(score_groups(rows)),
        saq_named=tuple(SaqNamed(c, *v) for c, v in sorted(named.items())),
        chance=facteval_chance(asked),
        tfq_bias=tuple((c, tfq_bias(v)) for c, v in sorted(tfq.items())),
    )


def answer_view(q: QuestionRow, text: str, row: AnswerRow) -> QueryView:
    """How the live screen shows the reply ``row`` to question ``q`` asked as ``text`` (a
    generator may have written it), asked now or stored."""
    return QueryView(
        q.idx,
        f"{q.qtype}/{q.format}/{row.context}",
        text,
        row.reply or row.usage.error,
        row.category,
    )


def answers_by_key(rows: Iterable[AnswerRow]) -> dict[tuple[int, str], AnswerRow]:
    return {(a.question_id, a.context): a for a in rows}


FactevalRow = QuestionText | AnswerRow
"""What a fact-eval unit stores: a question a generator wrote, and the answers."""


class FactevalEngine(ModeEngine[FactevalConfig, FactevalMetrics, FactevalRow]):
    """Asks every planned question under each of its contexts (one unit per question)."""

    mode = FACTEVAL

    def __init__(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[FactevalConfig],
        kg: KGIndex,
        target: ChatClient,
        *,
        generator: ChatClient | None = None,
        on_progress: Callable[[ModeSnapshot[FactevalMetrics]], None] | None = None,
    ) -> None:
        super().__init__(conn, run, kg, target, generator=generator, on_progress=on_progress)
        self._saq_right: dict[int, bool] | None = None
        self.load_stored()
        self.names = label_maps(conn, kg.kg_id)
        self._entity_names = entity_names(kg)
        self._node = kg.node_of_entity
        self._names = ScoringNames(kg, self._node)
        self._pred = {p: i for i, p in enumerate(predicate_ids(conn, kg))}
        self._multi_valued = {
            row[0]
            for row in conn.execute(
                "SELECT id FROM predicate WHERE kg_id = ? AND multi_valued", (kg.kg_id,)
            )
        }
        self.load_totals(
            "SELECT COUNT(*), SUM(a.category = 'error'), SUM(a.retries), SUM(a.prompt_tokens), "
            "SUM(a.completion_tokens) FROM facteval_answer a JOIN facteval_question q "
            "ON q.id = a.question_id WHERE q.run_id = ?"
        )
        self._metrics = self.compute_metrics()

    def load_stored(self) -> None:
        self.questions = load_questions(self.conn, self.run.id)
        self.answers = answers_by_key(load_answers(self.conn, self.run.id))

    def units_total(self) -> int:
        return len(self.questions)

    def pending(self) -> list[int]:
        return [q.idx for q in self.questions if not question_answered(q, self.answers)]

    def compute_metrics(self) -> FactevalMetrics:
        if self._saq_right is None:
            self._saq_right = saq_constant_right(self.kg, self.questions)
        return facteval_metrics(self.questions, self.answers, self._saq_right)

    def units_failed(self, metrics: FactevalMetrics) -> int:
        return metrics.questions_failed

    def stored_views(self, limit: int) -> list[QueryView]:
        """The replies to the last questions answered, each question's in the order of its
        contexts (as asked), with the text it was asked with (stored with its answers)."""
        by_id = {q.id: q for q in self.questions}

        def asked(a: AnswerRow) -> tuple[int, int]:
            q = by_id[a.question_id]
            contexts = list(q.contexts)
            return q.idx, contexts.index(a.context) if a.context in contexts else len(contexts)

        latest = load_latest_answers(self.conn, self.run.id, limit)
        rows = sorted((a for a in latest if a.question_id in by_id), key=asked)
        return [answer_view(by_id[a.question_id], by_id[a.question_id].question, a) for a in rows][
            -limit:
        ]

    def store(self, results: list[UnitResult[FactevalRow]]) -> None:
        texts = [
            (row.question_id, row.text, row.generator)
            for r in results
            for row in r.rows
            if isinstance(row, QuestionText)
        ]
        answers = [row for r in results for row in r.rows if isinstance(row, AnswerRow)]
        write_facteval_answers(self.conn, texts, answers)

    def absorb(self, result: UnitResult[FactevalRow]) -> None:
        for row in result.rows:
            if isinstance(row, AnswerRow):
                self.answers[(row.question_id, row.context)] = row

    def _meta(self, q: QuestionRow, context: str, generator: str) -> QuestionMeta:
        """What a simulated target is told: the question's edge, answers and form (its context,
        whether a generator wrote it)."""
        kg = self.kg
        s = self._node[q.subject_id]
        obj = kg.entity_keys[int(kg.o[kg.edge_position(q.edge_id)])] if q.edge_id else ""
        labels = tuple(a[0] for a in q.answers)
        common: _MetaIds = {
            "key": f"f{q.idx}:{context}",
            "edge_id": q.edge_id if q.edge_id is not None else -1,
            "subject": kg.entity_keys[s],
            "predicate": kg.pred_keys[self._pred[q.predicate_id]],
            "object": obj,
            "context": "" if context == "none" else context,
            "llm_written": generator.startswith("llm:"),
        }
        if q.qtype == "tfq":
            shown = labels[0] if q.truth == "true" else q.wrong[0][0]
            return QuestionMeta(
                **common,
                qtype=YES_NO,
                expected="yes" if q.truth == "true" else "no",
                candidate_label=shown,
                true_labels=labels,
            )
        true = labels if q.qtype == "mcq" else tuple(a for group in q.answers for a in group)
        return QuestionMeta(
            **common, qtype=WH, true_labels=true, wrong_labels=tuple(w[0] for w in q.wrong)
        )

    async def _generate(self, q: QuestionRow) -> tuple[str, str]:
        """The generator's question, or the template question when it fails or leaks."""
        generator = self.generator
        assert generator is not None
        obj = q.answers[0][0] if q.truth != "false" else q.wrong[0][0]
        messages = load_prompt(GENERATE_PROMPTS[q.format]).render(
            subject=self.names["entity"].get(q.subject_id, ""),
            predicate=self.names["predicate"].get(q.predicate_id, ""),
            object=obj,
        )
        reply = await self.limited(lambda: ask(generator, messages, max_tokens=80, temperature=0.0))
        if reply.failed:
            return q.question, f"template (generator failed: {reply.usage.error.split(':')[0]})"
        text = reply.text.strip().splitlines()[0].strip() if reply.text.strip() else ""
        if not text:
            return q.question, "template (generator gave no question)"
        kg, s = self.kg, self._node[q.subject_id]
        form = {"statement": STATEMENT, "fib": BLANK, "wh": QUESTION}[q.format]
        why = rejection(
            text,
            subject_names=kg.names(s),
            asked_names=(obj,) if form == STATEMENT else (),
            answer_names=q.answers if form != STATEMENT else (),
            form=form,
            mask=MASK,
        )
        if why:
            return q.question, rejected_source(why)
        return text, f"llm:{generator.label}"

    async def _ask_one(
        self, q: QuestionRow, context: str, text: str, generator: str
    ) -> tuple[AnswerRow, Reply]:
        messages = answer_messages(q, context, text, q.predicate_id in self._multi_valued)
        meta = self._meta(q, context, generator)
        reply = await self.limited(
            lambda: ask(
                self.target,
                messages,
                max_tokens=self.config.max_tokens,
                temperature=self.config.temperature,
                meta=meta,
            )
        )
        category, matched = score(
            q, reply, self._entity_names, *self._names.of(q), self._names.answer_only(q)
        )
        row = AnswerRow(
            q.id,
            context,
            reply.text,
            category,
            matched,
            reply.usage,
        )
        return row, reply

    async def run_unit(self, unit: int) -> UnitResult[FactevalRow]:
        q = self.questions[unit]
        text, generator = q.question, q.generator
        if self.generator is not None and generator == "template":
            text, generator = await self._generate(q)
        done = await asyncio.gather(*(self._ask_one(q, c, text, generator) for c in q.contexts))
        rows: list[FactevalRow] = [QuestionText(q.id, text, generator), *(row for row, _ in done)]
        views = [answer_view(q, text, row) for row, _ in done]
        return UnitResult(unit, rows, [reply for _, reply in done], views)
