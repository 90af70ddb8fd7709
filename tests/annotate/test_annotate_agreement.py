"""A hand-built round rated by five annotators: majority votes, the paper's Table 4, Krippendorff's
alpha, Cohen's kappa and percent agreement against values worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from kglens_tui.annotate.adjudication import adjudicate
from kglens_tui.annotate.agreement import (
    cohen_kappa,
    item_result,
    majority,
    nominal_alpha,
    percent_agreement,
    round_results,
)
from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items

NAMES = ("A", "B", "C", "D", "E")

# (kg, qtype, app verdict, question_clear votes A..E, response_correct votes A..E)
# y/n = yes/no, c/i = correct/incorrect, "-" = skipped by that annotator.
ROUND = [
    ("country", "yes_no", "correct", "yyyny", ""),  # 1: clear (4 yes)
    ("country", "yes_no", "incorrect", "nnyny", ""),  # 2: not clear (3 no)
    ("country", "wh", "correct", "yyyyy", "cccii"),  # 3: humans correct = app
    ("nba", "wh", "incorrect", "yynyn", "cccci"),  # 4: humans correct, app incorrect
    ("nba", "wh", "refused", "yyyy-", "iici-"),  # 5: humans incorrect = app (refused)
    ("nba", "yes_no", "correct", "ynyny", ""),  # 6: clear (3 yes)
]
WORDS = {"y": "yes", "n": "no", "c": "correct", "i": "incorrect"}


def nominal_alpha_by_hand(units: list[list[str]]) -> float:
    """Krippendorff's nominal alpha from the coincidence matrix, independent of the package:
    o_ck = sum_u pairs(c, k in u) / (m_u - 1); alpha = 1 - (n - 1) sum_{c!=k} o_ck / sum_{c!=k} n_c n_k.
    """
    o: Counter = Counter()
    for values in units:
        if len(values) < 2:
            continue
        for x, y in itertools.permutations(values, 2):
            o[x, y] += Fraction(1, len(values) - 1)
    n_c: Counter = Counter()
    for (x, _y), v in o.items():
        n_c[x] += v
    n = sum(n_c.values())
    d_o = sum(v for (x, y), v in o.items() if x != y)
    d_e = sum(n_c[x] * n_c[y] for x in n_c for y in n_c if x != y)
    return float(1 - (n - 1) * d_o / d_e)


@pytest.fixture
def hand_round(conn):
    from kglens_tui.annotate.labels import skip_item, submit_label

    items = [
        ItemSpec(
            kg=kg,
            qtype=qtype,
            question=f"question {n}?",
            app_verdict=verdict,
            answers=[["Vienna", "Wien"]] if qtype == "wh" else [],
            response="It is Vienna." if qtype == "wh" else None,
        )
        for n, (kg, qtype, verdict, _, _) in enumerate(ROUND, start=1)
    ]
    rnd = create_round_from_items(conn, "hand", items, annotators=NAMES)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY position")]
    for item_id, (_, qtype, _, clear, correct) in zip(ids, ROUND, strict=True):
        for k, name in enumerate(NAMES):
            if clear[k] == "-":
                skip_item(conn, item_id, name, seconds=2.0)
                continue
            submit_label(
                conn,
                item_id,
                name,
                question_clear=WORDS[clear[k]],
                response_correct=WORDS[correct[k]] if qtype == "wh" else None,
                seconds=10.0,
            )
    return rnd, ids


def test_majority_vote_threshold_and_ties() -> None:
    assert majority(["yes"] * 3 + ["no"] * 2, 3) == "yes"
    assert majority(["yes"] * 2 + ["no"] * 2, 2) is None  # tie
    assert majority(["yes"] * 3 + ["no"], 4) is None  # 3 of 4 short of a threshold of 4
    assert majority(["yes"] * 4 + ["no"], 4) == "yes"
    assert majority([], 1) is None


def test_table4_figures_match_the_hand_worked_values(conn, hand_round) -> None:
    rnd, ids = hand_round
    res = round_results(conn, rnd.id)
    by_id = {i.item_id: i for i in res.items}
    assert [by_id[i].clear_majority for i in ids] == ["yes", "no", "yes", "yes", "yes", "yes"]
    assert [by_id[i].correct_majority for i in ids] == [
        None,
        None,
        "correct",
        "correct",
        "incorrect",
        None,
    ]
    assert [by_id[i].app_agrees for i in ids] == [None, None, True, False, True, None]

    cols = {c.name: c for c in res.table4}
    assert list(cols) == ["country", "nba", "Average", "Overall"]
    # country: items 1-3. QG: 1 and 3 clear = 2/3; Wh 1/1; Yes/No 1/2; QAV 1/1; QG+QAV {1, 3} = 2/3
    c = cols["country"]
    assert (c.items, c.wh, c.yes_no) == (3, 1, 2)
    assert (c.qg, c.qg_wh, c.qg_yes_no, c.qav, c.qg_qav) == pytest.approx((2 / 3, 1, 0.5, 1, 2 / 3))
    # nba: items 4-6, all clear; QAV: 4 disagrees, 5 agrees = 1/2; QG+QAV {5, 6} = 2/3
    c = cols["nba"]
    assert (c.qg, c.qg_wh, c.qg_yes_no, c.qav, c.qg_qav) == pytest.approx((1, 1, 1, 0.5, 2 / 3))
    # Average = mean of the KG columns (the paper's last column)
    c = cols["Average"]
    assert (c.qg, c.qg_wh, c.qg_yes_no, c.qav, c.qg_qav) == pytest.approx(
        (5 / 6, 1, 0.75, 0.75, 2 / 3)
    )
    # Overall = pooled: QG 5/6, Wh 3/3, Yes/No 2/3, QAV 2/3, QG+QAV 4/6
    c = cols["Overall"]
    assert (c.qg, c.qg_wh, c.qg_yes_no, c.qav, c.qg_qav) == pytest.approx(
        (5 / 6, 1, 2 / 3, 2 / 3, 2 / 3)
    )
    assert [i.item_id for i in res.disagreements] == [ids[3]]
    assert res.undecided == [] and res.pending == 0


def test_krippendorff_alpha_and_percent_agreement_by_hand(conn, hand_round) -> None:
    rnd, _ = hand_round
    res = round_results(conn, rnd.id)
    clear_units = [[WORDS[v] for v in row[3] if v != "-"] for row in ROUND]
    correct_units = [[WORDS[v] for v in row[4] if v != "-"] for row in ROUND if row[1] == "wh"]
    # question_clear, coincidences o_yy = 15.5, o_yn = o_ny = 5.5, o_nn = 2.5; n_y = 21, n_n = 8,
    # n = 29: alpha = 1 - 28 * 11 / (2 * 21 * 8) = 1 - 308 / 336 = 1/12
    assert nominal_alpha_by_hand(clear_units) == pytest.approx(1 / 12)
    assert res.agreement["question_clear"].alpha == pytest.approx(1 / 12)
    # response_correct (items 3-5): o_cc = 4.5, o_ci = o_ic = 3.5, o_ii = 2.5; n_c = 8, n_i = 6,
    # n = 14: alpha = 1 - 13 * 7 / (2 * 8 * 6) = 5/96
    assert nominal_alpha_by_hand(correct_units) == pytest.approx(5 / 96)
    assert res.agreement["response_correct"].alpha == pytest.approx(5 / 96)
    # agreeing pairs: question_clear 6+4+10+4+6+4 = 34 of 56; response_correct 4+6+3 = 13 of 26
    assert res.agreement["question_clear"].percent == pytest.approx(34 / 56)
    assert res.agreement["response_correct"].percent == pytest.approx(0.5)
    assert res.agreement["question_clear"].items == 6
    assert res.agreement["response_correct"].items == 3


def test_cohen_kappa_matrix_by_hand(conn, hand_round) -> None:
    rnd, _ = hand_round
    res = round_results(conn, rnd.id)
    clear = res.agreement["question_clear"]
    assert clear.annotators == NAMES
    k = clear.kappa
    assert [k[i][i] for i in range(5)] == [1.0] * 5
    assert all(k[a][b] == pytest.approx(k[b][a]) for a in range(5) for b in range(5))
    # A = y n y y y y, B = y n y y y n: p_o = 5/6, p_e = 5/6*4/6 + 1/6*2/6 = 11/18 -> 4/7
    assert k[0][1] == pytest.approx(4 / 7)
    # A vs E over the 5 items E rated: p_o = 3/5, p_e = (4/5)^2 + (1/5)^2 = 17/25 -> -1/4
    assert k[0][4] == pytest.approx(-0.25)
    # response_correct, A = c c i, D = i c i: p_o = 2/3, p_e = 4/9 -> 2/5
    assert res.agreement["response_correct"].kappa[0][3] == pytest.approx(0.4)


def test_agreement_helpers_edge_cases() -> None:
    assert cohen_kappa([None, None], ["yes", "no"]) is None  # nothing rated by both
    assert cohen_kappa(["yes", "yes"], ["yes", "yes"]) is None  # one value only: undefined
    assert cohen_kappa(["yes", "no"], ["no", "yes"]) == pytest.approx(-1.0)
    assert percent_agreement([["yes"], []]) is None
    assert nominal_alpha([["yes", "yes"], ["yes", "yes"]]) is None
    assert nominal_alpha([["yes", "no"], ["yes", "no"]]) == pytest.approx(1.0)


def test_adjudication_overrides_the_majority(conn, hand_round) -> None:
    rnd, ids = hand_round
    before = item_result(conn, rnd.id, ids[3])
    assert before.labels["E"].response_correct == "incorrect" and before.app_verdict == "incorrect"
    with pytest.raises(AnnotationError, match="reason"):
        adjudicate(conn, ids[3], response_correct="incorrect", reason=" ", adjudicator="lead")
    with pytest.raises(AnnotationError, match="Yes/No"):
        adjudicate(conn, ids[0], response_correct="correct", reason="x", adjudicator="lead")
    adjudicate(
        conn, ids[3], response_correct="incorrect", reason="reply names a city", adjudicator="lead"
    )
    res = round_results(conn, rnd.id)
    assert res.disagreements == []
    nba = next(c for c in res.table4 if c.name == "nba")
    assert nba.qav == pytest.approx(1.0)
    assert item_result(conn, rnd.id, ids[3]).adjudication.reason == "reply names a city"


def test_round_in_progress_counts_pending_items(conn) -> None:
    from kglens_tui.annotate.labels import submit_label

    items = [
        ItemSpec(kg="k", qtype="yes_no", question=f"q{n}?", app_verdict="correct") for n in range(3)
    ]
    rnd = create_round_from_items(conn, "partial", items, annotators=("a", "b", "c"), settings=None)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY position")]
    for name, vote in zip(("a", "b", "c"), ("yes", "no", "no"), strict=True):
        submit_label(conn, ids[0], name, question_clear=vote)
    # majority 3 of 3 by default here (3 annotators, per_kg None): item 1 has 2 no + 1 yes
    res = round_results(conn, rnd.id)
    assert res.pending == 2
    assert [i.item_id for i in res.undecided] == [ids[0]]


def _label_round(conn, rows, name: str = "partial"):
    """A round of (qtype, app verdict, clarity votes, response votes) rated by NAMES in order; a
    vote string shorter than five leaves the rest unlabelled, "-" is a skip."""
    from kglens_tui.annotate.labels import skip_item, submit_label

    items = [
        ItemSpec(
            kg="country",
            qtype=qtype,
            question=f"question {n}?",
            app_verdict=verdict,
            answers=[["Vienna"]] if qtype == "wh" else [],
            response="Vienna." if qtype == "wh" else None,
        )
        for n, (qtype, verdict, _, _) in enumerate(rows, start=1)
    ]
    rnd = create_round_from_items(conn, name, items, annotators=NAMES)
    ids = [
        r[0]
        for r in conn.execute(
            "SELECT id FROM annotation_item WHERE round_id = ? ORDER BY position", (rnd.id,)
        )
    ]
    for item_id, (qtype, _, clear, correct) in zip(ids, rows, strict=True):
        for k, vote in enumerate(clear):
            if vote == "-":
                skip_item(conn, item_id, NAMES[k])
                continue
            submit_label(
                conn,
                item_id,
                NAMES[k],
                question_clear=WORDS[vote],
                response_correct=WORDS[correct[k]] if qtype == "wh" else None,
            )
    return rnd, ids


# 1 clear; 2 not clear by 3 of 5 with two labels missing; 3 clear, response agrees with the app
# (3 of 5, two missing); 4 clear (3 of 5) but its response has no majority yet; 5 every label in,
# no majority; 6 not labelled at all.
PARTIAL = [
    ("yes_no", "correct", "yyyyy", ""),
    ("yes_no", "correct", "nnn", ""),
    ("wh", "correct", "yyy", "ccc"),
    ("wh", "correct", "yyy", "cci"),
    ("yes_no", "correct", "yynn-", ""),
    ("yes_no", "correct", "", ""),
]


def test_table4_rates_count_only_items_with_a_final_label(conn) -> None:
    from kglens_tui.core.intervals import wilson

    rnd, ids = _label_round(conn, PARTIAL)
    res = round_results(conn, rnd.id)
    overall = res.table4[-1]
    # was: every item counted, the ones without a majority as not clear / not agreeing (QG 3/6)
    got = {rate: (p.k, p.n) for rate, p in overall.rates.items()}
    assert got == {
        "qg": (3, 4),  # items 1-4 have their clarity: 1, 3, 4 clear
        "qg_wh": (2, 2),
        "qg_yes_no": (1, 2),
        "qav": (1, 1),  # item 3 only: item 4's response is undecided
        "qg_qav": (2, 3),  # items 1-3 have every final label; 1 and 3 are accurate
    }
    assert overall.rates["qg"] == wilson(3, 4)
    assert (overall.qg, overall.qav, overall.qg_qav) == pytest.approx((0.75, 1.0, 2 / 3))
    assert (res.not_counted, res.awaiting, res.pending) == (3, 2, 4)
    assert [i.item_id for i in res.undecided] == [ids[4]]
    assert res.not_counted_note() == (
        "Not counted yet: 3 of 6 items without a final label (a majority or an adjudication): "
        "2 still being labelled, 1 with every label in but no majority (adjudicate them)."
    )
    # the agreement figures compare the items at least two annotators labelled
    assert res.agreement["question_clear"].items == 5
    assert res.agreement["response_correct"].items == 2

    adjudicate(conn, ids[4], question_clear="yes", reason="plain enough", adjudicator="lead")
    overall = round_results(conn, rnd.id).table4[-1]
    assert (overall.rates["qg"].k, overall.rates["qg"].n) == (4, 5)
    assert (overall.rates["qg_qav"].k, overall.rates["qg_qav"].n) == (3, 4)


def test_table4_is_unchanged_and_has_no_note_when_every_item_is_labelled(conn, hand_round):
    rnd, _ = hand_round
    res = round_results(conn, rnd.id)
    assert res.not_counted == 0 and res.not_counted_note() is None
    overall = res.table4[-1]
    assert [overall.rates[r].n for r in ("qg", "qg_wh", "qg_yes_no", "qav", "qg_qav")] == [
        6,
        3,
        3,
        3,
        6,
    ]
    average = next(c for c in res.table4 if c.name == "Average")
    assert average.averaged and average.rates["qg"].low is None  # a mean: no interval


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    from kglens_tui.core.console import console, err_console

    for c in (console, err_console):
        monkeypatch.setattr(c, "width", 200)


def test_cli_report_shows_each_rate_with_its_n_and_interval(conn, wide, capsys) -> None:
    from kglens_tui.cli.main import main
    from kglens_tui.core.intervals import wilson
    from kglens_tui.textfmt import rate_ci

    rnd, _ = _label_round(conn, PARTIAL)
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", path, "annotate", "report", rnd.name]) == 0
    out = capsys.readouterr().out
    rows = {
        line.split("│")[1].strip(): line.split("│")[2:] for line in out.splitlines() if "│" in line
    }
    assert rows["QG"][0].strip() == f"{rate_ci(*wilson(3, 4).bounds)} n=4"
    assert rows["QAV (Wh)"][0].strip() == f"{rate_ci(*wilson(1, 1).bounds)} n=1"
    assert rows["QG+QAV"][0].strip() == f"{rate_ci(*wilson(2, 3).bounds)} n=3"
    assert "50.0%" not in rows["QG"][0]  # the old figure, 3 of all 6
    assert "Not counted yet: 3 of 6 items" in out
    assert "count as not clear" not in out
    assert "95% interval" in out


def test_cli_report_average_column_is_a_mean_without_interval(conn, hand_round, wide, capsys):
    from kglens_tui.cli.main import main
    from kglens_tui.core.intervals import wilson
    from kglens_tui.textfmt import rate_ci

    rnd, _ = hand_round
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", path, "annotate", "report", rnd.name]) == 0
    out = capsys.readouterr().out
    qg = next(line for line in out.splitlines() if line.startswith("│ QG  "))
    cells = [c.strip() for c in qg.split("│")[2:-1]]
    # country 2 of 3, nba 3 of 3, Average their mean (no interval), Overall 5 of 6
    assert cells == [
        f"{rate_ci(*wilson(2, 3).bounds)} n=3",
        f"{rate_ci(*wilson(3, 3).bounds)} n=3",
        "83.3% n=6",
        f"{rate_ci(*wilson(5, 6).bounds)} n=6",
    ]
    assert "Not counted yet" not in out
    assert "Average is the mean of the KG columns" in out


def test_kappa_matrix_shows_n_per_pair_and_no_kappa_over_too_few_items(conn, capsys) -> None:
    from kglens_tui.annotate.agreement import KAPPA_MIN_ITEMS
    from kglens_tui.annotate.labels import submit_label
    from kglens_tui.cli.main import main

    specs = [
        ItemSpec(kg="country", qtype="yes_no", question=f"Q{n}?", app_verdict="correct")
        for n in range(12)
    ]
    rnd = create_round_from_items(conn, "few", specs, annotators=NAMES)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY position")]
    # A labels 3 items only: its kappa with B over them is -0.5 (y n n against n y n:
    # p_o = 1/3, p_e = 5/9)
    votes = {
        "A": "ynn",
        "B": "nyn" + "ynynynynn",
        "C": "nyn" + "ynynynyny",
        "D": "yyy" + "yyyyyyyyy",
        "E": "yyy" + "yyyyyyyyy",
    }
    for name, given in votes.items():
        for item_id, vote in zip(ids, given, strict=False):
            submit_label(conn, item_id, name, question_clear=WORDS[vote])
    clear = round_results(conn, rnd.id).agreement["question_clear"]
    assert KAPPA_MIN_ITEMS == 10
    assert clear.shared[0] == [3, 3, 3, 3, 3] and clear.shared[1] == [3, 12, 12, 12, 12]
    assert clear.kappa[0][1] == pytest.approx(-0.5)  # computed, but over 3 items: not shown
    assert clear.shown_kappa(0, 1) is None
    assert clear.kappa_cell(0, 1) == "— n=3"
    assert clear.kappa_cell(0, 0) == "n=3" and clear.kappa_cell(1, 1) == "n=12"
    # B and C differ on the last item only: p_o = 11/12, p_e = (5*6 + 7*6) / 144 = 1/2 -> 5/6
    assert clear.kappa[1][2] == pytest.approx(5 / 6)
    assert clear.kappa_cell(1, 2) == f"{clear.kappa[1][2]:.3f} n=12"
    assert clear.kappa_cell(3, 4) == "n/a n=12"  # D and E said yes throughout: undefined
    assert clear.shown_kappa(3, 4) is None

    db = conn.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", db, "annotate", "report", "few"]) == 0
    out = capsys.readouterr().out
    # was: "-0.500" and "1.000" with no n
    assert "-0.500" not in out and "— n=3" in out and " n=12 " in out
    assert "under 10 such items" in " ".join(out.split())


def test_an_undefined_alpha_and_no_disagreement_are_said_in_words(conn, capsys) -> None:
    """Trial 2 (`annotate report r3`, every label the same): "Krippendorff α —" with 100.0%
    agreement and no note, and an empty "Majority disagrees with the app (0)" table. The cell
    says why α is undefined, a note under the table explains it, and one line says that no
    majority disagrees."""
    from kglens_tui.annotate.agreement import ALPHA_LEGEND, NO_DISAGREEMENT
    from kglens_tui.cli.main import main

    rows = [("wh", "correct", "yyyyy", "ccccc"), ("yes_no", "correct", "yyyyy", "")]
    rnd, _ = _label_round(conn, rows, name="same")
    clear = round_results(conn, rnd.id).agreement["question_clear"]
    assert clear.alpha is None and clear.one_value
    assert clear.alpha_cell() == "— (all labels agree)"
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", db, "annotate", "report", rnd.name]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "100.0%" in out and "— (all labels agree)" in out
    assert " ".join(ALPHA_LEGEND.split()) in out
    assert NO_DISAGREEMENT in out and "Majority disagrees with the app (" not in out


def test_a_defined_alpha_has_no_undefined_note(conn, capsys) -> None:
    """The α note and the none line only where they apply: a round whose majority disagrees
    with the app keeps its table, and its α has no note."""
    from kglens_tui.annotate.agreement import ALPHA_LEGEND, NO_DISAGREEMENT
    from kglens_tui.cli.main import main

    rows = [("wh", "correct", "yyyyy", "iiiic"), ("yes_no", "correct", "yyynn", "")]
    rnd, _ = _label_round(conn, rows, name="split")
    clear = round_results(conn, rnd.id).agreement["question_clear"]
    assert not clear.one_value and clear.alpha_cell() != "—"
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    assert main(["--db", db, "annotate", "report", rnd.name]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Majority disagrees with the app (1)" in out and NO_DISAGREEMENT not in out
    assert " ".join(ALPHA_LEGEND.split()) not in out and "all labels agree" not in out
