"""Build knowledge graphs from Wikidata's SPARQL service (paper appendix A.2 and A.7)."""

from kglens_tui.kg.wikidata.builder import (
    BuildReport,
    WalkConfig,
    build_wikidata,
    state_file,
)
from kglens_tui.kg.wikidata.cache import ResponseCache
from kglens_tui.kg.wikidata.client import CONTACT_ENV, DEFAULT_ENDPOINT, SparqlClient
from kglens_tui.kg.wikidata.errors import (
    WikidataError,
    WikidataResponseError,
    WikidataTimeoutError,
)
from kglens_tui.kg.wikidata.predicates import DEFAULT_DEAD_PREDICATES, PredicateRule

__all__ = [
    "CONTACT_ENV",
    "DEFAULT_DEAD_PREDICATES",
    "DEFAULT_ENDPOINT",
    "BuildReport",
    "PredicateRule",
    "ResponseCache",
    "SparqlClient",
    "WalkConfig",
    "WikidataError",
    "WikidataResponseError",
    "WikidataTimeoutError",
    "build_wikidata",
    "state_file",
]
