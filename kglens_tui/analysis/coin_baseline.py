"""What a blind-guessing target scores under a run's own sampler: the honest chance level.

The random-guess column of `bias.py` assumes every ask is independent of the last. The sampler is
not: it asks again the edges that failed, so a coin that happened to fail an edge gets more
chances at it, and a coin beats that column by a few points. This module replays the run's
sampler, batch size, propagation and number of answered questions with a simulated target that
answers each Yes/No question right with probability 1/2 and each Wh question with its
predicate's most common true object (`answers.bias.constant_answers`), over
`replicas` seeds, and reports the mean and the range (lowest to highest) of each rate: a further
coin run falls in the range of 40 replays with probability 39/41, so it is a 95% prediction
interval for one run (the 2.5-97.5% quantiles of 40 replays hold one only 9 times in 10).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np

from kglens_tui.kg.graph import Neighbourhood, load_kg
from kglens_tui.modes.kglens.chance import guess_failure
from kglens_tui.modes.kglens.config import PropagationMode, RunConfig
from kglens_tui.modes.kglens.design import RollingFloor, designed_sample
from kglens_tui.modes.kglens.learned import LearnedPropagation
from kglens_tui.modes.kglens.pkg import PKGState, apply_outcomes, rates
from kglens_tui.modes.kglens.runstore import load_kglens_run

REPLICAS = 40
"""Replays of the coin target; the range of the rates over them is shown."""
RATE_NAMES = ("win", "zero_sense", "all_sense")


@dataclass(frozen=True)
class CoinRate:
    """One rate of the coin target: mean over replicas and their range (a 95% prediction
    interval for one coin run with 40 replicas)."""

    mean: float
    low: float
    high: float

    def text(self) -> str:
        return f"{self.mean * 100:.1f}% [{self.low * 100:.1f}–{self.high * 100:.1f}]"


@dataclass(frozen=True)
class CoinBaseline:
    """The coin target's rates after as many answered questions as the run had."""

    answered: int
    replicas: int
    rates: dict[str, CoinRate]


def replay(
    config: RunConfig,
    fail: np.ndarray,
    neighbourhood: Neighbourhood | None,
    answered: int,
    replica: int,
    learned: LearnedPropagation | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One coin target under the run's sampler: (m, n) after `answered` answers. `learned`:
    the run's learned propagation (refitted as the engine does)."""
    state = PKGState.prior(len(fail))
    rng = np.random.default_rng([config.seed, 4099, replica])
    coin = np.random.default_rng([config.seed, 8191, replica])
    scale = None
    if neighbourhood is not None and config.propagation_mode == PropagationMode.DEGREE:
        scale = 1.0 / np.maximum(neighbourhood.neighbour_counts(), 1.0)
    census = RollingFloor(len(fail), config.seed, gap=config.batch_size)
    spent, iteration = 0, 0
    while spent < answered:
        iteration += 1
        k = min(config.batch_size, answered - spent)
        # the full batch, cut: brute force's round-robin position assumes a constant size
        batch = designed_sample(
            config.sampler,
            state,
            config.batch_size,
            rng,
            iteration,
            config.seed,
            config.design_floor,
            census,
            epsilon=config.epsilon,
            top_k=config.blind_spots,
        )[0][:k]
        failed = coin.random(len(batch)) < fail[batch]
        apply_outcomes(
            state, batch, failed, ~failed, neighbourhood, config.propagation_weight, scale
        )
        if learned is not None:
            learned.after_iteration(state, iteration)
        spent += len(batch)
    return state.m, state.n


def answered_count(conn: sqlite3.Connection, run_id: int) -> int:
    """The run's stored answers (its failed requests left out)."""
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM observation WHERE run_id = ? AND category != 'error'", (run_id,)
        ).fetchone()[0]
    )


def coin_baseline(
    conn: sqlite3.Connection, run_id: int, replicas: int = REPLICAS
) -> CoinBaseline | None:
    """The coin target's rates under run `run_id`'s settings; None before any answer."""
    run = load_kglens_run(conn, run_id)
    answered = answered_count(conn, run.id)
    if not answered:
        return None
    kg = load_kg(conn, run.kg_name)
    positions = np.array([kg.edge_position(int(e)) for e in run.edge_ids], dtype=np.int64)
    config = run.config
    is_learned = config.propagation and config.propagation_mode == PropagationMode.LEARNED
    nbh = (
        Neighbourhood(kg.s[positions], kg.o[positions], len(kg.entity_keys))
        if config.propagation and not is_learned
        else None
    )
    learned = (
        LearnedPropagation(kg.p[positions], kg.s[positions], kg.o[positions])
        if is_learned
        else None
    )
    fail = guess_failure(kg, positions, config)
    values: dict[str, list[float]] = {name: [] for name in RATE_NAMES}
    for replica in range(replicas):
        r = rates(*replay(config, fail, nbh, answered, replica, learned))
        for name in RATE_NAMES:
            values[name].append(getattr(r, name) or 0.0)
    return CoinBaseline(
        answered,
        replicas,
        {
            name: CoinRate(float(np.mean(v)), float(np.min(v)), float(np.max(v)))
            for name, v in values.items()
        },
    )
