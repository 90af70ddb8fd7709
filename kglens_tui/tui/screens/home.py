"""Home: the workspace's KGs and runs; start, resume or open a run; import a KG."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from kglens_tui.analysis.groups import RATES
from kglens_tui.analysis.kgwide import KGWide
from kglens_tui.analysis.report import RUN_COLUMNS, RunFigures, run_figures, run_rows
from kglens_tui.answers.bias import BLIND_GUESS, Baseline
from kglens_tui.core.safetext import literal, visible
from kglens_tui.kg.stats import KGSummary, kg_summaries
from kglens_tui.modes.kglens.rate_text import capped_note, win_text
from kglens_tui.runs.record import GOING
from kglens_tui.runs.registry import AnyMode, mode_of_label
from kglens_tui.textfmt import counted, pct, short_target
from kglens_tui.tui.format import CELL_PADDING, fit_widths
from kglens_tui.tui.reads import ReadsOnWorkers, failed_read, read_then, read_with
from kglens_tui.tui.screens import run_controls
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters

    from kglens_tui.tui.app import KGLensApp

REFRESH_GOING_S = 2.0
"""How often home refreshes its lists while a run goes on (else when the runs changed)."""
RUNS_MARK_SQL = "SELECT COUNT(*), MAX(id), MAX(updated_at) FROM run"
"""What changes when another process starts, ends or deletes a run."""
DETAIL_LIMIT = 300
"""Characters of the selected run's status, and of a KG's name, in the detail under the list
(a failed run's error can be long)."""
TARGET_LIMIT = 60
"""Characters of each setting (a target can be long) in the selected run's detail."""
READ_GROUP = "home-read"
"""The workers that read the KG and run lists."""
READING = "reading the workspace…"
CHANCE_GROUP = "home-chance"
"""The worker that works out what chance scores on each listed run's questions."""
LOADING = "…"
"""A chance not worked out yet (the worker reads the runs' logs)."""
TABLE_ROOM = 4
"""Cells of the screen's width a table cannot use: home's padding and the table's scrollbar."""
KG_COLUMNS = ("name", "entities", "edges", "active edges", "source", "snapshot")
KG_SHRINK = ((0, 40), (4, 16), (0, 12), (4, 10))
"""How the KG list's columns are cut when the screen is too narrow for them (index, least
width; first cut first): a long name to 40, the source to 16, then the name to 12 and the
source to 10. The detail under the list shows the highlighted KG whole."""
RUN_MOST = {"KG": 40, "status": 44, "target": 40}
"""Most cells of each long column of the run list (the detail under it shows them whole)."""
RUN_SHRINK = (
    ("status", 28),
    ("KG", 20),
    ("target", 20),
    ("KG", 16),
    ("target", 16),
    ("KG", 12),
    ("target", 12),
    ("status", 26),
    ("status", 19),
)
"""How the run list's long columns are cut when the screen is too narrow for them (column,
least width; first cut first): the status keeps 28 cells ("finished · iteration limit") while
KG and target go down in turn to 20, 16 and 12 (a simulated target's short form, "sim (seed
1)", whole); the status last, to 26, then 19 (the detail under the list gives it whole). A layout whose columns
do not fit so leaves the room to the next one (`runs_layout`); the last, one line a run
without the rates, cuts the status as far as it must."""

HOME_HELP = f"""\
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
| `tab` | move between the KG list and the run list (the line under them shows the one selected, whole) |
| `ctrl+r` | refresh |
| `]` / `[` | sort the focused table by the next column / the other way (or click a column's title) |
| `ctrl+p` | command palette: every action |
| `q` | quit |

A run's headline is its KG-wide win rate (every edge of the run's selection asked once, as
`kglens runs` and `kglens report` give it) with its 95% interval, what blind guessing scores on
the same estimand and n (the answers it rests on). Then the paper's rates over the edges the run
examined (titled "(examined)"; a sampler alone moves them), as logged, each with its 95% interval, n (the edges examined) and what chance
scores on the same questions (blind guessing, each ask independent: {BLIND_GUESS}; as `kglens
report`). For a
KONTEST run the line under the list gives its inconsistent tests over the valid ones beside a
coin and a coin at the model's yes-rate; for a fact-eval run, F1 per context beside the best
blind guess; each with its 95% interval and n (as their reports). Cut names and statuses end
in "…": the line under the lists shows them whole. A simulated target reads "sim (seed 1)". Runs keep every committed iteration; a
stopped or interrupted run resumes where it left off.
"""

Cell = list[tuple[str, str]]
"""A table cell as its lines, each (text, style)."""


def _chance(figures: dict[str, RunFigures], run_id: str) -> Baseline | None:
    """A listed run's chance baseline from `run_figures` (None: not analysed)."""
    found = figures.get(run_id)
    return None if found is None else found.chance


def _kg_wide(figures: dict[str, RunFigures], run_id: str) -> KGWide | None:
    """A listed run's KG-wide win estimate from `run_figures` (None: none)."""
    found = figures.get(run_id)
    return None if found is None else found.kg_wide


def rate_chance(chance: Baseline | None | str, field: str) -> str:
    """What chance scores on a rate's questions ("chance 50.0%"; ``field``: its `Baseline`
    field), "chance …" while it is worked out (``chance`` is `LOADING`), "chance —" when it
    cannot be (the run's KG lost edges)."""
    if isinstance(chance, str):
        return f"chance {chance}"
    return f"chance {pct(None if chance is None else getattr(chance, field))}"


Figure = KGWide | None | str
"""A listed run's KG-wide win estimate: `LOADING` while worked out, None when it has none."""


def kg_wide_cell(wide: Figure) -> tuple[str, str]:
    """A run's KG-wide win rate for the run list, in two lines: "77.6% [67.3–87.9]" over
    "chance 37.6% · n=96" (n: the answers it rests on); "—" when the run has none."""
    if isinstance(wide, str):
        return wide, ""
    if wide is None:
        return "—", ""
    chance = wide.chance_win
    return win_text(wide.rate), f"chance {pct(chance)} · n={wide.rate.answers:,}"


def kg_wide_detail(wide: Figure) -> str:
    """A run's KG-wide win rate in the detail line: "KG-wide win 77.6% [67.3–87.9] chance
    37.6% n=96 answers"."""
    if isinstance(wide, str):
        return f"KG-wide win {wide}"
    if wide is None:
        return "KG-wide win — (no sampling design)"
    value, chance = kg_wide_cell(wide)
    note = capped_note([wide.rate])
    return f"KG-wide win {value} {chance.replace(' · n=', ' n=')} answers" + (
        f" ({note})" if note else ""
    )


def rates_detail(row: dict[str, str], chance: Baseline | None | str, wide: Figure = None) -> str:
    """A listed run's KG-wide win rate (`kg_wide_detail`), then the paper's three rates over
    the examined edges, each with its interval and what chance scores, then n."""
    rates = [f"{name} {row[name]} {rate_chance(chance, field)}" for name, _, field in RATES]
    examined = f"over the {row['examined']} examined edges: " + " · ".join(rates)
    return f"{kg_wide_detail(wide)} · {examined}"


def _examined_note(row: dict[str, str], chance: Baseline | None | str, field: str) -> str:
    """What goes under a rate over the examined edges in the run list: what chance scores,
    and under the win rate also n, the edges examined ("chance 44.1% · n=288")."""
    note = rate_chance(chance, field)
    return f"{note} · n={row['examined']}" if field == RATES[0][2] else note


def _progress(row: dict[str, str]) -> str:
    """Iterations (units) and requests on one line, for under the status ("1/4 iterations · 64
    requests (2 failed)")."""
    done = row["iterations"]
    sent, _, note = row["requests"].partition(" (")
    return f"{done}{'' if done.endswith('units') else ' iterations'} · {sent} requests" + (
        f" ({note}" if note else ""
    )


EXAMINED = {name: f"{name} (examined)" for name, _, _ in RATES}
"""The run list's titles of the paper's rates over the edges a run examined."""


def runs_layout(
    listed: list[dict[str, str]],
    chances: dict[str, Baseline | None | str],
    width: int,
    kg_wide: dict[str, Figure] | None = None,
) -> tuple[list[str], list[list[Text]], int]:
    """(columns, rows, row height) of home's run list ``width`` cells wide. Where they fit,
    rows of two lines: the status over its iterations and requests, the KG-wide win rate first
    (``kg_wide``, `kg_wide_cell`), then the paper's rates over the examined edges (titled
    "(examined)", their number under the win rate) each with its interval over what chance
    scores on the same questions, the target (`short_target`: its seed tells simulated targets
    apart) over difficulty and sampler. The target keeps its column longest: all-sense and
    zero-sense go first, then the examined win rate, then the KG-wide one; the last layout is
    one line a run with its target, status and iterations, without the rates and requests
    (the detail under the list gives them, with chance).
    Long cells are cut with "…" as `RUN_MOST` and `RUN_SHRINK` say, the status last (the
    detail gives each whole)."""
    room = width - TABLE_ROOM
    wide: list[dict[str, Cell]] = []
    narrow: list[dict[str, Cell]] = []
    for row in listed:
        chance = chances.get(row["run"], LOADING)
        rated = row["win"] != "—"
        wide_value, wide_note = kg_wide_cell((kg_wide or {}).get(row["run"], LOADING))
        if not rated:
            wide_value, wide_note = "—", ""
        settings = " · ".join(row[c] for c in ("difficulty", "sampler") if row[c])
        target = short_target(row["target"])
        head: dict[str, Cell] = {
            "run": [(row["run"], "")],
            "mode": [(row["mode"], "")],
            "KG": [(row["KG"], "")],
        }
        wide.append(
            {
                **head,
                "status": [(row["status"], ""), (_progress(row), "dim")],
                "KG-wide win": [(wide_value, ""), (wide_note, "dim")],
                **{
                    EXAMINED[name]: [
                        (row[name], ""),
                        (_examined_note(row, chance, field) if rated else "", "dim"),
                    ]
                    for name, _, field in RATES
                },
                "target": [(target, ""), (settings, "dim")],
            }
        )
        narrow.append(  # requests: in the detail
            {
                **head,
                "target": [(target, "")],
                "status": [(row["status"], "")],
                "iter.": [(row["iterations"], "")],
            }
        )
    examined = ["KG-wide win", *EXAMINED.values()]
    base = ["run", "mode", "KG", "status"]
    layouts = [
        ([*base, *examined, "target"], wide),
        ([*base, *examined[:2], "target"], wide),
        ([*base, *examined[:1], "target"], wide),
        (["run", "mode", "KG", "target", "status", "iter."], narrow),
    ]
    for columns, rows in layouts:
        cells = [[row[c] for c in columns] for row in rows]
        natural = [
            max([len(title), *(_width(line) for row in cells for line, _ in row[i])])
            for i, title in enumerate(columns)
        ]
        at = {c: i for i, c in enumerate(columns)}
        for column, most in RUN_MOST.items():  # the detail gives these whole
            if column in at:
                natural[at[column]] = min(natural[at[column]], most)
        shrink = [(at[c], min(natural[at[c]], w)) for c, w in RUN_SHRINK if c in at]
        least = dict(shrink)  # each column's last (smallest) least width
        needs = sum(least.get(i, w) for i, w in enumerate(natural))
        if needs + CELL_PADDING * len(columns) <= room:
            break
    shrink.append((at["status"], min(natural[at["status"]], 12)))  # the last layout: as it must
    widths = fit_widths(natural, room - CELL_PADDING * len(columns), shrink)
    out = [[_cell_text(cell, max(widths[i], 1)) for i, cell in enumerate(r)] for r in cells]
    return columns, out, 2 if rows is wide else 1


def _width(text: str) -> int:
    """Cells a table needs to show ``text`` on one line, literally."""
    return cell_len(visible(text, one_line=True))


def _cell_text(cell: Cell, width: int) -> Text:
    """A cell's lines as one Text, each line cut to ``width`` with "…", shown literally."""
    text = Text()
    for n, (line, style) in enumerate(cell):
        if n:
            text.append("\n")
        text.append_text(literal(line, style, one_line=True, limit=width))
    return text


def kg_rows(kgs: list[KGSummary], width: int) -> list[list[str]]:
    """The KG list's rows ``width`` cells wide: the source, then the name, cut with "…" when
    the numbers would not fit beside them (the detail under the list gives them whole)."""
    rows = [
        [
            k.name,
            f"{k.entities:,}",
            f"{k.edges:,}",
            f"{k.active_edges:,}",
            k.source,
            k.snapshot_date,
        ]
        for k in kgs
    ]
    natural = [
        max([len(title), *(_width(row[i]) for row in rows)]) for i, title in enumerate(KG_COLUMNS)
    ]
    room = width - TABLE_ROOM - CELL_PADDING * len(KG_COLUMNS)
    widths = fit_widths(natural, room, [(i, min(natural[i], w)) for i, w in KG_SHRINK])
    return [
        [visible(cell, one_line=True, limit=widths[i]) for i, cell in enumerate(row)]
        for row in rows
    ]


def _headline(conn: sqlite3.Connection, run_id: str, mode: AnyMode | None) -> str | None:
    """A listed run's headline line as its mode declares it (`Mode.headline`); None when it has
    none or it cannot be read."""
    head = mode.headline(conn, int(run_id)) if mode is not None else None
    return head.line if head is not None else None


def _observed(row: dict[str, str]) -> bool:
    """Whether a listed run's figures are the list's rate columns with their chance (its mode
    stores observations, as KGLens does), not a headline of its mode's own."""
    mode = mode_of_label(row["mode"])
    return mode is not None and mode.observations


def _progress_mark(row: dict[str, str]) -> tuple[str, str]:
    """What changes when a run's rates do (its iterations done and edges examined)."""
    return row["iterations"], row["examined"]


def kg_detail(k: KGSummary) -> str:
    """A KG in full for the line under the lists."""
    return (
        f"KG {visible(k.name, one_line=True, limit=DETAIL_LIMIT)} · "
        f"{counted(k.entities, 'entity', 'entities')} · {counted(k.edges, 'edge')} ({k.active_edges:,} active) · source "
        f"{visible(k.source, one_line=True, limit=DETAIL_LIMIT)} · snapshot {k.snapshot_date or '—'}"
    )


@dataclass(frozen=True)
class HomeRead:
    """The KG and run lists as one read found them (`read_home`); ``kgs`` and ``runs`` None:
    nothing changed since the mark the read was given."""

    generation: int
    mark: tuple[Any, ...]
    kgs: list[KGSummary] | None = None
    runs: list[tuple[str, ...]] | None = None


def read_home(conn: sqlite3.Connection, since: tuple[Any, ...] | None, generation: int) -> HomeRead:
    """The workspace's KGs and runs (`kg_summaries`, `run_rows`); only the mark when it is
    ``since`` (no run started, ended or changed status meanwhile)."""
    mark = tuple(conn.execute(RUNS_MARK_SQL).fetchone())
    if since is not None and mark == since:
        return HomeRead(generation, mark)
    return HomeRead(generation, mark, kg_summaries(conn), [tuple(r) for r in run_rows(conn)])


class HomeScreen(ReadsOnWorkers, Screen[Any]):
    """Lists KGs and runs, read on worker threads (`read_home`): at once when shown and on
    `ctrl+r`, then every `REFRESH_GOING_S` while a run goes on or the runs changed. A read
    asked for later than the one shown wins (an older result that comes after it is dropped);
    a failed read is one literal line in the banner."""

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
        yield TitleHeader()
        with Vertical(id="home"):
            yield Static("", id="banner")
            yield Static("Knowledge graphs", id="kgs-title", classes="section-title")
            yield LiteralDataTable(id="kgs", cursor_type="row", zebra_stripes=True, sortable=True)
            yield Static("Runs", classes="section-title")
            yield LiteralDataTable(id="runs", cursor_type="row", zebra_stripes=True, sortable=True)
            yield Static("", id="run-detail")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#runs", DataTable).focus()
        self._columns: list[str] = []
        self._listed: dict[str, dict[str, str]] = {}
        """Every listed run's cells (`RUN_COLUMNS`) by run id, for the selected run's detail."""
        self._kgs: dict[str, KGSummary] = {}
        """Every listed KG by name, for the highlighted KG's detail."""
        self._chances: dict[str, tuple[tuple[str, str], Baseline | None]] = {}
        """What chance scores on each listed run's questions (`overall(..., adjusted=False)`:
        as logged, like its rates), by run id, with the progress it was worked out at."""
        self._kg_wide: dict[str, KGWide | None] = {}
        """Each listed KGLens run's KG-wide win estimate (`analysis.report.run_figures`; None:
        none), worked out with its chance (at the progress `_chances` holds)."""
        self._headlines: dict[str, tuple[tuple[str, str], str | None]] = {}
        """Each listed headline line of a run whose mode gives one (KONTEST, fact-eval:
        `Mode.headline`; None: none to show), by run id, with the progress it was worked out
        at."""
        self._chance_worker: Worker[Any] | None = None
        self._chance_again = False
        self._started_seen: int | None = None
        """The last run this app started or resumed that home has selected once (after that,
        the user's own selection stays)."""
        self._going = 0
        self._mark: tuple[Any, ...] | None = None
        """The runs' mark (`RUNS_MARK_SQL`) as the read shown found it (None: none shown yet)."""
        self._asked = 0
        """The newest read asked for."""
        self._shown = 0
        """The newest read shown: a result of an older read is dropped."""
        self._reading = 0
        """Reads going on (the timer starts none while one goes)."""
        self._select_after_read: str | None = None
        """A run to select once the read going on is in (one this app started)."""
        self.query_one("#banner", Static).update(READING)
        self.set_interval(REFRESH_GOING_S, self._refresh_while_going)

    @property
    def loaded(self) -> bool:
        """Whether the lists have been read once."""
        return self._mark is not None

    def _refresh_while_going(self) -> None:
        """Follow runs that go on (here or in another process), and runs another process
        starts, while this screen shows: a read on a worker, which gives only the runs' mark
        when nothing changed and no run goes on."""
        if self.app.screen is not self or self._reading:
            return
        self._read(since=None if self._going else self._mark)

    def _read(self, since: tuple[Any, ...] | None = None) -> None:
        """Read the lists on a worker (`read_home`)."""
        self._asked += 1
        self._reading += 1
        generation = self._asked
        read_then(
            self,
            lambda conn: read_home(conn, since, generation),
            self._read_done,
            "reading the runs",
            group=READ_GROUP,
            exclusive=False,
        )

    def on_screen_resume(self) -> None:
        session = self.app.session
        started = session.run_id if session is not None else None
        if started is not None and started != self._started_seen:  # back from a run it began
            self._started_seen = started
            self._select_after_read = str(started)
        self.action_refresh()  # also when first shown

    def on_resize(self) -> None:
        if self._mark is not None:
            self._draw()  # the columns' widths follow the screen's

    def action_refresh(self) -> None:
        """Read the lists again (on a worker)."""
        self._read()

    def _read_done(self, read: HomeRead) -> None:
        """A read's outcome: shown when newer than the one shown."""
        if read.generation <= self._shown:
            return  # a newer read is shown already
        if read.kgs is None or read.runs is None:
            return  # nothing changed since the read shown
        self._shown = read.generation
        self._apply(read.mark, read.kgs, read.runs)

    def _apply(
        self, mark: tuple[Any, ...], kgs: list[KGSummary], listed: list[tuple[str, ...]]
    ) -> None:
        """Show the lists as read."""
        self._kgs = {k.name: k for k in kgs}
        self._listed = {row[0]: dict(zip(RUN_COLUMNS, row, strict=True)) for row in listed}
        status = RUN_COLUMNS.index("status")
        self._going = sum(1 for r in listed if r[status].startswith(GOING))
        self._mark = mark
        self._draw()
        if self._select_after_read is not None:
            self.query_one("#runs", LiteralDataTable).select_key(self._select_after_read)
            self._select_after_read = None
            self._show_detail()
        self._work_out_chances()
        self.query_one("#kgs-title", Static).update(f"Knowledge graphs ({len(self._kgs)})")
        banner = self.query_one("#banner", Static)
        if not listed:
            banner.update(
                f"No runs yet. Press [b]n[/] to probe a model ({self.app.default_target_text()})."
            )
        else:
            banner.update(
                f"{counted(len(listed), 'run')}, {self._going} active · "
                "enter opens a run, r resumes it, ? shows every key"
            )

    def _draw(self) -> None:
        """Both lists, laid out for the screen's width, from what was last read."""
        kgs = self.query_one("#kgs", LiteralDataTable)
        selected_kg = kgs.selected_key()
        # columns keep their widest cell until cleared: `fill` sizes them anew
        kgs.fill(KG_COLUMNS, kg_rows(list(self._kgs.values()), self.size.width), list(self._kgs))
        kgs.select_key(selected_kg)
        runs = self.query_one("#runs", LiteralDataTable)
        selected = runs.selected_key()
        columns, rows, height = runs_layout(
            list(self._listed.values()), self._chance_now(), self.size.width, self._kg_wide_now()
        )
        runs.fill(columns, rows, list(self._listed), height=height)
        self._columns = columns
        runs.select_key(selected)
        self._show_detail()

    def _chance_now(self) -> dict[str, Baseline | None | str]:
        """Each listed run's chance as its rates stand now (`LOADING` until worked out)."""
        out: dict[str, Baseline | None | str] = {}
        for run_id, row in self._listed.items():
            mark, chance = self._chances.get(run_id, (None, None))
            out[run_id] = chance if mark == _progress_mark(row) else LOADING
        return out

    def _kg_wide_now(self) -> dict[str, Figure]:
        """Each listed run's KG-wide win estimate as its rates stand now (`LOADING` until
        worked out, with its chance)."""
        out: dict[str, Figure] = {}
        for run_id, row in self._listed.items():
            mark = self._chances.get(run_id, (None, None))[0]
            out[run_id] = self._kg_wide.get(run_id) if mark == _progress_mark(row) else LOADING
        return out

    @property
    def chance_pending(self) -> bool:
        """Whether the lists are still to be read, or a listed run's chance (or a mode run's
        headline) is still being worked out."""
        return not self.loaded or self._chance_worker is not None or bool(self._wanted())

    def _wanted(self) -> list[tuple[str, tuple[str, str]]]:
        """Listed runs whose figures are not worked out at their progress, each with that
        progress: KGLens runs with rates (their chance), and the runs of the other modes (their
        headline)."""
        out = []
        for run_id, row in self._listed.items():
            mark = _progress_mark(row)
            if _observed(row):
                stale = row["win"] != "—" and self._chances.get(run_id, (None, None))[0] != mark
            else:
                stale = self._headlines.get(run_id, (None, None))[0] != mark
            if stale:
                out.append((run_id, mark))
        return out

    def _work_out_chances(self) -> None:
        """Start the chance worker for the runs that need it (once the one going is done)."""
        if self._chance_worker is not None:
            self._chance_again = True
            return
        wanted = self._wanted()
        if wanted:
            self._chance_again = False
            rows = [tuple(self._listed[run_id][c] for c in RUN_COLUMNS) for run_id, _ in wanted]
            headed = {  # resolved here: the worker never reads `_listed`, rebound every 2 s
                run_id: mode_of_label(self._listed[run_id]["mode"])
                for run_id, _ in wanted
                if not _observed(self._listed[run_id])
            }
            self._chance_worker = self._chances_of(wanted, rows, headed)

    @work(thread=True, group=CHANCE_GROUP, exit_on_error=False, description="chance of the runs")
    def _chances_of(
        self,
        wanted: list[tuple[str, tuple[str, str]]],
        rows: list[tuple[str, ...]],
        headed: dict[str, AnyMode | None],
    ) -> tuple[
        dict[str, tuple[tuple[str, str], Baseline | None]],
        dict[str, tuple[tuple[str, str], str | None]],
        dict[str, KGWide | None],
    ]:
        """What chance scores on the questions of each wanted KGLens run (``rows``: their
        `run_rows` rows), as logged like the listed rates, with its KG-wide win estimate
        (`analysis.report.run_figures`), and each wanted run of another mode's headline
        (``headed``: their modes, None for one not installed here); None where they cannot be
        worked out."""
        modes = set(headed)
        figures, headlines = read_with(
            self.app.db_path,
            lambda conn: (
                run_figures(conn, rows),
                {run_id: _headline(conn, run_id, mode) for run_id, mode in headed.items()},
            ),
        )
        kglens = [(run_id, mark) for run_id, mark in wanted if run_id not in modes]
        return (
            {run_id: (mark, _chance(figures, run_id)) for run_id, mark in kglens},
            {run_id: (mark, headlines[run_id]) for run_id, mark in wanted if run_id in modes},
            {run_id: _kg_wide(figures, run_id) for run_id, _ in kglens},
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        # the event's state, not the worker's: a read that failed at once is finished when its
        # RUNNING event is handled (on a busy machine), which would count it twice
        finished = event.state in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)
        if worker.group == READ_GROUP and finished:
            self._reading -= 1
            failed = failed_read(
                event, "the runs"
            )  # one literal line in the banner, not a notification
            if failed is not None and self.is_attached:  # every 2 s
                self.query_one("#banner", Static).update(literal(failed, one_line=True))
            return  # a read's value is shown by `ReadsOnWorkers` (`_read_done`)
        if worker is not self._chance_worker or not finished:
            return
        event.prevent_default()  # a failure shows as "chance —"
        self._chance_worker = None
        if event.state is WorkerState.SUCCESS and worker.result is not None:
            chances, headlines, kg_wide = worker.result
            self._chances.update(chances)
            self._headlines.update(headlines)
            self._kg_wide.update(kg_wide)
        elif event.state is WorkerState.ERROR:  # shown as "chance —", not retried in a loop
            for run_id, mark in self._wanted():
                if _observed(self._listed[run_id]):
                    self._chances[run_id] = (mark, None)
                    self._kg_wide[run_id] = None
                else:
                    self._headlines[run_id] = (mark, None)
        if self.is_attached:
            self._draw()
            if self._chance_again:
                self._work_out_chances()

    @on(DataTable.RowHighlighted, "#runs")
    @on(DataTable.RowHighlighted, "#kgs")
    def _highlighted(self) -> None:
        self._show_detail()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        """The highlighted KG whole while its list has the focus, else the selected run
        (`_run_detail`)."""
        kgs = self.query_one("#kgs", LiteralDataTable)
        detail = self.query_one("#run-detail", Static)
        if kgs.has_focus:
            k = self._kgs.get(kgs.selected_key() or "")
            detail.update(literal(kg_detail(k)) if k is not None else "")
            return
        row = self._listed.get(self.query_one("#runs", LiteralDataTable).selected_key() or "")
        detail.update(literal(self._run_detail(row)) if row is not None else "")

    def _run_detail(self, row: dict[str, str]) -> str:
        """The selected run in full under the list (its rows are cut to the screen): its rates
        with their intervals and what chance scores, then n, then its whole status, then its
        settings (a long target is cut there, never the rates)."""
        where = "its live screen" if _observed(row) else "its results"
        chance = self._chance_now().get(row["run"], LOADING)
        wide = self._kg_wide_now().get(row["run"], LOADING)
        rates = rates_detail(row, chance, wide) if row["win"] != "—" else f"rates: {where} (enter)"
        if not _observed(row):
            mark, headline = self._headlines.get(row["run"], (None, None))
            if mark != _progress_mark(row):
                rates = f"rates {LOADING}"
            elif headline is not None:
                rates = headline
        setting = [
            visible(row[c], one_line=True, limit=DETAIL_LIMIT if c == "KG" else TARGET_LIMIT)
            for c in ("mode", "KG", "target", "difficulty", "sampler")
            if row[c]
        ]
        status = visible(row["status"], one_line=True, limit=DETAIL_LIMIT)
        return (
            f"run {row['run']} · {rates}\n{status} · {_progress(row)}\n{' · '.join(setting)} · "
            f"enter: {where}"
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
        from kglens_tui.tui.screens.review import ReviewScreen

        # a KONTEST or fact-eval run has no blind-spot review: its analyses stand in for it
        self._results(False, ReviewScreen)

    def action_analyse_run(self) -> None:
        from kglens_tui.tui.screens.analysis import AnalysisScreen

        self._results(False, AnalysisScreen)

    def action_compare_run(self) -> None:
        from kglens_tui.tui.screens.compare import CompareScreen

        self._results(True, CompareScreen)

    def _results(self, compare: bool, observed: Callable[[int], Screen[Any]]) -> None:
        """The selected run's results as its mode declares them (`ModeAnalysisScreen`; the
        mode as the list holds it, nothing read first), or for a run whose observations the
        screens read (KGLens's; a mode not installed here) the ``observed`` screen of it."""
        from kglens_tui.tui.screens.mode_analysis import ModeAnalysisScreen

        run_id = self._selected_run()
        if run_id is None:
            return
        row = self._listed.get(str(run_id))
        mode = mode_of_label(row["mode"]) if row is not None else None
        if mode is None or mode.observations:
            self.app.push_screen(observed(run_id))
        else:
            self.app.push_screen(ModeAnalysisScreen.opening(run_id, compare))

    @on(DataTable.RowSelected, "#runs")
    def _row_selected(self) -> None:
        self.action_open_run()
