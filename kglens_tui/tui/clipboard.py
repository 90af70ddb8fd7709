"""Copying what a screen has selected: the text goes to the terminal's clipboard (OSC 52, which
also reaches a browser through textual-serve), and a notification says literally what was
copied."""

from __future__ import annotations

from typing import Any

from textual.app import App

from kglens_tui.core.safetext import visible

SHOWN_LIMIT = 80
"""Characters of the copied text the notification repeats."""


def copy_text(app: App[Any], text: str, what: str) -> None:
    """Put ``text`` on the clipboard and say so (``what``: "blind spot", "reply")."""
    app.copy_to_clipboard(text)
    shown = visible(text, one_line=True, limit=SHOWN_LIMIT)
    app.notify(f"Copied the {what}: {shown}", markup=False, timeout=4)
