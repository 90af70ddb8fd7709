"""The bundled `places` KG: a 'located in' hierarchy the KONTEST ontological oracle walks."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Select
from tui_support import make_app

from kglens_tui.cli.main import main
from kglens_tui.kg.bundled_data import bundled_root, bundled_transitive

DATA = bundled_root() / "places"


def _jsonl(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def places() -> tuple[dict[str, dict], dict[str, list[str]]]:
    entities = {e["id"]: e for e in _jsonl("entities.jsonl")}
    parents: dict[str, list[str]] = {}
    for t in _jsonl("triples.jsonl"):
        assert t["predicate"] == "located_in"
        assert t["subject"] in entities and t["object"] in entities, t
        parents.setdefault(t["subject"], []).append(t["object"])
    return entities, parents


def test_every_chain_ends_at_a_continent_without_cycles(places) -> None:
    entities, parents = places
    continents = {e for e, ent in entities.items() if "level:continent" in ent["groups"]}
    assert not continents & parents.keys()
    depth: dict[str, int] = {c: 0 for c in continents}

    def walk(node: str, seen: tuple[str, ...]) -> int:
        assert node not in seen, f"cycle: {' -> '.join(seen + (node,))}"
        if node not in depth:
            assert node in parents, f"{node} is neither a continent nor located anywhere"
            depth[node] = 1 + max(walk(p, seen + (node,)) for p in parents[node])
        return depth[node]

    for node in entities:
        walk(node, ())
    assert Counter(depth[e] for e in entities) == Counter(
        {0: 6, 1: 195, 2: 3545, 3: 1454 + 3235, 4: 2}
    )
    labels = {e["label"]: e["id"] for e in entities.values()}
    england = labels["England"]
    assert parents[england] == ["country:GBR"] and parents["country:GBR"] == ["continent:Europe"]
    assert parents[labels["Hampshire"]] == [england]
    assert sorted(parents["country:RUS"]) == ["continent:Asia", "continent:Europe"]
    assert parents["county:06037"] == ["subdivision:US-CA"]  # Los Angeles County
    assert parents["subdivision:US-CA"] == ["country:USA"]


def test_labels_name_one_place_and_meta_counts_agree(places) -> None:
    entities, parents = places
    labels = Counter(e["label"].casefold() for e in entities.values())
    assert [k for k, n in labels.items() if n > 1] == []
    assert entities["county:01129"]["label"] == "Washington County, Alabama"
    meta = json.loads((DATA / "meta.json").read_text(encoding="utf-8"))
    assert meta["counts"]["entities"] == len(entities)
    assert meta["counts"]["triples"] == sum(len(p) for p in parents.values())
    assert bundled_transitive("places") == ["located_in"] and bundled_transitive("country") == []
    (pred,) = _jsonl("predicates.jsonl")
    assert pred["multi_valued"] and pred["id"] == "located_in"


def test_the_cli_walks_the_hierarchy_without_being_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "w.db")
    run = ["--db", db, "consistency", "run", "--kg", "places", "--relations", "5"]
    assert main([*run, "--max-paths", "4", "--quiet"]) == 0
    assert main(["--db", db, "consistency", "report", "1"]) == 0
    out = capsys.readouterr().out
    assert "ontological oracle over 4/4 paths" in out
    valid = re.search(r"│ ontological\s+│\s+(\d+) ·", out)
    assert valid and int(valid.group(1)) > 0


@pytest.mark.tui
async def test_the_new_run_form_gives_kontest_the_places_hierarchy(tmp_path: Path) -> None:
    app = make_app(tmp_path / "w.db")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#mode", Select).value = "kontest"
        screen.query_one("#kg", Select).value = "places"
        await pilot.pause()
        config = screen.build_mode_config(screen.build_config())
        assert config.kg == "places" and config.transitive == ["located_in"]
        assert not config.template3
        screen.query_one("#template3", Checkbox).value = True
        assert screen.build_mode_config(screen.build_config()).template3
        screen.query_one("#mode", Select).value = "facteval"
        await pilot.pause()
        assert not screen.query_one("#template3", Checkbox).display
        screen.query_one("#mode", Select).value = "kontest"
        await pilot.pause()
        assert screen.query_one("#template3", Checkbox).display
        screen.query_one("#kg", Select).value = "country"
        await pilot.pause()
        assert screen.build_mode_config(screen.build_config()).transitive == []


def test_a_bundled_kg_is_parsed_once_per_process_and_stored_the_same(tmp_path, monkeypatch) -> None:
    import kglens_tui.kg.bundled as bundled
    from kglens_tui.store.connection import connect

    calls: list[str] = []
    real = bundled.parse_path

    def counting(path, *args, **kwargs):
        calls.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(bundled, "parse_path", counting)
    # a store of its own: the session's holds a stored copy already (bundled_store)
    monkeypatch.setenv("KGLENS_KG_CACHE", str(tmp_path / "kg-cache"))
    bundled._parsed.cache_clear()
    hashes = []
    for name in ("a.db", "b.db"):
        conn = connect(tmp_path / name)
        bundled.ensure_kg(conn, "places")
        hashes.append(conn.execute("SELECT content_hash, source FROM kg").fetchone())
        edges = conn.execute("SELECT COUNT(*) FROM edge").fetchone()[0]
        conn.close()
    assert len(calls) == 1 and hashes[0] == hashes[1] and edges > 8000
    bundled._parsed.cache_clear()
