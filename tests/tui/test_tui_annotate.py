"""The annotation screens driven with Pilot: five annotators rate a small round sampled from a
simulated run, and Table 4 and the agreement figures match values worked out by hand; then an
adjudication; and `kglens serve`'s server (built, never started). Snapshots of these screens:
tests/tui/test_tui_layout.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from annotate_support import NAMES, _hand_db
from conftest import wait_for
from textual.widgets import DataTable, Input, Select
from tui_support import LARGE, SMALL, make_default_app, notices_of

from kglens_tui.annotate.agreement import round_results
from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.labels import label_history, submit_label
from kglens_tui.annotate.progress import progress
from kglens_tui.annotate.rounds import ItemSpec, create_round, create_round_from_items
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.config import RunConfig
from kglens_tui.runs.runner import prepare, run_blocking
from kglens_tui.serve import access_note, app_command, is_loopback, make_server
from kglens_tui.store.connection import connect
from kglens_tui.tui.screens.annotate import AnnotateScreen, FlagScreen
from kglens_tui.tui.screens.annotate_adjudication import AdjudicationScreen, DecisionScreen
from kglens_tui.tui.screens.annotate_home import (
    AnnotationEntry,
    AnnotatorPickScreen,
    RoundsScreen,
)
from kglens_tui.tui.screens.annotate_report import ReportScreen

pytestmark = pytest.mark.tui

# The Pilot round: three Yes/No items and three Wh items of a simulated run. The app judged W1
# and W3 correct and W2 incorrect. Votes of ann1..ann5: y/n = the intent is clear yes/no,
# c/i = the response is correct/incorrect, "-" = skipped.
CLEAR = {"Y1": "yyyyy", "Y2": "yyyny", "Y3": "yyyn-", "W1": "nnnyy", "W2": "nnyny", "W3": "yyyyn"}
CORRECT = {"W1": "ccccc", "W2": "iiiic", "W3": "iiicc"}
# Majorities (3 of 5): Y1 Y2 Y3 W3 clear, W1 W2 not clear (3 no each); responses: W1 correct
# (app correct: agree), W2 incorrect (app incorrect: agree), W3 incorrect (app correct: disagree).
# QG = 4/6; Wh 1/3 (W3); Yes/No 3/3; QAV = 2/3; QG+QAV = Y1 Y2 Y3 = 3/6 (W3 is clear but the
# app disagrees with the humans).
#
# Krippendorff's alpha (nominal), 1 - (n - 1) * D_o / D_e, from the coincidence matrix:
#   question clear, values per item (yes, no): Y1 (5, 0), Y2 (4, 1), Y3 (3, 1), W1 (2, 3),
#   W2 (2, 3), W3 (4, 1); o_yn = 4*1/4 + 3*1/3 + 2*3/4 + 2*3/4 + 4*1/4 = 6; n_yes = 20,
#   n_no = 9, n = 29: alpha = 1 - 28 * (2 * 6) / (2 * 20 * 9) = 1 - 336/360 = 1/15.
#   response correct (correct, incorrect): W1 (5, 0), W2 (1, 4), W3 (2, 3);
#   o_ci = 1*4/4 + 2*3/4 = 2.5; n_c = 8, n_i = 7, n = 15: alpha = 1 - 14 * 5 / 112 = 3/8.
# Percent agreement (agreeing pairs / pairs): clear 10+6+3+4+4+6 of 10+10+6+10+10+10 = 33/56;
#   correct 10+6+4 of 30 = 2/3.
# Cohen's kappa ann1 vs ann5 on clarity, over the 5 items both rated (ann5 skipped Y3):
#   ann1 y y n n y, ann5 y y y y n: observed 2/5; expected (3*4 + 2*1)/25 = 14/25;
#   kappa = (2/5 - 14/25) / (1 - 14/25) = -4/11.
ALPHA_CLEAR, ALPHA_CORRECT = 1 / 15, 3 / 8


def _sim_round(db: Path) -> dict[int, str]:
    """Store a simulated run and a round of six of its observations; item id -> role."""
    conn = connect(db)
    config = RunConfig(
        kg="country",
        subset="paper16",
        target="sim",
        difficulty="hard",
        iterations=2,
        batch_size=16,
    )
    run_blocking(prepare(conn, config=config))
    rows = conn.execute("SELECT id, qtype, category FROM observation ORDER BY id").fetchall()
    yes_no = [r["id"] for r in rows if r["qtype"] == "yes_no"]
    right = [r["id"] for r in rows if r["qtype"] == "wh" and r["category"] == "correct"]
    wrong = [r["id"] for r in rows if r["qtype"] == "wh" and r["category"] == "incorrect"]
    roles = {
        yes_no[0]: "Y1",
        yes_no[1]: "Y2",
        yes_no[2]: "Y3",
        right[0]: "W1",
        wrong[0]: "W2",
        right[1]: "W3",
    }
    create_round(conn, "pilot", observation_ids=list(roles), per_kg=None, annotators=NAMES)
    by_item = {
        r[0]: roles[r[1]] for r in conn.execute("SELECT id, observation_id FROM annotation_item")
    }
    conn.close()
    return by_item


async def _annotate(db: Path, k: int, roles: dict[int, str]) -> None:
    """Annotator k rates every item of the round with the keys, as a person would."""
    name = NAMES[k]
    app = make_default_app(db, AnnotationEntry("pilot", name))
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        assert screen.done_count() == 0
        await pilot.press("g")  # guidelines read: hide them
        for _ in range(len(roles)):
            item = screen.item
            role = roles[item.item_id]
            if k == 0 and role == "Y1":  # a slip: No, then back, undo, and Yes
                await pilot.press("n")
                assert screen.item.item_id != item.item_id
                await pilot.press("left")
                assert screen.item.item_id == item.item_id
                await wait_for(pilot, lambda: screen.pending == 0)
                await pilot.press("u")
                await wait_for(pilot, lambda: screen.pending == 0)
                assert screen.state_of(item).question_clear is None
            if k == 2 and role == "W3":
                await pilot.press("f")
                assert isinstance(app.screen, FlagScreen)
                app.screen.query_one(Input).value = "the answer has few aliases"
                await pilot.press("enter")
                assert app.screen is screen
            vote = CLEAR[role][k]
            if vote == "-":
                await pilot.press("s")
                continue
            await pilot.press(vote)
            if role.startswith("W"):
                assert screen.item.item_id == item.item_id  # waits for the second answer
                await pilot.press("c" if CORRECT[role][k] == "c" else "x")
        await wait_for(pilot, lambda: screen.pending == 0)
        assert screen.done_count() == len(roles)
        assert "All 6 items done" in str(screen.query_one("#ann-state").render())


@pytest.fixture
def sim_round(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    db = tmp_path / "w.db"
    return db, _sim_round(db)


async def test_five_annotators_then_report_and_adjudication(
    sim_round: tuple[Path, dict[int, str]],
) -> None:
    db, roles = sim_round
    for k in range(len(NAMES)):
        await _annotate(db, k, roles)

    conn = connect(db)
    res = round_results(conn, "pilot")
    by_role = {roles[i.item_id]: i for i in res.items}
    assert [res_col.name for res_col in res.table4] == ["country", "Overall"]
    overall = res.table4[-1]
    assert (overall.items, overall.wh, overall.yes_no) == (6, 3, 3)
    assert (overall.qg, overall.qg_wh, overall.qg_yes_no, overall.qav, overall.qg_qav) == (
        pytest.approx((4 / 6, 1 / 3, 1.0, 2 / 3, 3 / 6))
    )
    assert res.agreement["question_clear"].alpha == pytest.approx(ALPHA_CLEAR)
    assert res.agreement["response_correct"].alpha == pytest.approx(ALPHA_CORRECT)
    assert res.agreement["question_clear"].percent == pytest.approx(33 / 56)
    assert res.agreement["response_correct"].percent == pytest.approx(2 / 3)
    assert res.agreement["question_clear"].kappa[0][4] == pytest.approx(-4 / 11)
    assert [roles[i.item_id] for i in res.disagreements] == ["W3"]
    assert res.flagged == [(by_role["W3"].item_id, "ann3", "the answer has few aliases")]
    slip = [r.action for r in label_history(conn, by_role["Y1"].item_id, "ann1")]
    assert slip == ["label", "undo", "label"]
    rows = progress(conn, "pilot")
    assert [(p.done, p.total, p.skipped) for p in rows] == [(6, 6, 0)] * 4 + [(6, 6, 1)]
    assert all(p.seconds > 0 for p in rows)  # time per item is recorded

    # the coordinator: home, a, r shows the same figures; enter adjudicates the disagreement
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await pilot.press("r")
        assert isinstance(app.screen, ReportScreen)
        await wait_for(pilot, lambda: app.screen.loaded)  # read on a worker
        t4 = app.screen.query_one("#ann-t4", DataTable)
        cells = [str(t4.get_row_at(r)[2]) for r in range(5)]
        assert all(" n=" in c and "[" in c for c in cells)  # each rate with its interval and n
        assert [c.split()[0] for c in cells] == [
            "66.7%",
            "33.3%",
            "100.0%",
            "66.7%",
            "50.0%",
        ]
        agree = app.screen.query_one("#ann-agree", DataTable)
        assert [str(agree.get_row_at(r)[2]) for r in range(2)] == ["0.067", "0.375"]
        assert [str(agree.get_row_at(r)[3]) for r in range(2)] == ["58.9%", "66.7%"]
        kappa = app.screen.query_one("#ann-kappa-question_clear", DataTable)
        assert str(kappa.get_row_at(0)[5]) == "— n=5"  # too few shared items for a kappa
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, AdjudicationScreen) and app.screen.loaded
        )
        assert app.screen.selected().item_id == by_role["W3"].item_id
        await pilot.press("d")
        decision = app.screen
        assert isinstance(decision, DecisionScreen)
        decision.query_one("#adj-correct", Select).value = "correct"
        decision.query_one("#adj-name", Input).value = "lead"
        await pilot.press("ctrl+s")  # no reason: refused with a message
        await wait_for(pilot, lambda: "reason" in str(decision.query_one("#adj-error").render()))
        decision.query_one("#adj-reason", Input).value = "the reply names the capital's alias"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, AdjudicationScreen))
        await wait_for(pilot, lambda: "lead" in str(app.screen.query_one("#adj-decision").render()))

    res = round_results(conn, "pilot")
    overall = res.table4[-1]
    assert (overall.qav, overall.qg_qav) == pytest.approx((1.0, 4 / 6))  # W3 now agrees
    assert res.disagreements == []
    conn.close()


async def test_report_screen_rates_only_items_with_a_majority(tmp_path: Path) -> None:
    # was: the items not labelled yet counted as not clear, QG 2 of 10 = 20.0%
    db = tmp_path / "w.db"
    conn = connect(db)
    specs = [
        ItemSpec(kg="country", qtype="yes_no", app_verdict="correct", question=f"Q{n}?")
        for n in range(10)
    ]
    create_round_from_items(conn, "partial", specs, annotators=NAMES)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY position")]
    for item_id, vote in zip(ids[:3], ("yes", "yes", "no"), strict=True):
        for name in NAMES:
            submit_label(conn, item_id, name, question_clear=vote)
    conn.close()
    app = make_default_app(db)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen))
        t4 = app.screen.query_one("#ann-t4", DataTable)
        await wait_for(pilot, lambda: t4.row_count == 6)
        cells = [str(t4.get_row_at(r)[1]) for r in range(5)]
        assert cells[0] == "66.7% [20.8–93.9] n=3"  # QG: 2 clear of the 3 items with a majority
        assert [c.split()[0] for c in cells] == [
            "66.7%",
            "—",  # no Wh item
            "66.7%",
            "—",
            "66.7%",
        ]


async def test_annotators_only_never_reach_results(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    app = make_default_app(db, AnnotationEntry())
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        for key in ("r", "d", "escape"):
            await pilot.press(key)
            assert isinstance(app.screen, RoundsScreen)
        await pilot.press("down", "enter")  # round r2; then: who are you?
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotatorPickScreen))
        await wait_for(pilot, lambda: app.screen.loaded)
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        assert (screen.round_id, screen.annotator) == (2, "ann3")
        text = " ".join(str(w.render()) for w in screen.query("Static"))
        assert "refused" not in text and "ann1" not in text  # blind
        await pilot.press(*(("y", "c") if screen.item.asks_response else ("y",)))
    # the label given just before quitting is stored
    conn = connect(db)
    assert sum(i.done for i in items_for_annotator(conn, 2, "ann3")) == 1
    conn.close()


def test_cli_annotate_tui_rejects_unknown_names(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    assert main(["--db", str(db), "annotate", "tui", "nope"]) == 2
    assert "no annotation round 'nope'" in capsys.readouterr().err
    assert main(["--db", str(db), "annotate", "tui", "r1", "--annotator", "zed"]) == 2
    assert "annotators: ann1, ann2" in capsys.readouterr().err


def test_serve_builds_a_localhost_server(tmp_path: Path) -> None:
    server = make_server(tmp_path / "w.db", round_ref="r1")
    assert (server.host, server.port) == ("127.0.0.1", 8000)
    assert server.command.endswith(f"--db {tmp_path / 'w.db'} annotate tui r1")
    assert "only the link above opens it" in access_note(server)
    assert "ssh -L 8000:localhost:8000" in access_note(server)
    assert app_command(Path("x.db")).split()[1:3] == ["-m", "kglens_tui.cli"]
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0")


HOSTILE_REPLIES = {
    "newlines": "No" + "\n" * 200 + "after newlines",
    "empty": "",
    "long": "I'm sorry, I cannot answer that. " * 80,
}


def _hostile_round(db: Path) -> None:
    conn = connect(db)
    specs = [
        ItemSpec(
            kg="country",
            qtype="wh",
            app_verdict="correct",
            question=f"What is the capital of Country {n}?",
            answers=[["Capital", "Cap"], ["Old capital"]],
            response=reply,
        )
        for n, reply in enumerate(HOSTILE_REPLIES.values())
    ]
    create_round_from_items(conn, "hostile", specs, annotators=NAMES[:3], seed=1)
    conn.close()


def _in_view(screen, selector: str) -> bool:
    """The widget is shown, inside the item's box and on the screen."""
    widget = screen.query_one(selector)
    item = screen.query_one("#ann-item")
    return (
        widget.display
        and widget.region.height > 0
        and item.region.contains_region(widget.region)
        and screen.region.contains_region(widget.region)
    )


async def test_at_80x24_a_hostile_reply_leaves_both_questions_in_view(tmp_path: Path) -> None:
    """A reply of 200 newlines shows as two short lines, an empty one as "(empty reply)", and a
    long one scrolls with the keys under the two questions, which stay in view throughout."""
    db = tmp_path / "w.db"
    _hostile_round(db)
    app = make_default_app(db, AnnotationEntry("hostile", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")  # guidelines read: show the item
        await wait_for(pilot, lambda: screen.query_one("#ann-item").display)
        item = screen.query_one("#ann-item")
        questions = ("#ann-q1", "#ann-q2", "#ann-state")

        def reply() -> str:
            return str(screen.query_one("#ann-response").render())

        for _ in HOSTILE_REPLIES:
            await pilot.pause()
            await wait_for(pilot, lambda: all(_in_view(screen, q) for q in questions))
            assert "y  Yes" in str(screen.query_one("#ann-q1").render())
            assert "x  Incorrect" in str(screen.query_one("#ann-q2").render())
            text = reply()
            if screen.item.response == HOSTILE_REPLIES["newlines"]:
                assert text == "AI's response\nNo\n\nafter newlines"
                assert _in_view(screen, "#ann-response") and item.max_scroll_y == 0
            elif screen.item.response == HOSTILE_REPLIES["empty"]:
                assert text == "AI's response\n(empty reply)"
                assert _in_view(screen, "#ann-response")
            else:
                top = screen.query_one("#ann-response").region.y
                assert item.region.y < top < screen.query_one("#ann-q1").region.y
                assert item.max_scroll_y > 0, "the long reply fits: nothing to scroll"
                await pilot.press("pagedown")
                await wait_for(pilot, lambda: item.scroll_y > 0)
                await pilot.press("end")
                await wait_for(pilot, lambda: item.scroll_y == item.max_scroll_y)
                assert text.rstrip().endswith("I cannot answer that.")
                assert all(_in_view(screen, q) for q in questions)
                await pilot.press("left", "right")  # another item opens at its top
                await wait_for(pilot, lambda: item.scroll_y == 0)
            await pilot.press("right")


async def test_a_chosen_answer_reads_as_chosen(tmp_path: Path) -> None:
    """After y the first question reads "Yes ✔" (yellow while the second is open, green once
    saved), and the option not chosen is dimmed."""
    from rich.style import Style

    from kglens_tui.tui.screens.annotate import CLEAR_OPTIONS, question_line

    db = tmp_path / "w.db"
    _hostile_round(db)
    app = make_default_app(db, AnnotationEntry("hostile", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        first = screen.item
        await pilot.press("g")
        # y counts once the question's end has been on screen (a busy machine lays out late)
        await wait_for(pilot, lambda: first is not None and screen.seen(first, "question"))
        await pilot.press("y")
        q1 = screen.query_one("#ann-q1")
        await wait_for(pilot, lambda: "Yes ✔" in str(q1.render()))
        assert "…" not in str(q1.render())
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.item is not first)
        await pilot.press("left")
        await wait_for(pilot, lambda: "Correct ✔" in str(screen.query_one("#ann-q2").render()))
        assert "Yes ✔" in str(q1.render())

    for saved, colour in ((False, "yellow"), (True, "green")):
        line = question_line(1, "Clear?", CLEAR_OPTIONS, "yes", saved)
        assert "Yes ✔" in line.plain
        start = line.plain.index("Yes ✔")
        styles = [Style.parse(str(s.style)) for s in line.spans if s.start <= start < s.end]
        assert any(s.bold and s.color and s.color.name == colour for s in styles), styles
        no = line.plain.index(" No")
        assert any(Style.parse(str(s.style)).dim for s in line.spans if s.start <= no + 1 < s.end)


async def _click_option(pilot, screen, selector: str, label: str) -> None:
    """Click an answer's chip (its key and label) in a question line."""
    widget = screen.query_one(selector)
    line = str(widget.render()).split("\n")[1]
    x = widget.styles.padding.left + line.index(f" {label}") + 1
    await pilot.click(widget, offset=(x, widget.styles.padding.top + 1))


async def test_a_click_on_an_answer_chip_stores_it_as_its_key_does(tmp_path: Path) -> None:
    """Mouse on the annotation chips: a click on "No" answers the first question, one on
    "Incorrect" the second; the label is stored as with n and x."""
    db = tmp_path / "w.db"
    _hostile_round(db)
    app = make_default_app(db, AnnotationEntry("hostile", "ann1"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        first = screen.item
        assert first is not None and first.asks_response
        await pilot.press("g")  # the guidelines aside: the item whole
        q1, q2 = screen.query_one("#ann-q1"), screen.query_one("#ann-q2")
        await wait_for(pilot, lambda: q1.region.height > 0 and q2.region.height > 0)
        await wait_for(pilot, lambda: screen.seen(first, "question"))
        await wait_for(pilot, lambda: screen.seen(first, "response"))
        await _click_option(pilot, screen, "#ann-q1", "No")
        await wait_for(pilot, lambda: "No ✔ (draft)" in str(q1.render()))
        await _click_option(pilot, screen, "#ann-q2", "Incorrect")
        await wait_for(pilot, lambda: screen.pending == 0 and screen.item is not first)
    conn = connect(db)
    stored = label_history(conn, first.item_id, "ann1")[-1].state
    conn.close()
    assert (stored.question_clear, stored.response_correct) == ("no", "incorrect")


async def test_a_bound_annotator_can_open_only_their_own_items(tmp_path: Path) -> None:
    """`annotate tui r2 --annotator ann2 --bound` (a `kglens serve --per-annotator` link): the
    app opens ann2's items of r2, and back on the rounds no other round or name can be chosen."""
    db = tmp_path / "w.db"
    _hand_db(db)
    app = make_default_app(db, AnnotationEntry("r2", "ann2", bound=True))
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        assert (app.screen.round_id, app.screen.annotator) == (2, "ann2")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundsScreen) and app.screen.loaded)
        table = app.screen.query_one("#ann-rounds-table")
        assert table.row_count == 1  # r2 alone
        assert "ann2" in str(app.screen.query_one("#ann-banner").render())
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        assert (app.screen.round_id, app.screen.annotator) == (2, "ann2")  # no one to pick


def test_cli_bound_needs_the_round_and_the_annotator(tmp_path: Path, capsys) -> None:
    db = tmp_path / "w.db"
    _hand_db(db)
    assert main(["--db", str(db), "annotate", "tui", "r1", "--bound"]) == 2
    assert capsys.readouterr().err.strip() == "error: --bound needs the ROUND and --annotator"


async def test_undo_on_an_unlabelled_item_steps_back_through_the_last_labels(
    sim_round: tuple[Path, dict[int, str]],
) -> None:
    """Two Yes/No items answered (the screen moves on to the third); u there goes back to the
    second and undoes it, u again to the first: the annotator's last labels, latest first."""
    db, roles = sim_round
    app = make_default_app(db, AnnotationEntry("pilot", NAMES[0]))
    async with app.run_test(size=LARGE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AnnotateScreen) and app.screen.loaded)
        screen = app.screen
        await pilot.press("g")
        answered = []
        while len(answered) < 2:
            item = screen.item
            if roles[item.item_id].startswith("Y"):
                answered.append(item.item_id)
                await pilot.press("y")
            else:
                await pilot.press("right")
        await wait_for(pilot, lambda: screen.pending == 0)
        third = screen.item
        assert third.item_id not in answered and screen.state_of(third).question_clear is None
        for expected in reversed(answered):
            await pilot.press("u")
            assert screen.item.item_id == expected
            await wait_for(pilot, lambda: screen.pending == 0)
            assert screen.state_of(screen.item).question_clear is None
        await pilot.press("u")  # nothing of this window's left: the item's own undo says so
        await wait_for(pilot, lambda: any("Nothing to undo" in n.message for n in notices_of(app)))
    conn = connect(db)
    for item_id in answered:
        assert [r.action for r in label_history(conn, item_id, NAMES[0])] == ["label", "undo"]
