"""ScalarDraws gives numpy's own scalar draws: the same floats and integers in the same order as
`Generator.random()` and `Generator.integers(high)`, whatever the mix of calls and bounds (the
question factory's random stream, and so every stored question, rests on it)."""

from __future__ import annotations

import numpy as np
import pytest

from kglens_tui.core.scalar_draws import BLOCK, ScalarDraws

BOUNDS = (1, 2, 3, 7, 10, 64, 1_000, 19_959, 2**31 + 1, 3 * 2**30, 2**32 - 1, 2**32)
"""Small bounds, the questions' (options, candidate pools), and bounds where Lemire's method
rejects often (3 * 2**30: a quarter of the draws) or takes another branch (2**32: a whole
32-bit half; above: whole 64-bit outputs)."""
WIDE = (2**32 + 1, 3 * 2**61, 2**63 - 1)


def _calls(seed: int, count: int) -> list[int | None]:
    """A random mix of calls: None for random(), a bound for integers(bound)."""
    pick = np.random.default_rng(seed)
    bounds = (*BOUNDS, *WIDE)
    return [
        None if pick.random() < 0.4 else bounds[int(pick.integers(len(bounds)))]
        for _ in range(count)
    ]


@pytest.mark.parametrize("seed", [0, 1, 2, 104729])
def test_a_mix_of_calls_gives_numpys_values_in_numpys_order(seed: int) -> None:
    calls = _calls(seed, 3 * BLOCK)  # crosses several blocks of raw outputs
    numpy_rng = np.random.default_rng([seed, 104729, 3])
    ours = ScalarDraws(np.random.default_rng([seed, 104729, 3]))
    for high in calls:
        if high is None:
            want: float | int = numpy_rng.random()
            got: float | int = ours.random()
            assert type(got) is float
        else:
            want = int(numpy_rng.integers(high))
            got = ours.integers(high)
            assert 0 <= got < high
        assert got == want, (high, got, want)


def test_it_takes_over_a_generator_midway_with_a_half_output_kept() -> None:
    """numpy keeps the upper 32 bits of an output after a small integer: a stream started
    there draws that half next, as the generator would."""
    numpy_rng = np.random.default_rng(7)
    started = np.random.default_rng(7)
    for rng in (numpy_rng, started):
        rng.integers(10)
    ours = ScalarDraws(started)
    assert [ours.integers(1_000) for _ in range(5)] == [
        int(numpy_rng.integers(1_000)) for _ in range(5)
    ]


def test_one_value_draws_nothing_and_none_is_refused() -> None:
    numpy_rng = np.random.default_rng(3)
    ours = ScalarDraws(np.random.default_rng(3))
    assert ours.integers(1) == 0 == int(numpy_rng.integers(1))
    assert ours.random() == numpy_rng.random()
    with pytest.raises(ValueError):
        ours.integers(0)


def test_another_bit_generator_is_refused() -> None:
    with pytest.raises(TypeError, match="PCG64"):
        ScalarDraws(np.random.Generator(np.random.MT19937(1)))
