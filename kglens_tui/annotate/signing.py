"""Keyed signatures of annotation packs: HMAC-SHA256 with the workspace's own random key
(db/0025_workspace_secret.sql) over the round, the annotator and the items' digest. Only the
workspace that exported a pack can make or check its signature, so a pack cannot be re-addressed
to another annotator (whose item order follows from the round's seed) or carried to another
workspace. The key never leaves the database."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3

from kglens_tui.annotate.errors import AnnotationError
from kglens_tui.store.connection import PACK_KEY_NAME

_PURPOSE = "kglens-annotation-pack-signature/1"
"""Names what the key signs, so a signature made with it cannot stand for anything else."""


def pack_key(conn: sqlite3.Connection) -> bytes:
    """The workspace's pack-signing key."""
    row = conn.execute(
        "SELECT value FROM workspace_secret WHERE name = ?", (PACK_KEY_NAME,)
    ).fetchone()
    if row is None or not isinstance(row[0], bytes):
        raise AnnotationError("this workspace has no pack-signing key (its database was edited)")
    return bytes(row[0])


def pack_signature(key: bytes, round_id: int, annotator: str, items_sha256: str) -> str:
    """The hex HMAC-SHA256 of a pack's round, annotator and items digest under `key`."""
    message = json.dumps(
        [_PURPOSE, round_id, annotator, items_sha256], ensure_ascii=False, separators=(",", ":")
    )
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()


def signature_matches(
    key: bytes, round_id: int, annotator: str, items_sha256: str, signature: str
) -> bool:
    """Whether `signature` is the pack's signature under `key` (compared in constant time)."""
    expected = pack_signature(key, round_id, annotator, items_sha256)
    return hmac.compare_digest(expected.encode("ascii"), signature.encode("ascii", "replace"))
