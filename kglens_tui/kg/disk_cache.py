"""Where KGLens keeps what it rebuilds from files it ships (answer-name tables, parsed bundled
KGs): one folder per kind under the user cache directory, moved or turned off by a variable."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(env: str, folder: str) -> Path | None:
    """``$env`` when set, else the user cache directory's ``folder``; None when the variable
    says "off" or is empty (nothing is kept)."""
    value = os.environ.get(env)
    if value is not None:
        return Path(value) if value.strip() and value.strip() != "off" else None
    import platformdirs

    return Path(platformdirs.user_cache_dir("kglens", appauthor=False)) / folder
