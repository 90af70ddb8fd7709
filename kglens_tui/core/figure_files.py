"""Figures as files a paper takes (matplotlib, no display): the formats, the text rules and the
writing every report's figures share.

Every label comes from a KG, a run or a model and is data: matplotlib's mathtext is off for every
text (`RC`: a "$" in a label is a dollar sign), and control characters are made visible
(`figure_label`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from kglens_tui.core.safetext import visible
from kglens_tui.core.safewrite import atomic_output

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FIGURE_FORMATS = ("svg", "png", "pdf")

RC: dict[Any, Any] = {
    "text.parse_math": False,
    "svg.hashsalt": "kglens",
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
}
"""Text is never mathtext (a "$" in a label is a dollar sign); SVG ids do not change between
runs of the same figure; PDF fonts are embedded TrueType (Type 42: camera-ready checks reject
Type 3) and SVG text is text, not paths (a journal's editor can search and restyle it)."""

PRINT_DPI = 300
"""Raster figures (PNG) at print resolution."""

T = TypeVar("T")
R = TypeVar("R")


def figure_label(text: object, limit: int = 40) -> str:
    """``text`` as a figure shows it: control characters visible, cut with "…" at ``limit``."""
    shown = visible(str(text))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def new_figure(width: float, height: float) -> Figure:
    """A figure of ``width`` x ``height`` inches at 150 dpi, laid out by matplotlib."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    fig.set_dpi(150)
    return fig


def plain(make: Callable[[T], R]) -> Callable[[T], R]:
    """``make`` with its texts created under RC."""

    def made(data: T) -> R:
        import matplotlib

        with matplotlib.rc_context(RC):
            return make(data)

    made.__doc__ = make.__doc__
    return made


def rate_bars(
    ax: Axes,
    names: Sequence[str],
    rates: Sequence[tuple[float, float, float]],
    chance: Sequence[float | None],
    colour: str,
    chance_label: str,
    legend_side: Literal["left", "right"] = "right",
) -> None:
    """Horizontal bars of rates (value, low, high, as shares) with their interval whiskers, each
    row's chance as a black diamond (named in a legend below the figure on ``legend_side``, left
    or right: under the panel it names, where it hides no bar), ``names`` (data) as the rows'
    labels, the first row on top."""
    import numpy as np

    y = np.arange(len(rates))
    value, low, high = (np.array([100 * r[i] for r in rates]) for i in range(3))
    ax.barh(y, value, xerr=[value - low, high - value], capsize=2, color=colour, alpha=0.8)
    ax.scatter(
        [100 * c for c in chance if c is not None],
        [i for i, c in enumerate(chance) if c is not None],
        marker="D",
        color="black",
        s=16,
        label=chance_label,
        zorder=3,
    )
    where: Literal["outside lower left", "outside lower right"] = (
        "outside lower left" if legend_side == "left" else "outside lower right"
    )
    ax.figure.legend(loc=where, fontsize="small", frameon=False)
    labels = [figure_label(name, 60) for name in names]  # callers cut the data in them
    ax.set_yticks(y, labels, fontsize="small", parse_math=False)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)


def write_figure_files(
    figures: Mapping[str, Figure | None],
    folder: Path,
    prefix: str,
    formats: Sequence[str],
    *,
    force: bool = True,
) -> list[Path]:
    """Each figure (by name; None: the data has none) in each format, as ``PREFIX-NAME.ext`` in
    ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, fig in figures.items():
        if fig is None:
            continue
        for fmt in formats:
            path = folder / f"{prefix}-{name}.{fmt}"
            save_figure(fig, path, fmt, force=force)
            written.append(path)
    return written


def save_figure(fig: Figure, path: Path, fmt: str, *, force: bool = True) -> None:
    """One figure as one file of format ``fmt``, written whole or not at all."""
    import matplotlib

    with matplotlib.rc_context(RC), atomic_output(path, force=force, binary=True) as fh:
        fig.savefig(fh, format=fmt, metadata=_metadata(fmt), dpi=PRINT_DPI)


def _metadata(fmt: str) -> dict[str, str | None]:
    """No creation date in the files (the same data gives the same file)."""
    if fmt == "png":
        return {"Software": None}
    if fmt == "svg":
        return {"Date": None}
    return {"CreationDate": None}


def parse_figure_formats(text: str) -> list[str]:
    """'svg,pdf' -> ['svg', 'pdf']; ValueError naming an unknown one."""
    chosen = [part.strip().lower() for part in text.split(",") if part.strip()]
    bad = [f for f in chosen if f not in FIGURE_FORMATS]
    if bad or not chosen:
        raise ValueError(
            f"--figure-format: unknown {', '.join(bad) or 'nothing'} "
            f"(use {', '.join(FIGURE_FORMATS)})"
        )
    return list(dict.fromkeys(chosen))


def add_figure_options(parser: argparse.ArgumentParser, what: str) -> None:
    """`--figures DIR` (``what``: the figures it writes) and `--figure-format` on a command."""
    parser.add_argument("--figures", metavar="DIR", help=f"{what} as files")
    parser.add_argument(
        "--figure-format",
        default=",".join(FIGURE_FORMATS),
        metavar="LIST",
        help="formats of --figures, comma-separated: svg, png, pdf (default: all)",
    )


def figure_folder(args: argparse.Namespace) -> tuple[Path, list[str]] | None:
    """The folder and formats `--figures` / `--figure-format` ask for (None when not asked);
    ValueError when a file is in the folder's way or a format is unknown, before any work."""
    if getattr(args, "figures", None) is None:
        return None
    formats = parse_figure_formats(args.figure_format)
    if not args.figures.strip():
        raise ValueError("--figures: give a folder")
    folder = Path(args.figures)
    for place in (folder, *folder.parents):
        if place.exists() and not place.is_dir():
            raise ValueError(
                f"--figures {args.figures}: a file is in the way at {place} (give a folder)"
            )
    return folder, formats
