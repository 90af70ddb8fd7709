"""KONTEST and facteval runs in SQLite (db/0005_modes.sql): a `run` row with its mode, the plan
written with it, and one row per asked question."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kglens_tui.core.json_text import to_json
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.usage import Usage
from kglens_tui.modes.facteval.plan import PlannedQuestion
from kglens_tui.modes.kontest.plan import KontestPlan


def write_kontest_plan(
    conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: KontestPlan
) -> None:
    """Store a KONTEST plan (relations and paths) inside the caller's transaction."""
    ent, pred = kg.entity_db_ids, predicate_ids(conn, kg)
    conn.executemany(
        "INSERT INTO kontest_relation(run_id, idx, subject_id, predicate_id, object_id, edge_id, "
        "origin, question1, question2) VALUES (?,?,?,?,?,?,?,?,?)",
        [
            (run_id, i, int(ent[r.s]), pred[r.p], int(ent[r.o]), r.edge_id, r.origin)
            + (r.question1, r.question2)
            for i, r in enumerate(plan.relations)
        ],
    )
    conn.executemany(
        "INSERT INTO kontest_path(run_id, idx, predicate_id, nodes) VALUES (?,?,?,?)",
        [
            (run_id, i, pred[p.p], json.dumps([int(ent[n]) for n in p.nodes]))
            for i, p in enumerate(plan.paths)
        ],
    )


def write_facteval_plan(
    conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: list[PlannedQuestion]
) -> None:
    """Store a fact-eval plan (its questions) inside the caller's transaction."""
    ent, pred = kg.entity_db_ids, predicate_ids(conn, kg)
    conn.executemany(
        "INSERT INTO facteval_question(run_id, idx, edge_id, subject_id, predicate_id, qtype, "
        "format, truth, question, choices, answers, wrong, contexts) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                run_id,
                i,
                q.edge_id,
                int(ent[q.s]),
                pred[q.p],
                q.qtype,
                q.format,
                q.truth,
                q.question,
                to_json(list(q.choices)),
                to_json([list(a) for a in q.answers]),
                to_json([list(w) for w in q.wrong]),
                to_json(q.contexts),
            )
            for i, q in enumerate(plan)
        ],
    )


def predicate_ids(conn: sqlite3.Connection, kg: KGIndex) -> list[int]:
    """Database ids of the KG's predicates, in KGIndex order."""
    return [
        int(r[0])
        for r in conn.execute("SELECT id FROM predicate WHERE kg_id = ? ORDER BY id", (kg.kg_id,))
    ]


@dataclass(frozen=True)
class RelationRow:
    idx: int
    subject_id: int
    predicate_id: int
    object_id: int
    edge_id: int | None
    origin: str
    question1: str
    question2: str


@dataclass(frozen=True)
class PathRow:
    idx: int
    predicate_id: int
    nodes: tuple[int, ...]


@dataclass(frozen=True)
class KontestQueryRow:
    relation: int
    conversation: str
    turn: int
    template: int
    generator: str
    question: str
    reply: str
    answer: str
    usage: Usage = Usage()


_KONTEST_QUERY_COLUMNS = (
    "relation, conversation, turn, template, generator, question, reply, answer, "
    "prompt_tokens, completion_tokens, latency_ms, retries, error"
)
"""The columns of a `KontestQueryRow`, in its order."""


def _query_row(r: Sequence[Any]) -> KontestQueryRow:
    """A row of _KONTEST_QUERY_COLUMNS as a `KontestQueryRow`."""
    relation, conversation, turn, template, generator, question, reply, answer, *usage = r
    return KontestQueryRow(
        relation, conversation, turn, template, generator, question, reply, answer, Usage(*usage)
    )


def load_relations(conn: sqlite3.Connection, run_id: int) -> list[RelationRow]:
    return [
        RelationRow(*r)
        for r in conn.execute(
            "SELECT idx, subject_id, predicate_id, object_id, edge_id, origin, question1, "
            "question2 FROM kontest_relation WHERE run_id = ? ORDER BY idx",
            (run_id,),
        )
    ]


def load_paths(conn: sqlite3.Connection, run_id: int) -> list[PathRow]:
    return [
        PathRow(r[0], r[1], tuple(json.loads(r[2])))
        for r in conn.execute(
            "SELECT idx, predicate_id, nodes FROM kontest_path WHERE run_id = ? ORDER BY idx",
            (run_id,),
        )
    ]


def load_kontest_queries(conn: sqlite3.Connection, run_id: int) -> list[KontestQueryRow]:
    return [
        _query_row(r)
        for r in conn.execute(
            f"SELECT {_KONTEST_QUERY_COLUMNS} FROM kontest_query "
            "WHERE run_id = ? ORDER BY relation, conversation, turn",
            (run_id,),
        )
    ]


def load_latest_kontest_queries(
    conn: sqlite3.Connection, run_id: int, limit: int
) -> list[KontestQueryRow]:
    """The run's last ``limit`` stored queries in the order the plan asks them (relation, then
    conversation and turn: the conversations' names sort in the order they are asked), oldest
    first; one walk back along the primary key."""
    rows = conn.execute(
        f"SELECT {_KONTEST_QUERY_COLUMNS} FROM kontest_query WHERE run_id = ? "
        "ORDER BY relation DESC, conversation DESC, turn DESC LIMIT ?",
        (run_id, limit),
    ).fetchall()
    return [_query_row(r) for r in reversed(rows)]


def write_kontest_queries(
    conn: sqlite3.Connection, run_id: int, rows: list[KontestQueryRow]
) -> None:
    """Store (or replace, when a failed unit was asked again) KONTEST queries."""
    conn.executemany(
        "INSERT OR REPLACE INTO kontest_query(run_id, relation, conversation, turn, template, "
        "generator, question, reply, answer, prompt_tokens, completion_tokens, latency_ms, "
        "retries, error) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                run_id,
                r.relation,
                r.conversation,
                r.turn,
                r.template,
                r.generator,
                r.question,
                r.reply,
                r.answer,
                *r.usage.values(),
            )
            for r in rows
        ],
    )


@dataclass(frozen=True)
class QuestionRow:
    id: int
    idx: int
    edge_id: int | None
    subject_id: int
    predicate_id: int
    qtype: str
    format: str
    truth: str
    question: str
    generator: str
    choices: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]
    wrong: tuple[tuple[str, ...], ...]
    contexts: dict[str, str]


@dataclass(frozen=True)
class AnswerRow:
    question_id: int
    context: str
    reply: str
    category: str
    matched: int = 0
    usage: Usage = Usage()


def load_questions(conn: sqlite3.Connection, run_id: int) -> list[QuestionRow]:
    out = []
    for r in conn.execute(
        "SELECT id, idx, edge_id, subject_id, predicate_id, qtype, format, truth, question, "
        "generator, choices, answers, wrong, contexts FROM facteval_question WHERE run_id = ? "
        "ORDER BY idx",
        (run_id,),
    ):
        qid, idx, edge_id, subject_id, predicate_id, qtype, fmt, truth, question, generator = r[:10]
        choices, answers, wrong, contexts = r[10:]
        out.append(
            QuestionRow(
                qid,
                idx,
                edge_id,
                subject_id,
                predicate_id,
                qtype,
                fmt,
                truth,
                question,
                generator,
                choices=tuple(json.loads(choices)),
                answers=tuple(tuple(a) for a in json.loads(answers)),
                wrong=tuple(tuple(w) for w in json.loads(wrong)),
                contexts=json.loads(contexts),
            )
        )
    return out


def _answer_row(r: Sequence[Any]) -> AnswerRow:
    """A row of question_id, context, reply, category, matched and the usage columns."""
    question_id, context, reply, category, matched, *usage = r
    return AnswerRow(question_id, context, reply, category, matched, Usage(*usage))


def load_answers(conn: sqlite3.Connection, run_id: int) -> list[AnswerRow]:
    return [
        _answer_row(r)
        for r in conn.execute(
            "SELECT a.question_id, a.context, a.reply, a.category, a.matched, a.prompt_tokens, "
            "a.completion_tokens, a.latency_ms, a.retries, a.error FROM facteval_answer a "
            "JOIN facteval_question q ON q.id = a.question_id WHERE q.run_id = ? "
            "ORDER BY q.idx, a.context",
            (run_id,),
        )
    ]


def load_latest_answers(conn: sqlite3.Connection, run_id: int, questions: int) -> list[AnswerRow]:
    """The answers to the last ``questions`` questions of the run's plan that have any, in no
    particular order: a walk back along the run's questions, not a read of all its answers."""
    return [
        _answer_row(r)
        for r in conn.execute(
            "SELECT question_id, context, reply, category, matched, prompt_tokens, "
            "completion_tokens, latency_ms, retries, error FROM facteval_answer "
            "WHERE question_id IN (SELECT q.id FROM facteval_question q WHERE q.run_id = ? AND EXISTS "
            "(SELECT 1 FROM facteval_answer a WHERE a.question_id = q.id) "
            "ORDER BY q.idx DESC LIMIT ?)",
            (run_id, questions),
        )
    ]


def write_facteval_answers(
    conn: sqlite3.Connection, questions: list[tuple[int, str, str]], answers: list[AnswerRow]
) -> None:
    """Store answers (replacing earlier failed ones) and generated question texts, given as
    (question id, text, generator); the template question a generator's replaces is kept in
    `template`."""
    conn.executemany(
        "UPDATE facteval_question SET template = CASE WHEN generator = 'template' AND ? != "
        "'template' THEN question ELSE template END, question = ?, generator = ? WHERE id = ?",
        [(gen, text, gen, qid) for qid, text, gen in questions],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO facteval_answer(question_id, context, reply, category, matched, "
        "prompt_tokens, completion_tokens, latency_ms, retries, error) "
        "VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (
                a.question_id,
                a.context,
                a.reply,
                a.category,
                a.matched,
                *a.usage.values(),
            )
            for a in answers
        ],
    )
