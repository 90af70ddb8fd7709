"""The one base class of the errors a user can act on."""

from __future__ import annotations


class KGLensError(Exception):
    """An error whose message is one line a user can act on (a bad file, flag, name or
    endpoint); every entry point shows it as such, never as a traceback: the CLI prints it and
    exits 2 (`kglens_tui.cli.main`)."""


class NotFoundError(KGLensError, KeyError):
    """A name, key or id that is not there (an entity, an edge of a run). A KeyError, so that
    lookups may catch it as one, whose message prints as written (a KeyError's is quoted)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
