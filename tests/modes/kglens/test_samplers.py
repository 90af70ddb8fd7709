from __future__ import annotations

import numpy as np
import pytest

from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.samplers import Sampler, sample_batch


@pytest.mark.parametrize("sampler", list(Sampler))
def test_batches_are_distinct_and_respect_exclusions(sampler: Sampler) -> None:
    state = PKGState.prior(100)
    rng = np.random.default_rng(0)
    exclude = np.arange(10)
    batch = sample_batch(sampler, state, 20, rng, iteration=1, seed=0, exclude=exclude)
    assert len(batch) == 20
    assert len(set(batch.tolist())) == 20
    assert not set(batch.tolist()) & set(exclude.tolist())


def test_thompson_prefers_edges_that_failed() -> None:
    state = PKGState.prior(200)
    state.alpha[:20] = 300.0  # edges 0..19 failed a lot
    rng = np.random.default_rng(1)
    batch = sample_batch(Sampler.THOMPSON, state, 20, rng, iteration=1, seed=0)
    assert len(set(batch.tolist()) & set(range(20))) >= 18


def test_epsilon_greedy_explores_and_exploits() -> None:
    state = PKGState.prior(1000)
    state.alpha[:50] = 10.0
    rng = np.random.default_rng(2)
    batch = sample_batch(Sampler.EPSILON_GREEDY, state, 50, rng, 1, 0, epsilon=0.1)
    greedy = len(set(batch.tolist()) & set(range(50)))
    assert 30 <= greedy < 50


def test_brute_force_covers_every_edge_once_per_epoch() -> None:
    state = PKGState.prior(50)
    rng = np.random.default_rng(0)
    seen = np.concatenate(
        [sample_batch(Sampler.BRUTE_FORCE, state, 10, rng, it, seed=3) for it in range(1, 6)]
    )
    assert sorted(seen.tolist()) == list(range(50))
    second = np.concatenate(
        [sample_batch(Sampler.BRUTE_FORCE, state, 10, rng, it, seed=3) for it in range(6, 11)]
    )
    assert sorted(second.tolist()) == list(range(50))
    assert seen.tolist() != second.tolist()  # a fresh order each epoch


def test_small_pool_returns_what_there_is() -> None:
    state = PKGState.prior(5)
    batch = sample_batch(Sampler.THOMPSON, state, 64, np.random.default_rng(0), 1, 0)
    assert sorted(batch.tolist()) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("shape", ["distinct", "few values", "mostly tied", "all tied", "tied top"])
def test_the_kth_largest_pair_is_a_full_partitions(shape: str) -> None:
    """The top-k sampler's cut comes from a threshold guessed on a sample; it must equal what a
    partition of every value gives, ties (edges at one prior) and the fallback included."""
    from kglens_tui.modes.kglens.samplers import _kth_largest_two

    rng = np.random.default_rng(7)
    for trial in range(40):
        n = int(rng.integers(2, 3_000))
        if shape == "distinct":
            values = rng.random(n)
        elif shape == "few values":
            values = rng.choice(rng.random(5), n)
        elif shape == "mostly tied":
            values = np.full(n, 0.3)
            values[rng.choice(n, max(1, n // 50), replace=False)] = rng.random(max(1, n // 50))
        elif shape == "all tied":
            values = np.full(n, 0.25)
        else:  # the largest values tie, so the guessed threshold sits on them
            values = rng.random(n) * 0.5
            values[rng.choice(n, max(2, n // 3), replace=False)] = 0.9
        for k in {1, min(n - 1, 100), n - 1, int(rng.integers(1, n))}:
            ordered = np.sort(values)
            want = (float(ordered[n - k]), float(ordered[n - k - 1]))
            assert _kth_largest_two(values, k) == want, (shape, trial, n, k)
