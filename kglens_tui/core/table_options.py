"""`--tables DIR` and `--table-format` of the commands that print report tables (the files are
written by `analysis.table_files`, imported only when asked for)."""

from __future__ import annotations

import argparse

FORMATS = ("csv", "json", "md", "latex")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """`--tables DIR` and `--table-format` on a command that prints report tables."""
    parser.add_argument(
        "--tables",
        metavar="DIR",
        help="also write every table printed as files in DIR (made if missing; files of the same "
        "name are replaced)",
    )
    parser.add_argument(
        "--table-format",
        default=",".join(FORMATS),
        metavar="LIST",
        help=f"formats of --tables, comma-separated: {', '.join(FORMATS)} (default: all)",
    )
