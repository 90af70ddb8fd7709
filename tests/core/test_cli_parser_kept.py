"""`main` keeps the parser it built while the registries hold the same names: what it offers
and its --db help are those of a parser built anew."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.cli.main import _parser, build_parser, main
from kglens_tui.modes.kglens.samplers import SAMPLERS


def _sampler_choices(parser) -> list[str]:
    probe = parser._subparsers._group_actions[0].choices["probe"]
    return next(a for a in probe._actions if "--sampler" in a.option_strings).choices


def test_the_kept_parser_names_the_workspace_default_of_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # the help's lines unwrapped
    for name in ("first.db", "second.db"):
        monkeypatch.setenv("KGLENS_DB", str(tmp_path / name))
        with pytest.raises(SystemExit):
            main(["--help"])
        assert f"(default: $KGLENS_DB, else {tmp_path / name})" in capsys.readouterr().out
    assert _parser() is _parser()


def test_a_sampler_registered_later_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _parser()
    assert _sampler_choices(kept) == _sampler_choices(build_parser())
    monkeypatch.setitem(SAMPLERS._entries, "late-sampler", SAMPLERS.get("thompson"))
    monkeypatch.setitem(SAMPLERS._modules, "late-sampler", __name__)
    again = _parser()
    assert again is not kept and "late-sampler" in _sampler_choices(again)
    assert _sampler_choices(again) == _sampler_choices(build_parser())
