"""Errors of the annotation workflow; every message is one line meant for the user."""

from __future__ import annotations

from kglens_tui.core.errors import KGLensError


class AnnotationError(KGLensError, ValueError):
    """Bad input to a round, label or adjudication: the message says what and where."""


class PackError(AnnotationError):
    """An annotation pack cannot be imported: the message names the file, line and field."""
