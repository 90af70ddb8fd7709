"""Annotation rounds: choose a round, say who you are, annotate. The coordinator also opens the
progress, report and adjudication screens from here; annotators only (`kglens annotate tui`,
`kglens serve`) never see those, nor the runs."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.progress import AnnotatorProgress, progress
from kglens_tui.annotate.rounds import Round, get_round, list_rounds
from kglens_tui.core.safetext import literal, markup_literal, visible
from kglens_tui.tui.format import BREAKPOINTS, CELL_PADDING, fit_widths
from kglens_tui.tui.reads import ReadsOnWorkers, failed_read, read_then
from kglens_tui.tui.screens.annotate import AnnotateScreen
from kglens_tui.tui.screens.new_round import CreatedRound, NewRoundScreen
from kglens_tui.tui.screens.workers import on_stack
from kglens_tui.tui.widgets.literal_table import LiteralDataTable
from kglens_tui.tui.widgets.title_header import TitleHeader

if TYPE_CHECKING:
    from textual import getters
    from textual.worker import Worker

    from kglens_tui.tui.app import KGLensApp

ROUNDS_HELP = """\
## Annotation rounds

| key | action |
| --- | --- |
| `a` / `enter` | annotate the selected round (you choose your name) |
| `n` | new round: a name, the KGLens runs to sample, items per KG, annotators, seed |
| `p` | progress: done of total and time per item, per annotator |
| `r` | report: Table 4, Krippendorff's alpha, Cohen's kappa, disagreements |
| `d` | adjudicate disputed items |
| `ctrl+r` | refresh (the list also follows rounds made elsewhere, every 2 s) |
| `escape` | back |

A round samples KGLens runs (not KONTEST or fact-eval ones): `n` here, or `kglens annotate
round create --name NAME --runs 1,2` (more filters: observations, edges, judge
disagreements). Remote annotators can use `kglens serve` (a browser) or a pack (`kglens annotate
export`).
"""

ANNOTATOR_HELP = """\
## Annotation rounds

| key | action |
| --- | --- |
| `a` / `enter` | annotate the selected round (you choose your name) |
| `p` | progress of the round |
| `ctrl+r` | refresh |
| `q` | quit |
"""

COORDINATOR_ACTIONS = ("new_round", "report", "adjudicate", "back")

REFRESH_S = 2.0
"""How often the list reads the rounds again while it shows (rounds made elsewhere appear)."""
READ_GROUP = "rounds-read"

ROUND_COLUMNS = ("round", "name", "items", "annotators", "majority", "labels done", "source")
ROUND_SHRINK = (("annotators", 14), ("source", 12), ("name", 10))
"""Columns cut (with "…") when the screen is too narrow, in turn, each to no less than its
width here: the names of the annotators first (p shows them whole), the source, the name."""
SIDE_ROOM = 4
"""Columns the table cannot use: the pane's padding and a vertical scrollbar."""


@dataclass(frozen=True)
class AnnotationEntry:
    """Open the app for annotators only, optionally straight at a round and an annotator."""

    round_ref: str | None = None
    annotator: str | None = None
    bound: bool = False
    """Only this round and annotator can be opened (`kglens serve --per-annotator` links)."""


def _source(rnd: Round) -> str:
    parts = [
        f"{key.replace('_ids', '').replace('_', ' ')} {', '.join(map(str, rnd.source[key][:6]))}"
        + (" …" if len(rnd.source[key]) > 6 else "")
        for key in ("runs", "observation_ids", "edge_ids")
        if rnd.source.get(key)
    ]
    return "; ".join(parts) or "hand-built"


@dataclass(frozen=True)
class RoundLine:
    """A round as the list shows it: the round and its labels done of total."""

    round: Round
    done: int
    total: int


def round_lines(conn: sqlite3.Connection, only: int | None = None) -> list[RoundLine]:
    """Every round (only round ``only`` when given) with its labels done of total."""
    lines = []
    for rnd in list_rounds(conn):
        if only is not None and rnd.id != only:
            continue
        counts = progress(conn, rnd.id)
        lines.append(RoundLine(rnd, sum(p.done for p in counts), sum(p.total for p in counts)))
    return lines


def bound_round(conn: sqlite3.Connection, entry: AnnotationEntry | None) -> tuple[int, str] | None:
    """(round id, annotator) when ``entry`` binds the app to one annotator of one round (no
    other can be opened from the list), else None."""
    if entry is None or not entry.bound or entry.round_ref is None or entry.annotator is None:
        return None
    return get_round(conn, entry.round_ref).id, entry.annotator


@dataclass(frozen=True)
class RoundsRead:
    """What the list reads: the round and annotator the app is bound to, and the rounds (only
    that round when bound)."""

    bound: tuple[int, str] | None
    lines: list[RoundLine]


def read_round_lines(
    conn: sqlite3.Connection, entry: AnnotationEntry | None, generation: int
) -> tuple[int, RoundsRead]:
    """The list's read, with its number."""
    bound = bound_round(conn, entry)
    return generation, RoundsRead(bound, round_lines(conn, bound[0] if bound is not None else None))


def entry_rounds(conn: sqlite3.Connection, round_ref: str | None) -> list[Round] | str:
    """The round an entry names (every round when it names none), or why there is none."""
    try:
        return [get_round(conn, round_ref)] if round_ref is not None else list_rounds(conn)
    except AnnotationError as exc:
        return str(exc)


class AnnotatorPickScreen(ReadsOnWorkers, ModalScreen[str | None]):
    """Who is annotating: one of the round's annotators, with how far each is (read on a
    worker: the names are listed once it is in)."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, round_id: int) -> None:
        super().__init__()
        self.round_id = round_id
        self.loaded = False
        """The round's annotators are read and listed."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                f"Who is annotating round {self.round_id}?",
                id="ann-who-title",
                classes="dialog-title",
            )
            yield Static("Reading the round's annotators…", id="ann-names-hint", classes="hint")
            yield OptionList(id="ann-names")

    def on_mount(self) -> None:
        round_id = self.round_id
        read_then(
            self,
            lambda conn: (get_round(conn, round_id), progress(conn, round_id)),
            self._listed,
            "reading the round's annotators",
        )

    def _listed(self, read: tuple[Round, list[AnnotatorProgress]]) -> None:
        rnd, rows = read
        self.query_one("#ann-who-title", Label).update(
            literal(f"Who is annotating round '{rnd.name}'?")
        )
        self.query_one("#ann-names-hint", Static).update(
            "Choose your name and press enter (esc cancels)."
        )
        names = self.query_one("#ann-names", OptionList)
        names.add_options(
            Option(literal(f"{p.annotator}  ·  {p.done} of {p.total} done"), id=p.annotator)
            for p in rows
        )
        names.highlighted = 0 if rows else None
        self.loaded = True

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


READS_FIRST = frozenset(("annotate", "progress", "report", "adjudicate"))
"""What waits for the first read of the rounds (`RoundsScreen.loaded`)."""


class RoundsScreen(ReadsOnWorkers, Screen[Any]):
    """Every annotation round with how far it is."""

    if TYPE_CHECKING:
        app = getters.app(KGLensApp)

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    BINDINGS = [
        # enter (the table's) and ctrl+r are in the help and the palette, and q in the
        # coordinator's footer gives way to esc (back to home, which shows it): at 80 columns
        # the footer has room for the others
        Binding("a,enter", "annotate", "Annotate", key_display="a"),
        Binding("n", "new_round", "New", tooltip="New round"),
        Binding("p", "progress", "Progress"),
        Binding("r", "report", "Report"),
        Binding("d", "adjudicate", "Adjudicate"),
        Binding("ctrl+r", "refresh", "Refresh", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "back", "Back"),
        Binding("q", "quit", "Quit"),  # annotators only: their way out (`check_action`)
        Binding("q", "app.quit_app", "Quit", show=False),
    ]

    def __init__(self, entry: AnnotationEntry | None = None) -> None:
        super().__init__()
        self.entry = entry
        self._lines: list[RoundLine] | None = None
        """The rounds shown (None: none read yet)."""
        self._bound: tuple[int, str] | None = None
        """(round id, annotator) when the app is bound to one annotator of one round (no other
        can be opened from here), as the last read found it (`bound_round`)."""
        self._asked = 0
        """The newest read started."""
        self._shown = 0
        """The read shown: an older one's result is dropped."""
        self._reading = 0
        """Reads going on (the timer starts none meanwhile)."""
        self._select: str | None = None
        """The round the next read selects (one made here), else the cursor stays on its."""
        self.loaded = False
        """The rounds have been read and listed once (on a worker: `action_refresh`)."""

    @property
    def annotators_only(self) -> bool:
        return getattr(self.app, "annotation", None) is not None

    # Textual declares HELP a ClassVar; this screen's help depends on the app's entry, so it is
    # read per instance (the app's help reads screen.HELP)
    @property
    def HELP(self) -> str:  # type: ignore[override]
        return ANNOTATOR_HELP if self.annotators_only else ROUNDS_HELP

    def compose(self) -> ComposeResult:
        yield TitleHeader()
        with Vertical(id="ann-rounds"):
            yield Static("", id="ann-banner")
            yield Static("Annotation rounds", classes="section-title")
            yield LiteralDataTable(id="ann-rounds-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "human evaluation"
        table = self.query_one("#ann-rounds-table", DataTable)
        self.query_one("#ann-banner", Static).update("Reading the rounds…")
        table.focus()
        self._open_entry()
        self.set_interval(REFRESH_S, self._poll)

    def on_screen_resume(self) -> None:
        """Shown, the first time or again: read the rounds."""
        self.action_refresh()

    def on_resize(self) -> None:
        if self._lines is not None:
            self._draw(self._lines)  # the columns' widths follow the screen's

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in READS_FIRST and not self.loaded:
            return None
        if action == "quit":  # else q falls through to the app's quit, not in the footer
            return self.annotators_only
        return not (self.annotators_only and action in COORDINATOR_ACTIONS)

    def action_quit(self) -> None:
        self.app.action_quit_app()

    def action_refresh(self) -> None:
        """Read the rounds again, on a worker (ctrl+r, back on this screen, a round made here);
        drawn when it is in, unless a newer read was drawn first."""
        self._reading += 1
        self._asked += 1
        generation, entry = self._asked, getattr(self.app, "annotation", None)
        read_then(
            self,
            lambda conn: read_round_lines(conn, entry, generation),
            self._rounds_read,
            "reading the rounds",
            group=READ_GROUP,
            exclusive=False,
        )

    def _poll(self) -> None:
        """Follow rounds made or labelled elsewhere (the CLI, `kglens serve`, another app)
        while this screen shows and no read is going on, drawn only when it changed."""
        if not self._reading and self.app.screen is self:
            self.action_refresh()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A read that ended (the event's state: a read that failed at once is finished when
        its RUNNING event is handled); a failure as a line in the banner, not a notification
        every 2 s. A read's value is drawn by `ReadsOnWorkers` (`_rounds_read`)."""
        from textual.worker import WorkerState

        ended = (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)
        if event.worker.group != READ_GROUP or event.state not in ended:
            return
        self._reading -= 1
        failed = failed_read(event, "the rounds")
        if failed is not None:
            if on_stack(self):
                self.query_one("#ann-banner", Static).update(literal(failed, one_line=True))
            self._lines = None  # drawn again by the next read that works

    def _rounds_read(self, result: tuple[int, RoundsRead]) -> None:
        generation, read = result
        if generation <= self._shown:
            return  # a newer read is shown already
        self._shown = generation
        self._bound = read.bound
        if read.lines != self._lines or self._select is not None:
            self._draw(read.lines)
        if not self.loaded:
            self.loaded = True
            self.refresh_bindings()

    def _draw(self, lines: list[RoundLine]) -> None:
        """The rounds in the table, the cursor kept on its round, and the banner."""
        self._lines = lines
        table = self.query_one("#ann-rounds-table", LiteralDataTable)
        selected = table.selected_key()
        rounds = [line.round for line in lines]
        rows = []
        for line in lines:
            rnd, done, total = line.round, line.done, line.total
            raters = rnd.settings.raters_per_item or len(rnd.annotators)
            rows.append(
                [
                    str(rnd.id),
                    visible(rnd.name, one_line=True),
                    f"{rnd.items:,}",
                    visible(", ".join(rnd.annotators), one_line=True),
                    f"{rnd.settings.majority} of {raters}",
                    f"{done:,} of {total:,}",
                    _source(rnd),
                ]
            )
        natural = [
            max([len(title), *(cell_len(row[i]) for row in rows)])
            for i, title in enumerate(ROUND_COLUMNS)
        ]
        at = {c: i for i, c in enumerate(ROUND_COLUMNS)}
        shrink = [(at[c], min(natural[at[c]], w)) for c, w in ROUND_SHRINK]
        room = self.size.width - SIDE_ROOM - CELL_PADDING * len(ROUND_COLUMNS)
        widths = fit_widths(natural, room, shrink)
        table.clear(columns=True)
        for title, width in zip(ROUND_COLUMNS, widths, strict=True):
            table.add_column(title, width=width)
        for rnd, row in zip(rounds, rows, strict=True):
            cells = [visible(cell, limit=w) for cell, w in zip(row, widths, strict=True)]
            table.add_row(*cells, key=str(rnd.id))
        table.select_key(self._select or selected)
        self._select = None
        banner = self.query_one("#ann-banner", Static)
        bound = self._bound
        if not rounds and self.annotators_only:
            banner.update(
                "No annotation rounds yet: the coordinator creates them (n on this screen of "
                "the full app, or [b]kglens annotate round create[/])."
            )
        elif not rounds:
            banner.update(
                "No annotation rounds yet. Press [b]n[/] to create one from KGLens runs (or "
                "[b]kglens annotate round create --name NAME --runs 1,2[/])."
            )
        elif bound is not None:
            banner.update(
                f"You annotate this round as [b]{markup_literal(bound[1])}[/]: press [b]a[/] or "
                "[b]enter[/] to go on."
            )
        elif self.annotators_only:
            banner.update("Choose a round and press [b]a[/] or [b]enter[/] to annotate it.")
        else:
            banner.update(
                "a annotates (you choose your name) · n new round · p progress · r report "
                "(Table 4, agreement) · d adjudicate · ? every key"
            )

    def selected_round(self) -> int | None:
        key = self.query_one("#ann-rounds-table", LiteralDataTable).selected_key()
        if key is None:
            how = "" if self.annotators_only else " with n or"
            self.notify(f"No rounds yet: create one{how} with `kglens annotate round create`.")
            return None
        return int(key)

    def _open_entry(self) -> None:
        """Go straight to the round and annotator given on the command line, if any, once the
        round is read (on a worker)."""
        entry = self.entry
        if entry is None:
            return
        self.entry = None
        ref = entry.round_ref
        read_then(
            self,
            lambda conn: entry_rounds(conn, ref),
            partial(self._entry_read, entry),
            "the round",
        )

    def _entry_read(self, entry: AnnotationEntry, rounds: list[Round] | str) -> None:
        if self.app.screen is not self:
            return  # a round was opened from the list meanwhile
        if isinstance(rounds, str):
            self.notify(rounds, severity="error", timeout=10)
            return
        if entry.round_ref is None:
            if len(rounds) == 1:
                self.pick_annotator(rounds[0].id)
            return
        (rnd,) = rounds
        if entry.bound and entry.annotator is not None:
            self._bound = rnd.id, entry.annotator  # as the list's read finds it
        if entry.annotator is None:
            self.pick_annotator(rnd.id)
        elif entry.annotator in rnd.annotators:
            self.app.push_screen(AnnotateScreen(rnd.id, entry.annotator))
        else:
            self.notify(
                f"No annotator '{entry.annotator}' in round '{rnd.name}': choose your name.",
                severity="warning",
                timeout=10,
            )
            self.pick_annotator(rnd.id)

    def pick_annotator(self, round_id: int) -> None:
        bound = self._bound
        if bound is not None:  # no one else to choose
            self.app.push_screen(AnnotateScreen(*bound))
            return

        def chosen(name: str | None) -> None:
            if name:
                self.app.push_screen(AnnotateScreen(round_id, name))

        self.app.push_screen(AnnotatorPickScreen(round_id), chosen)

    def action_annotate(self) -> None:
        round_id = self.selected_round()
        if round_id is not None:
            self.pick_annotator(round_id)

    @on(DataTable.RowSelected, "#ann-rounds-table")
    def _row_selected(self) -> None:
        self.action_annotate()

    def action_new_round(self) -> None:
        """The new-round form; the round it stores is listed and selected."""

        def created(done: CreatedRound | None) -> None:
            if done is None or not on_stack(self):
                return
            self._select = str(done.round.id)
            self.action_refresh()
            self.notify(done.summary, title="Round created", markup=False)

        self.app.push_screen(NewRoundScreen(), created)

    def action_progress(self) -> None:
        from kglens_tui.tui.screens.annotate_progress import ProgressScreen

        round_id = self.selected_round()
        if round_id is not None:
            self.app.push_screen(ProgressScreen(round_id))

    def action_report(self) -> None:
        from kglens_tui.tui.screens.annotate_report import ReportScreen

        round_id = self.selected_round()
        if round_id is not None:
            self.app.push_screen(ReportScreen(round_id))

    def action_adjudicate(self) -> None:
        from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen

        round_id = self.selected_round()
        if round_id is not None:
            self.app.push_screen(AdjudicationScreen(round_id))

    def action_back(self) -> None:
        self.app.pop_screen()
