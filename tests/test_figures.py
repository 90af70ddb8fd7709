"""A run's figures as files (`kglens export RUN --figures DIR`): SVG, PNG and PDF of the rates
over the run, the KG-wide win rate per predicate and the Fig. 6 grid."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kglens_tui.analysis.figures import FIGURES, parse_figure_formats
from kglens_tui.analysis.rundata import load_run_data
from kglens_tui.cli import main
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
