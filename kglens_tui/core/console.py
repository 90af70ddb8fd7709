"""The one pair of Rich consoles every CLI command prints through.

Markup in the command's own strings styles the output; untrusted text must still go in through
`markup_literal` (or as a `literal` Text). As a second line of defence the consoles make every
control character in a parsed string visible, so a reply that slipped through unescaped can at
worst show its brackets, never clear the screen or set the window title.
"""

from __future__ import annotations

import shlex
from typing import Any

from rich.console import Console
from rich.text import Text

from kglens_tui.core.safetext import visible


class SafeConsole(Console):
    """A Rich console whose strings never carry terminal control characters (and, as the two
    below are made, never turn ":smile:" in a reply into an emoji)."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        rendered = super().render_str(text, **kwargs)
        # visible() keeps the length, so the styled spans stay over the same characters
        rendered.plain = visible(rendered.plain)
        return rendered


console = SafeConsole(highlight=False, emoji=False)
err_console = SafeConsole(stderr=True, highlight=False, emoji=False)


INTERRUPTED_EXIT = 130
"""Exit status of a command stopped by Ctrl-C (128 + SIGINT), its committed work kept."""
_PROGRAM = ["kglens"]


def name_workspace(db: str | None) -> None:
    """Commands suggested from now on name this workspace (`--db`, as given on the command line;
    None: the default one, named by nothing)."""
    _PROGRAM[0] = f"kglens --db {shlex.quote(str(db))}" if db else "kglens"


def suggested(words: str, db: object = None) -> str:
    """A command to copy: ``kglens WORDS``, with the workspace ``db`` or else the one the user
    named (plain text: print it through `markup_literal` where markup is parsed)."""
    program = _PROGRAM[0] if db is None else f"kglens --db {shlex.quote(str(db))}"
    return f"{program} {words}"


def print_command(lead: object, command: str, *, to: Console | None = None) -> None:
    """``lead`` (shown literally) and, on a line of its own, ``command``: a command to copy
    (`suggested`), indented and never wrapped by Rich, so no line break lands inside it; a
    terminal narrower than the command wraps it softly, and copying gives it back whole."""
    out = err_console if to is None else to
    out.print(Text(visible(lead, one_line=True)), soft_wrap=True)
    out.print(Text("  " + visible(command, one_line=True)), soft_wrap=True)


def print_same_questions(runs: list[int], compare: str, how: str) -> None:
    """After one run per target on the same questions: the ``compare`` command (its words after
    ``kglens``) that sets those runs side by side, said ``how`` (their numbers when the mode has
    no such command); nothing for fewer than two."""
    if len(runs) > 1 and not compare:
        console.print(
            f"{len(runs)} runs asked the same questions: {', '.join(str(r) for r in runs)}"
        )
    elif len(runs) > 1:
        print_command(
            f"{len(runs)} runs asked the same questions; {how}:",
            suggested(f"{compare} {' '.join(str(r) for r in runs)}"),
            to=console,
        )


def print_wrote(path: object) -> None:
    """ "wrote PATH" for a file a command wrote, the path literal and never broken across lines
    (so it can be copied)."""
    console.print(Text.assemble("wrote ", visible(str(path), one_line=True)), soft_wrap=True)


def print_error(message: object) -> None:
    """One red `error:` line on stderr, the message shown literally (newlines as "⏎")."""
    err_console.print(
        Text.assemble(("error:", "red"), " ", visible(message, one_line=True)), soft_wrap=True
    )


def print_warning(message: object) -> None:
    """One yellow `warning:` line on stderr, the message shown literally."""
    err_console.print(
        Text.assemble(("warning:", "yellow"), " ", visible(message, one_line=True)),
        soft_wrap=True,
    )
