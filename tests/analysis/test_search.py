"""Full-text search over questions and replies: the FTS5 index follows every insert and delete,
old workspaces are indexed on migration, hostile queries never crash, and the Datasette views
agree with the tables they summarise."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_support import HUGE

from kglens_tui.analysis.search import SearchError, search
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


def sim_run(conn, seed: int) -> int:
    config = RunConfig(
        kg="country", subset="paper16", target="sim", iterations=3, batch_size=16, seed=seed
    )
    return run_blocking(prepare(conn, config=config)).run_id


def matches(conn, word: str, run_id: int | None = None) -> set[int]:
    """Observation ids whose question or reply has the word, read without the index."""
    sql = "SELECT id, question, reply FROM observation" + (
        " WHERE run_id = ?" if run_id is not None else ""
    )
    rows = conn.execute(sql, () if run_id is None else (run_id,)).fetchall()
    return {
        int(i)
        for i, q, r in rows
        if word.casefold() in {w.strip("?.,!()'\"").casefold() for w in f"{q} {r}".split()}
    }


def test_search_finds_exactly_the_observations_with_the_words(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    first = sim_run(conn, 1)
    second = sim_run(conn, 2)
    for word in ("Italy", "border", "Yes"):
        expected = matches(conn, word)
        assert expected, word
        assert {h.observation_id for h in search(conn, word, limit=10_000)} == expected
        only = {h.observation_id for h in search(conn, word, second, limit=10_000)}
        assert only == matches(conn, word, second)
    border = [h for h in search(conn, "border", first, limit=10_000) if "Italy" in h.question]
    hit = border[0] if border else search(conn, "border", first)[0]
    both = search(conn, f"{hit.subject} border", first, limit=10_000)
    assert hit.observation_id in {h.observation_id for h in both}
    assert hit.predicate == "shares border with" and hit.run_id == first
    assert all(hit.subject in h.question or hit.subject in h.reply for h in both)
    conn.close()


def test_the_index_follows_deleted_runs(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    sim_run(conn, 1)
    doomed = sim_run(conn, 2)
    before = len(search(conn, "Italy", limit=10_000))
    conn.close()
    assert main(["--db", str(db), "runs", "rm", str(doomed), "--yes"]) == 0
    conn = connect(db)
    assert {h.run_id for h in search(conn, "Italy", limit=10_000)} == {1}
    assert len(search(conn, "Italy", limit=10_000)) < before
    conn.execute("INSERT INTO observation_fts(observation_fts) VALUES ('integrity-check')")
    conn.close()


def test_an_old_workspace_is_indexed_when_it_migrates(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    sim_run(conn, 1)
    # back to schema 9: no index, no triggers, no views
    for sql in (
        "DROP VIEW observation_labelled",
        "DROP TABLE workspace_secret",
        "DROP VIEW run_rates",
        "DROP TRIGGER observation_ad",
        "DROP TRIGGER observation_au",
        "DROP TABLE search_indexed",
        "ALTER TABLE facteval_question DROP COLUMN template",
        "DROP TABLE observation_fts",
        "DROP TABLE unit_answer",
        "DROP TABLE target_usage",
        "ALTER TABLE run DROP COLUMN control",
        "ALTER TABLE run DROP COLUMN units_total",
        "DROP TABLE verifier_recheck",
        "DROP TABLE design_draw",
        "ALTER TABLE observation DROP COLUMN draw_slot",
        "ALTER TABLE observation DROP COLUMN incl_prob",
        "ALTER TABLE observation DROP COLUMN prediction",
        "ALTER TABLE observation DROP COLUMN floor_pass",
        "PRAGMA user_version = 9",
    ):
        conn.execute(sql)
    conn.commit()
    conn.close()
    conn = connect(db)
    assert {h.observation_id for h in search(conn, "Italy", limit=10_000)} == matches(conn, "Italy")
    conn.close()


def _schema10_triggers() -> list[str]:
    """The CREATE TRIGGER statements of db/0010 (an older workspace keeps them)."""
    sql = (Path(__file__).parents[2] / "db" / "0010_search.sql").read_text(encoding="utf-8")
    return [
        f"CREATE TRIGGER{part.split('END;')[0]}END;" for part in sql.split("CREATE TRIGGER")[1:]
    ]


def test_a_kglens_run_stored_before_it_counted_every_request_starts_from_its_iterations(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = sim_run(conn, 1)
    sums = conn.execute(
        "SELECT SUM(requests), SUM(errors), SUM(retries), SUM(prompt_tokens), "
        "SUM(completion_tokens) FROM iteration WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    stored = "SELECT * FROM target_usage"
    assert [tuple(r) for r in conn.execute(stored)] == [(run_id, *sums, 0)]
    conn.execute("DELETE FROM target_usage")  # back to schema 12: KGLens counted per iteration
    conn.execute("DROP TABLE workspace_secret")
    for trigger in ("observation_ad", "observation_au"):  # schema 10's, before db/0021
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE search_indexed")
    conn.execute("ALTER TABLE facteval_question DROP COLUMN template")
    for statement in _schema10_triggers():
        conn.execute(statement)
    conn.execute("DROP VIEW run_rates")  # it names columns schema 12 did not have
    conn.execute("ALTER TABLE run DROP COLUMN control")
    conn.execute("ALTER TABLE run DROP COLUMN units_total")
    conn.execute("ALTER TABLE target_usage DROP COLUMN dropped")
    conn.execute("DROP TABLE verifier_recheck")
    conn.execute("DROP TABLE design_draw")
    for column in ("draw_slot", "incl_prob", "prediction", "floor_pass"):
        conn.execute(f"ALTER TABLE observation DROP COLUMN {column}")
    conn.execute("CREATE VIEW run_rates AS SELECT id FROM run")  # schema 13 replaces it
    conn.execute("PRAGMA user_version = 12")
    conn.commit()
    conn.close()
    conn = connect(db)
    assert [tuple(r) for r in conn.execute(stored)] == [(run_id, *sums, 0)]
    assert tuple(conn.execute("SELECT requests FROM run_rates").fetchone()) == (sums[0],)
    conn.close()


@pytest.mark.parametrize("query", ['"', "NEAR(", 'x" OR "y', "capital*", "[red]x[/]", "\x1b[2J"])
def test_fts_syntax_is_searched_as_words(tmp_path: Path, query: str) -> None:
    conn = connect(tmp_path / "w.db")
    sim_run(conn, 1)
    assert isinstance(search(conn, query), list)
    with pytest.raises(SearchError, match="nothing to search for"):
        search(conn, " \t")
    conn.close()


@pytest.mark.parametrize("symbol", ["€", "😀", "+"])
def test_a_query_of_symbols_is_found_as_written(tmp_path: Path, symbol: str) -> None:
    """The index holds words only: symbols ("€", an emoji, a sign) are looked for as written,
    in questions and replies, newest first, within the run asked for."""
    conn = connect(tmp_path / "w.db")
    first, second = sim_run(conn, 1), sim_run(conn, 2)
    conn.execute(
        "UPDATE observation SET reply = reply || ' 😀 €' WHERE run_id = ? AND id % 7 = 0",
        (first,),
    )
    conn.commit()
    rows = sorted(
        (tuple(r) for r in conn.execute("SELECT id, run_id, question, reply FROM observation")),
        reverse=True,
    )
    for run_id in (None, first, second):
        want = [
            int(i)
            for i, run, q, r in rows
            if (run_id is None or run == run_id) and (symbol in q or symbol in r)
        ]
        found = [hit.observation_id for hit in search(conn, symbol, run_id, limit=10_000)]
        assert found == want
        assert (len(want) > 0) == (symbol == "+" or run_id != second)
    conn.close()


def test_views_for_datasette_agree_with_the_tables(tmp_path: Path) -> None:
    conn = connect(tmp_path / "w.db")
    run_id = sim_run(conn, 1)
    row = conn.execute(
        "SELECT kg, iterations_done, examined, examined_win_rate, requests FROM run_rates "
        "WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    last = conn.execute(
        "SELECT iteration, examined, win_rate FROM iteration WHERE run_id = ? "
        "ORDER BY iteration DESC LIMIT 1",
        (run_id,),
    ).fetchone()
    total = conn.execute("SELECT SUM(requests) FROM iteration WHERE run_id = ?", (run_id,))
    assert tuple(row) == ("country", last[0], last[1], last[2], total.fetchone()[0])
    labelled = conn.execute(
        "SELECT COUNT(*) FROM observation_labelled WHERE run_id = ?", (run_id,)
    ).fetchone()[0]
    assert labelled == conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0]
    subject, question = conn.execute(
        "SELECT subject, question FROM observation_labelled LIMIT 1"
    ).fetchone()
    assert subject in question
    conn.close()


@pytest.mark.tui
def test_the_review_screens_search_keeps_the_edges_asked_with_the_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search is made on a worker thread (the review never waits for it)."""
    import asyncio
    import threading

    from tui_support import Spy

    from kglens_tui.settings import Settings
    from kglens_tui.tui.app import KGLensApp
    from kglens_tui.tui.screens import review

    spy = Spy(review.search_edges)
    monkeypatch.setattr(review, "search_edges", spy)

    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = sim_run(conn, 1)
    expected = {
        int(e)
        for (e,) in conn.execute(
            "SELECT DISTINCT edge_id FROM observation WHERE id IN "
            f"({','.join(str(i) for i in matches(conn, 'Italy'))})"
        )
    }
    conn.close()
    app = KGLensApp(db, Settings(run={"target": "sim"}), welcome=False)
    asyncio.run(_search_on_review(app, run_id, expected))
    assert spy.threads and threading.main_thread() not in spy.threads


async def _search_on_review(app, run_id: int, expected: set[int]) -> None:
    from conftest import wait_for
    from textual.widgets import DataTable, Input

    from kglens_tui.tui.screens.review import ReviewScreen

    async with app.run_test(size=HUGE) as pilot:
        app.push_screen(ReviewScreen(run_id))
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.loaded)
        await pilot.press("slash")
        box = app.screen.query_one("#rv-search", Input)
        assert box.display and box.has_focus
        await pilot.press(*"Italy", "enter")
        await wait_for(pilot, lambda: app.screen.matched is not None)  # searched on a worker
        table = app.screen.query_one("#rv-edges", DataTable)
        shown = {int(str(table.get_row_at(i)[0])) for i in range(table.row_count)}
        examined = app.screen.matched
        assert shown and shown <= expected and examined == expected
        await pilot.press("slash", "ctrl+u", "enter")  # clear the search
        await pilot.pause()
        assert app.screen.matched is None and not box.display
        assert table.row_count >= len(shown)


def test_searching_a_run_of_another_mode_says_what_search_covers(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    assert main(["--db", str(db), "consistency", "run", "--quiet", "--relations", "3"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "search", "is", "--run", "1"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "run 1 is a KONTEST run: search covers the questions and replies of KGLens runs" in err


def test_search_output_keeps_each_fact_whole_at_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At 80 columns the table fits and truncates nothing: each subject shows whole (the fact
    stacks subject, predicate and object in one column), and so does each verdict."""
    from kglens_tui.core.console import console

    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = sim_run(conn, seed=3)
    hits = search(conn, "of", run_id, limit=20)
    conn.close()
    assert hits
    monkeypatch.setattr(console, "width", 80)
    assert main(["--db", str(db), "search", "of", "--run", str(run_id), "--limit", "20"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out
    cells = [cell.strip() for line in lines for cell in line.split("│")]
    for h in hits:  # each on a line of its own, whole
        assert h.subject in cells and h.category in cells, h


def test_search_clips_a_long_reply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reply of a megabyte is shown clipped (SEARCH_TEXT_LIMIT characters and "…"), not whole."""
    from kglens_tui.cli.main import SEARCH_TEXT_LIMIT
    from kglens_tui.core.console import console

    db = tmp_path / "w.db"
    conn = connect(db)
    run_id = sim_run(conn, seed=3)
    long_reply = "Yes, zebra " + "filler " * 150_000 + "zebraend"
    first = conn.execute("SELECT MIN(id) FROM observation WHERE run_id = ?", (run_id,)).fetchone()
    conn.execute("UPDATE observation SET reply = ? WHERE id = ?", (long_reply, first[0]))
    conn.close()
    monkeypatch.setattr(console, "width", 120)
    assert main(["--db", str(db), "search", "zebra", "--run", str(run_id)]) == 0
    out = capsys.readouterr().out
    assert "zebraend" not in out and "…" in out
    assert len(out) < 20 * SEARCH_TEXT_LIMIT


def _index_is_whole(conn) -> None:
    """FTS5's own check of the index against the observation table (nothing pending)."""
    conn.execute("INSERT INTO observation_fts(observation_fts, rank) VALUES ('integrity-check', 1)")


def test_replies_not_indexed_yet_are_found_and_indexed_when_a_run_ends(tmp_path: Path) -> None:
    """The probing loop commits replies without indexing them: search finds them word by word
    (case and accents folded, the run filter kept) until the run's end indexes them."""
    from kglens_tui.runs.record import set_status
    from kglens_tui.store.search_index import index_pending, indexed_upto

    conn = connect(tmp_path / "w.db")
    first = sim_run(conn, 1)
    _index_is_whole(conn)
    assert indexed_upto(conn) == conn.execute("SELECT MAX(id) FROM observation").fetchone()[0]
    conn.execute("INSERT INTO observation_fts(observation_fts) VALUES ('delete-all')")
    conn.execute("UPDATE search_indexed SET upto = 0")
    for word, run in (("Italy", None), ("border", first), ("ITALY", first)):
        expected = matches(conn, word, run)
        assert expected, word
        assert {h.observation_id for h in search(conn, word, run, limit=10_000)} == expected
    common = next(w for w in ("Yes", "the", "of", "is") if len(matches(conn, w)) > 3)
    newest = sorted(matches(conn, common), reverse=True)[:3]
    assert [h.observation_id for h in search(conn, common, limit=3)] == newest
    set_status(conn, first, "finished")
    assert indexed_upto(conn) == conn.execute("SELECT MAX(id) FROM observation").fetchone()[0]
    _index_is_whole(conn)
    assert {h.observation_id for h in search(conn, "Italy", limit=10_000)} == matches(conn, "Italy")
    assert index_pending(conn) == 0
    conn.close()


def test_deleting_the_newest_run_keeps_the_index_whole_when_ids_come_again(
    tmp_path: Path,
) -> None:
    """SQLite hands the ids of deleted last rows out again: the index must take the new rows
    with those ids, and a deleted pending row must never reach it."""
    from kglens_tui.store.search_index import index_pending, indexed_upto

    conn = connect(tmp_path / "w.db")
    sim_run(conn, 1)
    second = sim_run(conn, 2)
    top = conn.execute("SELECT MAX(id) FROM observation").fetchone()[0]
    conn.execute("DELETE FROM run WHERE id = ?", (second,))
    assert indexed_upto(conn) < top
    _index_is_whole(conn)
    third = sim_run(conn, 3)
    assert conn.execute("SELECT MAX(id) FROM observation").fetchone()[0] == top  # reused
    _index_is_whole(conn)
    assert {h.observation_id for h in search(conn, "Italy", third, limit=10_000)} == matches(
        conn, "Italy", third
    )
    # a pending row deleted before the index takes it
    conn.execute("INSERT INTO observation_fts(observation_fts) VALUES ('delete-all')")
    conn.execute("UPDATE search_indexed SET upto = 0")
    conn.execute("DELETE FROM run WHERE id = ?", (third,))
    assert index_pending(conn) > 0
    _index_is_whole(conn)
    conn.close()
