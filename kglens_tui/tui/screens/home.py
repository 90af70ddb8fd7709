"""Home: the workspace's KGs and runs; start, resume or open a run; import a KG."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from kglens_tui.analysis.report import RUN_COLUMNS, rates_lines, run_rows, runs_table
from kglens_tui.core.safetext import literal, visible
from kglens_tui.kg.stats import kg_summaries
from kglens_tui.runs.record import GOING, KGLENS
from kglens_tui.runs.registry import mode_label
from kglens_tui.tui.screens import run_controls
from kglens_tui.tui.widgets.literal_table import LiteralDataTable

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

REFRESH_GOING_S = 2.0
"""How often home refreshes its lists while a run goes on (else when the runs changed)."""
RUNS_MARK_SQL = "SELECT COUNT(*), MAX(id), MAX(updated_at) FROM run"
"""What changes when another process starts, ends or deletes a run."""
STATUS_LIMIT = 40
"""Most characters of a run's status and stop reason shown in the list (fewer when the screen
is narrow: `_status_room`)."""
DETAIL_LIMIT = 300
"""Characters of the selected run's status under the list (a failed run's error can be long)."""
TARGET_LIMIT = 60
"""Characters of each setting (a target can be long) in the selected run's detail."""

HOME_HELP = """\
## Home

| key | action |
| --- | --- |
| `n` | new run (form) |
| `r` | resume the selected run |
| `p` | pause or resume the selected run while it goes (also one another process drives) |
| `s` | stop the selected run while it goes (s again: stop now, dropping what is in flight) |
| `enter` | open the selected run's live screen |
| `v` | review the selected run's blind spots (drill down, triage); a KONTEST or fact-eval run: its report |
| `A` | analysis of the selected run: rates per predicate, region, year; a KONTEST or fact-eval run: its report |
| `c` | compare the selected run with another run on its KG (and Table 3) |
| `i` | import a KG (directory or CSV/TSV) |
| `a` | human evaluation: annotate, progress, report, adjudicate |
| `ctrl+r` | refresh |
| `ctrl+p` | command palette: every action |
| `q` | quit |

Runs keep every committed iteration; a stopped or interrupted run resumes where it left off.
"""


def _status_room(columns: list[str], rows: list[tuple[str, ...]], width: int) -> int:
    """Characters of status the list shows: what the other columns leave of ``width`` (each
    column is its widest cell plus two of padding; the screen's margins and scrollbar take four),
    between 12 and `STATUS_LIMIT`."""
    others = sum(
        max([len(column), *(len(row[i]) for row in rows)]) + 2
        for i, column in enumerate(columns)
        if column != "status"
    )
    return max(12, min(STATUS_LIMIT, width - others - 6))


class HomeScreen(Screen):
    """Lists KGs and runs."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [
        Binding("n", "app.new_run", "New run", id="new_run"),
        Binding("r", "resume_run", "Resume", id="resume"),
        Binding("p", "pause_run", "Pause/resume", show=False),
        Binding("s", "stop_run", "Stop", show=False),
        Binding("enter", "open_run", "Open", show=False),
        Binding("i", "app.import_kg", "Import KG", id="import"),
        Binding("a", "app.annotate", "Annotate"),
        Binding("v", "review_run", "Review", show=False),
        Binding("A", "analyse_run", "Analysis", show=False),
        Binding("c", "compare_run", "Compare", show=False),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help", id="help"),
        Binding("q", "app.quit_app", "Quit", id="quit"),
    ]
    HELP = HOME_HELP

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("", id="banner")
            yield Static("Knowledge graphs", classes="section-title")
            yield LiteralDataTable(id="kgs", cursor_type="row", zebra_stripes=True)
            yield Static("Runs", classes="section-title")
            yield LiteralDataTable(id="runs", cursor_type="row", zebra_stripes=True)
            yield Static("", id="run-detail")
        yield Footer()

    def on_mount(self) -> None:
        kgs = self.query_one("#kgs", DataTable)
        kgs.add_columns("name", "entities", "edges", "active edges", "source", "snapshot")
        self.query_one("#runs", DataTable).focus()
        self._columns: list[str] = []
        self._listed: dict[str, dict[str, str]] = {}
        """Every listed run's cells (`RUN_COLUMNS`) by run id, for the selected run's detail."""
        self._started_seen: int | None = None
        """The last run this app started or resumed that home has selected once (after that,
        the user's own selection stays)."""
        self._going = 0
        self._mark: tuple | None = None
        self.set_interval(REFRESH_GOING_S, self._refresh_while_going)

    def _refresh_while_going(self) -> None:
        """Follow runs that go on (here or in another process), and runs another process
        starts, while this screen shows."""
        if self.app.screen is not self:
            return
        mark = tuple(self.app.db().execute(RUNS_MARK_SQL).fetchone())
        if self._going or mark != self._mark:
            self.action_refresh()

    def on_screen_resume(self) -> None:
        self.action_refresh()  # also when first shown
        session = self.app.session
        started = session.run_id if session is not None else None
        if started is not None and started != self._started_seen:  # back from a run it began
            self._started_seen = started
            runs = self.query_one("#runs", LiteralDataTable)
            runs.select_key(str(started))
            self._show_detail(runs.selected_key())

    def on_resize(self) -> None:
        if self._columns and runs_table([], self.size.width, one_line=True)[0] != self._columns:
            self.action_refresh()  # narrow or wide columns

    def action_refresh(self) -> None:
        conn = self.app.db()
        kgs = self.query_one("#kgs", LiteralDataTable)
        selected_kg = kgs.selected_key()
        kgs.clear()
        for k in kg_summaries(conn):
            kgs.add_row(
                k.name,
                f"{k.entities:,}",
                f"{k.edges:,}",
                f"{k.active_edges:,}",
                k.source,
                k.snapshot_date,
                key=k.name,
            )
        kgs.select_key(selected_kg)
        runs = self.query_one("#runs", LiteralDataTable)
        selected = runs.selected_key()
        listed = run_rows(conn)
        self._listed = {row[0]: dict(zip(RUN_COLUMNS, row, strict=True)) for row in listed}
        columns, rows = runs_table(listed, self.size.width, one_line=True)
        runs.clear(columns=columns != self._columns)
        if columns != self._columns:
            runs.add_columns(*columns)
            self._columns = columns
        status = columns.index("status")
        limit = _status_room(columns, rows, self.size.width)
        for row in rows:  # the whole status is in the selected run's detail
            cells = [*row]
            cells[status] = visible(row[status], one_line=True, limit=limit)
            runs.add_row(*cells, key=row[0])
        runs.select_key(selected)
        self._show_detail(runs.selected_key())
        self._going = sum(1 for r in rows if r[status].startswith(GOING))
        self._mark = tuple(conn.execute(RUNS_MARK_SQL).fetchone())
        banner = self.query_one("#banner", Static)
        if not rows:
            banner.update(
                f"No runs yet. Press [b]n[/] to probe a model ({self.app.default_target_text()})."
            )
        else:
            banner.update(
                f"{len(rows)} run{'s' if len(rows) != 1 else ''}, {self._going} active · "
                "enter opens a run, r resumes it, ? shows every key"
            )

    @on(DataTable.RowHighlighted, "#runs")
    def _run_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail(event.row_key.value)

    def _show_detail(self, run_id: str | None) -> None:
        """The selected run in full under the list (its rows are one line): its rates with their
        intervals and n first, then its whole status, then its settings (a long target is cut
        there, never the rates)."""
        row = self._listed.get(run_id or "")
        detail = self.query_one("#run-detail", Static)
        if row is None:
            detail.update("")
            return
        where = "its live screen" if row["mode"] == mode_label(KGLENS) else "its results"
        rates = rates_lines(row, " · ") if row["win"] != "—" else f"rates: {where} (enter)"
        setting = [
            visible(row[c], one_line=True, limit=TARGET_LIMIT)
            for c in ("mode", "KG", "target", "difficulty", "sampler")
            if row[c]
        ]
        status = visible(row["status"], one_line=True, limit=DETAIL_LIMIT)
        detail.update(
            literal(
                f"run {row['run']} · {rates}\n{status}\n{' · '.join(setting)} · enter: {where}, "
                "with what chance scores"
            )
        )

    def _selected_run(self) -> int | None:
        key = self.query_one("#runs", LiteralDataTable).selected_key()
        if key is None:
            self.notify("No runs yet: press n to start one.", severity="warning")
            return None
        return int(key)

    def action_resume_run(self) -> None:
        run_id = self._selected_run()
        if run_id is not None:
            self.app.resume_run(run_id)

    def action_pause_run(self) -> None:
        self._control("pause")

    def action_stop_run(self) -> None:
        self._control("stop")

    def _control(self, action: str) -> None:
        """p or s on the selected run (`run_controls.press`)."""
        run_id = self._selected_run()
        if run_id is not None:
            run_controls.press(self, action, self.app.driving(run_id), run_id)

    def action_open_run(self) -> None:
        run_id = self._selected_run()
        if run_id is not None:
            self.app.open_run(run_id)

    def action_review_run(self) -> None:
        from kglens_tui.tui.screens.mode_analysis import open_mode_analysis
        from kglens_tui.tui.screens.review import ReviewScreen

        run_id = self._selected_run()
        # a KONTEST or fact-eval run has no blind-spot review: its analyses stand in for it
        if run_id is not None and not open_mode_analysis(self.app, run_id, compare=False):
            self.app.push_screen(ReviewScreen(run_id))

    def action_analyse_run(self) -> None:
        from kglens_tui.tui.screens.analysis import AnalysisScreen
        from kglens_tui.tui.screens.mode_analysis import open_mode_analysis

        run_id = self._selected_run()
        if run_id is not None and not open_mode_analysis(self.app, run_id, compare=False):
            self.app.push_screen(AnalysisScreen(run_id))

    def action_compare_run(self) -> None:
        from kglens_tui.tui.screens.compare import CompareScreen
        from kglens_tui.tui.screens.mode_analysis import open_mode_analysis

        run_id = self._selected_run()
        if run_id is not None and not open_mode_analysis(self.app, run_id, compare=True):
            self.app.push_screen(CompareScreen(run_id))

    @on(DataTable.RowSelected, "#runs")
    def _row_selected(self) -> None:
        self.action_open_run()
