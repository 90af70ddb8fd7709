"""Questions that do not give their answers away (issue #34): KONTEST leaves out hierarchy
questions whose object is part of the subject's name and counts them; no Wh template lists
answers; state names take "the" where English puts it."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.cli.main import main
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.bundled_data import bundled_names
from kglens_tui.kg.graph import load_kg
from kglens_tui.kg.templates import fill, named, takes_the
from kglens_tui.modes import KontestConfig
from kglens_tui.modes.kglens.questions import subject_display
from kglens_tui.modes.kontest.oracles import path_pairs
from kglens_tui.modes.kontest.plan import gives_answer_away, paraphrases, plan_kontest
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


@pytest.fixture(scope="module")
def places() -> tuple[sqlite3.Connection, object]:
    conn = connect(":memory:")
    ensure_kg(conn, "places")
    return conn, load_kg(conn, "places")


def test_the_rule_of_a_give_away(places) -> None:
    _, kg = places
    county = next(i for i, label in enumerate(kg.labels) if label == "Pulaski County, Arkansas")
    arkansas = next(i for i, label in enumerate(kg.labels) if label == "Arkansas")
    assert gives_answer_away(kg, county, arkansas)
    assert not gives_answer_away(kg, arkansas, county)


def test_kontest_hierarchy_questions_give_no_answer_away(places) -> None:
    conn, kg = places
    config = KontestConfig(
        kg="places", target="sim", relations=0, transitive=["located_in"], max_paths=400
    )
    plan = plan_kontest(conn, kg, config)
    assert plan.paths and plan.gives_away > 0
    asked = {(r.s, r.o) for r in plan.relations}
    assert not any(gives_answer_away(kg, s, o) for s, o in asked)
    for path in plan.paths:
        assert not any(gives_answer_away(kg, a, b) for a, b in path_pairs([path.nodes]))
    for r in plan.relations:
        assert not re.search(r"Is .+, (\w[\w ]*) part of \1\?", r.question1)


def test_a_kontest_run_counts_what_it_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    conn = connect(db)
    config = KontestConfig(
        kg="places", target="sim", relations=0, transitive=["located_in"], max_paths=3
    )
    engine = prepare(conn, config=config)
    run_blocking(engine)
    left_out = engine.run.manifest["gives_away_left_out"]
    assert left_out > 0
    assert main(["--db", str(db), "consistency", "report", str(engine.run.id)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"{left_out:,} relations and paths left out: a question about them names its own" in out


@pytest.mark.parametrize("name", sorted(bundled_names()))
def test_no_wh_template_lists_answers(name: str) -> None:
    conn = connect(":memory:")
    ensure_kg(conn, name)
    kg = load_kg(conn, name)
    types = np.array(kg.types)
    for p, templates in enumerate(kg.pred_templates):
        wh = templates.get("wh") or ""
        objects = kg.o[kg.p == p]
        if not wh or not len(objects):
            continue
        kind = kg.types[int(objects[0])]
        labels = {kg.labels[i] for i in np.flatnonzero(types == kind).tolist()}
        listed = [
            label
            for label in labels
            if len(label) > 3 and re.search(rf"(?<!\w){re.escape(label)}(?!\w)", wh, re.IGNORECASE)
        ]
        assert not listed, (kg.pred_keys[p], listed)


def test_state_names_take_the_where_english_does() -> None:
    assert [
        n
        for n in (
            "United States",
            "Netherlands",
            "Central African Republic",
            "Gambia",
            "Solomon Islands",
            "Bahamas",
        )
        if not takes_the(n)
    ] == []
    assert [
        n
        for n in ("Czechia", "Barbados", "Saint Kitts and Nevis", "Cyprus", "Laos", "Honduras")
        if takes_the(n)
    ] == []
    assert named("Netherlands", "country") == "the Netherlands"
    assert named("Netherlands", "city") == "Netherlands"
    assert fill("{subject} is located in {object}.", "the Bahamas", "North America") == (
        "The Bahamas is located in North America."
    )


def test_questions_about_states_use_the() -> None:
    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    usa = kg.node("country:USA")
    nld = kg.node("country:NLD")
    assert subject_display(kg, usa, np.array([], dtype=np.int64)).startswith("the United States")
    deu = kg.node("country:DEU")
    border = kg.pred_keys.index("shares_border_with")
    first, second = paraphrases(kg, deu, border, nld)
    assert "the Netherlands" in first and "the Netherlands" in second
