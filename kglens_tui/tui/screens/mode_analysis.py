"""The results of a run whose mode gives them itself (`Mode.results`: KONTEST, fact-eval, a
plugin's), as the CLI prints them: a run's report, or its comparison with the other runs of its
mode and KG (`facteval compare`'s Table 2, `consistency compare`'s Fig. 4)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from kglens_tui.core.safetext import literal
from kglens_tui.runs.record import load_run
from kglens_tui.runs.registry import get_mode, mode_label
from kglens_tui.tui.reads import ReadsOnWorkers, read_then
from kglens_tui.tui.screens.workers import on_stack
from kglens_tui.tui.widgets.title_header import TitleHeader

READ_GROUP = "mode-analysis"
"""The worker that reads the screen's run."""

Read = Callable[[sqlite3.Connection], tuple[str, list[RenderableType]]]
"""A read of the screen's title and tables."""

MODE_ANALYSIS_HELP = """\
## KONTEST and fact-eval analyses

| key | action |
| --- | --- |
| `escape` | back |

**A KONTEST or fact-eval run** (`v` or `A`): its report, as `consistency report` or `facteval
report` prints it: chance levels and answer bias; KONTEST Tables 3 and 4 (each figure with its
n), errors per predicate and the latest inconsistencies; fact-eval precision, recall, F1 and
abstention rate per question type and context, and per relation.
**Compare** (`c` on a KONTEST or fact-eval run): the run with the other finished runs of its mode
on the same KG that answered the same relations (KONTEST) or questions (fact-eval), those sharing
most first; runs sharing too few are named above the tables, and runs sharing none are said to
have nothing to compare. Only what every run answered is compared. Fact-eval: F1 · abstention rate per question type and context, one column per
model (LLM-facteval Table 2), and template- against LLM-written questions on the same facts.
KONTEST: errors per run, unique to it and shared by k runs (KONTEST Fig. 4); for two runs of one
model, the errors that repeat (stability); then the weighted ensemble of the runs (KONTEST
Table 5), with the template-3 row when every run's model has a finished `--template3` run.
Template-3 runs are not compared themselves.
"""


def analysis_renderables(
    conn: sqlite3.Connection, run_id: int, compare: bool
) -> tuple[str, list[RenderableType]]:
    """The screen's title and tables: what the run's mode declares (`Mode.results`), the run's
    report or (``compare``) its comparison with its peers."""
    run = load_run(conn, run_id)
    shown = get_mode(run.mode).results(conn, run_id, compare)
    if shown is None:
        raise ValueError(f"run {run_id}: a {mode_label(run.mode)} run has no results to show here")
    return shown


class ModeAnalysisScreen(ReadsOnWorkers, Screen[Any]):
    """Tables rendered by the CLI's own renderers, scrollable."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.help", "Help"),
    ]
    HELP = MODE_ANALYSIS_HELP

    def __init__(
        self, title: str, renderables: list[RenderableType] | None, read: Read | None = None
    ) -> None:
        super().__init__()
        self._title = title
        self.renderables = renderables
        """The tables shown, in order (as the CLI prints them); None until ``read`` is in."""
        self._read = read

    @classmethod
    def opening(cls, run_id: int, compare: bool) -> ModeAnalysisScreen:
        """The screen of a run not read yet: it shows at once, says it is reading, and fills in
        once a worker read the run (`analysis_renderables`); a run it cannot show (nothing to
        compare with) is a notification and the screen closes."""
        return cls(
            f"reading run {run_id}…",
            None,
            lambda conn: analysis_renderables(conn, run_id, compare),
        )

    @property
    def loaded(self) -> bool:
        """Whether the tables are in."""
        return self.renderables is not None

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        yield Static(literal(self._title), classes="section-title", id="mode-analysis-title")
        with VerticalScroll(id="mode-analysis"):
            for i, r in enumerate(self.renderables or []):
                yield Static(r, id=f"mode-analysis-{i}")
        yield Footer()

    def on_mount(self) -> None:
        if self._read is not None:
            read_then(self, self._read, self._show, self._title, group=READ_GROUP)

    def _show(self, read: tuple[str, list[RenderableType]]) -> None:
        self._title, self.renderables = read
        self.query_one("#mode-analysis-title", Static).update(literal(self._title))
        self.query_one("#mode-analysis", VerticalScroll).mount_all(
            Static(r, id=f"mode-analysis-{i}") for i, r in enumerate(self.renderables)
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed read closes the screen: a run it cannot show (`analysis_renderables`'s
        LookupError or ValueError) is a warning, anything else the app's error notification."""
        if event.worker.group != READ_GROUP or event.state is not WorkerState.ERROR:
            return
        event.prevent_default()
        error = event.worker.error
        if isinstance(error, LookupError | ValueError):
            self.app.notify(str(error), severity="warning")
        else:
            self.app.worker_failed(event.worker)  # type: ignore[attr-defined]
        if on_stack(self) and self.app.screen is self:
            self.app.pop_screen()
