"""Untrusted text is shown literally: no markup, no terminal control."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from kglens_tui.core.console import SafeConsole
from kglens_tui.core.safetext import (
    LiteralTable,
    control_char,
    literal,
    markup_literal,
    storable,
    visible,
)

HOSTILE = "Yes.\n[/INST] [/] [bold red]x[/] [ \x1b]0;PWNED\x07\x1b[2J\x00nul\u202eevil\r\x9b"


def _render(markup: str) -> str:
    console = Console(width=400, color_system=None, record=True)
    console.print(markup, soft_wrap=True)
    return console.export_text()


def test_visible_leaves_no_control_character() -> None:
    out = visible(HOSTILE)
    assert all(ch in "\n\t" or (ord(ch) >= 0x20 and not 0x7F <= ord(ch) <= 0x9F) for ch in out)
    assert "␛]0;PWNED␇" in out and "␀nul" in out and "\u21c4evil" in out
    assert out.endswith("␍\ufffd") and len(out) == len(HOSTILE)


def test_one_line_and_limit() -> None:
    assert visible("a\nb\tc", one_line=True) == "a⏎b␉c"  # no stand-in hides as a space
    assert visible("a\tb") == "a\tb"  # kept where lines are kept
    assert visible("x" * 100, limit=10) == "x" * 9 + "…"
    assert visible(None) == ""


def test_markup_literal_renders_the_text_itself() -> None:
    shown = _render(f"[b]Reply[/]: {markup_literal(HOSTILE)}")
    assert "[/INST] [/] [bold red]x[/] [" in shown
    assert "\x1b" not in shown


def test_literal_is_never_parsed() -> None:
    text = literal("[b]not bold[/]", "red")
    assert isinstance(text, Text) and text.plain == "[b]not bold[/]" and text.style == "red"


def test_lone_surrogates_are_shown_as_a_stand_in_and_stored_as_one() -> None:
    assert visible("a\ud800b\udcffc") == "a\ufffdb\ufffdc"
    assert visible("\u061cbidi") == "\u21c4bidi"  # the Arabic letter mark reorders text
    assert storable("Yes \ud83d, \x1b[31m\n") == "Yes \ufffd, \x1b[31m\n"  # only surrogates
    assert control_char("x\udcffy") == "\udcff"


def test_control_char_finds_what_imports_refuse() -> None:
    assert control_char("capi\x00tal") == "\x00"
    assert control_char("a\tb") == "\t" and control_char("a\tb", allow_tab=True) is None
    assert control_char("x\x9by") == "\x9b" and control_char("del\x7f") == "\x7f"
    assert control_char("\u200fالبحرين and [/] markup") is None  # kept as data, shown by visible


def test_table_cells_and_title_are_literal() -> None:
    table = LiteralTable(title="KG [/] \x1b[2J")
    table.add_column("cell")
    table.add_row("[bold]x[/] \x1b]0;T\x07")
    table.add_row(Text("styled", "dim"))
    console = SafeConsole(width=80, color_system=None, record=True)
    console.print(table)
    shown = console.export_text()
    assert "KG [/] ␛[2J" in shown and "[bold]x[/] ␛]0;T␇" in shown and "styled" in shown


def test_safe_console_makes_unescaped_control_characters_visible() -> None:
    console = SafeConsole(width=80, color_system=None, record=True)
    console.print("[b]ok[/] \x1b[2Jrest")
    assert console.export_text() == "ok ␛[2Jrest\n"


def test_html_text_is_escaped_and_shows_controls_and_bidi_marks() -> None:
    from kglens_tui.core.safetext import html_text

    assert html_text("<b>x</b> & 'q' \u202elanguage\x1b[2J") == (
        "&lt;b&gt;x&lt;/b&gt; &amp; &#x27;q&#x27; \u21c4language␛[2J"
    )


def test_bidi_marks_and_line_separators_have_stand_ins_of_their_own() -> None:
    """A reversed or split line is told apart from a decoding error (which shows as "�")."""
    for mark in ("\u202e", "\u202a", "\u200f", "\u061c", "\u2066", "\u2069"):
        assert visible(f"a{mark}b") == "a\u21c4b"
    assert visible("a\u2028b\u2029c", one_line=True) == "a⏎b⏎c"
    assert visible("a\u2028b") == "a⏎b"
    assert visible("a\x9bb\ud800c") == "a\ufffdb\ufffdc"  # C1 control, lone surrogate
