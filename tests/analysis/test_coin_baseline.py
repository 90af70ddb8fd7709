"""The chance level is what a coin-flipping target scores under the run's own sampler: a real
coin target lands inside it, while it beats the independent-asks column."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from kglens_tui.analysis.coin_baseline import RATE_NAMES, coin_baseline
from kglens_tui.answers.bias import constant_answers, constant_right, run_trust
from kglens_tui.cli.main import main
from kglens_tui.kg.bundled import ensure_kg
from kglens_tui.kg.graph import load_kg
from kglens_tui.llm.base import ChatRequest, Completion
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.store.connection import connect


@lru_cache(maxsize=1)
def constant_labels() -> dict[str, str]:
    """The bundled country KG's constant Wh answer (label) by predicate key."""
    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    conn.close()
    return {kg.pred_keys[p]: kg.labels[o] for p, o in constant_answers(kg).items()}


class CoinTarget:
    """Says Yes or No at random and answers every Wh question of a predicate with its most
    common true object: the blind guesser the chance band replays."""

    label = "coin"
    simulated = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    async def complete(self, request: ChatRequest) -> Completion:
        wh = request.meta is not None and request.meta.qtype == "wh"
        if wh:
            assert request.meta is not None
            text = constant_labels().get(request.meta.predicate, "I don't know.") + "."
        else:
            text = self.rng.choice(("Yes.", "No."))
        return Completion(text, 10, 2, 0.0)

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_coin_targets_land_inside_the_chance_band(tmp_path: Path, difficulty: str) -> None:
    """Six coin runs (propagation on and off): on average within 3.5 points of the replays'
    mean, and mostly inside their range (a 95% prediction interval for one run: measured over 440
    coin runs, the replays' spread matches the runs')."""
    inside, checks, gaps = 0, 0, {name: [] for name in RATE_NAMES}
    for seed in range(1, 7):
        conn = connect(tmp_path / f"w{seed}.db")
        config = RunConfig(
            kg="country",
            subset="paper16",
            target="sim",
            difficulty=difficulty,
            iterations=25,
            batch_size=16,
            seed=seed,
            sampler="thompson",
            propagation=seed % 2 == 0,
            propagation_mode="sum",
            stop_on_convergence=False,
        )
        snap = run_blocking(prepare(conn, config=config, target=CoinTarget(seed)))
        coin = coin_baseline(conn, 1, replicas=60)
        assert coin is not None and coin.answered == snap.replies_total
        for name in RATE_NAMES:
            actual, band = getattr(snap.rates, name), coin.rates[name]
            inside += band.low <= actual <= band.high
            checks += 1
            gaps[name].append(actual - band.mean)
        conn.close()
    assert inside >= 0.7 * checks, (inside, checks)
    for name, values in gaps.items():
        assert abs(sum(values) / len(values)) < 0.035, (name, values)


def test_the_sampler_moves_chance_away_from_independent_asks(tmp_path: Path) -> None:
    """Re-asking what a coin failed changes what the coin scores: the independent-asks column
    the report showed alone before is not the chance level of this run."""
    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim",
        iterations=25,
        batch_size=16,
        seed=3,
        sampler="thompson",
        propagation_mode="sum",
        stop_on_convergence=False,
        design_floor=0.05,
    )
    run_blocking(prepare(conn, config=config, target=CoinTarget(3)))
    coin = coin_baseline(conn, 1)
    independent = run_trust(conn, 1).baseline
    assert coin is not None
    assert abs(coin.rates["all_sense"].mean - independent.all_sense) > 0.01
    conn.close()


def test_report_shows_the_chance_band(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "w.db"
    args = ["--db", str(db), "probe", "--no-tui", "--kg", "country", "--subset", "paper16"]
    args += ["--sampler", "thompson", "--propagation-mode", "sum"]
    assert main([*args, "--target", "sim", "--iterations", "3", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "chance under this" in out and "range of 40 replays" in out


def test_the_default_sampler_and_learned_propagation_are_replayed(tmp_path: Path) -> None:
    """Coin runs under the default top-k sampler with learned propagation land in their band."""
    inside, checks, gaps = 0, 0, []
    for seed in range(1, 7):  # 18 checks: the range of 30 replays holds one run 29 times in 31
        conn = connect(tmp_path / f"w{seed}.db")
        config = RunConfig(
            kg="country",
            subset="paper16",
            target="sim",
            iterations=12,
            batch_size=16,
            seed=seed,
            stop_on_convergence=False,
        )
        assert (config.sampler, config.propagation_mode) == ("top-k", "learned")
        snap = run_blocking(prepare(conn, config=config, target=CoinTarget(seed)))
        coin = coin_baseline(conn, 1, replicas=30)
        assert coin is not None and coin.answered == snap.replies_total
        for name in RATE_NAMES:
            actual, band = getattr(snap.rates, name), coin.rates[name]
            inside += band.low <= actual <= band.high
            checks += 1
            gaps.append(actual - band.mean)
        conn.close()
    assert inside >= 0.7 * checks, (inside, checks)
    assert abs(sum(gaps) / len(gaps)) < 0.05, gaps


def test_open_questions_are_answered_with_the_predicates_constant() -> None:
    """A Wh question fails only where the predicate's most common true object is false of the
    subject: every member of an organisation is in the United Nations, some drive on the left."""
    from kglens_tui.modes.kglens.chance import guess_failure

    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    member = np.flatnonzero(kg.p == kg.pred_keys.index("member_of"))
    member = member[[kg.out_degree(int(kg.s[e]), int(kg.p[e])) < 10 for e in member]]
    wh = RunConfig(difficulty="wh")
    assert member.size and guess_failure(kg, member, wh).tolist() == [0.0] * len(member)
    hard = guess_failure(kg, member, RunConfig(difficulty="hard"))
    assert hard.tolist() == [0.25] * len(member)
    side = np.flatnonzero(kg.p == kg.pred_keys.index("driving_side"))
    fails = guess_failure(kg, side, wh)
    assert fails.tolist() == (~constant_right(kg, side)).astype(float).tolist()
    assert 0.2 < fails.mean() < 0.35  # left-hand traffic: about 28% of countries
    assert guess_failure(kg, side, RunConfig(difficulty="easy")).tolist() == [0.5] * len(side)


def _wait(job, tries: int = 2400) -> None:
    import time

    for _ in range(tries):
        if job.poll():
            return
        time.sleep(0.05)
    raise AssertionError("the replay process gave nothing")


def test_a_replay_in_a_child_process_gives_the_same_band_or_one_line(tmp_path: Path) -> None:
    from kglens_tui.analysis.coin_replay import CoinReplay

    db = tmp_path / "w.db"
    conn = connect(db)
    config = RunConfig(kg="country", subset="paper16", target="sim", iterations=3, batch_size=8)
    run_blocking(prepare(conn, config=config, target=CoinTarget(1)))
    expected = coin_baseline(conn, 1)
    conn.close()
    job = CoinReplay(db, 1)
    _wait(job)
    assert job.band == expected and job.error == ""
    missing = CoinReplay(db, 99)
    _wait(missing)
    assert missing.band is None
    assert missing.error.startswith("RunNotFoundError: no run 99 in this workspace (see `kglens")
    assert missing.error.endswith(" runs`)")  # with the --db the user named, if any
    slow = CoinReplay(db, 1)
    slow.terminate()
    assert slow.poll() and slow.band is None


def test_a_band_replayed_once_is_kept_under_what_determines_it(tmp_path: Path) -> None:
    """The same run opened again (here a copy of its workspace) takes the kept band, which is
    what a fresh replay gives; a run with another count of answers is replayed anew."""
    import shutil

    from kglens_tui.analysis.coin_replay import CoinReplay

    db = tmp_path / "w.db"
    conn = connect(db)
    config = RunConfig(
        kg="country", subset="paper16", target="sim", iterations=2, batch_size=8, seed=913
    )
    run_blocking(prepare(conn, config=config, target=CoinTarget(1)))
    conn.close()
    first = CoinReplay(db, 1)
    _wait(first)
    copy = shutil.copy(db, tmp_path / "copy.db")
    again = CoinReplay(copy, 1)
    _wait(again)
    conn = connect(copy)
    fresh = coin_baseline(conn, 1)
    assert fresh is not None and again.kept and again.band == fresh == first.band
    conn.execute(
        "DELETE FROM observation WHERE id = (SELECT MAX(id) FROM observation WHERE run_id = 1)"
    )
    conn.commit()
    fewer = coin_baseline(conn, 1)
    conn.close()
    other = CoinReplay(copy, 1)
    _wait(other)
    assert fewer is not None and fewer.answered == fresh.answered - 1
    assert not other.kept and other.band == fewer
