"""The command line's argument parser: every error it reports shows the user's arguments as
data, never as terminal control."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING, Any, NoReturn

from kglens_tui.core.safetext import visible

_metavar_checkers: dict[object, argparse.HelpFormatter] = {}
"""The formatter `add_argument` checks metavars with, by formatter class: formatting a metavar
depends on the class alone, not on the program's name or the terminal's width."""


class ArgumentParser(argparse.ArgumentParser):
    """The parser of `kglens` and, as argparse makes them of the parent's class, of each of its
    subcommands. Every error it reports goes through `error`, which shows the message's
    arguments as `safetext.visible` does (ESC as "␛", a newline as "⏎"), so no argument reaches
    the terminal as control; an invalid number or choice, which argparse quotes as its repr
    ('\\x1b'), is quoted the same way (`_quoted`), so an argument reads alike in every message."""

    _adding = False
    """Within `add_argument`, whose check of an argument's metavar asks for a help formatter."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self._adding = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._adding = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        """A help formatter; for `add_argument`'s metavar check one kept for the formatter's
        class (a new one asks the terminal its width: about a fifth of building `kglens`'s
        parser, which every command does)."""
        if not self._adding:
            return super()._get_formatter()
        checker = _metavar_checkers.get(self.formatter_class)
        if checker is None:
            checker = _metavar_checkers[self.formatter_class] = super()._get_formatter()
        return checker

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {visible(message, one_line=True)}\n")

    def _get_value(self, action: argparse.Action, arg_string: str) -> object:
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as exc:
            raise _quoted(exc, action, arg_string) from None

    def _check_value(self, action: argparse.Action, value: object) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            raise _quoted(exc, action, value) from None


def _quoted(exc: argparse.ArgumentError, action: argparse.Action, value: object) -> Exception:
    """``exc`` with the repr argparse gave ``value`` (a string) replaced by the value in plain
    quotes, shown by `ArgumentParser.error` like every other argument."""
    if not isinstance(value, str):
        return exc
    return argparse.ArgumentError(action, exc.message.replace(repr(value), f"'{value}'", 1))


if TYPE_CHECKING:
    _Commands = argparse._SubParsersAction[ArgumentParser]
else:
    _Commands = argparse._SubParsersAction


class NamedCommands(_Commands):
    """Subcommands of which only those ``named`` (by name or alias; None: every one) get a
    parser: any other is listed, with its help, as a choice, but what would build its parser
    goes to an `_Unbuilt` one. `kglens` builds the commands its arguments name, not its 54
    (two thirds of a short command's parse)."""

    named: Collection[str] | None = None
    """The commands to build, by name or alias (None: every one)."""

    def builds(self, name: str, aliases: Collection[str] = ()) -> bool:
        """Whether the command ``name`` gets a parser."""
        return self.named is None or any(n in self.named for n in (name, *aliases))

    def add_parser(self, name: str, **kwargs: Any) -> ArgumentParser:
        if self.builds(name, kwargs.get("aliases", ())):
            return super().add_parser(name, **kwargs)
        built = self._parser_class
        self._parser_class = _Unbuilt  # type: ignore[assignment]
        try:  # argparse's own bookkeeping: the choice, its help, its aliases, a name given twice
            return super().add_parser(name, **kwargs)
        finally:
            self._parser_class = built


class _Unbuilt:
    """The parser of a command that is not built: it takes every call and gives itself back (an
    argument, a group, subcommands), and holds no action."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __getattr__(self, name: str) -> _Unbuilt:
        return self

    def __call__(self, *args: object, **kwargs: object) -> _Unbuilt:
        return self

    def __iter__(self) -> Iterator[object]:
        return iter(())
