"""The report and progress screens of a round: each Cohen's kappa with the number of items both
annotators labelled (none shown over too few), and the progress table fitting an 80x24
terminal. Snapshots of these screens: tests/tui/test_tui_layout.py."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import wait_for
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from tui_support import HUGE, SMALL, Spy

from kglens_tui.annotate.agreement import round_results
from kglens_tui.annotate.labels import flag_item, submit_label
from kglens_tui.annotate.progress import progress
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.settings import Settings
from kglens_tui.store.connection import connect
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens import annotate_progress, annotate_report
from kglens_tui.tui.screens.annotate_progress import ProgressScreen
from kglens_tui.tui.screens.annotate_report import ReportScreen
from kglens_tui.tui.screens.dialogs import HelpScreen

pytestmark = pytest.mark.tui

NAMES = ("a1", "a2", "a3", "a4", "a5")


def _round(db: Path, items: int = 12, seconds: float = 5.0) -> int:
    """A round of Yes/No items: a1 labels 3 of them, the others every one (flagging the first)."""
    conn = connect(db)
    specs = [
        ItemSpec(kg="country", qtype="yes_no", question=f"Q{n}?", app_verdict="correct")
        for n in range(items)
    ]
    rnd = create_round_from_items(conn, "r5", specs, annotators=NAMES)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY position")]
    for k, name in enumerate(NAMES):
        for n, item_id in enumerate(ids[:3] if name == "a1" else ids):
            vote = "yes" if (n + k) % 3 else "no"
            submit_label(conn, item_id, name, question_clear=vote, seconds=seconds)
        if name != "a1":
            flag_item(conn, ids[0], name, "odd wording")
    conn.close()
    return rnd.id


def _app(db: Path) -> KGLensApp:
    return KGLensApp(db, Settings(run={"target": "sim"}), welcome=False)


async def _open(pilot: Pilot, screen: ReportScreen | ProgressScreen) -> None:
    """Push `screen` once the home screen has mounted whole, and wait until it has too
    (quitting while a screen mounts raises inside Textual's Header)."""
    app = pilot.app
    await wait_for(pilot, lambda: bool(app.screen.query("HeaderTitle")))
    app.push_screen(screen)
    await wait_for(pilot, lambda: app.screen is screen and bool(screen.query("HeaderTitle")))


async def test_report_kappa_cells_carry_their_n_and_hide_kappa_over_too_few_items(
    tmp_path: Path,
) -> None:
    db = tmp_path / "w.db"
    round_id = _round(db)
    app = _app(db)
    async with app.run_test(size=HUGE) as pilot:
        await _open(pilot, ReportScreen(round_id))
        kappa = app.screen.query_one("#ann-kappa-question_clear", DataTable)
        await wait_for(pilot, lambda: kappa.row_count == len(NAMES))
        rows = [[str(c) for c in kappa.get_row_at(r)] for r in range(len(NAMES))]
        # was: "1.000" and bare kappas such as "-0.500" over the 3 items a1 labelled
        assert rows[0] == ["a1", "n=3", "— n=3", "— n=3", "— n=3", "— n=3"]
        assert rows[1][2] == "n=12"
        assert all(cell.endswith(" n=12") and cell[0] in "-0123456789n" for cell in rows[1][3:])
        legend = str(app.screen.query_one("#ann-kappa-legend", Static).render())
        assert "under 10 such items" in legend


async def test_report_says_why_alpha_is_undefined_and_that_no_majority_disagrees(
    tmp_path: Path,
) -> None:
    """Every label the same: the α cell says so and the notes explain it (it showed a bare
    "—"); no majority disagrees with the app: one line says none, and no empty table shows."""
    db = tmp_path / "w.db"
    conn = connect(db)
    specs = [
        ItemSpec(kg="country", qtype="yes_no", question=f"Q{n}?", app_verdict="correct")
        for n in range(3)
    ]
    rnd = create_round_from_items(conn, "same", specs, annotators=NAMES)
    for (item_id,) in conn.execute("SELECT id FROM annotation_item").fetchall():
        for name in NAMES:
            submit_label(conn, item_id, name, question_clear="yes", seconds=5.0)
    conn.close()
    app = _app(db)
    async with app.run_test(size=HUGE) as pilot:
        await _open(pilot, ReportScreen(rnd.id))
        agree = app.screen.query_one("#ann-agree", DataTable)
        await wait_for(pilot, lambda: agree.row_count > 0)
        cells = [str(c) for c in agree.get_row_at(0)]
        assert cells[2].strip() == "— (all labels agree)" and cells[3].strip() == "100.0%"
        notes = str(app.screen.query_one("#ann-report-notes", Static).render())
        assert "α is undefined (0/0)" in " ".join(notes.split())
        title = str(app.screen.query_one("#ann-disagree-title", Static).render())
        assert title.startswith("Majority disagrees with the app: none")
        assert not app.screen.query_one("#ann-disagree", DataTable).display


async def test_progress_table_fits_80_columns_and_keeps_the_bar_when_wide(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    # a day per item, the most a pack may record: the longest time the column can show
    round_id = _round(db, items=100, seconds=86_400.0)
    app = _app(db)
    async with app.run_test(size=SMALL) as pilot:
        await _open(pilot, ProgressScreen(round_id))
        table = app.screen.query_one("#ann-progress", DataTable)
        await wait_for(pilot, lambda: table.row_count == len(NAMES))
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[-4:] == ["skipped", "flagged", "time", "per item"]
        # was: 101 columns wide in 78, "flagged" cut to "fla" and the time off the screen
        assert table.virtual_size.width <= table.size.width, labels
        assert table.max_scroll_x == 0
        assert [str(c) for c in table.get_row_at(1)][-3:] == ["1", "2400h 00m", "24h 00m"]
        await pilot.resize_terminal(160, 48)
        await wait_for(pilot, lambda: "done" in [str(c.label) for c in table.columns.values()])
        await wait_for(pilot, lambda: "bar" in [c.key.value for c in table.columns.values()])
        assert table.row_count == len(NAMES) and table.max_scroll_x == 0


@pytest.mark.parametrize("which", ["report", "progress"])
async def test_a_rounds_report_and_progress_are_read_on_a_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    """The screen shows at once saying it reads the round, handles keys meanwhile, and fills
    in with the figures the round holds."""
    module = annotate_report if which == "report" else annotate_progress
    name = "round_results" if which == "report" else "read_progress"
    spy = Spy(getattr(module, name))
    monkeypatch.setattr(module, name, spy)
    db = tmp_path / "w.db"
    round_id = _round(db)
    app = _app(db)
    async with app.run_test(size=HUGE) as pilot:
        gate = threading.Event()
        spy.gate = gate
        screen = ReportScreen(round_id) if which == "report" else ProgressScreen(round_id)
        try:
            await _open(pilot, screen)
            await wait_for(pilot, spy.waiting.is_set)
            title = "#ann-report-title" if which == "report" else "#ann-progress-title"
            assert str(screen.query_one(title, Static).render()) == f"reading round {round_id}…"
            assert not screen.loaded
            await pilot.press("question_mark")  # handled while the round is read
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
        finally:
            gate.set()
        await wait_for(pilot, lambda: screen.loaded)
        assert f"Round {round_id} 'r5'" in str(screen.query_one(title, Static).render())
        conn = connect(db)
        if which == "report":
            disagree = screen.query_one("#ann-disagree", DataTable)
            expected = round_results(conn, round_id).disagreements
            assert disagree.row_count == len(expected)
        else:
            table = screen.query_one("#ann-progress", DataTable)
            done = [f"{p.done:,} of {p.total:,}" for p in progress(conn, round_id)]
            assert [str(table.get_row_at(r)[-7]) for r in range(table.row_count)] == done
        conn.close()
    assert spy.threads and threading.main_thread() not in spy.threads
