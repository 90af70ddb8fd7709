"""Exports read back in their own readers; the HTML report is self-contained; ego graphs."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from analysis_support import EDGES, RUN_A, edge_ids, import_mini, make_run, observation_id

from kglens_tui.analysis import exports
from kglens_tui.analysis import triage as tr
from kglens_tui.analysis.colours import heat_hex, text_on
from kglens_tui.analysis.ego import ego_graph
from kglens_tui.analysis.groups import chance_of, group_table
from kglens_tui.analysis.htmlreport import render_html_report
from kglens_tui.analysis.rundata import RunData, load_run_data
from kglens_tui.analysis.svg import Bar, bar_chart, histogram, line_chart
from kglens_tui.answers.bias import Baseline
from kglens_tui.core.safetext import csv_cell


@pytest.fixture
def data(conn: sqlite3.Connection, tmp_path: Path) -> RunData:
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    ids = edge_ids(conn)
    tr.mark_kg_error(conn, edge_id=ids["e5"], author="ann", reason="Borduria uses Ypound")
    tr.mark_kg_error(
        conn, observation_id=observation_id(conn, run, 1, 1), author="ann", reason="B moved"
    )
    return load_run_data(conn, run)


def _by_edge(graph: nx.MultiDiGraph) -> dict[int, dict]:
    return {int(d["edge_id"]): d for _, _, d in graph.edges(data=True)}


@pytest.mark.parametrize("fmt", ["gexf", "graphml"])
def test_graph_exports_read_back(data: RunData, tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"pkg.{fmt}"
    writer = exports.write_gexf if fmt == "gexf" else exports.write_graphml
    writer(data, path)
    graph = nx.read_gexf(path) if fmt == "gexf" else nx.read_graphml(path)
    assert graph.number_of_edges() == 8 and graph.number_of_nodes() == 10
    ids = edge_ids(data.conn)
    edges = _by_edge(graph)
    e3 = edges[ids["e3"]]
    assert float(e3["error_rate"]) == pytest.approx(0.75)  # Beta(3, 1)
    assert float(e3["ci_low"]) == pytest.approx(0.025 ** (1 / 3))
    assert int(e3["m"]) == 0 and int(e3["n"]) == 2 and e3["predicate"] == "capital"
    assert str(edges[ids["e5"]]["kg_error"]).lower() in ("true", "1")
    assert edges[ids["e4"]]["start"] == "2002-01-01"
    assert graph.nodes["c:A"]["label"] == "Aland"
    if fmt == "gexf":  # heat colours for Gephi (networkx reads node colours only)
        text = path.read_text()
        assert text.count("<viz:color") == 8 and f'id="{ids["e3"]}"' in text


def test_graph_with_unprobed_edges(conn: sqlite3.Connection, tmp_path: Path, tiny_kg_dir) -> None:
    from kglens_tui.kg.importers import import_kg
    from kglens_tui.modes.kglens.config import RunConfig
    from kglens_tui.runs.runner import prepare, run_blocking

    import_kg(conn, tiny_kg_dir, "tiny")
    snap = run_blocking(prepare(conn, config=RunConfig(kg="tiny", iterations=2, batch_size=4)))
    data = load_run_data(conn, snap.run_id)
    graph = exports.pkg_graph(data, include_unprobed=True)
    in_run = [d["in_run"] for _, _, d in graph.edges(data=True)]
    assert len(in_run) == 13 and in_run.count(False) == 3  # the dead member_of edges
    nx.write_graphml(graph, tmp_path / "all.graphml")
    assert nx.read_graphml(tmp_path / "all.graphml").number_of_edges() == 13


def test_csv_and_jsonl(data: RunData, tmp_path: Path) -> None:
    exports.write_edges_csv(data, tmp_path / "edges.csv")
    with (tmp_path / "edges.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 8 and list(rows[0]) == list(exports.EDGE_FIELDS)
    e3 = rows[EDGES.index("e3")]
    assert (e3["subject"], e3["m"], e3["n"], float(e3["mean"])) == ("Caledonia", "0", "2", 0.75)
    assert rows[EDGES.index("e5")]["kg_error"] == "1"
    exports.write_edges_jsonl(data, tmp_path / "edges.jsonl")
    objs = [json.loads(line) for line in (tmp_path / "edges.jsonl").read_text().splitlines()]
    assert [o["edge_id"] for o in objs] == [int(e) for e in data.run.edge_ids]
    exports.write_replies_jsonl(data, tmp_path / "replies.jsonl")
    replies = [json.loads(line) for line in (tmp_path / "replies.jsonl").read_text().splitlines()]
    assert len(replies) == 12
    assert [r["effective"] for r in replies if r["edge_id"] == objs[1]["edge_id"]] == [
        "excluded",
        "correct",
    ]
    exports.write_replies_csv(data, tmp_path / "replies.csv")
    with (tmp_path / "replies.csv").open(newline="") as fh:
        parsed = list(csv.DictReader(fh))
    assert len(parsed) == 12 and json.loads(parsed[2]["expected_answers"]) == [["Copolis"]]
    exports.write_groups_csv(group_table(data, "predicate"), tmp_path / "groups.csv")
    with (tmp_path / "groups.csv").open(newline="") as fh:
        groups = {r["key"]: r for r in csv.DictReader(fh)}
    assert groups["currency"]["edges"] == "2" and groups["currency"]["examined"] == "1"
    assert float(groups["capital"]["win"]) == pytest.approx(2 / 3)  # e1 2/0, e2 1/0, e3 0/2
    for key, chance in _chances(data).items():  # with the triage, as the rates
        assert [float(groups[key][f"{m}_chance"]) for m in ("win", "zero_sense", "all_sense")] == [
            pytest.approx(chance.win_rate),
            pytest.approx(chance.zero_sense),
            pytest.approx(chance.all_sense),
        ]


def test_corrections_export(data: RunData, tmp_path: Path) -> None:
    exports.write_corrections(data.conn, data.run.kg_id, tmp_path / "fixes.csv")
    with (tmp_path / "fixes.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["kind"], r["subject"], r["object"]) for r in rows] == [
        ("edge", "Borduria", "Xdollar"),
        ("wrong_fact", "Borduria", "Bopolis"),
    ]
    assert rows[1]["reply"] == "No, it is not." and rows[0]["author"] == "ann"
    exports.write_corrections(data.conn, data.run.kg_id, tmp_path / "fixes.jsonl")
    assert len((tmp_path / "fixes.jsonl").read_text().splitlines()) == 2


def _chances(data: RunData, adjusted: bool = True) -> dict[str, Baseline]:
    """`chance_of` over each predicate's run edges, KG-error edges left out when adjusted."""
    preds = np.array([data.kg.pred_keys[int(data.kg.p[i])] for i in data.kg_pos])
    keep = data.included(adjusted)
    return {
        key: chance_of(data, np.flatnonzero((preds == key) & keep), adjusted)
        for key in set(preds.tolist())
    }


def test_the_html_group_tables_give_each_rate_its_chance(data: RunData) -> None:
    """Each row of the HTML report's group tables has, after each rate, what chance scores on
    the group's questions (`chance_of`), with the triage as its rates: the KG-error reply about
    e2 (Yes/No) leaves capital e1 (two Yes/No), e2 (Wh) and e3 (Yes/No and Wh), the constant
    answer Apolis wrong for e2 and e3, so chance is never right on (1/4 + 1 + 1/2) / 3."""
    from kglens_tui.textfmt import pct

    html = render_html_report(data)
    table = html.split("<h2>Per predicate</h2>")[1].split("</table>")[0]
    head = table.split("</tr>")[0]
    assert re.findall(r"<th[^>]*>([^<]*)</th>", head)[3:9] == [
        "win", "chance", "zero-sense", "chance", "all-sense", "chance"
    ]  # fmt: skip
    labels = {k: data.kg.pred_labels[i] for i, k in enumerate(data.kg.pred_keys)}
    chances = _chances(data)
    assert chances["capital"].zero_sense == pytest.approx(7 / 12)
    for key, chance in chances.items():
        row = table.split(f"<td class='l'>{labels[key]}</td>")[1].split("</tr>")[0]
        shown = re.findall(r"<td class='chance'>([^<]*)</td>", row)
        assert shown == [pct(chance.win_rate), pct(chance.zero_sense), pct(chance.all_sense)]
    assert html.count("chance: what blind guessing scores on the questions the run asked") == 4

    html = render_html_report(data)
    assert html.startswith("<!DOCTYPE html>")
    assert not any(tag in html for tag in ("<script", "<link", "src=", "href=", "@import"))
    assert html.count("<svg") == 3
    for svg in html.split("<svg")[1:]:
        ET.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")
    assert "Per predicate" in html and "Per year of dated facts" in html
    assert "1 KG-error edge and" in html and "Inconsistent response" in html


def test_svg_helpers_parse() -> None:
    svgs = [
        bar_chart([Bar("a & b", 0.5, 0.4, 0.6), Bar("none", None)], "bars <1>"),
        line_chart({"win": [(1, 0.5), (2, None), (3, 0.7)]}, "lines"),
        histogram([0.0, 0.2, 0.99, 1.0], "hist"),
    ]
    for svg in svgs:
        assert ET.fromstring(svg).tag.endswith("svg")
    assert heat_hex(0) == "#2ea043" and heat_hex(1) == "#cf222e" and heat_hex(None) == "#969696"
    assert text_on(0.5) == "#000000"


def test_ego_graph(data: RunData) -> None:
    ego = ego_graph(data, "Aland")
    assert ego.center == "c:A" and not ego.truncated
    assert sorted(n.key for n in ego.nodes) == ["c:A", "city:a", "cur:x", "p:h1"]
    centre = next(n for n in ego.nodes if n.depth == 0)
    assert (centre.x, centre.y, centre.degree) == (0.5, 0.5, 3)
    assert centre.mean_error == pytest.approx((1 / 4 + 1 / 3 + 3 / 5) / 3)
    assert {e.predicate for e in ego.edges} == {"capital", "currency", "head of state"}
    two = ego_graph(data, "c:A", radius=2)
    assert "c:B" in {n.key for n in two.nodes}
    e5 = next(e for e in two.edges if e.source == "c:B")
    assert e5.kg_error and not e5.zero_sense
    cut = ego_graph(data, "c:A", radius=2, max_edges=3)
    assert cut.truncated and len(cut.edges) == 3
    with pytest.raises(KeyError):
        ego_graph(data, "Atlantis")


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_text(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    formula = '=HYPERLINK("http://evil.example","click")'
    conn.execute("UPDATE observation SET reply = ? WHERE run_id = ?", (formula, run))
    conn.execute("UPDATE entity SET label = '@SUM(1+1)' WHERE label = 'Caledonia'")
    data = load_run_data(conn, run)
    exports.write_replies_csv(data, tmp_path / "replies.csv")
    exports.write_edges_csv(data, tmp_path / "edges.csv")
    with (tmp_path / "replies.csv").open(newline="") as fh:
        replies = list(csv.DictReader(fh))
    with (tmp_path / "edges.csv").open(newline="") as fh:
        edges = list(csv.DictReader(fh))
    assert {r["reply"] for r in replies} == {"'" + formula}
    assert edges[EDGES.index("e3")]["subject"] == "'@SUM(1+1)"
    exports.write_replies_jsonl(data, tmp_path / "replies.jsonl")  # JSONL keeps text as it is
    lines = (tmp_path / "replies.jsonl").read_text().splitlines()
    assert {json.loads(line)["reply"] for line in lines} == {formula}
    assert [csv_cell(v) for v in (-1.5, "-", "a=b", None, True)] == [
        -1.5,
        "'-",
        "a=b",
        "",
        1,
    ]


CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
"""What no CSV cell may hold: C0 but tab and newline, DEL, C1, bidi controls, line separators."""


def test_csv_exports_show_control_characters_as_stand_ins(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    """A reply that would clear the screen, ring the bell or reverse a line when the CSV is
    printed in a terminal holds visible stand-ins instead; JSONL keeps it, escaped."""
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    reply = "Yes\x1b[2J\x1b]0;owned\x07 \x9b31m\u202eesrever\u2028next\r\nline\ttab"
    conn.execute("UPDATE observation SET reply = ? WHERE run_id = ?", (reply, run))
    conn.execute("UPDATE entity SET label = '\x1b[31mCaledonia' WHERE label = 'Caledonia'")
    data = load_run_data(conn, run)
    exports.write_replies_csv(data, tmp_path / "replies.csv")
    exports.write_edges_csv(data, tmp_path / "edges.csv")
    for name in ("replies.csv", "edges.csv"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        cells = [c for row in csv.reader(io.StringIO(text, newline="")) for c in row]
        assert not [c for c in cells if CONTROLS.search(c)], name
    with (tmp_path / "replies.csv").open(newline="", encoding="utf-8") as fh:
        replies = {r["reply"] for r in csv.DictReader(fh)}
    assert replies == {"Yes␛[2J␛]0;owned␇ \ufffd31m\u21c4esrever\u23cenext␍\nline\ttab"}
    with (tmp_path / "edges.csv").open(newline="", encoding="utf-8") as fh:
        assert "␛[31mCaledonia" in {r["subject"] for r in csv.DictReader(fh)}
    exports.write_replies_jsonl(data, tmp_path / "replies.jsonl")
    lines = (tmp_path / "replies.jsonl").read_text(encoding="utf-8").split("\n")
    assert {json.loads(line)["reply"] for line in lines if line} == {reply}
    assert "\x1b" not in (tmp_path / "replies.jsonl").read_text(encoding="utf-8")


def test_the_html_report_holds_no_bidi_control_or_escape(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    conn.execute("UPDATE entity SET label = '\u202eCaledonia\x1b[2J' WHERE label = 'Caledonia'")
    conn.execute("UPDATE predicate SET label = '<b>capital</b>' WHERE label = 'capital'")
    html = render_html_report(load_run_data(conn, run))
    assert "\u202e" not in html and "\x1b" not in html and "<b>capital" not in html
    assert "\u21c4Caledonia␛[2J" in html and "&lt;b&gt;capital&lt;/b&gt;" in html


def test_the_html_report_header_says_requests_failure_cause_and_chance(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    """As `kglens report`: requests with failed and dropped, a failed run's cause, and the
    chance each rate is compared with (under the sampler and on independent asks)."""
    from kglens_tui.runs.record import set_status
    from kglens_tui.store.target_usage import add_target_usage

    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    add_target_usage(conn, run, (9, 4, 0, 0, 0, 5))
    set_status(conn, run, "failed", error="HTTP 500 <b>boom</b> from http://x/v1")
    conn.commit()
    html = render_html_report(load_run_data(conn, run))
    requests = conn.execute("SELECT requests FROM target_usage WHERE run_id = ?", (run,))
    assert f"requests {requests.fetchone()[0]:,} (4 failed, 5 dropped)" in html
    assert "cause: HTTP 500 &lt;b&gt;boom&lt;/b&gt; from http://x/v1" in html
    assert "<td class='l'>chance under this sampler</td>" in html
    assert "<td class='l'>chance, independent asks</td>" in html
    assert "mean and range of 40 replays" in html


def test_the_html_report_says_when_verdicts_are_from_an_earlier_verifier(data: RunData) -> None:
    from kglens_tui.analysis.reverify import reverify_run

    assert "given by an earlier verifier" in render_html_report(data)  # no rules in its manifest
    reverify_run(data.conn, data.run.id, author="ann")
    assert "earlier verifier" not in render_html_report(data)


def test_the_html_reports_independent_chance_follows_triage(
    conn: sqlite3.Connection, tmp_path: Path
) -> None:
    """The rates have a with-triage row, so the independent-asks chance has one too: e7 (three
    Yes/No asks, zero-sense chance 1/8) marked a KG error leaves e1 (1/4), e2, e3 (1/2: the Wh
    guess is wrong there), e4 and e5 (1/2), 2.25 / 5 = 45.0%, against 2.375 / 6 = 39.6% as
    logged."""
    import_mini(conn, tmp_path)
    run = make_run(conn, RUN_A)
    html = render_html_report(load_run_data(conn, run))
    assert "<td class='l'>chance, independent asks</td><td></td><td></td>" in html
    assert "(as logged)" not in html.split("Metrics")[1].split("</table>")[0]
    tr.mark_kg_error(conn, edge_id=edge_ids(conn)["e7"], author="ann", reason="outdated")
    html = render_html_report(load_run_data(conn, run))
    rows = re.findall(r"<tr><td class='l'>(chance, independent asks[^<]*)</td>(.*?)</tr>", html)
    zero_sense = 3  # after edges, examined and win
    cells = {label: re.findall(r"<td>([^<]*)</td>", tds)[zero_sense] for label, tds in rows}
    assert cells == {
        "chance, independent asks (as logged)": "39.6%",
        "chance, independent asks (with triage)": "45.0%",
    }


def test_the_html_report_counts_one_of_a_thing_in_the_singular(data: RunData) -> None:
    """Trial 2 read "1 verdicts overridden": one KG-error edge, one KG-error reply and no
    verdict overridden are each said with the noun that fits its count."""
    assert (
        "With triage: 1 KG-error edge and 1 KG-error reply left out, 0 verdicts overridden."
        in render_html_report(data)
    )
