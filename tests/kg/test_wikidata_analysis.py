"""Per-year and per-group analyses of a run on a KG built from (replayed) Wikidata, and bad data
from Wikidata (markup, control characters, missing labels) stored as literal text."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest
from wikidata_support import ReplayServer, _args

from kglens_tui.cli import analysis as commands
from kglens_tui.cli.main import main
from kglens_tui.store.connection import connect

BAD_BERLIN = "[bold]Berlin[/bold] \x1b[2J\x07"
"""A label with Rich markup, an escape sequence and a bell."""


@pytest.fixture
def server():
    with ReplayServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands.console, "width", 220)


def build_and_probe(tmp_path: Path, server: ReplayServer) -> str:
    """Build 'usa-germany' with the CLI, probe it with the simulated target; the db path."""
    assert main(_args(tmp_path, server)) == 0
    db = str(tmp_path / "cli.db")
    probe = ["--db", db, "probe", "--no-tui", "--quiet", "--kg", "usa-germany", "--target", "sim"]
    assert main([*probe, "--iterations", "2", "--batch-size", "16", "--seed", "3"]) == 0
    return db


def analyze(db: str, tmp_path: Path, *options: str) -> dict[str, tuple[str, int]]:
    """`kglens analyze 1 OPTIONS` as CSV: key -> (label, edges) of each group (the whole run's
    row, last, left out)."""
    out = tmp_path / "table.csv"
    assert main(["--db", db, "analyze", "1", *options, "--csv", str(out), "--force"]) == 0
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[-1]["key"] == "all"
    return {r["key"]: (r["label"], int(r["edges"])) for r in rows[:-1]}


def test_year_and_group_analyses_have_rows(tmp_path: Path, server, capsys) -> None:
    db = build_and_probe(tmp_path, server)
    capsys.readouterr()

    years = analyze(db, tmp_path, "--by", "year")
    # the active dated edges; Canada-USA's malformed "-0500-00-00" start is in no year
    assert {k: n for k, (_, n) in years.items()} == {
        "1792": 1,  # United States dollar (month precision)
        "1800": 1,  # Washington, D.C.
        "1866": 1,  # Ottawa (year precision)
        "1920": 1,  # Germany-Denmark border
        "1954": 1,  # Angela Merkel's place of birth (point in time)
        "1990": 1,  # Berlin, from the latest of two statements
        "1999": 3,  # the euro in Germany, France and Austria
    }
    out = capsys.readouterr().out
    assert "Run 1 per year" in out and "1999" in out

    countries = analyze(db, tmp_path, "--by", "group", "--prefix", "country:")
    assert countries["country:Germany"][0] == "Germany"
    assert countries["country:Mexico"][1] == 4  # Mexico's 3 active edges, Mexico City's 1
    assert {"country:United States of America", "country:Canada", "country:Austria"} <= set(
        countries
    )
    assert not [k for k in countries if not k.startswith("country:")]

    seeds = analyze(db, tmp_path, "--by", "group", "--prefix", "seed:")
    assert seeds == {
        "seed:Germany": ("Germany", 30),
        "seed:United States of America": ("United States of America", 21),
    }
    dated = analyze(db, tmp_path, "--by", "predicate", "--dates", "dated")
    # the 9 edges in a year and the 2 active ones whose dates are kept as text
    assert sum(n for _, n in dated.values()) == 11


def relabel(server: ReplayServer, qid: str, label: str | None) -> None:
    """Give an entity another label in every recorded response (None: no label at all)."""
    uri = f"http://www.wikidata.org/entity/{qid}"
    for doc in server.files.values():
        for row in doc["results"]["bindings"]:
            for var in ("subject", "object", "value"):
                if row.get(var, {}).get("value") == uri and f"{var}Label" in row:
                    if label is None:
                        del row[f"{var}Label"]
                    else:
                        row[f"{var}Label"]["value"] = label


def test_bad_labels_are_stored_as_literal_text(tmp_path: Path, server, capsys) -> None:
    relabel(server, "Q64", BAD_BERLIN)
    relabel(server, "Q1055", "")  # Hamburg: an empty label
    relabel(server, "Q1726", None)  # Munich: no label at all
    db = build_and_probe(tmp_path, server)
    conn: sqlite3.Connection = connect(Path(db))
    labels = dict(conn.execute("SELECT key, label FROM entity"))
    assert labels["Q64"] == BAD_BERLIN.strip()
    assert labels["Q1055"] == "Q1055" and labels["Q1726"] == "Q1726"
    conn.close()
    capsys.readouterr()

    assert main(["--db", db, "kg", "show", "usa-germany", "Q64"]) == 0
    out = capsys.readouterr().out
    assert "[bold]Berlin[/bold] ␛[2J␇" in out and "\x1b" not in out and "\x07" not in out
    assert main(["--db", db, "analyze", "1", "--by", "subject"]) == 0
    out = capsys.readouterr().out
    assert "[bold]Berlin[/bold]" in out and "\x1b" not in out
