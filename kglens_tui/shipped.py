"""Where the files shipped beside the code live: db/ and prompts/.

In a wheel they are the subpackages kglens_tui.db and kglens_tui.prompts; in a source checkout run
without installing (e.g. `python -m pytest` from the repository root, which imports the source
tree) they are the top-level db/ and prompts/ folders next to kglens_tui/.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


def shipped_dir(name: str) -> Traversable:
    """The folder of shipped files called `name` ('db' or 'prompts')."""
    try:
        return resources.files(f"kglens_tui.{name}")
    except ModuleNotFoundError:
        folder = Path(__file__).resolve().parent.parent / name
        if not folder.is_dir():
            raise FileNotFoundError(
                f"cannot find the shipped '{name}' files: neither the kglens_tui.{name} package "
                f"nor {folder} exists; reinstall kglens"
            ) from None
        return folder
