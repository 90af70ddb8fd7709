"""An item's adjudication status from hand-built votes: 'disagrees' only when a human majority
on the response differs from the app, 'ok' as soon as the missing labels cannot change a majority
that agrees with the app, 'pending' while they could, 'no majority' when all labels are in."""

from __future__ import annotations

from kglens_tui.annotate.adjudication import Adjudication
from kglens_tui.annotate.agreement import ItemResult, judge_item, table4_column
from kglens_tui.annotate.labels import LabelState

FIVE = ("a1", "a2", "a3", "a4", "a5")
WORD = {"y": "yes", "n": "no", "c": "correct", "i": "incorrect", "-": None}


def wh(clear: str, correct: str, app: str = "correct", flag: str = "") -> ItemResult:
    """A Wh item rated by the first len(clear) of five annotators (3 of 5 majority); 's' in
    `clear` is a skip, a name in `flag` flagged it."""
    labels = {
        name: LabelState(
            question_clear=None if c == "s" else WORD[c],
            response_correct=None if c == "s" else WORD[r],
            skipped=c == "s",
            flag=name == flag,
        )
        for name, c, r in zip(FIVE, clear, correct, strict=False)
    }
    return judge_item(
        item_id=1, qtype="wh", app_verdict=app, labels=labels, assigned=FIVE, threshold=3
    )


def yes_no(clear: str) -> ItemResult:
    labels = {
        name: LabelState(question_clear=WORD[c]) for name, c in zip(FIVE, clear, strict=False)
    }
    return judge_item(
        item_id=2, qtype="yes_no", app_verdict="correct", labels=labels, assigned=FIVE, threshold=3
    )


def test_voters_agreeing_with_the_app_without_a_majority_yet_are_pending() -> None:
    item = wh("yy", "cc")  # two of five, both agree with the app
    assert item.app_agrees is None
    assert item.status == "pending"
    assert item.clarity == "undecided"


def test_a_settled_majority_agreeing_with_the_app_is_ok() -> None:
    item = wh("yyy", "ccc")  # 3 of 5: the two missing votes cannot overturn it
    assert item.app_agrees is True
    assert item.settled
    assert item.status == "ok"
    assert item.clarity == "clear"


def test_a_majority_the_missing_votes_could_still_change_is_pending() -> None:
    # a 2-vote majority of 5 raters: 2 yes so far, and the 3 missing votes could make 'no' win
    loose = judge_item(
        item_id=3,
        qtype="yes_no",
        app_verdict="correct",
        labels={"a1": LabelState(question_clear="yes"), "a2": LabelState(question_clear="yes")},
        assigned=FIVE,
        threshold=2,
    )
    assert loose.clear_majority == "yes"
    assert loose.status == "pending"
    assert wh("yyyn", "ccci").status == "ok"  # 3 to 1 with one vote missing: 3 to 2 at worst
    assert yes_no("yyy").status == "ok"


def test_a_majority_against_the_app_disagrees() -> None:
    item = wh("yyyyy", "iiicc")
    assert item.app_agrees is False
    assert item.status == "disagrees"
    assert not item.accurate


def test_all_labels_in_without_a_majority() -> None:
    item = wh("yynns", "ccii-")
    assert item.complete and item.undecided
    assert item.status == "no majority"


def test_a_flag_and_an_adjudication() -> None:
    assert wh("yy", "cc", flag="a2").status == "flagged"
    decided = judge_item(
        item_id=1,
        qtype="wh",
        app_verdict="correct",
        labels={},
        assigned=FIVE,
        threshold=3,
        adjudication=Adjudication(1, 1, "yes", "correct", "obvious", "lead", ""),
    )
    assert (decided.status, decided.clarity, decided.app_agrees) == ("decided", "clear", True)


def test_table4_leaves_an_item_without_a_final_label_out_of_its_rates() -> None:
    # was: the first item (two labels of five, no majority) counted as not clear / not agreeing,
    # halving QG, QAV and QG+QAV; it is not counted until it has a majority
    column = table4_column("x", [wh("yy", "cc"), wh("yyy", "ccc")])
    assert (column.qg, column.qav, column.qg_qav) == (1.0, 1.0, 1.0)
    assert [column.rates[r].n for r in ("qg", "qg_wh", "qg_yes_no", "qav", "qg_qav")] == [
        1,
        1,
        0,
        1,
        1,
    ]
    assert column.qg_yes_no is None  # nothing to rate
    # clear by 3 of 5 but the response has no majority yet: counted in QG, not in QAV / QG+QAV
    split = table4_column("y", [wh("yyyy", "ccii"), wh("yyy", "ccc")])
    assert (split.rates["qg"].k, split.rates["qg"].n) == (2, 2)
    assert (split.rates["qav"].n, split.rates["qg_qav"].n) == (1, 1)
