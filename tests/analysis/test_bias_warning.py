"""The answer-bias warning of a run where the model says "No." to every Yes/No question, and its
absence for a run that does not lean: one definition (`answers.bias.run_bias_warning`) shown by
`kglens review`, the HTML report and the review, drill-down, analysis and compare screens; and
the per-group Yes/No figures of `kglens analyze` in the group CSV, the HTML group tables and the
TUI's analysis table."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from analysis_support import RUN_A, Ask, import_mini, make_run
from conftest import wait_for
from textual.widgets import DataTable, Static
from tui_support import HUGE, make_app

from kglens_tui.analysis.groups import group_table, overall, yes_no_of
from kglens_tui.analysis.htmlreport import render_html_report
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.answers.bias import run_bias_warning, run_trust, run_yes_no_bias
from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.review import ReviewScreen
from kglens_tui.tui.screens.review_drill import DrillDownScreen

RUN_NO = {
    1: [
        Ask("e1", "Is Apolis the capital of Aland?", "No.", "incorrect", candidate="city:a"),
        Ask("e2", "Is Bopolis the capital of Borduria?", "No.", "incorrect", candidate="city:b"),
        Ask(
            "e3",
            "Is Apolis the capital of Caledonia?",
            "No.",
            "correct",
            expected="no",
            candidate="city:a",
        ),
        Ask("e4", "Is Xdollar the currency of Aland?", "No.", "incorrect", candidate="cur:x"),
        Ask(
            "e6",
            "Is Xdollar the currency of Caledonia?",
            "No.",
            "correct",
            expected="no",
            candidate="cur:x",
        ),
    ]
}
"""Always "No.": yes-rate 0 of 5, balanced accuracy (0/3 + 2/2) / 2 = 0.50, so biased; every
blind spot is a question whose answer is Yes."""
WARNING = (
    "answer bias: the model says No to 100% of Yes/No questions; its balanced accuracy is 0.50 "
    "(0.5 = chance), so its Yes/No scores are explained by the bias, not by knowledge"
)


@pytest.fixture
def db(tmp_path: Path) -> tuple[Path, int, int]:
    """The mini KG with RUN_A (yes-rate 4 of 8: no lean) and RUN_NO (always No)."""
    path = tmp_path / "bias.db"
    conn = connect(path)
    import_mini(conn, tmp_path)
    fair, biased = make_run(conn, RUN_A), make_run(conn, RUN_NO, target="always-no")
    conn.close()
    return path, fair, biased


def test_the_warning_fires_for_the_biased_run_only(db) -> None:
    path, fair, biased = db
    conn = connect(path)
    assert run_bias_warning(conn, biased) == WARNING
    assert run_bias_warning(conn, fair) == ""
    for run_id in (fair, biased):  # the report's figures are the same ones
        assert run_trust(conn, run_id).bias == run_yes_no_bias(conn, run_id)
    fair_bias = run_yes_no_bias(conn, fair)
    assert (fair_bias.answered, fair_bias.unparsed, fair_bias.yes_rate.k) == (8, 1, 4)
    conn.close()


def test_group_rows_carry_the_yes_no_figures_counted_by_hand(db) -> None:
    path, fair, _ = db
    conn = connect(path)
    data = load_run_data(conn, fair)
    rows = {r.key: r.yes_no for r in group_table(data, "predicate")}
    # capital: e1 yes/Yes, e2 yes/No, e1 no/No (e3's "I don't know." unparsed)
    assert (rows["capital"].answered, rows["capital"].yes_rate.k, rows["capital"].unparsed) == (
        3,
        1,
        1,
    )
    assert rows["capital"].balanced_accuracy == pytest.approx((1 / 2 + 1) / 2)
    # head of state: e7 yes/Yes, no/Yes, yes/No (e8's transport error left out)
    assert (rows["head_of_state"].answered, rows["head_of_state"].yes_rate.k) == (3, 2)
    assert overall(data).yes_no == run_yes_no_bias(conn, fair)
    assert yes_no_of(data, np.zeros(0, np.int64)).answered == 0
    conn.close()


def _cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    out = capsys.readouterr()
    return out.out + out.err


def test_cli_review_warns_above_the_blind_spots(db, capsys, monkeypatch) -> None:
    monkeypatch.setattr(commands.console, "width", 200)
    path, fair, biased = db
    out = _cli(capsys, "--db", str(path), "review", str(biased))
    assert f"⚠ {WARNING}" in out
    assert out.index("⚠ answer bias") < out.index(f"Run {biased} · ranked")
    assert "answer bias" not in _cli(capsys, "--db", str(path), "review", str(fair))


def test_groups_csv_and_analyze_csv_have_the_yes_no_columns(db, capsys, tmp_path: Path) -> None:
    path, fair, _ = db
    groups, table = tmp_path / "groups.csv", tmp_path / "analyze.csv"
    _cli(capsys, "--db", str(path), "export", str(fair), "--groups", str(groups))
    _cli(capsys, "--db", str(path), "analyze", str(fair), "--csv", str(table))
    for out in (groups, table):
        rows = {r["key"]: r for r in csv.DictReader(out.open())}
        capital = rows["capital"]
        assert float(capital["yes_rate"]) == pytest.approx(1 / 3)
        assert float(capital["yes_rate_low"]) < 1 / 3 < float(capital["yes_rate_high"])
        assert capital["yes_no_answered"] == "3"
        assert float(capital["balanced_accuracy"]) == pytest.approx(0.75)


def test_html_report_gives_the_yes_rate_balanced_accuracy_and_warning(db) -> None:
    path, fair, biased = db
    conn = connect(path)
    page = render_html_report(load_run_data(conn, biased))
    bias = run_yes_no_bias(conn, biased)
    assert bias.yes_rate.text() in page and "(n=5)" in page
    assert "balanced accuracy (chance = 0.50)</td><td>0.50" in page
    assert page.count(f"⚠ {WARNING}") == 2  # in the Yes/No section and above the blind spots
    assert page.index("⚠ answer bias") < page.index("Blind spots: top")
    assert "<th>yes-rate [95% interval] (n)</th><th>balanced accuracy</th>" in page
    fair_page = render_html_report(load_run_data(conn, fair))
    assert run_yes_no_bias(conn, fair).yes_rate.text() in fair_page
    assert "answer bias" not in fair_page and "class='warn'" not in fair_page
    conn.close()


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _shown(pilot, kind: type, selector: str):
    """The app's screen once it is a ``kind`` holding a ``selector`` widget."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and bool(app.screen.query(selector)))
    return app.screen


@pytest.mark.parametrize("biased", [True, False])
@pytest.mark.tui
async def test_the_screens_warn_about_a_biased_run_only(db, biased: bool) -> None:
    path, fair, no = db
    run_id, other = (no, fair) if biased else (fair, no)
    app = make_app(path)
    async with app.run_test(size=HUGE) as pilot:
        data = load_run_data(app.db(), run_id)
        app.push_screen(ReviewScreen(run_id, data))
        review = await _shown(pilot, ReviewScreen, "#rv-edges")
        await wait_for(pilot, lambda: review.query_one("#rv-edges", DataTable).row_count > 0)
        warning = review.query_one("#rv-bias", Static)
        assert warning.display is biased
        assert (_text(review, "#rv-bias") == f"⚠ {WARNING} (replies as logged)") is biased

        app.push_screen(DrillDownScreen(data, int(data.run.edge_ids[0])))
        drill = await _shown(pilot, DrillDownScreen, "#dd-run")
        await wait_for(pilot, lambda: drill.detail is not None)
        assert (f"⚠ {WARNING}" in _text(drill, "#dd-run")) is biased
        assert "chance" in _text(drill, "#dd-run")

        app.push_screen(AnalysisScreen(run_id, data))
        analysis = await _shown(pilot, AnalysisScreen, "#an-table")
        table = analysis.query_one("#an-table", DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        assert analysis.query_one("#an-bias", Static).display is biased
        assert (_text(analysis, "#an-bias") == f"⚠ {WARNING} (replies as logged)") is biased
        assert "yes-rate" in _text(analysis, "#an-overall")
        titles = [str(c.label) for c in table.columns.values()]
        assert titles[-2:] in (["yes-rate", "bal. acc."], ["yes-rate", "bal."])  # by layout

        app.push_screen(CompareScreen(run_id, other))
        compare = await _shown(pilot, CompareScreen, "#cmp-grid")
        await wait_for(pilot, lambda: compare.query_one("#cmp-grid", DataTable).row_count > 0)
        lines = _text(compare, "#cmp-bias").splitlines()
        assert lines == [f"⚠ run {no} (always-no): {WARNING}"]  # only the biased run, either side
        grid = compare.query_one("#cmp-grid", DataTable)
        cells = [str(grid.get_row_at(r)[1]) for r in range(grid.row_count)]
        assert sum("⚠ bias" in c for c in cells) == 1
