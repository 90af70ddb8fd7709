"""Hand-made KG and runs whose every count, rate and interval can be worked out by hand.

KG "mini": countries A (region:Europe, member:EU), B (region:Europe), C (region:Oceania).
  e1 A capital a            e4 A currency x  start 2002-01-01    e7 A head_of_state h1 start 2017-01-26
  e2 B capital b            e5 B currency x  start 1999          e8 B head_of_state h2 point 2021-05-03
  e3 C capital c            e6 C currency y  1966 .. 2002
Run "model-a" (EASY), three iterations:
  it 1: e1 correct, e2 incorrect (q1), e3 incorrect (Wh), e5 incorrect (self-contradiction), e8 error
  it 2: e1 correct (No question), e2 correct (Wh, a different question), e3 refused, e4 correct,
        e7 correct (q "Is Hanna ...")
  it 3: e7 incorrect ("Is Hugo ...", a different question), e7 incorrect (same "Is Hanna ...")
m / n: e1 2/0, e2 1/1, e3 0/2, e4 1/0, e5 0/1, e6 0/0, e7 1/2, e8 0/0 (error only).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.usage import Usage
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.runstore import ObservationRow, commit_iteration
from kglens_tui.runs.record import create_run, set_status

ENTITIES = [
    ("c:A", "Aland", "country", ["region:Europe", "member:EU"]),
    ("c:B", "Borduria", "country", ["region:Europe"]),
    ("c:C", "Caledonia", "country", ["region:Oceania"]),
    ("city:a", "Apolis", "city", []),
    ("city:b", "Bopolis", "city", []),
    ("city:c", "Copolis", "city", []),
    ("cur:x", "Xdollar", "currency", []),
    ("cur:y", "Ypound", "currency", []),
    ("p:h1", "Hanna", "person", []),
    ("p:h2", "Hugo", "person", []),
]
TRIPLES = {
    "e1": ("c:A", "capital", "city:a", {}),
    "e2": ("c:B", "capital", "city:b", {}),
    "e3": ("c:C", "capital", "city:c", {}),
    "e4": ("c:A", "currency", "cur:x", {"start": "2002-01-01"}),
    "e5": ("c:B", "currency", "cur:x", {"start": "1999"}),
    "e6": ("c:C", "currency", "cur:y", {"start": "1966", "end": "2002"}),
    "e7": ("c:A", "head_of_state", "p:h1", {"start": "2017-01-26"}),
    "e8": ("c:B", "head_of_state", "p:h2", {"point_in_time": "2021-05-03"}),
}
EDGES = tuple(TRIPLES)


@dataclass(frozen=True)
class Ask:
    """One observation to store: edge name, question, reply and verdict."""

    edge: str
    question: str
    reply: str
    category: str
    qtype: str = "yes_no"
    expected: str = "yes"
    candidate: str | None = None
    answers: tuple[tuple[str, ...], ...] = ()


RUN_A = {
    1: [
        Ask("e1", "Is Apolis the capital of Aland?", "Yes.", "correct", candidate="city:a"),
        Ask(
            "e2",
            "Is Bopolis the capital of Borduria?",
            "No, it is not.",
            "incorrect",
            candidate="city:b",
        ),
        Ask(
            "e3",
            "What is the capital of Caledonia?",
            "Dopolis.",
            "incorrect",
            qtype="wh",
            expected="",
            answers=(("Copolis",),),
        ),
        Ask(
            "e5",
            "Is Xdollar the currency of Borduria?",
            "No, Xdollar is the official currency of Borduria.",
            "incorrect",
            candidate="cur:x",
        ),
        Ask("e8", "Is Hugo the head of state of Borduria?", "", "error", candidate="p:h2"),
    ],
    2: [
        Ask(
            "e1",
            "Is Copolis the capital of Aland?",
            "No.",
            "correct",
            expected="no",
            candidate="city:c",
        ),
        Ask(
            "e2",
            "What is the capital of Borduria?",
            "Bopolis.",
            "correct",
            qtype="wh",
            expected="",
            answers=(("Bopolis",),),
        ),
        Ask(
            "e3",
            "Is Copolis the capital of Caledonia?",
            "I don't know.",
            "refused",
            candidate="city:c",
        ),
        Ask("e4", "Is Xdollar the currency of Aland?", "Yes.", "correct", candidate="cur:x"),
        Ask("e7", "Is Hanna the head of state of Aland?", "Yes.", "correct", candidate="p:h1"),
    ],
    3: [
        Ask(
            "e7",
            "Is Hugo the head of state of Aland?",
            "Yes.",
            "incorrect",
            expected="no",
            candidate="p:h2",
        ),
        Ask("e7", "Is Hanna the head of state of Aland?", "No.", "incorrect", candidate="p:h1"),
    ],
}
RUN_B = {
    1: [
        Ask("e1", "Is Apolis the capital of Aland?", "No.", "incorrect", candidate="city:a"),
        Ask("e2", "Is Bopolis the capital of Borduria?", "Yes.", "correct", candidate="city:b"),
        Ask("e3", "Is Copolis the capital of Caledonia?", "Yes.", "correct", candidate="city:c"),
        Ask("e4", "Is Xdollar the currency of Aland?", "Yes.", "correct", candidate="cur:x"),
        Ask("e6", "Is Ypound the currency of Caledonia?", "Yes.", "correct", candidate="cur:y"),
    ]
}
RUN_C = {1: [Ask("e1", "Is Apolis the capital of Aland?", "Yes.", "correct", candidate="city:a")]}


def import_mini(conn: sqlite3.Connection, root: Path) -> None:
    """Write the mini KG as JSONL and import it as "mini"."""
    d = root / "mini"
    d.mkdir(exist_ok=True)
    with (d / "entities.jsonl").open("w") as fh:
        for key, label, kind, groups in ENTITIES:
            fh.write(json.dumps({"id": key, "label": label, "type": kind, "groups": groups}) + "\n")
    with (d / "predicates.jsonl").open("w") as fh:
        for key in ("capital", "currency", "head_of_state"):
            fh.write(json.dumps({"id": key, "label": key.replace("_", " ")}) + "\n")
    with (d / "triples.jsonl").open("w") as fh:
        for s, p, o, dates in TRIPLES.values():
            fh.write(json.dumps({"subject": s, "predicate": p, "object": o, **dates}) + "\n")
    import_kg(conn, d, "mini")


def edge_ids(conn: sqlite3.Connection) -> dict[str, int]:
    """Edge name (e1..e8) -> database id."""
    out = {}
    for name, (s, p, o, _) in TRIPLES.items():
        out[name] = conn.execute(
            "SELECT x.id FROM edge x JOIN entity s ON s.id = x.subject_id "
            "JOIN predicate p ON p.id = x.predicate_id JOIN entity o ON o.id = x.object_id "
            "WHERE s.key = ? AND p.key = ? AND o.key = ?",
            (s, p, o),
        ).fetchone()[0]
    return out


def entity_id(conn: sqlite3.Connection, key: str) -> int:
    return conn.execute("SELECT id FROM entity WHERE key = ?", (key,)).fetchone()[0]


def make_run(
    conn: sqlite3.Connection,
    asks: dict[int, list[Ask]],
    *,
    target: str = "model-a",
    difficulty: str = "easy",
    propagation: bool = False,
    mode: str = "sum",
) -> int:
    """Store a finished run over all eight edges (positions in e1..e8 order)."""
    ids = edge_ids(conn)
    kg_id = conn.execute("SELECT id FROM kg WHERE name = 'mini'").fetchone()[0]
    config = RunConfig(
        kg="mini",
        difficulty=difficulty,
        propagation=propagation,
        propagation_mode=mode,
        iterations=len(asks),
        batch_size=4,  # fewer than its edges: a run drawn without the design, not a census
    ).validate()
    order = np.array([ids[e] for e in EDGES], dtype=np.int64)
    run_id = create_run(conn, kg_id, config, {}, target, False, order)
    for it, items in sorted(asks.items()):
        rows = [
            ObservationRow(
                iteration=it,
                slot=slot,
                pos=EDGES.index(a.edge),
                edge_id=ids[a.edge],
                qtype=a.qtype,
                generator="template",
                question=a.question,
                candidate_id=entity_id(conn, a.candidate) if a.candidate else None,
                expected=a.expected,
                expected_answers=json.dumps([list(x) for x in a.answers]),
                reply=a.reply,
                category=a.category,
                verifier="first word" if a.qtype == "yes_no" else "alias match",
                usage=Usage(error="timeout" if a.category == "error" else ""),
            )
            for slot, a in enumerate(items)
        ]
        summary = {
            "seconds": 0.0,
            "requests": len(rows),
            "errors": 0,
            "retries": 0,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "latency_ms_mean": None,
            "latency_ms_p95": None,
            "examined": 0,
            "win_rate": None,
            "zero_sense_rate": None,
            "all_sense_rate": None,
            "counts": {},
        }
        commit_iteration(conn, run_id, it, rows, summary, None)
    set_status(conn, run_id, "finished")
    return run_id


def observation_id(conn: sqlite3.Connection, run_id: int, iteration: int, slot: int) -> int:
    return conn.execute(
        "SELECT id FROM observation WHERE run_id = ? AND iteration = ? AND slot = ?",
        (run_id, iteration, slot),
    ).fetchone()[0]
