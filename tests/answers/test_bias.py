"""Answer bias, bias-corrected scores and random baselines on hand-built observation sets."""

from __future__ import annotations

import math

import pytest

from kglens_tui.answers.bias import random_baseline, win_probability, yes_no_bias
from kglens_tui.core.intervals import wilson


def test_always_no_model_is_at_chance_and_flagged() -> None:
    pairs = [("yes", "No.")] * 40 + [("no", "No, it is not.")] * 60
    bias = yes_no_bias(pairs)
    assert bias.yes_rate.value == 0.0
    assert bias.accuracy.value == 0.6  # looks decent...
    assert bias.accuracy_expected_yes.value == 0.0
    assert bias.accuracy_expected_no.value == 1.0
    assert bias.balanced_accuracy == 0.5  # ...but it is chance
    assert bias.kappa == 0.0
    assert bias.biased
    assert "answer bias" in bias.warning() and "says No to 100%" in bias.warning()


def test_knowledgeable_model_is_not_flagged() -> None:
    pairs = (
        [("yes", "Yes.")] * 45 + [("yes", "No.")] * 5 + [("no", "No.")] * 40 + [("no", "Yes.")] * 10
    )
    bias = yes_no_bias(pairs)
    assert bias.balanced_accuracy == pytest.approx((45 / 50 + 40 / 50) / 2)
    # kappa by hand: p_o = 0.85; expected yes 0.5, given yes 0.55 -> p_e = 0.5*0.55 + 0.5*0.45 = 0.5
    assert bias.kappa == pytest.approx((0.85 - 0.5) / 0.5)
    assert not bias.biased and bias.warning() == ""


def test_replies_without_yes_or_no_are_not_counted_as_answers() -> None:
    bias = yes_no_bias([("yes", "I'm sorry, I cannot help."), ("no", "No.")])
    assert (bias.answered, bias.unparsed) == (1, 1)


def test_paper_baselines_for_one_ask_per_edge() -> None:
    easy = random_baseline([["yes_no"]] * 10)
    assert easy.win_rate == 0.5 and easy.per_question == 0.5
    hard = random_baseline([["yes_no"]] * 5 + [["wh"]] * 5)
    assert hard.win_rate == 0.25 and hard.per_question == 0.25


def test_baseline_for_the_actual_mix_of_asks() -> None:
    # edge 1: two Yes/No asks -> P(m > n) = P(2 right) = 1/4; zero-sense 1/4; all-sense 1/4
    # edge 2: Yes/No then Wh -> m > n impossible (needs 2 right, Wh never right) = 0; P(m=0)=1/2
    # edge 3: three Yes/No asks -> P(m >= 2) = 4/8 = 1/2; P(m=0) = 1/8; P(n=0) = 1/8
    b = random_baseline([["yes_no", "yes_no"], ["yes_no", "wh"], ["yes_no"] * 3])
    assert b.win_rate == pytest.approx((0.25 + 0 + 0.5) / 3)
    assert b.zero_sense == pytest.approx((0.25 + 0.5 + 0.125) / 3)
    assert b.all_sense == pytest.approx((0.25 + 0 + 0.125) / 3)
    assert b.per_question == pytest.approx(0.5 * 6 / 7)  # six Yes/No asks of seven


def test_win_probability_and_wilson_interval_by_hand() -> None:
    assert win_probability([0.5]) == 0.5
    assert win_probability([1.0, 1.0, 0.0]) == 1.0
    assert win_probability([]) == 0.0
    p = wilson(8, 10)
    lo, hi = p.low, p.high
    # Wilson 95%: centre (0.8 + z^2/20) / (1 + z^2/10), z = 1.959964 (the one interval module)
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.8 * 0.2 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (lo, hi) == pytest.approx((centre - half, centre + half))
    assert wilson(0, 0).low is None


class AlwaysNo:
    """A target that answers "No." to everything, like SmolLM2-135M does."""

    label = "always-no (test)"
    simulated = False

    async def complete(self, request):
        from kglens_tui.llm.base import Completion

        return Completion("No.", 10, 2, 0.0)

    async def aclose(self) -> None:
        return None


def test_report_and_live_snapshot_show_the_bias_warning(conn) -> None:
    from rich.console import Console

    from kglens_tui.analysis.report_render import render_report
    from kglens_tui.answers.bias import bias_from_counts
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    engine = prepare(
        conn,
        config=RunConfig(kg="country", subset="paper16", iterations=3, batch_size=32),
        target=AlwaysNo(),
    )
    snap = run_blocking(engine)
    live = bias_from_counts(snap.yes_no)
    assert live.yes_rate.value == 0.0 and live.balanced_accuracy == 0.5 and live.biased
    console = Console(record=True, width=140)
    render_report(conn, engine.run.id, console)
    text = console.export_text()
    assert "yes-rate (replies starting with yes)" in text and "0.0% [" in text
    assert "balanced accuracy (chance = 0.50)" in text and "0.50" in text
    assert "answer bias: the model says No to 100%" in text
    assert "chance under this" in text and "chance, independent" in text
    assert "Yes/No answers per region of the subject" in text and "Europe" in text
    # `kglens probe`'s lines under its progress bar, its final frame among them, say it too:
    # they showed a KG-wide win beside chance and no word of the bias (trial 3)
    from kglens_tui.modes.kglens.mode import KGLensMode

    lines = KGLensMode.progress_lines(snap)
    assert lines[-1].startswith("answer bias: the model says No to 100%")
    assert lines[0].startswith("KG-wide win ")


def test_vectorised_baseline_equals_the_per_edge_one() -> None:
    import numpy as np

    from kglens_tui.answers.bias import baseline_from_counts

    asks = [["yes_no", "yes_no"], ["yes_no", "wh"], ["yes_no"] * 3, ["wh"], ["yes_no"], []]
    yn = np.array([sum(t == "yes_no" for t in a) for a in asks])
    wh = np.array([sum(t == "wh" for t in a) for a in asks])
    fast, slow = baseline_from_counts(yn, wh), random_baseline(asks)
    for name in ("per_question", "win_rate", "zero_sense", "all_sense"):
        assert getattr(fast, name) == pytest.approx(getattr(slow, name)), name


def reference_win_probability(p_success: list[float]) -> float:
    """The pure-Python convolution win_probability used to be (the reference for exactness)."""
    dist = [1.0]
    for p in p_success:
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    asks = len(p_success)
    return sum(mass for k, mass in enumerate(dist) if k > asks - k)


def test_win_probability_equals_the_reference_to_the_last_bit_on_random_inputs() -> None:
    import random

    rng = random.Random(20240614)
    for _ in range(300):
        n = rng.choice([rng.randrange(0, 12), rng.randrange(12, 160)])
        probs = [rng.choice([rng.random(), 0.5, 0.0, 1.0]) for _ in range(n)]
        assert win_probability(probs) == reference_win_probability(probs), probs


def test_guess_wins_equal_the_reference_in_any_order_of_asks() -> None:
    import random

    from kglens_tui.answers.bias import guess_win_probability

    rng = random.Random(7)
    # rows are built from kept smaller ones: ask for counts going up, down and far apart
    counts = [rng.randrange(0, 300) for _ in range(120)] + list(range(400, 330, -7))
    for yes_no in counts:
        wh = rng.randrange(0, 40)
        probs = [0.5] * yes_no + [0.0] * wh
        rng.shuffle(probs)
        expected = reference_win_probability(probs)
        assert guess_win_probability(yes_no, wh) == expected, (yes_no, wh)
        assert guess_win_probability(yes_no, wh) == expected  # memoised, unchanged


def test_baseline_from_counts_equals_the_reference_loop_exactly() -> None:
    import numpy as np

    from kglens_tui.answers.bias import baseline_from_counts

    rng = np.random.default_rng(5)
    for _ in range(20):
        n = int(rng.integers(1, 400))
        yn = rng.integers(0, int(rng.integers(1, 60)), n)
        wh = rng.integers(0, 6, n) * (rng.random(n) < 0.4)
        seen = (yn + wh) > 0
        pairs, freq = np.unique(np.stack((yn[seen], wh[seen]), axis=1), axis=0, return_counts=True)
        win = zero = all_sense = 0.0
        for (y, w), f in zip(pairs.tolist(), freq.tolist(), strict=True):
            win += f * reference_win_probability([0.5] * y + [0.0] * w)
            zero += f * 0.5**y
            all_sense += f * (0.5**y if w == 0 else 0.0)
        got = baseline_from_counts(yn, wh)
        if not seen.any():
            assert got.win_rate is None
            continue
        total = int(freq.sum())
        assert (got.win_rate, got.zero_sense, got.all_sense) == (
            win / total,
            zero / total,
            all_sense / total,
        )


def test_a_wh_guess_is_the_predicates_most_common_true_object() -> None:
    """QA: "United Nations" is true of every member_of subject and "right" of most driving
    sides, so a blind guesser wins those Wh questions; 0% was no chance level."""
    import numpy as np

    from kglens_tui.answers.bias import constant_answers, constant_right
    from kglens_tui.kg.bundled import ensure_kg
    from kglens_tui.kg.graph import load_kg
    from kglens_tui.store.connection import connect

    conn = connect(":memory:")
    ensure_kg(conn, "country")
    kg = load_kg(conn, "country")
    answers = constant_answers(kg)
    by_key = {kg.pred_keys[p]: kg.labels[o] for p, o in answers.items()}
    assert by_key["member_of"] == "United Nations" and by_key["driving_side"] == "right"
    member = np.flatnonzero(kg.p == kg.pred_keys.index("member_of"))
    assert constant_right(kg, member).all()
    side = constant_right(kg, np.flatnonzero(kg.p == kg.pred_keys.index("driving_side")))
    assert 0.65 < side.mean() < 0.8


def test_the_constant_counts_only_active_edges(conn, tiny_kg_dir) -> None:
    from kglens_tui.answers.bias import constant_answers
    from kglens_tui.kg.graph import load_kg
    from kglens_tui.kg.importers import import_kg

    import_kg(conn, tiny_kg_dir, "tiny")
    kg = load_kg(conn, "tiny")
    by_key = {kg.pred_keys[p]: kg.labels[o] for p, o in constant_answers(kg).items()}
    # member_of is not active; German is the language of two subjects, right of two
    assert by_key == {
        "capital": by_key["capital"],
        "official_language": "German",
        "driving_side": "right",
    }


def test_baseline_with_constant_wh_answers_by_hand() -> None:
    # edge 1: a Wh ask the constant gets right -> win 1, zero-sense 0, all-sense 1
    # edge 2: a Wh ask it gets wrong -> win 0, zero-sense 1, all-sense 0
    # edge 3: Yes/No then a right Wh -> m > n needs the coin right: 1/2; never m = 0; n = 0: 1/2
    b = random_baseline([["wh"], ["wh"], ["yes_no", "wh"]], [True, False, True])
    assert b.win_rate == pytest.approx((1 + 0 + 0.5) / 3)
    assert b.zero_sense == pytest.approx((0 + 1 + 0) / 3)
    assert b.all_sense == pytest.approx((1 + 0 + 0.5) / 3)
    assert b.per_question == pytest.approx((1 + 0 + 0.5 + 1) / 4)


def test_baseline_with_right_wh_asks_equals_the_reference_loop_exactly() -> None:
    import numpy as np

    from kglens_tui.answers.bias import baseline_from_counts, guess_win_probability

    rng = np.random.default_rng(11)
    for _ in range(20):
        n = int(rng.integers(1, 300))
        yn = rng.integers(0, int(rng.integers(1, 40)), n)
        wh = rng.integers(0, 6, n)
        right = rng.random(n) < 0.5
        seen = (yn + wh) > 0
        win = zero = all_sense = 0.0
        for y, w, r in zip(yn[seen].tolist(), wh[seen].tolist(), right[seen].tolist(), strict=True):
            hit = w if r else 0
            probs = [0.5] * y + [0.0] * (w - hit) + [1.0] * hit
            assert guess_win_probability(y, w - hit, hit) == reference_win_probability(probs)
            win += reference_win_probability(probs)
            zero += 0.5**y if hit == 0 else 0.0
            all_sense += 0.5**y if hit == w else 0.0
        got = baseline_from_counts(yn, wh, right)
        if not seen.any():
            continue
        total = int(seen.sum())
        assert got.win_rate == pytest.approx(win / total, abs=1e-12)
        assert got.zero_sense == pytest.approx(zero / total)
        assert got.all_sense == pytest.approx(all_sense / total)
        asks = int(yn.sum() + wh.sum())
        assert got.per_question == pytest.approx((0.5 * yn.sum() + wh[right].sum()) / asks)
