"""Packs for remote annotators: one JSONL file per (round, annotator). Line 1 is a header with a
sha256 over the round, the annotator and the items, and the workspace's keyed signature of them
(annotate.signing); every further line is one item (never the app's verdict) with a "label" to
fill in. Import validates everything first, then applies the labels in one transaction, so a bad
pack changes nothing and re-importing changes nothing."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

from kglens_tui.annotate.atomic import atomic
from kglens_tui.annotate.errors import AnnotationError, PackError, item_ref
from kglens_tui.annotate.guidelines import GUIDELINES_MARKDOWN
from kglens_tui.annotate.items import AnnotatorItem, annotator_id, items_for_annotator
from kglens_tui.annotate.labels import (
    MAX_ITEM_SECONDS,
    LabelState,
    label_problem,
    note_problem,
    seconds_problem,
    state_from_row,
)
from kglens_tui.annotate.rounds import Round, get_round
from kglens_tui.annotate.signing import pack_key, pack_signature, signature_matches
from kglens_tui.core.question_type import WH
from kglens_tui.core.safetext import storable
from kglens_tui.core.safewrite import write_text
from kglens_tui.textfmt import counted

PACK_FORMAT = "kglens-annotation-pack"
PACK_VERSION = 2
"""2: signed (version 1 packs, unsigned, are refused: they cannot be told from forged ones)."""
ITEM_FIELDS = ("item", "position", "qtype", "question", "answers", "response", "label")
LABEL_FIELDS = ("question_clear", "response_correct", "skipped", "flag", "note", "seconds")
HOW_TO = (
    "Fill in the \"label\" of each item line and change nothing else: question_clear 'yes' or "
    "'no' for every item; response_correct 'correct' or 'incorrect' for items with an answer and "
    "a response (null otherwise); skipped true to pass on an item; flag true with a note to "
    "raise a problem; seconds spent. Leave label null for items you did not rate."
)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _content(
    item_id: int, qtype: str, question: str, answers: Any, response: Any
) -> dict[str, Any]:
    return {
        "item": item_id,
        "qtype": qtype,
        "question": question,
        "answers": answers,
        "response": response,
    }


def items_digest(round_id: int, annotator: str, contents: list[dict[str, Any]]) -> str:
    """sha256 over the round, the annotator and the items' contents (not their labels)."""
    payload = _canonical({"round": round_id, "annotator": annotator, "items": contents})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _item_content(item: AnnotatorItem) -> dict[str, Any]:
    return _content(item.item_id, item.qtype, item.question, item.answers, item.response)


def _label_json(state: LabelState | None, seconds: float) -> dict[str, Any] | None:
    if state is None or state.empty:
        return None
    return {
        "question_clear": state.question_clear,
        "response_correct": state.response_correct,
        "skipped": state.skipped,
        "flag": state.flag,
        "note": state.note,
        # what an older version stored beyond a day is impossible, and its import refuses it
        "seconds": round(min(seconds, MAX_ITEM_SECONDS), 3),
    }


def _seconds_by_item(conn: sqlite3.Connection, round_id: int, annotator: str) -> dict[int, float]:
    return {
        r[0]: float(r[1])
        for r in conn.execute(
            "SELECT l.item_id, SUM(l.seconds) FROM annotation_label l "
            "JOIN annotator a ON a.id = l.annotator_id WHERE a.round_id = ? AND a.name = ? "
            "GROUP BY l.item_id",
            (round_id, annotator),
        )
    }


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "x"


def default_pack_path(round_name: str, annotator: str) -> Path:
    """round-annotator.jsonl in the current directory."""
    return Path(f"{_safe(round_name)}-{_safe(annotator)}.jsonl")


def export_pack(
    conn: sqlite3.Connection,
    round_ref: int | str,
    annotator: str,
    path: Path | None = None,
    *,
    force: bool = False,
) -> Path:
    """Write the annotator's pack (with their current labels, if any); returns its path. An
    existing file (perhaps a pack being filled in) is replaced only with force (core.safewrite)."""
    rnd = get_round(conn, round_ref)
    items = items_for_annotator(conn, rnd.id, annotator)
    seconds = _seconds_by_item(conn, rnd.id, annotator)
    digest = items_digest(rnd.id, annotator, [_item_content(i) for i in items])
    header = {
        "format": PACK_FORMAT,
        "version": PACK_VERSION,
        "round": rnd.id,
        "round_name": rnd.name,
        "annotator": annotator,
        "items": len(items),
        "items_sha256": digest,
        "signature": pack_signature(pack_key(conn), rnd.id, annotator, digest),
        "exported_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "how_to": HOW_TO,
        "guidelines": GUIDELINES_MARKDOWN,
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    for it in items:
        line: dict[str, Any] = {
            "item": it.item_id,
            "position": it.position,
            "qtype": it.qtype,
            "question": it.question,
        }
        if it.qtype == WH:
            line["answers"] = it.answers
            line["response"] = it.response
        line["label"] = _label_json(
            it.label.state if it.label else None, seconds.get(it.item_id, 0.0)
        )
        lines.append(json.dumps(line, ensure_ascii=False))
    target = Path(path) if path is not None else default_pack_path(rnd.name, annotator)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_text(target, "\n".join(lines) + "\n", force=force)


@dataclass(frozen=True)
class ImportSummary:
    path: Path
    round: str
    annotator: str
    applied: int
    """Labels stored as new revisions."""
    unchanged: int
    """Labels equal to the stored ones."""
    unlabelled: int
    superseded: int = 0
    """Labels this very pack stored before that have been changed since (in the app or by
    another pack): the stored, newer label is kept."""

    def sentence(self) -> str:
        """What the import did, e.g. "3 labels stored, 0 unchanged, 0 not rated"; labels kept
        from an older import are counted on their own."""
        parts = [f"{counted(self.applied, 'label')} stored"]
        parts.append(f"{self.unchanged:,} unchanged")
        if self.superseded:
            parts.append(
                f"{self.superseded:,} older than the stored label (this pack was imported "
                "before and the label changed since): kept the stored one"
            )
        parts.append(f"{self.unlabelled:,} not rated")
        return ", ".join(parts)


@dataclass(frozen=True)
class _PackLabel:
    line: int
    item_id: int
    state: LabelState
    seconds: float


def _surrogate_field(value: Any, where: str = "") -> str | None:
    """The dotted field of the first text in a parsed JSON value holding a lone surrogate (JSON
    may escape one; no SQLite text can hold it), None when there is none."""
    if isinstance(value, str):
        return (where or "(line)") if storable(value) != value else None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((f"[{i}]", v) for i, v in enumerate(value))  # type: ignore[assignment]
    else:
        return None
    for key, item in items:
        path = (
            f"{where}{key}" if str(key).startswith("[") else f"{where}.{key}" if where else str(key)
        )
        found = _surrogate_field(item, path)
        if found is not None:
            return found
    return None


UNSIGNED = (
    "an unsigned pack (version 1, exported before packs were signed) cannot be told from a "
    "forged one: export the annotator's pack again (`kglens annotate export ROUND --annotator "
    "NAME`) and have the labels filled in there; nothing was stored"
)

JSON_SPACE = " \t\r"
"""What JSON counts as white space on a line (besides the "\n" that ends it)."""


class _Reader:
    """Validation with messages naming the file, the line and the field."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.raw = b""

    def fail(self, line: int, field: str | None, message: str) -> PackError:
        where = f"{self.path}:{line}"
        return PackError(f"{where}: field '{field}': {message}" if field else f"{where}: {message}")

    def lines(self) -> list[tuple[int, dict[str, Any]]]:
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise PackError(f"{self.path}: cannot read the pack: {exc.strerror}") from exc
        self.raw = raw
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PackError(f"{self.path}: not UTF-8 text (byte {exc.start})") from exc
        rows = []
        # JSON Lines end lines with "\n" only: str.splitlines() would also split at U+2028,
        # U+2029, U+0085 and other characters a JSON string holds unescaped
        for n, line in enumerate(text.split("\n"), start=1):
            if not line.strip(JSON_SPACE):
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise self.fail(
                    n, None, f"not valid JSON ({exc.msg} at column {exc.colno})"
                ) from exc
            except RecursionError:
                raise self.fail(n, None, "not valid JSON (nested too deeply)") from None
            except ValueError as exc:  # e.g. an integer of more than 4,300 digits
                raise self.fail(n, None, f"not valid JSON ({exc})") from None
            if not isinstance(obj, dict):
                raise self.fail(n, None, "expected a JSON object")
            broken = _surrogate_field(obj)
            if broken is not None:
                raise self.fail(
                    n, broken, "holds a lone surrogate (half a character, e.g. of an emoji)"
                )
            rows.append((n, obj))
        if not rows:
            raise PackError(f"{self.path}: empty pack (expected a header line)")
        return rows


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_label(
    r: _Reader, n: int, qtype: str, label: Any, stored_note: str
) -> tuple[LabelState, float] | None:
    """A pack line's label, validated; `stored_note` is the note stored for the item now, the
    one note holding a control character that is let through (exported from an older
    workspace, and unchanged)."""
    if label is None:
        return None
    if not isinstance(label, dict):
        raise r.fail(n, "label", "must be an object or null")
    for key in label:
        if key not in LABEL_FIELDS:
            raise r.fail(n, f"label.{key}", "unknown field")
    for key in ("skipped", "flag"):
        if not isinstance(label.get(key, False), bool):
            raise r.fail(n, f"label.{key}", f"must be true or false (got {label[key]!r})")
    note = label.get("note", "")
    wrong_note = note_problem(note.strip() if isinstance(note, str) else note)
    if wrong_note and not (isinstance(note, str) and note.strip() == stored_note):
        raise r.fail(n, "label.note", wrong_note)
    seconds = label.get("seconds", 0)
    wrong_time = seconds_problem(seconds)
    if wrong_time:
        raise r.fail(n, "label.seconds", wrong_time)
    clear, correct = label.get("question_clear"), label.get("response_correct")
    skipped = label.get("skipped", False)
    if skipped or clear is not None or correct is not None:
        problem = label_problem(qtype, clear, correct, skipped)
        if problem:
            raise r.fail(n, f"label.{problem[0]}", problem[1])
    state = LabelState(clear, correct, skipped, label.get("flag", False), note.strip())
    return None if state.empty else (state, float(seconds))


def _read_pack(
    conn: sqlite3.Connection, path: Path
) -> tuple[Round, str, str, list[_PackLabel], int]:
    """Validate a pack against the database: (round, annotator, file sha256, labels, unlabelled)."""
    r = _Reader(path)
    rows = r.lines()
    n, header = rows[0]
    if header.get("format") != PACK_FORMAT:
        raise r.fail(n, "format", f"not a KGLens annotation pack (expected '{PACK_FORMAT}')")
    if header.get("version") == 1:
        raise r.fail(n, "version", UNSIGNED)
    if header.get("version") != PACK_VERSION:
        raise r.fail(n, "version", f"unsupported pack version {header.get('version')!r}")
    round_id, annotator = header.get("round"), header.get("annotator")
    if not _is_int(round_id):
        raise r.fail(n, "round", "must be the round's id")
    try:
        rnd = get_round(conn, round_id)
    except AnnotationError as exc:
        raise r.fail(n, "round", f"no annotation round {round_id} in this workspace") from exc
    if header.get("round_name", rnd.name) != rnd.name:
        raise r.fail(
            n,
            "round_name",
            f"round {rnd.id} here is '{rnd.name}', not {header['round_name']!r} (another workspace?)",
        )
    if not isinstance(annotator, str) or annotator not in rnd.annotators:
        raise r.fail(
            n,
            "annotator",
            f"no annotator {annotator!r} in round '{rnd.name}' (annotators: {', '.join(rnd.annotators)})",
        )
    digest = header.get("items_sha256")
    if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise r.fail(n, "items_sha256", "must be a sha256 hex digest")
    signature = header.get("signature")
    if not isinstance(signature, str) or not re.fullmatch(r"[0-9a-f]{64}", signature):
        raise r.fail(n, "signature", "must be the pack's signature (64 hex digits)")

    in_round = {
        row[0]
        for row in conn.execute("SELECT id FROM annotation_item WHERE round_id = ?", (rnd.id,))
    }
    mine = {it.item_id: it for it in items_for_annotator(conn, rnd.id, annotator)}
    seen: dict[int, int] = {}
    contents: list[dict[str, Any]] = []
    labels: list[_PackLabel] = []
    unlabelled = 0
    for n, obj in rows[1:]:
        for key in obj:
            if key not in ITEM_FIELDS:
                raise r.fail(n, key, "unknown field")
        item_id = obj.get("item")
        if not _is_int(item_id):
            raise r.fail(n, "item", f"must be an item id (got {item_id!r})")
        if item_id not in in_round:
            raise r.fail(n, "item", f"unknown item {item_ref(item_id)} (not in round '{rnd.name}')")
        if item_id not in mine:
            raise r.fail(
                n, "item", f"item {item_ref(item_id)} is not assigned to annotator '{annotator}'"
            )
        if item_id in seen:
            raise r.fail(
                n, "item", f"item {item_ref(item_id)} appears twice (first on line {seen[item_id]})"
            )
        seen[item_id] = n
        stored = mine[item_id]
        expected = {
            "qtype": stored.qtype,
            "question": stored.question,
            "answers": stored.answers,
            "response": stored.response,
        }
        given = {
            "qtype": obj.get("qtype"),
            "question": obj.get("question"),
            "answers": obj.get("answers", []),
            "response": obj.get("response"),
        }
        for key, value in expected.items():
            if given[key] != value:
                raise r.fail(
                    n, key, f"differs from item {item_ref(item_id)} of the round (edited?)"
                )
        contents.append(_content(item_id, **given))
        stored_note = stored.label.state.note if stored.label is not None else ""
        label = _read_label(r, n, stored.qtype, obj.get("label"), stored_note)
        if label is None:
            unlabelled += 1
        else:
            labels.append(_PackLabel(n, item_id, label[0], label[1]))

    head = rows[0][0]
    if header.get("items") != len(contents):
        raise r.fail(
            head, "items", f"says {header.get('items')!r} items, the pack holds {len(contents)}"
        )
    if items_digest(rnd.id, annotator, contents) != digest:
        raise r.fail(
            head, "items_sha256", "does not match the pack's round, annotator and items (tampered?)"
        )
    if digest != items_digest(rnd.id, annotator, [_item_content(i) for i in mine.values()]):
        raise r.fail(
            head,
            "items_sha256",
            f"the pack does not hold exactly annotator '{annotator}''s items of round '{rnd.name}'",
        )
    if not signature_matches(pack_key(conn), rnd.id, annotator, digest, signature):
        raise r.fail(
            head,
            "signature",
            f"not this workspace's signature for annotator '{annotator}' of round '{rnd.name}': "
            "the pack was exported for another annotator or from another workspace, or edited "
            "(only the labels may change); nothing was stored",
        )
    file_sha = hashlib.sha256(r.raw).hexdigest()
    return rnd, annotator, file_sha, labels, unlabelled


def import_pack(conn: sqlite3.Connection, path: Path | str) -> ImportSummary:
    """Validate a filled-in pack and store its labels in one transaction (idempotent). A label
    differing from the stored one becomes a new revision, unless this very pack (same file)
    stored it before: then the stored label is newer and is kept (counted as superseded)."""
    path = Path(path)
    rnd, annotator, file_sha, labels, unlabelled = _read_pack(conn, path)

    def write(c: sqlite3.Connection) -> tuple[int, int]:
        aid = annotator_id(c, rnd.id, annotator)
        applied = superseded = 0
        for lab in labels:
            client_rev = f"import:{file_sha[:40]}:{lab.item_id}"
            last = c.execute(
                "SELECT * FROM annotation_label WHERE item_id = ? AND annotator_id = ? "
                "ORDER BY revision DESC LIMIT 1",
                (lab.item_id, aid),
            ).fetchone()
            if state_from_row(last) == lab.state:
                continue
            if c.execute(
                "SELECT 1 FROM annotation_label WHERE client_rev = ?", (client_rev,)
            ).fetchone():
                superseded += 1  # stored by this pack before, changed since: the newer stays
                continue
            spent = c.execute(
                "SELECT COALESCE(SUM(seconds), 0) FROM annotation_label "
                "WHERE item_id = ? AND annotator_id = ?",
                (lab.item_id, aid),
            ).fetchone()[0]
            s = lab.state
            c.execute(
                "INSERT INTO annotation_label(item_id, annotator_id, revision, client_rev, action, "
                "question_clear, response_correct, skipped, flag, note, seconds) "
                "VALUES (?,?,?,?,'import',?,?,?,?,?,?)",
                (
                    lab.item_id,
                    aid,
                    (last["revision"] if last else 0) + 1,
                    client_rev,
                    s.question_clear,
                    s.response_correct,
                    int(s.skipped),
                    int(s.flag),
                    s.note,
                    max(0.0, lab.seconds - float(spent)),
                ),
            )
            applied += 1
        return applied, superseded

    applied, superseded = atomic(conn, write)
    return ImportSummary(
        path=path,
        round=rnd.name,
        annotator=annotator,
        applied=applied,
        unchanged=len(labels) - applied - superseded,
        unlabelled=unlabelled,
        superseded=superseded,
    )
