"""Rounds sampled from simulated runs: stratified 50/50 per KG, seeded, 'error' replies skipped,
filters by observation and edge ids, and the `kglens annotate` commands."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.packs import export_pack
from kglens_tui.annotate.rounds import create_round, get_round, list_rounds
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


@pytest.fixture(scope="module")
def runs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with two simulated runs (country and elements KGs, Yes/No and Wh)."""
    path = tmp_path_factory.mktemp("annotate") / "runs.db"
    conn = connect(path)
    for kg in ("country", "elements"):
        config = RunConfig(kg=kg, target="sim", iterations=3, difficulty="hard")
        run_blocking(prepare(conn, config=config))
    conn.close()
    return path


@pytest.fixture
def db(runs_db: Path, tmp_path: Path) -> sqlite3.Connection:
    copy = tmp_path / "copy.db"
    src = connect(runs_db)
    dst = connect(copy, migrate_schema=False)
    src.backup(dst)
    src.close()
    yield dst
    dst.close()


def _pool(conn: sqlite3.Connection) -> dict[tuple[str, str], int]:
    return {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            "SELECT k.name, o.qtype, COUNT(DISTINCT o.question || char(0) || o.reply) "
            "FROM observation o JOIN run r ON r.id = o.run_id JOIN kg k ON k.id = r.kg_id "
            "WHERE o.category != 'error' GROUP BY 1, 2"
        )
    }


def _mix(conn: sqlite3.Connection, round_id: int) -> dict[tuple[str, str], int]:
    return {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            "SELECT kg, qtype, COUNT(*) FROM annotation_item WHERE round_id = ? GROUP BY 1, 2",
            (round_id,),
        )
    }


def test_stratified_50_50_per_kg_when_enough(db) -> None:
    pool = _pool(db)
    assert all(n >= 50 for n in pool.values()), pool
    rnd = create_round(db, "r", runs=[1, 2])  # the paper's default: 100 per KG, 50 + 50
    assert _mix(db, rnd.id) == {
        ("country", "yes_no"): 50,
        ("country", "wh"): 50,
        ("elements", "yes_no"): 50,
        ("elements", "wh"): 50,
    }
    assert rnd.items == 200 and rnd.annotators == ("ann1", "ann2", "ann3", "ann4", "ann5")
    assert rnd.settings.majority == 3 and rnd.source["runs"] == [1, 2]
    per = db.execute(
        "SELECT COUNT(*) FROM annotation_assignment s JOIN annotation_item i ON i.id = s.item_id "
        "WHERE i.round_id = ?",
        (rnd.id,),
    ).fetchone()[0]
    assert per == 5 * 200  # everyone rates everything by default


def test_scarce_question_type_is_topped_up_from_the_other(db) -> None:
    pool = _pool(db)
    per_kg = pool[("country", "wh")] * 2 + 4  # more than twice the Wh supply
    rnd = create_round(db, "big", runs=[1], per_kg=per_kg)
    mix = _mix(db, rnd.id)
    assert mix[("country", "wh")] == pool[("country", "wh")]
    assert mix[("country", "yes_no")] == min(
        per_kg - mix[("country", "wh")], pool[("country", "yes_no")]
    )


def test_sampling_is_seeded(db) -> None:
    def picked(name: str, seed: int) -> list[int]:
        rnd = create_round(db, name, runs=[1, 2], per_kg=20, seed=seed)
        return [
            r[0]
            for r in db.execute(
                "SELECT observation_id FROM annotation_item WHERE round_id = ? ORDER BY position",
                (rnd.id,),
            )
        ]

    assert picked("a", 7) == picked("b", 7)
    assert sorted(picked("c", 7)) != sorted(picked("d", 8))
    first = items_for_annotator(db, get_round(db, "a").id, "ann1")
    second = items_for_annotator(db, get_round(db, "a").id, "ann2")
    assert [i.item_id for i in first] != [i.item_id for i in second]  # own order per annotator
    assert sorted(i.item_id for i in first) == sorted(i.item_id for i in second)


def test_items_copy_the_question_answers_response_and_verdict(db) -> None:
    rnd = create_round(db, "copy", runs=[1], per_kg=10)
    for it in db.execute(
        "SELECT i.*, o.question AS oq, o.reply, o.category, o.expected_answers "
        "FROM annotation_item i JOIN observation o ON o.id = i.observation_id WHERE i.round_id = ?",
        (rnd.id,),
    ):
        assert it["question"] == it["oq"] and it["app_verdict"] == it["category"]
        if it["qtype"] == "wh":
            assert it["response"] == it["reply"]
            assert json.loads(it["answers"]) == json.loads(it["expected_answers"])
        else:
            assert it["response"] is None and it["answers"] == "[]"


def test_error_observations_are_never_sampled(db) -> None:
    db.execute(
        "UPDATE observation SET category = 'error', error = 'timeout' "
        "WHERE id IN (SELECT id FROM observation WHERE run_id = 1 ORDER BY id LIMIT 30)"
    )
    errors = {r[0] for r in db.execute("SELECT id FROM observation WHERE category = 'error'")}
    rnd = create_round(db, "all", runs=[1], per_kg=None)
    chosen = {
        r[0]
        for r in db.execute(
            "SELECT observation_id FROM annotation_item WHERE round_id = ?", (rnd.id,)
        )
    }
    assert chosen and not chosen & errors
    assert not db.execute("SELECT 1 FROM annotation_item WHERE app_verdict = 'error'").fetchone()


def test_filters_by_observation_and_edge_ids(db) -> None:
    obs = [
        r[0] for r in db.execute("SELECT id FROM observation WHERE run_id = 2 ORDER BY id LIMIT 7")
    ]
    rnd = create_round(db, "obs", observation_ids=obs, per_kg=None)
    got = {
        r[0]
        for r in db.execute(
            "SELECT observation_id FROM annotation_item WHERE round_id = ?", (rnd.id,)
        )
    }
    assert got <= set(obs) and len(got) >= 5  # identical question + reply pairs are rated once
    edge = db.execute("SELECT edge_id FROM observation WHERE run_id = 1 LIMIT 1").fetchone()[0]
    rnd = create_round(db, "edge", runs=[1], edge_ids=[edge], per_kg=None)
    assert {
        r[0]
        for r in db.execute("SELECT edge_id FROM annotation_item WHERE round_id = ?", (rnd.id,))
    } == {edge}
    with pytest.raises(AnnotationError, match="no observation with id 999999"):
        create_round(db, "bad", observation_ids=[999999])
    with pytest.raises(AnnotationError, match="no run 42"):
        create_round(db, "bad", runs=[42])
    with pytest.raises(AnnotationError, match="choose the runs"):
        create_round(db, "bad")
    with pytest.raises(AnnotationError, match="already exists"):
        create_round(db, "obs", runs=[1])
    with pytest.raises(AnnotationError, match="annotator named twice"):
        create_round(db, "bad", runs=[1], annotators=["x", "x", "y"])
    assert [r.name for r in list_rounds(db)] == ["obs", "edge"]


def test_export_of_a_sampled_round_hides_the_app_verdict(db, tmp_path: Path) -> None:
    rnd = create_round(db, "blind", runs=[1, 2], per_kg=20)
    text = export_pack(db, rnd.id, "ann5", tmp_path / "p.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines()[1:]]
    assert not {"verdict", "category"} & {key for line in lines for key in line}
    assert not any(value in ("correct", "incorrect") for line in lines for value in line.values())
    assert len(lines) == 40
    assert all(
        set(line) <= {"item", "position", "qtype", "question", "answers", "response", "label"}
        for line in lines
    )


def test_cli_round_create_rounds_progress_report(db, capsys) -> None:
    from kglens_tui.cli.main import main

    path = db.execute("PRAGMA database_list").fetchone()[2]
    args = ["--db", path, "annotate"]
    assert (
        main(
            [
                *args,
                "round",
                "create",
                "--runs",
                "1,2",
                "--per-kg",
                "10",
                "--name",
                "cli",
                "--annotators",
                "a,b,c",
                "--majority",
                "2",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "20 items" in out and "country: 5 Yes/No + 5 Wh" in out
    assert main([*args, "rounds"]) == 0
    assert "cli" in capsys.readouterr().out
    assert main([*args, "progress", "cli"]) == 0
    assert "0 of 20" in capsys.readouterr().out
    assert main([*args, "report", "cli"]) == 0
    out = capsys.readouterr().out
    assert "QG+QAV" in out and "Krippendorff" in out and "Cohen" in out
    assert main([*args, "report", "nope"]) == 2
    assert "no annotation round 'nope'" in capsys.readouterr().err
    assert main([*args, "round", "create", "--runs", "1,x", "--name", "z"]) == 2
    assert "--runs takes comma-separated ids" in capsys.readouterr().err


def _create(path: str, *extra: str) -> int:
    from kglens_tui.cli.main import main

    return main(["--db", path, "annotate", "round", "create", "--runs", "1", *extra])


def test_default_majority_is_a_strict_majority_of_the_raters(db, capsys) -> None:
    path = db.execute("PRAGMA database_list").fetchone()[2]
    # was: "majority must be between 1 and the 2 raters per item (got 3)", a 3 never given
    assert _create(path, "--name", "two", "--annotators", "a,b") == 0
    assert "majority 2 of 2" in capsys.readouterr().out
    assert _create(path, "--name", "four", "--annotators", "a,b,c,d") == 0
    assert _create(path, "--name", "five") == 0  # the paper's 3 of 5
    assert _create(path, "--name", "overlap", "--raters-per-item", "3") == 0
    capsys.readouterr()
    majorities = {r.name: (r.settings.majority, r.raters) for r in list_rounds(db)}
    assert majorities == {"two": (2, 2), "four": (3, 4), "five": (3, 5), "overlap": (2, 3)}
    assert create_round(db, "api", runs=[1], annotators=("x", "y", "z")).settings.majority == 2
    # a majority the user gives is checked, and the error names the flags
    assert _create(path, "--name", "bad", "--annotators", "a,b", "--majority", "3") == 2
    err = capsys.readouterr().err
    assert err == "error: --majority must be between 1 and the 2 raters per item (got 3)\n"
    assert _create(path, "--name", "bad", "--annotators", "a,b", "--raters-per-item", "3") == 2
    assert "--raters-per-item must be between 1 and 2 annotators" in capsys.readouterr().err
    assert "bad" not in {r.name for r in list_rounds(db)}


@pytest.mark.parametrize(
    ("flag", "value", "shown"),
    [
        ("--name", "r\x1b[31m2", "'r␛[31m2'"),
        ("--name", "r\x00", "'r␀'"),
        ("--name", "right\u202eleft", "'right\u21c4left'"),
        ("--annotators", "a\nb", "'a⏎b'"),
        ("--annotators", "ann1,ann\t2", "'ann␉2'"),
        ("--annotators", "ann1,x\x9by", "'x\ufffdy'"),
    ],
)
def test_control_characters_in_round_and_annotator_names_are_refused(
    db, capsys, flag: str, value: str, shown: str
) -> None:
    path = db.execute("PRAGMA database_list").fetchone()[2]
    args = {"--name": "ok", "--annotators": "ann1,ann2,ann3", "--majority": "1", flag: value}
    assert _create(path, *(x for pair in args.items() for x in pair)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"error: {flag}: {shown} ")
    assert "control character" in err
    assert not any(ch in err for ch in "\x1b\x00\u202e\t\x9b")
    assert list_rounds(db) == []  # nothing stored
    assert db.execute("SELECT COUNT(*) FROM annotator").fetchone()[0] == 0
    # markup-like text is a name like any other
    assert _create(path, "--name", "[b]r[/]", "--annotators", "[i]a,b") == 0
    assert [r.annotators for r in list_rounds(db)] == [("[i]a", "b")]


def test_only_kglens_runs_can_be_annotated(db, capsys) -> None:
    from kglens_tui.modes.config import FactevalConfig, KontestConfig

    path = db.execute("PRAGMA database_list").fetchone()[2]
    run_blocking(prepare(db, config=FactevalConfig(kg="country", target="sim", facts=5)))
    run_blocking(prepare(db, config=KontestConfig(kg="country", target="sim", relations=3)))
    modes = dict(db.execute("SELECT id, mode FROM run").fetchall())
    assert modes == {1: "kglens", 2: "kglens", 3: "facteval", 4: "kontest"}
    # was: "no usable observations to sample from ('error' replies are skipped)"
    assert _create(path, "--name", "fe", "--runs", "3", "--annotators", "a,b") == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("error: only KGLens runs can be annotated: run 3 is a fact-eval run")
    # was: a round "from runs 1, 3" drawn from run 1 alone
    assert _create(path, "--name", "mixed", "--runs", "1,4,3", "--annotators", "a,b") == 2
    err = capsys.readouterr().err
    assert "run 3 is a fact-eval run; run 4 is a KONTEST run" in err and "run 1" not in err
    with pytest.raises(AnnotationError, match="run 4 is a KONTEST run"):
        create_round(db, "api", runs=[4, 2])
    assert list_rounds(db) == []
