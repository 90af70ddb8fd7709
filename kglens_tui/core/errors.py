"""The one base class of the errors a user can act on."""

from __future__ import annotations


class KGLensError(Exception):
    """An error whose message is one line a user can act on (a bad file, flag, name or
    endpoint); every entry point shows it as such, never as a traceback: the CLI prints it and
    exits 2 (`kglens_tui.cli.main`)."""
