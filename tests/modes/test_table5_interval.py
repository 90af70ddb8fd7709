"""KONTEST Table 5's "models (mean)" column gives the models' mean gap with its 95% interval and
n, like the ensembles' columns beside it."""

from __future__ import annotations

import sqlite3

from compare_support import CAPITALS, _kontest, text

from kglens_tui.core.intervals import wilson
from kglens_tui.modes.kontest.compare import ensemble_renderables
from kglens_tui.modes.kontest.ensemble import weighted_ensemble
from kglens_tui.modes.kontest.metrics import ensemble_inputs
from kglens_tui.textfmt import rate_ci


def test_table5_models_mean_has_its_interval_and_n(hand: sqlite3.Connection) -> None:
    france, germany, ireland = (f"Is the capital of {c} {city}?" for c, city in CAPITALS.items())
    runs = [
        _kontest(hand, {france}, "model A"),
        _kontest(hand, {germany, ireland}, "model B"),
        _kontest(hand, set(), "model C"),
    ]
    answers, errors = ensemble_inputs(hand, runs)
    result = weighted_ensemble(answers, errors, folds=5)
    n, models = result.relations, len(runs)
    shown = text(*ensemble_renderables(hand, runs))
    rows = {line.split("│")[1].strip(): line for line in shown.splitlines() if line.count("│") > 4}
    for key, mean, over in (
        *((str(g.template), g.models_mean, n) for g in result.per_template),
        ("all", result.models_mean, n * len(result.per_template)),
    ):
        p = wilson(round(mean * models), models * over)
        cell = rows[key].split("│")[4].strip()
        assert cell == f"{mean:,.2f} · {rate_ci(*p.bounds)} (n={models}×{over:,})", cell
    assert any(g.models_mean for g in result.per_template)  # a gap to show an interval of
