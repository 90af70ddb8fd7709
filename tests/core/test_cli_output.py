"""What the command line prints: argparse's errors show arguments literally, `kglens runs`
gives each rate its chance, `probe --no-tui`'s display keeps its figures at 80 columns, and a
command to copy is never broken across lines."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest
from conftest import copy_db
from rich.console import Console

from kglens_tui.analysis.groups import RATES, overall
from kglens_tui.analysis.kgwide import kg_wide
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli.main import build_parser, main
from kglens_tui.cli.progress import RunProgressDisplay, progress_lines
from kglens_tui.core.argparser import ArgumentParser
from kglens_tui.core.console import console, err_console
from kglens_tui.modes.kglens.progress import ProbeFigures, rate_items
from kglens_tui.modes.kglens.rate_text import n_text, win_text
from kglens_tui.store.connection import connect
from kglens_tui.textfmt import pct

CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""A control character a terminal would act on (newline aside: it ends a line)."""


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (
            ["triage", "note", "1547", "--text", "\x1b[31mred\x07"],
            "kglens: error: unrecognized arguments: --text ␛[31mred␇",
        ),
        (["runs", "--x\nb"], "kglens: error: unrecognized arguments: --x⏎b"),
        (
            ["compare", "--metric", "x\x1b[0m"],
            "kglens compare: error: argument --metric: invalid choice: 'x␛[0m' (choose from",
        ),
        (["report", "1\x07"], "kglens report: error: argument run: invalid int value: '1␇'"),
        (["\x1b]0;title\x07"], "kglens: error: argument COMMAND: invalid choice: '␛]0;title␇'"),
    ],
)
def test_an_argument_error_shows_the_argument_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], shown: str
) -> None:
    """Every argparse error, whatever path it takes (unrecognized arguments were echoed raw, an
    invalid number or choice as its repr), shows control characters as the same visible
    stand-ins: one usage line, then one error line."""
    with pytest.raises(SystemExit) as raised:
        main(["--db", str(tmp_path / "w.db"), *argv])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert not CONTROL.search(err), repr(err)
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith(shown), last
    assert err.startswith("usage: kglens") and err.count("error:") == 1


def test_every_subcommand_reports_its_errors_through_the_literal_parser() -> None:
    """argparse makes a subcommand's parser of its parent's class: a parser made otherwise would
    echo arguments raw again."""

    def parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        found = [parser]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    found += parsers(sub)
        return found

    every = parsers(build_parser())
    assert len(every) > 40
    assert [p.prog for p in every if not isinstance(p, ArgumentParser)] == []


@pytest.fixture(scope="module")
def listed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with a KONTEST run (no rates) and a HARD KGLens run, whose three chances
    differ (Wh questions: a guess is right where the predicate's commonest object is): made
    once a module, never written."""
    db = tmp_path_factory.mktemp("listed") / "w.db"
    assert main(["--db", str(db), "run", "kontest", "--quiet", "--set", "relations=2"]) == 0
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    probe += ["--iterations", "24", "--batch-size", "64", "--difficulty", "hard"]
    # half a floor: the sampler's re-asks tell the three chances apart (on the simulator's
    # answers without a Wh penalty, as this run was first made); the floor's census passes
    # the 446 edges nearly twice, for the two-ask rates to be shown (`sense_rates.settled`)
    probe += ["--target", "sim:0,wh_penalty=0"]
    assert main([*probe, "--sampler", "thompson", "--design-floor", "0.5"]) == 0
    return db


@pytest.fixture
def listed(listed_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int]:
    """A private copy of `listed_db`, and its KGLens run's id."""
    capsys.readouterr()  # what making it printed
    return copy_db(listed_db, tmp_path / "w.db"), 2


def _chances(db: Path, run_id: int) -> list[str]:
    """The run's chance of each rate as logged (the rates `kglens runs` shows), win first."""
    data = load_run_data(connect(db), run_id)
    base = overall(data, adjusted=False).chance
    return [pct(getattr(base, field)) for _, _, field in RATES]


@pytest.mark.parametrize("width", [80, 300])
def test_runs_gives_each_rate_its_chance(
    listed: tuple[Path, int],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    width: int,
) -> None:
    db, run_id = listed
    chances = _chances(db, run_id)
    assert len(set(chances)) == 3, "a run whose three chances differ tells them apart"
    monkeypatch.setattr(console, "width", width)
    assert main(["--db", str(db), "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width and "…" not in out
    # the win rate leads with its KG-wide estimate and that estimate's chance (a coin on this
    # EASY/HARD run's Yes/No half), then the rate over the examined edges with its own chance
    rate = r"\d+\.\d% \[\d+\.\d–\d+\.\d\]"
    # zero-sense and all-sense lead with their two-ask KG-wide rates and those rates' chance
    wide = kg_wide(load_run_data(connect(db), run_id), False)
    assert wide is not None  # its n too: the answers it rests on
    assert f"chance {pct(wide.chance_win)} · n={wide.rate.answers:,}" in out
    if width == 80:  # one rate a line, its chance on the next
        assert re.search(rf"│ win KG-wide {rate}\s*│\n.*│   chance \d+\.\d% ", out), out
        for name, chance in zip(
            ("win KG-wide", "zero-sense 2 asks", "all-sense 2 asks"), chances, strict=True
        ):
            at = re.search(
                rf"│ {name} {rate}\s*│\n.*│   chance \d+\.\d% .*\n.*│ examined {rate}\s*│\n(.*)\n",
                out,
            )
            assert at is not None, (name, out)
            assert f"│   chance {chance} " in at.group(1)
    else:  # a column per rate: KG-wide with its chance, then examined with its own
        lines = out.splitlines()
        row = next(i for i, line in enumerate(lines) if "KGLens" in line)
        heads = [c.strip() for c in lines[row].split("│")]
        assert any(c.startswith("KG-wide") for c in heads), out
        assert sum(c.startswith("2 asks") for c in heads) == 2
        under = [c.strip() for c in lines[row + 1].split("│")]
        assert sum(c.startswith("chance") for c in under) == 3
        examined = [c.strip() for c in lines[row + 2].split("│")]
        assert sum(c.startswith("examined") for c in examined) == 3
        own = [c.strip() for c in lines[row + 3].split("│")]
        assert [c for c in own if c.startswith("chance")] == [f"chance {c}" for c in chances]
    assert "chance: what blind guessing scores" in " ".join(out.split())


@pytest.mark.parametrize("width", [80, 120])
def test_runs_keeps_each_run_s_target_when_narrow(
    listed: tuple[Path, int],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    width: int,
) -> None:
    """`sim:0` and `sim:1` are told apart at 80 columns too (the settings went before): the
    settings, the target in short form with its seed, lead the rates' column there."""
    db, _ = listed
    argv = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*argv, "--iterations", "1", "--target", "sim:1"]) == 0
    monkeypatch.setattr(console, "width", width)
    capsys.readouterr()
    assert main(["--db", str(db), "runs"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width
    assert "sim (seed 1) ·" in out and "sim (seed 0" in out and "simulated (seed" not in out
    if width < 110:
        cells = [line.split("│")[-2].strip() for line in out.splitlines() if line.count("│") > 2]
        at = cells.index("sim (seed 1) · easy · top-k")
        assert cells[at + 1].startswith("win KG-wide ")


def _figures(**given: object) -> ProbeFigures:
    values: dict[str, object] = {
        "examined": 8778,
        "rates": (
            ("win", "46.6% [41.0–52.3]", "50.0%"),
            ("zero-sense", "38.5% [33.1–44.2]", "49.2%"),
            ("all-sense", "60.1% [54.5–65.4]", "25.0%"),
        ),
    }
    values.update(given)
    return ProbeFigures(**values)  # type: ignore[arg-type]


WIDE = (("win", "71.9% [69.8–74.0]", "50.0%"), ("zero-sense (2 asks)", "12.3% [7.4–17.3]", "25.0%"))
WIDE_N = "n=2,383 answers (worth 1,093 independent asks)"


INFO = "120/1,000 iterations · 64,000 req · 1,234 err · stopping"


def _render(items: list[str], width: int, completed: int = 120) -> list[str]:
    out = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    bar = RunProgressDisplay(console=out, auto_refresh=False)
    task = bar.add_task("run", total=1000, completed=completed, run=122, info=INFO, items=items)
    assert task == 0
    out.print(*bar.get_renderables())
    return out.export_text().rstrip("\n").splitlines()


@pytest.mark.parametrize("width", [120, 80, 40])
def test_the_run_display_keeps_its_figures_at_any_width(width: int) -> None:
    """The bar gets the room left, none below `MIN_BAR`: where the run is, requests, errors
    and time left are never cut (at 80 columns a bar of Rich's columns showed "r… it… · 0…"),
    and each KGLens rate keeps its interval and chance."""
    lines = _render(rate_items(_figures()), width)
    text = " ".join(" ".join(lines).split())
    for shown in ("run 122", "120/1,000 iterations", "64,000 req", "1,234 err", "ETA"):
        assert shown in text
    assert "stopping" in text
    assert ("━" in lines[0]) == (width >= 90)
    assert "…" not in text
    for name, rate, chance in _figures().rates:
        assert re.search(rf"{name} {re.escape(rate)} \(chance {chance}\)", text)
    assert "over the 8,778 edges this run examined: win 46.6%" in text
    assert max(len(line) for line in lines) <= width  # a line too long wraps, never cut


def test_the_run_display_puts_the_mode_s_figures_on_one_line_when_it_fits() -> None:
    head, info, lines = progress_lines(122, INFO, rate_items(_figures()), "0:00:41", 300)
    assert (head, info) == ("run 122", f"{INFO} · ETA 0:00:41")
    assert lines == [
        "  KG-wide win — (no answer of the sampling design yet) · over the 8,778 edges this run "
        "examined: win 46.6% [41.0–52.3] (chance 50.0%) · zero-sense 38.5% [33.1–44.2] "
        "(chance 49.2%) · all-sense 60.1% [54.5–65.4] (chance 25.0%)"
    ]
    narrow = progress_lines(122, INFO, rate_items(_figures()), "0:00:41", 80)[2]
    assert (
        narrow[1]
        == "  over the 8,778 edges this run examined: win 46.6% [41.0–52.3] (chance 50.0%)"
    )
    assert len(narrow) == 4
    assert rate_items(_figures(rates=())) == ["no edge examined yet"]
    assert progress_lines("?", None, [], "-:--:--", 80) == ("run ?", "starting", [])
    assert progress_lines(122, INFO, [], None, 80) == ("run 122", INFO, [])


def test_the_run_display_leads_with_the_kg_wide_rate_and_labels_the_examined_ones() -> None:
    """The KG-wide win rate (interval, chance, n and what the answers are worth) comes first,
    its two-ask rates next, and the paper's rates only after, "over the N edges this run
    examined" (they showed alone before, and a sampler alone moves them)."""
    items = rate_items(_figures(kg_wide=WIDE, kg_wide_n=WIDE_N))
    assert items == [
        "KG-wide win 71.9% [69.8–74.0] (chance 50.0%)",
        WIDE_N,
        "KG-wide zero-sense (2 asks) 12.3% [7.4–17.3] (chance 25.0%)",
        "over the 8,778 edges this run examined: win 46.6% [41.0–52.3] (chance 50.0%)",
        "zero-sense 38.5% [33.1–44.2] (chance 49.2%)",
        "all-sense 60.1% [54.5–65.4] (chance 25.0%)",
    ]


def test_probe_shows_each_rate_with_interval_and_the_runs_chance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The display's last frame (printed when stderr is no terminal) at 80 columns: the
    figures as the run ends, each chance the one `kglens report` gives as logged."""
    db = tmp_path / "w.db"
    monkeypatch.setattr(err_console, "width", 80)
    argv = ["--db", str(db), "probe", "--no-tui", "--subset", "paper16", "--batch-size", "16"]
    argv += ["--iterations", "3", "--difficulty", "hard", "--sampler", "thompson"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    err = captured.err
    assert max(len(line) for line in err.splitlines()) <= 80 and "…" not in err
    # a finished run has no time left: its last frame shows no ETA (it showed "ETA 0:00:06")
    assert re.search(r"run 1 ━+ 3/3 iterations · 48 req · 0 err · finished\n", err), err
    assert "ETA" not in err
    for (name, _, _), chance in zip(RATES, _chances(db, 1), strict=True):
        assert re.search(rf"[ :] {name} \d+\.\d% \[\d+\.\d–\d+\.\d\] \(chance {chance}\)", err)
    # the KG-wide win rate leads, as `kglens report` gives it; the examined rates are labelled
    wide = kg_wide(load_run_data(connect(db), 1), False)
    assert wide is not None
    figures = [line for line in err.splitlines() if line.startswith("  ")]
    assert figures[0] == f"  KG-wide win {win_text(wide.rate)} (chance {pct(wide.chance_win)})"
    assert figures[1] == f"  {n_text(wide.rate)}"
    examined = overall(load_run_data(connect(db), 1), adjusted=False).rates.examined
    label = f"  over the {examined:,} edges this run examined: win "
    assert figures.index(next(f for f in figures if f.startswith(label))) > 1
    # the command to copy starts a line of its own
    assert captured.out.endswith(f"the results:\n  kglens --db {db} report 1\n")


@pytest.mark.parametrize("no_tui", [False, True])
def test_probe_says_truly_that_it_runs_headless(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    no_tui: bool,
) -> None:
    """`kglens probe` runs headless with or without --no-tui: on a terminal it says so, and
    where the live screen is, in one tip that --no-tui leaves out; the help says the same."""
    import sys

    probe = next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ).choices["probe"]
    listed = build_parser().format_help()
    assert "headless with --no-tui" not in listed and "headless" in listed
    flag = next(a for a in probe._actions if "--no-tui" in a.option_strings)
    assert "always runs here, headless" in (flag.help or "")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    argv = ["--db", str(tmp_path / "w.db"), "probe", "--quiet", "--iterations", "1"]
    assert main(argv + (["--no-tui"] if no_tui else [])) == 0  # headless, to its end
    out = capsys.readouterr()
    tip = "tip: `kglens probe` always runs headless; `kglens` shows a run live (--no-tui: no tip)"
    assert (tip in out.err.splitlines()) is not no_tui
    assert "run 1 finished" in out.out


def test_version_is_the_package_s_one_definition(capsys: pytest.CaptureFixture[str]) -> None:
    """`kglens --version` prints the version pyproject takes from `kglens_tui.__version__`."""
    import tomllib

    import kglens_tui

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"kglens {kglens_tui.__version__}"
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
