"""A mode's own command group on the command line (`kglens consistency ...`), declared in its
folder (`Mode.command_group`): its `run` and `list` commands are the harness's, named by what
the mode declares here; its other commands (report, compare, ...) are its own. The command line
adds the group of every registered mode (`cli/modes.py`)."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

Action = Callable[[argparse.Namespace, sqlite3.Connection], int]
"""What a command does with its parsed arguments on the open workspace: its exit code."""


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """A command that takes no arguments."""


@dataclass(frozen=True)
class ModeCommand:
    """`kglens GROUP NAME ...`: its help, its arguments and what it does. A ConfigError,
    ValueError, LookupError or LLMError it raises is an error message and exit code 2."""

    name: str
    help: str
    action: Action
    arguments: Callable[[argparse.ArgumentParser], None] = no_arguments


@dataclass(frozen=True)
class CommandGroup:
    """`kglens NAME ...`: a mode's commands. Its `run` starts or resumes a run (a flag per
    setting, as `kglens run MODE`), its `list` lists the mode's runs."""

    name: str
    help: str
    run_help: str
    count: str
    """The setting of how many its `run` takes as a number or 'all' (e.g. relations)."""
    count_help: str
    commands: tuple[ModeCommand, ...] = ()
    """Its own commands, in the order its help lists them."""
