"""Engine internals that keep a run cheap: live insights only when watched, one draw per
posterior in continuous dispatch, and commits that never hold requests back."""

from __future__ import annotations

import asyncio
import sqlite3

import numpy as np
import pytest

from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.engine import ProbeEngine
from kglens_tui.modes.kglens.schedules import DrawCache
from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking


def _engine(conn: sqlite3.Connection, **overrides: object) -> ProbeEngine:
    options: dict = {
        "kg": "country",
        "target": "sim",
        "batch_size": 16,
        "iterations": 3,
        "stop_on_convergence": False,
    }
    options.update(overrides)
    return prepare(conn, config=RunConfig(**options))


def test_insights_are_computed_on_snapshot_once_per_iteration(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = _engine(conn)
    calls: list[int] = []
    original = engine._blind_spots

    def counted(*args: object, **kwargs: object):
        calls.append(engine.stats.iteration)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "_blind_spots", counted)
    run_blocking(engine)
    # run_to_end takes one final snapshot: the only computation in a run nobody watched
    assert calls == [3]
    snap = engine.snapshot()
    assert calls == [3], "a second snapshot of the same iteration reuses the insights"
    assert snap.blind_spots and snap.baseline is not None
    worst = snap.blind_spots[0]
    assert worst.m + worst.n > 0


def test_iteration_callbacks_get_progress_without_computing_insights(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = []
    config = RunConfig(
        kg="country", target="sim", batch_size=16, iterations=3, stop_on_convergence=False
    )
    engine = prepare(conn, config=config, on_progress=seen.append)
    calls: list[int] = []
    original = engine._blind_spots

    def counted():
        calls.append(engine.stats.iteration)
        return original()

    monkeypatch.setattr(engine, "_blind_spots", counted)
    final = run_blocking(engine)
    assert [s.iteration for s in seen] == [1, 2, 3]
    assert [s.progress.counters.requests for s in seen] == [16, 32, 48]
    assert all(s.insights_iteration is None and s.baseline is None for s in seen)
    assert calls == [3], "only the final snapshot computes insights"
    assert final.insights_iteration == 3 and final.baseline is not None


def test_snapshot_without_insights_keeps_the_last_ones(conn: sqlite3.Connection) -> None:
    engine = _engine(conn, iterations=2)
    run_blocking(engine)
    first = engine.snapshot()
    engine.stats.iteration += 1  # as if another iteration were committed
    stale = engine.snapshot(insights=False)
    assert stale.insights_iteration == 2 and stale.iteration == 3
    assert stale.blind_spots == first.blind_spots
    assert engine.snapshot().insights_iteration == 3


def test_snapshot_carries_a_bounded_history(conn: sqlite3.Connection) -> None:
    from kglens_tui.modes.kglens.engine import SNAPSHOT_HISTORY

    engine = _engine(conn, iterations=SNAPSHOT_HISTORY + 5, batch_size=4)
    snap = run_blocking(engine)
    assert len(engine.stats.history) == SNAPSHOT_HISTORY + 5
    assert snap.history == tuple(engine.stats.history[-SNAPSHOT_HISTORY:])
    assert snap.rates == engine.stats.history[-1]


def test_blind_spots_are_the_stable_top_k_with_ties(conn: sqlite3.Connection) -> None:
    from kglens_tui.modes.kglens.learned import ErrorModel

    engine = _engine(conn)
    state = engine.state
    rng = np.random.default_rng(3)
    size = len(state.m)
    state.m[:] = rng.integers(0, 3, size)
    state.n[:] = rng.integers(0, 3, size)  # many edges share a posterior: ties everywhere
    examined = np.flatnonzero((state.m + state.n) > 0)
    assert engine.learned is not None  # the posterior is the learned one: the panel ranks by it
    engine.learned.refit(state)
    kg, pos = engine.kg, engine.positions
    model = ErrorModel(kg.p[pos], kg.s[pos], kg.o[pos])
    fit = model.fit(state.m, state.n)
    _, prior_a, prior_b = model.prior(fit, state.m, state.n)
    assert np.array_equal(state.alpha, prior_a + state.n)
    mean = (state.alpha / (state.alpha + state.beta))[examined]
    pos_of = {int(e): i for i, e in enumerate(engine.run.edge_ids)}
    for k in (1, 5, 12, len(examined), len(examined) + 3):
        want = examined[np.argsort(-mean, kind="stable")[:k]]
        spots, learned = engine._blind_spots(k)
        assert [pos_of[b.edge_id] for b in spots] == want.tolist(), k
        assert learned is not None and learned.answers == int((state.m + state.n).sum())


def test_draw_cache_hands_out_one_draw_without_busy_edges(conn: sqlite3.Connection) -> None:
    engine = _engine(conn, batch_size=64)
    draws = DrawCache(engine)
    sampled: list[int] = []
    original = engine.sample

    def counted(*args: object, **kwargs: object) -> np.ndarray:
        sampled.append(1)
        return original(*args, **kwargs)

    engine.sample = counted  # type: ignore[method-assign]
    busy = np.array([0, 1, 2, 3], dtype=np.int64)
    first = draws.take(1, 8, busy, slot=0)
    taken = list(first)
    while len(taken) < 60:
        more = draws.take(1, 4, np.array(taken, dtype=np.int64), slot=len(taken))
        assert len(more) == 4
        taken += list(more)
    assert len(sampled) == 1, "one Thompson draw serves the whole iteration"
    visits = sum(1 for it, _slot in engine._floor_slots if it == 1)
    assert 0.6 * 60 < visits < 0.9 * 60, "about the design's floor share is the census's"
    assert engine.floor is not None and engine.floor.offset == visits
    visited = set(engine.floor.order(0)[:visits].tolist())
    picks = [pos for pos in taken if pos not in visited]
    assert len(set(picks)) == len(picks), "no edge is picked twice"
    assert not set(picks) & {0, 1, 2, 3}, "busy edges are never picked"
    first_picks = [pos for pos in first if pos not in visited]
    best = original(1, 64, np.array(sorted({0, 1, 2, 3} | visited)), 0, with_floor=False)
    assert first_picks == list(best[: len(first_picks)]), "the draw's best edges go first"


def test_draw_cache_puts_failed_edges_first_and_redraws_after_a_commit(
    conn: sqlite3.Connection,
) -> None:
    engine = _engine(conn, batch_size=64)
    draws = DrawCache(engine)
    draws.take(2, 4, np.empty(0, dtype=np.int64), slot=0)
    engine.state.err[[7, 9]] = 1  # their last request failed: they are retried first
    engine.stats.iteration = 1  # a commit: new posterior, new draw
    picked = draws.take(2, 5, np.array([9], dtype=np.int64), slot=4)
    assert list(picked[:1]) == [7], "a failed edge goes first unless it is in flight"
    assert 9 not in picked and len(set(picked.tolist())) == 5
    assert draws.key == (2, 1)


def test_continuous_commit_waits_until_new_requests_are_out(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    engine = _engine(conn, scheduling="continuous", concurrency=4, batch_size=8, iterations=3)
    ask, finish = engine.ask, engine.finish_iteration

    async def traced_ask(question):
        events.append(f"ask {question.iteration}")
        return await ask(question)

    def traced_finish(iteration, outcomes, seconds):
        events.append(f"commit {iteration}")
        return finish(iteration, outcomes, seconds)

    monkeypatch.setattr(engine, "ask", traced_ask)
    monkeypatch.setattr(engine, "finish_iteration", traced_finish)
    snap = run_blocking(engine)
    assert snap.progress.counters.requests == 24
    first_commit = events.index("commit 1")
    assert "ask 2" in events[:first_commit], "iteration 2 went out before iteration 1 committed"
    assert [e for e in events if e.startswith("commit")] == ["commit 1", "commit 2", "commit 3"]


def test_live_yes_no_counts_equal_those_rebuilt_from_stored_replies(
    conn: sqlite3.Connection,
) -> None:
    engine = _engine(conn, iterations=4)
    live = run_blocking(engine)
    stored = open_snapshot(conn, engine.run.id)
    assert live.yes_no == stored.yes_no
    refused = live.counts.get("refused", 0) + live.counts.get("unparseable", 0)
    assert (
        sum(live.yes_no.values()) + refused
        == live.progress.counters.requests - live.progress.counters.errors
    )


def test_an_instant_target_still_lets_the_event_loop_serve_a_stop(
    conn: sqlite3.Connection,
) -> None:
    """The zero-latency simulator never waits, so the engine itself must yield each iteration:
    otherwise snapshots, pause and stop requests (the TUI's) would starve until the run ends."""
    engine = _engine(conn, iterations=3000, batch_size=4)

    async def go():
        async def stop_soon() -> None:
            await asyncio.sleep(0.05)
            engine.request_stop()

        stopper = asyncio.ensure_future(stop_soon())
        snap = await engine.run_to_end()
        await stopper
        return snap

    snap = asyncio.run(go())
    assert snap.stop_reason == "stopped by user"
    assert 0 < snap.iteration < 3000


def test_a_resumed_run_counts_its_rate_over_this_session_only(conn: sqlite3.Connection) -> None:
    """After a resume the stored requests were sent in another session: the rate counts only
    the requests and the seconds of this one (it read twice the real rate before)."""
    config = RunConfig(
        kg="country", target="sim", batch_size=16, iterations=4, stop_on_convergence=False
    )
    first = prepare(conn, config=config, on_progress=lambda _snap: first.request_stop())
    stored = run_blocking(first)
    assert (
        stored.iteration == 1 and stored.session_requests == stored.progress.counters.requests > 0
    )
    resumed = prepare(conn, resume=stored.run_id)
    before = resumed.snapshot()
    assert (before.progress.counters.requests, before.session_requests, before.requests_per_s) == (
        stored.progress.counters.requests,
        0,
        0.0,
    )
    snap = run_blocking(resumed)
    assert snap.iteration == 4
    assert (
        snap.session_requests
        == snap.progress.counters.requests - stored.progress.counters.requests
        > 0
    )
    assert snap.requests_per_s == snap.session_requests / snap.session_elapsed_s


def test_snapshots_flag_a_target_loading_its_model(conn: sqlite3.Connection) -> None:
    engine = _engine(conn, iterations=1)
    seen = []

    async def aload() -> None:
        seen.append(engine.snapshot(insights=False))
        await asyncio.sleep(0)

    engine.target.aload = aload
    snap = run_blocking(engine)
    assert seen[0].loading and seen[0].progress.counters.requests == 0
    assert not snap.loading and snap.progress.counters.requests > 0


def test_brute_force_refuses_continuous_scheduling(tmp_path, capsys) -> None:
    """Continuous scheduling re-asks edges inside an epoch (3-7 asks after 4 epochs), which
    breaks brute force's one ask per edge per epoch: the combination is refused clearly."""
    from kglens_tui.cli.main import main
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.config import ConfigError

    config = RunConfig(kg="country", target="sim", sampler="brute-force", scheduling="continuous")
    with pytest.raises(ConfigError, match="use --scheduling sync with brute force"):
        config.validate()
    args = ["--db", str(tmp_path / "w.db"), "probe", "--no-tui", "--target", "sim"]
    args += ["--sampler", "brute-force", "--scheduling", "continuous"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --sampler brute-force") and err.count("\n") == 1


def test_a_pause_in_continuous_scheduling_leaves_every_iteration_whole(
    conn: sqlite3.Connection,
) -> None:
    """A pause holds the iteration being handed out open; a resume goes on filling it, so the
    run asks what it would have asked without the pause."""
    engine = _engine(
        conn,
        scheduling="continuous",
        concurrency=4,
        batch_size=8,
        iterations=4,
        sim_latency_s=0.02,
    )

    async def go() -> None:
        task = asyncio.ensure_future(engine.run_to_end())
        for replies in (3, 13):  # in the middle of iterations 1 and 2
            while engine.stats.replies_total < replies:
                await asyncio.sleep(0.005)
            engine.pause()
            while engine.status != "paused":
                await asyncio.sleep(0.005)
            engine.resume()
        await task

    asyncio.run(go())
    sizes = conn.execute(
        "SELECT iteration, COUNT(*) FROM observation WHERE run_id = ? GROUP BY iteration",
        (engine.run.id,),
    ).fetchall()
    assert [tuple(r) for r in sizes] == [(1, 8), (2, 8), (3, 8), (4, 8)]
