"""Report tables as files (`--tables DIR`): the tables a command prints, in CSV, JSON, Markdown
and LaTeX, rates split from their intervals, hostile text kept as data in every format."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from kglens_tui.analysis.table_files import (
    PlainTable,
    parse_formats,
    split_intervals,
    to_csv,
    to_json,
    to_latex,
    to_markdown,
)
from kglens_tui.cli.main import main
from kglens_tui.modes.kglens.rate_text import CAPPED_NOTE

HOSTILE = "A&B 50% $x #1 _y {z} ~ ^ \\ | *b* \x1b[2J\nline two"


def _balanced(tex: str) -> None:
    """Every \\begin has its \\end in order, and braces balance outside escapes."""
    stack = []
    for kind, name in re.findall(r"\\(begin|end)\{(\w+)\}", tex):
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name, name
    assert not stack
    unescaped = re.sub(r"\\[{}]", "", tex)
    assert unescaped.count("{") == unescaped.count("}")


def test_rates_and_counts_are_split_into_columns() -> None:
    table = PlainTable(
        "t",
        "",
        ["metric", "win [95% interval]", "n"],
        [["a", "78.9% [76.1–81.8]", "n=1,960 answers"], ["b", "", "n=4"]],
    )
    split = split_intervals(table)
    assert split.headers == [
        "metric",
        "win (%)",
        "win low (%)",
        "win high (%)",
        "win capped",
        "n",
        "n note",
    ]
    assert split.rows == [
        ["a", "78.9", "76.1", "81.8", "false", "1960", "answers"],
        ["b", "", "", "", "", "4", ""],
    ]
    assert split.caption == ""


def test_a_capped_rate_keeps_its_column_numeric_and_is_flagged() -> None:
    """One "†" (a KG-wide estimate held at 0%/100%) kept every row of the column as text (trial
    2: tab6/05); now the column is numeric with a "capped" column, and the caption says what
    the mark means. Percent columns and "(n=…)" after an interval are numbers too."""
    table = PlainTable(
        "t",
        "caption.",
        ["group", "win [95% interval]", "chance", "value [95% interval] (n)"],
        [
            ["currency", "100.0% [76.6–100.0]†", "38.8%", "71.1% [65.9–75.8] (n=1,315)"],
            ["capital", "25.9% [0.0–66.2]", "27.9%", "— (none examined)"],
            ["demonym", "— (too few edges asked twice yet)", "", "49.4% [43.8%–54.9%] (n=308)"],
        ],
    )
    split = split_intervals(table)
    assert split.headers == [
        "group",
        "win (%)",
        "win low (%)",
        "win high (%)",
        "win capped",
        "chance (%)",
        "value (%)",
        "value low (%)",
        "value high (%)",
        "value capped",
        "value n",
    ]
    assert split.rows == [
        [
            "currency",
            "100.0",
            "76.6",
            "100.0",
            "true",
            "38.8",
            "71.1",
            "65.9",
            "75.8",
            "false",
            "1315",
        ],
        ["capital", "25.9", "0.0", "66.2", "false", "27.9", "— (none examined)", "", "", "", ""],
        [
            "demonym",
            "— (too few edges asked twice yet)",
            "",
            "",
            "",
            "",
            "49.4",
            "43.8",
            "54.9",
            "false",
            "308",
        ],
    ]
    assert split.caption == f"caption. {CAPPED_NOTE}."
    again = split_intervals(PlainTable("t", f"x {CAPPED_NOTE}.", ["w"], [["1.0% [0.0–2.0]†"]]))
    assert again.caption == f"x {CAPPED_NOTE}."  # said once


def test_latex_writes_greek_as_math() -> None:
    """pdflatex stops on a raw κ or α ("Unicode character κ (U+03BA) not set up")."""
    table = PlainTable(
        "Cohen's κ, question_clear",
        "α ≥ 0.8 & n → 5",
        ["Krippendorff α", "κ"],
        [["0.378", "0.625"]],
    )
    tex = to_latex(table)
    _balanced(tex)
    assert r"\caption{Cohen's $\kappa$, question\_clear}" in tex
    assert r"Krippendorff $\alpha$ & $\kappa$ \\" in tex
    assert r"$\alpha$ $\geq$ 0.8 \& n $\rightarrow$ 5" in tex
    assert not re.search("[ακ≥→]", tex)


def test_hostile_text_is_data_in_every_format() -> None:
    table = PlainTable(HOSTILE, HOSTILE, ["name", "value"], [[HOSTILE, "1.0"]])
    rows = list(csv.reader(to_csv(table).splitlines(keepends=True)))
    assert "\x1b" not in to_csv(table) and rows[1][0].startswith("A&B 50%")
    formula = PlainTable("", "", ["a", "b"], [["=HYPERLINK(1)", "-0.5"]])
    assert list(csv.reader(to_csv(formula).splitlines()))[1] == ["'=HYPERLINK(1)", "-0.5"]
    data = json.loads(to_json(table))
    assert data["rows"][0]["name"] == HOSTILE  # JSON escapes by itself
    md = to_markdown(table)
    body = [line for line in md.splitlines() if line.startswith("| A")]
    assert len(body) == 1 and body[0].count(" | ") == 1  # the | is escaped, one row
    assert "\x1b" not in md and "\\*b\\*" in md
    tex = to_latex(table)
    _balanced(tex)
    assert r"A\&B 50\% \$x \#1 \_y \{z\}" in tex and "\x1b" not in tex


def test_unknown_formats_are_named() -> None:
    assert parse_formats("latex, CSV,latex") == ["latex", "csv"]
    with pytest.raises(ValueError, match="unknown pdf"):
        parse_formats("csv,pdf")


def test_report_tables_as_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "16", "--iterations", "4"]) == 0
    capsys.readouterr()
    out = tmp_path / "tables"
    assert main(["--db", str(db), "report", "1", "--tables", str(out)]) == 0
    printed = capsys.readouterr()
    files = sorted(out.iterdir())
    stems = sorted({f.stem for f in files})
    assert len(stems) >= 5 and len(files) == 4 * len(stems)
    assert f"wrote {len(stems)} tables" in printed.err
    for stem in stems:
        rows = list(csv.reader((out / f"{stem}.csv").open(encoding="utf-8")))
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows)
        data = json.loads((out / f"{stem}.json").read_text(encoding="utf-8"))
        assert data["columns"] == rows[0] and len(data["rows"]) == len(rows) - 1
        _balanced((out / f"{stem}.tex").read_text(encoding="utf-8"))
        assert (out / f"{stem}.md").read_text(encoding="utf-8").count("\n| ") >= len(rows) - 1
    headline = next(out.glob("01-*.csv"))
    first = list(csv.DictReader(headline.open(encoding="utf-8")))
    win = next(r for r in first if r["metric"].startswith("win rate"))
    assert float(win["value low (%)"]) <= float(win["value (%)"]) <= float(win["value high (%)"])
    assert int(win["n"]) > 0
    only = tmp_path / "latex"
    assert (
        main(["--db", str(db), "report", "1", "--tables", str(only), "--table-format", "latex"])
        == 0
    )
    assert {f.suffix for f in only.iterdir()} == {".tex"}
    assert (
        main(["--db", str(db), "report", "1", "--tables", str(only), "--table-format", "doc"]) == 2
    )
    assert "unknown doc" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["--db", str(db), "report", "1", "--tables", str(blocker)]) == 2
    assert "a file is in the way" in capsys.readouterr().err


def test_every_table_command_takes_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """compare (Table 3) and the KONTEST report write their tables too."""
    db = tmp_path / "w.db"
    probe = ["--db", str(db), "probe", "--no-tui", "--quiet", "--subset", "paper16"]
    assert main([*probe, "--batch-size", "16", "--iterations", "2"]) == 0
    assert (
        main(["--db", str(db), "consistency", "run", "--relations", "5", "--max-paths", "0"]) == 0
    )
    for argv, folder in (
        (["compare", "1"], "compare"),
        (["consistency", "report", "2"], "kontest"),
    ):
        out = tmp_path / folder
        assert main(["--db", str(db), *argv, "--tables", str(out), "--table-format", "csv"]) == 0
        assert list(out.glob("*.csv")), argv


def test_a_latex_cell_opening_with_a_bracket_is_no_optional_argument() -> None:
    """After \\midrule (or \\\\), a row opening "[b]currency[/b]" was read as the rule's width
    and stopped compilation (trial 3): brackets are braced."""
    table = PlainTable("t", "", ["name", "n"], [["[b]currency[/b]", "3"], ["x [y]", "4"]])
    tex = to_latex(table)
    _balanced(tex)
    assert "\\midrule\n{[}b{]}currency{[}/b{]} & 3 \\\\\n" in tex
    assert "x {[}y{]} & 4" in tex
    assert not re.search(r"(?<!\{)\[", tex.split("\\midrule", 1)[1])
