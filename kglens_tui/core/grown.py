"""An array appended to in place: a run's terms kept as it commits them, read after every
commit without making an array of a list that grows with the run."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


class Grown:
    """Rows (scalars, or rows of ``width`` values) appended in place, capacity doubling, read as
    a view of the rows so far."""

    def __init__(self, dtype: type[np.generic] = np.float64, width: int | None = None) -> None:
        self._shape: tuple[int, ...] = () if width is None else (width,)
        self._data: npt.NDArray[Any] = np.empty((64, *self._shape), dtype=dtype)
        self.size = 0

    def extend(self, rows: npt.ArrayLike) -> None:
        """Append ``rows`` (a sequence of scalars, or of rows of ``width`` values)."""
        rows = np.asarray(rows, dtype=self._data.dtype).reshape((-1, *self._shape))
        end = self.size + len(rows)
        if end > len(self._data):
            grown = np.empty((max(end, 2 * len(self._data)), *self._shape), self._data.dtype)
            grown[: self.size] = self._data[: self.size]
            self._data = grown
        self._data[self.size : end] = rows
        self.size = end

    def append(self, row: npt.ArrayLike) -> None:
        """Append one scalar or one row."""
        self.extend(np.asarray(row, dtype=self._data.dtype)[np.newaxis])

    @property
    def values(self) -> npt.NDArray[Any]:
        """The rows so far (a view: valid until the next append)."""
        return self._data[: self.size]
