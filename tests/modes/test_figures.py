"""A run's figures as files (`kglens export RUN --figures DIR`): SVG, PNG and PDF of the rates
over the run, the KG-wide win rate per predicate and the Fig. 6 grid."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from kglens_tui.analysis.figures import FIGURES
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli.main import main
from kglens_tui.core.figure_files import parse_figure_formats
from kglens_tui.store.connection import connect


def test_export_writes_every_figure_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "16", "--iterations", "5"]) == 0
    out = tmp_path / "figs"
    assert main(["--db", str(db), "export", "1", "--figures", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    assert names == {f"run-1-{n}.{ext}" for n in FIGURES for ext in ("svg", "png", "pdf")}
    for name in FIGURES:
        png = (out / f"run-1-{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width >= 400 and height >= 250
        assert (out / f"run-1-{name}.pdf").read_bytes().startswith(b"%PDF")
        ET.parse(out / f"run-1-{name}.svg")  # well-formed XML
    # the same run gives the same files (no dates inside)
    again = tmp_path / "again"
    assert (
        main(["--db", str(db), "export", "1", "--figures", str(again), "--figure-format", "svg"])
        == 0
    )
    for name in FIGURES:
        assert (again / f"run-1-{name}.svg").read_bytes() == (
            out / f"run-1-{name}.svg"
        ).read_bytes()
    assert (
        main(["--db", str(db), "export", "1", "--figures", str(again), "--figure-format", "gif"])
        == 2
    )
    assert "unknown gif" in capsys.readouterr().err


def test_labels_are_never_mathtext(tmp_path: Path) -> None:
    """A predicate or subject label with "$" is drawn as written."""
    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "16", "--iterations", "3"]) == 0
    data = load_run_data(connect(db), 1)
    for name, axes in (("predicates", "y"), ("grid", "xy")):
        fig = FIGURES[name](data)
        assert fig is not None
        ax = fig.axes[0]
        ticks = [
            *(ax.get_yticklabels() if "y" in axes else []),
            *(ax.get_xticklabels() if "x" in axes else []),
        ]
        assert ticks and not any(t.get_parse_math() for t in ticks)
    assert parse_figure_formats("PDF,svg,pdf") == ["pdf", "svg"]


def _opens(path: Path) -> None:
    """The file is what its name says, non-empty and of a paper's size."""
    data = path.read_bytes()
    if path.suffix == ".png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert width >= 400 and height >= 250
    elif path.suffix == ".pdf":
        assert data.startswith(b"%PDF") and len(data) > 1000
    else:
        ET.parse(path)


def test_kontest_fig4_and_fact_evals_relations_are_files_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.db"
    base = ["--db", str(db)]
    kontest = [*base, "consistency", "run", "--kg", "country", "--relations", "5", "--quiet"]
    assert main([*kontest, "--yes", "--target", "sim", "--target", "sim:1"]) == 0
    facteval = [*base, "facteval", "run", "--kg", "country", "--facts", "8", "--quiet", "--yes"]
    assert main([*facteval, "--contexts", "none,relevant"]) == 0
    out = tmp_path / "figs"
    assert main([*base, "consistency", "compare", "1", "2", "--figures", str(out)]) == 0
    assert main([*base, "facteval", "report", "3", "--figures", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        f"{stem}.{ext}"
        for stem in ("runs-1-2-errors", "run-3-relations")
        for ext in ("svg", "png", "pdf")
    )
    for path in out.iterdir():
        _opens(path)
    shown = capsys.readouterr().out
    assert f"wrote {out / 'runs-1-2-errors.pdf'}" in " ".join(shown.split())
    # a file in the folder's way is refused before any work, in one line
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    for under in (blocker, blocker / "sub"):
        assert main([*base, "facteval", "report", "3", "--figures", str(under)]) == 2
        err = capsys.readouterr().err
        assert "a file is in the way" in err and len(err.strip().splitlines()) == 1
    assert main([*base, "consistency", "compare", "1", "2", "--figures", " "]) == 2
    assert "--figures: give a folder" in capsys.readouterr().err


def test_mode_figures_draw_labels_as_written() -> None:
    """A model's or a relation's "$" and control characters are data in the mode figures."""
    from kglens_tui.modes.facteval.figures import relation_figure
    from kglens_tui.modes.facteval.scoring import Scores
    from kglens_tui.modes.kontest.compare import ErrorOverlap
    from kglens_tui.modes.kontest.figures import overlap_figure

    scores = Scores(qtype="all", format="all", context="none", correct=3, incorrect=1, abstained=1)
    run = SimpleNamespace(id=7, target_label="$m$", simulated=False)
    per = ({(1, "none"): scores}, {1: "$x$\x1b[31m"}, {(1, "none"): 0.25})
    fig = relation_figure((run, per))  # type: ignore[arg-type]
    assert fig is not None
    ticks = fig.axes[0].get_yticklabels()
    assert [t.get_text() for t in ticks] == ["$x$␛[31m (n=5)"]
    assert not any(t.get_parse_math() for t in ticks)
    assert fig.axes[0].get_title().startswith("Run 7, $m$:")
    overlap = ErrorOverlap(2, (frozenset(), frozenset()), (10, 10), (0.5, 0.5), (2, 2))
    fig = overlap_figure(([run, run], overlap))  # type: ignore[list-item]
    assert fig is not None
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["run 7: $m$ (n=10)", "run 7: $m$ (n=10)"]


def test_mode_figures_give_n_the_target_and_the_legend_under_its_panel() -> None:
    """Trial 2: KONTEST Fig. 4 and fact-eval's per-relation figure gave no n, the fact-eval one
    no run or target, and Fig. 4's chance legend sat under the right-hand panel it does not
    name."""
    import io

    from kglens_tui.modes.facteval.figures import relation_figure
    from kglens_tui.modes.facteval.scoring import Scores
    from kglens_tui.modes.kontest.compare import ErrorOverlap
    from kglens_tui.modes.kontest.figures import overlap_figure

    sim = SimpleNamespace(id=3, target_label="sim:1", simulated=True)
    errors = (frozenset({(("a", "b"), 0), (("a", "b"), 1)}), frozenset({(("a", "b"), 1)}))
    overlap = ErrorOverlap(4, errors, (18, 20), (0.5, 0.6), (4, 4))
    fig = overlap_figure(([sim, sim], overlap))  # type: ignore[list-item]
    assert fig is not None
    left, right = fig.axes[:2]
    labels = [t.get_text() for t in left.get_yticklabels()]
    assert labels == ["run 3: sim:1 (simulated) (n=18)", "run 3: sim:1 (simulated) (n=20)"]
    assert right.get_title() == "n = 2 distinct errors"
    fig.savefig(io.BytesIO(), format="png")  # lays the figure out
    (legend,) = fig.legends
    box = legend.get_window_extent()
    assert box.x1 <= left.get_window_extent().x1  # under the panel it names
    scores = Scores(qtype="all", format="all", context="none", correct=30, incorrect=9)
    per = ({(1, "none"): scores}, {1: "capital"}, {(1, "none"): 0.25})
    fig = relation_figure((sim, per))  # type: ignore[arg-type]
    assert fig is not None
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["capital (n=39)"]
    assert ax.get_title().startswith("Run 3, sim:1 (simulated):")
