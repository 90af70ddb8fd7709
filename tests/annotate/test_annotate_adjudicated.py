"""What adjudication leaves in view: the CLI report lists every decision (item, question,
decision, majority, by whom and why) literally, and the decision dialog speaks of the questions
as it shows them and opens on its first control."""

from __future__ import annotations

from pathlib import Path

import pytest
from annotate_support import _hand_db
from conftest import wait_for
from textual.widgets import Select
from tui_support import LARGE, make_default_app

from kglens_tui.annotate.adjudication import DECISION_LABELS, adjudicate
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen, DecisionScreen
from kglens_tui.tui.screens.annotate_home import RoundsScreen


def test_the_cli_report_lists_adjudicated_items(tmp_path: Path, capsys) -> None:
    """Was: the report said nothing of which items an adjudicator decided, by whom or why."""
    db = tmp_path / "w.db"
    _hand_db(db)
    conn = connect(db)
    yes_no = conn.execute(
        "SELECT id FROM annotation_item WHERE round_id = 1 AND qtype = 'yes_no' ORDER BY id"
    ).fetchone()[0]
    adjudicate(conn, yes_no, reason="[b]bold?[/b] no", adjudicator="lead2", question_clear="no")
    conn.close()
    assert main(["--db", str(db), "annotate", "report", "r1"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("Adjudicated (2)") :]
    row = next(line for line in section.splitlines() if f"#{yes_no} " in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells[0] == f"#{yes_no}" and cells[2:5] == ["no", "yes", "lead2"], cells
    assert cells[1].startswith("Intent of the") and "bold?" in cells[5], cells
    assert "[b]bold?[/b] no" in section  # the reason, literally
    assert "#7" in section and "lead " in section and "Au is the answer;" in section


@pytest.mark.tui
async def test_the_decision_dialog_names_the_questions_as_shown(tmp_path: Path) -> None:
    """Was: "an adjudication decides question_clear, response_correct or both", and the focus
    sat in the reason box, below the two choices."""
    db = tmp_path / "w.db"
    _hand_db(db)
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, AdjudicationScreen))
        adjudication = app.screen
        await wait_for(pilot, lambda: adjudication.selected() is not None)
        while adjudication.selected().qtype != "wh":
            await pilot.press("down")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DecisionScreen))
        dialog = app.screen
        first = dialog.query_one("#adj-clear", Select)
        await wait_for(pilot, lambda: app.focused is first)
        dialog.query_one("#adj-reason").value = "a reason"
        await pilot.press("ctrl+s")  # both still "keep the majority"
        error = dialog.query_one("#adj-error")
        await wait_for(pilot, lambda: "nothing decided" in str(error.render()))
        message = str(error.render())
        assert message == (
            "nothing decided: choose an answer to 'Intent of the question clear?', "
            "'AI's response correct?' or both (not 'keep the majority')"
        )
        assert "question_clear" not in message and "response_correct" not in message
        assert all(label in message for label in DECISION_LABELS.values())
