"""Figure files a camera-ready check accepts: PDF fonts embedded as TrueType (Type 42), never
Type 3; SVG text kept as text (trial 2: every PDF used Type 3 fonts, SVG text was paths)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from kglens_tui.core.figure_files import new_figure, plain, save_figure, write_figure_files

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@plain
def _figure(label: str) -> Figure:
    fig = new_figure(3, 2)
    ax = fig.add_subplot()
    ax.bar([0, 1], [30, 70])
    ax.set_title(label)
    return fig


def test_pdf_fonts_are_truetype_not_type3(tmp_path: Path) -> None:
    path = tmp_path / "f.pdf"
    save_figure(_figure("win rate 42% & <b>"), path, "pdf")
    pdf = path.read_bytes()
    assert b"/Type3" not in pdf and b"/Subtype /Type3" not in pdf
    assert b"/FontFile2" in pdf  # an embedded TrueType font program


def test_svg_text_is_text_and_literal(tmp_path: Path) -> None:
    (path,) = write_figure_files({"f": _figure("win 42% <b>$x$</b>")}, tmp_path, "run", ["svg"])
    root = ET.parse(path).getroot()
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "win 42% <b>$x$</b>" in texts, texts
