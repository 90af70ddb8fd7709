"""Model comparison: Table 3 layout, what one model knows and another does not, drift."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from analysis_support import (
    RUN_A,
    RUN_B,
    RUN_C,
    edge_ids,
    import_mini,
    make_run,
)
from tui_support import HUGE

from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.compare import (
    drift,
    grid_of_runs,
    knowledge_diff,
    load_runs,
    mean_interval,
    run_chance,
    run_grid,
)
from kglens_tui.analysis.groups import chance_of, group_comparison, group_table
from kglens_tui.answers.bias import run_trust
from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.core.intervals import wilson
from kglens_tui.runs.record import set_status
from kglens_tui.store.connection import connect


@pytest.fixture
def runs(conn: sqlite3.Connection, tmp_path: Path) -> tuple[sqlite3.Connection, list[int], dict]:
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    b = make_run(conn, RUN_B, target="model-b")
    c = make_run(conn, RUN_C, target="model-a", difficulty="hard")
    return conn, [a, b, c], edge_ids(conn)


def test_table3_grid(runs) -> None:
    conn, (a, b, c), _ = runs
    grid = run_grid(conn)
    assert grid.models == ["model-a", "model-b"]
    assert grid.columns == [("mini", "easy"), ("mini", "hard")]
    assert grid.cell("model-a", "mini", "easy").run_id == a
    assert grid.cell("model-a", "mini", "easy").rates.win.value == pytest.approx(2 / 6)
    assert grid.cell("model-b", "mini", "easy").rates.win.value == pytest.approx(4 / 5)
    assert grid.cell("model-a", "mini", "hard").rates.win.value == 1.0
    assert grid.cell("model-b", "mini", "hard") is None
    fewer = make_run(conn, RUN_B, target="model-a")  # later, but 5 edges examined to a's 6
    assert run_grid(conn).cell("model-a", "mini", "easy").run_id == a
    newer = make_run(conn, RUN_A, target="model-a")  # as many edges, later: it fills the cell
    assert run_grid(conn).cell("model-a", "mini", "easy").run_id == newer
    assert sorted(run_grid(conn).hidden) == [(a, newer), (fewer, newer)]


def test_knows_and_does_not(runs) -> None:
    conn, (a, b, _), ids = runs
    ra, rb = load_runs(conn, [a, b])
    diff = knowledge_diff(ra, rb)
    # both examined e1 e2 e3 e4: A knows e1 e4, partial e2, unknown e3; B unknown e1, knows rest
    assert diff.common == 4
    assert {k: v for k, v in diff.table.items() if v} == {
        ("knows", "unknown"): 1,
        ("partial", "knows"): 1,
        ("unknown", "knows"): 1,
        ("knows", "knows"): 1,
    }
    assert [p.edge_id for p in diff.a_only] == [ids["e1"]]
    assert [p.edge_id for p in diff.b_only] == [ids["e3"]]
    e1 = diff.a_only[0]
    assert (e1.m_a, e1.n_a, e1.m_b, e1.n_b) == (2, 0, 0, 1)
    assert (e1.mean_a, e1.mean_b) == (pytest.approx(1 / 4), pytest.approx(2 / 3))
    tr.mark_kg_error(conn, edge_id=ids["e1"], author="ann", reason="wrong capital")
    ra, rb = load_runs(conn, [a, b])
    assert knowledge_diff(ra, rb).common == 3 and knowledge_diff(ra, rb).a_only == []
    assert knowledge_diff(ra, rb, adjusted=False).common == 4


def test_drift_same_model(runs) -> None:
    conn, (a, b, c), ids = runs
    ra, rc = load_runs(conn, [a, c])
    d = drift(ra, rc)
    assert d.same_model
    assert d.delta["win"] == pytest.approx(1 - 2 / 6)
    assert d.delta["zero_sense"] == pytest.approx(0 - 2 / 6)
    assert d.diff.common == 1 and d.changed == []  # e1 known in both
    assert d.mean_shift == pytest.approx(1 / 3 - 1 / 4)  # e1: Beta(1, 3) -> Beta(1, 2)
    assert [
        (p.predicate, p.edges, p.zero_sense_a.k, p.zero_sense_b.k) for p in d.per_predicate
    ] == [("capital", 1, 0, 0)]
    rb = load_runs(conn, [b])[0]
    other = drift(ra, rb)
    assert not other.same_model
    assert {p.edge_id for p in other.changed} == {ids["e1"], ids["e2"], ids["e3"]}


def test_group_comparison_fig7_layout(runs) -> None:
    conn, (a, b, _), _ = runs
    comp = group_comparison(load_runs(conn, [a, b]), "subject")
    assert [c.label for c in comp.runs] == ["model-a", "model-b"]
    rows = {r.key: r for r in comp.rows}
    assert [r.label for r in comp.rows] == ["Aland", "Borduria", "Caledonia"]
    caledonia = rows["c:C"].cells
    assert caledonia[0].rates.zero_sense.value == 1.0  # A: e3 0/2
    assert caledonia[1].rates.zero_sense.value == 0.0  # B: e3 1/0, e6 1/0
    assert (caledonia[0].edges, caledonia[1].rates.examined) == (2, 2)


def test_group_comparison_gives_each_cell_what_chance_scores_on_its_questions(runs) -> None:
    """Run A asked capital e1 Yes/No twice and e2, e3 each once Yes/No and once Wh, whose
    constant answer (Apolis) is wrong for both: a coin wins (1/4 + 0 + 0) / 3, is never right
    (1/4 + 1/2 + 1/2) / 3; run B asked each capital edge once Yes/No (1/2). Over every edge
    the chance is the whole run's (`run_chance`, as the Table 3 cells), and a KG-error mark
    takes its edge's questions out of the group's chance as out of its rates."""
    conn, (a, b, _), ids = runs
    ra, rb = load_runs(conn, [a, b])
    comp = group_comparison([ra, rb], "predicate")
    rows = {r.key: r for r in comp.rows}
    capital_a, capital_b = rows["capital"].chances
    assert capital_a is not None and capital_b is not None
    assert capital_a.win_rate == pytest.approx(1 / 12)
    assert capital_a.zero_sense == pytest.approx(5 / 12)
    assert capital_b.win_rate == pytest.approx(1 / 2) and capital_b.zero_sense == 1 / 2
    head = rows["head_of_state"].chances[0]  # e7: three Yes/No asks
    assert head is not None and (head.win_rate, head.zero_sense) == (1 / 2, 1 / 8)
    unasked = rows["head_of_state"].chances[1]  # run B examined none of its edges
    assert unasked is not None and unasked.win_rate is None
    everything = chance_of(ra, np.arange(ra.n_edges), adjusted=False)
    assert everything == run_chance(ra) == run_trust(conn, a).baseline
    tr.mark_kg_error(conn, edge_id=ids["e3"], author="ann", reason="wrong capital")
    ra = load_runs(conn, [a])[0]
    chances = {r.key: r.chance for r in group_table(ra, "predicate")}
    assert chances["capital"].win_rate == pytest.approx(1 / 8)
    raw = {r.key: r.chance for r in group_table(ra, "predicate", adjusted=False)}
    assert raw["capital"] == capital_a


def test_the_whole_run_chance_follows_triage_as_the_rates(runs) -> None:
    """Table 3's and drift's chance is over the replies the rates count: with triage by default
    (a KG-error edge's questions leave it), as logged with --raw, where it is the report's.
    Run A's e3 (capital, asked Yes/No and Wh, the constant answer wrong) chance never wins: the
    chance wins of its six examined edges sum to 7/4, 7/24 of them, and 7/20 of the five left
    when e3 is marked as a KG error."""
    conn, (a, _, c), ids = runs
    tr.mark_kg_error(conn, edge_id=ids["e3"], author="ann", reason="wrong capital")
    ra, rc = load_runs(conn, [a, c])
    raw = run_chance(ra, adjusted=False)
    assert raw == run_trust(conn, a).baseline == chance_of(ra, np.arange(ra.n_edges), False)
    kept = np.flatnonzero(ra.included(True))
    assert len(kept) == ra.n_edges - 1
    adjusted = run_chance(ra)
    assert adjusted == run_chance(ra, adjusted=True) == chance_of(ra, kept, True)
    assert raw.win_rate == pytest.approx(7 / 24) and adjusted.win_rate == pytest.approx(7 / 20)
    assert run_grid(conn).cell("model-a", "mini", "easy").chance == adjusted
    assert run_grid(conn, adjusted=False).cell("model-a", "mini", "easy").chance == raw
    assert drift(ra, rc).chance_a == adjusted
    assert drift(ra, rc, adjusted=False).chance_a == raw


def test_different_kgs_refused(runs, tmp_path: Path, tiny_kg_dir: Path) -> None:
    conn, (a, _, _), _ = runs
    from kglens_tui.kg.importers import import_kg
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    import_kg(conn, tiny_kg_dir, "tiny")
    snap = run_blocking(prepare(conn, config=RunConfig(kg="tiny", iterations=1, batch_size=4)))
    ra, rt = load_runs(conn, [a, snap.run_id])
    with pytest.raises(ValueError, match="different KGs"):
        knowledge_diff(ra, rt)


def test_averages_are_per_difficulty_over_finished_runs_with_their_n(runs) -> None:
    """Table 3's average never mixes EASY with HARD (chance differs) nor holds a failed run,
    and says which runs and how many edges it is over."""
    conn, (a, b, c), _ = runs
    grid = run_grid(conn)
    easy = grid.average("model-a", "easy")
    assert easy is not None and easy.value == pytest.approx(2 / 6)  # not (2/6 + 1) / 2
    assert (easy.runs, easy.examined, easy.left_out) == ([a], 6, [])
    assert easy.low is not None and easy.high is not None and easy.low < 2 / 6 < easy.high
    assert easy.chance == pytest.approx(grid.cell("model-a", "mini", "easy").chance.win_rate)
    set_status(conn, c, "failed", error="HTTP 500")
    hard = run_grid(conn).average("model-a", "hard")
    assert hard is not None and hard.value is None
    assert (hard.runs, hard.examined, hard.left_out) == ([], 0, [(c, "failed")])


def test_mean_interval_of_several_rates() -> None:
    """The average's interval: the cells' standard errors (half-widths over z) combined."""
    one, two = wilson(3, 10), wilson(8, 10)
    mean, low, high = mean_interval([one, two, wilson(0, 0)])
    assert mean == pytest.approx(0.55)
    half = ((one.high - one.low) ** 2 + (two.high - two.low) ** 2) ** 0.5 / 4
    assert (low, high) == (pytest.approx(0.55 - half), pytest.approx(0.55 + half))
    assert mean_interval([]) == (None, None, None)


def test_runs_sharing_a_cell_are_named_as_left_out(runs) -> None:
    """Two requested runs of one model, KG and difficulty: the grid shows one and says which
    it left out (compare 1 6 dropped run 1 silently)."""
    conn, (a, _, _), _ = runs
    newer = make_run(conn, RUN_A, target="model-a")
    grid = grid_of_runs(load_runs(conn, [a, newer]))
    assert grid.cell("model-a", "mini", "easy").run_id == newer
    assert grid.hidden == [(a, newer)]


def test_runs_of_different_difficulty_are_not_drift(runs) -> None:
    conn, (a, b, c), _ = runs
    ra, rb, rc = load_runs(conn, [a, b, c])
    moved = drift(ra, rc)
    assert moved.same_model and moved.differs == ["difficulty EASY → HARD"]
    assert not moved.is_drift
    assert not drift(ra, rb).is_drift  # different models
    again = load_runs(conn, [make_run(conn, RUN_B, target="model-a")])[0]
    assert drift(ra, again).is_drift and drift(ra, again).differs == []


def _compare(capsys, path: Path, *argv: str, width: int = 250) -> str:
    monkey = pytest.MonkeyPatch()
    monkey.setattr(commands.console, "width", width)
    try:
        assert main(["--db", str(path), "compare", *argv]) == 0
    finally:
        monkey.undo()
    return capsys.readouterr().out


def test_compare_prints_examined_n_left_out_runs_and_no_false_drift(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cmp.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    newer = make_run(conn, RUN_B, target="model-a")
    hard = make_run(conn, RUN_C, target="model-a", difficulty="hard")
    conn.close()
    out = _compare(capsys, path, str(a), str(newer), "--by", "predicate")
    # per predicate, the n beside a rate is the edges examined (currency: 2 in run a)
    assert "50.0% [9.5%–90.5%] n=2" in out
    # and what chance scores on the group's questions (capital in run a: a coin wins 1/12)
    groups = out[out.index("win per predicate") :]
    assert "33.3% [6.1%–79.2%] n=3 · chance 8.3%" in groups
    assert "66.7% [20.8%–93.9%] n=3 · chance 50.0%" in groups  # run b: one Yes/No ask each
    out = _compare(capsys, path, str(a), str(newer), "--by", "predicate", "--metric", "zero-sense")
    groups = out[out.index("zero-sense per predicate") :]
    assert "33.3% [6.1%–79.2%] n=3 · chance 41.7%" in groups
    out = _compare(capsys, path, str(a), str(newer), "--by", "predicate", width=80)
    groups = out[out.index("win per predicate") :]
    groups = groups[: groups.index("└")]
    assert max(len(line) for line in groups.splitlines()) <= 80
    capital = [line for line in groups.splitlines() if "chance 8.3%" in line]
    assert len(capital) == 1 and "n=3 · chance 8.3%" in capital[0]  # under its rate
    # run a examined 6 edges, the newer run 5: a has the cell
    assert f"Run {newer} is not in the table: run {a} has the same model" in out
    assert "Drift run" in out and "chance 50.0%" in out
    out = _compare(capsys, path, str(a), str(hard))
    assert "Drift not measured (difficulty EASY → HARD)" in out and "Drift run" not in out
    # the KG-wide difference first; the rates over the examined edges after it, labelled
    first = min(out.find(t) % len(out) for t in ("KG-wide difference", "KG-wide win rate, run"))
    assert first < out.index("; over the edges each run examined: win ")
    assert "No average for EASY, HARD: one KG there" in out


def test_compare_says_when_its_figures_ignore_triage(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cmp.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    b = make_run(conn, RUN_B, target="model-b")
    conn.close()
    out = " ".join(_compare(capsys, path, str(a), str(b), "--by", "predicate", "--raw").split())
    assert "(paper Table 3 layout) (as logged)" in out and "win per predicate (as logged)" in out
    out = " ".join(_compare(capsys, path, str(a), str(b), "--by", "predicate").split())
    assert "as logged" not in out.replace("kglens report RUN", "")


def test_a_cell_prefers_a_run_that_did_not_fail_then_the_most_examined(runs, capsys) -> None:
    """A failed run (later, fewer edges) never takes a stopped run's cell; a run with edges
    examined beats one without; between runs alike, the most edges examined, then the latest."""
    conn, (a, _, _), _ = runs
    set_status(conn, a, "stopped")  # 6 edges examined
    failed = make_run(conn, RUN_C, target="model-a")  # 1 edge examined, the latest
    set_status(conn, failed, "failed", error="HTTP 500")
    grid = run_grid(conn)
    cell = grid.cell("model-a", "mini", "easy")
    assert (cell.run_id, cell.status) == (a, "stopped")
    assert (failed, a) in grid.hidden
    set_status(conn, a, "failed", error="HTTP 500")
    stopped = make_run(conn, RUN_C, target="model-a")  # 1 edge, not failed: it wins over a's 6
    set_status(conn, stopped, "stopped")
    assert run_grid(conn).cell("model-a", "mini", "easy").run_id == stopped


def test_a_cell_with_several_runs_says_which_run_it_is(tmp_path: Path, capsys) -> None:
    path = tmp_path / "cmp.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    a = make_run(conn, RUN_A, target="model-a")
    set_status(conn, a, "stopped")
    failed = make_run(conn, RUN_C, target="model-a")
    set_status(conn, failed, "failed", error="HTTP 500")
    conn.close()
    out = _compare(capsys, path)
    assert f"(run {a}, stopped)" in out and f"(run {failed}, failed)" not in out
    assert f"Run {failed} is not in the table: run {a} has the same model" in out


def test_the_default_partner_examined_edges_and_did_not_fail(tmp_path: Path, capsys) -> None:
    """The run compared with by default (the TUI's B) is a KGLens run on the same KG that
    examined edges and did not fail, the most edges first, then the latest: never a later run
    that failed with no edge examined, nor another mode's run."""
    from kglens_tui.analysis.compare import compare_partners

    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    probe += ["--batch-size", "16"]
    assert main([*probe, "--iterations", "2"]) == 0  # run 1: 32 edges
    assert main([*probe, "--iterations", "1"]) == 0  # run 2: 16 edges
    assert main([*probe, "--iterations", "3", "--target", "sim:1"]) == 0  # run 3: 48 edges
    failed = [*probe, "--iterations", "1", "--target", "openai:m", "--max-retries", "0"]
    assert main([*failed, "--base-url", "http://127.0.0.1:9/v1"]) == 1  # run 4: no edge
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    capsys.readouterr()
    conn = connect(db)
    statuses = dict(conn.execute("SELECT id, status FROM run").fetchall())
    assert statuses == {1: "finished", 2: "finished", 3: "finished", 4: "failed", 5: "finished"}
    assert compare_partners(conn, 2) == [3, 1, 4]
    assert compare_partners(conn, 4) == [3, 1, 2]
    set_status(conn, 3, "failed", error="HTTP 500")  # failed, though it examined the most
    assert compare_partners(conn, 2) == [1, 3, 4]
    assert compare_partners(conn, 99) == []


@pytest.mark.tui
def test_the_compare_screen_offers_the_default_partner_first(tmp_path: Path, capsys) -> None:
    """Home's compare screen takes `compare_partners`' first run as B (not the newest run: a
    later run that failed), and lists only the KGLens runs on A's KG."""
    import asyncio

    from conftest import wait_for
    from textual.widgets import Select
    from tui_support import make_app

    from kglens_tui.tui.screens.compare import CompareScreen

    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    probe += ["--batch-size", "16", "--iterations", "1"]
    for _ in range(3):
        assert main(probe) == 0
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    capsys.readouterr()
    conn = connect(db)
    set_status(conn, 3, "failed", error="HTTP 500")
    conn.close()
    app = make_app(db)

    async def drive() -> None:
        async with app.run_test(size=HUGE) as pilot:
            app.push_screen(CompareScreen(1))
            await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen))
            await wait_for(pilot, lambda: app.screen.loaded)
            await pilot.pause()
            select = app.screen.query_one("#cmp-b", Select)
            assert app.screen.run_b == 2 and select.value == 2
            assert [value for _, value in select._options if isinstance(value, int)] == [2, 3]

    asyncio.run(drive())


def test_an_average_of_kg_wide_rates_gives_their_answers_as_its_n(tmp_path: Path) -> None:
    """Table 3's average of two KGs' KG-wide win rates says how many answers it rests on, not
    how many edges the runs examined (a trial read "n=1,086" beside a rate of 1,280 answers)."""
    db = str(tmp_path / "w.db")
    for kg, subset in (("country", ["--subset", "paper16"]), ("elements", [])):
        args = ["--db", db, "probe", "--no-tui", "--kg", kg, *subset, "--target", "sim"]
        assert main([*args, "--iterations", "3", "--quiet", "--no-convergence-stop"]) == 0
    conn = connect(Path(db))
    grid = run_grid(conn)
    (model,) = grid.models
    average = grid.average(model, "easy")
    assert average is not None and average.answers is not None
    cells = [grid.cell(model, kg, "easy") for kg in ("country/paper16", "elements")]
    assert all(c is not None and c.kg_wide is not None for c in cells)
    assert average.answers == sum(c.kg_wide.rate.answers for c in cells if c and c.kg_wide)
    assert average.answers != average.examined
    assert f"n={average.answers:,} answers" in average.text()
    conn.close()
