"""The live screen's rate figures: what chance scores, and when that figure is older than the
rates beside it."""

from __future__ import annotations

from types import SimpleNamespace

from kglens_tui.analysis.coin_baseline import CoinBaseline, CoinRate
from kglens_tui.modes.kglens.pkg import rates
from kglens_tui.tui.screens.live import _figures


def _snap(answered: int) -> SimpleNamespace:
    import numpy as np

    latest = rates(np.array([1, 0, 2]), np.array([0, 2, 1]))
    return SimpleNamespace(rates=latest, counts={"correct": answered, "error": 5}, baseline=None)


def test_a_coin_band_replayed_at_fewer_answers_says_when() -> None:
    band = CoinRate(0.5, 0.4, 0.6)
    coin = CoinBaseline(
        answered=100, replicas=40, rates=dict.fromkeys(("win", "zero_sense", "all_sense"), band)
    )
    assert _figures(_snap(100), "win", coin)[2] == "chance 50.0% [40.0–60.0]"
    assert _figures(_snap(512), "win", coin)[2] == "chance 50.0% [40.0–60.0] at 100 answers"


def test_the_chance_is_named_as_the_report_names_it() -> None:
    """Not "coin": on a Wh run the sampler's baseline is a constant answer. The subtitle names
    the report's column ("chance under this sampler"), or independent asks before a replay."""
    from kglens_tui.tui.screens.live import chance_kind

    band = CoinRate(0.5, 0.4, 0.6)
    coin = CoinBaseline(100, 40, dict.fromkeys(("win", "zero_sense", "all_sense"), band))
    assert chance_kind(coin) == "chance under this sampler"
    assert chance_kind(None) == "chance, independent asks"
    baseline = SimpleNamespace(win_rate=0.25, zero_sense=0.5, all_sense=0.25)
    snap = SimpleNamespace(**{**vars(_snap(100)), "baseline": baseline})
    assert _figures(snap, "win")[2] == "chance 25.0%"
