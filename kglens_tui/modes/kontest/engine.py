"""KONTEST mode: ask each relation's two paraphrases atomically and in both sequential orders;
the oracles and coverage over the answers are in `kontest_metrics`."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from kglens_tui.answers.generated import rejected_source, rejection
from kglens_tui.answers.verify import first_word_answer
from kglens_tui.answers.words import normalize
from kglens_tui.core.question_type import YES_NO
from kglens_tui.kg.graph import KGIndex
from kglens_tui.kg.labels import label_maps
from kglens_tui.llm.base import ChatClient, QuestionMeta
from kglens_tui.llm.usage import HelperRole
from kglens_tui.modes.config import KONTEST, KontestConfig
from kglens_tui.modes.kontest.metrics import (
    CONVERSATIONS,
    KontestMetrics,
    answers_by_relation,
    kontest_metrics,
    relation_answered,
)
from kglens_tui.modes.kontest.oracles import ERROR, INVALID
from kglens_tui.modes.store import (
    KontestQueryRow,
    RelationRow,
    load_kontest_queries,
    load_latest_kontest_queries,
    load_paths,
    load_relations,
    predicate_ids,
    write_kontest_queries,
)
from kglens_tui.runs.prompts import load_prompt
from kglens_tui.runs.record import RunRecord
from kglens_tui.runs.units import ModeEngine, ModeSnapshot, QueryView, Reply, UnitResult, ask


def classify(reply: Reply) -> str:
    """yes / no from the reply's first word; invalid otherwise; error for a failed request."""
    if reply.failed:
        return ERROR
    return first_word_answer(reply.text) or INVALID


def query_view(q: KontestQueryRow) -> QueryView:
    """How the live screen shows one query (the unit is its relation), asked now or stored."""
    return QueryView(
        q.relation, f"{q.conversation}:{q.turn}", q.question, q.reply or q.usage.error, q.answer
    )


class KontestEngine(ModeEngine[KontestConfig, KontestMetrics, KontestQueryRow]):
    """Asks every planned relation its six questions (one unit per relation)."""

    mode = KONTEST
    helper_role = HelperRole.PARAPHRASER

    def __init__(
        self,
        conn: sqlite3.Connection,
        run: RunRecord[KontestConfig],
        kg: KGIndex,
        target: ChatClient,
        *,
        generator: ChatClient | None = None,
        on_progress: Callable[[ModeSnapshot[KontestMetrics]], None] | None = None,
    ) -> None:
        super().__init__(conn, run, kg, target, generator=generator, on_progress=on_progress)
        self.relations = load_relations(conn, run.id)
        self.paths = load_paths(conn, run.id)
        self.names = label_maps(conn, kg.kg_id)
        self.load_stored()
        self._node = kg.node_of_entity
        self._pred = {p: i for i, p in enumerate(predicate_ids(conn, kg))}
        self._prompt = load_prompt("kontest_yes_no")
        self.load_totals(
            "SELECT COUNT(*), SUM(answer = 'error'), SUM(retries), SUM(prompt_tokens), "
            "SUM(completion_tokens) FROM kontest_query "
            "WHERE run_id = ? AND error NOT LIKE 'not asked%'"
        )
        self._metrics = self.compute_metrics()

    def load_stored(self) -> None:
        self.answers = answers_by_relation(load_kontest_queries(self.conn, self.run.id))

    def units_total(self) -> int:
        return len(self.relations)

    def pending(self) -> list[int]:
        return [r.idx for r in self.relations if not relation_answered(self.answers.get(r.idx, {}))]

    def compute_metrics(self) -> KontestMetrics:
        return kontest_metrics(self.relations, self.paths, self.answers, self.names)

    def units_failed(self, metrics: KontestMetrics) -> int:
        return metrics.relations_failed

    def stored_views(self, limit: int) -> list[QueryView]:
        return [query_view(q) for q in load_latest_kontest_queries(self.conn, self.run.id, limit)]

    def store(self, results: list[UnitResult[KontestQueryRow]]) -> None:
        write_kontest_queries(self.conn, self.run.id, [row for r in results for row in r.rows])

    def absorb(self, result: UnitResult[KontestQueryRow]) -> None:
        self.answers[result.unit] = {(q.conversation, q.turn): q.answer for q in result.rows}

    def _meta(self, r: RelationRow, template: int, first: bool, llm_written: bool) -> QuestionMeta:
        """A simulated target answers the same question first in a conversation the same way
        (like a deterministic model) and draws afresh after another question. The form it is
        told: the phrasing (template 3, the unseen one, in template 2's place in a `template3`
        run) and whether a paraphraser wrote it."""
        kg = self.kg
        s, o = self._node[r.subject_id], self._node[r.object_id]
        if template == 2 and self.config.template3:
            template = 3
        return QuestionMeta(
            key=f"k{r.idx}:t{template}:{'first' if first else 'after'}",
            edge_id=r.edge_id if r.edge_id is not None else -1,
            subject=kg.entity_keys[s],
            predicate=kg.pred_keys[self._pred[r.predicate_id]],
            object=kg.entity_keys[o],
            qtype=YES_NO,
            expected="yes",
            candidate_label=kg.labels[o],
            true_labels=(kg.labels[o],),
            template=template,
            llm_written=llm_written,
        )

    async def _paraphrase(self, r: RelationRow) -> tuple[str, str]:
        """The generator's paraphrase of template 1, or template 2 when it fails or is rejected
        (`kglens_tui.answers.generated.rejection`, as in every mode)."""
        generator = self.generator
        assert generator is not None
        first, fallback = r.question1, r.question2
        messages = load_prompt("kontest_paraphrase").render(question=first)
        reply = await self.limited(lambda: ask(generator, messages, max_tokens=80, temperature=0.0))
        if reply.failed:
            return fallback, f"template (paraphraser failed: {reply.usage.error.split(':')[0]})"
        text = reply.text.strip().splitlines()[0].strip() if reply.text.strip() else ""
        if not text:
            return fallback, "template (paraphraser gave no question)"
        if normalize(text) == normalize(first):
            return fallback, "template (paraphraser gave no new question)"
        kg = self.kg
        why = rejection(
            text,
            subject_names=kg.names(self._node[r.subject_id]),
            asked_names=kg.names(self._node[r.object_id]),
        )
        if why:
            return fallback, rejected_source(why)
        return text, f"llm:{generator.label}"

    async def _conversation(
        self, r: RelationRow, name: str, texts: dict[int, str], generator: str
    ) -> tuple[list[KontestQueryRow], list[Reply]]:
        templates = CONVERSATIONS[name]
        messages = self._prompt.render(question=texts[templates[0]])
        rows: list[KontestQueryRow] = []
        replies: list[Reply] = []
        for turn, template in enumerate(templates):
            if turn:
                previous = replies[-1]
                if previous.failed:
                    rows.append(
                        _row(
                            r,
                            name,
                            turn,
                            template,
                            generator,
                            texts[template],
                            Reply(),
                            ERROR,
                            "not asked: the first turn failed",
                        )
                    )
                    continue
                messages = (
                    *messages,
                    {"role": "assistant", "content": previous.text},
                    {"role": "user", "content": texts[template]},
                )
            gen = generator if template == 2 else "template"
            meta = self._meta(r, template, turn == 0, gen.startswith("llm:"))
            reply = await self.limited(
                partial(
                    ask,
                    self.target,
                    messages,
                    max_tokens=self.config.max_tokens,
                    temperature=self.config.temperature,
                    meta=meta,
                )
            )
            replies.append(reply)
            rows.append(_row(r, name, turn, template, gen, texts[template], reply, classify(reply)))
        return rows, replies

    async def run_unit(self, unit: int) -> UnitResult[KontestQueryRow]:
        r = self.relations[unit]
        second, generator = r.question2, "template"
        if self.generator is not None:
            second, generator = await self._paraphrase(r)
        texts = {1: r.question1, 2: second}
        parts = await asyncio.gather(
            *(self._conversation(r, name, texts, generator) for name in CONVERSATIONS)
        )
        rows = [row for part in parts for row in part[0]]
        replies = [reply for part in parts for reply in part[1]]
        return UnitResult(unit, rows, replies, [query_view(q) for q in rows])


def _row(
    r: RelationRow,
    conversation: str,
    turn: int,
    template: int,
    generator: str,
    question: str,
    reply: Reply,
    answer: str,
    error: str = "",
) -> KontestQueryRow:
    return KontestQueryRow(
        relation=r.idx,
        conversation=conversation,
        turn=turn,
        template=template,
        generator=generator,
        question=question,
        reply=reply.text,
        answer=answer,
        usage=replace(reply.usage, error=error) if error else reply.usage,
    )
