"""Several targets from the new-run form (issue 38): the first target's run, then one run per
further target on its questions, each shown live in turn; bad target lists are form errors."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import wait_for
from textual.widgets import Checkbox, Input, Select
from tui_support import LARGE, make_app, notices_of, open_form

from kglens_tui.store.connection import connect
from kglens_tui.tui.app import QueuedTargets, queued_note
from kglens_tui.tui.screens.home import HomeScreen
from kglens_tui.tui.screens.live import LiveScreen

pytestmark = pytest.mark.tui

ASKED = (
    "SELECT iteration, slot, edge_id, qtype, question, expected FROM observation "
    "WHERE run_id = ? ORDER BY iteration, slot"
)


async def test_the_form_asks_every_further_target_the_first_runs_questions(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    app = make_app(db)
    async with app.run_test(size=LARGE) as pilot:
        form = await open_form(pilot)
        form.query_one("#mode", Select).value = "kglens"
        form.query_one("#target", Select).value = "sim"
        form.query_one("#iterations", Input).value = "2"
        form.query_one("#batch_size", Input).value = "8"
        form.query_one("#stop_on_convergence", Checkbox).value = False
        form.query_one("#more_targets", Input).value = "sim:101, sim:102"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen))
        conn = connect(db)

        def finished() -> int:
            row = "SELECT COUNT(*) FROM run WHERE status = 'finished'"
            return int(conn.execute(row).fetchone()[0])

        await wait_for(pilot, lambda: finished() == 3 and not app._busy() and app.queued is None)
        # the last run is the one shown live, where the first one was
        assert isinstance(app.screen, LiveScreen) and app.screen.session is app.session
        assert app.session is not None and app.session.run_id == 3
        plans = [
            json.loads(c)["plan_of"] for (c,) in conn.execute("SELECT config FROM run ORDER BY id")
        ]
        assert plans == [None, 1, 1]
        labels = [t for (t,) in conn.execute("SELECT target_label FROM run ORDER BY id")]
        assert len(set(labels)) == 3
        asked = [conn.execute(ASKED, (r,)).fetchall() for r in (1, 2, 3)]
        assert len(asked[0]) == 16 and asked[0] == asked[1] == asked[2]
        said = [n.message for n in notices_of(app)]
        # the command names this workspace: without --db it opens the default one (trial 3)
        assert any(f"kglens --db {db} compare 1 2 3" in m for m in said), said


async def test_bad_further_targets_are_errors_in_the_labels_words(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        form = await open_form(pilot)
        status = form.query_one("#form-status")
        for given, error in (
            ("sim:1, sim:1", "More targets: sim:1 is given twice"),
            ("sim:1, :odd", "More targets: empty target kind"),
        ):
            form.query_one("#more_targets", Input).value = given
            await pilot.pause()
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda e=error: e in str(status.render()))
        assert app.screen is form and app.session is None  # nothing started
        form.query_one("#more_targets", Input).focus()
        await wait_for(
            pilot, lambda: "paired comparison" in str(form.query_one("#field-help").render())
        )


async def test_further_targets_do_not_start_after_a_run_that_did_not_finish(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.queued = QueuedTargets("kglens", app.default_config(), ["sim:5"])
        stopped = SimpleNamespace(
            run_id=7,
            crashed=False,
            error="",
            snapshot=lambda: SimpleNamespace(status="stopped"),
        )
        app._next_target(stopped)  # type: ignore[arg-type]
        assert app.queued is None and app.session is None
        told = "run 7 did not finish, so sim:5 did not start"
        await wait_for(pilot, lambda: any(told in n.message for n in notices_of(app)))


def test_a_quit_says_which_queued_targets_do_not_start(tmp_path: Path) -> None:
    config = make_app(tmp_path / "w.db").default_config()
    assert queued_note(None) == "" and queued_note(QueuedTargets("kglens", config, [])) == ""
    note = queued_note(QueuedTargets("kglens", config, ["sim:5", "[b]x[/b]"]))
    assert note == " The targets still to ask its questions (sim:5, [b]x[/b]) do not start."
