"""The command line's parser keeps argparse's checks and help while building faster: the
formatter `add_argument` checks metavars with is kept, never the one help is written with; only
the commands the arguments name are built."""

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


ARGVS = [
    ["--db", "w.db", "probe", "--iterations", "2", "--target", "sim:3", "--target", "sim:4"],
    ["report", "1", "--tables", "out"],
    ["annotate", "tui", "r1", "--annotator", "ann"],
    ["consistency", "run", "--relations", "20"],
    ["kg", "show", "country", "France"],
    [],
]


@pytest.mark.parametrize("argv", ARGVS, ids=lambda argv: " ".join(argv[:3]) or "none")
def test_a_parser_built_for_its_arguments_parses_them_as_the_whole_one(argv: list[str]) -> None:
    """Only the commands the arguments name are built; they parse alike (the command's own
    function included), and the listing of commands is the whole parser's."""
    from kglens_tui.cli.main import build_parser

    whole, named = build_parser(), build_parser(argv)
    assert named.format_help() == whole.format_help()
    ours, theirs = vars(named.parse_args(argv)), vars(whole.parse_args(argv))
    funcs = ours.pop("func", None), theirs.pop("func", None)
    assert ours == theirs
    assert len({getattr(f, "__qualname__", None) for f in funcs}) == 1


def test_a_command_not_named_is_listed_and_an_unknown_one_refused_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from kglens_tui.cli.main import build_parser

    for parser in (build_parser(), build_parser(["nosuch"])):
        with pytest.raises(SystemExit):
            parser.parse_args(["nosuch"])
    whole, named = capsys.readouterr().err.split("usage:")[1:]
    assert named == whole and "invalid choice: 'nosuch'" in named and "'probe'" in named
