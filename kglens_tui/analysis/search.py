"""Full-text search over the questions and replies of KGLens runs (the FTS5 index of migration
0010, queried through sqlite-utils, which ranks the hits and quotes the query so that FTS syntax a
user types, such as quotes, `*` or `NEAR(`, is searched for as words). The index takes a run's
replies when the run ends (db/0021); until then they are matched word by word, as the index
would (case and accents folded), after the indexed hits, newest first."""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from dataclasses import dataclass

import sqlite_utils

from kglens_tui.core.errors import KGLensError
from kglens_tui.store.search_index import indexed_upto

DEFAULT_LIMIT = 50


class SearchError(KGLensError, ValueError):
    """A query that cannot be searched (empty, or nothing searchable in it)."""


@dataclass(frozen=True)
class Hit:
    """One matching question and reply with the fact it asked about."""

    observation_id: int
    run_id: int
    iteration: int
    edge_id: int
    subject: str
    predicate: str
    object: str
    qtype: str
    question: str
    reply: str
    category: str


def search(
    conn: sqlite3.Connection, query: str, run_id: int | None = None, limit: int = DEFAULT_LIMIT
) -> list[Hit]:
    """Observations whose question or reply contains every word of `query`, best match first;
    a query of symbols only (no word: "₵", "😀", "$") is looked for as it is written, newest
    first."""
    if not query.strip():
        raise SearchError("nothing to search for: type a word or a symbol")
    if limit < 1:
        raise SearchError(f"limit must be at least 1 (got {limit})")
    if not any(ch.isalnum() for ch in query):
        return _hits(conn, _symbol_matches(conn, query.strip(), run_id, limit))
    where, args = ("run_id = :run", {"run": run_id}) if run_id is not None else (None, None)
    table = sqlite_utils.Database(conn).table("observation")
    try:
        ids = [
            int(row["id"])
            for row in table.search(
                query, columns=["id"], limit=limit, where=where, where_args=args, quote=True
            )
        ]
    except sqlite3.OperationalError as exc:
        raise SearchError(f"cannot search for {query!r}: {exc}") from exc
    if len(ids) < limit:
        ids += _pending_matches(conn, query, run_id, limit - len(ids))
    return _hits(conn, ids)


def _hits(conn: sqlite3.Connection, ids: list[int]) -> list[Hit]:
    """The observations of these ids with their facts, in this order."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT id, run_id, iteration, edge_id, subject, predicate, object, qtype, question, reply, "
        f"category FROM observation_labelled WHERE id IN ({marks})",
        ids,
    ).fetchall()
    by_id = {int(r[0]): Hit(*r) for r in rows}
    return [by_id[i] for i in ids if i in by_id]


def _symbol_matches(
    conn: sqlite3.Connection, text: str, run_id: int | None, limit: int
) -> list[int]:
    """Ids of the observations whose question or reply contains ``text`` as written (symbols,
    which the index does not hold), newest first."""
    sql = "SELECT id FROM observation WHERE (instr(question, ?) > 0 OR instr(reply, ?) > 0)"
    args: list[object] = [text, text]
    if run_id is not None:
        sql += " AND run_id = ?"
        args.append(run_id)
    rows = conn.execute(sql + " ORDER BY id DESC LIMIT ?", [*args, limit])
    return [int(row[0]) for row in rows]


_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    """The words of a text as the index tokenises them: case and accents folded."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return set(_WORD.findall("".join(ch for ch in folded if not unicodedata.combining(ch))))


def _pending_matches(
    conn: sqlite3.Connection, query: str, run_id: int | None, limit: int
) -> list[int]:
    """Ids of the observations the index does not hold yet whose question or reply has every
    word of the query, newest first."""
    wanted = _words(query)
    sql = "SELECT id, question, reply FROM observation WHERE id > ?"
    args: list[object] = [indexed_upto(conn)]
    if run_id is not None:
        sql += " AND run_id = ?"
        args.append(run_id)
    found: list[int] = []
    for oid, question, reply in conn.execute(sql + " ORDER BY id DESC", args):
        if wanted <= _words(f"{question} {reply}"):
            found.append(int(oid))
            if len(found) >= limit:
                break
    return found
