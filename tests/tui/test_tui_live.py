"""The KGLens live screen: each stored reply once, the rates box whole at 80x24, progress
counters taken at one moment, per-predicate rates with intervals and chance."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import wait_for
from fake_openai_server import FakeOpenAIServer
from rich.text import Text
from textual.geometry import Size
from textual.widgets import DataTable, RichLog, Static
from tui_support import MEDIUM, make_default_app, notices_of

from kglens_tui.analysis.coin_baseline import CoinBaseline, CoinRate
from kglens_tui.analysis.groups import group_table
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.llm.usage import Counters
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import RECENT_REPLIES, ReplyView
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct, rate_ci
from kglens_tui.tui.screens.live import (
    RATES_WIDTH,
    LiveScreen,
    _compact_rates,
    predicate_cells,
)

pytestmark = pytest.mark.tui

SMALL, LARGE = (80, 24), (160, 48)


def _store_run(db: Path, iterations: int = 2, batch_size: int = 8) -> int:
    """A finished simulated run of `iterations` x `batch_size` questions; its id."""
    conn = connect(db)
    engine = prepare(
        conn,
        config=RunConfig(
            kg="country",
            subset="paper16",
            target="sim:3",
            iterations=iterations,
            batch_size=batch_size,
            stop_on_convergence=False,
        ),
    )
    run_blocking(engine)
    run_id = int(engine.run.id)
    conn.close()
    return run_id


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    db = tmp_path_factory.mktemp("live") / "w.db"
    return db, _store_run(db)


@pytest.fixture
def stored(template: tuple[Path, int], tmp_path: Path) -> tuple[Path, int]:
    """A private copy of the stored run (a screen may write)."""
    db = tmp_path / "w.db"
    src, dst = sqlite3.connect(template[0]), sqlite3.connect(db)
    src.backup(dst)
    src.close()
    dst.close()
    return db, template[1]


def _entries(screen: LiveScreen) -> list[str]:
    """The reply lines of the questions and replies pane, one per entry written."""
    log = screen.query_one("#replies", RichLog)
    return [s.text.strip() for s in log.lines if s.text.lstrip().startswith("→")]


async def _open(pilot, run_id: int) -> LiveScreen:
    """Open a stored run and wait until its chance band and per-predicate rates are in."""
    app = pilot.app
    app.open_run(run_id)
    await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
    screen = app.screen
    await wait_for(pilot, lambda: screen.coin is not None and screen.pred_rows is not None, 120)
    await pilot.pause()
    return screen


def _drew(screen: LiveScreen) -> bool:
    """A refresh tick, then whether its figures (made on a worker) are shown."""
    screen.refresh_view()
    return screen._last_key is not None and screen._view_worker is None


async def _drawn(pilot, screen: LiveScreen) -> None:
    """Draw the screen anew from its snapshot, as a refresh tick with a change does, and wait
    until what its worker made is shown."""
    screen._redraw()
    await wait_for(pilot, lambda: _drew(screen), 60)


def _observations(db: Path, run_id: int) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT question, reply FROM observation WHERE run_id = ? ORDER BY id", (run_id,)
    ).fetchall()
    conn.close()
    return rows


# 1. each stored reply once


async def test_a_stored_run_shows_each_reply_once_also_after_a_refresh(
    stored: tuple[Path, int],
) -> None:
    """A finished run's screen lists each of its N stored replies once: also after the chance
    band lands (it redraws the screen) and after another forced redraw."""
    db, run_id = stored
    observations = _observations(db, run_id)
    assert len(observations) == 16
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _open(pilot, run_id)  # the coin band came in: a redraw
        assert len(_entries(screen)) == len(observations)
        await _drawn(pilot, screen)  # any other redraw (a refresh tick with a change)
        assert len(_entries(screen)) == len(observations)
        entries = _entries(screen)  # in the order they were stored
        assert all(
            e.startswith("→ " + reply.strip()[:12])
            for e, (_, reply) in zip(entries, observations, strict=True)
        ), entries


async def test_a_followed_run_adds_only_the_replies_committed_since(
    stored: tuple[Path, int],
) -> None:
    """A run another process drives is read again as it commits (a new snapshot whose feed
    holds every stored reply): only the replies committed since are added, once, in order."""
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _open(pilot, run_id)
        full = screen.snapshot()
        assert full is not None and len(full.progress.recent) == 16
        first = dataclasses.replace(
            full,
            iteration=1,
            progress=dataclasses.replace(full.progress, recent=full.progress.recent[:8]),
            counts={"correct": 5, "incorrect": 3},
        )
        snapshots = iter([first, full])
        current = [next(snapshots)]
        screen._stored = SimpleNamespace(snapshot=lambda: current[0])  # type: ignore[assignment]
        screen.query_one("#replies", RichLog).clear()
        screen._fed = None
        await _drawn(pilot, screen)
        assert len(_entries(screen)) == 8
        current[0] = next(snapshots)  # the other process committed iteration 2
        await _drawn(pilot, screen)
        replies = [view.reply for view in full.progress.recent]
        entries = _entries(screen)
        assert len(entries) == 8 + 6  # the newest REPLIES_PER_REFRESH of a refresh
        expected = [*replies[:8], *replies[10:]]  # the first read, then the newest six
        assert all(
            e.startswith("→ " + r.strip()[:10]) for e, r in zip(entries, expected, strict=True)
        ), entries


# 2. the rates box at 80x24


def _stale_coin(answered: int) -> CoinBaseline:
    band = CoinRate(0.502, 0.440, 0.581)
    return CoinBaseline(answered, 40, dict.fromkeys(("win", "zero_sense", "all_sense"), band))


async def test_at_80x24_every_line_of_the_rates_box_shows_with_a_coin_band_of_fewer_answers(
    stored: tuple[Path, int],
) -> None:
    """Once the coin band is older than the run's answers ("at 248 answers"), the narrow rates
    box still holds its seven lines without wrapping: each rate, each chance and n."""
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _open(pilot, run_id)
        screen.coin = _stale_coin(5)  # replayed at 5 answers, the run has 16
        await _drawn(pilot, screen)
        rates = screen.query_one("#rates", Static)
        lines = str(rates.render()).splitlines()
        assert len(lines) == 7
        assert lines[-1].startswith("n=") and "at 5 answers" in lines[-1]
        assert sum("chance 50.2% [44.0–58.1]" in line for line in lines) == 3
        assert "coin" not in str(rates.render())
        assert rates.border_subtitle == "chance under this sampler"  # the report's column
        room = rates.content_size
        assert max(len(line) for line in lines) <= room.width, (lines, room)
        height = rates.get_content_height(Size(80, 24), Size(80, 24), room.width)
        assert height <= room.height, (height, room)


@pytest.mark.parametrize(("examined", "answered"), [(86, 12), (2_519, 248), (123_456, 99_999)])
def test_the_narrow_rates_fit_their_box_whatever_the_counts(examined: int, answered: int) -> None:
    rates = SimpleNamespace(win=1.0, zero_sense=0.0, all_sense=1.0, examined=examined)
    snap = SimpleNamespace(rates=rates, baseline=None, counts={"correct": answered + 1})
    text = Text.from_markup(_compact_rates(snap, _stale_coin(answered))).plain  # type: ignore[arg-type]
    lines = text.splitlines()
    assert len(lines) == 7 and max(len(line) for line in lines) <= RATES_WIDTH, lines
    assert f"n={examined:,}" in lines[-1] and f"chance at {answered:,}" in lines[-1]


# 3. counters at one moment


def _view(iteration: int, category: str) -> ReplyView:
    return ReplyView(iteration, "Q?", "A", category, "yes_no", "yes")


async def test_the_progress_counts_the_replies_of_an_iteration_not_committed_yet(
    stored: tuple[Path, int],
) -> None:
    """Mid-iteration the replies in count in requests, failed, tokens and retries as the
    engine's counter of them says (their iteration is not committed, so the committed counters
    do not hold them yet), also those the bounded feed no longer holds; failures are not
    answers; an ended run has none."""
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _open(pilot, run_id)
        full = screen.snapshot()
        assert full is not None
        in_feed = [_view(3, "error")] * 3 + [_view(3, "correct")] * 2
        going = dataclasses.replace(
            full,
            progress=dataclasses.replace(
                full.progress, status="running", recent=(*full.progress.recent, *in_feed)
            ),
            uncommitted=Counters(250, 240, 9, 1_000, 60),  # more than the feed's 5
            replies_total=5,
        )
        sent = full.progress.counters
        screen._stored = SimpleNamespace(snapshot=lambda: going)  # type: ignore[assignment]
        await _drawn(pilot, screen)
        progress = str(screen.query_one("#progress", Static).render())
        assert "+250 not committed" in progress
        assert f"requests {sent.requests + 250} · failed {sent.errors + 240}" in progress
        tokens = sent.prompt_tokens + sent.completion_tokens + 1_060
        assert f"tokens {tokens:,} · retries {sent.retries + 9}" in progress
        assert "committed)" not in progress and "answered" not in progress
        ended = dataclasses.replace(
            going, progress=dataclasses.replace(going.progress, status="failed")
        )
        screen._stored = SimpleNamespace(snapshot=lambda: ended)  # type: ignore[assignment]
        await _drawn(pilot, screen)
        progress = str(screen.query_one("#progress", Static).render())
        assert "not committed" not in progress
        assert f"requests {sent.requests} · failed {sent.errors}" in progress
        assert "committed iterations took" in progress  # a stored run's time, said as such


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_progress_box_shows_its_last_line_with_the_bias_warning(
    stored: tuple[Path, int], size: tuple[int, int]
) -> None:
    """With the Yes/No answer-bias warning on, the progress box still holds every line, the
    learned line last, without wrapping (the box has no line to spare at any size)."""
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, run_id)
        full = screen.snapshot()
        assert full is not None and full.learned is not None
        biased = dataclasses.replace(full, yes_no=BIASED)
        screen._stored = SimpleNamespace(snapshot=lambda: biased)  # type: ignore[assignment]
        await _drawn(pilot, screen)
        progress = screen.query_one("#progress", Static)
        lines = str(progress.render()).splitlines()
        assert any("⚠" in line and "92%" in line for line in lines), lines
        assert lines[-1].startswith("learned:"), lines
        room = progress.content_size
        assert max(len(line) for line in lines) <= room.width, (lines, room)
        height = progress.get_content_height(Size(*size), Size(*size), room.width)
        assert height <= room.height, (height, room, lines)


async def test_the_replies_wrap_again_when_the_terminal_is_resized(
    stored: tuple[Path, int],
) -> None:
    """Replies written at 160 columns are written again at the pane's new width at 120 (shown
    there with `r`, in place of the table, on the whole width): each once, none wider than the
    pane; and back. The progress is drawn again to fit its box."""
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _open(pilot, run_id)
        log = screen.query_one("#replies", RichLog)
        wide = log.scrollable_content_region.width
        assert len(_entries(screen)) == 16 and screen._shown.maxlen == RECENT_REPLIES
        width = wide
        for size in (MEDIUM, LARGE):
            resized = lambda before=width: log.scrollable_content_region.width != before  # noqa: E731
            await pilot.resize_terminal(*size)
            if size == MEDIUM:  # the table has the whole width until `r`
                await wait_for(pilot, lambda: screen.has_class("-narrow"))
                assert log.scrollable_content_region.width == 0
                await pilot.press("r")
            await wait_for(pilot, lambda r=resized: r() and log.scrollable_content_region.width > 0)
            await pilot.pause()  # the rewrap follows the refresh of the new layout
            width = log.scrollable_content_region.width
            assert len(_entries(screen)) == 16
            assert max(strip.cell_length for strip in log.lines) <= width, width
            progress = screen.query_one("#progress", Static)
            lines = str(progress.render()).splitlines()
            assert lines[-1].startswith("learned:"), lines
            room = progress.content_size
            assert max(len(line) for line in lines) <= room.width, (lines, room)
        assert width == wide


NUMBERS = re.compile(r"requests ([\d,]+) · failed ([\d,]+)(?: · dropped ([\d,]+))?")
PENDING = re.compile(r"\+([\d,]+) not committed")


def _counters(text: str) -> tuple[int, int, int, int]:
    """(requests, failed, dropped, not committed) as the progress says them."""
    found = NUMBERS.search(text)
    assert found is not None, text
    requests, failed, dropped = (int((g or "0").replace(",", "")) for g in found.groups())
    pending = PENDING.search(text)
    return requests, failed, dropped, int(pending.group(1).replace(",", "")) if pending else 0


async def test_against_a_failing_endpoint_the_counters_agree_at_every_moment(
    tmp_path: Path,
) -> None:
    """Every request times out: at each redraw the requests shown are the failures shown plus
    the dropped ones (no answer came), and the requests whose iteration is not committed are
    among them; at the end they are what the workspace stores and the time ticked."""
    db = tmp_path / "w.db"
    app = make_default_app(db, ui_refresh_hz=20)
    with FakeOpenAIServer(fault_rates={"timeout": 1.0}, timeout_delay_s=10) as srv:
        config = RunConfig(
            kg="country",
            subset="paper16",
            target="openai:fake-model",
            base_url=srv.base_url,
            timeout_s=0.3,
            max_retries=0,
            batch_size=8,
            concurrency=4,
            iterations=60,
        )
        async with app.run_test(size=SMALL) as pilot:
            app.start_run(config)
            await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
            screen = app.screen
            await wait_for(pilot, lambda: bool(screen.query("#progress")))
            progress = screen.query_one("#progress", Static)
            seen: list[tuple[int, int, int, int]] = []

            def sample() -> bool:
                text = str(progress.render())
                if "requests" in text:
                    seen.append(_counters(text))
                snap = app.session.snapshot() if app.session is not None else None
                return snap is not None and snap.status == "failed" and not app._busy()

            await wait_for(pilot, sample, 120)
            await pilot.pause()
            sample()
            final_text = str(progress.render())
    mid = [s for s in seen if s[3]]
    assert mid, f"no redraw caught an iteration in flight: {seen}"
    for requests, failed, dropped, pending in seen:
        assert requests == failed + dropped, seen
        assert failed >= pending, seen
    requests, failed, dropped, pending = seen[-1]
    assert pending == 0 and dropped >= 0
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT requests, errors, dropped FROM target_usage").fetchone()
    conn.close()
    assert (requests, failed, dropped) == stored
    seconds = re.search(r"elapsed (\d+)s", final_text)
    assert seconds is not None and int(seconds.group(1)) >= 1, final_text


# 4. per predicate: intervals and chance


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
async def test_each_predicate_rate_comes_with_its_interval_and_chance_within_the_width(
    stored: tuple[Path, int], size: tuple[int, int]
) -> None:
    """The per-predicate rows give the analysis screen's figures (`group_table` over the raw
    answers): each rate with its 95% interval and what chance scores on the same questions,
    the predicate and n, all within the pane (nothing to scroll sideways)."""
    db, run_id = stored
    conn = connect(db)
    rows = group_table(load_run_data(conn, run_id), "predicate", adjusted=False)
    conn.close()
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, run_id)
        if size == SMALL:  # below 130 columns the blind spots show first: t shows the rates
            await pilot.press("t")
        table = screen.query_one("#preds", DataTable)
        await wait_for(pilot, lambda: table.row_count == len(rows))
        await pilot.pause()
        assert table.max_scroll_x == 0, (table.virtual_size, table.size)
        for i, row in enumerate(rows):
            shown = " ".join(str(cell) for cell in table.get_row_at(i))
            r, chance = row.rates, row.chance
            name = row.label if size == LARGE else row.label[:10]  # cut to fit at 80 columns
            assert name in shown and f"{r.examined}/{row.edges}" in shown
            for p in (r.zero_sense, r.win):
                assert rate_ci(*p.bounds) in shown, (shown, p)
            if r.examined:
                assert pct(chance.zero_sense) in shown and pct(chance.win_rate) in shown
        screen._draw_predicates()  # drawn again: its columns are as wide as their lines at once
        for i, column in enumerate(table.columns.values()):
            cells = [table.get_row_at(r)[i] for r in range(table.row_count)]
            widest = max(len(line) for cell in cells for line in cell.plain.splitlines())
            assert column.get_render_width(table) >= widest + 2, (column.label, widest)


@pytest.mark.parametrize("width", [36, 76])
def test_a_predicate_is_shown_literally(width: int) -> None:
    import numpy as np

    from kglens_tui.analysis.groups import GroupRow, rate_set
    from kglens_tui.answers.bias import Baseline

    label = "[red]cap[/] \x1b[31m"
    row = GroupRow(
        "p", label, 3, rate_set(np.array([0, 1]), np.array([2, 0])), 0.5,
        Baseline(0.5, 0.5, 0.25, 0.25),
    )  # fmt: skip
    head, cells, height = predicate_cells([row], width)
    text = "\n".join(c.plain for c in cells[0])
    assert "[red]cap[/]" in text and "\x1b" not in text
    assert "50.0% [9.5–90.5]" in text and "25.0%" in text
    assert height == (2 if width == 76 else 3) and len(head) == (3 if width == 76 else 2)
    widest = max(len(line) for c in cells[0] for line in c.plain.splitlines())
    assert widest <= width


async def test_the_per_predicate_rows_come_in_whatever_order_the_worker_events_arrive(
    stored: tuple[Path, int],
) -> None:
    """A thread worker may have finished by the time its first state event (pending) reaches
    the screen: the rows are taken with its success event, not lost with the first one."""
    from textual.worker import WorkerState

    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _open(pilot, run_id)
        rows = screen.pred_rows
        assert rows
        finished = SimpleNamespace(
            is_finished=True,
            result=(rows[:1], screen._preds_kg, 0.0),
            error=None,
            group="live-predicates",
        )
        screen._preds_worker = finished  # type: ignore[assignment]
        for state in (WorkerState.PENDING, WorkerState.RUNNING, WorkerState.SUCCESS):
            event = SimpleNamespace(worker=finished, state=state, prevent_default=lambda: None)
            screen.on_worker_state_changed(event)  # type: ignore[arg-type]
        await pilot.pause()
        assert screen.pred_rows == rows[:1]
        assert screen.query_one("#preds", DataTable).row_count == 1


BIASED = {("yes", "yes"): 3, ("yes", "no"): 17, ("no", "no"): 20}
"""Says Yes to 3 of 40: a strong lean to No."""
BALANCED = {("yes", "yes"): 15, ("yes", "no"): 5, ("no", "no"): 14, ("no", "yes"): 6}


def test_the_yes_rate_line_gives_its_interval_and_n() -> None:
    from kglens_tui.answers.bias import bias_from_counts
    from kglens_tui.tui.screens.live import _bias_lines

    for counts in (BALANCED, BIASED):
        yes = bias_from_counts(counts).yes_rate
        low, high = yes.interval
        line = f"yes {rate_ci(yes.value, low, high)} n=40 · bal. acc. "
        lines = _bias_lines(SimpleNamespace(yes_no=counts))
        assert len(lines) == 1, "the warning shares the line: the progress box has no spare"
        if counts is BIASED:
            assert lines[0] == f"[b yellow]⚠ answer bias: says No to 92%[/] · {line}0.57"
        else:
            assert lines[0].startswith(line)


def test_on_a_narrow_box_the_yes_rate_line_drops_its_interval() -> None:
    from kglens_tui.tui.screens.live import _bias_lines

    (line,) = _bias_lines(SimpleNamespace(yes_no=BALANCED), 38)
    assert line == "yes-rate 52.5% n=40 · bal. acc. 0.72"


@pytest.mark.parametrize(
    ("width", "expected"),
    [
        (44, "[b yellow]⚠ bias: says No to 92%[/] n=40 · bal. acc. 0.57"),
        (38, "[b yellow]⚠ bias: No 92%[/] n=40 · bal. acc. 0.57"),
        (35, "[b yellow]⚠ bias: No 92%[/] · bal. acc. 0.57"),
        (14, "[b yellow]⚠ bias: No 92%[/]"),
    ],
)
def test_on_a_narrow_box_the_bias_warning_comes_first_and_keeps_what_fits(
    width: int, expected: str
) -> None:
    from kglens_tui.tui.screens.live import _bias_lines

    (line,) = _bias_lines(SimpleNamespace(yes_no=BIASED), width)
    assert line == expected
    assert len(Text.from_markup(line).plain) <= width


class _FailedReplay:
    """A coin replay that ends at once in failure, its error text with markup in it."""

    def __init__(self, db_path: object, run_id: int) -> None:
        self.band = None
        self.error = "no [bold]band[/] today"

    def poll(self) -> bool:
        return True

    def terminate(self) -> None:
        pass


async def test_a_failed_chance_replay_and_predicate_read_settle_the_screen_and_are_told(
    stored: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay or a read that failed is over: the screen settles (a test waiting on it does
    not wait out its ceiling), `failures` says what failed, and the user is told literally."""
    from kglens_tui.tui.screens import live

    def failing(*_args: object):
        def work() -> None:
            raise RuntimeError("predicates [red]gone[/]")

        return work

    monkeypatch.setattr(live, "CoinReplay", _FailedReplay)
    monkeypatch.setattr(live, "_predicate_rows_worker", failing)
    db, run_id = stored
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=SMALL) as pilot:
        app.open_run(run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
        screen = app.screen
        told = "chance band not replayed: no [bold]band[/] today"
        # the notice is a message the app handles after the failure is set: wait for it too
        await wait_for(
            pilot,
            lambda: (
                screen.settled
                and len(screen.failures) == 2
                and told in [str(n.message) for n in notices_of(app)]
            ),
            120,
            describe=lambda: (screen.pending, screen.failures, notices_of(app)),
        )
        assert screen.coin is None and screen.pred_rows is None
        assert screen.failures["chance"] == told
        assert "predicates [red]gone[/]" in screen.failures["predicates"]
        title = screen.query_one("#preds-title", Static)
        assert "predicates [red]gone[/]" in str(title.render())


@pytest.fixture(scope="module")
def five_iterations(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A stored run with enough draws for the two-ask rates to be shown (settled): its floor's
    census passes the 446 edges well into a second time."""
    db = tmp_path_factory.mktemp("senses") / "w.db"
    return db, _store_run(db, iterations=16, batch_size=64)


def test_the_title_gives_the_two_ask_rates_a_line_where_the_kg_wide_line_is_full(
    five_iterations: tuple[Path, int],
) -> None:
    """A finished run's line at 160 columns was 2 cells too long for them, and the rates went
    from the title when it finished; at 80 columns they were on no line (trial 2, B): where
    the KG-wide line is full they take lines of their own, each within the title."""
    from kglens_tui.analysis.kgwide_render import kg_wide_snapshot_line, senses_snapshot_text
    from kglens_tui.modes.kglens.mode import open_snapshot
    from kglens_tui.store.connection import connect
    from kglens_tui.tui.screens.live import title_text

    db, run_id = five_iterations
    conn = connect(db)
    snap = open_snapshot(conn, run_id)
    conn.close()
    wide = kg_wide_snapshot_line(snap.kg_wide, snap.kg_wide_chance)
    senses = senses_snapshot_text(snap.kg_wide_senses, snap.kg_wide_sense_chance)
    assert senses.startswith(" · 2 asks: zero-sense ")

    def lines(room: int) -> list[str]:
        return Text.from_markup(title_text(snap, "", room)).plain.splitlines()

    room = len(wide + senses)  # one cell short of the margin
    assert lines(room)[1:] == [wide, "KG-wide at " + senses.removeprefix(" · ")]
    assert lines(room + 2)[1:] == [wide + senses]
    narrow = lines(80)[1:]
    assert narrow[0] == wide and narrow[1].startswith("KG-wide zero-sense (2 asks) ")
    assert narrow[2].startswith("KG-wide all-sense (2 asks) ") and " chance " in narrow[2]
    assert all(len(line) <= 78 for line in narrow)


@pytest.mark.parametrize("size", [(220, 50), SMALL])
async def test_the_title_gives_the_two_ask_rates_with_chance_and_n_where_they_fit(
    five_iterations: tuple[Path, int], size: tuple[int, int]
) -> None:
    """The KG-wide line carries zero-sense and all-sense at two asks, each with blind
    guessing's rate on the same estimand, and the answers they rest on, when the line has room
    for them; at 80 columns they follow on lines of their own."""
    from kglens_tui.analysis.kgwide_render import senses_snapshot_text
    from kglens_tui.modes.kglens.sense_rates import ZERO_SENSE

    db, run_id = five_iterations
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=size) as pilot:
        screen = await _open(pilot, run_id)
        snap = screen.snapshot()
        assert snap is not None and snap.kg_wide_senses[ZERO_SENSE] is not None
        assert snap.kg_wide_sense_chance[ZERO_SENSE] is not None
        senses = senses_snapshot_text(snap.kg_wide_senses, snap.kg_wide_sense_chance)
        assert senses.startswith(" · 2 asks: zero-sense ") and " chance " in senses
        assert f"n={snap.kg_wide_senses[ZERO_SENSE].answers:,}" in senses
        await wait_for(pilot, lambda: screen._last_key is not None, 60)
        title = str(screen.query_one("#run-title", Static).render())
        lines = title.splitlines()
        assert lines[1].startswith("KG-wide win ")
        assert (senses in title) == (size != SMALL), title
        assert (size == SMALL) == any(
            line.startswith("KG-wide zero-sense (2 asks) ") for line in lines
        ), title
        assert all(len(line) <= size[0] for line in lines)


# the figures are made on a worker: keys are handled meanwhile; made too late, dropped


async def test_the_live_figures_are_made_on_a_worker_and_keys_go_on_meanwhile(
    stored: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the live screen's figures are being made (held here), `?` and `escape` are
    handled; once made they are shown, made off the UI thread."""
    import threading

    from tui_support import Spy

    from kglens_tui.tui.screens import live
    from kglens_tui.tui.screens.dialogs import HelpScreen

    db, run_id = stored
    spy = Spy(live.live_view)
    monkeypatch.setattr(live, "live_view", spy)
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _open(pilot, run_id)
        gate = threading.Event()
        spy.gate = gate
        progress = screen.query_one("#progress", Static)
        try:
            screen._redraw()
            await wait_for(pilot, spy.waiting.is_set)
            progress.update("")
            assert "figures being made" in screen.pending
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            assert str(progress.render()) == ""  # not drawn on the UI thread meanwhile
        finally:
            gate.set()
        await wait_for(pilot, lambda: screen.settled and screen._last_key is not None)
        assert "iteration 2 of 2" in str(progress.render())
    assert spy.threads and threading.main_thread() not in spy.threads


async def test_live_figures_made_after_the_screen_closed_are_dropped(
    stored: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Figures that come after their screen closed are not applied to it, and no error."""
    import threading

    from tui_support import Spy

    from kglens_tui.tui.screens import live
    from kglens_tui.tui.screens.home import HomeScreen

    db, run_id = stored
    spy = Spy(live.live_view)
    monkeypatch.setattr(live, "live_view", spy)
    applied: list[object] = []
    monkeypatch.setattr(LiveScreen, "_apply_view", lambda self, view: applied.append(view))
    app = make_default_app(db, ui_refresh_hz=20)
    async with app.run_test(size=LARGE) as pilot:
        app.open_run(run_id)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveScreen), 60)
        screen = app.screen
        await wait_for(pilot, lambda: screen.snapshot() is not None, 60)
        gate = threading.Event()
        spy.gate = gate
        try:
            screen._redraw()
            await wait_for(pilot, spy.waiting.is_set)
            applied.clear()
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        finally:
            gate.set()
        # a closed screen's worker is cancelled at once; its thread ends once the gate opens
        await wait_for(pilot, lambda: spy.done >= 1, 60)
        await wait_for(pilot, lambda: not any(w.node is screen for w in app.workers), 60)
        assert applied == []
        assert not any(n.severity == "error" for n in notices_of(app))
