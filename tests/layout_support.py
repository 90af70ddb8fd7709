"""The screens the layout tests picture (not a test module): for each, the database it opens
("runs": stored simulated runs; "hand": hand-built annotation rounds), its annotation entry and
what to do before the picture; a finished KONTEST run to show; and the app on a private copy of
the screen's database. The `templates` fixture (the databases, built once a module) is in
conftest.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path

from conftest import copy_db, wait_for
from textual.widgets import DataTable

from kglens_tui.modes import KontestConfig, ModeSnapshot
from kglens_tui.runs.runner import open_snapshot
from kglens_tui.runs.session import RunSession
from kglens_tui.settings import Settings
from kglens_tui.store.connection import connect
from kglens_tui.tui.app import KGLensApp
from kglens_tui.tui.screens.analysis import AnalysisScreen
from kglens_tui.tui.screens.annotate_home import AnnotationEntry
from kglens_tui.tui.screens.compare import CompareScreen
from kglens_tui.tui.screens.live import LiveScreen
from kglens_tui.tui.screens.review import ReviewScreen

RunBefore = Callable[..., Awaitable[None]]


class FinishedModeRun:
    """A finished mode run's final snapshot, served the way a `RunSession` serves it."""

    error = ""
    live = False

    def __init__(self, final: ModeSnapshot) -> None:
        self.final = final
        self.mode, self.run_id = final.mode, final.run_id

    def snapshot(self) -> ModeSnapshot:
        return self.final

    def pause(self) -> None:
        raise AssertionError("a finished run is not paused")

    resume = stop = pause


async def _settled(pilot) -> None:
    """Let every pending message and animation finish (a state, not a fixed wait)."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def _keys(*steps: str) -> RunBefore:
    """Press each step's key as a person does: the next key once the screen is in. A step
    "key>Screen" opens a screen: wait until that screen class is on top and has read what it
    shows (a key reaches the screen after `press` returns, so the old screen may still be on
    top then; a shot or a key taken there races the new screen's first draw)."""

    async def run(pilot) -> None:
        await pilot.pause()
        for step in steps:
            key, _, opens = step.partition(">")
            await pilot.press(key)
            await wait_for(
                pilot,
                lambda opens=opens: (
                    (not opens or type(pilot.app.screen).__name__ == opens)
                    and getattr(pilot.app.screen, "loaded", True)
                ),
                60,
                describe=lambda: type(pilot.app.screen).__name__,
            )
        # a table filled once the screen read its data is laid out on a later refresh: shoot
        # once every shown table that has rows has the height for them (a busy machine took the
        # picture of the report with its disagreements table still at no height)
        await wait_for(
            pilot,
            lambda: all(
                table.size.height >= 1 + table.show_header
                for table in pilot.app.screen.query(DataTable)
                if table.row_count and all(node.display for node in table.ancestors_with_self)
            ),
            60,
            describe=lambda: [
                (table.id, table.row_count, table.size.height)
                for table in pilot.app.screen.query(DataTable)
            ],
        )
        await _settled(pilot)

    return run


def _annotate(*names: str) -> RunBefore:
    """The annotation screen an entry opens, once it has read its items, then ``names``."""

    async def run(pilot) -> None:
        await wait_for(
            pilot,
            lambda: type(pilot.app.screen).__name__ == "AnnotateScreen" and pilot.app.screen.loaded,
            60,
        )
        await _settled(pilot)
        await pilot.press(*names)
        await _settled(pilot)

    return run


def _home() -> RunBefore:
    """Home once it has worked out what chance scores on each listed run's questions."""

    async def run(pilot) -> None:
        await pilot.pause()
        await wait_for(pilot, lambda: not pilot.app.screen.chance_pending, 60)
        await _settled(pilot)

    return run


def _push(factory: Callable[..., object]) -> RunBefore:
    async def run(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(factory(pilot))
        # a run's screen reads its run on a worker: shoot once it is in (its figures drawn)
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "loaded", True), 60)
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "settled", True), 60)
        await _settled(pilot)

    return run


def _open_run(pilot_run: int) -> RunBefore:
    async def run(pilot) -> None:
        await pilot.pause()
        pilot.app.open_run(pilot_run)
        # the run is read and the per-predicate rates are read on worker threads, the chance
        # band is replayed in a child process, and the replies wrap at the pane's width once
        # its layout settled: shoot once all of it is on the screen, whichever came first (a
        # generous ceiling: a busy machine takes long to replay the band)
        # a replay or read that failed settles the screen too: the test fails at once with what
        # the user was told, not after the ceiling
        await wait_for(
            pilot,
            lambda: (
                getattr(pilot.app.screen, "settled", False)
                and (pilot.app.screen.coin is not None or pilot.app.screen.failures)
            ),
            300,
            describe=lambda: (
                type(pilot.app.screen).__name__,
                getattr(pilot.app.screen, "pending", None),
                getattr(pilot.app.screen, "coin", None) is not None,
            ),
        )
        assert not pilot.app.screen.failures, pilot.app.screen.failures
        await _settled(pilot)

    return run


def _review_then(*names: str) -> RunBefore:
    async def run(pilot) -> None:
        await pilot.pause()
        pilot.app.push_screen(ReviewScreen(1))
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "loaded", False), 60)
        await pilot.pause()
        await pilot.press(*names)
        await _settled(pilot)

    return run


# screen name -> (database: "runs" or "hand", annotation entry, what to do before the picture)
SCREENS: dict[str, tuple[str, AnnotationEntry | None, RunBefore]] = {
    "home": ("runs", None, _home()),
    "new_run": ("runs", None, _keys("n>NewRunScreen")),
    "live": ("runs", None, _open_run(1)),
    "review": ("runs", None, _push(lambda _p: ReviewScreen(1))),
    "drill_down": ("runs", None, _review_then("enter")),
    "ego_graph": ("runs", None, _review_then("enter", "g")),
    "analysis": ("runs", None, _push(lambda _p: AnalysisScreen(1))),
    "compare": ("runs", None, _push(lambda _p: CompareScreen(1, 2))),
    "mode_live": ("runs", None, _push(lambda p: LiveScreen(None, stored=p.app.mode_run))),
    "mode_analysis": ("runs", None, _push(lambda p: _mode_analysis(p.app))),
    "rounds": ("hand", None, _keys("a>RoundsScreen")),
    "annotate_first": ("hand", AnnotationEntry("r2", "ann3"), _annotate()),
    "annotate_yes_no": ("hand", AnnotationEntry("r2", "ann3"), _annotate("g", "right")),
    "annotate_wh": ("hand", AnnotationEntry("r2", "ann2"), _annotate("y")),
    "progress": ("hand", None, _keys("a>RoundsScreen", "down", "p>ProgressScreen")),
    "report": ("hand", None, _keys("a>RoundsScreen", "r>ReportScreen")),
    "adjudication": ("hand", None, _keys("a>RoundsScreen", "d>AdjudicationScreen", "down")),
}


def _mode_analysis(app: KGLensApp):
    """The KONTEST analyses of run 3 against run 4 (Fig. 4 overlap, Table 5 ensemble)."""
    from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen, analysis_renderables

    return ModeAnalysisScreen(*analysis_renderables(app.db(), 3, True))


def _kontest_run(db: Path, target: str = "sim:2") -> ModeSnapshot:
    """Run a small simulated KONTEST run to its end; its final snapshot, at a fixed elapsed,
    with the feed of replies as a reopened run shows it (in the plan's order, not in the
    order concurrent requests happened to finish)."""
    # the simulator's KONTEST answers before it had template and paraphrase effects: the
    # snapshots show these runs' figures
    target = f"{target},template2=0,paraphrase_inconsistency=1"
    session = RunSession(
        db, "kontest", config=KontestConfig(kg="country", relations=6, target=target)
    )
    final = session.run()
    assert final is not None and not session.error, session.error
    conn = connect(db)
    try:
        stored = open_snapshot(conn, final.run_id)
    finally:
        conn.close()
    progress = dataclasses.replace(final.progress, recent=stored.progress.recent)
    return dataclasses.replace(final, elapsed_s=3.0, progress=progress)


def app_for_screen(templates: dict, name: str, folder: Path) -> tuple[KGLensApp, RunBefore]:
    """A private copy of the screen's database and an app on it (screens may write)."""
    kind, entry, run_before = SCREENS[name]
    db = copy_db(templates[kind], folder / f"{kind}.db")
    app = KGLensApp(db, Settings(run={"target": "sim"}), welcome=False, annotation=entry)
    app.mode_run = FinishedModeRun(templates["mode"])
    return app, run_before
