"""`kglens_tui.modes` exports its names lazily (PEP 562): the literal `__all__` static tools read
and the table `__getattr__` imports from name the same names, and each resolves."""

from __future__ import annotations

import kglens_tui.modes as modes


def test_the_lazy_exports_and_all_name_the_same_names_and_each_resolves() -> None:
    assert sorted(modes.__all__) == sorted(modes._HOMES)
    for name in modes.__all__:
        assert getattr(modes, name) is not None
