"""Errors of the Wikidata builder: each message names the query (step, direction, chunk)."""

from __future__ import annotations

from kglens_tui.core.errors import KGLensError


class WikidataError(KGLensError):
    """A request to the SPARQL endpoint failed, or the build cannot go on."""


class WikidataTimeoutError(WikidataError):
    """The query ran into the endpoint's time limit (or the client's socket timeout)."""


class WikidataResponseError(WikidataError):
    """The endpoint answered with a truncated or invalid SPARQL JSON document."""
