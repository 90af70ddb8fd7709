"""Truth settings of the efficiency study: the simulated truth with a chosen neighbour
correlation and base rate, random blind spots far from 0.5, and the shuffled truth.

A method that only wins where the simulated truth builds its own assumption in (edges sharing a
node fail together) is not a safe default: real models' structure follows predicates and entities
and their blind spots can be rare. Each setting is one line of the study's report.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.special import expit, logit

from kglens_tui.bench.ground_truth import (
    SIM_ALWAYS_FAILED,
    GroundTruth,
    neighbour_correlation,
    neighbour_matrix,
)
from kglens_tui.core.errors import KGLensError

BLIND_RATES = (0.8, 1.0)
"""Random blind spots fail with a rate drawn uniformly from this range ..."""
SEEN_RATES = (0.0, 0.1)
"""... every other edge from this one."""
SUITE_SIM = "as-is,corr=0.4,corr=0,base=0.05,base=0.85,blind=0.02,blind=0.1,shuffled"
"""The settings `kglens bench sampling` reports on a simulated truth."""
SUITE_STORED = "as-is,shuffled"
"""... and on a truth from a stored run or a CSV file."""


class UnreachableSetting(KGLensError, ValueError):
    """The truth cannot take this setting (e.g. more neighbour correlation than it holds)."""


@dataclass(frozen=True)
class TruthSetting:
    """How to deal error rates to a truth's edges. ``corr`` (the correlation of an edge's true
    rate with its neighbours' mean) and ``base`` (the mean true rate) reshape a simulated truth;
    ``blind`` replaces the rates with random blind spots (that share of the edges fails 80-100%
    of the time, the rest 0-10%); ``shuffled`` deals the rates to edges at random."""

    corr: float | None = None
    base: float | None = None
    blind: float | None = None
    shuffled: bool = False

    @property
    def name(self) -> str:
        parts = [
            f"{key}={value:g}"
            for key, value in (("corr", self.corr), ("base", self.base), ("blind", self.blind))
            if value is not None
        ]
        if self.shuffled:
            parts.append("shuffled")
        return "+".join(parts) or "as-is"


def parse_settings(text: str) -> list[TruthSetting]:
    """``as-is,corr=0.4,base=0.1+corr=0,blind=0.1,shuffled``: a comma list of settings, each a
    ``+`` list of ``corr=X``, ``base=X``, ``blind=X`` and ``shuffled`` (or ``as-is``)."""
    settings = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        values: dict[str, float] = {}
        shuffled = False
        for token in (t.strip().lower() for t in item.split("+")):
            if token in ("as-is", "asis"):
                continue
            if token == "shuffled":
                shuffled = True
                continue
            key, sep, raw = token.partition("=")
            if not sep or key not in ("corr", "base", "blind"):
                raise ValueError(
                    f"unknown truth setting {token!r} in {item!r} "
                    "(use as-is, shuffled, corr=X, base=X, blind=X, joined by +)"
                )
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"{key} in {item!r} must be a number (got {raw!r})") from None
            low, high = (-1.0, 1.0) if key == "corr" else (0.0, 1.0)
            if not low <= value <= high or (key != "corr" and value in (0.0, 1.0)):
                raise ValueError(f"{key}={raw} is out of range in {item!r}")
            values[key] = value
        settings.append(TruthSetting(shuffled=shuffled, **values))
    if not settings:
        raise ValueError("--settings names no truth setting")
    return settings


def _solve_intercept(z: np.ndarray, base: float) -> float:
    """The shift a with mean(sigmoid(a + z)) = base (bisection; the mean grows with a)."""
    low, high = -30.0, 30.0
    for _ in range(60):
        mid = (low + high) / 2
        if expit(mid + z).mean() < base:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def reshape_simulated(
    truth: GroundTruth,
    corr: float | None,
    base: float | None,
    seed: int,
    adjacency: sp.csr_matrix | None = None,
) -> np.ndarray:
    """Rates with the simulated truth's structure mixed with edge noise in logit space,
    ``a + s * (sqrt(w) * structure + sqrt(1 - w) * noise)``, the spread s kept, the weight w
    chosen to give the neighbour correlation ``corr`` and the shift a the mean rate ``base``."""
    rates = np.clip(truth.rates, 1e-6, 1 - 1e-6)
    logits = logit(rates)
    spread = float(logits.std()) or 1.0
    structure = (logits - logits.mean()) / spread
    noise = np.random.default_rng([seed, 8647]).standard_normal(truth.n_edges)
    adjacency = neighbour_matrix(truth) if adjacency is None and corr is not None else adjacency

    def make(w: float) -> np.ndarray:
        z = spread * (np.sqrt(w) * structure + np.sqrt(1 - w) * noise)
        shift = float(logits.mean()) if base is None else _solve_intercept(z, base)
        rates: npt.NDArray[np.float64] = expit(shift + z)
        return rates

    if corr is None:
        return make(1.0)
    assert adjacency is not None
    highest = neighbour_correlation(make(1.0), adjacency)
    if corr > highest + 1e-9:
        raise UnreachableSetting(
            f"corr={corr:g} is above what this simulated truth holds ({highest:.2f} at "
            f"{'base ' + format(base, 'g') if base is not None else 'its own base rate'})"
        )
    if corr <= 0:
        return make(0.0)
    low, high = 0.0, 1.0
    for _ in range(30):
        mid = (low + high) / 2
        if neighbour_correlation(make(mid), adjacency) < corr:
            low = mid
        else:
            high = mid
    return make((low + high) / 2)


def random_blind_spots(truth: GroundTruth, share: float, seed: int) -> np.ndarray:
    """``share`` of the edges, picked at random, fail 80-100% of the time; the rest 0-10%."""
    rng = np.random.default_rng([seed, 9781])
    n = truth.n_edges
    rates = rng.uniform(*SEEN_RATES, n)
    blind = rng.choice(n, size=max(1, round(share * n)), replace=False)
    rates[blind] = rng.uniform(*BLIND_RATES, len(blind))
    return rates


def apply_setting(truth: GroundTruth, setting: TruthSetting, seed: int = 0) -> GroundTruth:
    """The truth with the setting's rates, named after it; ``corr`` and ``base`` need a
    simulated truth (a stored run's frequencies have no latent structure to reshape)."""
    out = truth
    if setting.blind is not None:
        rates = random_blind_spots(truth, setting.blind, seed)
        out = replace(
            truth,
            rates=rates,
            always_failed=rates >= SIM_ALWAYS_FAILED,
            answers=None,  # dealt rates: no answers behind them
            note=f"random blind spots: {setting.blind:.0%} of edges fail "
            f"{BLIND_RATES[0]:.0%}-{BLIND_RATES[1]:.0%} of the time, the rest "
            f"{SEEN_RATES[0]:.0%}-{SEEN_RATES[1]:.0%}; always failed = true rate >= "
            f"{SIM_ALWAYS_FAILED}",
        )
    elif setting.corr is not None or setting.base is not None:
        if not truth.simulated:
            raise ValueError(
                f"truth setting {setting.name} reshapes a simulated truth; "
                f"{truth.source} is not one (use as-is, shuffled or blind=X)"
            )
        rates = reshape_simulated(truth, setting.corr, setting.base, seed)
        out = replace(truth, rates=rates, always_failed=rates >= SIM_ALWAYS_FAILED)
    if setting.shuffled:
        out = out.shuffled(seed)
    return replace(out, source=truth.source, setting=setting.name)
