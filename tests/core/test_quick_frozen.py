"""quick_frozen keeps a frozen dataclass what it was (the same instances from the same
arguments, frozen, compared, hashed, replaced, pickled) with a faster __init__, and refuses the
classes whose __init__ it would not reproduce; the engine's per-question records use it."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import InitVar, dataclass, field
from typing import ClassVar

import pytest

from kglens_tui.core.quick_frozen import quick_frozen
from kglens_tui.llm.base import ChatRequest, QuestionMeta
from kglens_tui.llm.usage import Counters, Usage
from kglens_tui.modes.kglens.engine import ReplyView
from kglens_tui.modes.kglens.questions import Question


@dataclass(frozen=True)
class Plain:
    a: int
    b: str
    c: tuple[str, ...] = ()
    d: float | None = None
    LIMIT: ClassVar[int] = 3


Quick = quick_frozen(
    dataclass(frozen=True)(
        type("Quick", (), {"__annotations__": dict(Plain.__annotations__), "c": (), "d": None})
    )
)


@pytest.mark.parametrize(
    "args, kwargs",
    [((1, "x"), {}), ((1, "x", ("y",)), {}), ((2,), {"b": "z", "d": 0.5}), ((), {"a": 3, "b": ""})],
)
def test_the_same_instances_from_the_same_arguments(args: tuple, kwargs: dict) -> None:
    plain, quick = Plain(*args, **kwargs), Quick(*args, **kwargs)
    assert vars(quick) == vars(plain)
    assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert quick == Quick(*args, **kwargs) and hash(quick) == hash(Quick(*args, **kwargs))
    assert repr(quick).removeprefix("Quick") == repr(plain).removeprefix("Plain")
    assert pickle.loads(pickle.dumps(quick)) == quick
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.a = 5  # type: ignore[misc]
    changed = dataclasses.replace(quick, b="new")
    assert (changed.a, changed.b, changed.c) == (quick.a, "new", quick.c)


def test_wrong_arguments_fail_as_the_dataclass_fails() -> None:
    for bad in ((), (1, "x", (), None, "extra")):
        with pytest.raises(TypeError):
            Plain(*bad)
        with pytest.raises(TypeError):
            Quick(*bad)
    with pytest.raises(TypeError):
        Quick(1, "x", e=2)


def test_classes_it_would_not_reproduce_are_refused() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            assert self.a

    @dataclass(frozen=True)
    class InitOnly:
        a: int
        scale: InitVar[int] = 1

    @dataclass(frozen=True, kw_only=True)
    class KeywordOnly:
        a: int

    @dataclass(frozen=True)
    class Hidden:
        a: int
        b: int = field(default=0, init=False)

    for cls in (Mutable, Factory, Checked, InitOnly, KeywordOnly, Hidden):
        with pytest.raises(TypeError):
            quick_frozen(cls)


@pytest.mark.parametrize("cls", [QuestionMeta, Question, ChatRequest, Usage, Counters, ReplyView])
def test_the_engines_records_are_quick(cls: type) -> None:
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    assert "_quick_fields" in cls.__init__.__code__.co_varnames
