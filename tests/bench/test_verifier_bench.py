"""`kglens bench verifier`: the labelled set is sound, and the verifier reaches its targets on it
(a correctness test of the matcher against human labels, not a timing test)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

from kglens_tui.bench.verifier_bench import (
    DEFAULT_DATA,
    KIND_TARGET,
    KINDS,
    TARGETS,
    BenchDataError,
    Rivals,
    evaluate,
    load_cases,
    matcher_verdict,
    substring_verdict,
)
from kglens_tui.cli.main import main
from kglens_tui.core.question_type import WH, YES_NO


@pytest.fixture(scope="module")
def cases():
    return load_cases(DEFAULT_DATA)


@pytest.fixture(scope="module")
def bench(cases, rivals):
    return evaluate(cases, rivals, timed=False)


def test_labelled_set_has_real_replies_of_both_kgs_and_types(cases) -> None:
    real = [c for c in cases if not c.hand_written]
    assert len(real) >= 300
    assert {(c.kg, c.qtype) for c in real} == {
        ("country", WH),
        ("country", YES_NO),
        ("elements", WH),
        ("elements", YES_NO),
    }
    assert all(c.source.startswith("smollm2") for c in real)
    ids = Counter(c.id for c in cases)
    assert max(ids.values()) == 1
    labels = Counter((c.qtype, c.label) for c in cases)
    for qtype in (WH, YES_NO):
        for label in ("correct", "incorrect", "refused", "unparseable"):
            assert labels[(qtype, label)] > 0, (qtype, label)


def test_verifier_meets_its_targets_on_the_labelled_set(bench) -> None:
    yes_no = bench.by_qtype[YES_NO]
    assert yes_no.matcher == yes_no.n, "every Yes/No verdict must be the human label"
    wh = bench.by_qtype[WH]
    matchable = bench.without_gaps[WH]
    # the replies that name a true answer by a name the KG lacks are misses for any matcher
    # working from the KG's names; they are counted overall and left out here
    assert matchable.matcher / matchable.n >= TARGETS[WH]
    assert wh.n - matchable.n == bench.gaps
    assert wh.matcher / wh.n >= TARGETS[WH], "the target holds over every Wh reply, gaps included"
    assert bench.hedged.matcher == bench.hedged.n
    assert wh.matcher > wh.baseline and yes_no.matcher > yes_no.baseline


KNOWN_HAND_WRITTEN_MISSES: dict[str, str] = {}
"""Hand-written cases the verifier gets wrong, and why (docs/verdicts.md's bench counts them),
besides the gaps (whose right name no source has: their kg_gap says why)."""


def test_every_hand_written_case_gets_its_label(bench) -> None:
    wrong = {m.case.id for m in bench.misses if m.case.hand_written and not m.case.kg_gap}
    assert wrong == set(KNOWN_HAND_WRITTEN_MISSES)


def test_every_kind_of_hard_reply_meets_its_target(bench, cases) -> None:
    """Issue #34's kinds: at least 300 labelled replies, every kind covered by at least 25 and
    judged as the person did on 96% or more of them (without the few gaps: names no source has,
    each with its reason)."""
    kinds = [c for c in cases if c.kind]
    assert len(kinds) >= 300
    assert set(bench.by_kind) == set(KINDS)
    for kind, tally in bench.by_kind.items():
        assert tally.n >= 25, kind
        matchable = bench.by_kind_matchable[kind]
        assert matchable.matcher / matchable.n >= KIND_TARGET, kind
        assert matchable.matcher > matchable.baseline or kind == "near-miss", kind
    gaps = [c for c in kinds if c.kg_gap]
    assert len(gaps) <= 8 and all(c.label == "correct" for c in gaps)


def test_substring_baseline_is_plain(cases) -> None:
    sudan = next(c for c in cases if c.reply == "South Sudan and Chad.")
    assert (sudan.label, substring_verdict(sudan)) == ("incorrect", "correct")
    dont_know = next(c for c in cases if c.reply == "No, I don't know.")
    assert dont_know.label == "refused" and substring_verdict(dont_know) == "incorrect"


def _write(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "bench.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


GOOD = {
    "id": "x1",
    "source": "hand-written",
    "kg": "country",
    "predicate": "capital",
    "object_type": "city",
    "qtype": "wh",
    "question": "What is the capital of Australia?",
    "expected": "",
    "answers": [["Canberra"]],
    "reply": "Canberra.",
    "label": "correct",
    "hedged": False,
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"label": "right"}, "bench.jsonl:2: field 'label' must be one of"),
        ({"qtype": "why"}, "bench.jsonl:2: field 'qtype'"),
        ({"answers": "Canberra"}, "bench.jsonl:2: field 'answers'"),
        ({"hedged": "no"}, "bench.jsonl:2: field 'hedged' must be a bool"),
        ({"qtype": "yes_no", "expected": "maybe"}, "bench.jsonl:2: field 'expected'"),
    ],
)
def test_bad_records_name_file_line_and_field(tmp_path: Path, change: dict, message: str) -> None:
    path = _write(tmp_path, [GOOD, {**GOOD, "id": "x2", **change}])
    with pytest.raises(BenchDataError, match=message.replace("(", r"\(")):
        load_cases(path)


def test_the_time_per_reply_is_measured_only_when_asked(cases) -> None:
    few = cases[:5]
    timed = evaluate(few, Rivals([c.kg for c in few]))
    assert timed.matcher_us > 0 and timed.baseline_us > 0
    untimed = evaluate(few, Rivals([c.kg for c in few]), timed=False)
    assert (untimed.matcher_us, untimed.baseline_us) == (0.0, 0.0)
    assert untimed.by_qtype == timed.by_qtype


def test_cli_prints_rates_and_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, [GOOD, {**GOOD, "id": "x2", "reply": "Sydney.", "label": "incorrect"}])
    assert main(["bench", "verifier", "--data", str(path), "--misses"]) == 0
    out = capsys.readouterr().out
    assert "100.0% [" in out and "baseline" in out and "time per reply" in out
    broken = _write(tmp_path, [{**GOOD, "kg": "atlantis"}])
    assert main(["bench", "verifier", "--data", str(broken)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "atlantis" in err and "not bundled" in err
    # an installed package has no tests/data: the line says where the sets are (trial 3)
    assert main(["bench", "verifier", "--data", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "none.jsonl: no labelled set there" in err and "checkout" in err and "--data" in err


def test_sure_and_uncertain_verdicts_are_tallied_apart(rivals) -> None:
    """The bench counts the verdicts the rules are sure of apart from those marked uncertain
    (a judge's or a person's), and the sure "correct" verdicts of replies the person did not
    label correct; the CLI prints the uncertain share and that count."""
    cases = load_cases(DEFAULT_DATA.with_name("verifier_heldout18.jsonl"))[:240]
    result = evaluate(cases, rivals, timed=False)
    got = [(case, matcher_verdict(case, rivals)) for case in cases]
    unsure = [(c, g) for c, g in got if g.uncertain]
    assert 0 < len(unsure) < len(cases)
    assert result.unsure[WH].n == len(unsure)
    assert result.unsure[WH].matcher == sum(g.verdict.value == c.label for c, g in unsure)
    assert result.sure[WH].n + result.unsure[WH].n == result.by_qtype[WH].n
    assert result.sure[WH].matcher + result.unsure[WH].matcher == result.by_qtype[WH].matcher
    assert result.sure_false_correct == sum(
        not g.uncertain and g.verdict.value == "correct" and c.label != "correct" for c, g in got
    )


def test_the_cli_prints_the_uncertain_share(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, [GOOD, {**GOOD, "id": "x2", "reply": "Sydney.", "label": "incorrect"}])
    assert main(["bench", "verifier", "--data", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # "Sydney." names no city of the KG: incorrect, uncertain (it may be another name)
    assert "1 of 2 Wh verdicts (50.0% [" in out and "are marked uncertain" in out
    assert "0 sure verdicts say correct where the person did not" in out


def test_answers_carry_the_names_the_kg_has_now(cases) -> None:
    """A case stores the names its answer had when labelled; the bench, like a run, accepts every
    name the bundled KG gives that answer now (China's currency: renminbi, yuan)."""
    rivals = Rivals(["country", "elements"])
    china = next(c for c in cases if c.id == "c028")
    names = {n.casefold() for group in rivals.answers(china) for n in group}
    assert {"chinese yuan", "renminbi", "yuan"} <= names


def test_the_subject_asked_about_is_no_rival_on_the_bench(cases) -> None:
    """A run passes the subject's names to the verifier; the bench finds the subject in the
    question, so "Zambia gained independence from the United Kingdom" stays correct."""
    from kglens_tui.bench.verifier_bench import matcher_verdict

    rivals = Rivals(["country"])
    zambia = next(c for c in cases if c.id == "c094")
    assert rivals.subject(zambia)[0] == "Zambia"
    assert matcher_verdict(zambia, rivals).verdict.value == zambia.label == "correct"


def test_cases_of_one_id_in_two_sets_each_get_their_own_subject(cases, rivals) -> None:
    """Held-out sets reuse ids ("h001" in several): a `Rivals` shared by the sets finds each
    question's own subject."""
    zambia = next(c for c in cases if c.id == "c094")
    other = next(
        c
        for c in cases
        if c.kg == zambia.kg and rivals.subject(c) not in ((), rivals.subject(zambia))
    )
    again = dataclasses.replace(other, id=zambia.id)
    assert rivals.subject(zambia)[0] == "Zambia"
    assert rivals.subject(again) == rivals.subject(other) != rivals.subject(zambia)


HELD_OUT = DEFAULT_DATA.with_name("verifier_heldout.jsonl")
HELD_OUT_FLOOR = 0.946
"""Under rules 36: 248 of 262. Under rules 27: 247 of 262. The Wh agreement the once-held-out set (verifier_heldout.md) has reached (245 of 262 under
rules 11 and 12; 244 under rules 10; 243 under rules 8 and 9; 238 under rules 7): no rule change may
lower it."""


HELD_OUT_2 = DEFAULT_DATA.with_name("verifier_heldout2.jsonl")
HELD_OUT_2_FLOOR = 0.924
"""Under rules 27: 454 of 491. Under rules 16: 449 of 491. Before, the second held-out set's figure under rules 13 (448 of 491; 447 under rules 12; 441 under rules 11; 440 under rules 9 and 10, 439
under rules 8, 415 under rules 7, 77.0% blind under rules 6, see verifier_heldout2.md; rules 7
were made looking at its misses, so it is a regression set now): no rule change may lower it."""


HELD_OUT_3 = DEFAULT_DATA.with_name("verifier_heldout3.jsonl")
HELD_OUT_3_FLOOR = 0.957
"""Under rules 35: 478 of 499. Under rules 27: 476 of 499. The third held-out set's figure under rules 13 (472 of 499; 470 under rules 12; 467 under rules 11; 466 under rules 9 and 10, 464
under rules 8, 414 blind under rules 7, verifier_heldout3.md; rules 8 were made looking at its
misses, so it is a regression set now): no rule change may lower it."""


HELD_OUT_4 = DEFAULT_DATA.with_name("verifier_heldout4.jsonl")
HELD_OUT_4_FLOOR = 0.941
"""Under rules 31: 502 of 533. Under rules 29: 501 of 533. Under rules 27: 500 of 533. Under rules 21: 495 of 533. Before, the fourth held-out set's figure under rules 13 (492 of 533; 491 under rules 12; 487 under rules 11; 483 under rules 9 and 10, 447
blind under rules 8, 423 under rules 7, verifier_heldout4.md; rules 9 were made looking at its
misses, so it is a regression set now): no rule change may lower it."""


HELD_OUT_5 = DEFAULT_DATA.with_name("verifier_heldout5.jsonl")
HELD_OUT_5_FLOOR = 0.944
"""Under rules 35: 492 of 521. Under rules 29: 491 of 521. Under rules 27: 490 of 521. Under rules 20: 488 of 521; 483 under rules 16. Before, the fifth held-out set's figure under rules 14 (482 of 521; 481 under rules 13; 479 under rules 12; 470 under rules 11; 468 under rules 10; blind: 443
under rules 9, 431 under rules 8, verifier_heldout5.md; rules 10 were made looking at its
misses, so it is a regression set now): no rule change may lower it."""


HELD_OUT_6 = DEFAULT_DATA.with_name("verifier_heldout6.jsonl")
HELD_OUT_6_FLOOR = 0.965
"""Under rules 35: 502 of 520. Under rules 27: 500 of 520. The sixth held-out set's figure under rules 13 (497 of 520; 496 under rules 12; 486 under rules 11; 475 blind
under rules 10, verifier_heldout6.md; rules 11 and 12 were made looking at its misses, so it is
a regression set now): no rule change may lower it."""


HELD_OUT_7 = DEFAULT_DATA.with_name("verifier_heldout7.jsonl")
HELD_OUT_7_FLOOR = 0.944
"""Under rules 29: 479 of 507. Under rules 28: 478 of 507. Under rules 27: 477 of 507. Under rules 21: 475 of 507. Under rules 16: 472 of 507. Before, the seventh held-out set's figure under rules 14 (471 of 507; 469 under rules 13); blind (verifier_heldout7.md,
written without the code): 447 under rules 11, 453 under rules 12 (made before the set was
read). Rules 13 were made looking at its misses, so it is a regression set now: no rule change
may lower it."""


HELD_OUT_8 = DEFAULT_DATA.with_name("verifier_heldout8.jsonl")
HELD_OUT_8_FLOOR = 0.926
"""Under rules 35: 466 of 503. Under rules 28: 464 of 503. Under rules 27: 462 of 503. Under rules 21: 455 of 503. Under rules 20: 453 of 503; 449 under rules 16. Before, the eighth held-out set's figure under rules 14 (448 of 503); blind (verifier_heldout8.md,
written without the code): 423 under rules 12, 424 under rules 13 (made before the set was
read). Rules 14 were made looking at its misses, so it is a regression set now: no rule change
may lower it."""


HELD_OUT_9 = DEFAULT_DATA.with_name("verifier_heldout9.jsonl")
HELD_OUT_9_FLOOR = 0.9
"""Under rules 36: 453 of 503. Under rules 35: 451 of 503. Under rules 28: 450 of 503. Under rules 27: 449 of 503. Under rules 21: 443 of 503. Under rules 20: 442 of 503; 428 under rules 16. Before, the ninth held-out set's figure under rules 15 (423 of 503); blind (verifier_heldout9.md,
written without the code): 406 under rules 12, 409 under rules 13, 415 under rules 14 (made
before the set was read). Rules 15 were made looking at its misses, so it is a regression set
now: no rule change may lower it."""


HELD_OUT_10 = DEFAULT_DATA.with_name("verifier_heldout10.jsonl")
HELD_OUT_10_FLOOR = 0.944
"""Under rules 27: 490 of 519. Under rules 25: 483 of 519. Under rules 21: 479 of 519. Under rules 20: 477 of 519; 476 under rules 17. Before, the tenth held-out set's blind figures
(verifier_heldout10.md, written without the code): 456 of 519 under rules 12, 462 under rules
14 and 15, 463 under rules 16 (made before the set was read). Rules 17 were made looking at its
misses, so it is a regression set now: no rule change may lower it."""


HELD_OUT_11 = DEFAULT_DATA.with_name("verifier_heldout11.jsonl")
HELD_OUT_11_FLOOR = 0.962
"""Under rules 35: 565 of 587. Under rules 28: 563 of 587. Under rules 27: 562 of 587. Under rules 20: 561 of 587; 560 under rules 18. Before, the eleventh held-out set's blind figures
(verifier_heldout11.md, written without the code): 531 of 587 under rules 12, 542 under rules 16
and 17 (made before the set was read). Rules 18 were made looking at its misses, so it is a
regression set now: no rule change may lower it."""


HELD_OUT_12 = DEFAULT_DATA.with_name("verifier_heldout12.jsonl")
HELD_OUT_12_FLOOR = 0.926
"""Under rules 36: 503 of 543. Under rules 35: 502 of 543. Under rules 31: 501 of 543. Under rules 29: 500 of 543. Under rules 28: 499 of 543. Under rules 27: 498 of 543. Under rules 25: 492 of 543. Under rules 20: 486 of 543; 484 under rules 19. Before, the twelfth held-out set's blind figures
(verifier_heldout12.md, written without the code): 447 of 543 under rules 12, 461 under rules
16, 463 under rules 17, 467 under rules 18 (made before the set was read). Rules 19 were made
looking at its misses, so it is a regression set now: no rule change may lower it."""


HELD_OUT_13 = DEFAULT_DATA.with_name("verifier_heldout13.jsonl")
HELD_OUT_13_FLOOR = 0.937
"""Under rules 29: 524 of 559. Under rules 28: 523 of 559. Under rules 27: 522 of 559. Under rules 25: 515 of 559. Under rules 24: 513 of 559. Under rules 21: 509. Under rules 20: 506. Before, the thirteenth held-out set's blind figures
(verifier_heldout13.md, written without the code): 481 of 559 under rules 12, 491 under rules
16, 492 under rules 17, 493 under rules 18, 497 under rules 19 (made before the set was read).
Rules 20 were made looking at its misses, so it is a regression set now: no rule change may
lower it."""


HELD_OUT_14 = DEFAULT_DATA.with_name("verifier_heldout14.jsonl")
HELD_OUT_14_FLOOR = 0.952
"""Under rules 35: 523 of 549. Under rules 28: 521 of 549. Under rules 27: 520 of 549. Under rules 25: 518 of 549. Under rules 21: 507 of 549. Before, the fourteenth held-out set's blind figures
(verifier_heldout14.md, written without the code): 497 of 549 under rules 19, 502 under rules
20 (made before the set was read). Rules 21 were made looking at its misses, so it is a
regression set now: no rule change may lower it (509 under rules 22 and 23, 515 under rules
24)."""


HELD_OUT_15 = DEFAULT_DATA.with_name("verifier_heldout15.jsonl")
HELD_OUT_15_FLOOR = 0.934
"""Under rules 36: 516 of 552. Under rules 28: 515 of 552. Under rules 27: 514 of 552. The fifteenth held-out set's blind figures (verifier_heldout15.md, written without the
code): 488 of 552 under rules 20 and under rules 21 (both made before the set was read). Rules
22 were made looking at its misses (501, and under rules 23; 506 under rules 24), so it is a
regression set now: no rule change may lower it (509 under rules 25)."""


HELD_OUT_16 = DEFAULT_DATA.with_name("verifier_heldout16.jsonl")
HELD_OUT_16_FLOOR = 0.898
"""Under rules 36: 503 of 560. Under rules 35: 502 of 560. Under rules 29: 501 of 560. Under rules 28: 500 of 560. Under rules 27: 498 of 560. The sixteenth held-out set's blind figures (verifier_heldout16.md, written without the
code): 459 of 560 under rules 23 and 463 under rules 24 (both made before the set was read).
Rules 25 were made looking at its misses (487; 490 under rules 26), so it is a regression set
now: no rule change may lower it."""


HELD_OUT_17 = DEFAULT_DATA.with_name("verifier_heldout17.jsonl")
HELD_OUT_17_FLOOR = 0.946
"""Under rules 35: 570 of 602. Under rules 28: 568 of 602. Under rules 27: 567 of 602. The seventeenth held-out set's blind figures (verifier_heldout17.md, written without the
code while rules 25 were being made): 526 of 602 under rules 24 and 531 under rules 25 (both
made before the set was read; rules 25's first cut scored 530, one reply lost to its reading of
an "or" sentence, fixed before it landed). Rules 26 were made looking at its misses (554), so
it is a regression set now: no rule change may lower it."""

HELD_OUT_18 = DEFAULT_DATA.with_name("verifier_heldout18.jsonl")
HELD_OUT_18_FLOOR = 0.927
"""Under rules 36: 654 of 705. Under rules 35: 653 of 705. Under rules 29: 652 of 705. Under rules 28: 645 of 705. The eighteenth held-out set's blind figures (verifier_heldout18.md, written without the
code): 629 of 705 under rules 26 (made before the set was written) and 635 under rules 27 (made
while it was being written, on the other sets' misses). Rules 28 were made looking at its misses,
so it is a regression set now: no rule change may lower it."""
HELD_OUT_19 = DEFAULT_DATA.with_name("verifier_heldout19.jsonl")
HELD_OUT_19_FLOOR = 0.913
"""Under rules 36: 643 of 704. Under rules 35: 641 of 704. Under rules 32: 638 of 704 (635 under rules 30 alone). The nineteenth held-out set's blind
figures (verifier_heldout19.md, written without the code): 620 of 704 under rules 28 and 623
under rules 29. Rules 30 were made looking at its misses, so it is a regression set now: no rule
change may lower it."""

HELD_OUT_20 = DEFAULT_DATA.with_name("verifier_heldout20.jsonl")
HELD_OUT_20_FLOOR = 0.931
"""Under rules 32: 650 of 698 (r468 "¿?" relabelled unparseable, rules 29's ruling). The
twentieth held-out set's blind figures (verifier_heldout20.md, written without the code): 628 of
698 under rules 29 and 631 under rules 30. Rules 31 and 32 were made looking at its misses, so it
is a regression set now: no rule change may lower it."""

HELD_OUT_21 = DEFAULT_DATA.with_name("verifier_heldout21.jsonl")
HELD_OUT_21_FLOOR = 0.910
"""Under rules 38: 628 of 690. Under rules 36: 625 of 690. Under rules 35: 623 of 690. The twenty-first held-out set (verifier_heldout21.md, written without the code), blind: 621 of
690 under rules 30, 31 and 32 alike (none was made looking at it)."""

HELD_OUT_22 = DEFAULT_DATA.with_name("verifier_heldout22.jsonl")
HELD_OUT_22_FLOOR = 0.926
"""Under rules 38: 579 of 625. Under rules 37: 578 of 625. Under rules 36: 577 of 625. The twenty-second held-out set (verifier_heldout22.md, written without the code), blind: 573
of 625 under rules 32 and 33 alike (none was made looking at it)."""

HELD_OUT_23 = DEFAULT_DATA.with_name("verifier_heldout23.jsonl")
HELD_OUT_23_FLOOR = 0.925
"""Under rules 37: 613 of 662. Under rules 36: 612 of 662 (scored once, after the rules were made). Under rules 35: 611 of 662. The twenty-third held-out set (verifier_heldout23.md, written without the code), blind: 609
of 662 under rules 33; its sure verdicts 531 of 547, 17.4% uncertain."""

HELD_OUT_24 = DEFAULT_DATA.with_name("verifier_heldout24.jsonl")
HELD_OUT_24_FLOOR = 0.933
"""Under rules 36: 620 of 664 (scored once, after the rules were made). The twenty-fourth held-out set (verifier_heldout24.md, written without the code), blind: 616
of 664 under rules 34; its sure verdicts 526 of 541, 18.5% uncertain."""

HELD_OUT_25 = DEFAULT_DATA.with_name("verifier_heldout25.jsonl")
HELD_OUT_25_FLOOR = 0.958
"""The twenty-fifth held-out set (verifier_heldout25.md, written without the code), blind: 625
of 657 under rules 35 and 627 under rules 36 (made while it was written, blind to it), 630 under rules 37 (made looking at it); its sure
verdicts 542 of 556 and 542 of 555, 15.4% and 15.5% uncertain."""

HELD_OUT_26 = DEFAULT_DATA.with_name("verifier_heldout26.jsonl")
HELD_OUT_26_FLOOR = 0.909
"""The twenty-sixth held-out set (verifier_heldout26.md, written without the code), blind: 580
of 653 under rules 36 and under rules 37 (made while it was written, blind to it); its sure
verdicts 481 of 507 and 482 of 508, 22.4% and 22.2% uncertain. Under rules 38 (made
looking at its misses): 594 of 653, sure verdicts 497 of 521, 20.2% uncertain."""

HELD_OUT_27 = DEFAULT_DATA.with_name("verifier_heldout27.jsonl")
HELD_OUT_27_FLOOR = 0.917
"""The twenty-seventh held-out set (verifier_heldout27.md, written without the code), blind: 615
of 670 under rules 38; its sure verdicts 518 of 534, 20.3% uncertain."""

ORDINARY = DEFAULT_DATA.with_name("verifier_ordinary.jsonl")
ORDINARY_FLOOR = 0.994
"""Ordinary replies (verifier_ordinary.md): 1,148 of 1,154 under rules 38, 1,147 under rules 24, 1,145 under rules 21, 1,140 under rules 20
(1,088 under rules 19, which rules 20 were made looking at). Not blind, a guard:
a rule for hard replies must not cost plain ones (rules 18 judged 51 of them wrongly)."""


HELD_OUT_SETS = [
    (HELD_OUT, 250, HELD_OUT_FLOOR),
    (HELD_OUT_2, 480, HELD_OUT_2_FLOOR),
    (HELD_OUT_3, 490, HELD_OUT_3_FLOOR),
    (HELD_OUT_4, 530, HELD_OUT_4_FLOOR),
    (HELD_OUT_5, 520, HELD_OUT_5_FLOOR),
    (HELD_OUT_6, 520, HELD_OUT_6_FLOOR),
    (HELD_OUT_7, 500, HELD_OUT_7_FLOOR),
    (HELD_OUT_8, 500, HELD_OUT_8_FLOOR),
    (HELD_OUT_9, 500, HELD_OUT_9_FLOOR),
    (HELD_OUT_10, 500, HELD_OUT_10_FLOOR),
    (HELD_OUT_11, 580, HELD_OUT_11_FLOOR),
    (HELD_OUT_12, 540, HELD_OUT_12_FLOOR),
    (HELD_OUT_13, 550, HELD_OUT_13_FLOOR),
    (HELD_OUT_14, 540, HELD_OUT_14_FLOOR),
    (HELD_OUT_15, 550, HELD_OUT_15_FLOOR),
    (HELD_OUT_16, 560, HELD_OUT_16_FLOOR),
    (HELD_OUT_17, 600, HELD_OUT_17_FLOOR),
    (HELD_OUT_18, 700, HELD_OUT_18_FLOOR),
    (HELD_OUT_19, 700, HELD_OUT_19_FLOOR),
    (HELD_OUT_20, 690, HELD_OUT_20_FLOOR),
    (HELD_OUT_21, 690, HELD_OUT_21_FLOOR),
    (HELD_OUT_22, 620, HELD_OUT_22_FLOOR),
    (HELD_OUT_23, 660, HELD_OUT_23_FLOOR),
    (HELD_OUT_24, 660, HELD_OUT_24_FLOOR),
    (HELD_OUT_25, 650, HELD_OUT_25_FLOOR),
    (HELD_OUT_26, 650, HELD_OUT_26_FLOOR),
    (HELD_OUT_27, 670, HELD_OUT_27_FLOOR),
    (ORDINARY, 1150, ORDINARY_FLOOR),
]
SETS = [path for path, _, _ in HELD_OUT_SETS]


SURE = {
    "verifier_ordinary": (1.0, 0),
    "verifier_heldout": (0.951, 2),
    "verifier_heldout2": (0.978, 0),
    "verifier_heldout3": (0.99, 2),
    "verifier_heldout4": (0.978, 4),
    "verifier_heldout5": (0.972, 8),
    "verifier_heldout6": (0.995, 1),
    "verifier_heldout7": (0.985, 1),
    "verifier_heldout8": (0.972, 2),
    "verifier_heldout9": (0.941, 12),
    "verifier_heldout10": (0.985, 3),
    "verifier_heldout11": (0.992, 0),
    "verifier_heldout12": (0.988, 1),
    "verifier_heldout13": (1.0, 0),
    "verifier_heldout14": (1.0, 0),
    "verifier_heldout15": (0.997, 1),
    "verifier_heldout16": (0.997, 0),
    "verifier_heldout17": (1.0, 0),
    "verifier_heldout18": (0.991, 0),
    "verifier_heldout19": (0.979, 1),
    "verifier_heldout20": (0.989, 1),
    "verifier_heldout21": (0.961, 8),
    "verifier_heldout22": (0.970, 4),
    "verifier_heldout23": (0.972, 6),
    "verifier_heldout24": (0.979, 3),
    "verifier_heldout25": (0.981, 2),
    "verifier_heldout26": (0.953, 4),
    "verifier_heldout27": (0.97, 6),
}
"""Rules 33 and 34: per set, the floor of the share of sure verdicts (not marked uncertain) that
agree with the person, and the most sure "correct" verdicts of replies not labelled correct (what
a run without a judge stands on: docs/verdicts.md, "Rules 33" and "Rules 34"; rules 34 raised the
floors of the sets they improved, none was lowered). A rule may mark more verdicts uncertain, not
make a sure one wrong."""


@pytest.mark.parametrize(("path", "size", "floor"), HELD_OUT_SETS)
def test_the_held_out_sets_do_not_fall_back(path, size: int, floor: float, rivals) -> None:
    cases = load_cases(path)
    assert len(cases) >= size and {c.qtype for c in cases} == {WH}
    result = evaluate(cases, rivals, timed=False)  # only the figures
    wh = result.by_qtype[WH]
    assert wh.matcher / wh.n >= floor, (wh.matcher, wh.n)
    sure_floor, false_correct = SURE[path.stem]
    sure = result.sure[WH]
    assert sure.matcher / sure.n >= sure_floor, (sure.matcher, sure.n)
    assert result.sure_false_correct <= false_correct
