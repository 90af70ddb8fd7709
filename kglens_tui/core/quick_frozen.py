"""Frozen dataclasses made faster: `quick_frozen` gives one an ``__init__`` that stores its
fields straight into the new instance's ``__dict__``.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` (its
``__setattr__`` refuses), a lookup and a call per field: about three times the cost of the
stores. The probing engine makes several such records per question (its meta, the question, the
request's usage, the feed's reply view, the counters), so it makes them this way. Nothing else
changes: the class stays frozen, and compares, hashes, prints, pickles and `replace`s as before.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")


def quick_frozen(cls: type[T]) -> type[T]:
    """Put over ``@dataclass(frozen=True)``: the same class with the faster ``__init__``.
    Raises TypeError for what that ``__init__`` does not do (a class that is no frozen
    dataclass, or has slots, ``__post_init__``, default factories, init=False, keyword-only or
    init-only fields)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"{cls.__name__}: quick_frozen takes a frozen dataclass")
    if "__slots__" in vars(cls) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_frozen takes no slots or __post_init__")
    own = dataclasses.fields(cls)  # type: ignore[arg-type]
    given = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if any(f.name.startswith("_quick_") for f in own):
        raise TypeError(f"{cls.__name__}: quick_frozen's own names start with _quick_")
    if [p.name for p in given] != [f.name for f in own] or any(
        p.kind is not p.POSITIONAL_OR_KEYWORD or f.default_factory is not dataclasses.MISSING
        for p, f in zip(given, own, strict=True)
    ):
        raise TypeError(
            f"{cls.__name__}: quick_frozen takes fields that are all plain parameters of "
            "__init__, with plain defaults"
        )
    defaults: dict[str, Any] = {}
    parameters = []
    for f in own:
        if f.default is dataclasses.MISSING:
            parameters.append(f.name)
        else:
            defaults[f"_quick_{f.name}"] = f.default
            parameters.append(f"{f.name}=_quick_{f.name}")
    stores = "".join(f"    _quick_fields[{f.name!r}] = {f.name}\n" for f in own)
    source = (
        f"def __init__(self, {', '.join(parameters)}):\n    _quick_fields = self.__dict__\n{stores}"
    )
    made: dict[str, Any] = {}
    exec(source, defaults, made)  # as dataclasses makes its own __init__
    init = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
