"""A numpy PCG64 generator's scalar draws made in Python: `random()` and `integers(high)` give
the values numpy's `Generator` gives, in the same order, several times faster one at a time.

NumPy's scalar calls cost about 0.4 µs (`random()`) and 1.3 µs (`integers(n)`) of argument
handling each; a question draws three or four, so the question factory draws them here from
blocks of the bit generator's raw output, by numpy's own rules: a double is the top 53 bits of
a 64-bit output, a bounded integer below 2**32 is Lemire's method on 32-bit halves (numpy keeps
the unused upper half of a 64-bit output for the next one), above that on whole outputs.
"""

from __future__ import annotations

import numpy as np

BLOCK = 256
"""Raw 64-bit outputs taken from the bit generator at a time."""
_MASK32 = 0xFFFFFFFF
_MASK64 = 0xFFFFFFFFFFFFFFFF
_DOUBLE = 1.0 / 9007199254740992.0


class ScalarDraws:
    """The scalar draws of ``rng`` from its current state on. It takes the bit generator's
    output ahead in blocks (up to `BLOCK`) and keeps its half-word itself: draw from this object
    only, never from ``rng`` itself, after (its state is ahead and its half-word stale)."""

    __slots__ = ("_at", "_bits", "_has_upper", "_raw", "_upper")

    def __init__(self, rng: np.random.Generator) -> None:
        bits = rng.bit_generator
        if not isinstance(bits, np.random.PCG64):
            raise TypeError(f"ScalarDraws follows PCG64's rules, not {type(bits).__name__}'s")
        state = bits.state
        self._bits = bits
        self._has_upper = bool(state["has_uint32"])
        self._upper = int(state["uinteger"])
        self._raw: list[int] = []
        self._at = 0

    def _next64(self) -> int:
        if self._at == len(self._raw):
            self._raw = self._bits.random_raw(BLOCK).tolist()
            self._at = 0
        value: int = self._raw[self._at]
        self._at += 1
        return value

    def _next32(self) -> int:
        if self._has_upper:
            self._has_upper = False
            return self._upper
        value = self._next64()
        self._has_upper = True
        self._upper = value >> 32
        return value & _MASK32

    def random(self) -> float:
        """`Generator.random()`: a float in [0, 1)."""
        return (self._next64() >> 11) * _DOUBLE

    def integers(self, high: int) -> int:
        """`Generator.integers(high)`: an integer in [0, high); high = 1 draws nothing."""
        high = int(high)  # a numpy integer would overflow in the products below
        if high < 1:
            raise ValueError(f"high <= 0 (got {high})")
        span = high - 1
        if span == 0:
            return 0
        if span <= _MASK32:
            if span == _MASK32:
                return self._next32()
            product = self._next32() * high
            if (product & _MASK32) < high:
                threshold = (_MASK32 - span) % high
                while (product & _MASK32) < threshold:
                    product = self._next32() * high
            return product >> 32
        if span == _MASK64:
            return self._next64()
        product = self._next64() * high
        if (product & _MASK64) < high:
            threshold = (_MASK64 - span) % high
            while (product & _MASK64) < threshold:
                product = self._next64() * high
        return product >> 64
