"""KONTEST and facteval runs in SQLite (db/0005_modes.sql): a `run` row with its mode, the plan
written with it, and one row per asked question."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

import numpy as np

from kglens_tui import __version__
from kglens_tui.kg.graph import KGIndex
from kglens_tui.llm.base import ChatClient
from kglens_tui.llm.urls import redact_text
from kglens_tui.modes.config import FACTEVAL, KONTEST, FactevalConfig, KontestConfig
from kglens_tui.modes.facteval_plan import PlannedQuestion
from kglens_tui.modes.kontest_plan import KontestPlan
from kglens_tui.probe.prompts import load_prompt
from kglens_tui.probe.runstore import RunNotFoundError, create_run, shown_status
from kglens_tui.store.connection import retry_busy, transaction

MODE_PROMPTS = {
    KONTEST: ("kontest_yes_no", "kontest_paraphrase"),
    FACTEVAL: (
        "facteval_tfq",
        "facteval_mcq",
        "facteval_fib",
        "facteval_saq",
        "facteval_generate_tfq",
        "facteval_generate_fib",
        "facteval_generate_wh",
    ),
}
CONFIGS: dict[str, type[KontestConfig] | type[FactevalConfig]] = {
    KONTEST: KontestConfig,
    FACTEVAL: FactevalConfig,
}


@dataclass
class ModeRun:
    """A KONTEST or facteval run's settings and status."""

    id: int
    kg_id: int
    kg_name: str
    mode: str
    status: str
    config: KontestConfig | FactevalConfig
    manifest: dict
    target_label: str
    simulated: bool
    stop_reason: str
    error: str
    created_at: str
    edge_ids: np.ndarray
    """The KG edges the plan asks about (a simulated target needs them)."""


def load_mode_run(conn: sqlite3.Connection, run_id: int, mode: str | None = None) -> ModeRun:
    """A run of one of the two modes (``mode`` checks which); a running run whose process is
    gone reads as interrupted."""
    row = conn.execute(
        "SELECT r.*, k.name AS kg_name FROM run r JOIN kg k ON k.id = r.kg_id WHERE r.id = ?",
        (run_id,),
    ).fetchone()
    if row is None:
        raise RunNotFoundError(f"no run {run_id} in this workspace (see `kglens runs`)")
    if row["mode"] not in CONFIGS or (mode is not None and row["mode"] != mode):
        want = mode or " or ".join(CONFIGS)
        raise RunNotFoundError(f"run {run_id} is a {row['mode']} run, not {want}")
    shown = shown_status(row["status"], row["stop_reason"], row["owner"])
    return ModeRun(
        id=row["id"],
        kg_id=row["kg_id"],
        kg_name=row["kg_name"],
        mode=row["mode"],
        status=shown[0],
        config=CONFIGS[row["mode"]].from_json(row["config"]),
        manifest=json.loads(row["manifest"]),
        target_label=redact_text(row["target_label"]),
        simulated=bool(row["simulated"]),
        stop_reason=shown[1],
        error=redact_text(row["error"]),
        created_at=row["created_at"],
        edge_ids=np.frombuffer(row["edge_ids"], dtype="<i8").astype(np.int64),
    )


def mode_runs(conn: sqlite3.Connection, mode: str) -> list[int]:
    """Ids of every run of a mode, newest first."""
    return [
        r[0] for r in conn.execute("SELECT id FROM run WHERE mode = ? ORDER BY id DESC", (mode,))
    ]


def build_manifest(kg: KGIndex, config: KontestConfig | FactevalConfig, target: ChatClient) -> dict:
    """What makes a mode run reproducible: KG hash, prompt hashes, settings, versions."""
    return {
        "mode": config.mode,
        "kg": kg.name,
        "kg_content_hash": kg.content_hash,
        "prompts": {name: load_prompt(name).sha256 for name in MODE_PROMPTS[config.mode]},
        "target": target.label,
        "target_simulated": bool(target.simulated),
        "generator": config.generator,
        "seed": config.seed,
        "kglens_version": __version__,
        "numpy_version": np.__version__,
    }


def set_units_done(conn: sqlite3.Connection, run_id: int, done: int) -> None:
    """Record progress in run.iterations_done (units done, for listings)."""
    retry_busy(
        lambda: conn.execute(
            "UPDATE run SET iterations_done = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', "
            "'now') WHERE id = ?",
            (done, run_id),
        )
    )


def plan_edge_ids(plan: KontestPlan | list[PlannedQuestion]) -> list[int]:
    """The KG edges a plan asks about, sorted and distinct (path-only relations have none)."""
    units = plan.relations if isinstance(plan, KontestPlan) else plan
    return sorted({u.edge_id for u in units if u.edge_id is not None})


def create_mode_run(
    conn: sqlite3.Connection,
    kg: KGIndex,
    config: KontestConfig | FactevalConfig,
    target: ChatClient,
    plan: KontestPlan | list[PlannedQuestion],
    name: str = "",
) -> int:
    """Store a new run with its plan; the run row goes away again if the plan cannot be stored."""
    run_id = create_run(
        conn,
        kg.kg_id,
        config,
        build_manifest(kg, config, target),
        target.label,
        bool(target.simulated),
        np.array(plan_edge_ids(plan), dtype=np.int64),
        name=name,
        mode=config.mode,
    )
    try:
        with transaction(conn):
            if isinstance(plan, KontestPlan):
                _write_kontest_plan(conn, kg, run_id, plan)
            else:
                _write_facteval_plan(conn, kg, run_id, plan)
    except BaseException:
        conn.execute("DELETE FROM run WHERE id = ?", (run_id,))
        raise
    return run_id


def _write_kontest_plan(
    conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: KontestPlan
) -> None:
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


def _write_facteval_plan(
    conn: sqlite3.Connection, kg: KGIndex, run_id: int, plan: list[PlannedQuestion]
) -> None:
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
                _dumps(list(q.choices)),
                _dumps([list(a) for a in q.answers]),
                _dumps([list(w) for w in q.wrong]),
                _dumps(q.contexts),
            )
            for i, q in enumerate(plan)
        ],
    )


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


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
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float | None = None
    retries: int = 0
    error: str = ""


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
        KontestQueryRow(*r)
        for r in conn.execute(
            "SELECT relation, conversation, turn, template, generator, question, reply, answer, "
            "prompt_tokens, completion_tokens, latency_ms, retries, error FROM kontest_query "
            "WHERE run_id = ? ORDER BY relation, conversation, turn",
            (run_id,),
        )
    ]


def write_kontest_queries(conn: sqlite3.Connection, run_id: int, rows: list) -> None:
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
                r.prompt_tokens,
                r.completion_tokens,
                r.latency_ms,
                r.retries,
                r.error,
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
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float | None = None
    retries: int = 0
    error: str = ""


def load_questions(conn: sqlite3.Connection, run_id: int) -> list[QuestionRow]:
    out = []
    for r in conn.execute(
        "SELECT id, idx, edge_id, subject_id, predicate_id, qtype, format, truth, question, "
        "generator, choices, answers, wrong, contexts FROM facteval_question WHERE run_id = ? "
        "ORDER BY idx",
        (run_id,),
    ):
        out.append(
            QuestionRow(
                *r[:10],
                choices=tuple(json.loads(r[10])),
                answers=tuple(tuple(a) for a in json.loads(r[11])),
                wrong=tuple(tuple(w) for w in json.loads(r[12])),
                contexts=json.loads(r[13]),
            )
        )
    return out


def load_answers(conn: sqlite3.Connection, run_id: int) -> list[AnswerRow]:
    return [
        AnswerRow(*r)
        for r in conn.execute(
            "SELECT a.question_id, a.context, a.reply, a.category, a.matched, a.prompt_tokens, "
            "a.completion_tokens, a.latency_ms, a.retries, a.error FROM facteval_answer a "
            "JOIN facteval_question q ON q.id = a.question_id WHERE q.run_id = ? "
            "ORDER BY q.idx, a.context",
            (run_id,),
        )
    ]


def write_facteval_answers(
    conn: sqlite3.Connection, questions: list[tuple[int, str, str]], answers: list[AnswerRow]
) -> None:
    """Store answers (replacing earlier failed ones) and generated question texts, given as
    (question id, text, generator)."""
    conn.executemany(
        "UPDATE facteval_question SET question = ?, generator = ? WHERE id = ?",
        [(text, gen, qid) for qid, text, gen in questions],
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
                a.prompt_tokens,
                a.completion_tokens,
                a.latency_ms,
                a.retries,
                a.error,
            )
            for a in answers
        ],
    )
