"""One base class for the errors a user can act on, and one handler per entry point."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import kglens_tui
from kglens_tui.cli.main import main
from kglens_tui.core.errors import KGLensError


def _our_exception_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(kglens_tui.__path__, "kglens_tui."):
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            own = cls.__module__ == module.__name__ and not cls.__name__.startswith("_")
            if own and issubclass(cls, BaseException):
                found.append(cls)
    return found


def test_every_error_class_of_the_package_derives_from_the_one_base() -> None:
    classes = _our_exception_classes()
    assert len(classes) >= 20
    strays = [f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, KGLensError)]
    assert strays == []


def test_the_cli_shows_any_of_them_as_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kglens_tui.analysis.triage import TriageError

    def broken(args) -> int:
        raise TriageError("edge 7 is not in run 3")

    import kglens_tui.cli.main as cli

    monkeypatch.setattr(cli, "cmd_runs", broken)
    assert main(["runs"]) == 2
    err = capsys.readouterr().err
    assert err == "error: edge 7 is not in run 3\n"


def test_llm_error_kinds_are_one_vocabulary_stored_as_their_values() -> None:
    import pickle

    from kglens_tui.core.error_kinds import ERROR_KINDS, ErrorKind
    from kglens_tui.llm.base import LLMError
    from kglens_tui.llm.failures import FATAL_KINDS

    err = LLMError("timeout", "no answer within 30 s", retries=2)
    assert (
        err.kind is ErrorKind.TIMEOUT and f"{err.kind}: {err}" == "timeout: no answer within 30 s"
    )
    assert pickle.loads(pickle.dumps(err)).kind is ErrorKind.TIMEOUT
    assert {k.value for k in ErrorKind} == ERROR_KINDS and FATAL_KINDS < ERROR_KINDS
    with pytest.raises(ValueError, match="unknown LLMError kind"):
        LLMError("teapot", "?")
