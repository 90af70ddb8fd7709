"""The popularity filter (paper A.2.3, "filtering by word frequency", with Wikidata sitelinks as
the measure): `--min-sitelinks N` drops exactly the entities with fewer than N sitelinks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from wikidata_support import CONFIG, ENTITIES, FIXTURES, ReplayServer, _args, build, values_lists

from kglens_tui.cli.main import main
from kglens_tui.kg.wikidata import WalkConfig
from kglens_tui.kg.wikidata.queries import languages_query


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


def sitelinks() -> dict[str, int]:
    doc = json.loads((FIXTURES / "languages.json").read_text(encoding="utf-8"))
    return {
        r["item"]["value"].rsplit("/", 1)[-1]: int(r["sitelinks"]["value"])
        for r in doc["results"]["bindings"]
    }


def keys(conn) -> set[str]:
    return {r[0] for r in conn.execute("SELECT key FROM entity")}


def test_the_languages_query_fetches_sitelinks_too() -> None:
    query = languages_query(["Q30"])
    assert "(SAMPLE(?links) AS ?sitelinks)" in query
    assert "OPTIONAL { ?item wikibase:sitelinks ?links . }" in query


def test_the_filter_is_off_by_default(conn, server, tmp_path: Path) -> None:
    assert CONFIG.min_sitelinks == 0
    report = build(conn, server, tmp_path / "cache")
    assert keys(conn) == ENTITIES
    assert report.few_sitelinks == 0
    assert "sitelinks" not in report.summary()
    assert sitelinks()["Q1637706"] < 50  # kept although rare


def test_it_drops_exactly_the_rare_entities(conn, server, tmp_path: Path) -> None:
    report = build(conn, server, tmp_path / "cache", config=replace(CONFIG, min_sitelinks=50))
    assert keys(conn) == ENTITIES - {"Q1637706"}  # "city with millions of inhabitants": 38
    assert report.few_sitelinks == 1
    assert "1 with fewer than 50 sitelinks" in report.summary()


def test_a_rare_entity_is_not_walked_from(conn, server, tmp_path: Path) -> None:
    links = sitelinks()
    report = build(conn, server, tmp_path / "cache", config=replace(CONFIG, min_sitelinks=150))
    kept = keys(conn)
    # "sovereign state" (120) goes at step 1, "city with millions of inhabitants" (38) at
    # step 2; the United States dollar has exactly 150 and stays
    assert kept == ENTITIES - {"Q3624078", "Q1637706"}
    assert "Q4917" in kept and links["Q4917"] == 150
    assert report.few_sitelinks == 2
    assert all(links[q] >= 150 for q in kept - set(CONFIG.seeds))
    forward = [q for q in server.queries if "VALUES ?subject {" in q]
    assert "wd:Q3624078" not in values_lists(forward)[1]  # not in the step-2 frontier


def test_seeds_are_kept_however_rare(conn, server, tmp_path: Path) -> None:
    config = replace(CONFIG, seeds=("Q30", "Q1637706"), steps=1, min_sitelinks=50)
    build(conn, server, tmp_path / "cache", config=config)
    assert {"Q30", "Q1637706"} <= keys(conn)


def test_it_works_without_the_language_filter(conn, server, tmp_path: Path) -> None:
    config = replace(CONFIG, min_languages=0, min_sitelinks=50)
    stages: list[str] = []
    report = build(
        conn, server, tmp_path / "cache", config=config, progress=lambda s, d, t: stages.append(s)
    )
    # Hoboken Terminal (9) and Burgenland Croatian (24) now pass the language count but not this
    assert report.few_languages == 0 and report.few_sitelinks == 3
    assert not keys(conn) & {"Q1637706", "Q2620573", "Q33972"}
    assert "step 1/2 sitelinks" in stages and "step 1/2 languages" not in stages


def test_the_setting_is_checked_and_decides_the_walk() -> None:
    with pytest.raises(ValueError, match="min sitelinks must be at least 0"):
        WalkConfig(seeds=("Q30",), min_sitelinks=-1).validate()
    base = WalkConfig(seeds=("Q30",))
    assert replace(base, min_sitelinks=50).fingerprint() != base.fingerprint()


def test_the_cli_option(tmp_path: Path, server, capsys) -> None:
    assert main(_args(tmp_path, server, "--min-sitelinks", "50")) == 0
    assert "1 with fewer than 50 sitelinks" in " ".join(capsys.readouterr().out.split())
    assert main(_args(tmp_path, server, "--min-sitelinks", "-3", "--replace")) == 2
    assert "min sitelinks must be at least 0" in capsys.readouterr().err
