"""Read the efficiency study's curves back from the CSV `kglens bench sampling --csv` writes
(one row per truth, method, seed and point), as the seed mean and min-max spread per method."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kglens_tui.bench.sampling_report import CurveData
from kglens_tui.core.errors import KGLensError

KEYS = ("truth", "method", "seed", "requests", "epochs")


class CurvesFileError(KGLensError, ValueError):
    """A curves CSV that cannot be read: one line naming the file, line and field."""


@dataclass(frozen=True)
class StudyCurves:
    """Every curve of a study file: truth -> metric -> one CurveData per method (file order)."""

    path: Path
    metrics: tuple[str, ...]
    curves: dict[str, dict[str, list[CurveData]]]

    @property
    def truths(self) -> tuple[str, ...]:
        return tuple(self.curves)


def _number(text: str, path: Path, line: int, field: str, integer: bool = False) -> float:
    try:
        value = int(text) if integer else (float(text) if text else math.nan)
    except ValueError:
        raise CurvesFileError(f"{path}:{line}: {field}: not a number: {text!r}") from None
    return value


def read_curves(path: Path) -> StudyCurves:
    """Load a curves CSV; a missing column or a bad number stops with one line."""
    try:
        fh = path.open(encoding="utf-8", newline="")
    except OSError as exc:
        raise CurvesFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    points: dict[tuple[str, str], dict[int, dict[int, list[float]]]] = {}
    with fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None or tuple(header[: len(KEYS)]) != KEYS or len(header) == len(KEYS):
            raise CurvesFileError(
                f"{path}:1: header: expected {', '.join(KEYS)}, then metrics "
                "(the file `kglens bench sampling --csv` writes)"
            )
        metrics = tuple(header[len(KEYS) :])
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise CurvesFileError(
                    f"{path}:{line}: row: {len(row)} fields, the header has {len(header)}"
                )
            truth, method = row[0], row[1]
            seed = int(_number(row[2], path, line, "seed", integer=True))
            requests = int(_number(row[3], path, line, "requests", integer=True))
            values = [
                _number(text, path, line, name)
                for name, text in zip(metrics, row[len(KEYS) :], strict=True)
            ]
            points.setdefault((truth, method), {}).setdefault(seed, {})[requests] = values
    if not points:
        raise CurvesFileError(f"{path}:2: row: no curve in the file")
    curves: dict[str, dict[str, list[CurveData]]] = {}
    for (truth, method), seeds in points.items():
        xs = sorted({r for by_req in seeds.values() for r in by_req})
        grid = np.full((len(seeds), len(xs), len(metrics)), np.nan)
        for s, by_req in enumerate(seeds.values()):
            for i, r in enumerate(xs):
                if r in by_req:
                    grid[s, i] = by_req[r]
        for m, metric in enumerate(metrics):
            per_seed = grid[:, :, m]
            seen = np.isfinite(per_seed).any(axis=0)
            mean, low, high = (np.full(len(xs), np.nan) for _ in range(3))
            if seen.any():
                mean[seen] = np.nanmean(per_seed[:, seen], axis=0)
                low[seen] = np.nanmin(per_seed[:, seen], axis=0)
                high[seen] = np.nanmax(per_seed[:, seen], axis=0)
            curves.setdefault(truth, {}).setdefault(metric, []).append(
                CurveData(method, np.array(xs), mean, low, high)
            )
    # a metric no method has a value of (k larger than the graph) is left out
    shown = tuple(
        m
        for m in metrics
        if any(np.isfinite(c.mean).any() for by_metric in curves.values() for c in by_metric[m])
    )
    if not shown:
        raise CurvesFileError(f"{path}:2: row: no metric has a value")
    return StudyCurves(
        path, shown, {t: {m: by_metric[m] for m in shown} for t, by_metric in curves.items()}
    )
