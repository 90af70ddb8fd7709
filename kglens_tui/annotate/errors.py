"""Errors of the annotation workflow, every message one line meant for the user, and how they
and every view name an item (`item_ref`)."""

from __future__ import annotations

from kglens_tui.core.errors import KGLensError


class AnnotationError(KGLensError, ValueError):
    """Bad input to a round, label or adjudication: the message says what and where."""


class PackError(AnnotationError):
    """An annotation pack cannot be imported: the message names the file, line and field."""


def item_ref(item_id: int) -> str:
    """How every view names an item to people: "#105", its number in the workspace, the same
    for every annotator (their places in their own orders differ)."""
    return f"#{item_id}"
