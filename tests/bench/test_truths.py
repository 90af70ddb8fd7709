"""Truth settings of the efficiency study: neighbour correlation, base rate, random blind
spots and the shuffled truth, on a small random graph."""

from __future__ import annotations

import numpy as np
import pytest

from kglens_tui.bench.ground_truth import GroundTruth, neighbour_correlation, neighbour_matrix
from kglens_tui.bench.truths import (
    TruthSetting,
    UnreachableSetting,
    apply_setting,
    parse_settings,
)


def graph_truth(n_nodes: int = 60, n_edges: int = 400, seed: int = 0) -> GroundTruth:
    """Node effects make neighbours fail together, as in the simulated target."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, n_nodes, n_edges)
    o = (s + 1 + rng.integers(0, n_nodes - 1, n_edges)) % n_nodes
    effect = rng.normal(0, 1.5, n_nodes)
    rates = 1 / (1 + np.exp(-(-1.0 + effect[s] + effect[o])))
    return GroundTruth(
        "graph", rates, rates >= 0.9, s, o, n_nodes, np.arange(n_edges), simulated=True
    )


def test_settings_parse_and_name_themselves() -> None:
    parsed = parse_settings("as-is, corr=0.4, base=0.1+corr=0, blind=0.05, shuffled")
    assert [s.name for s in parsed] == [
        "as-is",
        "corr=0.4",
        "corr=0+base=0.1",
        "blind=0.05",
        "shuffled",
    ]
    assert parsed[2] == TruthSetting(corr=0.0, base=0.1)
    for bad, message in (
        ("corr", "unknown truth setting"),
        ("base=x", "must be a number"),
        ("base=1", "out of range"),
        ("blind=0", "out of range"),
        (" , ", "no truth setting"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_settings(bad)


def test_correlation_and_base_rate_are_what_was_asked() -> None:
    truth = graph_truth()
    adjacency = neighbour_matrix(truth)
    natural = neighbour_correlation(truth.rates, adjacency)
    assert natural > 0.5
    for corr in (0.2, 0.4):
        dealt = apply_setting(truth, TruthSetting(corr=corr))
        assert neighbour_correlation(dealt.rates, adjacency) == pytest.approx(corr, abs=0.01)
        assert dealt.setting == f"corr={corr:g}"
    rare = apply_setting(truth, TruthSetting(base=0.1))
    assert rare.rates.mean() == pytest.approx(0.1, abs=1e-6)
    assert neighbour_correlation(rare.rates, adjacency) > 0.4  # the structure is kept
    both = apply_setting(truth, TruthSetting(corr=0.3, base=0.85))
    assert both.rates.mean() == pytest.approx(0.85, abs=1e-6)
    assert neighbour_correlation(both.rates, adjacency) == pytest.approx(0.3, abs=0.01)
    with pytest.raises(UnreachableSetting, match="above what this simulated truth holds"):
        apply_setting(truth, TruthSetting(corr=0.99))


def test_random_blind_spots_are_far_from_a_half_and_placed_at_random() -> None:
    truth = graph_truth()
    dealt = apply_setting(truth, TruthSetting(blind=0.1))
    blind = dealt.rates >= 0.8
    assert blind.sum() == 40
    assert np.all((dealt.rates <= 0.1) | blind)
    assert dealt.always_failed.sum() == (dealt.rates >= 0.9).sum()
    assert abs(neighbour_correlation(dealt.rates, neighbour_matrix(truth))) < 0.2


def test_stored_truths_take_no_reshaping() -> None:
    stored = graph_truth()
    stored.simulated = False
    with pytest.raises(ValueError, match="reshapes a simulated truth"):
        apply_setting(stored, TruthSetting(base=0.2))
    shuffled = apply_setting(stored, TruthSetting(shuffled=True))
    assert np.array_equal(np.sort(shuffled.rates), np.sort(stored.rates))
    assert shuffled.setting == "shuffled"


# a truth made elsewhere: --ground-truth csv:PATH


def write_truth(path, rows) -> None:
    path.write_text(
        "subject,predicate,object,error_rate\n" + "".join(",".join(r) + "\n" for r in rows),
        encoding="utf-8",
    )


def test_a_csv_truth_names_edges_by_key_or_label(conn, tiny_kg_dir, tmp_path) -> None:
    from kglens_tui.bench.sampling_study import load_ground_truth, run_study
    from kglens_tui.kg.importers import import_kg

    import_kg(conn, tiny_kg_dir, "tiny")
    path = tmp_path / "truth.csv"
    write_truth(
        path,
        [
            ("c:AT", "capital", "city:vienna", "0.1"),
            ("Germany", "Capital", "berlin", "0.9"),  # labels, any case
            ("TO", "official language", "Tongan", "1"),  # an alias
            ("Tonga", "official_language", "English", "0.5"),
        ],
    )
    truth = load_ground_truth(conn, f"csv:{path}", "tiny", None)
    assert truth.n_edges == 4
    assert sorted(truth.rates.tolist()) == [0.1, 0.5, 0.9, 1.0]
    assert truth.always_failed.sum() == 2
    assert "6 active edges it does not cover left out" in truth.note
    capitals = load_ground_truth(conn, f"csv:{path}", "tiny", None, "capital")  # --predicates
    assert sorted(capitals.rates.tolist()) == [0.1, 0.9]
    result = run_study(truth, [], budget_epochs=5, batch_size=2, seeds=(0,), ks=(2,))
    assert result.n_edges == 4


@pytest.mark.parametrize(
    "row, message",
    [
        (("Austria", "capital", "Berlin", "0.2"), "line 2, field 'object'.*matches no active edge"),
        (("Atlantis", "capital", "Vienna", "0.2"), "line 2, field 'subject': no entity"),
        (("Austria", "anthem", "Vienna", "0.2"), "line 2, field 'predicate': no predicate"),
        (("Austria", "capital", "Vienna", "1.5"), "line 2, field 'error_rate'.*between 0 and 1"),
        (("Austria", "capital", "Vienna", "often"), "line 2, field 'error_rate': not a number"),
        (("Austria", "member of", "UN", "0.2"), "matches no active edge"),  # a dead predicate
    ],
)
def test_a_csv_truth_refuses_rows_it_cannot_use(conn, tiny_kg_dir, tmp_path, row, message):
    from kglens_tui.bench.sampling_study import load_ground_truth
    from kglens_tui.kg.importers import import_kg

    import_kg(conn, tiny_kg_dir, "tiny")
    path = tmp_path / "truth.csv"
    write_truth(path, [row])
    with pytest.raises(ValueError, match=message):
        load_ground_truth(conn, f"csv:{path}", "tiny", None)
    path.write_text("subject,object,rate\nAustria,Vienna,0.1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1, field 'predicate': the header needs"):
        load_ground_truth(conn, f"csv:{path}", "tiny", None)
