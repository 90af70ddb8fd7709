"""Helpers the annotation tests share (not a test module): a hand-built pair of rounds with
fixed votes (the snapshots' and others')."""

from __future__ import annotations

from pathlib import Path

from kglens_tui.annotate.adjudication import adjudicate
from kglens_tui.annotate.items import items_for_annotator
from kglens_tui.annotate.labels import flag_item, skip_item, submit_label
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.store.connection import connect

NAMES = ("ann1", "ann2", "ann3", "ann4", "ann5")


# Snapshots: a hand-built round, fully rated ('r1', two KGs, one adjudication) and one in
# progress ('r2'), with fixed times.
ITEMS = [
    ("country", "yes_no", "correct", "Is Vienna the capital of Austria?", [], None),
    ("country", "yes_no", "incorrect", "Do people in Tonga drive on the left?", [], None),
    ("country", "wh", "correct", "What is the capital of Germany?", [["Berlin"]], "Berlin."),
    (
        "country",
        "wh",
        "incorrect",
        "What currency is used in Australia (also known as Commonwealth of Australia)?",
        [["Australian Dollar", "AUD", "A$"]],
        "The currency of Australia is the AUD.",
    ),
    ("elements", "yes_no", "correct", "Is oxygen a noble gas?", [], None),
    ("elements", "yes_no", "correct", "Is the atomic number of carbon 6?", [], None),
    ("elements", "wh", "correct", "What is the chemical symbol of gold?", [["Au"]], "Au"),
    (
        "elements",
        "wh",
        "refused",
        "Which elements are gases at room temperature and standard pressure?",
        [["Hydrogen", "H"], ["Nitrogen", "N"], ["Oxygen", "O"], ["Helium", "He"]],
        "I'm sorry, I cannot answer that.",
    ),
    ("elements", "yes_no", "correct", "Is iron a metal?", [], None),
]
R1_CLEAR = ["yyyyy", "yynyy", "yyyyy", "yyyyy", "yyyyy", "nnyyn", "yy-yy", "yyyny", "yyyyy"]
R1_CORRECT = ["", "", "ccccc", "cccci", "", "", "cc-ii", "iiiii", ""]
WORDS = {"y": "yes", "n": "no", "c": "correct", "i": "incorrect"}


def _hand_db(db: Path) -> None:
    conn = connect(db)
    specs = [
        ItemSpec(kg=kg, qtype=q, app_verdict=v, question=text, answers=ans, response=resp)
        for kg, q, v, text, ans, resp in ITEMS
    ]
    r1 = create_round_from_items(conn, "r1", specs, annotators=NAMES, seed=1)
    ids = [r[0] for r in conn.execute("SELECT id FROM annotation_item ORDER BY id")]
    for n, item_id in enumerate(ids):
        for k, name in enumerate(NAMES):
            vote = R1_CLEAR[n][k]
            if vote == "-":
                skip_item(conn, item_id, name, seconds=4.0)
                continue
            correct = R1_CORRECT[n][k] if R1_CORRECT[n] else None
            submit_label(
                conn,
                item_id,
                name,
                question_clear=WORDS[vote],
                response_correct=WORDS[correct] if correct else None,
                seconds=8.0 + k,
            )
    flag_item(conn, ids[3], "ann2", "A$ is an alias too", seconds=3.0)
    adjudicate(
        conn,
        ids[6],
        reason="Au is the answer; the split vote came from a misread",
        adjudicator="lead",
        response_correct="correct",
    )
    create_round_from_items(conn, "r2", specs, annotators=NAMES, seed=2)
    mine = items_for_annotator(conn, 2, "ann2")
    for n, item in enumerate(mine[:-1]):
        if n >= 2 and mine[n].qtype == "wh":
            break  # ann2 stops before a Wh item
        if n == 1:
            skip_item(conn, item.item_id, "ann2", seconds=5.0)
        else:
            submit_label(
                conn,
                item.item_id,
                "ann2",
                question_clear="yes",
                response_correct="correct" if item.qtype == "wh" else None,
                seconds=20.0,
            )
    for item in items_for_annotator(conn, 2, "ann1"):
        response = "incorrect" if item.qtype == "wh" else None
        submit_label(
            conn, item.item_id, "ann1", question_clear="yes", response_correct=response, seconds=9
        )
    assert r1.id == 1
    conn.close()
