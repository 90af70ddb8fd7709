"""Signed packs (trial 2, finding E): a pack imports only into the workspace that exported it and
only as the annotator it was exported for. Re-addressing a filled pack to another annotator (the
items put in their seeded order, the plain sha256 recomputed), a pack of another workspace, an
unsigned (version 1) pack and an edited signature are each refused with one line naming the file
and the field, and store nothing; an honest pack still imports; the key is never in a pack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kglens_tui.annotate.errors import PackError
from kglens_tui.annotate.labels import current_label
from kglens_tui.annotate.packs import export_pack, import_pack, items_digest
from kglens_tui.annotate.rounds import ItemSpec, create_round_from_items
from kglens_tui.annotate.signing import pack_key
from kglens_tui.store.connection import connect

NAMES = ("a1", "a2", "a3", "a4", "a5")


def _items(n: int) -> list[ItemSpec]:
    return [
        ItemSpec(
            kg="country",
            qtype="wh" if k % 2 else "yes_no",
            question=f"Question {k}?",
            app_verdict="correct",
            answers=[["Vienna"]] if k % 2 else [],
            response=f"Reply {k}" if k % 2 else None,
            expected="yes" if k % 2 == 0 else "",
        )
        for k in range(n)
    ]


@pytest.fixture
def rnd(conn):
    return create_round_from_items(conn, "r1", _items(10), annotators=NAMES)


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _fill(rows: list[dict]) -> list[dict]:
    for row in rows[1:]:
        wh = row["qtype"] == "wh"
        row["label"] = {
            "question_clear": "yes",
            "response_correct": "incorrect" if wh else None,
            "seconds": 5.0,
        }
    return rows


def _content(row: dict) -> dict:
    return {
        "item": row["item"],
        "qtype": row["qtype"],
        "question": row["question"],
        "answers": row.get("answers", []),
        "response": row.get("response"),
    }


def _forge(rows: list[dict], round_id: int, victim: str, order: list[int]) -> list[dict]:
    """What the trial did: the header names the victim, the item lines follow the victim's
    seeded order, and the (unkeyed) items digest is recomputed."""
    header, *lines = rows
    by_item = {line["item"]: line for line in lines}
    moved = [dict(by_item[item], position=n) for n, item in enumerate(order, start=1)]
    digest = items_digest(round_id, victim, [_content(line) for line in moved])
    return [{**header, "annotator": victim, "items_sha256": digest}, *moved]


def _order(conn, round_id: int, name: str) -> list[int]:
    return [
        r[0]
        for r in conn.execute(
            "SELECT s.item_id FROM annotation_assignment s JOIN annotator a "
            "ON a.id = s.annotator_id WHERE a.round_id = ? AND a.name = ? ORDER BY s.position",
            (round_id, name),
        )
    ]


def _refused(conn, path: Path, field: str, words: str) -> str:
    before = list(conn.iterdump())
    with pytest.raises(PackError) as err:
        import_pack(conn, path)
    message = str(err.value)
    assert message.startswith(f"{path}:1: field '{field}': "), message
    assert words in message and "\n" not in message
    assert list(conn.iterdump()) == before
    return message


def test_a_pack_re_addressed_to_another_annotator_is_refused(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "a1", tmp_path / "a1.jsonl")
    order = _order(conn, rnd.id, "a4")
    assert order != _order(conn, rnd.id, "a1")  # the forgery has to reorder the items
    forged = _write(tmp_path / "forged.jsonl", _forge(_fill(_read(path)), rnd.id, "a4", order))
    message = _refused(conn, forged, "signature", "not this workspace's signature")
    assert "annotator 'a4'" in message
    assert all(current_label(conn, item, "a4") is None for item in order)


def test_the_forged_pack_is_refused_by_the_cli_in_one_line(
    conn, rnd, tmp_path: Path, capsys
) -> None:
    from kglens_tui.cli.main import main

    db = conn.execute("PRAGMA database_list").fetchone()[2]
    path = export_pack(conn, rnd.id, "a1", tmp_path / "a1.jsonl")
    order = _order(conn, rnd.id, "a4")
    forged = _write(tmp_path / "forged.jsonl", _forge(_fill(_read(path)), rnd.id, "a4", order))
    assert main(["--db", db, "annotate", "import", str(forged)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {forged}:1: field 'signature': ")
    assert captured.err.count("\n") == 1 and "stored" not in captured.out


def test_an_honest_pack_still_imports(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "a4", tmp_path / "a4.jsonl")
    summary = import_pack(conn, _write(path, _fill(_read(path))))
    assert (summary.annotator, summary.applied, summary.unlabelled) == ("a4", 10, 0)
    assert current_label(conn, _order(conn, rnd.id, "a4")[0], "a4") is not None


def test_a_pack_of_another_workspace_is_refused(conn, rnd, tmp_path: Path) -> None:
    other = connect(tmp_path / "other.db")  # made afresh: its own key
    try:
        theirs = create_round_from_items(other, "r1", _items(10), annotators=NAMES)
        assert theirs.id == rnd.id and _order(other, rnd.id, "a2") == _order(conn, rnd.id, "a2")
        assert pack_key(other) != pack_key(conn)
        path = export_pack(other, theirs.id, "a2", tmp_path / "theirs.jsonl")
    finally:
        other.close()
    _refused(conn, _write(path, _fill(_read(path))), "signature", "another workspace")


def test_an_unsigned_version_1_pack_is_refused_with_what_to_do(conn, rnd, tmp_path: Path) -> None:
    path = export_pack(conn, rnd.id, "a1", tmp_path / "old.jsonl")
    header, *lines = _fill(_read(path))
    del header["signature"]
    _write(path, [{**header, "version": 1}, *lines])
    message = _refused(conn, path, "version", "unsigned pack")
    assert "export the annotator's pack again" in message


@pytest.mark.parametrize(
    ("signature", "words"),
    [
        (None, "must be the pack's signature"),
        ("F" * 64, "must be the pack's signature"),
        ("0" * 64, "not this workspace's signature"),
    ],
)
def test_a_missing_or_edited_signature_is_refused(
    conn, rnd, tmp_path: Path, signature: str | None, words: str
) -> None:
    path = export_pack(conn, rnd.id, "a1", tmp_path / "p.jsonl")
    header, *lines = _fill(_read(path))
    if signature is None:
        del header["signature"]
    else:
        header["signature"] = signature
    _refused(conn, _write(path, [header, *lines]), "signature", words)


def test_the_key_never_leaves_the_database(conn, rnd, tmp_path: Path, capsys) -> None:
    from kglens_tui.cli.main import main

    key = pack_key(conn)
    assert len(key) == 32 and len(set(key)) > 8
    db = conn.execute("PRAGMA database_list").fetchone()[2]
    out = tmp_path / "cli.jsonl"
    assert main(["--db", db, "annotate", "export", "r1", "--annotator", "a3", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    raw = out.read_bytes()
    for form in (key.hex(), key.hex().upper()):
        assert form not in raw.decode("utf-8") and form not in captured.out + captured.err
    assert key not in raw
