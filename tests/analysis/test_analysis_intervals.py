"""Beta quantiles and Wilson intervals against closed forms and known values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kglens_tui.core.intervals import (
    beta_cdf,
    beta_interval,
    beta_quantile,
    wilson,
    z_value,
)

# scipy.stats.beta.ppf(0.025 / 0.975, a, b), computed once offline.
KNOWN = [
    (2, 3, 0.06758598648854294, 0.8058795503167565),
    (10, 20, 0.17938364923511183, 0.50832335380999),
    (0.5, 0.5, 0.001541333133436012, 0.9984586668665639),
    (45, 15, 0.634050109943763, 0.8501792208310603),
    (1.5, 7.25, 0.014297065535793184, 0.46467507536507313),
    (100, 400, 0.16613901539164794, 0.23613366918553483),
]


def test_closed_forms() -> None:
    q = np.array([0.001, 0.025, 0.3, 0.5, 0.975, 0.999])
    assert np.allclose(beta_quantile(q, 1, 1), q, atol=1e-12)
    for a in (1, 3, 7.5):
        # Beta(a, 1): I_x = x^a, Beta(1, b): I_x = 1 - (1 - x)^b
        assert np.allclose(beta_quantile(q, a, 1), q ** (1 / a), atol=1e-10)
        assert np.allclose(beta_quantile(q, 1, a), 1 - (1 - q) ** (1 / a), atol=1e-10)
    x = np.linspace(0.01, 0.99, 9)
    assert np.allclose(beta_cdf(x, 2, 2), 3 * x**2 - 2 * x**3, atol=1e-12)
    assert np.allclose(beta_quantile(0.5, [3, 40, 700], [3, 40, 700]), 0.5, atol=1e-10)


@pytest.mark.parametrize("q", [1e-9, 1e-6, 0.025, 0.5, 0.975, 1 - 1e-6])
def test_extreme_parameters_match_closed_forms_in_relative_terms(q: float) -> None:
    """The tails of a long run's posteriors: Beta(2000, 1) and Beta(1, 1500.5) have closed-form
    quantiles; the distance from the bound (1 - x, or x) must be right to 1e-9 relative, which a
    bisection to an absolute tolerance misses. Beta(0.01, 50) (a skewed prior) inverts its cdf."""
    upper = beta_quantile(q, 2000, 1)
    assert math.isclose(1 - upper, 1 - q ** (1 / 2000), rel_tol=1e-6)
    lower = beta_quantile(q, 1, 1500.5)
    assert math.isclose(lower, -math.expm1(math.log1p(-q) / 1500.5), rel_tol=1e-9)
    if q >= 0.01:  # lower quantiles of Beta(0.01, 50) lie below the smallest double
        assert math.isclose(beta_cdf(beta_quantile(q, 0.01, 50), 0.01, 50), q, rel_tol=1e-9)


def test_known_quantiles() -> None:
    a, b, lo, hi = (np.array(col, dtype=float) for col in zip(*KNOWN, strict=True))
    low, high = beta_interval(a, b)
    assert np.allclose(low, lo, atol=1e-9)
    assert np.allclose(high, hi, atol=1e-9)


def test_quantile_inverts_cdf_for_large_parameters() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.uniform(1, 1500, 300), rng.uniform(1, 500, 300)
    q = rng.uniform(0.001, 0.999, 300)
    assert np.allclose(beta_cdf(beta_quantile(q, a, b), a, b), q, atol=1e-9)


def test_edges_and_errors() -> None:
    assert beta_quantile(0.0, 3, 4) == 0.0 and beta_quantile(1.0, 3, 4) == 1.0
    with pytest.raises(ValueError):
        beta_quantile(0.5, 0, 1)
    with pytest.raises(ValueError):
        beta_quantile(1.5, 1, 1)


def test_wilson_by_hand() -> None:
    assert math.isclose(z_value(), 1.959963984540054)
    p = wilson(2, 6)
    # (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n) with p = 1/3, n = 6
    assert (p.k, p.n, p.value) == (2, 6, 2 / 6)
    assert p.low == pytest.approx(0.09677, abs=1e-5)
    assert p.high == pytest.approx(0.70001, abs=1e-5)
    zero = wilson(0, 10)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.27753, abs=1e-5)
    one = wilson(1, 1)
    assert one.high == 1.0 and one.low == pytest.approx(0.20655, abs=1e-5)
    assert wilson(0, 0).value is None
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_f1_interval_holds_the_observed_f1_and_covers_the_true_one() -> None:
    from kglens_tui.core.intervals import f1_interval

    assert f1_interval(0, 0, 0) == (None, None)
    with pytest.raises(ValueError):
        f1_interval(-1, 2, 0)
    assert f1_interval(77, 17, 6) == f1_interval(77, 17, 6)  # seeded: the same every time
    for c, w, a in ((1, 0, 0), (0, 3, 1), (5, 0, 5), (77, 17, 6)):
        low, high = f1_interval(c, w, a)
        observed = 2 * c / (2 * (c + w + a) - a)
        assert low is not None and high is not None and low <= observed <= high
    assert f1_interval(1, 0, 0)[1] == 1.0 and f1_interval(0, 3, 1)[0] == 0.0
    # without abstention F1 is accuracy: the interval is close to Wilson's
    w = wilson(80, 100)
    low, high = f1_interval(80, 20, 0)
    assert abs(low - w.low) < 0.02 and abs(high - w.high) < 0.02
    # more questions, a narrower interval
    wide, narrow = f1_interval(6, 3, 1), f1_interval(60, 30, 10)
    assert narrow[1] - narrow[0] < (wide[1] - wide[0]) / 2
    # frequentist coverage of the true F1 (shares 0.6 / 0.3 / 0.1, 50 questions)
    rng = np.random.default_rng(7)
    truth = 2 * 0.6 / (2 - 0.1)
    hits = 0
    for _ in range(300):
        c, w_, a = rng.multinomial(50, (0.6, 0.3, 0.1))
        low, high = f1_interval(int(c), int(w_), int(a))
        hits += low <= truth <= high
    assert 0.90 <= hits / 300 <= 0.995
