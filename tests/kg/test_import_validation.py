"""Bad KG files stop an import with one line naming the file, the line and the field, and leave
the workspace exactly as it was; the CLI shows such lines literally (no markup, no control)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kglens_tui.kg.importers import KGImportError, import_kg

CSV_HEADER = "subject,predicate,object,start\n"

BAD_CSV = {
    # an unbalanced quote on line 2 of a 5-line file: the quoted value opens on line 2
    "unbalanced quote": (
        CSV_HEADER + 'Austria,capital,"Vienna,\nGermany,capital,Berlin,\n'
        "France,capital,Paris,\nItaly,capital,Rome,\n",
        2,
        "object",
        "unbalanced quote",
    ),
    "quote left open on the last line": (
        CSV_HEADER + 'Austria,capital,Vienna,\nGermany,"capital,Berlin,\n',
        3,
        "predicate",
        "unbalanced quote",
    ),
    "text after a closing quote": (
        CSV_HEADER + 'Austria,capital,"Vienna"x,\n',
        2,
        "object",
        "malformed quoting",
    ),
    "NUL byte": (CSV_HEADER + "Austria,capi\0tal,Vienna,\n", 2, "predicate", "U+0000"),
    "escape sequence": (CSV_HEADER + "Austria,capital,Vienna\x1b[2J,\n", 2, "object", "U+001B"),
    "tab inside a value": (CSV_HEADER + "Austria,capital,Vie\tnna,\n", 2, "object", "U+0009"),
    "C1 control": (CSV_HEADER + "Austria\x9b,capital,Vienna,\n", 2, "subject", "U+009B"),
    "5 MB field": (
        CSV_HEADER + "Austria,capital," + "V" * 5_000_000 + ",\n",
        2,
        "object",
        "longer than 131,072 characters",
    ),
    "month 13": (CSV_HEADER + "Austria,capital,Vienna,2020-13-45\n", 2, "start", "month 13"),
    "day 45": (CSV_HEADER + "Austria,capital,Vienna,2020-12-45\n", 2, "start", "day 45"),
    "29 February of a common year": (
        CSV_HEADER + "Austria,capital,Vienna,2021-02-29\n",
        2,
        "start",
        "day 29",
    ),
    "more cells than the header": (
        CSV_HEADER + "Austria,capital,Vienna,1920,Wien\n",
        2,
        "column 5",
        "an unquoted ','",
    ),
    "column named twice": (
        "subject,predicate,object,object\nAustria,capital,Vienna,Wien\n",
        1,
        "object",
        "appears twice",
    ),
    # named, not taken for a missing predicate column
    "subject named twice in place of the predicate": (
        "subject,subject,object\nAustria,capital,Vienna\n",
        1,
        "subject",
        "the column appears twice in the header (columns 1 and 2)",
    ),
    "a column named twice, differently spelt": (
        "Subject,predicate, subject ,object\nAustria,capital,Österreich,Vienna\n",
        1,
        "subject",
        "appears twice in the header (columns 1 and 3)",
    ),
    "predicate named twice and object missing": (
        "predicate,subject,predicate\ncapital,Austria,Vienna\n",
        1,
        "predicate",
        "appears twice",
    ),
}


def dump(conn) -> list[str]:
    return list(conn.iterdump())


@pytest.fixture
def workspace(conn, tiny_kg_dir: Path):
    """A workspace that already holds a KG, so 'unchanged' means something."""
    import_kg(conn, tiny_kg_dir, "tiny")
    return conn


def _assert_one_line(exc: KGImportError, path: Path, line: int, field: str, words: str) -> None:
    message = str(exc)
    assert message.startswith(f"{path}, line {line}, field '{field}': "), message
    assert words in message, message
    assert "\n" not in message and "\x00" not in message and "\x1b" not in message
    assert len(message) < 600


@pytest.mark.parametrize("case", sorted(BAD_CSV))
def test_bad_csv_stops_with_one_line_and_changes_nothing(
    workspace, tmp_path: Path, case: str
) -> None:
    content, line, field, words = BAD_CSV[case]
    path = tmp_path / "facts.csv"
    path.write_text(content, encoding="utf-8")
    before = dump(workspace)
    with pytest.raises(KGImportError) as info:
        import_kg(workspace, path, "facts")
    _assert_one_line(info.value, path, line, field, words)
    assert dump(workspace) == before


def test_unbalanced_quote_does_not_fold_rows(tmp_path: Path, conn) -> None:
    """The quote opened on line 2 would otherwise swallow lines 3-5 into one label."""
    path = tmp_path / "five.csv"
    path.write_text('subject,predicate,object\nA,p,"B\nC,p,D\nE,p,F\nG,p,H\n', encoding="utf-8")
    with pytest.raises(KGImportError, match=r"five\.csv, line 2, field 'object'"):
        import_kg(conn, path, "five")
    assert conn.execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 0


def test_tsv_control_character_and_quoted_tab(workspace, tmp_path: Path) -> None:
    before = dump(workspace)
    path = tmp_path / "facts.tsv"
    path.write_text('subject\tpredicate\tobject\nA\t"p\tq"\tB\n', encoding="utf-8")
    with pytest.raises(KGImportError) as info:
        import_kg(workspace, path, "facts")
    _assert_one_line(info.value, path, 2, "predicate", "U+0009 in 'p␉q'")
    assert dump(workspace) == before


def test_unknown_columns_warn_in_one_line_and_still_import(conn, tmp_path: Path) -> None:
    path = tmp_path / "extra.csv"
    path.write_text(
        "subject,predicate,object,confidence,,source\n"
        "Austria,capital,Vienna,0.9,,atlas\n"
        "Germany,capital,Berlin,0.8,x,\n",
        encoding="utf-8",
    )
    report = import_kg(conn, path, "extra")
    assert report.edges == 2
    assert len(report.warnings) == 1
    warning = report.warnings[0]
    assert warning.startswith(f"{path}, line 1: ignoring unknown columns 'confidence', column 5")
    assert "\n" not in warning
    sources = {r[0] for r in conn.execute("SELECT source FROM edge")}
    assert sources == {"atlas", ""}


def test_trailing_empty_cells_are_not_extra_values(conn, tmp_path: Path) -> None:
    path = tmp_path / "trailing.csv"
    path.write_text("subject,predicate,object\nAustria,capital,Vienna,,\n", encoding="utf-8")
    assert import_kg(conn, path, "trailing").edges == 1


def test_valid_dates_and_a_crlf_file_import(conn, tmp_path: Path) -> None:
    path = tmp_path / "dates.csv"
    path.write_bytes(
        b"subject,predicate,object,start,end\r\n"
        b"A,p,B,2020-02-29,2021\r\n"
        b"C,p,D,-0044-03-15,\r\n"
        b'E,p,"F, the ""second""",,\r\n'
    )
    assert import_kg(conn, path, "dates").edges == 3
    labels = {r[0] for r in conn.execute("SELECT label FROM entity")}
    assert 'F, the "second"' in labels
    starts = {r[0] for r in conn.execute("SELECT start_time FROM edge")}
    assert starts == {"2020-02-29", "-0044-03-15", None}


def _kg_copy(tiny_kg_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "broken"
    shutil.copytree(tiny_kg_dir, d)
    return d


DEEP = "[" * 100_000 + "]" * 100_000

BAD_DIRECTORY = {
    "deeply nested entity line": (
        "entities.jsonl",
        lambda lines: lines.insert(1, '{"id": "x", "label": "X", "extra": ' + DEEP + "}"),
        2,
        "(line)",
        "nested too deeply",
    ),
    "deeply nested triple line": (
        "triples.jsonl",
        lambda lines: lines.insert(2, DEEP),
        3,
        "(line)",
        "nested too deeply",
    ),
    "4,301-digit number": (
        "triples.jsonl",
        lambda lines: lines.insert(0, '{"subject": ' + "9" * 4301 + "}"),
        1,
        "(line)",
        "invalid JSON",
    ),
    "5 MB label": (
        "entities.jsonl",
        lambda lines: lines.insert(4, json.dumps({"id": "x", "label": "L" * 5_000_000})),
        5,
        "label",
        "longer than 131,072 characters",
    ),
    "NUL in a predicate key": (
        "triples.jsonl",
        lambda lines: lines.insert(
            3, '{"subject": "c:AT", "predicate": "capi\\u0000tal", "object": "city:vienna"}'
        ),
        4,
        "predicate",
        "U+0000 in 'capi␀tal'",
    ),
    "newline inside a label": (
        "entities.jsonl",
        lambda lines: lines.append('{"id": "x", "label": "two\\nlines"}'),
        13,
        "label",
        "U+000A",
    ),
    "control character in an alias": (
        "entities.jsonl",
        lambda lines: lines.append('{"id": "x", "label": "X", "aliases": ["ok", "b\\u0007"]}'),
        13,
        "aliases[1]",
        "U+0007",
    ),
    "control character in a source": (
        "triples.jsonl",
        lambda lines: lines.append(
            '{"subject": "c:TO", "predicate": "capital", "object": "city:vienna", '
            '"source": "x\\u001b]0;title"}'
        ),
        14,
        "source",
        "U+001B",
    ),
    "lone surrogate in a label (half an emoji, escaped)": (
        "entities.jsonl",
        lambda lines: lines.append('{"id": "x", "label": "Alpha \\ud800 x"}'),
        13,
        "label",
        "lone surrogate U+D800 in 'Alpha \ufffd x' (half a character; not allowed)",
    ),
    "invalid date": (
        "triples.jsonl",
        lambda lines: lines.append(
            '{"subject": "c:TO", "predicate": "member_of", "object": "org:UN", '
            '"start": "2020-13-45"}'
        ),
        14,
        "start",
        "month 13",
    ),
    "markup in an unknown entity id": (
        "triples.jsonl",
        lambda lines: lines.append(
            '{"subject": "c:TO", "predicate": "capital", "object": "[/][bold]x"}'
        ),
        14,
        "object",
        "unknown entity '[/][bold]x'",
    ),
    "template with a control character": (
        "predicates.jsonl",
        lambda lines: lines.append(
            '{"id": "p9", "label": "p9", "templates": {"yes_no": ["Is {object}\\u0000 of '
            '{subject}?"]}}'
        ),
        5,
        "templates.yes_no[0]",
        "U+0000",
    ),
    "active not a boolean": (
        "predicates.jsonl",
        lambda lines: lines.append('{"id": "p9", "label": "p9", "active": "no"}'),
        5,
        "active",
        "expected true or false",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_DIRECTORY))
def test_bad_jsonl_stops_with_one_line_and_changes_nothing(
    workspace, tiny_kg_dir: Path, tmp_path: Path, case: str
) -> None:
    file, edit, line, field, words = BAD_DIRECTORY[case]
    d = _kg_copy(tiny_kg_dir, tmp_path)
    lines = (d / file).read_text(encoding="utf-8").splitlines()
    edit(lines)
    (d / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = dump(workspace)
    with pytest.raises(KGImportError) as info:
        import_kg(workspace, d, "broken")
    _assert_one_line(info.value, d / file, line, field, words)
    assert dump(workspace) == before


BAD_EXTRAS = {
    "subsets.json is a list": ("subsets.json", '["c:AT"]\n', 1, "(file)", "got a list"),
    "meta.json is a list": ("meta.json", "[1, 2]\n", 1, "(file)", "got a list"),
    "subsets.json nested too deeply": ("subsets.json", DEEP, 1, "(line)", "nested too deeply"),
    "meta.json nested too deeply": ("meta.json", '{"x": ' + DEEP + "}", 1, "(line)", "nested"),
    "a subset that is not a list": (
        "subsets.json",
        '{\n  "eu": ["c:AT"],\n  "big": "c:DE"\n}\n',
        3,
        "big",
        "expected a list of entity ids",
    ),
    "a subset with an unknown entity": (
        "subsets.json",
        '{\n  "eu": ["c:AT", "c:XX"]\n}\n',
        2,
        "eu",
        "unknown entity 'c:XX'",
    ),
    "meta description not a string": (
        "meta.json",
        '{\n  "name": "tiny",\n  "description": {"text": "x"}\n}\n',
        3,
        "description",
        "expected a string",
    ),
    "meta snapshot date invalid": (
        "meta.json",
        '{"snapshot_date": "2024-02-30"}',
        1,
        "snapshot_date",
        "day 30",
    ),
    "broken JSON on line 3": ("meta.json", '{\n  "a": 1,\n  "b": \n}\n', 4, "(line)", "invalid"),
}


@pytest.mark.parametrize("case", sorted(BAD_EXTRAS))
def test_bad_subsets_or_meta_stop_with_one_line_and_change_nothing(
    workspace, tiny_kg_dir: Path, tmp_path: Path, case: str
) -> None:
    file, content, line, field, words = BAD_EXTRAS[case]
    d = _kg_copy(tiny_kg_dir, tmp_path)
    (d / file).write_text(content, encoding="utf-8")
    before = dump(workspace)
    with pytest.raises(KGImportError) as info:
        import_kg(workspace, d, "broken")
    _assert_one_line(info.value, d / file, line, field, words)
    assert dump(workspace) == before


def test_meta_and_subsets_are_stored(conn, tiny_kg_dir: Path, tmp_path: Path) -> None:
    d = _kg_copy(tiny_kg_dir, tmp_path)
    (d / "meta.json").write_text(
        json.dumps({"description": " A tiny KG ", "snapshot_date": "2024-02-29"}), "utf-8"
    )
    import_kg(conn, d, "tiny")
    row = conn.execute("SELECT description, snapshot_date FROM kg").fetchone()
    assert tuple(row) == ("A tiny KG", "2024-02-29")


def test_cli_prints_the_error_literally_on_one_line(tmp_path: Path, capsys) -> None:
    from kglens_tui.cli.main import main

    db = tmp_path / "cli.db"
    good = tmp_path / "good.csv"
    good.write_text("subject,predicate,object\nA,p,B\n", encoding="utf-8")
    assert main(["--db", str(db), "kg", "import", str(good), "--name", "good"]) == 0
    capsys.readouterr()
    from kglens_tui.store.connection import connect

    conn = connect(db)
    before = dump(conn)
    (tmp_path / "[red]in").mkdir()
    bad = tmp_path / "[red]in" / "b[a]d.csv"
    bad.write_text(
        "subject,predicate,object\nA,p,[/]B\x1b]0;title\x07\n" + "x" * 200 + ",p,q\n",
        encoding="utf-8",
    )
    assert main(["--db", str(db), "kg", "import", str(bad), "--name", "[/]"]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {bad}, line 2, field 'object': control character U+001B")
    assert "'[/]B␛]0;title␇'" in lines[0]
    assert "\x1b" not in err and "\x07" not in err
    assert dump(conn) == before


def test_cli_warns_of_unknown_columns_in_one_line(tmp_path: Path, capsys) -> None:
    from kglens_tui.cli.main import main

    path = tmp_path / "extra.csv"
    path.write_text("subject,predicate,object,[b]weight[/b]\nA,p,B,1\n", encoding="utf-8")
    assert main(["--db", str(tmp_path / "w.db"), "kg", "import", str(path)]) == 0
    captured = capsys.readouterr()
    warnings = captured.err.splitlines()
    assert warnings == [
        f"warning: {path}, line 1: ignoring unknown columns '[b]weight[/b]' (known: subject, "
        "predicate, object, subject_aliases, object_aliases, subject_type, object_type, start, "
        "end, point_in_time, source)"
    ]
    assert "imported 'extra'" in captured.out


@pytest.mark.parametrize(
    ("name", "setup", "error"),
    [
        ("ansi.csv", None, "ansi.csv: no such file or directory"),
        ("kg", "dir", "kg/entities.jsonl: missing: a KG directory needs entities.jsonl and"),
        ("facts.txt", "file", "facts.txt: unknown format: expected a directory, .jsonl, .csv"),
    ],
)
def test_a_path_that_cannot_be_imported_names_the_path_alone(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    setup: str | None,
    error: str,
) -> None:
    """A missing or unusable path has no line and no field to name: `kg import` says the path and
    what is wrong, on one line."""
    from kglens_tui.cli.main import main

    monkeypatch.chdir(tmp_path)
    if setup == "dir":
        (tmp_path / name).mkdir()
    elif setup == "file":
        (tmp_path / name).write_text("a,b,c\n", encoding="utf-8")
    assert main(["--db", str(tmp_path / "w.db"), "kg", "import", name]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {error}"), err
    assert "line" not in err and "field" not in err


@pytest.mark.parametrize(
    ("encoding", "says"),
    [
        ("utf-16", "looks like UTF-16"),  # with a byte-order mark, as Excel's "Unicode text"
        ("utf-16-le", "looks like UTF-16"),  # without one
        ("latin-1", "save the file as UTF-8"),
    ],
)
def test_a_csv_in_another_encoding_is_one_line_with_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str, says: str
) -> None:
    from kglens_tui.cli.main import main

    path = tmp_path / "facts.csv"
    path.write_bytes("subject,predicate,object\nÖsterreich,capital,Wien\n".encode(encoding))
    assert main(["--db", str(tmp_path / "w.db"), "kg", "import", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid UTF-8" in err[0] and says in err[0], err
