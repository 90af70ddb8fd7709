"""KG-wide rates under adaptive sampling: the design's probabilities, unbiasedness against an
exact value on tiny graphs (under the design: test_sense_rates.py, on the replays that check
the two-ask rates), recomputation from the stored rows alone, and the study command."""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import chain_truth

from kglens_tui.analysis.efficiency import Scorer
from kglens_tui.analysis.kgwide import KGWide, kg_wide
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.bench.rates_study import RateTracker, rates_study, study_methods
from kglens_tui.bench.sampling_study import ALL_METHODS, BRUTE_FORCE, simulate
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.modes.kglens.design import (
    REASK_SHARE,
    RollingFloor,
    designed_sample,
    floor_size,
)
from kglens_tui.modes.kglens.estimates import census_rate, design_rate
from kglens_tui.modes.kglens.pkg import PKGState
from kglens_tui.modes.kglens.rate_text import CAPPED_NOTE
from kglens_tui.runs.config import ConfigError
from kglens_tui.store.connection import connect

TOP_K_LEARNED = next(m for m in ALL_METHODS if m.name == "top-k + learned")
THOMPSON_PROP = next(m for m in ALL_METHODS if m.name == "thompson + prop")


def paper16_probe(db: Path, *options: str) -> None:
    """A headless probe of the Country KG's paper16 subset in batches of 16."""
    args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*args, "--batch-size", "16", *options]) == 0


def test_the_rolling_floor_asks_every_edge_once_per_pass_and_resumes_from_its_rows() -> None:
    """Takes of any size walk pass after pass: each pass's visits are every edge once (the
    first pass's plus its re-asks), no take crosses a pass's end or holds an edge twice, each
    pass is ordered afresh, and a floor resumed from the visits stored per pass goes on exactly
    as the uninterrupted one."""
    rng = np.random.default_rng(0)
    for n, gap in ((1, 1), (7, 1), (300, 1), (300, 12)):
        floor = RollingFloor(n, seed=3, gap=gap)
        visits: dict[int, list[int]] = {}
        for take in range(200):
            edges, pass_ = floor.take(int(rng.integers(0, 12)))
            assert len(set(edges.tolist())) == len(edges)
            visits.setdefault(pass_, []).extend(edges.tolist())
            if take == 120:
                stored = {p: len(v) for p, v in visits.items()}
                resumed = RollingFloor.resumed(n, 3, stored, gap)
                assert (resumed.pass_, resumed.offset) == (floor.pass_, floor.offset)
                assert np.array_equal(
                    resumed.take(5)[0], RollingFloor.resumed(n, 3, stored, gap).take(5)[0]
                )
        done = [p for p in visits if p < floor.pass_]
        assert len(done) >= 2
        assert sorted(set(visits[0])) == list(range(n))
        for p in done[1:]:
            assert sorted(visits[p]) == list(range(n))
        if n > 2:
            assert visits[done[0]] != visits[done[1]]


def test_the_first_pass_re_asks_a_random_tenth_of_its_edges_at_least_a_gap_later() -> None:
    """The first pass re-asks edges so that a first epoch has pairs of answers: about
    REASK_SHARE of its visits, each of an edge first asked at least ``gap`` visits earlier (a
    draw of up to ``gap`` floor visits never holds an edge twice), and over many seeds every
    position of the permutation as likely to be re-asked as any other it could be (whatever
    an edge answers, it is not chosen for it)."""
    n, gap = 400, 16
    shares, counts = [], np.zeros(n)
    for seed in range(300):
        floor = RollingFloor(n, seed, gap=gap)
        visits = floor.order(0)
        assert sorted(set(visits.tolist())) == list(range(n))
        assert np.array_equal(np.sort(floor.order(1)), np.arange(n))
        shares.append(1 - n / len(visits))
        first: dict[int, int] = {}
        for place, edge in enumerate(visits.tolist()):
            if edge in first:
                assert place - first[edge] > gap
            else:
                first[edge] = place
        order = np.array(list(first))  # the permutation, first visits in order
        again = np.bincount(visits, minlength=n) - 1
        counts += again[order]
    assert abs(np.mean(shares) - REASK_SHARE) < 0.01
    # positions early in the order can be re-asked for longer: the chance falls with the place
    early, late = counts[: n // 4].mean(), counts[3 * n // 4 :].mean()
    assert early > late
    assert counts[-gap:].sum() == 0


def test_one_epoch_of_the_floor_measures_the_noise_and_covers_as_asked() -> None:
    """On a truth whose errors sit on a few edges (a blind-spot truth: most edges fail 2% of
    the time, a tenth fail 90%), a first pass's census with its re-asks estimates each edge's
    noise instead of bounding it by p (1 - p): its interval covers the truth's mean in 92-98%
    of replays, where the bound alone covers nearly always (too wide)."""
    n, gap = 600, 16
    truth_rng = np.random.default_rng(5)
    rates = np.where(truth_rng.random(n) < 0.1, 0.9, 0.02)
    exact = float(rates.mean())
    covered = bounded_covered = 0
    replays = 400
    for seed in range(replays):
        visits = RollingFloor(n, seed, gap=gap).order(0)[: int(0.9 * n)]
        coin = np.random.default_rng([seed, 1])
        failed = coin.random(len(visits)) < rates[visits]
        wrong = np.bincount(visits, weights=failed, minlength=n)
        right = np.bincount(visits, minlength=n) - wrong
        est = census_rate(right, wrong)
        assert est is not None
        low, high = est.interval()
        covered += low <= exact <= high
        once = np.unique(visits, return_index=True)[1]  # the same edges, each asked once
        single_wrong = np.bincount(visits[once], weights=failed[once], minlength=n)
        single = census_rate(np.bincount(visits[once], minlength=n) - single_wrong, single_wrong)
        assert single is not None
        bounded_covered += single.interval()[0] <= exact <= single.interval()[1]
    assert 0.92 <= covered / replays <= 0.98
    assert bounded_covered / replays > 0.99


def test_the_design_takes_its_floor_first_and_picks_apart_from_it() -> None:
    """A designed draw: `floor_size` edges from the census (on average floor * k, busy ones
    too: a visit is never skipped), then the sampler's picks, none of them busy, certain or the
    floor's; brute force and a run without a census take no floor."""
    rng = np.random.default_rng(1)
    sizes = [floor_size(10, 0.33, rng) for _ in range(4000)]
    assert set(sizes) == {3, 4}
    assert abs(np.mean(sizes) - 3.3) < 0.05
    state = PKGState.prior(20)
    census = RollingFloor(20, seed=0)
    busy, certain = np.array([0, 1]), np.array([19])
    floored = 0
    for iteration in range(1, 200):
        batch, count, _ = designed_sample(
            "thompson", state, 8, rng, iteration, 0, 0.5, census, exclude=busy, certain=certain
        )
        assert len(batch) == 8 and len(set(batch.tolist())) == 8
        picks = batch[count:]
        assert not set(picks.tolist()) & {0, 1, 19}
        floored += count
    assert abs(floored / (199 * 8) - 0.5) < 0.05
    assert sum(len(census.order(p)) for p in range(census.pass_)) + census.offset == floored
    for sampler, with_census in (("brute-force", census), ("thompson", None)):
        batch, count, _ = designed_sample(sampler, state, 8, rng, 1, 0, 0.5, with_census)
        assert count == 0 and len(batch) == 8


def test_the_census_estimate_is_unbiased_and_covers() -> None:
    truth = chain_truth(60, seed=4)
    exact = float(truth.rates.mean())
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    found, covered = [], 0
    for replay in range(300):
        tracker = RateTracker([45], truth.predicates)
        simulate(BRUTE_FORCE, truth, scorer, 45, 9, replay, tracker=tracker)
        est = tracker.estimates[45]
        assert est is not None and est.method == "census"
        found.append(est.error)
        low, high = est.interval()
        covered += low <= exact <= high
    est = np.array(found)
    assert abs(est.mean() - exact) < 3.5 * est.std(ddof=1) / math.sqrt(len(est))
    assert covered / len(est) >= 0.9


def test_the_share_of_failed_asks_is_what_the_design_corrects() -> None:
    """Sanity of the premise: the paper's sampler re-asks where the model fails, so the share
    of its asks that fail is far above the truth on a structured graph."""
    truth = chain_truth()
    scorer = Scorer(truth.rates, (5,), truth.always_failed)
    shares = []
    for replay in range(40):
        trace = simulate(THOMPSON_PROP, truth, scorer, 120, 8, replay)
        shares.append((trace.asked * truth.rates).sum() / trace.asked.sum())
    assert np.mean(shares) - truth.rates.mean() > 0.05


def test_design_rate_by_hand() -> None:
    """Two draws of a population of 4: the per-draw AIPW estimates and their floor-weighted
    mean, worked out by hand."""
    est = design_rate(
        draw=np.array([0, 0, 1]),
        failed=np.array([1.0, 0.0, 1.0]),
        prob=np.array([1.0, 0.5, 0.25]),
        prediction=np.array([0.5, 0.5, 0.25]),
        totals=np.array([2.0, 1.0]),
        edges=4,
        weights=np.array([1, 3]),
    )
    assert est is not None
    first = (2.0 + 0.5 + (-0.5) / 0.5) / 4
    second = (1.0 + 0.75 / 0.25) / 4
    assert est.error == pytest.approx((first + 3 * second) / 4)
    var1 = (0.5**2 + 1.0**2) / 16
    var2 = 3.0**2 / 16
    assert est.se == pytest.approx(math.sqrt(var1 + 9 * var2) / 4)
    assert (
        design_rate(
            np.array([0]),
            np.array([1.0]),
            np.array([1.0]),
            np.array([0.5]),
            np.array([2.0]),
            4,
            np.array([0]),
        )
        is None
    )


def test_census_rate_without_repeats_is_bounded_by_p_q() -> None:
    est = census_rate(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1]))
    assert est is not None and est.error == 0.5
    # a whole census asked once: each edge's noise bounded by p (1 - p), over 4 edges
    assert est.se == pytest.approx(math.sqrt(4 * 0.25 / 4**2))


def test_design_floor_is_validated() -> None:
    with pytest.raises(ConfigError, match="design_floor"):
        RunConfig(design_floor=0.0).validate()
    with pytest.raises(ConfigError, match="design_floor"):
        RunConfig(design_floor=1.5).validate()
    assert RunConfig(design_floor=1.0).validate().design_floor == 1.0


def test_a_run_s_estimate_is_recomputed_from_its_rows_alone(tmp_path: Path) -> None:
    """A SQL reader (Datasette, sqlite3) gets the run's KG-wide error rate from the observation
    rows alone, as db/0028_rolling_floor.sql documents it: the mean over the edges the floor
    answered of each one's failed share of its floor answers; the picks are left out."""
    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "6", "--target", "sim:2")
    conn = connect(db)
    (by_sql,) = conn.execute(
        """
        SELECT AVG(share) FROM (
            SELECT AVG(category IN ('incorrect', 'refused', 'unparseable')) AS share
            FROM observation WHERE run_id = 1 AND floor_pass IS NOT NULL AND category != 'error'
            GROUP BY pos)
        """
    ).fetchone()
    data = load_run_data(conn, 1)
    estimate = kg_wide(data)
    assert estimate is not None and estimate.rate.method == "census"
    assert estimate.rate.error == pytest.approx(by_sql)
    floor, picks = conn.execute(
        "SELECT SUM(floor_pass IS NOT NULL), SUM(floor_pass IS NULL) FROM observation"
    ).fetchone()
    assert floor > 0 and picks > 0 and estimate.rate.answers == floor
    conn.close()


@pytest.mark.parametrize("sampler", ["top-k", "brute-force"])
def test_the_run_rates_view_gives_the_kg_wide_rate_kglens_report_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sampler: str
) -> None:
    """The `run_rates` view (what docs/data.md points Datasette readers to) leads with the
    run's KG-wide win rate, computed in SQL as db/0028_rolling_floor.sql documents it (the
    floor's census; brute force: every answer's), equal to `kglens report`'s; the paper's rates follow under names that
    say they are over the examined edges."""
    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "5", "--target", "sim:1", "--sampler", sampler)
    conn = connect(db)
    row = conn.execute("SELECT * FROM run_rates WHERE run_id = 1").fetchone()
    columns = list(row.keys())
    assert columns.index("kg_wide_win_rate") < columns.index("examined_win_rate")
    assert {"examined_zero_sense_rate", "examined_all_sense_rate"} <= set(columns)
    assert "win_rate" not in columns
    estimate = kg_wide(load_run_data(conn, 1), adjusted=False)
    conn.close()
    assert estimate is not None
    assert row["kg_wide_method"] == estimate.rate.method == "census"
    assert row["kg_wide_win_rate"] == pytest.approx(estimate.rate.win)
    assert row["kg_wide_error_rate"] == pytest.approx(estimate.rate.error)
    assert row["kg_wide_answers"] == estimate.rate.answers > 0
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{row['kg_wide_win_rate'] * 100:.1f}% [" in out.partition("edges this run examined")[0]


def test_report_leads_with_the_kg_wide_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "4")
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = capsys.readouterr().out
    assert out.index("KG-wide rates") < out.index("edges this run examined")
    assert "one ask" in out and "KG-wide win rate per" in out
    assert out.index("yes-rate") < out.index("edges this run examined")
    assert out.index("zero-sense (two") < out.index("edges this run examined")
    # each predicate's n says what it counts: its answers and its edges, in columns of their own
    per = out[out.index("KG-wide win rate per") :]
    head = next(line for line in per.splitlines() if "win [95% interval]" in line)
    assert [cell.strip() for cell in head.strip(" ┃").split("┃")][-2:] == ["answers", "edges"]


def test_the_kg_wide_yes_rate_is_each_edge_s_yes_share_under_brute_force(tmp_path: Path) -> None:
    """Brute force: the census of each examined edge's share of Yes/No replies saying yes,
    recomputed here from the stored replies."""
    from kglens_tui.analysis.kgwide import kg_wide_yes_rate
    from kglens_tui.answers.verify import first_word_answer

    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "6", "--sampler", "brute-force", "--target", "sim:3")
    conn = connect(db)
    shares: dict[int, list[bool]] = {}
    for edge, reply in conn.execute(
        "SELECT edge_id, reply FROM observation WHERE qtype = 'yes_no' AND category != 'error'"
    ):
        said = first_word_answer(reply)
        if said is not None:
            shares.setdefault(edge, []).append(said == "yes")
    yes = kg_wide_yes_rate(load_run_data(conn, 1))
    assert yes is not None and yes.method == "census"
    assert yes.error == pytest.approx(np.mean([np.mean(v) for v in shares.values()]))
    conn.close()


def test_bench_rates_prints_every_method_and_the_frontier(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kglens_tui.core.console import console

    monkeypatch.setattr(console, "width", 200)
    db = tmp_path / "w.db"
    argv = ["--db", str(db), "bench", "rates", "--replays", "2", "--settings", "as-is"]
    argv += ["--methods", "thompson", "--floors", "0.5,1", "--batch-size", "32"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for text in (
        "brute force",
        "thompson · floor 0.75",
        "Frontier",
        "coverage",
        "G@25",
        "equal",
        "two-ask rates",
        "zero-sense coverage",
        "all-sense width",
    ):
        assert text in out, text
    monkeypatch.setattr(console, "width", 80)  # split where they would be cut ("100.…")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    for text in ("as-is", "estimates", "tests", "two-ask rates", "zero-sense", "all-sense"):
        assert text in out, text
    assert re.search(r"│\s+1\s+│\s+[+-]\d+\.\d\d ± \d+\.\d\d\s+│\s+\d+\.\d%\s+│", out)
    assert main([*argv[:4], "--replays", "1"]) != 0
    assert "--replays must be at least 2" in capsys.readouterr().err


def test_the_study_refuses_a_list_without_brute_force_first() -> None:
    with pytest.raises(ValueError, match="brute force"):
        rates_study(chain_truth(), [TOP_K_LEARNED], replays=2)
    with pytest.raises(ValueError, match="floor"):
        study_methods([TOP_K_LEARNED], 0.0, (), TOP_K_LEARNED)


@pytest.mark.parametrize(
    ("sampler", "difficulty"), [("top-k", "hard"), ("thompson", "easy"), ("brute-force", "wh")]
)
def test_the_live_estimate_is_the_stored_rows_estimate(
    tmp_path: Path, sampler: str, difficulty: str
) -> None:
    """What the engine keeps as it commits (the live screen's KG-wide line) is what the rows
    give afterwards, and what a reopened run shows."""
    from kglens_tui.runs.runner import open_snapshot, prepare, run_blocking

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim:3",
        sampler=sampler,
        difficulty=difficulty,
        iterations=5,
        batch_size=16,
        stop_on_convergence=False,
    )
    snap = run_blocking(prepare(conn, config=config))
    assert snap.kg_wide is not None
    stored = kg_wide(load_run_data(conn, 1), adjusted=False)
    assert stored is not None
    assert snap.kg_wide.error == pytest.approx(stored.rate.error)
    assert snap.kg_wide.se == pytest.approx(stored.rate.se)
    assert snap.kg_wide_chance == pytest.approx(stored.chance_error)
    reopened = open_snapshot(conn, 1)
    assert reopened.kg_wide.error == pytest.approx(stored.rate.error)
    assert reopened.kg_wide_chance == pytest.approx(stored.chance_error)
    conn.close()


def test_exports_and_the_html_report_carry_the_kg_wide_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv

    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "4")
    out = tmp_path / "g.csv"
    assert main(["--db", str(db), "analyze", "1", "--by", "predicate", "--csv", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    groups = tmp_path / "groups.csv"
    argv = ["--db", str(db), "export", "1", "--groups", str(groups), "--by", "predicate"]
    assert main(argv) == 0
    for written in (out, groups):  # the KG-wide columns first, as everywhere
        head = next(csv.reader(written.open(encoding="utf-8")))
        assert head[3:9] == [
            "kg_wide_win",
            "kg_wide_win_low",
            "kg_wide_win_high",
            "kg_wide_win_chance",
            "kg_wide_answers",
            "kg_wide_win_capped",
        ]
        assert head[9:11] == ["examined", "win"]
    assert list(csv.DictReader(groups.open(encoding="utf-8"))) == rows
    # the whole run last, as the screen's table and docs/statistics.md say
    assert rows[-1]["key"] == "all" and rows[-1]["label"] == "all"
    assert int(rows[-1]["examined"]) == sum(int(r["examined"]) for r in rows[:-1])
    data = load_run_data(connect(db), 1)
    for row in rows[:-1]:
        pred = data.kg.pred_keys.index(row["key"])
        expected = kg_wide(data, predicate=pred)
        if expected is None:
            assert row["kg_wide_win"] == ""
        else:
            assert float(row["kg_wide_win"]) == pytest.approx(expected.rate.win)
            assert int(row["kg_wide_answers"]) == expected.rate.answers
            assert row["kg_wide_win_capped"] == str(expected.rate.capped).lower()
    html = tmp_path / "r.html"
    assert main(["--db", str(db), "export", "1", "--html", str(html)]) == 0
    text = html.read_text(encoding="utf-8")
    assert text.index("KG-wide rates") < text.index("over the edges this run examined")
    assert "KG-wide win rate per predicate" in text
    assert "zero-sense (two asks, both wrong)" in text and "all-sense (two asks" in text


def test_the_design_is_read_for_the_observations_the_run_data_holds(tmp_path: Path) -> None:
    """A run being written commits more answers after its data was read: the estimate uses the
    answers read (a live screen's worker reads while the run goes on)."""
    from kglens_tui.runs.runner import prepare, run_blocking

    conn = connect(tmp_path / "w.db")
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim",
        iterations=3,
        batch_size=16,
        stop_on_convergence=False,
    )
    run_blocking(prepare(conn, config=config))
    before = kg_wide(load_run_data(conn, 1))
    assert before is not None
    data = load_run_data(conn, 1)  # its design is read on first use, after more commits
    # three more iterations, committed after the data was read
    conn.execute("UPDATE run SET config = json_set(config, '$.iterations', 6) WHERE id = 1")
    conn.commit()
    run_blocking(prepare(conn, resume=1))
    assert conn.execute("SELECT COUNT(*) FROM observation").fetchone()[0] == 96
    after = kg_wide(data)  # the same RunData: the 48 answers it holds
    assert after is not None and after.rate.error == pytest.approx(before.rate.error)
    fresh = kg_wide(load_run_data(conn, 1))
    assert fresh is not None and fresh.rate.answers > before.rate.answers
    conn.close()


def test_estimates_outside_zero_to_one_are_shown_within_it() -> None:
    """An AIPW estimate of a small predicate can fall below 0 or above 1 (-21%, 123% were
    seen); what is shown stays within [0, 1], chance too, and the interval with it."""
    from kglens_tui.analysis.kgwide import shown
    from kglens_tui.analysis.kgwide_render import kg_wide_snapshot_line
    from kglens_tui.modes.kglens.estimates import DesignRate
    from kglens_tui.modes.kglens.rate_text import capped_note, win_text

    kw = shown(DesignRate(-0.21, 0.05, 12, 7, "design"), -0.076)
    assert kw.rate.error == 0.0 and kw.chance_error == 0.0 and kw.chance_win == 1.0
    assert win_text(kw.rate).startswith("100.0%")
    line = kg_wide_snapshot_line(DesignRate(1.23, 0.1, 12, 7, "design"), 1.2)
    assert "win 0.0%" in line and "chance 0.0%" in line and "-" not in line.split("win")[1][:8]
    # a capped figure is marked, and the line says what the mark means; one inside [0, 1] is
    # left as it is
    assert win_text(kw.rate).endswith("]†") and "]† · chance" in line
    assert line.endswith(" · " + CAPPED_NOTE)
    inside = shown(DesignRate(0.3, 0.05, 12, 7, "design"), 0.5).rate
    assert not inside.capped and "†" not in win_text(inside)
    assert capped_note([inside, None]) == "" and capped_note([inside, kw.rate]) == CAPPED_NOTE
    assert CAPPED_NOTE not in kg_wide_snapshot_line(inside, 0.5)


def test_a_group_s_answers_and_edges_are_separate_numbers() -> None:
    """The trial read "320 of 198" under "answers of edges" as a share although the edges were
    asked more than once: the answers and the edges are two columns of plain counts, in the
    text table, its table files and the HTML report."""
    from kglens_tui.analysis.kgwide import shown
    from kglens_tui.analysis.kgwide_render import kg_wide_table_of
    from kglens_tui.analysis.table_files import plain_table, split_intervals, to_csv
    from kglens_tui.modes.kglens.estimates import DesignRate

    table = kg_wide_table_of(
        {"capital": shown(DesignRate(0.3, 0.05, 1320, 198, "design"), 0.5)}, "title", "Caption."
    )
    assert table is not None
    plain = split_intervals(plain_table(table))
    rows = list(csv.reader(io.StringIO(to_csv(plain))))
    assert rows[0][-2:] == ["answers", "edges"] and rows[1][-2:] == ["1320", "198"]
    assert not any(" of " in cell for row in rows for cell in row)


def test_a_table_with_a_capped_rate_says_what_the_mark_means() -> None:
    """The per-predicate table marks a capped rate and its caption explains the mark; a table
    without one has no such note."""
    from kglens_tui.analysis.kgwide import shown
    from kglens_tui.analysis.kgwide_render import kg_wide_table_of
    from kglens_tui.modes.kglens.estimates import DesignRate

    def caption(rows: dict[str, KGWide]) -> str:
        table = kg_wide_table_of(rows, "title", "Caption.")
        assert table is not None
        return str(table.caption)

    fine = {"capital": shown(DesignRate(0.3, 0.05, 40, 20, "design"), 0.5)}
    capped = {**fine, "borders": shown(DesignRate(-0.016, 0.06, 6, 3, "design"), 0.5)}
    assert caption(fine) == "Caption."
    assert caption(capped) == f"Caption. {CAPPED_NOTE}."


def test_the_report_s_kg_wide_headline_is_as_logged_like_its_other_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The trial saw report 74.1% (triage applied) beside `runs` 73.7% and a note saying "the
    rates above are as logged": the headline is as logged like every other figure of the
    report, the run_rates view and `runs`, and the triage note gives it with triage applied."""
    from kglens_tui.modes.kglens.rate_text import win_text

    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "5", "--target", "sim:1")
    conn = connect(db)
    wrong = conn.execute(
        "SELECT id FROM observation WHERE run_id = 1 AND category = 'incorrect' "
        "AND floor_pass IS NOT NULL ORDER BY id LIMIT 3"
    ).fetchall()
    conn.close()
    for (obs,) in wrong:
        argv = ["--db", str(db), "triage", "verifier-error", str(obs), "--reason", "alias"]
        assert main(argv) == 0
    conn = connect(db)
    data = load_run_data(conn, 1)
    logged, applied = kg_wide(data, adjusted=False), kg_wide(data, adjusted=True)
    view = conn.execute("SELECT kg_wide_win_rate FROM run_rates WHERE run_id = 1").fetchone()[0]
    conn.close()
    assert logged is not None and applied is not None
    assert win_text(logged.rate) != win_text(applied.rate)
    assert view == pytest.approx(logged.rate.win)
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = capsys.readouterr().out
    headline = out.partition("edges this run examined")[0]
    assert win_text(logged.rate) in headline and win_text(applied.rate) not in headline
    words = " ".join(out.split())
    assert f"with them applied, KG-wide win {win_text(applied.rate)}; over the examined" in words


def test_a_batch_as_large_as_the_run_gives_the_census(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run whose batch holds every one of its edges asks them all in each iteration, each
    with certainty: its design has no floor, and it showed no KG-wide rate at all, with a false
    reason (trial 3). Its KG-wide rates are the census's, alike in the engine, the report and
    the run_rates view, recomputed here from the stored replies."""
    from kglens_tui.modes.kglens.mode import open_snapshot

    db = tmp_path / "w.db"
    args = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*args, "--batch-size", "5000", "--iterations", "3", "--target", "sim:2"]) == 0
    conn = connect(db)
    rows = conn.execute(
        "SELECT pos, category FROM observation WHERE run_id = 1 AND category != 'error'"
    ).fetchall()
    n_edges = len(load_run_data(conn, 1).run.edge_ids)
    pos = np.array([r[0] for r in rows])
    failed = np.array([r[1] in ("incorrect", "refused", "unparseable") for r in rows], float)
    assert np.bincount(pos, minlength=n_edges).min() == 3  # every edge, every iteration
    by_hand = census_rate(
        np.bincount(pos, weights=1 - failed, minlength=n_edges).astype(int),
        np.bincount(pos, weights=failed, minlength=n_edges).astype(int),
    )
    assert by_hand is not None
    estimate = kg_wide(load_run_data(conn, 1), adjusted=False)
    assert estimate is not None and estimate.rate.method == "census"
    assert estimate.rate.error == pytest.approx(by_hand.error)
    live = open_snapshot(conn, 1).kg_wide
    assert live is not None and live.error == pytest.approx(by_hand.error)
    row = conn.execute("SELECT * FROM run_rates WHERE run_id = 1").fetchone()
    assert row["kg_wide_method"] == "census"
    assert row["kg_wide_error_rate"] == pytest.approx(by_hand.error)
    conn.close()
    capsys.readouterr()
    assert main(["--db", str(db), "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "KG-wide rates: none" not in out
    assert f"{(1 - by_hand.error) * 100:.1f}% [" in out.partition("edges this run examined")[0]


def test_few_answers_keep_at_least_their_wilson_interval() -> None:
    """A group's rate from two right answers of two was shown as 100.0% [62.3–100.0], far
    narrower than any binomial interval on them (Wilson's is [34.2–100]; trial 3): a rate
    resting on few answers, or on fewer than MIN_EVENTS of either outcome, holds at least the
    Wilson interval of its plain answers; with many of both, nothing changes."""
    from kglens_tui.core.intervals import wilson
    from kglens_tui.modes.kglens.estimates import Z95, hajek_rate

    two_right = hajek_rate(np.array([0.0, 0.0]), np.array([0.5, 0.25]), edges=3)
    assert two_right is not None and two_right.few == (0.0, 2.0)
    low, high = two_right.win_interval()
    plain = wilson(2, 2)
    assert plain.low is not None and low <= plain.low + 1e-12 and high == 1.0
    one_wrong = hajek_rate(np.array([1.0, 0.0]), np.array([0.5, 0.5]), edges=2)
    assert one_wrong is not None
    wrong = wilson(1, 2)
    assert wrong.low is not None and wrong.high is not None
    assert one_wrong.interval()[0] <= wrong.low and one_wrong.interval()[1] >= wrong.high
    census = census_rate(np.array([2, 0]), np.array([0, 0]))  # two right answers of one edge
    assert census is not None and census.win_interval()[0] <= plain.low + 1e-12
    rng = np.random.default_rng(4)
    many = hajek_rate((rng.random(400) < 0.3).astype(float), rng.uniform(0.2, 0.9, 400), 500)
    assert many is not None and many.few is None
    assert many.interval() == (many.error - Z95 * many.se, many.error + Z95 * many.se)


def test_analyze_says_the_kg_wide_rates_rest_on_the_floors_census(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The note under analyze's KG-wide table names the estimator the rates come from: the
    census of the floor's answers (it said 'weighted by their sampling probabilities' after the
    rolling floor replaced that design)."""
    db = tmp_path / "w.db"
    paper16_probe(db, "--iterations", "2")
    capsys.readouterr()
    assert main(["--db", str(db), "analyze", "1"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "KG-wide: estimated as a census from the answers to each draw's floor" in printed
    assert "Hájek" not in printed


def test_the_per_predicate_kg_wide_table_puts_the_surely_worst_first() -> None:
    """A predicate with one wrong answer (0.0% [0.0–79.3]) does not head the list above one
    whose whole interval is lower (4 right of 10: 40.0% [8.2–71.8]); with equal tops, the
    lower rate first."""
    from rich.console import Console

    from kglens_tui.analysis.kgwide_render import kg_wide_table_of

    def rate(right: int, wrong: int) -> KGWide:
        m, n = np.array([1] * right + [0] * wrong), np.array([0] * right + [1] * wrong)
        estimate = census_rate(m, n, 50)
        assert estimate is not None
        return KGWide(estimate, 0.5)

    once, measured, good = rate(0, 1), rate(4, 6), rate(9, 1)
    assert once.rate.win < measured.rate.win
    assert measured.rate.win_interval()[1] < once.rate.win_interval()[1]
    table = kg_wide_table_of({"asked once": once, "measured": measured, "good": good}, "t", "c")
    assert table is not None
    console = Console(width=120, record=True)
    console.print(table)
    text = console.export_text()
    assert text.index("measured") < text.index("asked once") < text.index("good")
