"""The command line's argument parser: every error it reports shows the user's arguments as
data, never as terminal control."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from kglens_tui.core.safetext import visible


class ArgumentParser(argparse.ArgumentParser):
    """The parser of `kglens` and, as argparse makes them of the parent's class, of each of its
    subcommands. Every error it reports goes through `error`, which shows the message's
    arguments as `safetext.visible` does (ESC as "␛", a newline as "⏎"), so no argument reaches
    the terminal as control; an invalid number or choice, which argparse quotes as its repr
    ('\\x1b'), is quoted the same way (`_quoted`), so an argument reads alike in every message."""

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
