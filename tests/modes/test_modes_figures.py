"""One definition per KONTEST / fact-eval figure, shown with its n wherever it appears: the
knowledge gap in the live screen and the report, units done (a unit with a failed request is not
done) in snapshots, reports and the run list, and Table 5 over few shared relations."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import wait_for
from kontest_support import hand_kg
from run_targets import ScriptedTarget
from tui_support import HUGE, make_app

from kglens_tui.analysis.report import RUN_COLUMNS, run_rows
from kglens_tui.answers.bias import Rate
from kglens_tui.cli.main import main
from kglens_tui.core.console import console
from kglens_tui.kg.importers import import_kg
from kglens_tui.llm.base import ChatRequest, Completion, LLMError
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.modes.kontest.ensemble import MIN_RELATIONS, weighted_ensemble
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

FAILING = {"Is Paris the capital of France?", "Is the capital of Germany Berlin?"}
"""France's template 1 and Germany's template 2: each relation has a failed atomic request."""
KINAWLEY_NO = {"Is Kinawley located in Ulster?": "No.", "Does Kinawley lie within Ulster?": "No."}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.db"
    conn = connect(path)
    import_kg(conn, hand_kg(tmp_path), "hand")
    conn.close()
    return path


def _kontest_with_failures(db: Path) -> int:
    """Six relations: France and Germany each with a failed atomic request, Kinawley denied by
    both templates, the rest affirmed."""
    conn = connect(db)
    try:
        config = KontestConfig(kg="hand", relations=None, transitive=[])
        target = ScriptedTarget(KINAWLEY_NO, fail=FAILING)
        return run_blocking(prepare(conn, config=config, target=target)).run_id
    finally:
        conn.close()


def _listed_units(db: Path, run_id: int) -> str:
    conn = connect(db)
    try:
        row = next(r for r in run_rows(conn) if r[0] == str(run_id))
        return row[RUN_COLUMNS.index("iterations")]
    finally:
        conn.close()


def test_report_and_run_list_count_only_units_without_a_failed_request(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _kontest_with_failures(db)
    conn = connect(db)
    snap = open_snapshot(conn, run_id)
    conn.close()
    assert (snap.units_done, snap.units_total) == (4, 6)
    assert (snap.metrics.relations_done, snap.metrics.relations_failed) == (4, 2)
    assert _listed_units(db, run_id) == "4/6 units"
    capsys.readouterr()
    assert main(["--db", str(db), "consistency", "report", str(run_id)]) == 0
    out = capsys.readouterr().out
    assert "4/6 units answered" in out
    assert "4/6 relations answered (2 with a failed request: a resume asks them again)" in out
    assert "6/6 relations answered" not in out


def test_a_facteval_run_whose_every_request_failed_has_no_unit_done(db: Path) -> None:
    class Down(ScriptedTarget):
        async def complete(self, request: ChatRequest) -> Completion:
            raise LLMError("server", "HTTP 500")

    conn = connect(db)
    config = FactevalConfig(kg="hand", facts=None, predicates=["capital"], qtypes=["tfq"])
    snap = run_blocking(prepare(conn, config=config, target=Down()))
    conn.close()
    assert snap.progress.counters.errors == snap.progress.counters.requests > 0
    assert (snap.units_done, snap.units_total) == (0, 6)
    assert (snap.metrics.questions_done, snap.metrics.questions_failed) == (0, 6)
    assert _listed_units(db, snap.run_id) == "0/6 units"


@pytest.mark.tui
def test_the_knowledge_gap_is_one_figure_with_its_n_on_screen_and_in_the_report(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(console, "width", 250)  # one table row per line
    run_id = _kontest_with_failures(db)
    conn = connect(db)
    cov = open_snapshot(conn, run_id).metrics.coverage
    conn.close()
    # 6 relations; France and Germany each lack an atomic answer, so the gap of both templates
    # is over 4 (Kinawley the one denied by both), not over 6
    assert (cov.relations, cov.known1, cov.known2, cov.known_both) == (6, 5, 5, 4)
    gap = cov.gap_both_rate
    assert gap == Rate(1, 4) and cov.unknown_both == 2
    capsys.readouterr()
    assert main(["--db", str(db), "consistency", "report", str(run_id)]) == 0
    out = capsys.readouterr().out
    table4 = out[out.index("KONTEST Table 4") :]
    assert f"1 · {gap.text()}" in table4 and "(n=4)" in gap.text()
    assert table4.count(f"1 · {Rate(1, 5).text()}") == 2  # each template's gap over its own n
    per_predicate = out[out.index("Per predicate") :]
    # located_in: Kinawley denied of 3; capital: Ireland the only relation with both answers
    assert f"1 · {Rate(1, 3).text()}" in per_predicate
    assert f"0 · {Rate(0, 1).text()}" in per_predicate

    async def on_screen() -> tuple[str, ...]:
        app = make_app(db)
        async with app.run_test(size=HUGE) as pilot:
            await pilot.pause()
            app.open_run(run_id)
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))

            def filled() -> bool:
                found = app.screen.query(".panel-table")
                return bool(found) and found.first(LiteralDataTable).row_count > 0

            await wait_for(pilot, filled)
            table = app.screen.query_one(".panel-table", LiteralDataTable)
            rows = [tuple(map(str, table.get_row_at(i))) for i in range(table.row_count)]
            progress = str(app.screen.query_one("#mode-progress").content)
            assert "done 4 of 6 · 2 with a failed request" in progress
            return next(r for r in rows if r[0] == "knowledge gap (both)")

    row = asyncio.run(on_screen())
    # the gap over its n, the rate with the report's interval, ..., relations left out
    # (failed requests)
    assert row[1:3] == ("1/4", gap.text().removesuffix(" (n=4)"))
    assert row[-1] == "— · 2"


def test_ensemble_refuses_a_run_named_twice_and_says_when_runs_share_few_relations(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in (1, 2):
        argv = ["--db", str(db), "consistency", "run", "--kg", "hand", "--relations", "all"]
        assert main([*argv, "--quiet", "--target", f"sim:{seed}"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "consistency", "ensemble", "1", "1"]) == 2
    assert "each run may be named once" in capsys.readouterr().err
    assert main(["--db", str(db), "consistency", "ensemble", "1", "2", "--folds", "1000"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "1000 fold(s)" not in out and "(capped at the" in out
    assert f"(fewer than {MIN_RELATIONS})" in out and "gap reduction vs models" not in out


def test_folds_are_capped_at_the_shared_relations() -> None:
    keys = [f"r{i}" for i in range(12)]
    answers = [{k: {1: "yes", 2: "no"} for k in keys}, {k: {1: "no", 2: "yes"} for k in keys}]
    errors = [{k: 0 for k in keys}, {k: 1 for k in keys}]
    result = weighted_ensemble(answers, errors, folds=1000)
    assert (result.relations, result.folds, result.too_few) == (12, 12, False)
    few = weighted_ensemble([{k: a[k] for k in keys[:3]} for a in answers], errors, folds=5)
    assert (few.relations, few.folds, few.too_few) == (3, 3, True)
