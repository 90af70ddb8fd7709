"""The command line's parser keeps argparse's checks and help while building faster: the
formatter `add_argument` checks metavars with is kept, never the one help is written with."""

from __future__ import annotations

import pytest

from kglens_tui.core.argparser import ArgumentParser


def test_a_metavar_that_does_not_fit_nargs_is_still_refused() -> None:
    parser = ArgumentParser(prog="kglens")
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"))
    with pytest.raises(ValueError, match="metavar tuple"):
        parser.add_argument("--three", nargs=3, metavar=("A", "B"))


def test_help_is_wrapped_at_the_terminal_width_of_the_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Arguments added at one width, help written at another: the help is wrapped at the
    second."""
    monkeypatch.setenv("COLUMNS", "200")
    parser = ArgumentParser(prog="kglens")
    parser.add_argument("--long", help=" ".join(["word"] * 40))
    monkeypatch.setenv("COLUMNS", "40")
    lines = parser.format_help().splitlines()
    assert max(len(line) for line in lines) <= 40
    monkeypatch.setenv("COLUMNS", "200")
    assert max(len(line) for line in parser.format_help().splitlines()) > 100
