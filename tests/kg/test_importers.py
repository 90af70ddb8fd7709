from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import write_jsonl

from kglens_tui.kg.importers import (
    KGExistsError,
    KGImportError,
    content_hash,
    import_kg,
    parse_path,
)


def dump(conn) -> list[str]:
    return list(conn.iterdump())


def test_jsonl_directory_imports_everything(conn, tiny_kg_dir: Path) -> None:
    report = import_kg(conn, tiny_kg_dir, "tiny")
    assert (report.entities, report.predicates, report.edges) == (12, 4, 13)
    row = conn.execute(
        "SELECT p.active, p.multi_valued FROM predicate p WHERE key = 'official_language'"
    ).fetchone()
    assert tuple(row) == (1, 1)  # Tonga has two official languages
    assert conn.execute("SELECT active FROM predicate WHERE key = 'member_of'").fetchone()[0] == 0
    aliases = conn.execute("SELECT aliases FROM entity WHERE key = 'c:AT'").fetchone()[0]
    assert json.loads(aliases) == ["AT", "Österreich"]
    start = conn.execute(
        "SELECT e.start_time FROM edge e JOIN entity s ON s.id = e.subject_id "
        "JOIN predicate p ON p.id = e.predicate_id WHERE s.key = 'c:AT' AND p.key = 'member_of'"
    ).fetchone()[0]
    assert start == "1955-12-14"
    groups = conn.execute("SELECT COUNT(*) FROM entity_group WHERE grp = 'member:EU'").fetchone()[0]
    assert groups == 2
    assert conn.execute("SELECT COUNT(*) FROM subset_member").fetchone()[0] == 2


def _broken_copy(tiny_kg_dir: Path, tmp_path: Path, name: str) -> Path:
    d = tmp_path / name
    shutil.copytree(tiny_kg_dir, d)
    return d


@pytest.mark.parametrize(
    ("case", "file", "line", "field"),
    [
        ("broken_json", "triples.jsonl", 3, "(line)"),
        ("unknown_entity", "triples.jsonl", 2, "object"),
        ("invalid_utf8", "triples.jsonl", 4, "(line)"),
        ("empty_file", "triples.jsonl", 1, "(file)"),
        ("missing_label", "entities.jsonl", 2, "label"),
        ("bad_date", "triples.jsonl", 1, "start"),
        ("unknown_predicate", "triples.jsonl", 2, "predicate"),
        ("aliases_not_list", "entities.jsonl", 1, "aliases"),
    ],
)
def test_bad_jsonl_gives_one_line_error_and_leaves_db_unchanged(
    conn, tiny_kg_dir: Path, tmp_path: Path, case: str, file: str, line: int, field: str
) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    before = dump(conn)
    d = _broken_copy(tiny_kg_dir, tmp_path, case)
    target = d / file
    lines = target.read_bytes().splitlines(keepends=True)
    if case == "broken_json":
        lines[2] = b'{"subject": "c:AT", "predicate": \n'
    elif case == "unknown_entity":
        lines[1] = b'{"subject": "c:DE", "predicate": "capital", "object": "city:atlantis"}\n'
    elif case == "invalid_utf8":
        lines[3] = b'{"subject": "c:AT", "predicate": "official_language", "object": "lang:\xff"}\n'
    elif case == "empty_file":
        lines = []
    elif case == "missing_label":
        lines[1] = b'{"id": "c:DE", "aliases": []}\n'
    elif case == "bad_date":
        lines[0] = (
            b'{"subject": "c:AT", "predicate": "capital", "object": "city:vienna", "start": "last year"}\n'
        )
    elif case == "unknown_predicate":
        lines[1] = b'{"subject": "c:DE", "predicate": "mayor", "object": "city:berlin"}\n'
    elif case == "aliases_not_list":
        lines[0] = b'{"id": "c:AT", "label": "Austria", "aliases": "AT"}\n'
    target.write_bytes(b"".join(lines))
    with pytest.raises(KGImportError) as info:
        import_kg(conn, d, "broken")
    message = str(info.value)
    assert "\n" not in message
    assert str(target) in message
    assert f"line {line}" in message
    assert f"'{field}'" in message
    assert dump(conn) == before


def test_csv_with_aliases_duplicates_and_self_loops(conn, tmp_path: Path) -> None:
    path = tmp_path / "facts.csv"
    path.write_text(
        "subject,predicate,object,subject_aliases,object_aliases,start\n"
        "Austria,capital,Vienna,AT|Österreich,Wien,\n"
        "Austria,capital,Vienna,,,1920\n"
        "Germany,capital,Berlin,DE,,\n"
        "Germany,neighbour,Germany,,,\n"
        "Germany,neighbour,Austria,,,\n",
        encoding="utf-8",
    )
    report = import_kg(conn, path, "csvkg")
    assert report.edges == 3
    assert report.duplicates_merged == 1
    assert report.self_loops == ["line 5"]
    # one of each is said in the singular (it read "1 self-loops")
    assert "1 duplicate triple merged; 1 self-loop skipped: line 5" in report.summary()
    start = conn.execute(
        "SELECT e.start_time FROM edge e JOIN entity o ON o.id = e.object_id WHERE o.key = 'Vienna'"
    ).fetchone()[0]
    assert start == "1920"  # merged from the duplicate row
    wien = conn.execute("SELECT aliases FROM entity WHERE key = 'Vienna'").fetchone()[0]
    assert json.loads(wien) == ["Wien"]


def test_tsv_is_read_by_extension(conn, tmp_path: Path) -> None:
    path = tmp_path / "facts.tsv"
    path.write_text("subject\tpredicate\tobject\nA\tp\tB\n", encoding="utf-8")
    assert import_kg(conn, path, "tsv").edges == 1


@pytest.mark.parametrize(
    ("content", "line", "field"),
    [
        ("subject,object\nA,B\n", 1, "predicate"),
        ("subject,predicate,object\nA,p\n", 2, "object"),
        ("subject,predicate,object\nA,,B\n", 2, "predicate"),
        ("", 1, "(file)"),
        ("subject,predicate,object\n", 2, "(file)"),
    ],
)
def test_bad_csv_names_line_and_field(
    conn, tmp_path: Path, content: str, line: int, field: str
) -> None:
    before = dump(conn)
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(KGImportError) as info:
        import_kg(conn, path, "bad")
    assert f"{path}, line {line}, field '{field}'" in str(info.value)
    assert dump(conn) == before


def test_existing_name_is_refused_unless_replace(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    with pytest.raises(KGExistsError, match="already exists"):
        import_kg(conn, tiny_kg_dir, "tiny")
    import_kg(conn, tiny_kg_dir, "tiny", replace=True)
    assert conn.execute("SELECT COUNT(*) FROM kg").fetchone()[0] == 1
    assert conn.execute("SELECT COUNT(*) FROM edge").fetchone()[0] == 13
    assert conn.execute("SELECT COUNT(*) FROM entity").fetchone()[0] == 12


def test_content_hash_ignores_line_order_but_not_facts(tiny_kg_dir: Path, tmp_path: Path) -> None:
    original = content_hash(parse_path(tiny_kg_dir))
    shuffled = _broken_copy(tiny_kg_dir, tmp_path, "shuffled")
    lines = (shuffled / "triples.jsonl").read_text().splitlines()
    (shuffled / "triples.jsonl").write_text("\n".join(reversed(lines)) + "\n")
    assert content_hash(parse_path(shuffled)) == original
    changed = _broken_copy(tiny_kg_dir, tmp_path, "changed")
    write_jsonl(
        changed / "triples.jsonl",
        [json.loads(x) for x in lines[:-1]]
        + [{"subject": "c:TO", "predicate": "member_of", "object": "org:UN", "start": "2000"}],
    )
    assert content_hash(parse_path(changed)) != original


def test_progress_is_reported(tmp_path: Path, conn) -> None:
    d = tmp_path / "big"
    d.mkdir()
    write_jsonl(d / "entities.jsonl", [{"id": f"e{i}", "label": f"E{i}"} for i in range(100)])
    write_jsonl(
        d / "triples.jsonl",
        [
            {"subject": f"e{i % 100}", "predicate": "p", "object": f"e{(i * 7 + 1) % 100}"}
            for i in range(45_000)
        ],
    )
    calls: list[tuple[int, int]] = []
    import_kg(conn, d, "big", progress=lambda done, total: calls.append((done, total)))
    assert len(calls) >= 2
    assert calls[-1][0] == calls[-1][1]


def test_bulk_import_rebuilds_the_edge_indexes(tmp_path: Path, conn) -> None:
    d = tmp_path / "bulk"
    d.mkdir()
    write_jsonl(d / "entities.jsonl", [{"id": f"e{i}", "label": f"E{i}"} for i in range(400)])
    write_jsonl(
        d / "triples.jsonl",
        [
            {
                "subject": f"e{i % 400}",
                "predicate": "p",
                "object": f"e{(i % 400 + 1 + i // 400) % 400}",
            }
            for i in range(60_000)
        ],
    )
    assert import_kg(conn, d, "bulk").edges == 60_000
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"edge_spo", "edge_object", "edge_predicate"} <= indexes
    plan = " ".join(
        r[3] for r in conn.execute("EXPLAIN QUERY PLAN SELECT * FROM edge WHERE object_id = 5")
    )
    assert "edge_object" in plan


def test_a_kg_with_runs_is_not_replaced_under_them(conn, tiny_kg_dir: Path) -> None:
    """--replace would leave the KG's runs pointing at edges that no longer exist."""
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    import_kg(conn, tiny_kg_dir, "tiny")
    run_blocking(
        prepare(conn, config=RunConfig(kg="tiny", target="sim", iterations=1, batch_size=4))
    )
    before = dump(conn)
    with pytest.raises(
        KGExistsError,
        match=r"it has 1 run, which would point at edges that are gone; `kglens kg rm tiny`",
    ):
        import_kg(conn, tiny_kg_dir, "tiny", replace=True)
    assert dump(conn) == before
