"""Packs for remote annotators: export then import is lossless and idempotent; a malformed or
tampered pack is rejected with a message naming file, line and field, and changes nothing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kglens_tui.annotate.errors import PackError
from kglens_tui.annotate.labels import current_label, flag_item, skip_item, submit_label
from kglens_tui.annotate.packs import ITEM_FIELDS, export_pack, import_pack
from kglens_tui.annotate.progress import item_seconds
from kglens_tui.annotate.rounds import ItemSpec, RoundSettings, create_round_from_items

NAMES = ("ann1", "ann2", "ann3", "ann4", "ann5")


def _items(n: int) -> list[ItemSpec]:
    return [
        ItemSpec(
            kg="country" if k < n // 2 else "elements",
            qtype="wh" if k % 2 else "yes_no",
            question=f"Question {k} about Österreich?",
            app_verdict=("correct", "incorrect", "refused")[k % 3],
            answers=[["Vienna", "Wien"], ["Graz"]] if k % 2 else [],
            response=f"Reply {k}" if k % 2 else None,
            expected="yes" if k % 4 == 0 else ("no" if k % 2 == 0 else ""),
        )
        for k in range(n)
    ]


@pytest.fixture
def rnd(conn):
    return create_round_from_items(conn, "remote", _items(6), annotators=NAMES)


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _fill(rows: list[dict]) -> list[dict]:
    """What a remote annotator does: fill in every label."""
    for n, row in enumerate(rows[1:]):
        wh = row["qtype"] == "wh"
        if n == 2:
            row["label"] = {"skipped": True, "seconds": 3.5}
        else:
            row["label"] = {
                "question_clear": "yes" if n % 3 else "no",
                "response_correct": ("correct" if n % 2 else "incorrect") if wh else None,
                "skipped": False,
                "flag": n == 4,
                "note": "alias missing" if n == 4 else "",
                "seconds": 10.0 + n,
            }
    return rows


def _labels(rows: list[dict]) -> dict[int, dict]:
    return {r["item"]: r["label"] for r in rows[1:]}


def test_export_never_includes_the_app_verdict(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "p.jsonl")
    text = path.read_text(encoding="utf-8")
    assert "verdict" not in text and "refused" not in text and "expected" not in text
    header, *lines = _read(path)
    assert header["round"] == rnd.id and header["annotator"] == "ann1" and header["items"] == 6
    assert "Annotation Guideline" in header["guidelines"]
    for line in lines:
        assert set(line) <= set(ITEM_FIELDS) and line["label"] is None
        assert ("answers" in line) == (line["qtype"] == "wh")


def test_export_then_import_is_lossless_and_idempotent(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "ann2", tmp_path / "pack.jsonl")
    filled = _write(path, _fill(_read(path)))
    summary = import_pack(conn, filled)
    assert (summary.applied, summary.unchanged, summary.unlabelled) == (6, 0, 0)
    for item_id, label in _labels(_read(filled)).items():
        state = current_label(conn, item_id, "ann2").state
        assert state.skipped == label.get("skipped", False)
        assert state.question_clear == label.get("question_clear")
        assert state.response_correct == label.get("response_correct")
        assert state.note == label.get("note", "") and state.flag == label.get("flag", False)
        assert item_seconds(conn, item_id, "ann2") == pytest.approx(label["seconds"])

    again = export_pack(conn, rnd.id, "ann2", tmp_path / "again.jsonl")
    exported = _labels(_read(again))
    for item_id, label in _labels(_read(filled)).items():
        full = {"question_clear": None, "response_correct": None, "flag": False, "note": ""}
        assert exported[item_id] == {**full, **label}

    dump = list(conn.iterdump())
    assert import_pack(conn, filled).applied == 0  # re-import: nothing changes
    assert import_pack(conn, again).applied == 0
    assert list(conn.iterdump()) == dump


def test_export_carries_labels_made_in_the_app(conn, rnd, tmp_path: Path) -> None:
    ids = [r[0] for r in conn.execute("SELECT id, qtype FROM annotation_item ORDER BY id")]
    submit_label(conn, ids[1], "ann3", question_clear="no", response_correct="correct", seconds=4)
    skip_item(conn, ids[0], "ann3", seconds=1)
    flag_item(conn, ids[0], "ann3", "unclear subject")
    labels = _labels(_read(export_pack(conn, rnd.id, "ann3", tmp_path / "p.jsonl")))
    assert labels[ids[1]] == {
        "question_clear": "no",
        "response_correct": "correct",
        "skipped": False,
        "flag": False,
        "note": "",
        "seconds": 4.0,
    }
    assert labels[ids[0]]["skipped"] and labels[ids[0]]["note"] == "unclear subject"
    assert labels[ids[2]] is None


def _mutate_item(k: int, fn: Callable[[dict], None]) -> Callable[[list[dict]], None]:
    def apply(rows: list[dict]) -> None:
        fn(rows[k])

    return apply


def _set_label(k: int, **fields) -> Callable[[list[dict]], None]:
    return _mutate_item(k, lambda row: row["label"].update(fields))


def _first(qtype: str, rows: list[dict]) -> int:
    return next(n for n, r in enumerate(rows) if n and r["qtype"] == qtype)


BAD_PACKS = {
    "unknown item": (
        _mutate_item(3, lambda r: r.update(item=9999)),
        4,
        "item",
        "unknown item #9999",
    ),
    "wrong annotator": (
        _mutate_item(0, lambda r: r.update(annotator="mallory")),
        1,
        "annotator",
        "no annotator 'mallory'",
    ),
    "annotator swapped": (
        _mutate_item(0, lambda r: r.update(annotator="ann3")),
        1,
        "items_sha256",
        "does not match",
    ),
    "invalid label": (
        _set_label(5, question_clear="maybe"),
        6,
        "label.question_clear",
        "must be 'yes' or 'no'",
    ),
    "unknown label field": (_set_label(2, confidence=3), 3, "label.confidence", "unknown field"),
    "negative seconds": (_set_label(2, seconds=-4), 3, "label.seconds", "from 0 to 86,400"),
    "infinite seconds": (
        _set_label(2, seconds=float("inf")),
        3,
        "label.seconds",
        "finite number of seconds from 0 to 86,400, a day per item (got inf)",
    ),
    # was: accepted, and progress showed "277777778h 06m recorded"
    "seconds beyond a day": (
        _set_label(3, seconds=1e12),
        4,
        "label.seconds",
        "from 0 to 86,400, a day per item (got 1000000000000.0)",
    ),
    "seconds as text": (_set_label(2, seconds="12"), 3, "label.seconds", "(got '12')"),
    "seconds as true": (_set_label(2, seconds=True), 3, "label.seconds", "(got True)"),
    "NaN seconds": (_set_label(4, seconds=float("nan")), 5, "label.seconds", "(got nan)"),
    "seconds too big for a float": (
        _set_label(2, seconds=10**400),
        3,
        "label.seconds",
        "finite number",
    ),
    "changed hash": (
        _mutate_item(0, lambda r: r.update(items_sha256=hashlib.sha256(b"x").hexdigest())),
        1,
        "items_sha256",
        "does not match",
    ),
    "edited question": (
        _mutate_item(2, lambda r: r.update(question="Is the moon made of cheese?")),
        3,
        "question",
        "differs from item",
    ),
    "duplicated line": (lambda rows: rows.append(dict(rows[1])), 8, "item", "appears twice"),
    "missing line": (lambda rows: rows.pop(), 1, "items", "the pack holds 5"),
    "unknown round": (
        _mutate_item(0, lambda r: r.update(round=77)),
        1,
        "round",
        "no annotation round 77",
    ),
    "not a pack": (_mutate_item(0, lambda r: r.update(format="csv")), 1, "format", "not a KGLens"),
    # was: stored, like every other text of a pack; round and annotator names refuse them
    "escape in a note": (
        _set_label(5, flag=True, note="see \x1b[31mred"),
        6,
        "label.note",
        "holds the control character U+001B",
    ),
    "newline inside a note": (
        _set_label(5, flag=True, note="two\nlines"),
        6,
        "label.note",
        "U+000A; a note may not hold escapes",
    ),
    "note not text": (_set_label(5, flag=True, note=7), 6, "label.note", "must be text"),
}


@pytest.mark.parametrize("case", sorted(BAD_PACKS))
def test_bad_packs_are_rejected_and_change_nothing(conn, rnd, tmp_path: Path, case: str) -> None:
    mutate, line, field, words = BAD_PACKS[case]
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    rows = _fill(_read(path))
    mutate(rows)
    _write(path, rows)
    before = list(conn.iterdump())
    with pytest.raises(PackError) as err:
        import_pack(conn, path)
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: field '{field}': "), message
    assert words in message and "\n" not in message
    assert list(conn.iterdump()) == before


def test_response_label_on_a_yes_no_item_is_rejected(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    rows = _fill(_read(path))
    k = _first("yes_no", rows)
    rows[k]["label"]["response_correct"] = "correct"
    _write(path, rows)
    with pytest.raises(PackError, match=rf":{k + 1}: field 'label.response_correct': .*Yes/No"):
        import_pack(conn, path)


def test_broken_json_line_is_rejected(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4][:-9]  # cut off mid-object
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = list(conn.iterdump())
    with pytest.raises(PackError, match=rf"^{path}:5: not valid JSON \("):
        import_pack(conn, path)
    assert list(conn.iterdump()) == before
    path.write_bytes(b"")
    with pytest.raises(PackError, match="empty pack"):
        import_pack(conn, path)
    with pytest.raises(PackError, match="cannot read"):
        import_pack(conn, tmp_path / "missing.jsonl")


def test_deeply_nested_line_is_rejected(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:-1] + ', "label": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = list(conn.iterdump())
    with pytest.raises(PackError, match=rf"^{path}:3: not valid JSON \(nested too deeply\)$"):
        import_pack(conn, path)
    assert list(conn.iterdump()) == before


def test_item_of_another_annotator_is_rejected(conn, tmp_path: Path) -> None:
    settings = RoundSettings(per_kg=None, majority=2, raters_per_item=2)
    rnd = create_round_from_items(conn, "split", _items(10), annotators=NAMES, settings=settings)
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    rows = _read(path)
    mine = {r["item"] for r in rows[1:]}
    other = next(r[0] for r in conn.execute("SELECT id FROM annotation_item") if r[0] not in mine)
    rows[1]["item"] = other
    _write(path, rows)
    with pytest.raises(
        PackError, match=rf":2: field 'item': item #{other} is not assigned to annotator 'ann1'"
    ):
        import_pack(conn, path)


def test_cli_export_and_import(conn, rnd, tmp_path: Path, capsys) -> None:
    from kglens_tui.cli.main import main

    db = conn.execute("PRAGMA database_list").fetchone()[2]
    out = tmp_path / "cli.jsonl"
    assert (
        main(["--db", db, "annotate", "export", "remote", "--annotator", "ann4", "-o", str(out)])
        == 0
    )
    _write(out, _fill(_read(out)))
    assert main(["--db", db, "annotate", "import", str(out)]) == 0
    assert "6 labels stored" in capsys.readouterr().out
    rows = _read(out)
    rows[1]["label"]["question_clear"] = "perhaps"
    _write(out, rows)
    assert main(["--db", db, "annotate", "import", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out}:2: field 'label.question_clear': must be 'yes' or 'no'")
    assert err.count("\n") == 1


def test_reimporting_an_older_pack_says_the_stored_label_was_kept(
    conn, rnd, tmp_path: Path, capsys
) -> None:
    from kglens_tui.cli.main import main

    db = conn.execute("PRAGMA database_list").fetchone()[2]
    first = export_pack(conn, rnd.id, "ann1", tmp_path / "first.jsonl")
    rows = _fill(_read(first))
    _write(first, rows)
    assert import_pack(conn, first).applied == 6
    # the annotator changes their mind on two items: in a second pack, and in the app
    rows[1]["label"]["question_clear"] = (
        "yes" if rows[1]["label"]["question_clear"] == "no" else "no"
    )
    second = _write(tmp_path / "second.jsonl", rows)
    assert import_pack(conn, second).applied == 1
    skip_item(conn, rows[2]["item"], "ann1")
    stored = {r["item"]: current_label(conn, r["item"], "ann1").state for r in rows[1:]}
    dump = list(conn.iterdump())

    summary = import_pack(conn, first)  # the stored labels are newer: kept
    # was: "0 labels stored, 6 unchanged" although two of them differ
    assert (summary.applied, summary.unchanged, summary.superseded) == (0, 4, 2)
    assert list(conn.iterdump()) == dump
    assert {i: current_label(conn, i, "ann1").state for i in stored} == stored

    assert main(["--db", db, "annotate", "import", str(first)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.endswith(
        "annotator ann1: 0 labels stored, 4 unchanged, 2 older than the stored label (this pack "
        "was imported before and the label changed since): kept the stored one, 0 not rated"
    ), out


def test_a_note_holding_a_lone_surrogate_is_one_line_and_changes_nothing(
    conn, rnd, tmp_path: Path
) -> None:
    """JSON may escape half an emoji ("\\ud83d"), which no SQLite text can hold."""
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    rows = _fill(_read(path))
    rows[2]["label"]["note"] = "nice \ud83d"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")  # escaped as \\ud83d
    before = list(conn.iterdump())
    with pytest.raises(PackError) as err:
        import_pack(conn, path)
    assert str(err.value) == (
        f"{path}:3: field 'label.note': holds a lone surrogate (half a character, e.g. of an emoji)"
    )
    assert list(conn.iterdump()) == before


def test_a_time_stored_beyond_a_day_by_an_older_version_exports_as_a_day(
    conn, rnd, tmp_path: Path
) -> None:
    """An older version accepted 1e12 seconds: its workspace still exports a pack the import
    takes back."""
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    _write(path, _fill(_read(path)))
    import_pack(conn, path)
    conn.execute(  # a later revision of one item's label, as an older version stored it
        "INSERT INTO annotation_label (item_id, annotator_id, revision, client_rev, action, "
        "question_clear, response_correct, skipped, flag, note, seconds) "
        "SELECT item_id, annotator_id, revision + 1, client_rev || '-old', action, "
        "question_clear, response_correct, skipped, flag, note, 1e12 FROM annotation_label "
        "ORDER BY id DESC LIMIT 1"
    )
    again = export_pack(conn, rnd.id, "ann1", tmp_path / "again.jsonl")
    labels = [r["label"] for r in _read(again) if r.get("label")]
    assert labels and max(lab["seconds"] for lab in labels) == 86_400.0
    import_pack(conn, again)  # refused before: "must be ... from 0 to 86,400"


EVERY_BREAK = (
    "".join(chr(c) for c in range(0x20))  # C0: NUL, tab, LF, VT, FF, CR, FS, GS, RS...
    + "\x7f"
    + "".join(chr(c) for c in range(0x80, 0xA0))  # C1, with NEL (U+0085)
    + "\u2028\u2029"  # line and paragraph separators
    + "\r\n"
)
"""Every character str.splitlines() splits at, and every other control character."""


def test_a_pack_with_every_line_break_and_control_character_round_trips(
    conn, tmp_path: Path
) -> None:
    """The pack the product writes is the pack it reads back, whatever its text holds: a JSON
    Lines file ends lines with \\n alone."""
    tricky = f"a{EVERY_BREAK}z"
    items = [
        ItemSpec(
            kg="country",
            qtype="wh",
            question=f"Question {tricky}?",
            app_verdict="correct",
            answers=[[f"Vienna{tricky}", "Wien"]],
            response=f"Reply {tricky}",
        ),
        ItemSpec(
            kg="country",
            qtype="yes_no",
            question=f"Is {tricky} a question?",
            app_verdict="incorrect",
            answers=[],
            response=None,
            expected="yes",
        ),
    ]
    rnd = create_round_from_items(
        conn, "breaks", items, annotators=("ann1",), settings=RoundSettings(majority=1)
    )
    ids = [
        row[0]
        for row in conn.execute(
            "SELECT id FROM annotation_item WHERE round_id = ? ORDER BY id", (rnd.id,)
        )
    ]
    note = f"note {tricky}"  # the Python API stores any note (older workspaces may hold one)
    submit_label(conn, ids[0], "ann1", question_clear="yes", response_correct="correct", seconds=4)
    submit_label(conn, ids[1], "ann1", question_clear="no", seconds=2)
    for item_id in ids:
        flag_item(conn, item_id, "ann1", note)
    path = export_pack(conn, rnd.id, "ann1", tmp_path / "pack.jsonl")
    text = path.read_text(encoding="utf-8")
    assert "\u2028" in text and "\u2029" in text and "\x85" in text  # written as they are
    rows = _read_jsonl(path)
    assert len(rows) == 3 and rows[1]["question"] == f"Question {tricky}?"
    assert rows[1]["answers"] == [[f"Vienna{tricky}", "Wien"]]
    assert rows[1]["response"] == f"Reply {tricky}"
    assert [r["label"]["note"] for r in rows[1:]] == [note, note]
    dump = list(conn.iterdump())
    summary = import_pack(conn, path)  # the pack it wrote reads back: every item, unchanged
    assert (summary.applied, summary.unchanged, summary.unlabelled) == (0, 2, 0)
    assert list(conn.iterdump()) == dump
    rows[1]["label"]["question_clear"] = "no"  # an annotator's change comes in too
    _write(path, rows)
    assert import_pack(conn, path).applied == 1
    assert current_label(conn, ids[0], "ann1").state.question_clear == "no"
    assert current_label(conn, ids[0], "ann1").state.note == note


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]
