"""A unit mode's report is the panels it declares (`Mode.report_panels`): KONTEST's and
fact-eval's figures for a small simulated run, and the toy mode's (tests/toy_mode.py) through the
same path, printed by `kglens report`, written by `kglens export --html` and shown by the results
screen, with a model's reply shown literally in each."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
from rich.console import Console
from run_targets import ScriptedTarget
from toy_mode import ToyConfig

from kglens_tui.answers.bias import Rate
from kglens_tui.cli.main import main
from kglens_tui.modes import FactevalConfig, KontestConfig
from kglens_tui.runs.panel_html import panels_html
from kglens_tui.runs.panels import Panel, PanelRow
from kglens_tui.runs.registry import get_mode
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import rate_ci
from kglens_tui.tui.screens.mode_analysis import analysis_renderables

HOSTILE = "[bold]x[/] \x1b[2J <b>&amp;"
"""Rich markup, a terminal escape that clears the screen, and HTML, as a model might reply."""
SHOWN = "[bold]x[/] \u241b[2J <b>&amp;"
"""How a terminal shows it: the markup as text, the escape as its control picture."""
ESCAPED = "[bold]x[/] \u241b[2J &lt;b&gt;&amp;amp;"
"""How an HTML page holds it: the same text, a tag and an entity escaped."""


def _flat(printed: str) -> str:
    """Output as one line of words, table rules dropped."""
    return " ".join(printed.replace("│", " ").split())


def _by_key(panels: list[Panel]) -> dict[str, Panel]:
    return {p.key: p for p in panels}


@pytest.fixture
def toy_db(tmp_path: Path) -> Path:
    """A finished toy run (run 1) of 3 edges whose every reply is `HOSTILE`."""
    db = tmp_path / "w.db"
    conn = connect(db)
    try:
        target = ScriptedTarget(reply_fn=lambda users: HOSTILE, label="hostile")
        run_blocking(prepare(conn, config=ToyConfig(kg="country", edges=3), target=target))
    finally:
        conn.close()
    return db


def test_the_toy_report_is_its_declared_panels_in_the_cli(
    toy_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["--db", str(toy_db), "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    flat = _flat(out)
    assert flat.startswith("Run 1 · toy · KG country · target hostile · ")
    assert "toy answers" in flat and "answered 3" in flat
    assert flat.count(f"reply {SHOWN}") == 3  # each reply, as the model wrote it


def test_the_toy_report_is_its_declared_panels_in_html(toy_db: Path, tmp_path: Path) -> None:
    page = tmp_path / "toy.html"
    assert main(["--db", str(toy_db), "export", "1", "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<h1>toy run 1</h1>" in text
    assert "<caption>toy answers</caption>" in text
    assert text.count(f"<td>reply</td><td class='r'>{ESCAPED}</td>") == 3
    assert "\x1b" not in text and "<b>" not in text
    # a run that stores no observations has no edge tables to export
    assert main(["--db", str(toy_db), "export", "1", "--csv", str(tmp_path / "e.csv")]) == 2
    assert not (tmp_path / "e.csv").exists()


def test_the_results_screen_shows_the_toy_report_literally(toy_db: Path) -> None:
    conn = connect(toy_db)
    try:
        title, shown = analysis_renderables(conn, 1, compare=False)
    finally:
        conn.close()
    assert title == "Toy run 1"
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    for renderable in shown:
        console.print(renderable)
    assert "\x1b" not in out.getvalue()
    assert _flat(out.getvalue()).count(f"reply {SHOWN}") == 3


def test_the_html_renderer_escapes_every_text_and_aligns_figures() -> None:
    panel = Panel(
        "p",
        HOSTILE,
        (HOSTILE, "n"),
        (PanelRow("a", (HOSTILE, "12")),),
        notes=(HOSTILE,),
        warning=HOSTILE,
        caption=HOSTILE,
        align="Lr",
    )
    html = panels_html([panel])
    assert "\x1b" not in html and "<b>" not in html
    assert f"<caption>{ESCAPED}</caption>" in html
    assert f"<th class='L'>{ESCAPED}</th><th class='r'>n</th>" in html
    assert f"<td class='L'>{ESCAPED}</td><td class='r'>12</td>" in html
    assert f"<p class='note'>{ESCAPED}</p>" in html and f"<p>{ESCAPED}</p>" in html
    assert f"<p class='warn'>⚠ {ESCAPED}</p>" in html


def test_kontest_report_panels_of_a_simulated_run(hand: sqlite3.Connection) -> None:
    config = KontestConfig(kg="hand", relations=None, transitive=["located_in"])
    run_id = run_blocking(prepare(hand, config=config)).run_id
    m = open_snapshot(hand, run_id).metrics
    panels = _by_key(get_mode("kontest").report_panels(hand, run_id, latest=2))
    expected = ["run", "answers", "chance", "consistency", "coverage", "per-predicate"]
    assert list(panels)[: len(expected)] == expected
    assert panels["run"].title.startswith(f"Run {run_id} · KONTEST · KG hand · target simulated")
    table3 = panels["consistency"]
    assert [row.cells[0] for row in table3.rows] == [o.oracle for o in m.oracles]
    for o, row in zip(m.oracles, table3.rows, strict=True):
        assert row.cells[4] == f"{o.inconsistent:,} · {Rate(o.inconsistent, o.valid).text()}"
    assert table3.align == "Lrrrrr" and table3.caption.startswith("valid: executions")
    assert panels["coverage"].rows[0].cells[0] == f"{m.coverage.relations:,}"
    assert [row.cells[0] for row in panels["per-predicate"].rows] == [
        p.predicate for p in m.per_predicate
    ]
    latest = panels.get("findings")
    assert (latest is not None) == bool(m.findings)
    if latest is not None:
        assert [row.cells[1] for row in latest.rows] == [f.fact for f in m.findings[-2:]]


def test_facteval_report_panels_of_a_simulated_run(hand: sqlite3.Connection) -> None:
    config = FactevalConfig(kg="hand", facts=None, contexts=["none", "relevant"])
    run_id = run_blocking(prepare(hand, config=config)).run_id
    m = open_snapshot(hand, run_id).metrics
    panels = _by_key(get_mode("facteval").report_panels(hand, run_id))
    assert panels["run"].title.startswith(f"Run {run_id} · fact-eval · KG hand")
    assert {"chance", "scores", "counts", "per-relation"} <= set(panels)
    assert [*panels].index("chance") < [*panels].index("scores")  # chance first
    scores = panels["scores"]
    assert scores.columns[0] == "question · context"  # two contexts side by side
    assert len(scores.rows) == len(m.scores)
    for s, row in zip(m.scores, scores.rows, strict=True):
        assert row.cells[1:3] == (
            rate_ci(*s.precision_ci.bounds),
            rate_ci(*s.recall_ci.bounds),
        )
        assert row.cells[-1] == f"{s.total:,}"
    assert panels["counts"].notes[0].startswith(f"{m.questions_done:,}/{m.questions:,} questions")


def test_a_report_of_another_modes_run_is_refused(hand: sqlite3.Connection) -> None:
    config = FactevalConfig(kg="hand", facts=None, contexts=["none"])
    run_id = run_blocking(prepare(hand, config=config)).run_id
    with pytest.raises(LookupError, match="is a fact-eval run, not a KONTEST one"):
        get_mode("kontest").report_panels(hand, run_id)
    assert get_mode("kglens").report_panels(hand, run_id) == []  # its report is its own


def test_a_modes_command_group_is_what_it_declares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "w.db")
    base = ["--db", db, "toy"]
    assert main([*base, "run", "--kg", "country", "--edges", "4", "--quiet"]) == 0
    assert main([*base, "report", "1"]) == 0  # its own command
    out = _flat(capsys.readouterr().out)
    assert "Run 1 · toy · KG country" in out and "answered 4" in out
    assert main([*base, "list"]) == 0  # the harness's, named by the mode
    assert "toy runs" in capsys.readouterr().out
    assert main([*base, "report", "2"]) == 2  # no such run: an error message, no traceback
    assert "run 2" in capsys.readouterr().err
