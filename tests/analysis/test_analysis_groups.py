"""Every group-by against hand-computed counts, rates and Wilson intervals."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest
from analysis_support import RUN_A, import_mini, make_run

from kglens_tui.analysis.filters import EdgeFilter
from kglens_tui.analysis.groups import cross_table, group_table, overall, rate_set
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.core.intervals import Proportion

Z = 1.959963984540054


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check(p: Proportion, k: int, n: int) -> None:
    assert (p.k, p.n) == (k, n)
    if n == 0:
        assert p.value is None and p.low is None
        return
    lo, hi = wilson_by_hand(k, n)
    assert p.value == pytest.approx(k / n)
    assert p.low == pytest.approx(lo, abs=1e-12) and p.high == pytest.approx(hi, abs=1e-12)


@pytest.fixture
def data(conn: sqlite3.Connection, tmp_path: Path) -> RunData:
    import_mini(conn, tmp_path)
    return load_run_data(conn, make_run(conn, RUN_A))


def table(data: RunData, by: str, **kw) -> dict[str, tuple]:
    """key -> (edges, examined, win k, zero-sense k, all-sense k), checking every interval."""
    out = {}
    for r in group_table(data, by, **kw):
        n = r.rates.examined
        for metric in ("win", "zero_sense", "all_sense"):
            check(r.rates.get(metric), r.rates.get(metric).k, n)
        out[r.key] = (r.edges, n, r.rates.win.k, r.rates.zero_sense.k, r.rates.all_sense.k)
    return out


def test_rate_set_by_hand() -> None:
    rs = rate_set([2, 1, 0, 1, 0, 0, 1, 0], [0, 1, 2, 0, 1, 0, 2, 0])
    assert rs.examined == 6
    check(rs.win, 2, 6)
    check(rs.zero_sense, 2, 6)
    check(rs.all_sense, 2, 6)


def test_overall(data: RunData) -> None:
    row = overall(data)
    assert (row.edges, row.rates.examined) == (8, 6)
    check(row.rates.zero_sense, 2, 6)
    # posterior means without propagation: Beta(1 + n, 1 + m)
    means = [1 / 4, 2 / 4, 3 / 4, 1 / 3, 2 / 3, 1 / 2, 3 / 5, 1 / 2]
    # over the same six examined edges as the rates (e6 and e8 were never answered)
    examined = [x for i, x in enumerate(means) if i not in (5, 7)]
    assert row.mean_error == pytest.approx(sum(examined) / 6)


def test_per_predicate(data: RunData) -> None:
    assert table(data, "predicate") == {
        "capital": (3, 3, 1, 1, 1),  # e1 2/0, e2 1/1, e3 0/2
        "currency": (3, 2, 1, 1, 1),  # e4 1/0, e5 0/1, e6 not asked
        "head_of_state": (2, 1, 0, 0, 0),  # e7 1/2, e8 error only
    }
    rows = group_table(data, "predicate")
    assert [r.key for r in rows] == ["currency", "capital", "head_of_state"]  # worst zero-sense
    assert [r.label for r in group_table(data, "predicate", sort="name")] == [
        "capital",
        "currency",
        "head of state",
    ]


def test_per_subject_and_object(data: RunData) -> None:
    assert table(data, "subject") == {
        "c:A": (3, 3, 2, 0, 2),  # e1, e4, e7
        "c:B": (3, 2, 0, 1, 0),  # e2, e5 (e8 not examined)
        "c:C": (2, 1, 0, 1, 0),  # e3 (e6 not asked)
    }
    assert table(data, "object")["cur:x"] == (2, 2, 1, 1, 1)  # e4, e5


def test_per_entity_group(data: RunData) -> None:
    assert table(data, "group") == {
        "member:EU": (3, 3, 2, 0, 2),
        "region:Europe": (6, 5, 2, 1, 2),
        "region:Oceania": (2, 1, 0, 1, 0),
    }
    for prefix in ("region:", "region"):  # without its colon, the label has none either
        regions = group_table(data, "group", prefix=prefix)
        assert [(r.key, r.label) for r in regions] == [
            ("region:Oceania", "Oceania"),
            ("region:Europe", "Europe"),
        ]
    assert table(data, "group", side="object") == {}  # objects carry no groups
    assert table(data, "group", side="either") == table(data, "group")


def test_per_year(data: RunData) -> None:
    assert table(data, "year") == {
        "1966": (1, 0, 0, 0, 0),  # e6
        "1999": (1, 1, 0, 1, 0),  # e5
        "2002": (1, 1, 1, 0, 1),  # e4
        "2017": (1, 1, 0, 0, 0),  # e7
        "2021": (1, 0, 0, 0, 0),  # e8
    }
    assert [r.key for r in group_table(data, "year")] == ["1966", "1999", "2002", "2017", "2021"]


def test_filtered_group(data: RunData) -> None:
    flt = EdgeFilter(groups=("region:Europe",))
    assert table(data, "predicate", flt=flt) == {
        "capital": (2, 2, 1, 0, 1),
        "currency": (2, 2, 1, 1, 1),
        "head_of_state": (2, 1, 0, 0, 0),
    }


def test_cross_table(data: RunData) -> None:
    ct = cross_table(data, "subject", "predicate")
    cell = ct.cells[("c:B", "currency")]
    assert (cell.edges, cell.share, cell.rates.examined) == (1, 1 / 3, 1)
    check(cell.rates.zero_sense, 1, 1)
    assert ("c:C", "head_of_state") not in ct.cells
    assert {r.key: r.edges for r in ct.rows} == {"c:A": 3, "c:B": 3, "c:C": 2}
    assert sum(c.edges for c in ct.cells.values()) == 8


def test_bad_arguments(data: RunData) -> None:
    with pytest.raises(ValueError):
        group_table(data, "colour")
    with pytest.raises(ValueError):
        group_table(data, "predicate", sort="best")
