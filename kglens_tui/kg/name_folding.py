"""How answer-name tables fold a name before keying it (every stored table depends on it:
`kglens_tui.kg.names_store` keys each table by this module's source too)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1 << 16)
def fold_name(name: str) -> str:
    """A name as answer tables key it: NFKC, then without its marks (NFKD), case-folded, its
    spaces collapsed ("Côte  d'Ivoire" is "cote d'ivoire")."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    return " ".join(
        "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split()
    )
