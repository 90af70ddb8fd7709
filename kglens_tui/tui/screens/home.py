"""Home: the workspace's KGs and runs; start, resume or open a run; import a KG."""

from __future__ import annotations

import json

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from kglens_tui.analysis.report import list_runs
from kglens_tui.kg.stats import kg_summaries
from kglens_tui.tui.format import pct

HOME_HELP = """\
## Home

| key | action |
| --- | --- |
| `n` | new run (form) |
| `r` | resume the selected run |
| `enter` | open the selected run's live screen |
| `i` | import a KG (directory or CSV/TSV) |
| `ctrl+r` | refresh |
| `ctrl+p` | command palette: every action |
| `q` | quit |

Runs keep every committed iteration; a stopped or interrupted run resumes where it left off.
"""


class HomeScreen(Screen):
    """Lists KGs and runs."""

    BINDINGS = [
        Binding("n", "app.new_run", "New run"),
        Binding("r", "resume_run", "Resume"),
        Binding("enter", "open_run", "Open", show=False),
        Binding("i", "app.import_kg", "Import KG"),
        Binding("ctrl+r", "refresh", "Refresh"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit_app", "Quit"),
    ]
    HELP = HOME_HELP

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("", id="banner")
            yield Static("Knowledge graphs", classes="section-title")
            yield DataTable(id="kgs", cursor_type="row", zebra_stripes=True)
            yield Static("Runs", classes="section-title")
            yield DataTable(id="runs", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        kgs = self.query_one("#kgs", DataTable)
        kgs.add_columns("name", "entities", "edges", "active edges", "source", "snapshot")
        runs = self.query_one("#runs", DataTable)
        runs.add_columns(
            "run",
            "KG",
            "target",
            "difficulty",
            "sampler",
            "status",
            "iterations",
            "win",
            "zero-sense",
            "all-sense",
        )
        self.action_refresh()
        runs.focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def action_refresh(self) -> None:
        conn = self.app.db()
        kgs = self.query_one("#kgs", DataTable)
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
        runs = self.query_one("#runs", DataTable)
        runs.clear()
        rows = list_runs(conn)
        for r in rows:
            cfg = json.loads(r["config"])
            target = r["target_label"]
            if r["simulated"] and "simulated" not in target:
                target += " (simulated)"
            status = r["status"] + (f" · {r['stop_reason']}" if r["stop_reason"] else "")
            kg = r["kg"] + (f"/{cfg['subset']}" if cfg.get("subset") else "")
            runs.add_row(
                str(r["id"]),
                kg,
                target,
                cfg.get("difficulty", ""),
                cfg.get("sampler", ""),
                status,
                f"{r['iterations_done']}/{cfg.get('iterations', '?')}",
                pct(r["win_rate"]),
                pct(r["zero_sense_rate"]),
                pct(r["all_sense_rate"]),
                key=str(r["id"]),
            )
        banner = self.query_one("#banner", Static)
        if not rows:
            banner.update(
                f"No runs yet. Press [b]n[/] to probe a model ({self.app.default_target_text()})."
            )
        else:
            active = sum(1 for r in rows if r["status"] == "running")
            banner.update(
                f"{len(rows)} runs, {active} running · enter opens a run, r resumes it, "
                "? shows every key"
            )

    def _selected_run(self) -> int | None:
        runs = self.query_one("#runs", DataTable)
        if runs.row_count == 0:
            self.notify("No runs yet: press n to start one.", severity="warning")
            return None
        key = runs.coordinate_to_cell_key(runs.cursor_coordinate).row_key.value
        return int(key) if key is not None else None

    def action_resume_run(self) -> None:
        run_id = self._selected_run()
        if run_id is not None:
            self.app.resume_run(run_id)

    def action_open_run(self) -> None:
        run_id = self._selected_run()
        if run_id is not None:
            self.app.open_run(run_id)

    @on(DataTable.RowSelected, "#runs")
    def _row_selected(self) -> None:
        self.action_open_run()
